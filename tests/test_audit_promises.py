"""The split auditor: it passes every config we export and catches planted leaks, imbalances,
duplicates and hypothesis-only artefacts, in our exports and in original releases."""

import json
from dataclasses import replace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.benchmark import audit_checks as checks
from compsem.benchmark.card import AUDIT_START, card_problems
from compsem.benchmark.size_floor import (
    MIN_PROBE_TRAIN_ROWS,
    MIN_TEST_ROWS,
    NOT_ENOUGH_ROWS,
    size_warnings,
)
from compsem.builders import BENCHMARKS
from compsem.builders.plane.audit import AUDIT_CHECKS as PLANE_AUDIT_CHECKS
from compsem.publish.audit import (
    VALIDATION_PROBE_GAP,
    AuditError,
    audit_folder,
    audit_release,
    audit_tables,
)
from compsem.publish.audit_report import render_markdown
from tests.publish_helpers import copy_export, run_cli
from tests.test_original_release import write_release

ROW = {
    "premise": "",
    "hypothesis": "",
    "label": 0,
    "adjective": "",
    "noun": "",
    "hypernym": None,
    "adjective_class": "I",
    "inference_type": 1,
}


def items(*rows: tuple) -> pa.Table:
    """PLANE-like rows from (adjective, noun, hypernym, inference type, label)."""
    records = []
    for adjective, noun, hypernym, it, label in rows:
        hypothesis = {1: noun, 2: hypernym, 3: f"{adjective} {hypernym}"}[it]
        records.append(
            {
                **ROW,
                "id": f"{adjective}-{noun}-{hypernym}-{it}",
                "premise": f"{adjective} {noun}",
                "hypothesis": hypothesis,
                "label": label,
                "adjective": adjective,
                "noun": noun,
                "hypernym": hypernym,
                "inference_type": it,
            }
        )
    return pa.Table.from_pylist(records)


def goood() -> dict[str, pa.Table]:
    """A tiny split that keeps every GOoD promise."""
    return {
        "train": items(
            ("red", "car", "vehicle", 2, 1),
            ("fake", "car", "vehicle", 2, 0),
            ("red", "gun", "weapon", 3, 1),
            ("big", "gun", "weapon", 3, 0),
        ),
        "test": items(
            ("blue", "dog", "animal", 2, 1),
            ("former", "dog", "animal", 2, 0),
            ("alleged", "cat", "feline", 3, 1),
            ("small", "cat", "feline", 3, 0),
        ),
    }


def test_tiny_goood_split_keeps_its_promises():
    for check in PLANE_AUDIT_CHECKS["goood"]:
        result = check(goood())
        assert result.passed, (result.name, result.detail)


def test_a_hypernym_leaked_into_train_is_caught_and_named():
    splits = goood()
    splits["train"] = pa.concat_tables([splits["train"], items(("red", "car", "animal", 2, 1))])
    result = checks.vocabulary_disjoint(("adjective", "noun", "hypernym"))(splits)
    assert (
        result.broken and "1 hypernym(s) of test are hypernyms in train (animal)" in result.detail
    )


def test_a_word_leaked_in_another_role_is_caught():
    splits = goood()
    splits["train"] = pa.concat_tables([splits["train"], items(("red", "bus", "dog", 2, 1))])
    result = checks.vocabulary_disjoint(("adjective", "noun", "hypernym"))(splits)
    assert result.broken and "noun(s) of test are hypernyms in train (dog)" in result.detail


def test_a_validation_word_shared_with_train_or_test_is_caught():
    (vocabulary,) = [c for c in PLANE_AUDIT_CHECKS["goood"] if "vocabulary" in c(goood()).name]
    splits = goood()
    splits["validation"] = items(("green", "owl", "bird", 2, 1), ("mock", "owl", "bird", 2, 0))
    clean = vocabulary(splits)
    assert clean.passed and "4 words of validation occur nowhere in train, test" in clean.detail
    assert "words of test occur nowhere in train, validation" in clean.detail
    splits["validation"] = items(("green", "owl", "bird", 2, 1), ("fake", "owl", "bird", 2, 0))
    result = vocabulary(splits)
    assert result.broken and "1 adjective(s) of validation are adjectives in train (fake)" in (
        result.detail
    )


def test_label_and_inference_type_imbalance_are_caught():
    splits = goood()
    splits["test"] = splits["test"].slice(0, 3)
    labels = checks.label_balance()(splits)
    assert labels.broken and "test 33.3/66.7%" in labels.detail
    shares = checks.share_balance("inference_type")(splits)
    assert shares.broken and "test 66.7/33.3%" in shares.detail
    splits["test"] = splits["test"].filter(pa.compute.equal(splits["test"]["label"], 1))
    assert "test has a single label" in checks.label_balance()(splits).detail


