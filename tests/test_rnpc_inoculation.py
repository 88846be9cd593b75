"""RNPC §6 on the release's inoculation splits: `compsem build rnpc --inoculation DIR` reads the
authors' format (per task a folder of tab-separated train_N.tsv, train.tsv and test.tsv with the
header `index, sentence1, sentence2, label, combo, source NP`, integer labels) into configs with
each train size exactly and the test whole, and `compsem curve` runs on them.

The rows are written here, in that format, from a few phrases of our own; none is the
release's."""

import csv
import itertools
import json

import pytest

from compsem.cli import main
from compsem.loading_scripts.rnpc_inoculation import LABELS
from tests.conftest import read_config

SIZES = (10, 25)
TRAIN, TEST = 30, 12
HEADER = ["index", "sentence1", "sentence2", "label", "combo", "source NP"]
PHRASES = [  # (M1, M2, N, combo)
    (m1, m2, n, combo)
    for (m1, m2, combo), n in itertools.product(
        [("fake", "red", "pri-int"), ("former", "famous", "pri-sub"), ("red", "big", "int-sub"),
         ("tall", "young", "sub-sub"), ("Swedish", "retired", "int-pri")],
        ["gun", "teacher", "car", "singer", "lamp", "doctor", "boat", "painter", "table"],
    )
]  # fmt: skip


def task_rows(task: str, count: int, offset: int) -> list[list]:
    """``count`` rows of one task in the release's format, labels cycling over the task's."""
    labels = sorted(LABELS[task])
    rows = []
    for i in range(count):
        m1, m2, noun, combo = PHRASES[(offset + i) % len(PHRASES)]
        np = f"a {m1} {m2} {noun}"
        if task == "epc":
            first, second = f"A {noun} is useful.", f"{np.capitalize()} is useful."
        elif task == "mpte":
            first, second = f"This is {np}. This is a thing.", f"This is a {m1} thing."
        else:
            first, second = f"This is {np}.", f"This is a {noun}."
        rows.append([offset + i, first, second, labels[i % len(labels)], combo, np])
    return rows


def write_tsv(path, rows, header=HEADER, delimiter="\t"):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(header)
        writer.writerows(rows)


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inoculation")
    for task, name in (("spte", "SPTE"), ("mpte", "MPTE"), ("epc", "EPC")):
        (folder / name).mkdir()
        train = task_rows(task, TRAIN, 0)
        for size in SIZES:  # nested, as prefixes of train.tsv's rows in another order
            write_tsv(folder / name / f"train_{size}.tsv", train[-size:])
        write_tsv(folder / name / "train.tsv", train)
        write_tsv(folder / name / "test.tsv", task_rows(task, TEST, TRAIN))
    return folder


