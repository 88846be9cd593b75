"""One cell of a report table: mean ± std over runs, numbers as the tables print them, a per-group
cell marked where its rows are too few to read as a finding (:data:`MIN_GROUP_ROWS`), and what
names a run's model, config and family of configs."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from compsem.benchmark.size_floor import accuracy_interval
from compsem.harness.models.offline import public_name
from compsem.harness.results.comparable import rows_text

IN_DISTRIBUTION = "_in_distribution"


# A per-group cell scored on fewer rows than this (in a run) is marked: its accuracy is uncertain
# by more than ±9.8 points (95% interval at 50%, ``compsem.benchmark.size_floor.accuracy_interval``), wider
# than the differences between groups or models a breakdown is read for.
MIN_GROUP_ROWS = 100


SMALL = "†"


def family(config: str) -> str:
    """A config's regime: resamples ``goood_split_1`` … ``_5`` pool as ``goood_split``."""
    return re.sub(r"_\d+$", "", config)


def model_name(model: str) -> str:
    """A short name: offline models by their published name, Hub ids as they are, other local
    folders by their last two path parts."""
    published = public_name(model)
    if published:
        return published
    if model.startswith(("/", ".", "~")) or re.match(r"^[A-Za-z]:\\", model):
        return "/".join(Path(model).parts[-2:])
    return model


def mean_std(values) -> dict:
    values = [float(v) for v in values if v is not None]
    if not values:
        return {"mean": None, "std": None, "n": 0}
    std = float(np.std(values, ddof=1)) if len(values) > 1 else None
    return {"mean": float(np.mean(values)), "std": std, "n": len(values)}


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
    counts = [cell["n"] for cell in cells if isinstance(cell.get("n"), int)]
    stat["rows"] = {"min": min(counts, default=None), "max": max(counts, default=None)}
    return stat


def fmt_cell(stat: dict | None, percent: bool = False) -> str:
    """A per-group cell: mean ± std, its rows (``n``), and :data:`SMALL` below the floor."""
    text = fmt(stat, percent)
    rows = (stat or {}).get("rows") or {}
    if text == "–" or rows.get("min") is None:
        return text
    text += f" (n {rows_text(rows)})"
    return text + f" {SMALL}" if rows["min"] < MIN_GROUP_ROWS else text


def cell_note(cells) -> str:
    """What ``n`` and :data:`SMALL` mean, for under a per-group table (empty without cells)."""
    cells = [cell for cell in cells if cell and (cell.get("rows") or {}).get("min") is not None]
    if not cells:
        return ""
    note = "n: the rows behind a cell in each run."
    if any(cell["rows"]["min"] < MIN_GROUP_ROWS for cell in cells):
        note += (
            f" {SMALL} fewer than {MIN_GROUP_ROWS} rows: uncertain by more than "
            f"±{accuracy_interval(MIN_GROUP_ROWS):.1f} points (95% interval at 50% accuracy, "
            "compsem.benchmark.size_floor), too few to read as a finding."
        )
    return note


def markdown_table(header: list[str], rows: list[list[str]], numeric_from: int = 1) -> str:
    align = ["---" if i < numeric_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- fine-tuning (train) ----------
METRICS = (("accuracy", "accuracy"), ("macro_f1", "macro-F1"))


def model_of(result: dict) -> str:
    return model_name(result["model"])


def config_of(result: dict) -> str:
    return result["dataset"]["config"]


def family_of(result: dict) -> str:
    return family(result["dataset"]["config"])
