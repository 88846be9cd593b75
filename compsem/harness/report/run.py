"""``compsem report``: result files read once, aggregated into Markdown and JSON tables, and with
``--out`` the results page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from compsem.harness.analysis.page import read_analyses
from compsem.harness.report import page as report_page
from compsem.harness.report import page_html, tables
from compsem.harness.results.files import check_writable, json_text, read_result_files, write_text


def run_report(paths: Sequence[Path], out: Path | None = None) -> str:
    """Aggregate result files into Markdown and JSON tables; with ``out``, also the results
    page: ``index.html`` (self-contained), its Markdown twin ``index.md`` and ``plots/*.svg``.
    Every file is made first and checked (:func:`check_writable`) before any is written, so a
    file compsem may not replace is one error that leaves ``out`` as it was."""
    results, sources, embeds, unreadable = read_result_files(paths)
    analyses = read_analyses(paths)
    aggregated = tables.aggregate(results, sources, unreadable)
    markdown = "# compsem report\n\n" + tables.render(aggregated)
    if out is not None:
        out = Path(out)
        page, plots = report_page.build(results, sources, embeds, unreadable, out, analyses)
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
