"""The harm-detection table (RNPC §8) of ``compsem report`` and the results page: a line per
result file (model, classifier, queries), each score of HARM with its 95% interval."""

from __future__ import annotations

from pathlib import Path

from compsem.harness.report.cells import MIN_GROUP_ROWS, markdown_table
from compsem.text.escape import markdown_text

TITLE = "Harm detection, zero-shot (RNPC §8)"
METRICS = ("accuracy", "precision", "recall", "f1")


def _cell(scores: dict, metric: str) -> str:
    value, interval = scores.get(metric), scores.get(f"{metric}_interval")
    if value is None:
        return "–"
    return f"{value:.3f}" + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "")


def aggregate_harm(results: list[dict], sources=None) -> list[dict]:
    """One line per run, newest last, with what sets it apart."""
    sources = sources or [""] * len(results)
    lines = []
    for result, source in sorted(
        zip(results, sources, strict=True), key=lambda pair: pair[0]["created"]
    ):
        scores = result["scores"]
        lines.append(
            {
                "model": "/".join(Path(result["model"]).parts[-2:]),
                "task": result["settings"]["task"]
                + (
                    " by generation" if result["settings"].get("answers_by") == "generation" else ""
                ),
                "queries": result["dataset"]["split"],
                "n": scores["n"],
                "no_keyword_phrase": len(scores.get("no_keyword_phrase", [])),
                **{metric: _cell(scores, metric) for metric in METRICS},
                "file": source,
            }
        )
    return lines


def render_harm(lines: list[dict], level: str = "##") -> str:
    table = markdown_table(
        [
            "model",
            "classifier",
            "queries",
            "n",
            "accuracy",
            "precision",
            "recall",
            "F1",
            "no keyword NP",
        ],  # fmt: skip
        [
            [*map(markdown_text, (line["model"], line["task"], line["queries"])), str(line["n"])]
            + [line[metric] for metric in METRICS]
            + [str(line["no_keyword_phrase"])]
            for line in lines
        ],
        3,
    )
    note = (
        "Scores of HARM with 95% intervals (Wilson for accuracy, precision and recall; a "
        "bootstrap over queries for F1). Queries with no noun phrase headed by a keyword are "
        "judged not harmful; the last column counts them."
    )
    if any(line["n"] < MIN_GROUP_ROWS for line in lines):
        note += (
            f" Fewer than {MIN_GROUP_ROWS} queries (the 20-query sample, for one) leave each "
            "interval about ±0.2 wide: too few to rank classifiers."
        )
    return "\n\n".join([f"{level} {TITLE}", table, note])
