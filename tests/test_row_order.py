"""Representative order (compsem/benchmark/grouping.py): splits are written so that any prefix holds each
label and grouping field in its share of the whole split."""

import numpy as np
import pyarrow as pa
import pytest

from compsem.benchmark.grouping import in_representative_order, order_fields, representative_order
from tests.row_order import prefix_drift


def sorted_table(rows: int, seed: int) -> pa.Table:
    """A split as generation leaves it: sorted by label and group, with skewed shares."""
    rng = np.random.default_rng(seed)
    table = pa.table(
        {
            "id": [f"row{index}" for index in range(rows)],
            "label": rng.choice(3, rows, p=[0.2, 0.3, 0.5]),
            "adjective_class": rng.choice(["I", "S", "O"], rows, p=[0.6, 0.3, 0.1]),
            "inference_type": rng.choice(["AN|=N", "AN|=h(N)", "AN|=Ah(N)"], rows),
            "combo": rng.choice([f"c{index}" for index in range(9)], rows),
            "rule": rng.choice([f"r{index}" for index in range(60)], rows),
        }
    )
    return table.sort_by([(name, "ascending") for name in ("label", "adjective_class", "combo")])


@pytest.mark.parametrize("seed", range(20))
def test_every_prefix_of_a_sorted_split_is_representative(seed):
    table = sorted_table(3_000, seed)
    assert prefix_drift(table)  # as generated, the first rows are one label
    ordered = in_representative_order(table, [seed])
    for rows in (100, 300, 1_000):
        assert prefix_drift(ordered, rows) == [], rows


def test_a_prefix_holds_each_label_within_one_row_of_its_share():
    labels = np.sort(np.random.default_rng(0).choice(2, 1_001, p=[0.27, 0.73]))
    order = representative_order([labels], np.random.default_rng(1))
    counts = np.cumsum(labels[order] == 1)
    expected = np.arange(1, len(labels) + 1) * labels.mean()
    assert np.abs(counts - expected).max() < 1.0 + 1e-9


def test_the_order_is_a_seeded_permutation_that_keeps_every_row():
    table = sorted_table(500, 0)
    ordered = in_representative_order(table, [42, 1, 2])
    assert sorted(ordered["id"].to_pylist()) == sorted(table["id"].to_pylist())
    assert ordered.equals(in_representative_order(table, [42, 1, 2]))
    assert not ordered.equals(in_representative_order(table, [43, 1, 2]))
    assert ordered.select(["id", "label"]).to_pylist() != table.select(["id", "label"]).to_pylist()


def test_labels_follow_no_fixed_pattern():
    """Two equal groups interleave pair by pair, but which comes first in a pair is random."""
    labels = np.repeat([0, 1], 500)
    order = representative_order([labels], np.random.default_rng(3))
    pairs = labels[order].reshape(-1, 2)
    assert (pairs.sum(axis=1) == 1).all()
    assert 0.4 < (pairs[:, 0] == 0).mean() < 0.6


def test_fields_are_ordered_label_first_then_from_fewest_values():
    table = sorted_table(500, 0)
    assert order_fields(table) == ["label", "adjective_class", "inference_type", "combo", "rule"]
    assert order_fields(table.drop_columns(["label"]))[0] == "adjective_class"


def test_a_table_without_grouping_fields_is_shuffled_and_an_empty_one_kept():
    table = pa.table({"id": [str(index) for index in range(50)]})
    shuffled = in_representative_order(table, [0])
    ids = shuffled["id"].to_pylist()
    assert sorted(ids) == sorted(table["id"].to_pylist()) and ids != table["id"].to_pylist()
    assert in_representative_order(table.slice(0, 0), [0]).num_rows == 0
