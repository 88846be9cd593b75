"""The papers' analyses on the results page (the files ``compsem subwords``, ``probe-edges`` and
``probe-scope`` write), found under the report's folders and shown in their benchmark's section."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from compsem.files.bounded_read import read_json
from compsem.harness.analysis.run import KIND, MARKER, scatter
from compsem.harness.analysis.subwords import markdown
from compsem.harness.probing.figures import probe_parts, read_probes
from compsem.text.escape import markdown_code, markdown_text


def read_analyses(paths: Sequence[Path]) -> list[dict]:
    """Every analysis file under the given folders, each with its ``file``. One that cannot be
    read is skipped here: the report's reading of every JSON file under those folders
    (``read_result_files``) has already listed it under "Files not read"."""
    found = []
    for path in map(Path, paths):
        for file in sorted(path.rglob(f"{KIND}.json")) if path.is_dir() else []:
            try:  # a regular file, bounded and depth-checked
                payload = read_json(file, "result")
            except (OSError, ValueError):
                continue
            if isinstance(payload, dict) and payload.get(MARKER) and "points" in payload:
                found.append({**payload, "file": str(file)})
    return found + read_probes(paths)


def analysis_parts(analyses: list[dict], plot: Callable[[str, str, str], str]) -> list[str]:
    """Each subword analysis as a heading, its scatter plot and its tables; each of RNPC's §7
    probes as its own figures (``compsem.harness.probing.figures``)."""
    parts = []
    for analysis in analyses:
        if analysis.get("analysis") != KIND:
            parts += probe_parts(analysis, plot)
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
