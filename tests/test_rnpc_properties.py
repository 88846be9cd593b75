"""The promises of the RNPC issue and paper, checked as properties of the generated data.

The label rules are written out here again from the issues' text (issue 18: MPTE follows the N'
relation and a privative's scope) and checked against the categories, kinds, attributes and
effects the shipped lexicon gives each row's modifiers.
"""

import itertools
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from datasets import ClassLabel, load_dataset

from compsem.benchmark.hypothesis_only import probe
from compsem.builders.rnpc import realisation
from compsem.builders.rnpc.audit import majority_probe
from compsem.builders.rnpc.config import LEARNING_CURVE_SIZES, RnpcConfig
from compsem.builders.rnpc.labels.catalogue import RULES
from compsem.builders.rnpc.shortcut_balance import SINGLE_SHARE, SPTE_SINGLE_SHARE
from compsem.builders.rnpc.words.noun_phrases import plural_form
from compsem.builders.rnpc.words.nouns import load_events, load_nouns, load_second_nouns
from compsem.cli import main
from compsem.publish.export import ExportError, export_benchmark
from compsem.resources.modifiers import (
    ABSTRACT_SUPERSENSES,
    load_modifier_lexicon,
    read_attributes,
)
from compsem.resources.wordnet import wordnet
from compsem.text.articles import indefinite_article
from tests.conftest import read_config
from tests.row_order import unrepresentative_prefixes

pytestmark = pytest.mark.slow
SIZE = 3000
TASKS = ("spte", "mpte", "epc")
COMBOS = {f"{a}-{b}" for a in ("int", "sub", "pri") for b in ("int", "sub", "pri")}
RULES_LABELS = {
    "spte": ("non_entailment", "entailment"),
    "mpte": ("non_entailment", "entailment"),
    "epc": ("less_plausible", "equally_plausible", "more_plausible"),
}
ROLE_ENDING = {"time", "status_loss", "deputyship"}  # former, deposed, acting
ORIGIN = {"nationality", "provenance", "period"}
VALUE = {"price", "quality", "fame"}
SURFACE = {"colour", "pattern", "shape", "hair", "appearance"}
LASTING = {"nationality", "handedness"}  # a person's own, as a hand or eyes are
SELECTING = {"ordinal", "superlative", "preference", "typicality"}  # the second; a typical
GRADABLE = {  # degrees, judged against N itself: a tall young hunter is a tall hunter
    "age", "beauty", "fame", "height", "intelligence", "length", "loudness", "price", "quality",
    "size", "speed", "strength", "taste", "temperature", "wealth", "weight", "width",
}  # fmt: skip
# Rules the shipped lexicon cannot generate, as its adjective order puts an imitation
# (counterfeit) and a stage (novice) next to the noun, so never before an origin or value, or
# before another modifier of a person, and as its events say nothing of what a modifier says or
# of when N is (RNPC 3.10.0); they label the original release's rows.
RELEASE_ONLY = {
    "n.imitation_of_m2", "m1.stage_other_noun", "modifier_restated", "modifier_opposed",
}  # fmt: skip
DENIALS = ("does not ", "cannot ", "is not ", "are not ", "must not ")


