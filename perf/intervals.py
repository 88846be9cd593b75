"""What the 95% intervals of a result cost (``compsem/harness/results/intervals.py``); writes a
record for ``perf/measured/records/``.

A classification result the size of a large test split: N rows (default 5,000) of 3 labels from
N/4 items (4 rows each, clustered as RNPC's source NP), broken down by two grouping fields (6 and
4 values) and their cross; and AUCnorm of N binary scores. It times ``grouped_scores`` with its
intervals (1,000 bootstrap resamples each for macro-F1 and every group) against the same scores
without them, and the AUCnorm bootstrap alone; one thread, best of 3.

Usage: OMP_NUM_THREADS=1 python perf/intervals.py [--rows 5000] [--out record.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time
from pathlib import Path

import numpy as np

from compsem.harness.results import intervals, scores


def best(function, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(rows: int) -> dict:
    rng = np.random.default_rng(0)
    references = rng.integers(0, 3, rows)
    predictions = np.where(rng.random(rows) < 0.7, references, rng.integers(0, 3, rows))
    groups = {"first": rng.integers(0, 6, rows).tolist(), "second": rng.integers(0, 4, rows)}
    groups["first × second"] = [f"{a} × {b}" for a, b in zip(*groups.values(), strict=True)]
    items = ("np", [str(i // 4) for i in range(rows)])
    names = ["a", "b", "c"]
    with_intervals = best(
        lambda: scores.grouped_scores(references, predictions, names, groups, items)
    )
    original = intervals.RESAMPLES
    intervals.RESAMPLES = 2  # the least a percentile needs: the cost without the resamples
    try:
        without = best(lambda: scores.grouped_scores(references, predictions, names, groups, items))
    finally:
        intervals.RESAMPLES = original
    positive = rng.random(rows) < 0.3
    values = rng.normal(size=rows) + positive
    aucnorm = best(lambda: scores.aucnorm_interval(values, positive, items))
    return {
        "rows": rows,
        "items": rows // 4,
        "groups": sum(len(set(map(str, v))) for v in groups.values()),
        "resamples": original,
        "grouped_scores_seconds": round(with_intervals, 2),
        "without_resamples_seconds": round(without, 2),
        "aucnorm_interval_seconds": round(aucnorm, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    figures = measure(args.rows)
    load = os.getloadavg()[0]
    figures["machine_note"] = (
        f"{os.cpu_count()} cores shared with other jobs (load average {load:.0f})"
    )
    record = {
        "command": f"OMP_NUM_THREADS=1 python perf/intervals.py --rows {args.rows}",
        "machine": f"{os.cpu_count()} CPU cores, shared with other jobs (load average "
        f"{load:.1f} at the start)",
        "date": datetime.date.today().isoformat(),
        "versions": {},
        "figures": figures,
        "template": (
            "The intervals of one result of {rows:,} rows from {items:,} items, broken down into "
            "{groups} groups, take {grouped_scores_seconds} s to compute with {resamples:,} "
            "bootstrap resamples ({without_resamples_seconds} s for the same scores without "
            "them), and AUCnorm's interval on as many rows {aucnorm_interval_seconds} s; one "
            "thread, best of 3, on {machine_note}."
        ),
    }
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
