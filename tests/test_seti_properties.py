"""The promises of the SETI paper (§3.2 eqs. 1–9, Table 3, §4.1, §5.2, Appendix B), checked as
properties of the exported data, plus the export's round trip, determinism and bad input."""

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from datasets import ClassLabel, load_dataset

import compsem.builders.seti.config as seti
import compsem.builders.seti.generation as seti_generation
from compsem.builders import BENCHMARKS
from compsem.builders.seti.lexicon import load_sentence_lexicon, relation
from compsem.builders.seti.sentences import clause_frame
from compsem.builders.seti.splits import FEW_SHOT_SIZES, SetiSplitError
from compsem.cli import main
from compsem.publish.audit import VALIDATION_PROBE_GAP, audit_tables, read_export
from compsem.publish.export import export_benchmark
from compsem.resources.spacy_pipeline import load_pipeline
from compsem.resources.wordnet import wordnet
from compsem.text.inflection import past_participle, present_participle
from tests.conftest import read_config
from tests.row_order import unrepresentative_prefixes

pytestmark = pytest.mark.slow

V_LEX, V_STRU = "f_v(s) →lex{} s′", "f_v(s) →stru{} s′"
NV_LEX, NV_STRU = "f_nv(s) →lex{} s′", "f_nv(s) →stru{} s′"
PI_VER = {"f_v(s) → s", "f_nv(s) ↛ s"}
PI_LEX, PI_STRU = {"s →lex s′", "s ↛lex s′"}, {"s →stru s′", "s ↛stru s′"}


def both(template: str) -> set[str]:
    return {template.format("+"), template.format("-")}


# §3.2, transcribed from the equations: (train types, test types) of each setting.
EQUATIONS = {
    "task1_trivial": (PI_VER | PI_LEX, both(V_LEX) | both(NV_LEX)),  # eqs. 1–2
    "task1_nontrivial": (PI_VER | PI_LEX, both(V_LEX) | both(NV_LEX)),
    "task2_trivial": (both(V_LEX) | both(NV_STRU), both(V_STRU) | both(NV_LEX)),  # eqs. 3–4
    "task2_nontrivial": (  # eq. 5
        {V_LEX.format("+"), V_STRU.format("+"), NV_LEX.format("-"), NV_STRU.format("-")},
        {V_LEX.format("-"), V_STRU.format("-"), NV_LEX.format("+"), NV_STRU.format("+")},
    ),
    "task3_trivial": (PI_STRU | both(V_LEX), both(V_STRU)),  # eqs. 6–7
    "task3_nontrivial_rver": ({"f_nv(s) ↛ s", V_LEX.format("+")}, {NV_LEX.format("+")}),  # eq. 8
    "task3_nontrivial_rnat": ({"s ↛lex s′", V_LEX.format("+")}, {V_LEX.format("-")}),  # eq. 9
}
R1, R2, R3, R4 = "T∧T→T", "T∧F→F", "F∧T→F", "F∧F→F"
# The same as (kind, rule): Table 3's rule for compositions, T/F for primitives.
KIND_RULES = {
    "task1_trivial": (
        {("ver", "T"), ("ver", "F"), ("lex", "T"), ("lex", "F")},
        {("ci", R1), ("ci", R2), ("ci", R3), ("ci", R4)},
    ),
    "task2_trivial": ({("ci", r) for r in (R1, R2, R3, R4)}, {("ci", r) for r in (R1, R2, R3, R4)}),
    "task2_nontrivial": ({("ci", R1), ("ci", R4)}, {("ci", R2), ("ci", R3)}),
    "task3_trivial": (
        {("stru", "T"), ("stru", "F"), ("ci", R1), ("ci", R2)},
        {("ci", R1), ("ci", R2)},
    ),
    "task3_nontrivial_rver": ({("ver", "F"), ("ci", R1)}, {("ci", R3)}),
    "task3_nontrivial_rnat": ({("lex", "F"), ("ci", R1)}, {("ci", R2)}),
}
KIND_RULES["task1_nontrivial"] = KIND_RULES["task1_trivial"]
# Appendix B: the two major types of each train, by a column that tells them apart.
MAJORS = {
    "task1_trivial": "kind",
    "task1_nontrivial": "kind",
    "task2_trivial": "verb_class",
    "task2_nontrivial": "verb_class",
    "task3_trivial": "kind",
    "task3_nontrivial_rver": "kind",
    "task3_nontrivial_rnat": "kind",
}
SETTINGS = list(EQUATIONS)
TRIVIAL = [name for name in SETTINGS if name.endswith("_trivial")]
NON_TRIVIAL = [name for name in SETTINGS if name not in TRIVIAL]
FEW_SHOT = [
    "task1_nontrivial",
    "task2_nontrivial",
    "task3_nontrivial_rver",
    "task3_nontrivial_rnat",
]
ALL_CONFIGS = SETTINGS + [f"{name}_in_distribution" for name in SETTINGS]


