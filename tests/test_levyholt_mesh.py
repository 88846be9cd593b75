"""Levy/Holt as Li et al. (2022) use it, on a small fixture in the files' own format: the mesh
of Fig. 1 with same-label pairs relabelled (footnote 4), converses in two splits moved into one
(footnote 3), and the hypothesis-only premise "true" (Fig. 2)."""

from collections import Counter

import pyarrow as pa
import pytest

from compsem.loading_scripts.levyholt_release import (
    SUBSETS,
    levyholt_tables,
    read_levyholt,
)

# hypothesis, premise, label: each pair and its converse, the premise entailing the hypothesis
PARA = [
    ("A,got to,Paris", "A,arrived at,Paris", "True"),
    ("A,arrived at,Paris", "A,got to,Paris", "True"),
]
DIR = [
    ("B,went to,Oslo", "B,shopped in,Oslo", "True"),
    ("B,shopped in,Oslo", "B,went to,Oslo", "False"),
]
UNREL = [
    ("C,fell ill in,Rome", "C,shopped in,Rome", "False"),
    ("C,shopped in,Rome", "C,fell ill in,Rome", "False"),
]
# converses split across files: the first line of each pair in one split, its converse in another
CROSS = [
    (
        f"P{i},beat,Q{i}",
        f"P{i},defeated,Q{i}",
        "True",
        f"P{i},defeated,Q{i}",
        f"P{i},beat,Q{i}",
        "False",
    )
    for i in range(12)
]
FILES = {
    "train": [*PARA, *DIR, *UNREL] + [line[:3] for line in CROSS],
    "dev": [line[3:] for line in CROSS[:6]],
    "test": [line[3:] for line in CROSS[6:]] + [("D,left,Rome", "D,departed,Rome", "True")],
}
SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("premise", pa.string()),
        ("hypothesis", pa.string()),
        ("label", pa.int64()),
    ]
    + [(name, pa.string()) for name in ("subgroup", "language")]
    + [
        (f"{side}_{part}", pa.string())
        for side in ("premise", "hypothesis")
        for part in ("subject", "predicate", "object")
    ]
)


@pytest.fixture
def folder(tmp_path):
    for split, lines in FILES.items():
        (tmp_path / f"{split}.txt").write_text(
            "".join("\t".join([*line, "EN"]) + "\n" for line in lines)
        )
    return tmp_path


def row_id(*parts):
    return "|".join(parts)


def where(splits, hypothesis):
    return [
        split for split, rows in splits.items() for row in rows if row["hypothesis"] == hypothesis
    ]


def test_a_pair_and_its_converse_in_two_splits_end_in_one_of_them(folder):
    splits = read_levyholt(folder, seed=0)
    assert sum(map(len, splits.values())) == sum(map(len, FILES.values()))  # nothing dropped
    chosen = []
    for i in range(12):
        forward, back = (
            where(splits, (f"P{i}", "beat", f"Q{i}")),
            where(splits, (f"P{i}", "defeated", f"Q{i}")),
        )
        assert forward == back and len(forward) == 1
        assert forward[0] in ("train", "dev" if i < 6 else "test")
        chosen.append(forward[0])
    assert set(chosen) == {"train", "dev", "test"}  # each pair drawn on its own, both ways occur
    subgroups = Counter(row["subgroup"] for rows in splits.values() for row in rows)
    assert subgroups == {
        "dir_true": 13,
        "dir_false": 13,
        "paraphrase": 2,
        "unrelated": 2,
        "unpaired": 1,
    }


def test_the_reassignment_is_seeded(folder):
    assert read_levyholt(folder, seed=3) == read_levyholt(folder, seed=3)
    assert any(read_levyholt(folder, seed=s) != read_levyholt(folder, seed=0) for s in (1, 2, 3))


def test_each_mesh_subset_labels_its_more_paraphrastic_subgroup_one(folder):
    mesh = {name: keep for name, keep in SUBSETS.items() if keep}
    assert len(mesh) == 6 and {frozenset(k) for k in mesh.values()} == {
        frozenset((a, b))
        for i, a in enumerate(("paraphrase", "dir_true", "dir_false", "unrelated"))
        for b in ("paraphrase", "dir_true", "dir_false", "unrelated")[i + 1 :]
    }
    labels = {}
    for name in mesh:
        train = levyholt_tables(folder, name, row_id, SCHEMA)["train"].to_pylist()
        labels[name] = {(row["subgroup"], row["label"]) for row in train}
    assert labels["para_dirtrue"] == {("paraphrase", 1), ("dir_true", 0)}  # relabelled
    assert labels["dirfalse_unrelated"] == {("dir_false", 1), ("unrelated", 0)}  # relabelled
    assert labels["para_dirfalse"] == {("paraphrase", 1), ("dir_false", 0)}  # the original labels
    assert labels["dirtrue_unrelated"] == {("dir_true", 1), ("unrelated", 0)}
    assert labels["directional"] == {("dir_true", 1), ("dir_false", 0)}
    assert labels["symmetric"] == {("paraphrase", 1), ("unrelated", 0)}


def test_the_hypothesis_only_subset_replaces_every_premise_with_true(folder):
    full = levyholt_tables(folder, "full", row_id, SCHEMA)
    only = levyholt_tables(folder, "full", row_id, SCHEMA, hypothesis_only=True)
    for split in full:
        assert set(only[split]["premise"].to_pylist()) == {"true"}
        assert only[split]["premise_subject"].to_pylist() == ["true"] * len(only[split])
        for column in ("id", "hypothesis", "label", "subgroup"):
            assert only[split][column] == full[split][column]
