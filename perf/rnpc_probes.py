"""RNPC §7's probes of MiniLM before and after fine-tuning on compsem's generated SPTE rows; writes
the record `perf/measured/records/rnpc_probes.json` from the analysis files the runs wrote (no
figure is typed in).

The runs (on a shared 2-core machine, one thread each):

    compsem build rnpc --out EXPORT --config spte_challenge
    compsem train --dataset EXPORT --config spte_challenge --model minilm \\
        --max-train-examples 2000 --max-eval-examples 500 --epochs 1 --learning-rate 5e-5 \\
        --save-model --out RUNS/spte
    compsem probe-edges --dataset EXPORT --config spte_challenge --model minilm \\
        --model RUNS/spte/model-seed1 --max-phrases 300 --out RUNS/edges
    compsem probe-scope --dataset EXPORT --config spte_challenge --model minilm \\
        --model RUNS/spte/model-seed1 --max-phrases 500 --out RUNS/scope

Usage: python perf/rnpc_probes.py --runs RUNS [--out perf/measured/records/rnpc_probes.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

RECORD = Path("perf/measured/records/rnpc_probes.json")


def _f(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def edge_note(edges: dict) -> str:
    items, majority, words = edges["items"], edges["majority"], edges["modifier_words"]
    return (
        f"Edge probing at the last layer (the paper's) of {edges['settings']['phrases']} "
        f"spte_challenge test phrases: {items['train']} / {items['validation']} / "
        f"{items['test']} modifier tokens in train / validation / test, their {words['train']} / "
        f"{words['validation']} / {words['test']} words kept apart; App. E.3's grid "
        f"({edges['settings']['grid_fitted']} distinct probes per model) chosen on validation. "
        f"Always answering {majority['category']} scores {majority['accuracy']:.3f} on test."
    )


def record(runs: Path) -> dict:
    edges_file = runs / "edges" / "probe-edges-spte_challenge.json"
    edges = json.loads(edges_file.read_text()) if edges_file.is_file() else None
    if edges is None:  # the grid did not finish on the shared CPU: the scope alone
        edges = {"models": [{}, {}], "categories": [], "created": "", "dataset": None}
    scope = json.loads((runs / "scope" / "probe-scope-spte_challenge.json").read_text())
    trained = json.loads((runs / "spte" / "train-spte_challenge-seed1.json").read_text())
    names = ["MiniLM, pretrained", "MiniLM, fine-tuned on SPTE"]
    rows = []
    for name, probe, attention in zip(names, edges["models"], scope["models"], strict=True):
        by = probe.get("by_category", {})
        last = attention["layers"][-1]
        rows.append(
            [name, _f(probe.get("accuracy")), _f(probe.get("macro_f1"))]
            + [_f(by.get(c)) for c in edges["categories"] or ["–"]]
            + [_f(last["mean"]), _f(last["below_half"])]
        )
    words = list(scope["modifiers"])[:3]
    per_word = "; ".join(
        f"{w} ({scope['modifiers'][w]} phrases) "
        + " → ".join(_f(m["by_modifier"][w]["mean"]) for m in scope["models"])
        for w in words
    )
    settings = trained["settings"]
    notes = (
        [edge_note(edges)]
        if edges["dataset"]
        else [
            "Edge probing: not measured; App. E.3's grid (1,620 probes per model) did not finish "
            "on the shared CPU in the session's time."
        ]
    )
    notes += [
        f"Scope: r = A(M1→M2) / (A(M1→M2) + A(M1→N)) at the last layer over "
        f"{scope['settings']['phrases']} phrases with a privative M1 (above 0.5: M1 attends more "
        f"to M2). Per M1, pretrained → fine-tuned: {per_word}.",
        f"Fine-tuning: {settings['train_examples']} generated spte_challenge train rows, "
        f"{settings['epochs']:g} epoch, learning rate {settings['learning_rate']:g}, batch "
        f"{settings['batch_size']} (one epoch, not the preset's three: the CPU was shared); "
        f"accuracy {trained['scores']['accuracy']:.3f} on {trained['scores']['n']} test rows.",
    ]
    return {
        "command": "python perf/rnpc_probes.py --runs RUNS (runs listed in its docstring)",
        "machine": "2 shared, loaded CPU cores (AMD EPYC), one thread per run",
        "date": max(edges["created"], scope["created"])[:10],
        "versions": {"rnpc": scope["dataset"]["version"]},
        "source": "probe-edges-spte_challenge.json and probe-scope-spte_challenge.json under RUNS",
        "figures": {
            "columns": [
                "model",
                "probe accuracy",
                "macro-F1",
                *(edges["categories"] or ["per category"]),
                "mean r (last layer)",
                "share r < 0.5",
            ],
            "rows": rows,
            "notes": notes,
        },
        "renderer": "table",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=RECORD)
    args = parser.parse_args()
    args.out.write_text(json.dumps(record(args.runs), indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
