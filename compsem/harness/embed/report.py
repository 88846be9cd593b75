"""Reports of ``compsem embed``: score rows from a run, the demo's table, heatmaps of the
type-pair tables, and the report folder (the paper's tables come from
``compsem.builders.montague.tables``, which the dataset card's reference scores use too).
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

import numpy as np

from compsem.builders.montague.lexicon import ADJECTIVE_TYPES, TYPE_CODES
from compsem.builders.montague.tables import (
    ALL_TYPES,
    HEATMAPS,
    S_I,
    markdown_tables,
    score_cell,
    scores_tsv,
)
from compsem.harness.embed.models import MINILM
from compsem.harness.embed.run import run_embed
from compsem.output_folder import atomic_folder

REPORT_KIND = "Montague embedding report"


def score_rows(report: dict) -> list[dict]:
    """Long-format rows of a ``run_embed`` report: overall (types ``all``) and per type key."""
    rows = []
    for model in report["models"]:
        for phrase_set, tests in model["results"].items():
            for test, result in tests.items():
                cells = [(ALL_TYPES, result)] + sorted(result["by_type"].items())
                for types, cell in cells:
                    rows.append(
                        {
                            "model": model["label"],
                            "phrase_set": phrase_set,
                            "test": test,
                            "types": types,
                            "score": cell["score"],
                            "count": cell["count"],
                        }
                    )
    return rows


def demo_markdown(rows: list[dict]) -> str:
    """One model's AN scores in one table: a row per test, a column per adjective type."""
    tests = (
        ("intersectivity", "intersectivity (eq. 3, Table 2)", lambda t: t),
        (
            "pair_intersectivity",
            "pair intersectivity, a1 S-I (eq. 5, Table 4)",
            lambda t: f"{S_I}, {t}",
        ),
        ("non_subsectivity", "non-subsectivity (eq. 7, Table 5)", lambda t: t),
    )
    lines = [
        "| AN test | " + " | ".join(TYPE_CODES[t] for t in ADJECTIVE_TYPES) + " |",
        "|---|" + "---:|" * len(ADJECTIVE_TYPES),
    ]
    for test, title, key in tests:
        scores = {
            r["types"]: r["score"] for r in rows if r["phrase_set"] == "an" and r["test"] == test
        }
        lines.append(
            f"| {title} | "
            + " | ".join(score_cell(scores.get(key(t)), 2) for t in ADJECTIVE_TYPES)
            + " |"
        )
    return "\n".join(lines)


def heatmap(rows: list[dict], phrase_set: str, test: str, path: Path) -> Path | None:
    """A type × type heatmap per model (a1 rows, a2 columns), side by side in one PNG."""
    import matplotlib  # matplotlib takes a second to import: only plots pay for it

    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt

    scores: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["phrase_set"] == phrase_set and row["test"] == test and row["types"] != ALL_TYPES:
            scores.setdefault(row["model"], {})[row["types"]] = row["score"]
    if not scores:
        return None
    codes = [TYPE_CODES[t] for t in ADJECTIVE_TYPES]
    figure, axes = plt.subplots(
        1,
        len(scores),
        figsize=(3.8 * len(scores) + 1.0, 3.8),
        dpi=120,
        squeeze=False,
        layout="constrained",
    )
    for axis, (model, by_type) in zip(axes[0], scores.items(), strict=True):
        grid = np.array(
            [[by_type.get(f"{a}, {b}", np.nan) for b in ADJECTIVE_TYPES] for a in ADJECTIVE_TYPES],
            dtype=float,
        )
        image = axis.imshow(grid, vmin=0, vmax=1, cmap="viridis")
        for (i, j), value in np.ndenumerate(grid):
            if not np.isnan(value):
                axis.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7,
                          color="black" if value > 0.5 else "white")  # fmt: skip
        axis.set_xticks(range(len(codes)), codes, fontsize=7)
        axis.set_yticks(range(len(codes)), codes, fontsize=7)
        axis.set_xlabel(
            "second adjective (a2)" if test == "pair_intersectivity" else "second adjective",
            fontsize=8,
        )
        axis.set_ylabel(
            "first adjective (a1)" if test == "pair_intersectivity" else "first adjective",
            fontsize=8,
        )
        axis.set_title(model, fontsize=9)
    what = (
        "AAN intersectivity (eq. 3)"
        if test == "intersectivity"
        else "AN pair intersectivity (eq. 5)"
    )
    figure.suptitle(f"{what}: share of cases that hold", fontsize=9)
    figure.colorbar(image, ax=list(axes[0]), shrink=0.8)
    figure.savefig(path)
    plt.close(figure)
    return path


def report_comments(report: dict, command: str) -> list[str]:
    lexicon = report["lexicon"]
    return [
        f"benchmark: {report['benchmark']} {report['version']}",
        f"lexicon: {lexicon['source']}",
        f"lexicon_fingerprint: {lexicon['fingerprint']}",
        f"command: {command}",
    ]


def write_report(report: dict, out: Path, command: str, force: bool = False) -> list[Path]:
    """``results.json``, its per-phrase ``results.rows.jsonl``, ``tables.md``, ``scores.tsv``
    and heatmap PNGs, written atomically (``force``: as
    :func:`compsem.output_folder.check_output_folder` allows)."""
    rows = score_rows(report)
    summary = {key: value for key, value in report.items() if key != "rows"}
    with atomic_folder(out, {"kind": REPORT_KIND}, force=force) as staging:
        (staging / "results.json").write_text(
            json.dumps({**summary, "command": command}, indent=2) + "\n"
        )
        (staging / "results.rows.jsonl").write_text(
            "".join(json.dumps(row) + "\n" for row in report.get("rows", ()))
        )
        header = f"# Montague consistency: {', '.join(m['label'] for m in report['models'])}\n\n"
        header += f"Regenerate with `{command}`.\n\n"
        (staging / "tables.md").write_text(header + markdown_tables(rows))
        (staging / "scores.tsv").write_text(scores_tsv(rows, report_comments(report, command)))
        for phrase_set, test in HEATMAPS:
            heatmap(rows, phrase_set, test, staging / f"heatmap_{phrase_set}_{test}.png")
    return sorted(path for path in Path(out).iterdir() if not path.name.startswith("."))


def command_line(
    dataset: str,
    models=(MINILM,),
    pooling: str | None = None,
    vocabulary: str = "paper",
    phrase_sets=None,
) -> str:
    """The command that regenerates a report; the output folder does not change the scores."""
    parts = ["compsem", "embed", "--dataset", str(dataset)]
    for model in models:
        parts += ["--model", model]
    if pooling:
        parts += ["--pooling", pooling]
    if vocabulary != "paper":
        parts += ["--vocabulary", vocabulary]
    if phrase_sets:
        parts += ["--phrase-sets", *phrase_sets]
    return shlex.join(parts) + " --out DIR"


def demo_table(export: Path) -> str:
    """The offline MiniLM's consistency scores on the AN phrases of a Montague export, as
    Markdown (a row per test, a column per adjective type), with the time it took."""
    start = time.perf_counter()
    report = run_embed([MINILM], str(export), phrase_sets=["an"])
    seconds = time.perf_counter() - start
    phrases = report["phrase_sets"]["an"]
    return (
        demo_markdown(score_rows(report))
        + f"\n\nall-MiniLM-L6-v2 on the {phrases} AN phrases of Appendix A ({seconds:.1f} s); "
        f"all tables, AAN included: `compsem embed --dataset {export} --model {MINILM} "
        "--out DIR`."
    )