@pytest.fixture(scope="module")
def rnpc_export(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "rnpc"
    export_benchmark("rnpc", out, None, size=SIZE)
    return out


@pytest.fixture(scope="module")
def challenge(rnpc_export):
    return {task: read_config(rnpc_export, f"{task}_challenge")["test"] for task in TASKS}


@pytest.fixture(scope="module")
def entries():
    """(modifier, category) -> its category, kind, effect, dimension, order, determiner and
    applies_to: a modifier whose category depends on the noun (paper) has a row per category."""
    lexicon = load_modifier_lexicon()
    attributes = read_attributes()
    return {
        (m.text, m.category): {
            "text": m.text,
            "category": m.category,
            "kind": m.kind,
            "attribute": m.attribute,
            "effect": attributes[m.attribute].effect,
            "dimension": attributes[m.attribute].dimension,
            "order": attributes[m.attribute].order,
            "determiner": attributes[m.attribute].determiner,
            "applies_to": m.applies_to or attributes[m.attribute].applies_to,
        }
        for m in lexicon.modifiers
    }


def by_word(entries: dict) -> dict:
    """modifier -> its rows, in the lexicon's order."""
    rows = {}
    for entry in entries.values():
        rows.setdefault(entry["text"], []).append(entry)
    return rows


@pytest.fixture(scope="module")
def nouns():
    return {row["noun"]: row for row in load_nouns().to_pylist()}


def slots(frame: pd.DataFrame, entries: dict):
    for row in frame.itertuples():
        yield (
            row,
            entries[row.modifier1, row.m1_category],
            entries[row.modifier2, row.m2_category],
        )


def expected_spte(hypothesis: str, m1: dict, m2: dict, person: bool) -> int | None:
    """SPTE's label, None where the reading is ambiguous and must not be generated."""
    privative = (m1["category"] == "privative", m2["category"] == "privative")
    if privative[0] and m2["kind"] == "stage":
        return None  # a former beginner drummer
    fakes_m2 = m1["attribute"] == "imitation" and m2["attribute"] in ORIGIN | VALUE
    unclear = privative[0] and (
        (m1["attribute"] == "authenticity" and m2["attribute"] in ORIGIN | VALUE)
        or (
            m2["category"] == "subsective"
            and m1["attribute"] not in {"imitation", "authenticity", "depiction"}
        )
    )
    if hypothesis == "n":  # ⊨ N iff no privative, or a counterfeit fakes M2 (§7)
        if fakes_m2:
            return 1
        if person and m1["attribute"] in ROLE_ENDING and m2["category"] == "subsective":
            return 0  # issue 25: a former talented violinist is no violinist
        return None if unclear else int(not any(privative))
    if hypothesis == "m2_n":  # ⊨ M2 N iff M1 is not privative
        return int(not privative[0])
    if privative[1]:  # issue 25: an intersective M1 may describe the likeness itself
        return None if m1["category"] == "intersective" else 0
    if privative[0] and m1["attribute"] and m2["category"] == "subsective":
        return 1  # issue 25: a former talented violinist is a former violinist
    if fakes_m2 or unclear:
        return None
    if m1["kind"] != "relative":  # ⊨ M1 N unless M1 is relative to M2 N
        return 1
    if m1["attribute"] in SELECTING or m2["attribute"] in SELECTING:
        return 0  # the second green ball is not the second ball; nor my new favorite my new
    # issue 25: people judge a degree against N itself (a tall young hunter is a tall hunter)
    return 1 if m1["attribute"] in GRADABLE else None


def test_spte_labels_follow_the_rules(challenge, entries):
    frame = challenge["spte"]
    for row, m1, m2 in slots(frame, entries):
        person = row.supersense == "person"
        assert row.label == expected_spte(row.hypothesis_type, m1, m2, person), row
    assert set(frame.hypothesis_type) == {"n", "m2_n", "m1_n"}


def test_the_papers_examples_of_relative_modifiers_are_non_entailments(challenge, entries):
    """The second green ball is not the second ball; my favorite new movie is not my favorite
    movie. A degree M1 is judged against N itself, over a colour (a big red apple is a big
    apple) and, as people read it (issue 25), over a subsective M2 (a tall young hunter is a
    tall hunter), but not over one that picks (my new favorite movie is not my new movie)."""
    m1_n = challenge["spte"].query("hypothesis_type == 'm1_n'")
    attribute = [
        entries[key]["attribute"] for key in zip(m1_n.modifier1, m1_n.m1_category, strict=True)
    ]
    selecting = m1_n[[a in SELECTING for a in attribute]]
    assert len(selecting) and (selecting.label == 0).all()
    degree = m1_n[[a in GRADABLE for a in attribute]]
    over_colour = degree[degree.m2_attribute == "colour"]
    over_subsective = degree[degree.m2_category == "subsective"]
    picked = over_subsective.m2_attribute.isin(SELECTING)
    assert len(over_colour) and (over_colour.label == 1).all()
    assert picked.any() and (over_subsective[picked].label == 0).all()
    assert (~picked).any() and (over_subsective[~picked].label == 1).all()


def expected_mpte(kept: dict, other: dict, side: str, relation: str, person: bool) -> int | None:
    """MPTE's label for ``P Det M N'`` (M = ``kept``, in position ``side``), None where the
    reading is ambiguous and must not be generated."""
    m1, m2 = (kept, other) if side == "m1" else (other, kept)
    hypernym = relation == "hypernym"
    if m1["category"] == "privative" and m2["kind"] == "stage":
        return None
    if hypernym and any(
        m["category"] == "privative" and m["attribute"] in {"depiction", "epistemic"}
        for m in (m1, m2)
    ):
        return None  # a stuffed bear is no animal
    if side == "m2" and kept["category"] == "intersective" and m1["category"] == "privative":
        if m1["attribute"] in ROLE_ENDING:  # a former French minister is still French
            return 1 if kept["attribute"] in {"nationality", "handedness"} else None
        if m1["attribute"] in {"imitation", "authenticity"} and kept["attribute"] in ORIGIN:
            return 0  # a fake Swiss watch need not be Swiss
        likenesses = {"imitation", "authenticity", "depiction"}  # a fake black gun is black
        return 1 if kept["attribute"] in SURFACE and m1["attribute"] in likenesses else None
    if side == "m2" and m1["category"] == "privative" and kept["category"] == "subsective":
        return None if hypernym else 0
    if kept["category"] == "intersective":
        return 1
    if kept["category"] == "privative":  # issue 25
        if kept["attribute"] == "imitation" and hypernym and other["category"] != "privative":
            return 1  # a counterfeit banknote is a counterfeit document
        if person or relation == "co_hyponym" or kept["attribute"] == "epistemic":
            return 0  # a former minister who is a mother is no former mother
        if side == "m2" and other["category"] == "privative":
            return 1 if kept["attribute"] in {"imitation", "depiction", "making"} else 0
        return None if side == "m2" and kept["attribute"] == "authenticity" else 1
    if kept["kind"] == "relative":  # a big mouse is not a big animal
        return None if other["category"] == "privative" or side == "m2" or relation == "role" else 0
    if hypernym:  # a skillful surgeon who is a doctor is a skillful doctor
        return 1 if kept["kind"] == "role" and other["category"] != "privative" else None
    return 0 if kept["kind"] else None  # ... but not a skillful father


def test_mpte_labels_follow_the_rules(challenge, entries):
    frame = challenge["mpte"]
    for row, m1, m2 in slots(frame, entries):
        kept, other = (m1, m2) if row.hypothesis_modifier == "m1" else (m2, m1)
        expected = expected_mpte(
            kept,
            other,
            row.hypothesis_modifier,
            row.second_noun_relation,
            row.supersense == "person",
        )
        assert row.label == expected, row
    assert set(frame.second_noun_relation) == {"hypernym", "co_hyponym", "role"}


def test_mpte_second_nouns_stand_in_their_wordnet_relation(challenge, nouns):
    wn = wordnet()
    listed = {
        row["noun"]: row for row in load_second_nouns(default="rnpc_hypernyms.tsv").to_pylist()
    }
    listed |= {row["noun"]: row for row in load_second_nouns().to_pylist()}
    for row in challenge["mpte"].itertuples():
        synset = wn.synset(nouns[row.noun]["synset"])
        above = {s.name() for s in synset.closure(lambda s: s.hypernyms())}
        second = listed[row.second_noun]
        is_hypernym = second["synset"] in above
        below = synset.name() in second["ancestors"]
        assert is_hypernym == (row.second_noun_relation == "hypernym"), row
        assert not below, row  # never a hyponym of N
        if row.second_noun_relation == "co_hyponym":
            assert row.supersense == "person"


def test_mpte_hypothesis_alone_gives_little_away(challenge):
    """Issue 18: a hypothesis-only probe got 94% on mpte_challenge; down-sampling keeps at most
    SINGLE_SHARE of each label from strata the hypothesis decides."""
    table = pa.Table.from_pandas(challenge["mpte"][["hypothesis", "label"]])
    (result,) = probe({"test": table})
    assert result.accuracy <= 0.5 + SINGLE_SHARE + 0.05, result


def test_spte_hypothesis_alone_gives_little_away(challenge):
    """Issue 25's bound on every challenge set: the hypothesis alone tells at most 70% of the
    labels. SPTE's hypothesis shows the kept modifier and N, so it tells some (a privative
    kept as M1 is mostly carried over, N alone mostly not): full build 0.682."""
    table = pa.Table.from_pandas(challenge["spte"][["hypothesis", "label"]])
    (result,) = probe({"test": table})
    assert result.accuracy <= 0.70, result


def test_epc_is_about_abstract_nouns_too(challenge, rnpc_export):
    """Issue 25: about two-thirds of the heads of RNPC's phrases are abstract (an expected
    financial surge, a mock trial); compsem's were all beings and objects. EPC now draws
    abstract nouns (acts, events, documents, money, plans) for half its draws (full build: 21%
    of the items), in every split. SPTE keeps to beings and objects (with them its hypothesis
    told more of the label); MPTE has no second noun for them."""
    for split, frame in {"challenge": challenge["epc"], **read_config(rnpc_export, "epc")}.items():
        abstract = frame.supersense.isin(ABSTRACT_SUPERSENSES).mean()
        assert 0.1 < abstract < 0.5, (split, abstract)
    for task in ("spte", "mpte"):
        assert not challenge[task].supersense.isin(ABSTRACT_SUPERSENSES).any(), task


def test_spte_first_modifier_alone_gives_little_away(challenge, rnpc_export):
    """Issue 25: SPTE's label rests on which modifier the hypothesis drops, not on which the
    premise holds. Balanced over (combo, rule) cells alone, a probe on M1's attribute scored
    0.80 (full build) and 79% of the premises led by an ordinal were non-entailments, so a
    model read *the first big wave* → *a wave* as one. Now most of each label comes in pairs
    from M1 attributes that hold both, and an ordinal premise entails as often as not."""
    frames = {"challenge": challenge["spte"], "test": read_config(rnpc_export, "spte")["test"]}
    for split, frame in frames.items():
        accuracy = majority_probe(frame.m1_attribute.to_numpy(), frame.label.to_numpy())
        assert accuracy <= 0.5 + SPTE_SINGLE_SHARE + 0.05, (split, accuracy)
        ordinal = frame[frame.m1_attribute == "ordinal"]
        assert len(ordinal) > 20 and 0.35 < ordinal.label.mean() < 0.65, split


def test_epc_event_alone_gives_little_away(challenge, rnpc_export):
    """Issue 25: an event of what a privative keeps is equally plausible with any modifiers, so
    E alone tells its label. Balanced one cell per combo, such events made 69% of the equally
    plausible rows and a probe on E alone scored 0.705; as one cell they stay a small share,
    in train and validation as in test. With a privative the event's stance decides the label
    (in keeping with N: less, against it: more), so since privative rows hold most of those
    labels (3.7.0) E alone tells more than before (full build: 0.636, 3.6.0: 0.531), still
    short of the kept shortcut's 0.705 and of issue 25's bound, 0.70."""
    frame = challenge["epc"]
    (result,) = probe({"test": pa.Table.from_pandas(frame[["event", "label"]])}, "event")
    assert result.accuracy <= 0.68, result
    kept = frame.event_stance == "kept"
    assert 0 < kept.mean() < 0.12
    for split, table in read_config(rnpc_export, "epc").items():
        assert 0 < (table.event_stance == "kept").mean() < 0.12, split


def test_epc_events_against_n_are_mostly_stated(challenge, rnpc_export):
    """Issue 25: RNPC's events against N are mostly stated (*a fake painting has little
    value*); 29% of those of the development half deny a defining event. Every phrase offers
    both forms, so up to 3.9.0 half of EPC's were denials; 3.10.0 keeps half the denials drawn
    (tasks.DENIAL_KEEP): about a third, in every split."""
    for split, frame in {"challenge": challenge["epc"], **read_config(rnpc_export, "epc")}.items():
        against = frame[frame.event_stance == "against"]
        denials = against.event.str.startswith(DENIALS).mean()
        assert 0.2 < denials < 0.45, (split, denials)


def test_epc_less_and_more_rows_are_mostly_privative_phrases(challenge, rnpc_export):
    """Issue 25: EPC is RNPC's task for privative phrases (§3), and 93% of the human rows of
    the development half have a privative. The effect table's rows (no privative) are one
    balancing cell per label, not one per combo: privative phrases hold most of the less and
    more rows (full build: 82%; 3.6.0: 56%), and every combo still occurs."""
    for split, frame in {"challenge": challenge["epc"], **read_config(rnpc_export, "epc")}.items():
        moved = frame[frame.label != 1]
        assert moved.combo.str.contains("pri").mean() > 0.7, split
    assert set(challenge["epc"].combo) == {
        f"{a}-{b}" for a in ("int", "sub", "pri") for b in ("int", "sub", "pri")
    }


def test_mpte_is_about_people_and_things_alike_and_who_tells_no_label(challenge):
    """Issue 25: the balancing had made three items in four about people (a role noun holds
    both labels, a thing's rarely do), and He/She against This told the label. Now each group
    holds half of each label."""
    frame = challenge["mpte"]
    person = frame.supersense == "person"
    counts = Counter(zip(person, frame.label, strict=True))
    quarter = len(frame) / 4  # to within one item for each of the two sides generated
    assert all(
        abs(counts[group, label] - quarter) <= 2 for group in (True, False) for label in (0, 1)
    )


def test_epc_labels_follow_privatives_and_the_effect_table(challenge, entries):
    frame = challenge["epc"]
    names = ["less", "equal", "more"]
    stances = Counter()
    for row, m1, m2 in slots(frame, entries):
        assert "unclear" not in (m1["effect"], m2["effect"])
        assert (row.m1_effect, row.m2_effect) == (m1["effect"], m2["effect"])
        privative = "privative" in (m1["category"], m2["category"])
        stances[row.event_stance] += 1
        if row.event_stance == "kept":  # what every modifier here leaves as it is
            attributes = {m1["attribute"], m2["attribute"]}
            assert not attributes & (SURFACE | LASTING), row
            assert names[row.label] == "equal", row
            continue
        if row.event_stance == "against":  # a denial, or an event against N's nature
            stances["denied" if row.event.startswith(DENIALS) else "against"] += 1
            effects = {m1["effect"], m2["effect"]}
            assert privative or effects == {"equal"}, row
            assert names[row.label] == ("more" if privative else "equal"), row
            continue
        if m1["category"] == "privative":  # a privative over M2 N
            assert not (m2["category"] != "privative" and m2["effect"] == "less")
            expected = "less"
        elif m2["category"] == "privative":
            assert m1["effect"] != "more"
            expected = "less"
        else:
            effects = {m1["effect"], m2["effect"]}
            assert not {"more", "less"} <= effects
            expected = "more" if "more" in effects else "less" if "less" in effects else "equal"
        assert names[row.label] == expected, row
    # both kinds of event against N occur, and events of what a privative keeps, which come
    # with privatives too, are fewer than events in keeping with N or against it
    assert stances["denied"] and stances["against"], stances
    assert stances["kept"] < min(stances["in_keeping"], stances["denied"] + stances["against"])
    kept = frame[frame.event_stance == "kept"]
    assert kept.combo.str.contains("pri").any() and (kept.label == 1).all()


def test_every_label_is_the_label_its_rule_names(challenge):
    for task, frame in challenge.items():
        label_names = RULES_LABELS[task]
        for rule, label in zip(frame.rule, frame.label, strict=True):
            assert RULES[rule].task == task and RULES[rule].label == label_names[label]
        task_rules = {name for name, rule in RULES.items() if rule.task == task}
        assert set(frame.rule) == task_rules - RELEASE_ONLY, "every rule occurs"


def test_all_nine_combinations_and_no_ambiguous_scope(challenge, entries):
    for frame in challenge.values():
        assert set(frame.combo) == COMBOS
        for _, m1, m2 in slots(frame, entries):
            assert not (m1["category"] == "privative" and m2["kind"] == "stage")


def test_modifiers_fit_their_nouns_and_stack_in_order(challenge, entries, nouns):
    wn = wordnet()
    closures = {}

    def fits(modifier: dict, noun: dict) -> bool:
        if noun["noun"] not in closures:
            synset = wn.synset(noun["synset"])
            closures[noun["noun"]] = {synset.name()} | {
                s.name() for s in synset.closure(lambda s: s.hypernyms() + s.instance_hypernyms())
            }
        return any(
            token in (noun["supersense"], noun["role"]) or token in closures[noun["noun"]]
            for token in modifier["applies_to"]
        )

    rows = by_word(entries)
    for frame in challenge.values():
        for row, m1, m2 in slots(frame, entries):
            noun = nouns[row.noun]
            assert row.supersense == noun["supersense"]
            assert fits(m1, noun) and fits(m2, noun), row
            # a modifier listed again is of its later row's category for the nouns it names
            for modifier in (m1, m2):
                assert [e for e in rows[modifier["text"]] if fits(e, noun)][-1] == modifier, row
            assert m1["dimension"] != m2["dimension"] and m1["order"] <= m2["order"], row
            assert m2["determiner"] != "definite"


PLURAL_PREFIXES = ("They are", "These are", "Those are")


def determiners_by_word(entries: dict) -> dict[str, set[str]]:
    """modifier -> the determiners its rows force."""
    return {w: {e["determiner"] for e in rows} for w, rows in by_word(entries).items()}


def determiner_of(words: list[str], determiners: dict, plural: bool = False) -> str:
    forced = {d for w in words[:-1] for d in determiners[w]}
    if "possessive" in forced:
        return "my"
    if "definite" in forced:
        return "the"
    return "" if plural else indefinite_article(words[0])


def said(words: list[str], determiners: dict, plural: bool) -> str:
    """``Det words`` as the generator writes it, in the plural: the noun's plural form."""
    if plural:
        words = [*words[:-1], plural_form(words[-1])]
    return f"{determiner_of(words, determiners, plural)} {' '.join(words)}".strip()


def test_plurals_are_what_wordnet_reads_back():
    expected = {
        "gun": "guns",
        "policeman": "policemen",
        "knife": "knives",
        "mouse": "mice",
        "battery": "batteries",
        "box": "boxes",
        "giraffe": "giraffes",
        "health professional": "health professionals",
        "human": "humans",  # not *humen: 'hu' is no word
    }
    assert {noun: plural_form(noun) for noun in expected} == expected


def test_surface_forms_determiners_and_prefixes(challenge, entries, nouns):
    seconds = {
        (r["supersense"], r["noun"]): r
        for table in (load_second_nouns(), load_second_nouns(default="rnpc_hypernyms.tsv"))
        for r in table.to_pylist()
    }
    plurals = Counter()
    determiners = determiners_by_word(entries)
    for task, frame in challenge.items():
        for row, *_ in slots(frame, entries):
            words = [row.modifier1, row.modifier2, row.noun]
            plural = task != "epc" and row.prefix in PLURAL_PREFIXES
            plurals[task] += plural
            assert row.det == determiner_of(words, determiners, plural)
            assert row.np == said(words, determiners, plural)
            if task == "epc":
                continue
            gender = nouns[row.noun]["gender"]
            if task == "mpte":
                second = seconds[row.supersense, row.second_noun]  # same supersense
                assert row.second_noun != row.noun
                assert not (gender and second["gender"] not in ("", gender))
                gender = gender or second["gender"]
            expected = {"male": ["He is"], "female": ["She is"], "": ["He is", "She is"]}
            allowed = expected[gender] if row.supersense == "person" else ["This is"]
            if plural:
                allowed = ["They are"] if row.supersense == "person" else PLURAL_PREFIXES
            assert row.prefix in allowed, row
    for task in ("spte", "mpte"):  # RNPC writes about a fifth of them in the plural
        assert 0.1 < plurals[task] / len(challenge[task]) < 0.3
    spte = challenge["spte"]
    for row in spte.itertuples():
        assert row.premise == f"{row.prefix} {row.np}."
        kept = {
            "n": [row.noun],
            "m2_n": [row.modifier2, row.noun],
            "m1_n": [row.modifier1, row.noun],
        }
        plural = row.prefix in PLURAL_PREFIXES
        words = kept[row.hypothesis_type]
        assert row.hypothesis == f"{row.prefix} {said(words, determiners, plural)}."
    for row in challenge["mpte"].itertuples():
        plural = row.prefix in PLURAL_PREFIXES
        second = said([row.second_noun], determiners, plural)
        assert row.premise == f"{row.prefix} {row.np}. {row.prefix} {second}."
        modifier = row.modifier1 if row.hypothesis_modifier == "m1" else row.modifier2
        words = [modifier, row.second_noun]
        assert row.hypothesis == f"{row.prefix} {said(words, determiners, plural)}."


def test_epc_events_are_the_nouns_events_of_their_stance(challenge):
    """An event in keeping with N is one the file lists so; one against N is a listed event
    against it or the denial of one in keeping."""
    events = load_events()
    listed = {(row["noun"], row["event"], row["stance"]) for row in events.to_pylist()}
    said = listed | {
        (n, realisation.denied(e), "against") for n, e, s in listed if s == "in_keeping"
    }
    assert realisation.denied("fires bullets") == "does not fire bullets"
    assert realisation.denied("can be eaten") == "cannot be eaten"
    assert realisation.denied("carries passengers") == "does not carry passengers"
    stated_against = 0
    for row in challenge["epc"].itertuples():
        assert (row.noun, row.event, row.event_stance) in said, row
        stated_against += (row.noun, row.event, "against") in listed
        article = indefinite_article(row.noun).capitalize()
        assert row.event1 == f"{article} {row.noun} {row.event}."
        assert row.event2 == f"{row.np[0].upper()}{row.np[1:]} {row.event}."
    assert stated_against


def test_an_events_file_without_stances_still_generates_epc(tmp_path):
    """A file in the pre-3.5.0 form (noun, event, rationale) lists events in keeping: EPC then
    states and denies them, as before, and every label is still reached."""
    events = load_events().to_pylist()
    lines = [
        f"{e['noun']}\t{e['event']}\t{e['rationale']}"
        for e in events
        if e["stance"] == "in_keeping"
    ]
    path = tmp_path / "events.tsv"
    path.write_text("noun\tevent\trationale\n" + "\n".join(lines) + "\n", encoding="utf-8")
    export_benchmark("rnpc", tmp_path / "out", ["epc_challenge"], size=SIZE, events=str(path))
    frame = read_config(tmp_path / "out", "epc_challenge")["test"]
    assert set(frame.label) == {0, 1, 2}
    against = frame[frame.event_stance == "against"]
    assert len(against) and against.event.str.startswith(DENIALS).all()


def test_classes_are_balanced_by_down_sampling(rnpc_export):
    for task in TASKS:
        for config in (task, f"{task}_challenge"):
            for split, frame in read_config(rnpc_export, config).items():
                counts = frame.label.value_counts()
                assert len(counts) == len(RULES_LABELS[task]), (config, split)
                assert counts.max() - counts.min() <= 1, (config, split, counts)


@pytest.mark.parametrize("task", TASKS)
def test_split_sizes_and_modifiers_disjoint_by_position(rnpc_export, task):
    splits = read_config(rnpc_export, task)
    defaults = RnpcConfig(name=task, task=task)
    assert len(splits["train"]) == defaults.train_size == 200
    assert len(splits["validation"]) == defaults.validation_size
    assert len(splits["test"]) == SIZE - defaults.train_size - defaults.validation_size
    for position in ("modifier1", "modifier2"):
        # validation is drawn from test's side of the split: out of distribution as test is
        held_out = set(splits["validation"][position]) | set(splits["test"][position])
        assert not set(splits["train"][position]) & held_out, position
    for first, second in itertools.combinations(splits.values(), 2):
        assert not set(first.id) & set(second.id)
    # a modifier may change position across the split, as in the paper
    assert set(splits["train"].modifier1) & set(splits["test"].modifier2)


@pytest.mark.parametrize("task", TASKS)
def test_learning_curve_prefixes_are_nested_and_balanced(rnpc_export, task):
    train = read_config(rnpc_export, task)["train"]
    previous = set()
    for size in LEARNING_CURVE_SIZES:
        prefix = train.iloc[:size]
        assert previous <= set(prefix.id)
        previous = set(prefix.id)
        counts = Counter(prefix.label)
        assert len(counts) == len(RULES_LABELS[task])
        assert max(counts.values()) - min(counts.values()) <= 1, (size, counts)


@pytest.mark.parametrize("task", TASKS)
def test_challenge_set_is_every_item_of_the_task(rnpc_export, task):
    split = pd.concat(read_config(rnpc_export, task).values())
    whole = read_config(rnpc_export, f"{task}_challenge")["test"]
    assert whole.id.is_unique and len(whole) == SIZE
    assert set(whole.id) == set(split.id)


PHRASE = ["modifier1", "modifier2", "noun"]


def phrases(frame: pd.DataFrame) -> set:
    return set(frame[PHRASE].itertuples(index=False, name=None))


@pytest.mark.parametrize("task", TASKS)
def test_challenge_train_and_validation_hold_no_phrase_of_test(rnpc_export, task):
    """Issue 53: each challenge config trains on generated rows whose source phrases (M1, M2,
    N) its test never holds, validates on phrases neither holds, and keeps its test as it was;
    train is large enough for --max-train-examples 2000 and its every prefix is balanced."""
    splits = read_config(rnpc_export, f"{task}_challenge")
    defaults = RnpcConfig(name=task, task=task)
    assert len(splits["train"]) == defaults.challenge_train_size == 2000
    assert len(splits["validation"]) == defaults.challenge_validation_size == 500
    assert not phrases(splits["train"]) & phrases(splits["test"])
    assert not phrases(splits["validation"]) & (phrases(splits["test"]) | phrases(splits["train"]))
    labels = splits["train"].label.to_numpy()
    for size in (*LEARNING_CURVE_SIZES, 1000, 2000):
        counts = np.bincount(labels[:size], minlength=len(RULES_LABELS[task]))
        assert counts.max() - counts.min() <= 1, (size, counts)
    # generated by the same rules: every rule's label, from every modifier the task uses
    for frame in (splits["train"], splits["validation"]):
        pairs = zip(frame.rule, frame.label, strict=True)
        assert all(RULES[rule].label == RULES_LABELS[task][label] for rule, label in pairs)
    assert set(splits["train"].modifier1) & set(read_config(rnpc_export, task)["test"].modifier1)


def test_the_audit_breaks_on_a_challenge_train_holding_a_test_phrase(rnpc_export):
    from compsem.builders.rnpc.audit import AUDIT_CHECKS

    splits = {
        split: pa.Table.from_pandas(frame, preserve_index=False)
        for split, frame in read_config(rnpc_export, "epc_challenge").items()
    }

    def apart(splits):
        return [check(splits).passed for check in AUDIT_CHECKS["challenge"]][0]

    assert apart(splits) is True
    leaked = {**splits, "train": pa.concat_tables([splits["train"], splits["test"].slice(0, 1)])}
    assert apart(leaked) is False


def test_load_dataset_round_trip_offline(rnpc_export):
    spte = load_dataset(str(rnpc_export), "spte")
    assert set(spte) == {"train", "validation", "test"}
    assert spte["train"].features["label"] == ClassLabel(names=["non_entailment", "entailment"])
    assert spte["train"]["id"] == list(read_config(rnpc_export, "spte")["train"].id)
    epc = load_dataset(str(rnpc_export), "epc_challenge")["test"]
    assert epc.features["label"].names == ["less_plausible", "equally_plausible", "more_plausible"]
    assert {"event1", "event2"} <= set(epc.column_names)


def test_card_shows_every_rule_with_an_example_and_its_count(rnpc_export, challenge):
    card = (rnpc_export / "README.md").read_text()
    for rule_id, rule in RULES.items():
        count = int((challenge[rule.task].rule == rule_id).sum())
        assert f"| `{rule_id}` | {rule.label} |" in card
        line = next(line for line in card.splitlines() if f"| `{rule_id}` |" in line)
        assert line.endswith(f"| {count} |") and rule.example in line
        assert (" → " in line) == (rule_id not in RELEASE_ONLY), line
    assert "lyu-etal-2022-favorite" in card and "## Limitations" in card


def test_compsem_audit_finds_every_regime_promise_kept(rnpc_export):
    from compsem.publish.audit import audit_folder

    report = audit_folder(rnpc_export, hypothesis_only=False, write_card=False)
    assert report.benchmark == "rnpc" and len(report.configs) == 6
    assert report.ok, report.broken()
    names = {check.name for audit in report.configs for check in audit.checks}
    assert {
        "M1 modifiers of train never M1 in validation or test",
        "labels follow their rules",
    } <= names


@pytest.mark.parametrize("task", TASKS)
def test_the_audit_breaks_on_a_validation_drawn_from_trains_modifiers(rnpc_export, task):
    """Up to 3.10.3 validation was drawn from train's side of the modifier split, so it selected
    models in distribution while test measured them out of it: the audit now promises no
    modifier of train in validation, and a validation of train-side rows breaks the promise."""
    from compsem.builders.rnpc.audit import AUDIT_CHECKS

    splits = {
        split: pa.Table.from_pandas(frame, preserve_index=False)
        for split, frame in read_config(rnpc_export, task).items()
    }

    def disjoint(splits):
        results = [check(splits) for check in AUDIT_CHECKS["split"]]
        return [result.passed for result in results if "modifiers of train" in result.name]

    assert disjoint(splits) == [True, True]
    planted = {**splits, "train": splits["train"].slice(0, 100)}
    planted["validation"] = splits["train"].slice(100)
    assert disjoint(planted) == [False, False]


def test_the_audit_probes_epc_on_its_event_alone(rnpc_export):
    """EPC has no hypothesis column: its hypothesis-only probe reads E without either noun
    phrase, and the report names the column each config's probe read."""
    from compsem.publish.audit import audit_folder

    report = audit_folder(
        rnpc_export, configs=["epc_challenge", "spte_challenge"], write_card=False
    )
    fields = {audit.config: audit.probe_field for audit in report.configs}
    assert fields == {"epc_challenge": "event", "spte_challenge": "hypothesis"}
    assert all(audit.probes for audit in report.configs)
    markdown = report.to_markdown()
    header = next(line for line in markdown.splitlines() if "logistic regression" in line)
    assert "`event`" in header and "`hypothesis`" in header
    assert "| epc_challenge (`event`) |" in markdown


def test_same_seed_gives_identical_bytes_and_another_seed_other_items(rnpc_export, tmp_path):
    """Rebuilt in a fresh process with another hash seed, so nothing cached is reused."""
    configs = ["spte", "epc_challenge"]
    script = (
        "from compsem.publish.export import export_benchmark; "
        f"export_benchmark('rnpc', {str(tmp_path / 'again')!r}, {configs!r}, size={SIZE})"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-c", script], check=True, env=env, capture_output=True)
    for config in configs:
        for path in sorted((tmp_path / "again" / config).iterdir()):
            assert path.read_bytes() == (rnpc_export / config / path.name).read_bytes()
    export_benchmark("rnpc", tmp_path / "other", ["epc_challenge"], size=SIZE, seed=7)
    other = read_config(tmp_path / "other", "epc_challenge")["test"]
    assert set(other.id) != set(read_config(rnpc_export, "epc_challenge")["test"].id)


def test_unknown_config_and_too_small_size_fail_clearly(tmp_path):
    with pytest.raises(ExportError, match=r"Unknown config\(s\) 'sptee'.*spte"):
        export_benchmark("rnpc", tmp_path / "out", ["sptee"])
    with pytest.raises(ValueError, match="leaves no test items.*--size 703 or more"):
        export_benchmark("rnpc", tmp_path / "out", ["epc"], size=500)
    assert list(tmp_path.iterdir()) == []


def test_cli_documents_the_inputs_and_reports_bad_configs(tmp_path, capsys):
    result = subprocess.run(
        [sys.executable, "-m", "compsem.cli", "build", "rnpc", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for flag in ("--size", "--seed", "--lexicon", "--cooccurrence", "--original-release"):
        assert flag in result.stdout
    assert main(["build", "rnpc", "--out", str(tmp_path / "x"), "--config", "nope"]) == 2
    assert capsys.readouterr().err.startswith("compsem build: error: Unknown config(s) 'nope'")


@pytest.mark.slow
def test_every_prefix_of_every_split_is_representative(rnpc_export):
    """Splits are stored shuffled, stratified: the first 100 rows of each hold every label and
    grouping field within 10 points of its share (so `--limit 100` scores a fair sample)."""
    assert unrepresentative_prefixes(rnpc_export) == {}


def test_a_validation_size_of_zero_writes_no_validation_split(tmp_path):
    """--validation-size 0 wrote an empty split, which datasets refuses ("Instruction
    'validation' corresponds to no data"): the split is left out."""
    export_benchmark("rnpc", tmp_path / "out", ["spte"], size=400, validation_size=0)
    splits = read_config(tmp_path / "out", "spte")
    assert set(splits) == {"train", "test"} and len(splits["test"]) == 200
