"""``compsem report``: result files read and grouped once (``results.model``), rendered as
Markdown and JSON tables, and with ``--out`` as the results page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from compsem.harness.report import page as report_page
from compsem.harness.report import page_html, tables
from compsem.harness.results.files import check_writable, json_text, write_text
from compsem.harness.results.model import read


def run_report(paths: Sequence[Path], out: Path | None = None) -> str:
    """Aggregate result files into Markdown and JSON tables; with ``out``, also the results
    page: ``index.html`` (self-contained), its Markdown twin ``index.md`` and ``plots/*.svg``.
    Every file is made first and checked (:func:`check_writable`) before any is written, so a
    file compsem may not replace is one error that leaves ``out`` as it was."""
    results = read(paths)  # every file read once, the runs grouped once
    aggregated = tables.aggregate(results)
    markdown = "# compsem report\n\n" + tables.render(aggregated)
    if out is not None:
        out = Path(out)
        page, plots = report_page.build(results, out)
        files = {
            out / "report.md": markdown,
            out / "report.json": json_text({"runs": len(results.results), **aggregated}),
            **{out / "plots" / name: text for name, text in plots.items()},
            out / "index.md": page,
            out / "index.html": page_html.render(page, plots, "compsem results"),
        }
        check_writable(files)
        for path, text in files.items():
            write_text(path, text)
    return markdown
