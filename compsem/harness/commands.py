"""The harness commands as functions: each loads a config, runs a model on it, writes one result
JSON per run plus a Markdown summary into ``out``, and returns the results.

- ``run_train`` / ``run_curve`` (``finetune``): fine-tuning per seed; few-shot learning curves.
- ``run_zero_shot`` / ``run_prompt`` / ``run_score`` (``probing``): no training.
- ``run_report``: mean ± std tables over result folders.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from compsem.harness import page_html, report, report_page
from compsem.harness.common import default_model
from compsem.harness.finetune import run_curve, run_train
from compsem.harness.probing import run_prompt, run_score, run_zero_shot
from compsem.harness.results import read_result_files, write_json, write_text

__all__ = [
    "default_model",
    "run_curve",
    "run_prompt",
    "run_report",
    "run_score",
    "run_train",
    "run_zero_shot",
]


def run_report(paths: Sequence[Path], out: Path | None = None) -> str:
    """Aggregate result files into Markdown and JSON tables; with ``out``, also the results
    page: ``index.html`` (self-contained), its Markdown twin ``index.md`` and ``plots/*.svg``."""
    results, sources, embeds, unreadable = read_result_files(paths)
    aggregated = report.aggregate(results, sources, unreadable)
    markdown = "# compsem report\n\n" + report.render(aggregated)
    if out is not None:
        out = Path(out)
        write_text(out / "report.md", markdown)
        write_json(out / "report.json", {"runs": len(results), **aggregated})
        page, plots = report_page.build(results, sources, embeds, unreadable, out)
        for name, text in plots.items():
            write_text(out / "plots" / name, text)
        write_text(out / "index.md", page)
        write_text(out / "index.html", page_html.render(page, plots, "compsem results"))
    return markdown
