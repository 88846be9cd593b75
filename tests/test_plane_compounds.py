"""Phrases WordNet reads otherwise leave PLANE's pool (Appendix A rules out multi-word
expressions): compounds that are no kind of their noun, and lemmas that change the noun's meaning."""

import pyarrow as pa
import pytest

from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.corpus.extraction import OCCURRENCE_SCHEMA
from compsem.builders.plane.items.compounds import (
    MEANING_CHANGING,
    NON_COMPOSITIONAL,
    changes_meaning,
    dropped_summary,
    filter_phrases,
    non_compositional,
)

IDIOMS = [
    ("silver", "spoon"),
    ("yellow", "fever"),
    ("green", "card"),
    ("blind", "alley"),
    ("quick", "study"),
    ("fast", "buck"),
    ("blue", "chip"),
]
KINDS_OF_THEIR_NOUN = [("black", "bear"), ("african", "country"), ("white", "lie")]


@pytest.mark.parametrize(("adjective", "noun"), IDIOMS)
def test_a_compound_that_is_no_kind_of_its_noun_is_non_compositional(adjective, noun):
    assert non_compositional(adjective, noun)
    assert not non_compositional(adjective, noun, "keep")


@pytest.mark.parametrize(("adjective", "noun"), KINDS_OF_THEIR_NOUN)
def test_compounds_that_are_kinds_of_their_noun_and_free_phrases_stay(adjective, noun):
    assert not non_compositional(adjective, noun)
    assert not non_compositional(adjective, noun, "any_sense")
    assert not non_compositional("former", "president")  # no compound in WordNet


def test_any_sense_keeps_a_compound_with_one_literal_sense():
    # WordNet's second blue chip is a poker chip: a chip, though the first (a stock) is not.
    assert non_compositional("blue", "chip", "first_sense")
    assert not non_compositional("blue", "chip", "any_sense")
    assert non_compositional("silver", "spoon", "any_sense")


@pytest.mark.parametrize(
    ("written", "lemma"),
    [("means", "mean"), ("data", "datum"), ("clothes", "clothe"), ("species", "specie")],
)
def test_a_plural_with_senses_of_its_own_changes_meaning(written, lemma):
    assert changes_meaning(written, lemma)


@pytest.mark.parametrize(
    ("written", "lemma"),
    [
        ("ferns", "fern"),
        ("women", "woman"),
        ("stocks", "stock"),
        ("men", "man"),
        ("years", "year"),
        ("fern", "fern"),
    ],
)
def test_regular_plurals_keep_their_meaning(written, lemma):
    assert not changes_meaning(written, lemma)


def occurrences(rows: list[tuple]) -> pa.Table:
    names = OCCURRENCE_SCHEMA.names
    return pa.Table.from_pylist(
        [dict(zip(names, row, strict=True)) for row in rows], OCCURRENCE_SCHEMA
    )


ARCS = occurrences(
    [
        ("electronic", "mean", "electronic", "means", 3),
        ("electronic", "mean", "electronic", "mean", 1),
        ("blue", "chip", "blue", "chip", 2),
        ("blue", "chip", None, "chips", 1),
        ("black", "bear", "black", "bear", 4),
        ("raw", "datum", "raw", "data", 5),  # raw is not in the lexicon below
    ]
)
LEXICON = {"electronic": "I", "blue": "I", "black": "I"}


def test_dropped_phrases_leave_the_pairs_and_are_counted():
    pairs, dropped = filter_phrases(ARCS, LEXICON, "first_sense", lemma_guard=True)
    kept = {(r["adjective"], r["noun"]): r["count"] for r in pairs.to_pylist()}
    assert kept == {("black", "bear"): 4, ("electronic", "mean"): 1}
    summary = dropped_summary(dropped)
    assert summary[NON_COMPOSITIONAL] == {"phrases": 1, "arcs": 3, "examples": ["blue chip"]}
    assert summary[MEANING_CHANGING] == {
        "phrases": 1,
        "arcs": 3,
        "examples": ["electronic means → mean"],
    }


def test_the_filters_can_be_switched_off():
    pairs, dropped = filter_phrases(ARCS, LEXICON, "keep", lemma_guard=False)
    assert len(dropped) == 0 and len(pairs) == 4
    assert {r["noun"]: r["count"] for r in pairs.to_pylist()}["mean"] == 4


def test_an_unknown_compound_rule_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="first_sense"):
        PlaneConfig(name="full", non_compositional="sometimes")
