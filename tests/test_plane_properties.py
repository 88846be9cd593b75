"""The promises of the PLANE paper, checked as properties of the generated data."""

import pandas as pd
import pytest

from compsem.builders.plane.config import ENTAILS, MAX_HYPERNYM_DISTANCE, N_RESAMPLES, PlaneConfig
from compsem.builders.plane.items.hypernyms import unigram_hypernyms
from compsem.builders.plane.prompts import CONVERSION_TABLE, VERBALISERS
from compsem.text.articles import copular_sentence
from tests.conftest import read_config
from tests.row_order import unrepresentative_prefixes

pytestmark = pytest.mark.slow
RESAMPLES = range(1, N_RESAMPLES + 1)
# The least share of each inference type's rows each label keeps, as the export was built.
LABEL_FLOOR = PlaneConfig(name="default").min_label_share


def vocabulary(frame: pd.DataFrame) -> set[str]:
    """Every word of a split, whatever its role."""
    return set(frame.adjective) | set(frame.noun) | set(frame.hypernym.dropna())


@pytest.fixture(scope="module")
def full(plane_export):
    return read_config(plane_export, "full")["train"]


def test_labels_follow_table_1(full):
    expected = [
        ENTAILS[c][it - 1] for c, it in zip(full.adjective_class, full.inference_type, strict=False)
    ]
    assert (full.label == pd.Series(expected, dtype=int)).all()
    assert set(full.adjective_class) == {"I", "S", "O"}
    assert set(full.inference_type) == {1, 2, 3}


def test_hypotheses_and_sentences_follow_the_inference_type(full):
    for row in full.sample(2000, random_state=0).itertuples():
        written = row.premise.split()[0]  # the adjective as the corpus writes it
        hypothesis = {1: row.noun, 2: row.hypernym, 3: f"{written} {row.hypernym}"}
        assert written.lower() == row.adjective
        assert row.hypothesis == hypothesis[row.inference_type]
        assert row.premise == f"{written} {row.noun}"
        assert row.sentence == copular_sentence(row.premise, row.hypothesis)


def test_proper_adjectives_are_written_with_their_capital_and_each_adjective_one_way(full):
    written = full.premise.str.split().str[0]
    assert (written.groupby(full.adjective).nunique() == 1).all()
    forms = dict(zip(full.adjective, written, strict=True))
    assert forms["american"] == "American" and forms["former"] == "former"


def test_hypernyms_are_unigram_wordnet_hypernyms_within_the_class_distance(full):
    upward = full[full.inference_type > 1]
    limits = upward.adjective_class.map(MAX_HYPERNYM_DISTANCE)
    assert (upward.hypernym_distance >= 1).all() and (upward.hypernym_distance <= limits).all()
    assert upward.hypernym.str.fullmatch(r"[a-z]+").all()
    for row in (
        upward.drop_duplicates(["noun", "hypernym"]).sample(300, random_state=0).itertuples()
    ):
        assert unigram_hypernyms(row.noun, 3)[row.hypernym] == row.hypernym_distance
    direct = full[full.inference_type == 1]
    assert direct.hypernym.isna().all() and (direct.hypernym_distance == 0).all()


def test_ids_are_unique_and_counts_and_pmi_present(full):
    assert full.id.is_unique
    assert (full.phrase_count >= 1).all() and full.pmi.notna().all()


def assert_balanced(frame: pd.DataFrame, inference_types) -> None:
    assert abs(frame.label.mean() - 0.5) <= 0.01
    shares = frame.inference_type.value_counts(normalize=True)
    assert set(shares.index) == set(inference_types)
    assert (abs(shares - 1 / len(inference_types)) <= 0.01).all()
    assert_label_floor(frame)


def assert_label_floor(frame: pd.DataFrame) -> None:
    """Each label holds at least the floor share of each inference type's rows, so the
    inference type (visible from the hypothesis) does not give the label away."""
    shares = frame.groupby("inference_type").label.agg(["mean", "size"])
    assert LABEL_FLOOR > 0
    least = pd.concat([shares["mean"], 1 - shares["mean"]], axis=1).min(axis=1)
    assert (least >= LABEL_FLOOR - 1e-9).all(), shares


def assert_no_lexical_cue(frame: pd.DataFrame) -> None:
    for role in ("noun", "hypernym"):
        labels_per_word = frame.dropna(subset=[role]).groupby(role).label.nunique()
        assert (labels_per_word == 2).all(), labels_per_word[labels_per_word < 2].index[:5]


def assert_test_nouns_seen_with_every_class(test: pd.DataFrame, pool: pd.DataFrame) -> None:
    """§3.2: test nouns occur with adjectives of all three classes in the source phrases."""
    classes = pool[pool.noun.isin(set(test.noun))].groupby("noun").adjective_class.nunique()
    assert (classes == 3).all()


@pytest.mark.parametrize(
    "stem, inference_types", [("goood_split", (1, 2, 3)), ("one_it_split", (3,))]
)
@pytest.mark.parametrize("index", RESAMPLES)
def test_goood_vocabularies_are_disjoint_in_every_role(
    plane_export, full, stem, inference_types, index
):
    """Train, validation and test share no adjective, noun or hypernym, whatever role each
    plays: validation is out of distribution like test, and drawn like it (§3.2's nouns)."""
    splits = read_config(plane_export, f"{stem}_{index}")
    assert set(splits) == {"train", "validation", "test"}
    words = {name: vocabulary(frame) for name, frame in splits.items()}
    for first, second in (("train", "validation"), ("train", "test"), ("validation", "test")):
        assert not words[first] & words[second], (first, second)
    for _name, frame in splits.items():
        assert len(frame) > 0
        assert_balanced(frame, inference_types)
        assert_no_lexical_cue(frame)
    assert_test_nouns_seen_with_every_class(splits["test"], full)
    assert_test_nouns_seen_with_every_class(splits["validation"], full)


