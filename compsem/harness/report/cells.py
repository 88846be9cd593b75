"""One cell of a report table: mean ± std over runs, numbers as the tables print them, a per-group
cell marked where its rows are too few to read as a finding (:data:`MIN_GROUP_ROWS`)."""

from __future__ import annotations

import numpy as np

from compsem.benchmark.size_floor import accuracy_interval
from compsem.harness.results.comparable import rows_text
from compsem.text.escape import Markdown, markdown_text

IN_DISTRIBUTION = "_in_distribution"


# A per-group cell scored on fewer rows than this (in a run) is marked: its accuracy is uncertain
# by more than ±9.8 points (95% interval at 50%, ``compsem.benchmark.size_floor.accuracy_interval``), wider
# than the differences between groups or models a breakdown is read for.
MIN_GROUP_ROWS = 100


SMALL = "†"
# An interval a result does not hold (a file written before compsem reported intervals).
NO_INTERVAL = "—"


def mean_std(values) -> dict:
    values = [float(v) for v in values if v is not None]
    if not values:
        return {"mean": None, "std": None, "n": 0}
    std = float(np.std(values, ddof=1)) if len(values) > 1 else None
    return {"mean": float(np.mean(values)), "std": std, "n": len(values)}


def interval_of(runs, key: str) -> dict | None:
    """The 95% interval ``key`` (e.g. ``accuracy_ci``) of a line's runs: a run's own, or over
    several runs (seeds, resampled splits) the mean of their bounds, the interval one run's rows
    give; ``runs`` is each run's scores (or a by-group cell). None where no run holds one."""
    found = [run.get(key) for run in runs if isinstance(run, dict)]
    found = [pair for pair in found if isinstance(pair, list) and len(pair) == 2]
    if not found:
        return None
    low, high = np.mean(found, axis=0)
    return {"low": float(low), "high": float(high), "runs": len(found)}


def fmt_interval(interval: dict | None, percent: bool = False) -> Markdown:
    """``[low, high]`` as the tables print numbers, or :data:`NO_INTERVAL`."""
    if not interval:
        return Markdown(NO_INTERVAL)
    scale, digits = (100, 1) if percent else (1, 3)
    low, high = interval["low"] * scale, interval["high"] * scale
    return Markdown(f"[{low:.{digits}f}, {high:.{digits}f}]")


def number(value: float | None, digits: int = 3) -> str:
    """A score, or a dash where it is undefined (macro-F1 of a one-class group)."""
    return "–" if value is None else f"{value:.{digits}f}"


def fmt(stat: dict | None, percent: bool = False) -> str:
    if not stat or stat.get("mean") is None:
        return "–"
    scale = 100 if percent else 1
    digits = 1 if percent else 3
    text = f"{stat['mean'] * scale:.{digits}f}"
    if stat.get("std") is not None:
        text += f" ± {stat['std'] * scale:.{digits}f}"
    return text


def group_cell(runs: list[dict], field: str, value: str, metric: str = "accuracy") -> dict:
    """``metric``'s mean ± std over the runs that have ``value`` of ``field``, with the rows
    behind it in each run (``rows``: min and max; resamples may differ)."""
    cells = [
        r["scores"]["by_group"][field][value]
        for r in runs
        if value in r["scores"].get("by_group", {}).get(field, {})
    ]
    stat = mean_std(cell.get(metric) for cell in cells)
    stat["interval"] = interval_of(cells, f"{metric}_ci")
    counts = [cell["n"] for cell in cells if isinstance(cell.get("n"), int)]
    stat["rows"] = {"min": min(counts, default=None), "max": max(counts, default=None)}
    return stat


def fmt_cell(stat: dict | None, percent: bool = False) -> Markdown:
    """A per-group cell: mean ± std, its 95% interval, its rows (``n``), and :data:`SMALL` below
    the floor."""
    text = fmt(stat, percent)
    rows = (stat or {}).get("rows") or {}
    if text == "–" or rows.get("min") is None:
        return text
    text += " " + fmt_interval(stat.get("interval"), percent)
    text += f" (n {rows_text(rows)})"
    return Markdown(text + f" {SMALL}" if rows["min"] < MIN_GROUP_ROWS else text)


def cell_note(cells) -> str:
    """What ``n`` and :data:`SMALL` mean, for under a per-group table (empty without cells)."""
    cells = [cell for cell in cells if cell and (cell.get("rows") or {}).get("min") is not None]
    if not cells:
        return ""
    note = (
        "n: the rows behind a cell in each run; in brackets its 95% bootstrap interval (the mean "
        f"of each run's bounds; {NO_INTERVAL}: a result file without intervals)."
    )
    if any(cell["rows"]["min"] < MIN_GROUP_ROWS for cell in cells):
        note += (
            f" {SMALL} fewer than {MIN_GROUP_ROWS} rows: uncertain by more than "
            f"±{accuracy_interval(MIN_GROUP_ROWS):.1f} points (95% interval at 50% accuracy, "
            "compsem.benchmark.size_floor), too few to read as a finding."
        )
    return note


def markdown_table(header: list[str], rows: list[list[str]], numeric_from: int = 1) -> str:
    """A Markdown table; every cell that is not already :class:`Markdown` (names, settings and
    values read from result files) is escaped (``compsem.text.escape.markdown_text``)."""
    align = ["---" if i < numeric_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(map(markdown_text, header)) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(map(markdown_text, row)) + " |" for row in rows]
    return "\n".join(lines)


# The leaderboards' score columns, and how a run gives each (the papers' own numbers are read
# against the same columns).
SCORES = (
    ("accuracy", lambda r: r["scores"].get("accuracy")),
    ("macro-F1", lambda r: r["scores"].get("macro_f1")),
    ("AUCnorm", lambda r: r["scores"].get("aucnorm")),
    ("weighted F1", lambda r: r["scores"].get("weighted_f1") if r["command"] == "prompt" else None),
    ("AUC50%", lambda r: r["scores"].get("auc_50")),
    ("AULC", lambda r: (r["scores"].get("curve") or {}).get("aulc")),
)


# ---------------------------------------------------------------- fine-tuning (train) ----------
METRICS = (("accuracy", "accuracy"), ("macro_f1", "macro-F1"))