def test_duplicates_within_and_across_splits_are_caught():
    splits = goood()
    splits["train"] = pa.concat_tables([splits["train"], splits["train"].slice(0, 1)])
    within = checks.no_duplicates_within()(splits)
    assert within.broken and "1 repeated id(s) in train" in within.detail
    assert "1 repeated input(s) in train (red car / vehicle)" in within.detail
    splits = goood()
    splits["test"] = pa.concat_tables([splits["test"], splits["train"].slice(2, 1)])
    across = checks.no_duplicates_across()(splits)
    assert across.broken and "1 input(s) in train and test (red gun / red weapon)" in across.detail


def test_a_lexical_cue_and_a_foreign_inference_type_are_caught():
    splits = goood()
    splits["test"] = pa.concat_tables([splits["test"], items(("blue", "owl", "bird", 1, 1))])
    cue = checks.no_lexical_cue(("noun", "hypernym"))(splits)
    assert cue.broken and "1 noun(s) in test (owl)" in cue.detail
    it3 = checks.only_values("inference_type", {3})(splits)
    assert it3.broken and "also 1, 2" in it3.detail


def test_in_distribution_compound_leaks_and_unseen_atoms_are_caught():
    train = items(("red", "car", "vehicle", 2, 1), ("fake", "gun", "weapon", 2, 0))
    test = items(("red", "car", "vehicle", 3, 1), ("fake", "car", "vehicle", 2, 0))
    splits = {"train": train, "test": test}
    phrases = checks.compounds_disjoint(("adjective", "noun"))(splits)
    assert phrases.broken and "1 of test occur in train (red car)" in phrases.detail
    assert checks.compounds_disjoint(("adjective", "noun", "hypernym", "inference_type"))(
        splits
    ).passed
    splits["test"] = pa.concat_tables([test, items(("blue", "car", "vehicle", 2, 1))])
    atoms = checks.atoms_in_train(("adjective", "noun", "hypernym"))(splits)
    assert (
        atoms.broken and "1 adjective(s) of test never adjectives in train (blue)" in atoms.detail
    )


def test_hypothesis_only_probe_measures_a_planted_artefact():
    def artefact(n: int, cue: bool, prefix: str) -> pa.Table:
        """Labels alternate; the hypothesis holds a cue word, or a word seen with both labels."""
        rows = []
        for i in range(n):
            word = ("certainly" if i % 2 else "perhaps") if cue else f"w{(i // 2) % 10}"
            rows.append((f"a{i}", f"{prefix}{i}", f"{word} {prefix}{i}", 2, i % 2))
        return items(*rows)

    def probe_of(cue: bool, **options):
        splits = {"train": artefact(200, cue, "t"), "test": artefact(100, cue, "e")}
        return audit_tables({"c": splits}, "x", **options)

    (cued,) = probe_of(True).configs[0].probes
    assert cued.accuracy == 1.0 and cued.aucnorm == pytest.approx(1.0)
    assert cued.majority_accuracy == 0.5 and not cued.tied
    (plain,) = probe_of(False).configs[0].probes
    assert plain.tied and plain.aucnorm is None and plain.accuracy == 0.5
    ceiling = probe_of(True, max_hypothesis_only_aucnorm=0.5)
    assert [check.name for _, check in ceiling.broken()] == ["hypothesis-only AUCnorm ≤ 0.5"]
    assert probe_of(False, max_hypothesis_only_aucnorm=0.5).ok


def test_a_validation_the_probe_finds_easier_than_test_breaks_the_promise():
    """A validation dealt from train's side (shared hypotheses) against an out-of-distribution
    test: the probe's accuracy differs by far more than the gap the promise allows."""

    def rows(prefix: str, n: int) -> list[tuple]:
        return [(f"a{i}", f"{prefix}n{i}", f"{prefix}h{i % 20}", 2, (i % 20) % 2) for i in range(n)]

    train = items(*rows("t", 400))
    in_distribution = items(*[(f"b{i}", *row[1:]) for i, row in enumerate(rows("t", 100))])
    splits = {"train": train, "validation": in_distribution, "test": items(*rows("e", 100))}
    name = f"validation's hypothesis-only accuracy within {VALIDATION_PROBE_GAP:g} of test's"

    def gap_check(config: str, benchmark=None):
        (audit,) = audit_tables({config: splits}, "x", benchmark).configs
        (check,) = [c for c in audit.checks if c.name == name]
        return check

    promised = gap_check("goood_split_1", "plane")
    assert promised.broken and promised.numbers["validation"] == 1.0
    assert promised.numbers["test"] == 0.5 and "gap 0.500" in promised.detail
    # Another benchmark's validation is reported the same way, not promised.
    reported = gap_check("c")
    assert reported.passed is False and not reported.broken
    splits["validation"] = items(*rows("v", 100))  # out of distribution, as test
    assert gap_check("goood_split_1", "plane").passed