@pytest.fixture(scope="module")
def export(release, tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "rnpc"
    configs = ["inoculation_spte", "inoculation_mpte", "inoculation_epc"]
    # a small --size: the card still reports the generated tasks, which the build draws
    argv = ["build", "rnpc", "--out", str(out), "--config", *configs, "--size", "800"]
    assert main([*argv, "--inoculation", str(release)]) == 0
    return out


@pytest.mark.slow  # a build: the card reads the generated tasks too
@pytest.mark.parametrize("task", ["spte", "mpte", "epc"])
def test_each_train_size_is_read_exactly_and_the_test_whole(export, release, task):
    splits = read_config(export, f"inoculation_{task}")
    assert set(splits) == {"train_10", "train_25", "train", "test"}
    for size in SIZES:
        released = task_rows(task, TRAIN, 0)[-size:]
        assert len(splits[f"train_{size}"]) == size
        assert set(splits[f"train_{size}"].np) == {row[5] for row in released}
        # the nested sets come first in train, so the curve's first N rows are train_N
        assert set(splits["train"].np[:size]) == {row[5] for row in released}
    assert len(splits["train"]) == TRAIN and len(splits["test"]) == TEST
    assert set(splits["test"].np) == {row[5] for row in task_rows(task, TEST, TRAIN)}


@pytest.mark.slow
def test_labels_map_to_compsems_names_as_the_task_csvs_map_theirs(export):
    spte = read_config(export, "inoculation_spte")["test"]
    # release 2 = entailment -> compsem's 1 (entailment); 0 -> 0 (non_entailment)
    assert sorted(set(spte.label)) == [0, 1]
    entailed = spte[spte.label == 1]
    assert len(entailed) == TEST // 2
    epc = read_config(export, "inoculation_epc")["test"]
    assert sorted(set(epc.label)) == [0, 1, 2]
    mpte = read_config(export, "inoculation_mpte")["train"]
    assert mpte.premise.str.count(r"\. ").min() == 1  # both premises in sentence1
    card = (export / "README.md").read_text()
    assert "inoculation_epc" in card


def test_a_row_gets_the_same_label_from_the_inoculation_file_and_the_task_csv(tmp_path):
    """The mapping checked against the release's other format: the task CSVs' string labels
    (read by loading_scripts/rnpc_release.py) for the same items as the integer labels."""
    from compsem.loading_scripts.rnpc_inoculation import read_inoculation
    from compsem.loading_scripts.rnpc_release import read_original_task

    words = {"spte": ["non-entailment", None, "entailment"],
             "epc": ["less_likely", "equally_likely", "more_likely"]}  # fmt: skip
    for task, name, columns in (("spte", "SPTE", ("premise", "hypothesis")),
                                ("epc", "EPC", ("first_event", "second_event"))):  # fmt: skip
        rows = task_rows(task, 12, 0)
        (tmp_path / name).mkdir()
        for split in ("train", "test"):
            write_tsv(tmp_path / name / f"{split}.tsv", rows)
        write_tsv(
            tmp_path / f"{name}.csv",
            [[r[0], r[4], r[5], r[1], r[2], words[task][r[3]]] for r in rows],
            ["id", "combo", "source NP", *columns, "label"],
            delimiter=",",
        )
        csv_labels = [r["label"] for r in read_original_task(tmp_path, task)]
        assert [r["label"] for r in read_inoculation(tmp_path, task)["test"]] == csv_labels


@pytest.mark.slow
def test_curve_runs_on_an_inoculation_config(export, tmp_path, one_thread):
    out = tmp_path / "curve"
    argv = ["curve", "--dataset", str(export), "--config", "inoculation_spte"]
    argv += ["--shots", "0", "10", "--seeds", "1", "--epochs", "1", "--device", "cpu"]
    assert main([*argv, "--out", str(out)]) == 0
    (path,) = out.glob("curve-inoculation_spte*.json")
    result = json.loads(path.read_text())
    assert result["scores"]["curve"]["shots"] == [0, 10]
    assert all(point["n"] == TEST for point in result["scores"]["points"])


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing-column", "lacks the column 'combo'"),
        ("unknown-label", "label '1' is not one of 0, 2 for SPTE"),
        ("no-test", "lacks test.tsv"),
    ],
)
def test_a_bad_inoculation_folder_is_one_clear_error(case, message, release, tmp_path, capsys):
    folder = tmp_path / "release"
    spte = folder / "SPTE"
    spte.mkdir(parents=True)
    rows = task_rows("spte", TRAIN, 0)
    write_tsv(spte / "train.tsv", rows)
    write_tsv(spte / "test.tsv", task_rows("spte", TEST, TRAIN))
    if case == "missing-column":
        write_tsv(spte / "train.tsv", [r[:4] + r[5:] for r in rows], HEADER[:4] + HEADER[5:])
    if case == "unknown-label":
        write_tsv(spte / "train.tsv", [[*r[:3], 1, *r[4:]] for r in rows])
    if case == "no-test":
        (spte / "test.tsv").unlink()
    out = tmp_path / "out"
    argv = ["build", "rnpc", "--out", str(out), "--config", "inoculation_spte"]
    assert main([*argv, "--inoculation", str(folder)]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and message in error[0], error
    assert not out.exists()
