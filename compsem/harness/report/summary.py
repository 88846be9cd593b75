"""``summary.md``: the report of one command's runs, written beside its result files."""

from __future__ import annotations

from pathlib import Path

from compsem.harness.report import tables
from compsem.harness.results.files import SUMMARY, write_text
from compsem.harness.results.model import group_results
from compsem.text.escape import markdown_text


def summarise(out: Path, results: list[dict], title: str) -> str:
    """Write ``summary.md`` (the report of this command's runs) and return it."""
    markdown = f"# {markdown_text(title)}\n\n" + tables.render(
        tables.aggregate(group_results(results))
    )
    write_text(Path(out) / SUMMARY, markdown)
    return markdown
