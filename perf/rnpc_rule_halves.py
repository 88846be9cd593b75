"""Do RNPC's rules agree with people as well on noun phrases they were not written from? JSON.

The release folder's human-labelled rows are split in two halves by source noun phrase (a
stable hash of ``source NP``, so no phrase is in both), and the rules' agreement and coverage
are reported per half, overall and per rule. A rule fitted to one half's phrases would agree
less on the other; rules keyed on modifier classes and structure should agree about as well on
both.

The curve adds rules one at a time, ordered by their agreement on one half, and reports the
other half's cumulative coverage and agreement: what agreement each coverage costs.

As a reference, a cell table *fitted* on half A (the majority human label of each (combo,
hypothesis type, rule) cell the rules label, where that majority is at least ``--purity``)
is measured on half B and the other way round: how far per-cell fitting carries over.

Usage: python perf/rnpc_rule_halves.py --original-release RELEASE
                                       [--out perf/results/rnpc_rule_halves.json]
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections import Counter, defaultdict
from pathlib import Path

from compsem.builders.rnpc.labels.agreement import (
    TASKS,
    label_row,
    release_lexicon,
    release_slots,
    slot_table,
    task_agreement,
)
from compsem.loading_scripts.rnpc_release import read_original_task

TARGETS = {"spte": (0.85, 0.70), "mpte": (0.80, 0.70), "epc": (0.60, 0.50)}


def half(row: dict) -> str:
    return "AB"[zlib.crc32(row["np"].lower().encode()) % 2]


def _brief(report: dict) -> dict:
    return {key: report[key] for key in ("rows", "labelled", "coverage", "agreement")}


def fitted_transfer(task: str, fit: list[dict], test: list[dict], slots: dict, purity: float):
    """Majority label per (combo, hypothesis, rule) cell of ``fit``, scored on ``test``."""
    cells: dict[tuple, Counter] = defaultdict(Counter)
    for row in fit:
        reading = label_row(task, row, slots)
        if reading["rule"]:
            cells[row["combo"], reading["hypothesis"], reading["rule"]][row["label"]] += 1
    table = {}
    for key, counts in cells.items():
        label, count = counts.most_common(1)[0]
        if count / sum(counts.values()) >= purity:
            table[key] = label
    labelled = agreed = 0
    for row in test:
        reading = label_row(task, row, slots)
        key = (row["combo"], reading["hypothesis"], reading["rule"])
        if key in table:
            labelled += 1
            agreed += table[key] == row["label"]
    return {
        "coverage": round(labelled / len(test), 4),
        "agreement": round(agreed / labelled, 4) if labelled else None,
    }


def curve(fit: dict, test: dict) -> list[dict]:
    """Agreement against coverage on ``test`` as rules are added in order of their agreement
    on ``fit`` (the other half, so the order is not fitted to the rows it is scored on)."""
    rules = [rule for rule, cell in fit["by_rule"].items() if cell["agreement"] is not None]
    rules.sort(key=lambda rule: -fit["by_rule"][rule]["agreement"])
    points, labelled, agreed = [], 0, 0
    for rule in rules:
        cell = test["by_rule"].get(rule)
        if cell is None:
            continue
        labelled += cell["labelled"]
        agreed += cell["agreed"]
        points.append(
            {
                "add": rule,
                "coverage": round(labelled / test["rows"], 4),
                "agreement": round(agreed / labelled, 4) if labelled else None,
            }
        )
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--original-release", required=True)
    parser.add_argument("--purity", type=float, default=0.6)
    parser.add_argument("--out", type=Path, default=Path("perf/results/rnpc_rule_halves.json"))
    args = parser.parse_args()
    slots = release_slots(args.original_release) | slot_table(
        release_lexicon(args.original_release)
    )
    results = {}
    for task in TASKS:
        rows = read_original_task(args.original_release, task)
        halves = {name: [row for row in rows if half(row) == name] for name in "AB"}
        reports = {name: task_agreement(task, part, slots) for name, part in halves.items()}
        whole = task_agreement(task, rows, slots)
        results[task] = {
            "target": dict(zip(("agreement", "coverage"), TARGETS[task], strict=True)),
            "all": _brief(whole),
            **{f"half_{name}": _brief(report) for name, report in reports.items()},
            "by_rule": {
                rule: {name: _brief(reports[name]["by_rule"][rule]) for name in "AB"}
                for rule in whole["by_rule"]
                if all(rule in reports[name]["by_rule"] for name in "AB")
            },
            "curve": {
                "A_to_B": curve(reports["A"], reports["B"]),
                "B_to_A": curve(reports["B"], reports["A"]),
            },
            "fitted_cells": {
                "A_to_B": fitted_transfer(task, halves["A"], halves["B"], slots, args.purity),
                "B_to_A": fitted_transfer(task, halves["B"], halves["A"], slots, args.purity),
            },
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(
        json.dumps(
            {t: {k: r[k] for k in ("all", "half_A", "half_B")} for t, r in results.items()},
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
