"""The papers' analyses of saved runs on the results page (the files ``compsem subwords`` and
``compsem pmi`` write), found under the report's folders and shown in their benchmark's section."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from compsem.files.bounded_read import read_json
from compsem.harness.analysis import pmi
from compsem.harness.analysis.run import KIND, MARKER, scatter
from compsem.harness.analysis.subwords import markdown
from compsem.text.escape import markdown_code, markdown_text

PMI = (pmi.KIND, "classes")  # the file name and a key only it holds


def read_analyses(paths: Sequence[Path]) -> list[dict]:
    """Every analysis file under the given folders, each with its ``file``. One that cannot be
    read is skipped here: the report's reading of every JSON file under those folders
    (``read_result_files``) has already listed it under "Files not read"."""
    found = []
    for path, (kind, key) in [(Path(p), k) for p in paths for k in ((KIND, "points"), PMI)]:
        for file in sorted(path.rglob(f"{kind}.json")) if path.is_dir() else []:
            try:  # a regular file, bounded and depth-checked
                payload = read_json(file, "result")
            except (OSError, ValueError):
                continue
            if isinstance(payload, dict) and payload.get(MARKER) and key in payload:
                found.append({**payload, "file": str(file)})
    return found


def analysis_parts(analyses: list[dict], plot: Callable[[str, str, str], str]) -> list[str]:
    """Each subword analysis as a heading, its scatter plot and its tables; each PMI analysis
    as its plot and table."""
    parts = []
    for analysis in analyses:
        if analysis.get("analysis") == pmi.KIND:
            title = f"PMI by {analysis['by']} (PLANE App. A, Fig. 4)"
            parts += [
                f"### {markdown_text(title)}",
                plot(f"pmi-{analysis['config']}.svg", pmi.plot(analysis), title),
            ]
            parts.append(pmi.markdown(analysis))
            continue
        tokenizer = markdown_text(analysis["tokenizer"])
        title = f"Subword analysis · {analysis['tokenizer']}"
        parts += [
            f"### Subword analysis (PLANE §6, Figs. 2–3) · {tokenizer}",
            f"{analysis['runs']} run(s), from {markdown_code(analysis['file'])}: the share of "
            "items whose words the tokenizer splits into pieces against accuracy, a point per "
            f"config and {markdown_text(analysis['by'])}, a least-squares line per group.",
            plot(f"subwords-{analysis['tokenizer']}.svg", scatter(analysis), title),
            markdown(analysis),
        ]
    return parts
