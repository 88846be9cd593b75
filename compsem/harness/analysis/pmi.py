"""``compsem pmi``: the PMI of a benchmark's phrases by class (PLANE App. A, Fig. 4), read from an
export: each distinct phrase (modifier and noun, the first two of the benchmark's declared word
columns) counted once with the PMI its build recorded, grouped by the declared class column.
Writes ``pmi.json``, ``pmi.md`` and ``pmi.svg`` (the share of phrases per PMI bin, a line per
class); ``compsem report`` shows them in the benchmark's section."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from compsem.builders import BENCHMARKS
from compsem.harness.data.benchmark import load_config
from compsem.harness.report import svg
from compsem.harness.report.cells import markdown_table
from compsem.harness.results.files import ANALYSIS_MARKER, check_writable, json_text, write_text
from compsem.text.escape import markdown_code, markdown_text

KIND = "pmi"
BIN = 2.0  # the width of a histogram bin, in bits
# The paper's two checks: phrases at or below 0 (words that "should not really co-occur") and
# at or above 15 (candidates for multi-word expressions), inspected by hand there.
LOW, HIGH = 0.0, 15.0


def summary(values: list[float]) -> dict:
    """Count, mean, quartiles, range and the shares at or below :data:`LOW` and at or above
    :data:`HIGH` of one class's PMI values."""
    array = np.asarray(values, dtype=float)
    q1, median, q3 = np.percentile(array, [25, 50, 75])
    return {
        "phrases": len(array),
        "mean": float(array.mean()),
        "median": float(median),
        "q1": float(q1),
        "q3": float(q3),
        "min": float(array.min()),
        "max": float(array.max()),
        "at_most_0": float((array <= LOW).mean()),
        "at_least_15": float((array >= HIGH).mean()),
    }


def histogram(by_class: dict[str, list[float]]) -> dict:
    """Bin edges of width :data:`BIN` over every value, and each class's share per bin."""
    every = [v for values in by_class.values() for v in values]
    start = math.floor(min(every) / BIN) * BIN
    stop = max(math.floor(max(every) / BIN) * BIN + BIN, start + BIN)
    edges = np.arange(start, stop + BIN / 2, BIN)
    shares = {}
    for name, values in by_class.items():
        counts, _ = np.histogram(values, bins=edges)
        shares[name] = [float(c) / len(values) for c in counts]
    return {"edges": [float(e) for e in edges], "shares": shares}


def phrase_pmi(splits, words: tuple[str, str], by: str, column: str) -> dict[str, list[float]]:
    """PMI of each distinct (modifier, noun) phrase of the splits, once, by its class."""
    seen, by_class = set(), defaultdict(list)
    for rows in splits:
        for modifier, noun, group, value in zip(
            rows[words[0]], rows[words[1]], rows[by], rows[column], strict=True
        ):
            if value is None or (modifier, noun) in seen or not math.isfinite(value):
                continue
            seen.add((modifier, noun))
            by_class[str(group)].append(float(value))
    return dict(sorted(by_class.items()))


def _benchmark_of(splits) -> str | None:
    """For an export whose card names no benchmark: the one registered benchmark declaring word
    and class columns that the config has, with a ``pmi`` column."""
    columns = set(next(iter(splits.values())).column_names)
    fits = [
        name
        for name, spec in BENCHMARKS.items()
        if spec.subword_analysis
        and {*spec.subword_analysis.words[:2], spec.subword_analysis.by, "pmi"} <= columns
    ]
    return fits[0] if len(fits) == 1 else None


def run_pmi(dataset: str, config: str, out: Path, revision: str | None = None) -> dict:
    """The PMI analysis of every split of ``config`` (phrases once each), written to ``out``."""
    out = Path(out)
    files = [out / f"{KIND}.json", out / f"{KIND}.md", out / f"{KIND}.svg"]
    check_writable(files)
    loaded = load_config(str(dataset), config, revision)
    benchmark = loaded.card.get("benchmark") or _benchmark_of(loaded.splits)
    spec = BENCHMARKS.get(benchmark)
    declared = spec.subword_analysis if spec else None
    if declared is None:
        raise ValueError(
            f"{config} of {dataset} has no modifier, noun, class and pmi column of a benchmark "
            "that declares them: give an item config (goood_split_1 …) of a PLANE export "
            "(compsem build plane --out DIR)"
        )
    words, by = tuple(declared.words[:2]), declared.by
    for name, split in loaded.splits.items():
        if "pmi" not in split.column_names:
            raise ValueError(f"{config}'s {name} split has no pmi column: pick an item config")
    by_class = phrase_pmi(loaded.splits.values(), words, by, "pmi")
    if not by_class:
        raise ValueError(
            f"{config} has no phrase with a PMI (an original release's rows have none): "
            "analyse a config compsem generated"
        )
    analysis = {
        ANALYSIS_MARKER: 1,
        "analysis": KIND,
        "benchmark": benchmark,
        "dataset": str(dataset),
        "config": config,
        "by": by,
        "classes": {group: summary(values) for group, values in sorted(by_class.items())},
        **histogram(by_class),
    }
    texts = (json_text(analysis), markdown(analysis), plot(analysis))
    for path, text in zip(files, texts, strict=True):
        write_text(path, text)
    return analysis


def markdown(analysis: dict) -> str:
    """The analysis's table: a row per class."""
    header = ["class", "phrases", "mean", "median", "Q1 – Q3", "min – max", "≤ 0", "≥ 15"]
    rows = [
        [group, f"{s['phrases']:,}", f"{s['mean']:.2f}", f"{s['median']:.2f}"]
        + [f"{s['q1']:.2f} – {s['q3']:.2f}", f"{s['min']:.2f} – {s['max']:.2f}"]
        + [f"{s['at_most_0']:.1%}", f"{s['at_least_15']:.1%}"]
        for group, s in analysis["classes"].items()
    ]
    return (
        f"PMI (log2) of each distinct phrase of {markdown_code(analysis['config'])} by "
        f"{markdown_text(analysis['by'])}, from {markdown_code(analysis['dataset'])}; ≤ 0 and "
        "≥ 15 are the shares the paper inspected by hand for non-co-occurring words and "
        "multi-word expressions.\n\n" + markdown_table(header, rows, 1) + "\n"
    )


def plot(analysis: dict) -> str:
    """The share of each class's phrases per PMI bin, a line per class (Fig. 4's distributions)."""
    edges = analysis["edges"]
    lows = [int(low) if float(low).is_integer() else low for low in edges[:-1]]
    series = [
        {"name": group, "shots": lows, "mean": shares, "std": [None] * len(shares)}
        for group, shares in analysis["shares"].items()
    ]
    title = f"PMI by {analysis['by']}, {analysis['config']}: share of phrases per bin"
    return svg.curves(title, series, f"PMI (bins of {BIN:g} bits, lower edge)", "share")
