"""The papers' analyses of saved runs on the results page (the files ``compsem subwords``,
``compsem pmi``, ``probe-edges`` and ``probe-scope`` write, found by the report's one reading of
its folders), shown in their benchmark's section."""

from __future__ import annotations

from collections.abc import Callable

from compsem.harness.analysis import pmi
from compsem.harness.analysis.run import scatter
from compsem.harness.analysis.subwords import markdown
from compsem.harness.probing.figures import KINDS as PROBES
from compsem.harness.probing.figures import probe_parts
from compsem.text.escape import markdown_code, markdown_text


def analysis_parts(analyses: list[dict], plot: Callable[[str, str, str], str]) -> list[str]:
    """Each subword analysis as a heading, its scatter plot and its tables; each PMI analysis
    as its plot and table; each of RNPC's §7 probes as its own figures
    (``compsem.harness.probing.figures``)."""
    parts = []
    for analysis in analyses:
        if analysis.get("analysis") in PROBES:
            parts += probe_parts(analysis, plot)
            continue
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