@pytest.fixture(scope="module")
def seti_export(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("exports") / "seti"
    export_benchmark("seti", out)
    return out


@pytest.fixture(scope="module")
def splits(seti_export):
    return {config: read_config(seti_export, config) for config in ALL_CONFIGS}


def forms(word: str) -> set[str]:
    return {word, present_participle(word), past_participle(word)}


def sentences(frame: pd.DataFrame) -> set[str]:
    return set(frame.s_id) | set(frame.s_prime_id.dropna())


def pairs(frame: pd.DataFrame) -> set[tuple[str, str]]:
    with_pair = frame.dropna(subset=["s_prime_id"])
    return set(zip(with_pair.s_id, with_pair.s_prime_id, strict=True))


def test_every_config_is_exported_with_its_splits(splits):
    assert set(splits) == set(ALL_CONFIGS)
    for config, frames in splits.items():
        expected = {"train", "validation", "test"} | ({"few_shot"} if config in FEW_SHOT else set())
        assert set(frames) == expected, config
        assert all(len(frame) for frame in frames.values()), config


def test_labels_follow_the_boolean_rules_of_table_3(splits):
    rows = pd.concat(frame for frames in splits.values() for frame in frames.values())
    veridical = rows.verb_class == "veridical"
    entailed = rows.nat_label == "entailment"
    expected = {"ver": veridical, "lex": entailed, "stru": entailed, "ci": veridical & entailed}
    for kind, truth in expected.items():
        selected = rows.kind == kind
        assert (rows.label[selected] == truth[selected].astype(int)).all(), kind
    compositions = rows[rows.kind == "ci"]
    table_3 = {(True, True): R1, (True, False): R2, (False, True): R3, (False, False): R4}
    for (v, n), rule in table_3.items():
        selected = (compositions.verb_class == "veridical") == v
        selected &= (compositions.nat_label == "entailment") == n
        assert (compositions.rule[selected] == rule).all()
    assert set(compositions.rule) == set(table_3.values())


def test_compositions_chain_their_primitives(splits):
    """CI = f(s) → s′ exactly when PI_ver's hypothesis s is PI_nat's premise."""
    frames = splits["task1_trivial"]
    train, test = frames["train"], frames["test"]
    pi_nat = train[train.kind.isin(["lex", "stru"])]
    natural = dict(
        zip(zip(pi_nat.s_id, pi_nat.s_prime_id, strict=True), pi_nat.hypothesis, strict=True)
    )
    premise_of = dict(zip(pi_nat.s_id, pi_nat.premise, strict=True))
    for row in test.sample(500, random_state=0).itertuples():
        assert row.hypothesis == natural[row.s_id, row.s_prime_id]
        embedded = premise_of[row.s_id]
        assert row.premise.lower().endswith(" that " + embedded[:1].lower() + embedded[1:])
        assert row.premise.startswith("Someone ")


@pytest.mark.parametrize("setting", SETTINGS)
def test_train_and_test_hold_exactly_the_types_of_the_equations(splits, setting):
    """Validation is drawn as test is: it holds test's types and rules, none of train's."""
    frames = splits[setting]
    train_types, test_types = EQUATIONS[setting]
    assert not train_types & test_types
    assert set(frames["train"].inference_type) == train_types
    assert (
        set(zip(frames["train"].kind, frames["train"].rule, strict=True)) == KIND_RULES[setting][0]
    )
    for split in ("validation", "test"):
        assert set(frames[split].inference_type) == test_types, split
        assert (
            set(zip(frames[split].kind, frames[split].rule, strict=True)) == KIND_RULES[setting][1]
        ), split


@pytest.mark.parametrize("setting", SETTINGS)
def test_validation_is_drawn_as_test_is_and_shares_no_row_with_it(splits, setting):
    """Out of distribution as test: validation is the validation fraction of the rows test is
    drawn from, each inference type in about its share of test, sharing no row with test (nor,
    in non-trivial settings, any sentence with train, test or few_shot)."""
    frames = splits[setting]
    validation, test = frames["validation"], frames["test"]
    assert not set(validation.id) & set(test.id)
    assert not set(zip(validation.premise, validation.hypothesis, strict=True)) & set(
        zip(test.premise, test.hypothesis, strict=True)
    )
    assert abs(len(validation) / (len(validation) + len(test)) - 0.2) < 0.01
    shares = pd.concat(
        {split: frames[split].inference_type.value_counts(normalize=True) for split in frames},
        axis=1,
    ).fillna(0)
    tolerance = 0.001 if setting in TRIVIAL else 0.05  # stratified rows, or whole sentence groups
    assert (shares.validation - shares.test).abs().max() <= tolerance, shares
    if setting in TRIVIAL:  # the primitives of validation, as of test, are train's
        assert pairs(validation) <= pairs(frames["train"])
    else:
        others = [frame for split, frame in frames.items() if split != "validation"]
        assert not sentences(validation) & set().union(*map(sentences, others))
        assert set(validation.nat_rule) <= set(frames["train"].nat_rule.dropna())


@pytest.mark.parametrize("setting", SETTINGS)
def test_train_is_balanced_between_its_two_major_types(splits, setting):
    """Appendix B's balance, after the paper's 4:1 dev share (Table 5) is left out of train:
    the majors of train differ by no more than the rounding of that share per type."""
    counts = splits[setting]["train"][MAJORS[setting]].value_counts()
    types = len(EQUATIONS[setting][0])
    assert len(counts) == 2 and abs(counts.iloc[0] - counts.iloc[1]) <= types, counts


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_no_test_composition_occurs_in_train(splits, config):
    frames = splits[config]
    test = set(zip(frames["test"].premise, frames["test"].hypothesis, strict=True))
    for split in ("train", "validation"):
        assert not test & set(zip(frames[split].premise, frames[split].hypothesis, strict=True))
        assert not set(frames["test"].id) & set(frames[split].id)
    assert not set(frames["train"].id) & set(frames["validation"].id)
    for frame in frames.values():
        assert frame.id.is_unique


@pytest.mark.parametrize("setting", TRIVIAL)
def test_trivial_test_compositions_reuse_the_primitives_of_train(splits, setting):
    train, test = splits[setting]["train"], splits[setting]["test"]
    assert pairs(test) <= pairs(train)
    if setting == "task1_trivial":  # eq. 2: s and s′ match the sentences of PI_ver and PI_lex
        assert set(test.s_id) <= set(train.s_id[train.kind == "ver"])


@pytest.mark.parametrize("setting", NON_TRIVIAL)
def test_non_trivial_test_sentences_are_unseen_but_share_the_rules(splits, setting):
    frames = splits[setting]
    seen = sentences(frames["train"]) | sentences(frames["validation"])
    assert not sentences(frames["test"]) & seen
    assert set(frames["test"].nat_rule) <= set(frames["train"].nat_rule.dropna())


@pytest.mark.parametrize("setting", SETTINGS)
def test_in_distribution_twins_resplit_the_same_rows_with_equal_sizes(splits, setting):
    base, twin = splits[setting], splits[f"{setting}_in_distribution"]
    for split in ("train", "validation", "test"):
        assert len(twin[split]) == len(base[split]), split
    ids = {split: set(twin[split].id) for split in ("train", "validation", "test")}
    assert set.union(*ids.values()) == set(pd.concat(base[s] for s in ids).id)
    assert set(twin["test"].inference_type) <= set(twin["train"].inference_type)
    assert set(twin["test"].id) != set(base["test"].id)


@pytest.mark.parametrize("setting", FEW_SHOT)
def test_few_shot_prefixes_teach_the_missing_rules_first(splits, setting):
    frames = splits[setting]
    few, test = frames["few_shot"], frames["test"]
    assert len(few) == max(FEW_SHOT_SIZES) and few.id.is_unique
    assert set(few.inference_type) == set(test.inference_type)
    missing = set(test.rule) - set(frames["train"].rule)
    assert missing  # every few-shot setting tests rules train never shows
    assert set(few.rule.iloc[: len(missing)]) == missing
    types = sorted(set(test.inference_type))
    for k in FEW_SHOT_SIZES[1:]:
        counts = few.inference_type.iloc[:k].value_counts().reindex(types, fill_value=0)
        assert counts.max() - counts.min() <= 1, (k, counts.to_dict())
    assert set(few.nat_rule) <= set(frames["train"].nat_rule.dropna())
    assert not set(few.id) & set(test.id)
    assert not sentences(few) & sentences(test)
    assert not sentences(few) & (sentences(frames["train"]) | sentences(frames["validation"]))


def test_few_shot_rule_counts_match_the_paper(splits):
    """§5.2: Task 1 needs four unseen rules, Task 2 two and Task 3 (−R_ver) one; −R_nat, drawn
    the same way though the paper ran no curve on it, one (rule ②)."""
    expected = {
        "task1_nontrivial": 4,
        "task2_nontrivial": 2,
        "task3_nontrivial_rver": 1,
        "task3_nontrivial_rnat": 1,
    }
    for setting, count in expected.items():
        frames = splits[setting]
        assert len(set(frames["test"].rule) - set(frames["train"].rule)) == count


def test_lexical_pairs_substitute_one_word_by_its_wordnet_relation(splits):
    lexicon = load_sentence_lexicon()
    sense = {entry.word: entry.sense for entry in (*lexicon.nouns, *lexicon.verbs)}
    rows = pd.concat(splits["task1_trivial"].values())
    lexical = rows[rows.kind == "lex"]
    assert {"synonym", "hypernym", "antonym", "co_hyponym"} == set(lexical.nat_relation)
    articles = {"a", "an"}
    for row in lexical.itertuples():
        changed = [
            (a, b)
            for a, b in zip(
                row.premise.lower().split(), row.hypothesis.lower().split(), strict=True
            )
            if a != b and not {a, b} <= articles
        ]
        assert len(changed) == 1, row
        left, right = row.nat_rule.split(" → ")
        assert changed[0][0] in forms(left) and changed[0][1] in forms(right)
        assert relation(sense[left], sense[right]) == row.nat_relation
        assert row.label == int(row.nat_relation in ("synonym", "hypernym"))


def test_structural_pairs_are_what_the_parser_reads(splits):
    nlp = load_pipeline()
    rows = pd.concat(splits["task3_trivial"].values())
    structural = rows[rows.kind == "stru"].drop_duplicates("id")
    assert set(structural.nat_relation) == {
        "active_to_passive", "passive_to_active", "argument_swap", "different_event",
    }  # fmt: skip
    for row in structural.sample(300, random_state=0).itertuples():
        (s, form, _, o, voice), (s2, form2, _, o2, voice2) = (
            clause_frame(nlp(row.premise)),
            clause_frame(nlp(row.hypothesis)),
        )
        # the parser's lemmas of "ridden" and "riding" may differ; WordNet's morphology agrees
        same_verb = bool(set(wordnet()._morphy(form, "v")) & set(wordnet()._morphy(form2, "v")))
        assert voice != voice2
        expected = {
            "active_to_passive": (s2, o2) == (s, o) and same_verb and voice == "active",
            "passive_to_active": (s2, o2) == (s, o) and same_verb and voice == "passive",
            "argument_swap": (s2, o2) == (o, s) and same_verb,
            "different_event": (s2, o2) == (s, o) and not same_verb,
        }
        assert expected[row.nat_relation], row
        assert row.label == int(row.nat_relation in ("active_to_passive", "passive_to_active"))


def test_load_dataset_reads_the_export_offline(seti_export):
    dataset = load_dataset(str(seti_export), "task2_nontrivial")
    assert set(dataset) == {"train", "validation", "test", "few_shot"}
    assert dataset["test"].features["label"] == ClassLabel(names=seti.LABEL_NAMES)
    on_disk = read_config(seti_export, "task2_nontrivial")
    for split, frame in on_disk.items():
        assert dataset[split]["id"] == list(frame.id)


def test_card_declares_every_config_with_exact_split_sizes(seti_export):
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(seti_export / "README.md")
    infos = {entry["config_name"]: entry for entry in card.data.dataset_info}
    assert sorted(infos) == sorted(ALL_CONFIGS)
    for name in ALL_CONFIGS:
        sizes = {split["name"]: split["num_examples"] for split in infos[name]["splits"]}
        assert sizes == {split: len(f) for split, f in read_config(seti_export, name).items()}
    text = (seti_export / "README.md").read_text()
    assert "fu-frank-2023-seti" in text and "passed the parser check" in text


def test_same_inputs_give_identical_bytes(seti_export, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "fresh-cache"))
    monkeypatch.setattr(seti_generation, "_POOLS", {})
    configs = ["task2_nontrivial", "task1_trivial_in_distribution"]
    export_benchmark("seti", tmp_path / "again", configs)
    for config in configs:
        files = sorted((tmp_path / "again" / config).iterdir())
        assert files
        for path in files:
            assert path.read_bytes() == (seti_export / config / path.name).read_bytes()