def test_the_summary_names_failed_checks_nobody_promised():
    """A failed informational check is no broken promise, so the audit passes; but the summary
    says so instead of "every promise holds" alone."""

    def rows(prefix: str, n: int) -> list[tuple]:
        return [(f"a{i}", f"{prefix}n{i}", f"{prefix}h{i % 20}", 2, (i % 20) % 2) for i in range(n)]

    train = items(*rows("t", 400))
    in_distribution = items(*[(f"b{i}", *row[1:]) for i, row in enumerate(rows("t", 100))])
    far = {"train": train, "validation": in_distribution, "test": items(*rows("e", 100))}
    near = {**far, "validation": items(*rows("v", 100))}
    report = audit_tables({"c": far, "d": near, "e": far}, "x")
    assert report.ok
    summary = render_markdown(report).splitlines()[0]
    name = f"validation's hypothesis-only accuracy within {VALIDATION_PROBE_GAP:g} of test's"
    assert summary.endswith(
        f"every promise holds; **2 informational check(s) fail** (not promised): {name} (c, e)."
    )
    assert (
        render_markdown(audit_tables({"d": near}, "x"))
        .splitlines()[0]
        .endswith("every promise holds.")
    )
    broken = audit_tables({"goood_split_1": far, "c": far}, "x", "plane")
    assert (
        render_markdown(broken)
        .splitlines()[0]
        .endswith(
            f"**{len(broken.broken())} broken promise(s)** in goood_split_1; **1 informational "
            f"check(s) fail** (not promised): {name} (c)."
        )
    )


def test_without_a_train_split_the_probe_trains_on_half_of_the_first_split():
    rows = [(f"a{i}", f"n{i}", f"{'yes' if i % 2 else 'no'} h{i}", 2, i % 2) for i in range(500)]
    dev = items(*rows)
    test = pa.concat_tables(
        [items(*rows[:50]), items(*[(a, n, f"{h}x", it, y) for a, n, h, it, y in rows[:50]])]
    )
    half, other = audit_tables({"c": {"dev": dev, "test": test}}, "x").configs[0].probes
    assert half.trained_on == "dev (other half)" and half.evaluated_on == "dev (held-out half)"
    assert half.train_rows + half.rows == 500 and half.accuracy > 0.9
    # BoOQA E.1: hypotheses the probe was trained on are removed from the other splits
    assert other.evaluated_on == "test" and 50 <= other.rows < 100 and other.accuracy > 0.9


def test_a_benchmark_spec_supplies_its_own_regime_checks():
    def modifiers_disjoint(splits):
        return checks.CheckResult("modifier positions disjoint", False, "planted")

    spec = replace(
        BENCHMARKS["rnpc"],
        audit_checks={"modifier_ood": [modifiers_disjoint], "*": [checks.label_balance()]},
    )
    assert spec.regime_checks("modifier_ood") == [modifiers_disjoint]
    assert len(spec.regime_checks("other")) == 1
    assert replace(spec, audit_checks={}).regime_checks("anything") == []
    assert BENCHMARKS["plane"].regime_checks("goood") == PLANE_AUDIT_CHECKS["goood"]


@pytest.fixture(scope="module")
def audited(plane_export, tmp_path_factory):
    folder = tmp_path_factory.mktemp("audit") / "plane"
    copy_export(plane_export, folder)
    return folder, audit_folder(folder)


@pytest.mark.slow
def test_every_exported_plane_config_keeps_its_promises(audited):
    folder, report = audited
    assert report.ok, report.broken()
    assert report.benchmark == "plane" and len(report.configs) == 19
    by_config = {audit.config: audit for audit in report.configs}
    for name, promised in (
        ("goood_split_3", "vocabulary disjoint in every role"),
        ("one_it_split_2", "IT3 items only"),
        ("in_distribution_4", "atoms of validation and test occur in train"),
        ("in_distribution_4", "compounds disjoint"),
    ):
        assert any(c.name == promised and c.passed for c in by_config[name].checks), name
    assert by_config["two_shot"].probes == []  # prompts have no hypothesis column
    probes = {(p.evaluated_on): p for p in by_config["goood_split_1"].probes}
    assert probes["test"].accuracy == pytest.approx(0.5)  # every test word is unseen in train


@pytest.mark.slow
def test_the_audit_goes_into_the_card_once_and_the_card_stays_valid(audited):
    folder, report = audited
    text = (folder / "README.md").read_text()
    assert text.count(AUDIT_START) == 1 and "every promise holds" in text
    assert "| goood_split_1 | goood | vocabulary disjoint in every role | pass |" in text
    assert card_problems(text) == []
    audit_folder(folder, configs=["goood_split_1"], hypothesis_only=False)
    again = (folder / "README.md").read_text()
    assert again.count(AUDIT_START) == 1 and "checked 1 config(s)" in again


