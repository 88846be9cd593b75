"""The promise every exported split keeps: its first rows are a representative sample of it."""

from pathlib import Path

import pyarrow as pa

from compsem.benchmark.grouping import GROUP_FIELDS
from compsem.publish.audit import read_export

PREFIX_ROWS = 100
TOLERANCE = 0.10


def prefix_drift(table: pa.Table, rows: int = PREFIX_ROWS) -> list[str]:
    """Each label and grouping-field value whose share among the first ``rows`` rows is more
    than ``TOLERANCE`` away from its share of the whole table."""
    frame = table.to_pandas()
    prefix = frame.head(rows)
    problems = []
    for field in ["label", *(name for name in GROUP_FIELDS if name in frame)]:
        whole = frame[field].value_counts(normalize=True, dropna=False)
        head = prefix[field].value_counts(normalize=True, dropna=False)
        for value, share in whole.items():
            if abs(head.get(value, 0.0) - share) > TOLERANCE:
                problems.append(f"{field}={value}: {head.get(value, 0.0):.2f} vs {share:.2f}")
    return problems


def unrepresentative_prefixes(export: Path) -> dict[str, list[str]]:
    """``{config/split: problems}`` for every split of every config of an export folder, each
    read in the order its Parquet shards store it."""
    found = {}
    for config, splits in read_export(export).items():
        assert splits, f"{config} holds no splits"
        for split, table in splits.items():
            problems = prefix_drift(table)
            if problems:
                found[f"{config}/{split}"] = problems
    return found
