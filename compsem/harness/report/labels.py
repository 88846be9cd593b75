"""What every classification line shows beside its means: the 95% interval of each score
(``compsem.harness.results.intervals``) and precision, recall and F1 per label (RNPC's
Tables 10-12)."""

from __future__ import annotations

from compsem.harness.report.cells import (
    NO_INTERVAL,
    fmt,
    fmt_interval,
    markdown_table,
    mean_std,
)
from compsem.harness.results.comparable import rows_text
from compsem.text.escape import Markdown

CI = "95% CI"
CI_NOTE = (
    f"{CI}: the 95% interval of a score on the rows a run scored (accuracy: Wilson; macro-F1 "
    "and AUCnorm: a seeded bootstrap over the items rows share; over several runs the mean of "
    f"their bounds). ± std: the spread over seeds and resampled splits, apart from it. "
    f"{NO_INTERVAL}: a result file written without intervals."
)
PER_LABEL = ("precision", "recall", "f1")


def ci_cell(row: dict, metric: str, percent: bool = False) -> Markdown:
    """A line's ``metric`` interval (``row[metric + "_ci"]``, see ``cells.interval_of``)."""
    return fmt_interval(row.get(f"{metric}_ci"), percent)


def per_label(runs: list[dict]) -> dict:
    """``{label: {precision, recall, f1: mean ± std over runs, support}}`` of a line's runs
    (results without per-label precision give none; harm detection's precision is one number,
    of HARM, not a table per label)."""
    runs = [r for r in runs if isinstance(r["scores"].get("precision"), dict)]
    labels = list(dict.fromkeys(label for r in runs for label in r["scores"]["precision"]))
    table = {}
    for label in labels:
        cells = {
            key: mean_std((r["scores"].get(key) or {}).get(label) for r in runs)
            for key in PER_LABEL
        }
        supports = [(r["scores"].get("support") or {}).get(label) for r in runs]
        counts = [count for count in supports if isinstance(count, int)]
        cells["support"] = {"min": min(counts, default=None), "max": max(counts, default=None)}
        table[label] = cells
    return table


def render_per_label(lines: list[dict], level: str = "##") -> str:
    """One table: each classification line's precision, recall and F1 per label, under a
    heading of ``level``."""
    rows = [
        [line["label"], label, *(fmt(cells[key]) for key in PER_LABEL)]
        + [rows_text(cells["support"]) if cells["support"]["min"] is not None else "–"]
        for line in lines
        for label, cells in (line.get("per_label") or {}).items()
    ]
    return "\n\n".join(
        [
            f"{level} Precision and recall per label (mean ± std over runs; RNPC Tables 10-12)",
            markdown_table(["line", "label", "precision", "recall", "F1", "support"], rows, 2),
            "support: the rows holding the label in each run. Precision (recall) is 0 for a "
            "label never predicted (never present), as scikit-learn's zero_division=0.",
        ]
    )


def per_label_section(report: dict) -> list[str]:
    """The per-label section of a whole report (``tables.aggregate``'s): every line of the
    sections whose runs classify, or nothing where none records its labels."""
    labelled = [report[k] for k in ("train", "llm", "probe_likelihood") if k in report]
    labelled += [
        {"settings": list(report[k].values())} for k in ("zero_shot", "prompt") if k in report
    ]
    rows = [row for section in labelled for row in section["settings"]]
    return [render_per_label(rows)] if any(row.get("per_label") for row in rows) else []