@pytest.mark.parametrize("stem", ["goood_split", "one_it_split", "in_distribution"])
def test_resamples_are_independent(plane_export, stem):
    tests = [frozenset(read_config(plane_export, f"{stem}_{i}")["test"].id) for i in RESAMPLES]
    assert len(set(tests)) == N_RESAMPLES


@pytest.mark.parametrize("index", RESAMPLES)
def test_in_distribution_shares_atoms_but_not_compounds(plane_export, full, index):
    splits = read_config(plane_export, f"in_distribution_{index}")
    train = splits["train"]
    phrases = {name: set(frame.premise) for name, frame in splits.items()}
    assert not phrases["train"] & phrases["test"] and not phrases["validation"] & phrases["test"]
    assert not set(train.id) & set(splits["validation"].id)
    for name in ("validation", "test"):
        frame = splits[name]
        for role in ("adjective", "noun", "hypernym"):
            assert set(frame[role].dropna()) <= set(train[role].dropna())
        assert_balanced(frame, (1, 2, 3))
        assert_no_lexical_cue(frame)
    assert_balanced(train, (1, 2, 3))
    assert_test_nouns_seen_with_every_class(splits["test"], full)


def test_two_shot_prompts_cover_every_combination(plane_export):
    prompts = read_config(plane_export, "two_shot")["test"]
    per_triplet = prompts.groupby(["adjective", "noun", "hypernym"]).size()
    assert (per_triplet == 3 * 2 * 2 * 3).all()  # hypothesis IT × order × template × verbaliser
    assert set(prompts.adjective_class) == {"I", "S", "O"}
    assert (prompts.prompt.str.count(r"\{mask\}") == 1).all()
    for row in prompts.sample(500, random_state=0).itertuples():
        negative, positive = VERBALISERS[row.verbaliser]
        assert row.target == (positive if row.label else negative)
        assert row.label == ENTAILS[row.adjective_class][row.inference_type - 1]
        first, second = map(int, row.premise_inference_types.split(","))
        assert row.inference_type not in (first, second)
        assert f" {row.noun} " in row.prompt and row.adjective.lower() in row.prompt.lower()
        premise_words = [negative, positive]
        sentences = row.prompt.split(". ")
        for it, sentence in zip((first, second), sentences[:2], strict=False):
            assert (
                premise_words[ENTAILS[row.adjective_class][it - 1]]
                in sentence.split(":")[-1].split()
            )


def triplets(frame: pd.DataFrame) -> set[tuple]:
    return set(zip(frame.adjective, frame.noun, frame.hypernym, strict=True))


def test_zero_shot_prompts_are_the_two_shot_hypotheses_alone(plane_export):
    """Appendix B.1: the two-shot triplets, every IT under both templates, no premise, read
    through Table 7's conversion table."""
    prompts = read_config(plane_export, "zero_shot")["test"]
    two_shot = read_config(plane_export, "two_shot")["test"]
    assert triplets(prompts) == triplets(two_shot)
    per_triplet = prompts.groupby(["adjective", "noun", "hypernym"]).size()
    assert (per_triplet == 3 * 2).all()  # hypothesis IT × template
    assert (prompts.prompt.str.count(r"\{mask\}") == 1).all()
    negatives, positives = zip(*CONVERSION_TABLE, strict=True)
    for row in prompts.sample(300, random_state=0).itertuples():
        assert row.label == ENTAILS[row.adjective_class][row.inference_type - 1]
        assert (tuple(row.negative_words), tuple(row.positive_words)) == (negatives, positives)
    # The two-shot prompt's hypothesis sentence of that triplet, IT and template, alone.
    hypotheses = {
        (r.adjective, r.noun, r.hypernym, r.inference_type, r.template): r.prompt.split(". ")[-1]
        for r in two_shot.itertuples()
    }
    for row in prompts.itertuples():
        key = (row.adjective, row.noun, row.hypernym, row.inference_type, row.template)
        assert row.prompt == hypotheses[key]


def test_two_shot_pairs_are_the_items_behind_the_prompts(plane_export, full):
    pairs = read_config(plane_export, "two_shot_pairs")["test"]
    two_shot = read_config(plane_export, "two_shot")["test"]
    assert set(pairs.id) <= set(full.id) and pairs.id.is_unique
    phrases = set(zip(two_shot.adjective, two_shot.noun, strict=True))
    assert set(zip(pairs.adjective, pairs.noun, strict=True)) == phrases
    with_hypernym = pairs[pairs.inference_type > 1]
    for it in (2, 3):
        assert triplets(with_hypernym[with_hypernym.inference_type == it]) == triplets(two_shot)
    assert (pairs[pairs.inference_type == 1].groupby(["adjective", "noun"]).size() == 1).all()


@pytest.mark.slow
def test_every_prefix_of_every_split_is_representative(plane_export):
    """Splits are stored shuffled, stratified: the first 100 rows of each hold every label and
    grouping field within 10 points of its share (so `--limit 100` scores a fair sample)."""
    assert unrepresentative_prefixes(plane_export) == {}
