"""RNPC §8 harm detection with MiniLM fine-tuned on compsem's generated rows; writes the record
`perf/measured/records/rnpc_harm_detection.json` from the result files the runs wrote (no figure
is typed in).

The runs (on a shared 2-core machine, one thread each):

    compsem build rnpc --out EXPORT --config epc_challenge spte_challenge
    compsem train --dataset EXPORT --config TASK_challenge --max-train-examples 2000 --epochs 2 \\
        --batch-size 4 --learning-rate 5e-5 --eval-split validation --seeds 1 2 3 --save-model \\
        --out RUNS/train_TASK                      # for TASK in epc, spte
    compsem harm-detection --data DATA --queries QUERIES --task TASK \\
        --model RUNS/train_TASK/model-seedN --out RUNS/harm/TASK-seedN
    compsem harm-detection --data DATA --queries QUERIES --task always --out RUNS/harm/always

Usage: python perf/rnpc_harm_detection.py --runs RUNS [--out perf/measured/records/...json]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from compsem.harness.results.files import read_results

RECORD = Path("perf/measured/records/rnpc_harm_detection.json")
ORDER = {"epc": 0, "spte": 1, "llm": 2, "always": 3}
# Why the EPC classifier says what it says: its label for pairs of our own (not the queries'),
# an event it trained on (a gun's harm, in keeping with it) beside the template's "is harmful"
PROBES = (
    ("A gun is harmful.", "A fake gun is harmful."),
    ("A gun kills people.", "A fake gun kills people."),
    ("A gun is harmful.", "A gun is harmful."),
)


def probe(model: Path) -> list[str]:
    """The EPC model's label and its probability for each pair of :data:`PROBES`."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    classifier = AutoModelForSequenceClassification.from_pretrained(model).eval()
    tokenizer = AutoTokenizer.from_pretrained(model)
    said = []
    with torch.inference_mode():
        for first, second in PROBES:
            p = torch.softmax(
                classifier(**tokenizer(first, second, return_tensors="pt")).logits, -1
            )
            label = int(p.argmax())
            said.append(
                f"{second!r} vs {first!r}: {classifier.config.id2label[label]} ({float(p[0, label]):.2f})"
            )
    return said


def _cell(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def _interval(scores: dict, metric: str) -> str:
    low, high = scores[f"{metric}_interval"] or (None, None)
    return "–" if low is None else f"{scores[metric]:.3f} [{low:.2f}, {high:.2f}]"


def record(runs: Path) -> dict:
    results = read_results([runs / "harm"])
    results.sort(key=lambda r: (ORDER[r["settings"]["task"]], r["model"]))
    rows, by_task = [], {}
    for result in results:
        s, task = result["scores"], result["settings"]["task"]
        model = "/".join(Path(result["model"]).parts[-2:]) if task != "always" else "–"
        by_task.setdefault(task, []).append(s["accuracy"])
        rows.append(
            [task, model, s["n"], _interval(s, "accuracy"), _cell(s["precision"]),
             _cell(s["recall"]), _interval(s, "f1"), len(s["no_keyword_phrase"])]
        )  # fmt: skip
    means = {
        task: {"mean": statistics.mean(a), "runs": len(a), "min": min(a), "max": max(a)}
        for task, a in by_task.items()
    }
    trained = {}
    for task in ("epc", "spte"):
        folder = runs / f"train_{task}"
        if folder.exists():
            runs_of = sorted(read_results([folder]), key=lambda r: r["seed"])
            trained[task] = [round(r["scores"]["accuracy"], 3) for r in runs_of]
    n, harmful = results[0]["scores"]["n"], results[0]["scores"]["harmful"]
    epc_model = runs / "train_epc" / "model-seed1"
    probes = probe(epc_model) if epc_model.exists() else []
    notes = [
        "Accuracy per classifier, mean over its runs: "
        + "; ".join(
            f"{task} {m['mean']:.3f} ({m['runs']} run{'s' * (m['runs'] > 1)}, "
            f"{m['min']:.3f} to {m['max']:.3f})"
            for task, m in means.items()
        )
        + f". Only {n} queries ({harmful} harmful; the sample of the release's 170 that compsem "
        "may read): "
        "an interval spans about ±0.2; targets (issue 53): EPC ≥ 0.70, SPTE ≥ 0.60, "
        "always-harmful 0.50 on the balanced 170.",
        "The classifiers' accuracy on their challenge config's generated validation rows, per "
        "seed: "
        + "; ".join(f"{task} {', '.join(map(str, a))}" for task, a in trained.items())
        + ".",
        *(["EPC seed 1 on pairs of our own: " + "; ".join(probes) + "."] if probes else []),
    ]
    return {
        "command": "python perf/rnpc_harm_detection.py --runs RUNS (runs listed in its docstring)",
        "machine": "2 shared, loaded CPU cores (AMD EPYC), one thread per run",
        "date": max(r["created"] for r in results)[:10],
        "versions": {"rnpc": "4.1.0"},
        "source": "the harm-detection result files under RUNS/harm",
        "figures": {
            "columns": [
                "classifier",
                "model",
                "queries",
                "accuracy [95%]",
                "precision",
                "recall",
                "F1 [95%]",
                "no keyword NP",
            ],  # fmt: skip
            "rows": rows,
            "notes": notes,
            "means": means,
            "validation_accuracy": trained,
            "epc_seed1_probes": probes,
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
