"""RNPC's shipped tables (modifier lexicon, attributes, effects, nouns, events) and every kind of
bad lexicon or table a user may pass."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.builders.rnpc.generation import corpus_pairs
from compsem.builders.rnpc.words.noun_phrases import build_vocabulary, fit_matrix, stack_matrix
from compsem.builders.rnpc.words.nouns import load_events, load_nouns, load_second_nouns
from compsem.resources.lexicon import LexiconError
from compsem.resources.modifiers import (
    ABSTRACT_SUPERSENSES,
    CATEGORIES,
    CONCRETE_SUPERSENSES,
    EFFECTS,
    SUBSECTIVE_KINDS,
    SUPERSENSES,
    load_modifier_lexicon,
    read_attributes,
)
from compsem.resources.wordnet import wordnet

HEADER = "modifier\tcategory\tattribute\tsubsective_kind\tapplies_to\n"


@pytest.fixture(scope="module")
def lexicon():
    return load_modifier_lexicon()


@pytest.fixture(scope="module")
def nouns():
    return load_nouns()


def write(tmp_path, text: str, name: str = "mine.tsv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_shipped_lexicon_has_400_modifiers_of_every_category_and_kind(lexicon):
    assert len(lexicon) >= 400
    counts = lexicon.category_counts()
    assert set(counts) == set(CATEGORIES) and min(counts.values()) >= 50, counts
    kinds = {m.kind for m in lexicon.modifiers if m.category == "subsective"}
    assert kinds == set(SUBSECTIVE_KINDS)
    assert all(not m.kind for m in lexicon.modifiers if m.category != "subsective")
    # one row per modifier and category; a modifier listed again names the nouns it is for
    assert len({(m.text, m.category) for m in lexicon.modifiers}) == len(lexicon)
    first = {}
    for m in lexicon.modifiers:
        assert first.setdefault(m.text, m) is m or m.applies_to, m


def test_the_issue_s_examples_have_the_categories_and_kinds_the_rules_need(lexicon):
    entry = {m.text: (m.category, m.kind) for m in lexicon.modifiers}
    assert entry["American"] == ("intersective", "")
    assert entry["green"] == ("intersective", "")
    assert entry["former"] == ("privative", "")
    assert entry["fake"] == ("privative", "")
    for relative in ("second", "favorite", "big", "new", "tallest"):
        assert entry[relative] == ("subsective", "relative"), relative
    assert entry["skillful"] == ("subsective", "role")
    assert entry["beginner"] == ("subsective", "stage")
    assert entry["experienced"][0] == "subsective" and entry["experienced"][1] in ("role", "stage")


def test_every_modifier_is_a_wordnet_word(lexicon):
    wn = wordnet()

    def known(word: str) -> bool:
        return bool(wn.synsets(word.lower()))

    unknown = [
        m.text
        for m in lexicon.modifiers
        if not (known(m.text) or all(known(part) for part in m.text.split("-")))
    ]
    assert unknown == []


def test_every_attribute_has_an_effect_a_rationale_and_valid_selectors(lexicon, nouns):
    attributes = read_attributes()
    assert {m.attribute for m in lexicon.modifiers} <= set(attributes)
    for attribute in attributes.values():
        assert attribute.effect in EFFECTS
        assert attribute.rationale and attribute.effect_rationale, attribute.name
        assert attribute.applies_to, attribute.name
    privative = {m.attribute for m in lexicon.modifiers if m.category == "privative"}
    assert {attributes[name].effect for name in privative} == {"less"}
    fits = fit_matrix(lexicon.table(), nouns)  # raises on an unknown selector
    lonely = [m.text for m, row in zip(lexicon.modifiers, fits, strict=True) if not row.any()]
    assert lonely == [], "modifiers that fit no noun never occur"


def test_nouns_carry_wordnet_supersense_hypernyms_and_gender(nouns):
    rows = {row["noun"]: row for row in nouns.to_pylist()}
    assert len(rows) >= 400
    assert {row["supersense"] for row in rows.values()} == set(SUPERSENSES)
    # RNPC's phrases are mostly of what people do, say, own and plan (an expected financial surge)
    abstract = [row for row in rows.values() if row["supersense"] in ABSTRACT_SUPERSENSES]
    assert len(abstract) >= 50
    assert rows["election"]["supersense"] == "act" and rows["loan"]["supersense"] == "possession"
    assert rows["gun"]["supersense"] == "artifact" and "weapon.n.01" in rows["gun"]["ancestors"]
    assert rows["surgeon"]["role"] == "occupation" and rows["surgeon"]["gender"] == ""
    assert rows["mother"]["gender"] == "female" and rows["uncle"]["gender"] == "male"
    assert rows["actress"]["gender"] == "female" and rows["policeman"]["gender"] == "male"
    assert rows["tiger"]["supersense"] == "animal"  # pinned sense, not WordNet's first (a person)


def test_events_and_second_nouns_are_complete(nouns):
    events = load_events(nouns=nouns)
    assert len(set(events["noun"].to_pylist())) >= 150
    assert all(events["rationale"].to_pylist())
    # every noun with an event has one in keeping with it, one against it and one of what a
    # privative keeps
    stances = {}
    for row in events.to_pylist():
        stances.setdefault(row["noun"], set()).add(row["stance"])
    assert all(found == {"in_keeping", "against", "kept"} for found in stances.values())
    second = load_second_nouns()
    # MPTE's second nouns are of beings and objects; abstract nouns stay out of MPTE (no N')
    assert set(second["supersense"].to_pylist()) == set(CONCRETE_SUPERSENSES)


def test_stacking_forbids_same_dimension_wrong_order_and_ambiguous_scope(lexicon, nouns):
    vocabulary = build_vocabulary(lexicon, nouns)
    index = {text: i for i, text in enumerate(vocabulary.modifiers["modifier"])}
    stacks = vocabulary.stacks
    assert stacks[index["second"], index["green"]]
    assert not stacks[index["green"], index["second"]]  # ordinals come first
    assert not stacks[index["red"], index["green"]]  # one colour
    assert not stacks[index["former"], index["beginner"]]  # ambiguous scope: left out
    assert stacks[index["former"], index["American"]]
    assert not stacks[index["second"], index["favorite"]]  # one determiner-forcing modifier
    assert stack_matrix(vocabulary.modifiers).diagonal().sum() == 0


@pytest.mark.parametrize(
    "row, message",
    [
        ("red\tintersecting\tcolour\t\t\n", r"line 2: unknown category 'intersecting' for 'red'; use one of intersective"),
        ("red\tintersective\thue\t\t\n", r"unknown attribute 'hue' for 'red'; add it to the attribute table"),
        ("big\tsubsective\tsize\t\t\n", r"subsective 'big' needs a subsective_kind, one of relative, role, stage"),
        ("red\tintersective\tcolour\trelative\t\n", r"'red' is intersective; only subsective modifiers take"),
        ("red intersective colour\n", r"line 2: expected 3 to 5 tab-separated fields"),
    ],
)  # fmt: skip
def test_malformed_lexicon_rows_are_named(tmp_path, row, message):
    with pytest.raises(LexiconError, match=message):
        load_modifier_lexicon(write(tmp_path, HEADER + row))


def test_a_lexicon_without_privative_modifiers_is_refused(tmp_path):
    text = HEADER + "red\tintersective\tcolour\t\t\nbig\tsubsective\tsize\trelative\t\n"
    with pytest.raises(LexiconError, match="no privative modifier.*Add at least one privative"):
        load_modifier_lexicon(write(tmp_path, text))


def test_a_modifier_listed_twice_differently_is_refused(tmp_path):
    text = HEADER + "red\tintersective\tcolour\t\t\nred\tprivative\tauthenticity\t\t\n"
    with pytest.raises(LexiconError, match="'red' is listed again without applies_to"):
        load_modifier_lexicon(write(tmp_path, text))
    text = HEADER + "red\tintersective\tcolour\t\t\nred\tintersective\tsize\t\tanimal\n"
    with pytest.raises(LexiconError, match="'red' is listed twice as intersective"):
        load_modifier_lexicon(write(tmp_path, text))


def test_the_same_row_twice_is_read_once(tmp_path):
    row = "red\tintersective\tcolour\t\t\n"
    rows = "big\tsubsective\tsize\trelative\t\nfake\tprivative\tauthenticity\t\t\n"
    lexicon = load_modifier_lexicon(write(tmp_path, HEADER + row + rows + row))
    assert [m.text for m in lexicon.modifiers] == ["red", "big", "fake"]


def test_a_material_is_privative_for_the_nouns_its_later_row_names(lexicon):
    """RNPC §4: a material modifier can be privative. A paper bag is a bag, a paper sword is
    not a sword: the later row takes the nouns it names from the earlier one."""
    vocabulary = build_vocabulary(lexicon, load_nouns())
    words = vocabulary.modifiers["modifier"]
    nouns = list(vocabulary.nouns["noun"])
    paper = {vocabulary.modifiers["category"][i]: i for i in np.flatnonzero(words == "paper")}
    assert set(paper) == {"intersective", "privative"}
    fits = vocabulary.fits
    for noun, category in (
        ("bag", "intersective"),
        ("sword", "privative"),
        ("pistol", "privative"),
    ):
        assert fits[paper[category], nouns.index(noun)], noun
    assert not (fits[paper["intersective"]] & fits[paper["privative"]]).any()
    # the two rows of a word never stack (no 'paper paper gun')
    assert not vocabulary.stacks[paper["intersective"], paper["privative"]]
    assert not vocabulary.stacks[paper["privative"], paper["intersective"]]


def test_missing_lexicon_file(tmp_path):
    with pytest.raises(LexiconError, match="does not exist"):
        load_modifier_lexicon(tmp_path / "nope.tsv")


def test_bad_attribute_and_effect_tables(tmp_path):
    effects = write(tmp_path, "attribute\teffect\trationale\ncolour\tbetter\tx\n", "effects.tsv")
    with pytest.raises(LexiconError, match="unknown effect 'better' for 'colour'"):
        read_attributes(effects_path=effects)
    attributes = write(
        tmp_path,
        "attribute\tdimension\tapplies_to\tdeterminer\torder\trationale\n"
        "colour\tcolour\tartifact\tsome\t5\tx\n",
        "attributes.tsv",
    )
    with pytest.raises(LexiconError, match="unknown determiner 'some'"):
        read_attributes(attributes)


def test_unknown_selector_is_named(tmp_path, nouns):
    text = HEADER + (
        "red\tintersective\tcolour\t\tvehicles\nbig\tsubsective\tsize\trelative\t\n"
        "fake\tprivative\tauthenticity\t\t\n"
    )
    lexicon = load_modifier_lexicon(write(tmp_path, text))
    with pytest.raises(LexiconError, match="applies_to names 'vehicles'.*gun.n.01"):
        build_vocabulary(lexicon, nouns)


@pytest.mark.parametrize(
    "row, message",
    [
        ("gun\tknife.n.01\t\n", r"'gun' is not a lemma of knife.n.01"),
        ("gun\tgun.n.99\t\n", r"'gun.n.99' is not a WordNet noun synset; name one of"),
        ("rain\train.n.01\t\n", r"rain.n.01 is in noun.phenomenon; nouns must be one of"),
        ("surgeon\tsurgeon.n.01\tboss\n", r"unknown role 'boss'"),
    ],
)
def test_malformed_noun_rows_are_named(tmp_path, row, message):
    with pytest.raises(LexiconError, match=message):
        load_nouns(write(tmp_path, "noun\tsynset\trole\n" + row, "nouns.tsv"))


def test_an_events_file_without_stances_lists_events_in_keeping(tmp_path, nouns):
    path = write(tmp_path, "noun\tevent\trationale\ngun\tfires bullets\tit shoots\n", "e.tsv")
    assert load_events(path, nouns)["stance"].to_pylist() == ["in_keeping"]
    path = write(tmp_path, "gun\tis harmless\tmade to shoot\tagainst\n", "e.tsv")
    assert load_events(path, nouns)["stance"].to_pylist() == ["against"]


def test_an_unknown_event_stance_is_named(tmp_path, nouns):
    path = write(tmp_path, "gun\tis harmless\tmade to shoot\tunread\n", "e.tsv")
    with pytest.raises(LexiconError, match="line 1: unknown stance 'unread'; use one of"):
        load_events(path, nouns)


def test_events_of_unknown_nouns_are_refused(tmp_path, nouns):
    path = write(tmp_path, "noun\tevent\trationale\nunicorn\tflies\tmyth\n", "events.tsv")
    with pytest.raises(LexiconError, match="'unicorn' is not in the noun list"):
        load_events(path, nouns)


def test_corpus_cooccurrence_filters_fits_and_degrades_gracefully(
    tmp_path, monkeypatch, lexicon, nouns
):
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "cache"))
    with pytest.warns(UserWarning, match="No PLANE adjective-noun extraction"):
        assert corpus_pairs("plane-cache")[0] is None
    (tmp_path / "cache" / "an_pairs").mkdir(parents=True)
    pairs = pa.table({"adjective": ["red", "blue"], "noun": ["car", "bus"], "count": [3, 1]})
    pq.write_table(pairs, tmp_path / "cache" / "an_pairs" / "abc.parquet")
    table, description = corpus_pairs("plane-cache")
    assert "abc.parquet (2 pairs" in description
    plain = build_vocabulary(lexicon, nouns)
    filtered = build_vocabulary(lexicon, nouns, table)
    m = {text: i for i, text in enumerate(plain.modifiers["modifier"])}
    n = {text: i for i, text in enumerate(plain.nouns["noun"])}
    assert plain.fits[m["red"], n["bus"]] and not filtered.fits[m["red"], n["bus"]]
    assert filtered.fits[m["red"], n["car"]] and filtered.fits[m["blue"], n["bus"]]
    assert filtered.fits[m["red"], n["truck"]]  # the corpus never saw trucks: no evidence
    assert filtered.fits[m["green"], n["bus"]]  # nor green
    assert np.array_equal(filtered.fits | plain.fits, plain.fits)
    with pytest.raises(FileNotFoundError, match="nope.parquet does not exist"):
        corpus_pairs(str(tmp_path / "nope.parquet"))