def test_a_different_seed_gives_different_data(seti_export, tmp_path):
    export_benchmark("seti", tmp_path / "other", ["task1_nontrivial"], seed=7)
    other = read_config(tmp_path / "other", "task1_nontrivial")["test"]
    assert set(other.id) != set(read_config(seti_export, "task1_nontrivial")["test"].id)


def test_too_few_sentences_fail_clearly_and_write_nothing(tmp_path):
    with pytest.raises(SetiSplitError, match="--sentences"):
        export_benchmark("seti", tmp_path / "seti", ["task3_nontrivial_rnat"], sentences=3)
    assert list(tmp_path.iterdir()) == []


def test_cli_names_a_bad_verb_file_in_one_line(tmp_path, capsys):
    verbs = tmp_path / "verbs.tsv"
    verbs.write_text("know\tveridical\nhope\tfactive\n")
    code = main(["build", "seti", "--out", str(tmp_path / "x"), "--verbs", str(verbs)])
    error = capsys.readouterr().err
    assert code == 2 and error.startswith("compsem build: error: verbs.tsv, line 2")
    assert "unknown verb class 'factive'" in error and "Traceback" not in error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["verbs.tsv"]


@pytest.mark.slow
def test_every_prefix_of_every_split_is_representative(seti_export):
    """Splits are stored shuffled, stratified: the first 100 rows of each hold every label and
    grouping field within 10 points of its share (so `--limit 100` scores a fair sample)."""
    assert unrepresentative_prefixes(seti_export) == {}


