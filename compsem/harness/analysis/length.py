"""Accuracy against input length (PLANE App. D, Fig. 8): fine-tuning runs of one model and config
that differ in ``--max-length`` alone (``compsem train --max-length 6 8 10 12``, or one ``train``
per length) are drawn as one curve of accuracy (mean ± std over seeds) against the maximum input
length in tokens. The runs are told apart by their settings, not their files' names: a sweep in one
folder and a folder per length draw the same curve."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from compsem.harness.report import svg
from compsem.harness.report.cells import fmt, markdown_table, mean_std
from compsem.harness.results.comparable import NOT_SETTINGS, Line
from compsem.text.escape import markdown_text

LENGTH = "max_length"


def length_series(lines: Sequence[tuple[str, Line]]) -> list[dict]:
    """One series per model and config with runs at two or more maximum lengths: ``{"name",
    "shots" (the lengths), "mean", "std"}`` of accuracy, lengths ascending."""
    by_length = defaultdict(lambda: defaultdict(list))
    for command, line in lines:
        if command != "train":
            continue
        for run in line.runs:
            length = run["settings"].get(LENGTH)
            if length is not None and run["scores"].get("accuracy") is not None:
                # runs that differ in any other setting are another curve (a note is no setting)
                others = sorted(
                    (k, str(v))
                    for k, v in run["settings"].items()
                    if k != LENGTH and k not in NOT_SETTINGS
                )
                key = (line.model, run["dataset"]["config"], str(others))
                by_length[key][int(length)].append(run["scores"]["accuracy"])
    series, names = [], defaultdict(int)
    for (model, config, _), points in sorted(by_length.items()):
        if len(points) < 2:
            continue
        stats = [mean_std(points[length]) for length in sorted(points)]
        names[(model, config)] += 1
        count = names[(model, config)]
        series.append(
            {
                "name": f"{model}, {config}" + (f" (settings {count})" if count > 1 else ""),
                "shots": sorted(points),
                "mean": [s["mean"] for s in stats],
                "std": [s["std"] for s in stats],
                "n": [s["n"] for s in stats],
            }
        )
    return series


def length_parts(lines: Sequence[tuple[str, Line]], plot: Callable[[str, str, str], str]) -> list:
    """The plot and table of accuracy against maximum input length, where runs of a model and
    config were trained at several lengths; nothing otherwise."""
    series = length_series(lines)
    if not series:
        return []
    rows = [
        [s["name"], str(length), fmt({"mean": m, "std": d}), str(n)]
        for s in series
        for length, m, d, n in zip(s["shots"], s["mean"], s["std"], s["n"], strict=True)
    ]
    title = "Accuracy against maximum input length, ± std over seeds"
    text = svg.curves(title, series, "maximum input length (tokens)", "accuracy")
    return [
        "### Accuracy against input length (PLANE Fig. 8)",
        plot("input-length.svg", text, title),
        markdown_table(["model, config", "max length", "accuracy", "runs"], rows, 1),
        markdown_text(
            "Runs of one model and config trained with different --max-length (compsem train "
            "--max-length 6 8 10 12: a run per length N); inputs longer than N tokens are cut."
        ),
    ]
