"""SherLIiC read from its release files into BoOQA's `sherliic` config (BoOQA Table 6): the
columns by position, typed arguments replaced by example entities, the real `compsem build`
and `load_dataset` round trip, and one clear error for a folder that is not SherLIiC's."""

import csv
import re
import subprocess
import sys

import pytest
from datasets import load_dataset

from compsem.loading_scripts.sherliic_release import SherLIiCError, read_sherliic

HEADER = [
    "id", "premise_type", "premise_relation", "hypothesis_type", "hypothesis_relation",
    "prem_argleft", "prem_middle", "prem_argright", "prem_end",
    "hypo_argleft", "hypo_middle", "hypo_argright", "hypo_end",
    "is_premise_reversed", "is_hypothesis_reversed", "examples_A", "examples_B",
    "is_entailment", "relevance_score", "significance_score", "esr_score", "num_disagreements",
]  # fmt: skip


def row(number, premise, hypothesis, reversed_, label, examples=("Barack Obama / Bill Clinton",
        "Michelle Obama / Hillary Clinton")):  # fmt: skip
    return [
        str(number), "7", str(100 + number), "7", str(200 + number),
        *premise, *hypothesis, *reversed_, *examples, label, "0.5", "0.1", "0.9", "0",
    ]  # fmt: skip


ROWS = {
    "dev": [
        row(1, ("A[person]", "is married to", "B[person]", ""),
            ("B[person]", "is the wife of", "A[person]", ""), ("False", "True"), "yes"),
        row(2, ("A[person]", "met", "B[person]", ""),
            ("A[person]", "is the  husband of", "B[person]", ""), ("False", "False"), "no"),
    ],
    "test": [
        row(3, ("A[location]", "is the capital of", "B[location]", ""),
            ("A[location]", "is a city in", "B[location]", "'s north"), ("False", "False"), "yes",
            ("Berlin / Paris", "Germany / France")),
    ],
}  # fmt: skip


def write_release(folder, rows=ROWS):
    folder.mkdir(parents=True, exist_ok=True)
    for split, lines in rows.items():
        with open(folder / f"{split}.csv", "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([HEADER, *lines])
    return folder


def test_each_relation_reads_as_a_proposition_about_its_example_entities(tmp_path):
    splits = read_sherliic(write_release(tmp_path / "sherliic"))
    assert sorted(splits) == ["dev", "test"]  # no train.csv: SherLIiC as released
    first, second = splits["dev"]
    assert first["premise"] == ("Barack Obama", "is married to", "Michelle Obama")
    # the hypothesis's relation is reversed: its left argument is B's example
    assert first["hypothesis"] == ("Michelle Obama", "is the wife of", "Barack Obama")
    assert (first["label"], second["label"]) == (1, 0)
    assert second["hypothesis"][1] == "is the husband of"  # spaces as one
    # the first example of each list; the relation's end follows the right argument
    (third,) = splits["test"]
    assert third["premise"] == ("Berlin", "is the capital of", "Germany")
    assert third["hypothesis"] == ("Berlin", "is a city in", "Germany's north")


def test_build_writes_the_sherliic_config_that_load_dataset_reads(tmp_path):
    release = write_release(tmp_path / "release", {**ROWS, "train": ROWS["dev"]})
    out = tmp_path / "booqa"
    subprocess.run(
        [sys.executable, "-m", "compsem.cli", "build", "booqa", "--config", "sherliic",
         "--sherliic", str(release), "--out", str(out)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    dataset = load_dataset(str(out), "sherliic")
    assert sorted(dataset) == ["dev", "test", "train"]
    assert dataset["test"].features["label"].names == ["non_entailment", "entailment"]
    rows = sorted(dataset["dev"], key=lambda r: r["premise"])
    assert [(r["premise"], r["hypothesis"], r["label"]) for r in rows] == [
        ("Barack Obama is married to Michelle Obama",
         "Michelle Obama is the wife of Barack Obama", 1),
        ("Barack Obama met Michelle Obama", "Barack Obama is the husband of Michelle Obama", 0),
    ]  # fmt: skip
    assert rows[0]["premise_predicate"] == "is married to" and rows[0]["subgroup"] is None
    card = (out / "README.md").read_text()
    assert "SherLIiC files" in card and "`sherliic`" in card


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda f: (f / "test.csv").unlink(), r"No test.csv under .*--sherliic"),
        (lambda f: (f / "dev.csv").write_text("id,a,b\n1,2,3\n"), r"dev.csv, line 2: expected 22"),
    ],
)
def test_a_folder_that_is_not_sherliics_is_one_clear_error_and_nothing_is_written(
    tmp_path, damage, message
):
    release = write_release(tmp_path / "release")
    damage(release)
    result = subprocess.run(
        [sys.executable, "-m", "compsem.cli", "build", "booqa", "--config", "sherliic",
         "--sherliic", str(release), "--out", str(tmp_path / "out")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert len([line for line in result.stderr.splitlines() if line.strip()]) == 1
    assert re.search(message, result.stderr)
    assert not (tmp_path / "out").exists()


def test_an_unknown_gold_label_names_its_line(tmp_path):
    bad = list(ROWS["dev"][0])
    bad[17] = "maybe"
    with pytest.raises(SherLIiCError, match=r"dev.csv, line 2: gold label 'maybe'"):
        read_sherliic(write_release(tmp_path / "release", {"dev": [bad], "test": ROWS["test"]}))