@pytest.fixture(scope="module")
def seti_audit(seti_export):
    tables = read_export(seti_export)
    return tables, audit_tables(tables, str(seti_export), "seti", hypothesis_only=False)


def checks_of(report, config: str) -> dict[str, object]:
    (audit,) = [c for c in report.configs if c.config == config]
    return {check.name: check for check in audit.checks}


@pytest.mark.slow
def test_the_audit_checks_every_settings_promise_and_each_holds(seti_audit):
    _, report = seti_audit
    assert report.ok, report.broken()
    for name, setting in seti.SETTINGS.items():
        promised = {n for n, c in checks_of(report, name).items() if c.promised and c.passed}
        assert "validation holds test's inference types" in promised, name
        if setting.trivial:
            assert "validation and test compositions use training pairs" in promised, name
        else:
            assert {
                "validation, test and few-shot sentences unseen elsewhere, any role",
                "natural rules of validation, test and few-shot seen in train",
            } <= promised, name
    flagged = checks_of(report, "task3_nontrivial_rver")["splits holding one label"]
    assert "test is all" in flagged.detail and not flagged.promised


@pytest.mark.slow
def test_the_probe_scores_validation_as_it_scores_test(seti_audit):
    """On the settings whose 1.1.0 validation (a holdout of train) the probe scored 0.21-0.51
    above test, the default build's validation now scores as test does. Reported, not promised:
    with about 40 hypotheses in Task 3's validation the gap passes 0.1 on some seeds."""
    assert not BENCHMARKS["seti"].audit_validation_as_test
    configs = ["task2_nontrivial", "task2_trivial", "task3_nontrivial_rver"]
    tables, _ = seti_audit
    report = audit_tables({name: tables[name] for name in configs}, "export", "seti")
    assert report.ok, report.broken()
    for name in configs:
        (gap,) = [c for n, c in checks_of(report, name).items() if n.startswith("validation's")]
        assert not gap.promised and gap.passed, (name, gap.detail)
        assert gap.numbers["gap"] <= VALIDATION_PROBE_GAP


