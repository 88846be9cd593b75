"""Versioning: content fingerprints from rows, and the golden file that ties them to VERSION."""

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.files.content_fingerprint import table_fingerprint
from compsem.publish.export import export_benchmark
from compsem.publish.versioning import (
    golden_path,
    golden_problems,
    golden_record,
)
from tests.conftest import TEST_MAX_DOCS

GOLDEN = Path(__file__).parent / "golden"
FEATURES = {"label": {"names": ["non_entailment", "entailment"], "_type": "ClassLabel"}}


def small_table() -> pa.Table:
    return pa.table(
        {
            "premise": ["red car", "fake gun", None],
            "label": pa.array([1, 0, 1], pa.int64()),
            "pmi": [0.1 + 0.2, 1.5, None],
        }
    )


def test_fingerprint_ignores_chunking_and_parquet_encoding(tmp_path):
    table = small_table()
    chunked = pa.concat_tables([table.slice(0, 1), table.slice(1)])
    pq.write_table(table, tmp_path / "a.parquet", compression="zstd", row_group_size=1)
    pq.write_table(table, tmp_path / "b.parquet", compression="none")
    fingerprints = {
        table_fingerprint(t, FEATURES)
        for t in (table, chunked, pq.read_table(tmp_path / "a.parquet"))
    }
    fingerprints.add(table_fingerprint(pq.read_table(tmp_path / "b.parquet"), FEATURES))
    assert len(fingerprints) == 1


def test_fingerprint_ignores_last_bit_float_noise():
    jittered = float(np.nextafter(0.1 + 0.2, 1.0))  # what another CPU's log2 may give
    assert jittered != 0.1 + 0.2
    noisy = small_table().set_column(2, "pmi", pa.array([jittered, 1.5, None]))
    assert table_fingerprint(noisy, FEATURES) == table_fingerprint(small_table(), FEATURES)


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.set_column(0, "premise", pa.array(["red cars", "fake gun", None])),
        lambda t: t.set_column(1, "label", pa.array([1, 1, 1], pa.int64())),
        lambda t: t.take([1, 0, 2]),  # row order is content: it decides batches and shards
        lambda t: t.slice(0, 2),
        lambda t: t.rename_columns(["premise", "gold", "pmi"]),
        lambda t: t.set_column(2, "pmi", pa.array([0.31, 1.5, None])),
    ],
)
def test_fingerprint_sees_every_content_change(change):
    assert table_fingerprint(change(small_table()), FEATURES) != table_fingerprint(
        small_table(), FEATURES
    )


def test_fingerprint_sees_renamed_label_names():
    renamed = {"label": {"names": ["no", "yes"], "_type": "ClassLabel"}}
    assert table_fingerprint(small_table(), renamed) != table_fingerprint(small_table(), FEATURES)


def record(version: str, fingerprint: str, rows: int = 10) -> dict:
    split = {"fingerprint": fingerprint, "rows": rows}
    return {
        "benchmark": "plane",
        "version": version,
        "configs": {"goood_split_1": {"fingerprint": fingerprint, "splits": {"test": split}}},
    }


def test_changed_content_without_a_version_bump_says_bump_and_regenerate():
    (problem,) = golden_problems(record("1.0.0", "new", 12), record("1.0.0", "old"))
    assert "changed (goood_split_1 (test 10→12 rows))" in problem
    assert "bump VERSION in builders/plane/" in problem
    assert "`python -m compsem.publish.versioning update plane`" in problem


def test_a_bumped_version_needs_a_regenerated_golden_file():
    (problem,) = golden_problems(record("1.1.0", "new"), record("1.0.0", "old"))
    assert (
        "moved forward from 1.0.0 to 1.1.0" in problem
        and "python -m compsem.publish.versioning" in problem
    )
    (backwards,) = golden_problems(record("0.9.0", "old"), record("1.0.0", "old"))
    assert "Versions must only increase" in backwards


def test_matching_content_and_version_pass():
    assert golden_problems(record("1.0.0", "same"), record("1.0.0", "same")) == []


def test_added_and_removed_configs_count_as_changes():
    current = record("1.0.0", "same")
    current["configs"]["goood_split_9"] = current["configs"]["goood_split_1"]
    (problem,) = golden_problems(current, record("1.0.0", "same"))
    assert "goood_split_9 (added)" in problem


@pytest.fixture(scope="module")
def default_builds(request, tmp_path_factory):
    """Each benchmark with a golden file, built with its defaults (PLANE: the session export,
    built with the tests' reference settings: WordNet's glosses)."""
    builds = {}
    for path in sorted(GOLDEN.glob("*.json")):
        name = path.stem
        if name == "plane":
            assert TEST_MAX_DOCS is None, "the PLANE golden file is for the default build"
            builds[name] = request.getfixturevalue("plane_export")
        else:
            out = tmp_path_factory.mktemp("golden") / name
            export_benchmark(name, out)
            builds[name] = out
    return builds


@pytest.mark.slow
def test_generated_content_matches_its_golden_file_or_the_version_was_bumped(default_builds):
    assert "plane" in default_builds
    for name, folder in default_builds.items():
        golden = json.loads(golden_path(name, GOLDEN).read_text())
        problems = golden_problems(golden_record(name, folder), golden)
        assert not problems, "\n".join(problems)
