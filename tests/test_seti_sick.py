"""Building SETI on the SICK release: reading SICK.txt, finding its lexical and active/passive
pairs, a full build on a SICK-format file, and clear errors for malformed files."""

import pytest

from compsem.builders.seti.config import SetiConfig
from compsem.builders.seti.generation import natural_pairs
from compsem.builders.seti.sick_pairs import sick_natural_pairs
from compsem.loading_scripts.sick_release import SickFormatError, read_sick
from compsem.publish.export import export_benchmark
from compsem.resources.spacy_pipeline import load_pipeline
from tests.conftest import read_config

HEADER = (
    "pair_ID\tsentence_A\tsentence_B\tentailment_label\trelatedness_score\tentailment_AB\t"
    "entailment_BA\tsentence_A_original\tsentence_B_original\tsentence_A_dataset\t"
    "sentence_B_dataset\tSemEval_set"
)
# Rows in the release's layout; the last one is neither lexical nor structural.
ROWS = [
    ("A boy is jumping into the water", "A kid is jumping into the water", "ENTAILMENT"),
    ("A woman is smiling", "A man is smiling", "CONTRADICTION"),
    ("A man is driving a car", "A car is being driven by a man", "ENTAILMENT"),
    ("A fish is being sliced by a man", "A man is slicing a fish", "ENTAILMENT"),
    ("A dog is chasing a cat", "A dog is being chased by a cat", "NEUTRAL"),
    ("A man is playing a guitar", "Two dogs are running through a field", "NEUTRAL"),
]


def write_sick(path, rows, header=HEADER):
    lines = [header]
    for number, (a, b, label) in enumerate(rows, start=1):
        lines.append(
            f"{number}\t{a}\t{b}\t{label}\t4.0\tA_neutral_B\tB_neutral_A\t{a}\t{b}\tFLICKR\tFLICKR\tTRAIN"
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def test_sick_pairs_are_classified_and_keep_sicks_labels(tmp_path):
    path = write_sick(tmp_path / "SICK.txt", ROWS)
    assert len(read_sick(path)) == len(ROWS)
    pairs = sick_natural_pairs(path, load_pipeline()).to_pylist()
    found = {(row["s"], row["s_prime"]): row for row in pairs}
    assert len(found) == len(ROWS) - 1
    expected = [
        ("lex", 1, "hypernym", "boy → kid"),
        ("lex", 0, "antonym", "woman → man"),
        ("stru", 1, "active_to_passive", "drive: active → passive"),
        ("stru", 1, "passive_to_active", "slice: passive → active"),
        ("stru", 0, "argument_swap", "chase: argument swap"),
    ]
    for (a, b, _), values in zip(ROWS, expected, strict=False):
        row = found[a, b]
        assert (row["nat_type"], row["nat_label"], row["nat_relation"], row["nat_rule"]) == values


def test_missing_columns_are_named_and_nothing_is_written(tmp_path):
    path = write_sick(
        tmp_path / "SICK.txt", ROWS, header=HEADER.replace("entailment_label", "label")
    )
    with pytest.raises(SickFormatError, match="lacks the column.*entailment_label"):
        read_sick(path)
    with pytest.raises(SickFormatError, match="entailment_label"):
        export_benchmark("seti", tmp_path / "seti", ["task1_trivial"], sick=str(path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SICK.txt"]


def test_unknown_label_and_missing_file_are_named(tmp_path):
    path = write_sick(tmp_path / "SICK.txt", [("A man is eating", "A man eats", "MAYBE")])
    with pytest.raises(SickFormatError, match="line 2: entailment_label 'MAYBE'"):
        read_sick(path)
    with pytest.raises(SickFormatError, match="does not exist"):
        export_benchmark("seti", tmp_path / "seti", sick=str(tmp_path / "nothing.txt"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SICK.txt"]


@pytest.mark.slow
def test_a_sick_format_file_builds_every_setting_like_generated_pairs(tmp_path):
    """SICK.txt written from generated pairs: the reader recovers them, and the build holds."""
    _, generated, _ = natural_pairs(SetiConfig(name="probe", sentences=600))
    labels = {1: "ENTAILMENT", 0: "NEUTRAL"}
    rows = [(row["s"], row["s_prime"], labels[row["nat_label"]]) for row in generated.to_pylist()]
    path = write_sick(tmp_path / "SICK.txt", rows)
    recovered = {
        (row["s"], row["s_prime"]): row
        for row in sick_natural_pairs(path, load_pipeline()).to_pylist()
    }
    sick_label = {(a, b): int(label == "ENTAILMENT") for a, b, label in rows}
    assert all(row["nat_label"] == sick_label[key] for key, row in recovered.items())
    same_kind = [
        recovered.get((row["s"], row["s_prime"]), {}).get("nat_type") == row["nat_type"]
        for row in generated.to_pylist()
    ]
    assert sum(same_kind) / len(same_kind) > 0.95
    configs = ["task1_nontrivial", "task3_trivial"]
    exports = export_benchmark("seti", tmp_path / "seti", configs, sick=str(path))
    assert [export.name for export in exports] == configs
    card = (tmp_path / "seti" / "README.md").read_text()
    assert "Natural inferences from SICK" in card
    for config in configs:
        frames = read_config(tmp_path / "seti", config)
        for frame in frames.values():
            natural = frame[frame.kind.isin(["lex", "stru"])]
            for row in natural.itertuples():
                assert recovered[row.premise, row.hypothesis]["nat_rule"] == row.nat_rule
                assert row.label == recovered[row.premise, row.hypothesis]["nat_label"]
