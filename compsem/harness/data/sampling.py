"""Which rows a command reads: a fixed-seed row cap, and the grouping fields (with the cross of
the first two) that scores are broken down by."""

from __future__ import annotations

from compsem.builders import BENCHMARKS
from compsem.harness.data.benchmark import Benchmark

# Fixed, so --max-train-examples picks the same rows whatever the training seed.
CAP_SEED = 0


def cap(dataset, limit: int | None, what: str):
    """The first ``limit`` rows of a fixed shuffle, or every row."""
    if limit is None or limit >= len(dataset):
        return dataset
    if limit < 1:
        raise ValueError(f"{what} must be at least 1, got {limit}")
    return dataset.shuffle(seed=CAP_SEED).select(range(limit))


# Joins the first two grouping fields into one (PLANE: adjective class × inference type).
CROSS = " × "


def groups_of(dataset, bench: Benchmark) -> dict[str, list]:
    """Each grouping field's values, and the cross of the first two (the papers' two-way
    tables: PLANE's accuracy per adjective class and inference type)."""
    groups = {field: list(dataset[field]) for field in bench.schema.group_fields}
    if len(groups) >= 2:
        first, second = bench.schema.group_fields[:2]
        groups[first + CROSS + second] = [
            f"{a}{CROSS}{b}" for a, b in zip(groups[first], groups[second], strict=True)
        ]
    return groups


def clusters_of(dataset, bench: Benchmark) -> tuple[str, list[str]] | None:
    """(the columns, each row's item) where the benchmark's spec declares the columns rows share
    an item by (``cluster_fields``) and the split has them all; else None (rows independent)."""
    spec = BENCHMARKS.get(bench.benchmark)
    fields = spec.cluster_fields if spec else ()
    if not fields or not all(field in dataset.column_names for field in fields):
        return None
    columns = [dataset[field] for field in fields]
    return " + ".join(fields), [
        "\x1f".join(map(str, values)) for values in zip(*columns, strict=True)
    ]