@pytest.mark.slow
def test_the_audit_fails_on_a_planted_violation_of_each_promise(seti_audit):
    tables, _ = seti_audit
    nontrivial = {split: t for split, t in tables["task1_nontrivial"].items()}
    train_sentence = nontrivial["train"]["s_id"][0].as_py()
    test = nontrivial["test"]
    nontrivial["test"] = test.set_column(
        test.schema.get_field_index("s_id"), "s_id", pa.array([train_sentence] * len(test))
    )
    trivial = {split: t for split, t in tables["task1_trivial"].items()}
    test = trivial["test"]
    trivial["test"] = test.set_column(
        test.schema.get_field_index("s_prime_id"), "s_prime_id", pa.array(["unseen"] * len(test))
    )
    # 1.1.0's validation: a holdout of train, its types and sentences train's
    in_distribution = {**tables["task2_nontrivial"]}
    in_distribution["validation"] = in_distribution["train"].slice(0, 500)
    in_distribution["train"] = in_distribution["train"].slice(500)
    report = audit_tables(
        {
            "task1_nontrivial": nontrivial,
            "task1_trivial": trivial,
            "task2_nontrivial": in_distribution,
        },
        "planted",
        "seti",
        False,
    )
    broken = {(config, check.name) for config, check in report.broken()}
    assert broken >= {
        ("task1_nontrivial", "validation, test and few-shot sentences unseen elsewhere, any role"),
        ("task1_trivial", "validation and test compositions use training pairs"),
        ("task2_nontrivial", "validation holds test's inference types"),
        ("task2_nontrivial", "validation, test and few-shot sentences unseen elsewhere, any role"),
    }
