"""The reader of the original PLANE release: the documented pickle format into our schema."""

import pickle

import pytest

from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.splits.regimes import original_splits
from compsem.loading_scripts.plane_release import ReleaseError, read_original_split
from compsem.publish.export import export_benchmark
from tests.conftest import read_config

# Rows as the release stores them: [text, label, class, adj, noun, hyper, …].
TRAIN = [
    ["A brown dog is a dog", 1, "I", "brown", "dog", "animal", "extra"],
    ["A brown dog is an animal", 1, "I", "brown", "dog", "animal"],
    ["A big dog is a big animal", 0, "N", "big", "dog", "animal"],
    ["A fake gun is a fake weapon", 1, "O", "fake", "gun", "weapon"],
]
TEST = [["An alleged thief is a criminal", 0, "O", "alleged", "thief", "criminal"]]


def write_release(folder, train=TRAIN, test=TEST):
    for prefix, rows in (("OOV_Train", train), ("OOV_test", test)):
        (folder / "OoD").mkdir(parents=True, exist_ok=True)
        with open(folder / "OoD" / f"{prefix}_1.pkl", "wb") as handle:
            pickle.dump(rows, handle)


def test_release_rows_map_to_our_schema(tmp_path):
    write_release(tmp_path)
    config = PlaneConfig(name="original", regime="original_goood", original_release=str(tmp_path))
    splits = original_splits(config)
    train = splits["train"].to_pylist()
    assert [row["inference_type"] for row in train] == [1, 2, 3, 3]
    assert [row["adjective_class"] for row in train] == ["I", "I", "S", "O"]
    assert train[2]["hypothesis"] == "big animal" and train[2]["label"] == 0
    assert train[1]["hypernym_distance"] == 2  # dog → domestic_animal → animal
    assert train[0]["hypernym_distance"] == 0
    assert splits["test"].num_rows == 1


def test_original_configs_export_and_load(tmp_path):
    write_release(tmp_path / "release")
    out = tmp_path / "plane"
    export_benchmark(
        "plane", out, ["original_goood_split_1"], original_release=str(tmp_path / "release")
    )
    splits = read_config(out, "original_goood_split_1")
    assert len(splits["train"]) == 4 and len(splits["test"]) == 1


def test_missing_release_folder_names_the_flag():
    with pytest.raises(ReleaseError, match="--original-release DIR"):
        read_original_split(None, "original_goood", 1)


@pytest.mark.parametrize(
    "row, message",
    [
        (
            ["A red car is a boat", 1, "I", "red", "car", "vehicle"],
            "cannot tell the inference type",
        ),
        (["A red car is a car", 1, "X", "red", "car", "vehicle"], "unknown adjective class 'X'"),
        (["A red car is a car", "maybe", "I", "red", "car", "vehicle"], "label 'maybe'"),
        (["A red car is a car", 1], r"expected \[text, label, class"),
    ],
)
def test_malformed_release_rows_are_named(tmp_path, row, message):
    write_release(tmp_path, train=[row])
    with pytest.raises(ReleaseError, match=f"OOV_Train_1.pkl, row 0: {message}"):
        read_original_split(tmp_path, "original_goood", 1)


class Exploit:
    """A pickle that, loaded with ``pickle.load``, would call a function (here: record a call)."""

    def __reduce__(self):
        return (exec, ("import pathlib; pathlib.Path('PWNED').write_text('ran')",))


def test_a_crafted_release_cannot_run_code(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_release(
        tmp_path, train=[["A brown dog is a dog", 1, "I", "brown", "dog", "animal"], Exploit()]
    )
    config = PlaneConfig(name="original", regime="original_goood", original_release=str(tmp_path))
    with pytest.raises(ReleaseError, match=r"builtins\.exec.*cannot run code"):
        original_splits(config)
    assert not (tmp_path / "PWNED").exists()