@pytest.mark.slow
def test_cli_exits_non_zero_on_a_planted_leak_and_says_so_in_the_card(
    plane_export, tmp_path, capsys
):
    folder = tmp_path / "plane"
    copy_export(plane_export, folder)
    (train_path,) = (folder / "goood_split_2").glob("train-*.parquet")
    (test_path,) = (folder / "goood_split_2").glob("test-*.parquet")
    train, test = pq.read_table(train_path), pq.read_table(test_path)
    leaked = test.slice(0, 1).cast(train.schema)  # a test item now also in train
    pq.write_table(pa.concat_tables([train, leaked]), train_path)
    report = tmp_path / "audit.json"
    argv = ["audit", str(folder), "--config", "goood_split_2", "goood_split_1", "--json"]
    assert run_cli([*argv, str(report)]) == 1
    output = capsys.readouterr()
    assert "broken promise(s)" in output.err
    broken = json.loads(report.read_text())["configs"][0]["broken"]
    assert set(broken) == {
        "vocabulary disjoint in every role",
        "no duplicates across splits",
        "no noun/hypernym with a single label",  # the leaked noun has one label in train
    }
    card = (folder / "README.md").read_text()
    assert "| goood_split_2 | goood | vocabulary disjoint in every role | **BROKEN** |" in card
    assert run_cli(["audit", str(folder), "--config", "goood_split_1", "--no-card"]) == 0


def test_the_original_release_leaks_are_reported(tmp_path, capsys):
    release = tmp_path / "release"
    leaked_test = [
        ["An alleged thief is a criminal", 0, "O", "alleged", "thief", "criminal"],
        ["A brown cat is an animal", 1, "I", "brown", "cat", "animal"],
    ]
    write_release(release, test=leaked_test)
    report = audit_release("plane", release, ["original_goood_split_1"])
    (audit,) = report.configs
    assert audit.regime == "original_goood"
    vocabulary = next(c for c in audit.checks if c.name == "vocabulary disjoint in every role")
    assert vocabulary.broken and "hypernyms in train (animal)" in vocabulary.detail
    argv = ["audit", str(release), "--original", "plane", "--config", "original_goood_split_1"]
    assert run_cli(argv) == 1
    assert "**BROKEN**" in capsys.readouterr().out


def test_bad_input_gets_one_clear_error(tmp_path, capsys):
    assert run_cli(["audit", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert run_cli(["audit", str(tmp_path)]) == 2
    assert "holds no Parquet configs" in capsys.readouterr().err
    assert run_cli(["audit", str(tmp_path), "--original", "plane", "--config", "full"]) == 2
    assert "are not original plane configs" in capsys.readouterr().err


def test_an_uncarded_folder_is_audited_once_its_benchmark_is_named(tmp_path):
    folder = tmp_path / "export"
    for split, table in goood().items():
        (folder / "goood_split_1").mkdir(parents=True, exist_ok=True)
        pq.write_table(table, folder / "goood_split_1" / f"{split}-00000-of-00001.parquet")
    with pytest.raises(AuditError, match="pass --benchmark NAME"):
        audit_folder(folder, hypothesis_only=False)
    report = audit_folder(folder, benchmark="plane", hypothesis_only=False)
    assert report.benchmark == "plane" and report.ok
    assert report.configs[0].regime == "goood"
    assert not (folder / "README.md").exists()


def test_a_probe_trained_on_too_few_rows_says_so_instead_of_scoring():
    rows = [(f"a{i}", f"n{i}", f"{'yes' if i % 2 else 'no'} h{i}", 2, i % 2) for i in range(250)]
    splits = {"train": items(*rows[: MIN_PROBE_TRAIN_ROWS - 1]), "test": items(*rows[200:])}
    report = audit_tables({"c": splits}, "x", max_hypothesis_only_aucnorm=0.5)
    (probe,) = report.configs[0].probes
    assert probe.note.startswith(NOT_ENOUGH_ROWS) and probe.aucnorm is probe.accuracy is None
    assert report.ok  # nothing to compare with the ceiling, so nothing broken
    markdown = report.to_markdown()
    assert "not enough rows" in markdown
    assert f"c: its test split has 50 rows, below the {MIN_TEST_ROWS:,}" in markdown
    assert "**Too small to rank models**" in markdown


def test_size_warnings_name_each_config_below_the_floor_and_only_those():
    summary = [
        {"config": "small", "split": "test", "rows": 28},
        {"config": "small", "split": "dev", "rows": 14},
        {"config": "large", "split": "test", "rows": MIN_TEST_ROWS},
    ]
    (warning,) = size_warnings(summary)
    assert warning.startswith("small: its test split has 28 rows") and "±18.5 points" in warning
