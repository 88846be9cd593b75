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
from compsem.harness.results import check_writable, json_text, read_result_files, write_text

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
    page: ``index.html`` (self-contained), its Markdown twin ``index.md`` and ``plots/*.svg``.
    Every file is made first and checked (:func:`check_writable`) before any is written, so a
    file compsem may not replace is one error that leaves ``out`` as it was."""
    results, sources, embeds, unreadable = read_result_files(paths)
    aggregated = report.aggregate(results, sources, unreadable)
    markdown = "# compsem report\n\n" + report.render(aggregated)
    if out is not None:
        out = Path(out)
        page, plots = report_page.build(results, sources, embeds, unreadable, out)
        files = {
            out / "report.md": markdown,
            out / "report.json": json_text({"runs": len(results), **aggregated}),
            **{out / "plots" / name: text for name, text in plots.items()},
            out / "index.md": page,
            out / "index.html": page_html.render(page, plots, "compsem results"),
        }
        check_writable(files)
        for path, text in files.items():
            write_text(path, text)
    return markdown
