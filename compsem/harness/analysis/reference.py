"""The papers' own numbers beside compsem's: each benchmark's spec declares its paper's headline
results (``BenchmarkSpec.paper_results``); under its leaderboard they are listed, marked
"reported in the paper, not rerun", each beside compsem's lines of the same configs and metric.
They are never pooled into compsem's lines, means or rankings: this module only reads both."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from compsem.benchmark.spec import PaperResult
from compsem.builders import BENCHMARKS
from compsem.harness.report.cells import SCORES, fmt, markdown_table, mean_std
from compsem.harness.results.comparable import Line
from compsem.text.escape import Markdown, markdown_text

HEADING = "Reported in the paper, not rerun"
NOTE = (
    "Numbers copied from the paper as it prints them (its models, its data and its runs): "
    "they are not rerun by compsem and take no part in the leaderboard's means or order. The "
    "last column gives compsem's lines on the same configs and metric, on compsem's generated "
    "data (its own scale: a percentage is a share there)."
)


def line_cells(
    result: PaperResult, lines: Sequence[tuple[str, Line]], link: Callable | None
) -> list[str]:
    """compsem's leaderboard lines that ran on any of the result's configs, with their mean ±
    std of its metric, linked to their runs where the page links numbers."""
    score = dict(SCORES).get(result.metric)  # the leaderboard column's reading of a run
    cells = []
    for command, line in lines:
        configs = {run["dataset"]["config"] for run in line.runs}
        if score is None or not configs & set(result.configs):
            continue
        stat = mean_std(score(run) for run in line.runs)
        if not stat["n"]:
            continue
        text = fmt(stat)
        if link:
            text = f"[{text}](#{link(command, line)})"
        cells.append(f"{markdown_text(line.model)} {command}: {text}")
    return cells


def embed_cells(
    benchmark: str, result: PaperResult, embeds: Sequence[tuple[str, dict]]
) -> list[str]:
    """compsem's embedding reports' scores of the result's test, phrase set and group."""
    tests = BENCHMARKS[benchmark].embedding if benchmark in BENCHMARKS else None
    cells = []
    for _, report in embeds:
        if tests is None:
            break
        by_set = tests.phrase_configs.get(report.get("vocabulary", "paper"), {})
        for model in report.get("models", []):
            for phrase_set, found in model.get("results", {}).items():
                if by_set.get(phrase_set) not in result.configs or result.metric not in found:
                    continue
                test = found[result.metric]
                cell = test.get("by_type", {}).get(result.group) if result.group else test
                if cell and cell.get("score") is not None:
                    score = fmt({"mean": cell["score"], "std": None})
                    cells.append(f"{markdown_text(model['label'])}: {score}")
    return cells


def reference_parts(
    benchmark: str,
    lines: Sequence[tuple[str, Line]] = (),
    embeds: Sequence[tuple[str, dict]] = (),
    link: Callable | None = None,
    level: str = "###",
) -> list[str]:
    """The Markdown parts listing a benchmark's paper results beside compsem's (none where its
    spec declares none): a heading, a table and its note."""
    spec = BENCHMARKS.get(benchmark)
    declared = spec.paper_results if spec else ()
    if not declared:
        return []
    rows = []
    for result in declared:
        ours = line_cells(result, lines, link) + embed_cells(benchmark, result, embeds)
        configs = ", ".join(result.configs[:1]) + (
            f" … ({len(result.configs)} configs)" if len(result.configs) > 1 else ""
        )
        metric = result.metric + (f", {result.group}" if result.group else "")
        reported = result.reported + (f" ({result.spread_of})" if result.spread_of else "")
        rows.append(
            [result.source, result.model, configs, metric, reported]
            + [Markdown("; ".join(ours) or "–")]
        )
    header = ["paper", "model (paper)", "config", "metric", "reported", "compsem, same config"]
    return [f"{level} {HEADING}", markdown_table(header, rows, len(header)), NOTE]
