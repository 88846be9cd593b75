"""Rule agreement: compsem's RNPC rules against a release's human labels (issue 18).

A small hand-written release in the original format, with the rule and label each row should
get, including rows the rules leave out and rows where the human label departs from them.
"""

import importlib.util
import json
from pathlib import Path

import pytest
from datasets import Dataset, load_dataset

from compsem.builders.rnpc.labels.agreement import (
    baselines,
    label_row,
    release_slots,
    rule_agreement,
    slot_table,
)
from compsem.builders.rnpc.labels.events import (
    event_stance,
    event_time,
    modifier_restatement,
    negated,
)
from compsem.builders.rnpc.labels.rules import Slot, epc, modifier_time
from compsem.builders.rnpc.words.nouns import load_events
from compsem.builders.rnpc.words.places import place_relation
from compsem.builders.rnpc.words.second_nouns import names_people, noun_relation
from compsem.builders.rnpc.words.valence import word_valence
from compsem.loading_scripts.rnpc_release import ReleaseError, read_original_task
from compsem.publish.export import export_benchmark
from compsem.resources.modifiers import CATEGORY_CODES, load_modifier_lexicon

SPTE = """id,combo,source NP,premise,hypothesis,label
1,sub-int,the second green ball,This is the second green ball.,This is the second ball.,non-entailment
2,sub-int,the second green ball,This is the second green ball.,This is a green ball.,entailment
3,pri-int,a former American diplomat,He is a former American diplomat.,He is a former diplomat.,entailment
4,sub-int,a big red apple,This is a big red apple.,This is a big apple.,entailment
5,pri-sub,a former famous actor,He is a former famous actor.,He is an actor.,non-entailment
6,int-pri,a brown stuffed bear,This is a brown stuffed bear.,This is a bear.,non-entailment
7,pri-int,a counterfeit Swiss watch,This is a counterfeit Swiss watch.,This is a watch.,entailment
8,int-int,a red American car,This is a red American car.,This is a car.,non-entailment
"""
MPTE = """id,combo,source NP,premise,hypothesis,label
1,sub-int,a skillful American surgeon,He is a skillful American surgeon. He is a father.,He is an American father.,entailment
2,sub-int,a skillful American surgeon,He is a skillful American surgeon. He is a father.,He is a skillful father.,non-entailment
3,sub-int,a skillful American surgeon,He is a skillful American surgeon. He is a doctor.,He is a skillful doctor.,entailment
4,pri-int,a former French minister,She is a former French minister. She is a mother.,She is a French mother.,entailment
5,pri-int,a former French minister,She is a former French minister. She is a mother.,She is a former mother.,non-entailment
6,sub-int,a big gray mouse,It is a big gray mouse. It is an animal.,It is a big animal.,non-entailment
7,pri-int,a fake black gun,It is a fake black gun. It is a toy.,It is a fake toy.,entailment
"""
EPC = """id,combo,source NP,first_event,second_event,label
1,pri-int,a fake black gun,A gun can fire bullets.,A fake black gun can fire bullets.,less_likely
2,int-int,a red loaded gun,A gun fires bullets.,A red loaded gun fires bullets.,more_likely
3,int-int,a red old car,A car carries passengers.,A red old car carries passengers.,equally_likely
"""
CATEGORIES = {code: name for name, code in CATEGORY_CODES.items()}  # pri → privative …
# (rule, label) the rules give each row; None where they leave the reading out
EXPECTED = {
    "spte": [
        ("m1_n.m1_relative", 0),
        ("m2_n.m1_not_privative", 1),
        ("m1_n.m1_keeps", 1),
        ("m1_n.m1_gradable", 1),
        ("n.role_ended", 0),  # whatever "famous" ranks, his acting is over
        ("n.privative_m2", 0),
        ("n.imitation_of_m2", 1),
        ("n.no_privative", 1),  # the human label departs
    ],
    "mpte": [
        ("m2.intersective", 1),
        ("m1.role_other_noun", 0),
        ("m1.role_to_hypernym", 1),
        ("m2.outlives_role", 1),
        ("m1.privative", 0),
        ("m1.relative", 0),
        ("m1.privative_of_thing", 1),  # a gun is a thing: the fake is what it is
    ],
    "epc": [("privative_m1", 0), ("effect_more", 2), None],  # old is not intersective
}


@pytest.fixture
def release(tmp_path):
    folder = tmp_path / "Recursive-NPs" / "data" / "RNPC" / "tasks"
    folder.mkdir(parents=True)
    for name, text in (("SPTE.csv", SPTE), ("MPTE.csv", MPTE), ("EPC.csv", EPC)):
        (folder / name).write_text(text)
    return tmp_path / "Recursive-NPs"


@pytest.fixture(scope="module")
def slots():
    return slot_table(load_modifier_lexicon())


@pytest.mark.parametrize("task", ["spte", "mpte", "epc"])
def test_every_release_row_gets_the_rule_its_reading_calls_for(release, slots, task):
    readings = [label_row(task, row, slots) for row in read_original_task(release, task)]
    got = [(r["rule"], r["label"]) if r["rule"] else None for r in readings]
    assert got == EXPECTED[task]


def test_mpte_reads_the_second_noun_and_its_wordnet_relation(release, slots):
    rows = read_original_task(release, "mpte")
    relations = [label_row("mpte", row, slots)["relation"] for row in rows]
    assert relations[:3] == ["co_hyponym", "co_hyponym", "hypernym"]  # father, father, doctor
    assert relations[5] == "hypernym"  # mouse → animal
    assert noun_relation("a gun", "weapon") == "hypernym" and noun_relation("gun", "toy") == "role"


def test_agreement_is_reported_per_task_combo_and_hypothesis(release):
    report = rule_agreement(release)["tasks"]
    spte, mpte, epc = report["spte"], report["mpte"], report["epc"]
    assert (spte["rows"], spte["labelled"], spte["agreed"]) == (8, 8, 7)
    assert spte["agreement"] == round(7 / 8, 4) and spte["coverage"] == 1.0
    assert (mpte["rows"], mpte["labelled"], mpte["agreed"]) == (7, 7, 7)
    assert (epc["rows"], epc["labelled"], epc["agreed"]) == (3, 2, 2)
    assert epc["by_hypothesis"]["n"]["rows"] == 3  # event 1 holds neither modifier
    # rows and coverage over the tasks; agreement only per task, as their label spaces differ
    assert rule_agreement(release)["overall"] == {"rows": 18, "labelled": 17, "coverage": 0.9444}
    assert spte["by_hypothesis"]["n"] == {
        "rows": 4,
        "labelled": 4,
        "agreed": 3,
        "coverage": 1.0,
        "agreement": 0.75,
    }
    assert mpte["by_combo_hypothesis"]["pri-int|m1"]["agreed"] == 2  # former mother, fake toy
    assert mpte["by_relation"]["hypernym"]["rows"] == 2
    assert spte["by_combo"]["pri-sub"]["labelled"] == 1
    assert epc["by_rule"]["left out"]["rows"] == 1
    assert epc["baselines"]["privative_share"] == round(1 / 3, 4)  # a fake black gun only


def test_build_with_the_release_writes_rule_agreement_json_and_the_card_table(release, tmp_path):
    out = tmp_path / "rnpc"
    export_benchmark("rnpc", out, ["original_spte", "original_mpte"], original_release=str(release))
    written = json.loads((out / "rule_agreement.json").read_text())
    assert written == json.loads(json.dumps(rule_agreement(release)))
    card = (out / "README.md").read_text()
    assert "## Rule agreement with the published RNPC" in card
    # every task together: rows and coverage; no agreement pooled over two label spaces
    assert "| all | all | 18 | 17 | 0.944 | per task |" in card
    assert "0.941" not in card
    assert "| SPTE | all | 8 | 8 | 1.000 | 0.875 |" in card
    assert "| MPTE | m1 | 5 | 5 | 1.000 | 1.000 |" in card  # per hypothesis type
    assert "| EPC | int-int | 2 | 1 | 0.500 | 1.000 |" in card  # per combo
    assert "| MPTE | pri-int, m1 | 2 | 2 | 1.000 | 1.000 |" in card  # former mother, fake toy
    assert "| SPTE | pri-sub, n | 1 | 1 | 1.000 | 1.000 |" in card
    assert "| EPC | 0.333 | 0.333 | 0.333 |" in card  # the modifier-blind readings
    assert "| SPTE | 0.500 | 0.500 | – |" in card
    assert load_dataset(str(out), "original_mpte")["test"].num_rows == 7  # the JSON is no data


def test_build_without_a_release_writes_no_agreement(tmp_path):
    out = tmp_path / "rnpc"
    export_benchmark("rnpc", out, ["epc_challenge"], size=1000)
    assert not (out / "rule_agreement.json").exists()
    assert "Rule agreement" not in (out / "README.md").read_text()


def test_a_release_without_a_task_file_fails_clearly(release):
    (release / "data" / "RNPC" / "tasks" / "MPTE.csv").unlink()
    with pytest.raises(ReleaseError, match="MPTE.csv is not under"):
        rule_agreement(release)


def test_release_slots_keep_the_modifiers_generation_drops(tmp_path):
    """Issue 25: erroneous (an attribute none of compsem's nouns take) and partial (listed in
    two files) are still read with their category and attribute; only generation drops them."""
    (tmp_path / "int.csv").write_text("Attribute,Modifier\ncolor,green\n")
    (tmp_path / "sub.csv").write_text("Attribute,Modifier\nquantity,partial\nexpertise,skillful\n")
    (tmp_path / "pri.csv").write_text("Attribute,Modifier\nsoundness,erroneous\ndegree,partial\n")
    slots = release_slots(tmp_path)
    assert slots["erroneous", "privative"] == Slot("privative", "", "less", "soundness")
    assert slots["partial", "subsective"].kind == "relative"
    assert slots["partial", "privative"].attribute == "degree"
    assert slots["skillful", "subsective"].kind == "role"
    assert slots["green", "intersective"].attribute == "colour"
    assert release_slots(tmp_path / "no lexicon here") == {}


def test_a_denied_event_turns_a_privative_round(slots):
    """A fake gun is less likely to fire bullets than a gun, so more likely not to."""
    assert negated("A fake black gun cannot fire bullets.")
    assert negated("The toy car doesn't move.") and negated("A former minister is no longer paid.")
    assert not negated("A gun fires bullets.") and not negated("A notable gun is sold.")
    row = {
        "modifier1": "fake",
        "modifier2": "black",
        "noun": "gun",
        "m1_category": "privative",
        "m2_category": "intersective",
        "event1": "A gun cannot fire bullets.",
        "event2": "A fake black gun cannot fire bullets.",
    }
    assert label_row("epc", row, slots)["rule"] == "privative_against_nature"
    stated = row | {
        "event1": "A gun can fire bullets.",
        "event2": "A fake black gun can fire bullets.",
    }
    assert label_row("epc", stated, slots)["label"] == 0


def test_an_event_stands_with_or_against_what_the_noun_is():
    """Issue 25: a denial, bad news of a good or neutral N and good news of a harmful N go
    against N's nature; news of N's own valence and what N can do are in keeping with it; a
    neutral statement says neither. The noun phrase's own words are read apart (gun is -1.4)."""

    def stance(event1, noun="painting", event2=None):
        row = {"modifier1": "fake", "modifier2": "big", "noun": noun, "event1": event1}
        return event_stance(row | {"event2": event2 or event1})

    assert stance("A painting cannot be sold.") == "against"
    assert stance("A painting is worthless and gets rejected.") == "against"
    assert stance("A painting is admired and loved.") == "in_keeping"
    assert stance("A gun is harmless.", "gun") == "against"
    assert stance("A gun can kill people.", "gun") == "in_keeping"
    assert stance("A plane can carry people.", "plane") == "in_keeping"  # what N can do
    assert stance("A painting hangs in the hall.") == "unread"
    assert stance("A gun fires bullets.", "gun") == "unread"  # no valence, no ability
    # what a privative keeps: a colour, a person's sex or hand, a count of parts
    assert stance("A painting is brown.") == "kept"
    assert stance("A beast has black fur.", "beast") == "kept"
    assert stance("An actor is a man.", "actor") == "kept"
    assert stance("A champion is right-handed.", "champion") == "kept"
    assert stance("A car has four wheels.", "car") == "kept"
    assert stance("His wife is the first woman he dated.", "wife") == "unread"  # not her sex
    # and what kind of thing N is, or what it involves: a mock trial still involves debates
    assert stance("A trial involves debates.", "trial") == "kept"
    assert stance("A threat can involve nuclear attacks.", "threat") == "kept"  # not its valence
    assert stance("Evidence is a type of information.", "evidence") == "kept"
    assert stance("A trial does not involve a jury.", "trial") == "against"  # a denial first


def test_baselines_read_the_rows_without_their_modifiers():
    """The report says what a reading blind to the modifiers gives: the commonest label, the
    share of privative phrases and, for EPC, each event read as the rules read it under a
    privative (in keeping less, against more, kept equally; unread: the commonest label)."""

    def row(combo, noun, event, label):
        first, second = (CATEGORIES[code] for code in combo.split("-"))
        return {
            "combo": combo,
            "m1_category": first,
            "m2_category": second,
            "modifier1": "big",
            "modifier2": "red",
            "noun": noun,
            "event1": f"A {noun} {event}.",
            "event2": f"A big red {noun} {event}.",
            "label": label,
        }

    rows = [
        row("sub-int", "gun", "can kill people", 0),  # in keeping: read less, as people do
        row("pri-int", "painting", "cannot be sold", 2),  # against N: read more
        row("pri-int", "car", "has four wheels", 1),  # kept: read equally
        row("pri-int", "painting", "hangs in the hall", 2),  # unread: the commonest label
        row("pri-sub", "gun", "can kill people", 2),  # in keeping, read less: people differ
    ]
    assert baselines("epc", rows) == {
        "majority": 0.6,  # more plausible, 3 of 5
        "privative_share": 0.8,
        "event_alone": 0.8,  # all but the last
    }
    assert "event_alone" not in baselines("spte", rows)  # SPTE and MPTE have no event
    assert baselines("epc", []) == {}


def _privative_phrase_reading(modifier1, modifier2, noun, event, slots):
    """The rules' reading of a pri-sub EPC row comparing ``A N E`` with ``A M1 M2 N E``."""
    row = {
        "modifier1": modifier1,
        "modifier2": modifier2,
        "noun": noun,
        "m1_category": "privative",
        "m2_category": "subsective",
        "event1": f"A {noun} {event}.",
        "event2": f"A {modifier1} {modifier2} {noun} {event}.",
    }
    return label_row("epc", row, slots)


def test_an_event_of_when_n_is_goes_by_when_the_modifier_places_n(slots):
    """Issue 25: a modifier of N's past (former) makes an event of its past (retired years ago)
    more plausible and one still to come less; one of what may come (would-be), the reverse.
    RNPC's people: all 14 such rows of the development half. By the word, not the
    attribute (RNPC's time attribute holds *former* and *future*); a modifier placing N at no
    time leaves the event to what it says of N."""

    def reading(modifier1, modifier2, event):
        found = _privative_phrase_reading(modifier1, modifier2, "surgeon", event, slots)
        return found["rule"], found["label"]

    assert event_time({"modifier1": "", "modifier2": "", "event2": "He retired years ago."})
    assert reading("former", "famous", "retired years ago") == ("modifier_restated", 2)
    assert reading("former", "famous", "will start the job next year") == ("modifier_opposed", 0)
    assert reading("would-be", "famous", "is still in training") == ("modifier_restated", 2)
    assert reading("would-be", "famous", "no longer does the work") == ("modifier_opposed", 0)
    # would-be professionals retiring soon: an ended career, read before "soon"
    assert reading("would-be", "famous", "is retiring soon") == ("modifier_opposed", 0)
    # a privative of no time: the event is read for its stance to N (here: none)
    assert reading("alleged", "famous", "retired years ago")[0] != "modifier_restated"
    # an event of N now opposes its past (a onetime surgeon who still operates; RNPC's people:
    # 7 of the dev half's 8 such rows), and says nothing sure of what may come: a would-be
    # surgeon still looking for a post is waiting for it
    assert reading("former", "famous", "still operates") == ("modifier_opposed", 0)
    assert reading("would-be", "famous", "is still looking for a post") == (None, None)
    assert reading("would-be", "famous", "is still in training") == ("modifier_restated", 2)
    assert reading("historic", "famous", "is discussed in history class") == (
        "modifier_restated",
        2,
    )
    # modifiers of opposite times say nothing sure
    assert epc(Slot("privative", time="past"), Slot("privative", time="future"), "done") is None
    assert modifier_time("Former") == "past" and modifier_time("would-be") == "future"
    assert modifier_time("likely") == "" and modifier_time("fake") == ""


def test_an_event_restating_or_opposing_an_added_modifier_goes_by_it(slots):
    """Issue 25: where an event says nothing of what N is, one that says what an added modifier
    says (its WordNet synonym) is more plausible, one that says its opposite (its antonym) less
    (RNPC's people: 9 of the 11 such rows of the development half). A word of the noun phrase
    itself is no restatement, and an event read for its stance to N keeps that reading."""

    def reading(modifier1, modifier2, noun, event):
        return _privative_phrase_reading(modifier1, modifier2, noun, event, slots)["rule"]

    assert reading("partial", "alternative", "proposal", "is incomplete") == "modifier_restated"
    assert reading("partial", "strategic", "success", "means the work is complete") == (
        "modifier_opposed"
    )
    assert reading("partial", "alternative", "proposal", "is presented") is None  # unread
    assert reading("fake", "big", "gun", "cannot be sold") == "privative_against_nature"
    row = {"modifier1": "amateur", "modifier2": "unofficial", "noun": "event"}
    assert modifier_restatement(row | {"event2": "Pros run an event."}, ["amateur"]) is None
    said = "An amateur event is run by professionals."
    assert modifier_restatement(row | {"event2": said}, ["amateur"]) == "opposes"
    # an event's verb or noun is read with the adjectives WordNet derives from it: a market
    # that exists (existent) opposes *fictitious*; a work with hypotheses restates *theoretical*
    assert reading("fictitious", "impersonal", "market", "exists") == "modifier_opposed"
    assert reading("theoretical", "original", "work", "has hypotheses in it") == (
        "modifier_restated"
    )
    # the phrase's own words are set apart: a *false* rumour is not restated by *false*
    said = "False rumours spread false news."
    assert modifier_restatement(row | {"modifier1": "false", "event2": said}, ["false"]) is None


def test_an_event_placing_n_where_an_added_modifier_does_or_elsewhere_goes_by_it(slots):
    """Issue 25: an event that places N (born in Nigeria, competes for Germany) restates a
    modifier that places it there or in a place holding it (African), and opposes one that
    places it apart (Swedish); people follow that in 7 of the dev half's 7 such rows. Places
    WordNet does not relate (Sweden and Europe: no continent for Sweden) say nothing."""
    assert place_relation("African", "They were born in Nigeria.") == "restates"
    assert place_relation("African", "They were born in China.") == "opposes"
    assert place_relation("Chinese", "Goods are made in China.") == "restates"
    assert place_relation("Russian", "Dolls are sold in Moscow.") == "restates"
    assert place_relation("Russian", "Spies work for the USA.") == "opposes"
    assert place_relation("French", "A painter lives in Rome.") == "opposes"
    assert place_relation("Swedish", "A skier lives in Europe.") is None
    assert place_relation("famous", "A skier lives in Europe.") is None  # places nothing
    # the first word is not read as a place: capitalised by the sentence, not as a name
    assert place_relation("French", "China plates are fragile.") is None
    reading = _privative_phrase_reading(
        "alleged", "Swedish", "skier", "competes for Germany", slots
    )
    assert (reading["rule"], reading["label"]) == ("modifier_opposed", 0)


def test_an_event_of_the_unit_n_is_stated_in_is_kept(slots):
    """Issue 25: the unit or currency a quantity is stated in is what any modifier leaves as
    it is (an alleged fictitious salary is still in dollars): people call 5 of the dev half's 5
    such rows equally plausible. A currency by WordNet; *in* a place or a time is no unit."""

    def stance(event):
        row = {"modifier1": "", "modifier2": "", "noun": "salary"}
        return event_stance(row | {"event1": event, "event2": event})

    assert stance("A salary is denominated in US dollars.") == "kept"
    assert stance("Revenues are in British pounds.") == "kept"
    assert stance("A temperature is measured in Fahrenheit.") == "kept"
    assert stance("A salary is in March.") != "kept"
    assert stance("A salary was in question.") != "kept"
    reading = _privative_phrase_reading("fictitious", "annual", "salary", "is in euros", slots)
    assert (reading["rule"], reading["label"]) == ("property_kept", 1)


def test_an_event_every_modifier_keeps_is_read_whatever_the_scope():
    """Issue 25: a privative before a stage (a onetime amateur boxer) may negate N or M2, which
    decides an event of what N does; an event of what every modifier keeps (he is a man) is
    as plausible either way (RNPC's people: 2 of the dev half's 2 such rows)."""
    onetime = Slot("privative", attribute="time", time="past")
    amateur = Slot("subsective", kind="stage", effect="unclear", attribute="stage")
    assert epc(onetime, amateur, "kept") == ("property_kept", 1)
    assert epc(onetime, amateur, "in_keeping") is None
    assert epc(onetime, amateur, "done") is None


# RNPC 4.2.0's evaluative events (issue 53): whether N is harmful, dangerous or harmless.
EVALUATIVE = {"is harmful", "is dangerous", "is harmless"}


def test_the_shipped_events_read_as_their_stance_or_unread():
    """Generated events against N (RNPC 3.5.0) are what the release's are read as: the reading
    of a release row calls each shipped one against its noun, so the two agree on the stance.
    (Events in keeping are not all read so: VADER's *cuts*, *fights* are ill news of any N.)
    An event of what a privative keeps (3.6.0) is read as kept or not read, never as one in
    keeping with N or against it (a pear *is narrow at the top* would be: VADER likes *top*).
    The evaluative events of 4.2.0 (N is harmful, dangerous or harmless: RNPC §8's question) are
    read apart where VADER gives the noun no valence (*cannon*, *doctor*): the reading knows a
    noun is harmful only from that, so it reads them in keeping or not at all; it never reads
    them as kept, and none is a denial (*a gun is harmless* is read against, as shipped)."""
    for listed in load_events().to_pylist():
        said = f"A {listed['noun']} {listed['event']}."
        row = {"modifier1": "", "modifier2": "", "noun": listed["noun"]}
        row |= {"event1": said, "event2": said}
        if listed["event"] in EVALUATIVE and word_valence(listed["noun"]) == 0:
            assert event_stance(row) != "kept" and not negated(said), said
        elif listed["stance"] == "against":
            assert event_stance(row) == "against", said
            assert not negated(said), said  # stated, not denied
        if listed["stance"] == "kept":
            assert event_stance(row) in ("kept", "unread"), said


def test_a_privative_moves_events_by_their_stance_whatever_the_other_modifier(slots):
    """Issue 25: the other modifier's effect (big: unclear) does not hide what a privative
    does: an event against N's nature more plausible, one in keeping with it less."""
    row = {
        "modifier1": "fake",
        "modifier2": "big",
        "noun": "gun",
        "m1_category": "privative",
        "m2_category": "subsective",
        "event1": "A gun cannot fire bullets.",
        "event2": "A fake big gun cannot fire bullets.",
    }
    assert (label_row("epc", row, slots)["rule"], label_row("epc", row, slots)["label"]) == (
        "privative_against_nature",
        2,
    )
    killing = row | {
        "event1": "A gun can kill people.",
        "event2": "A fake big gun can kill people.",
    }
    reading = label_row("epc", killing, slots)
    assert (reading["rule"], reading["label"]) == ("privative_m1", 0)
    hung = row | {
        "event1": "A gun hangs on the wall.",
        "event2": "A fake big gun hangs on the wall.",
    }
    assert label_row("epc", hung, slots)["label"] is None  # a neutral event: left out
    # a fake gun is made to look like one: its colour is as plausible, unless a modifier of
    # colour says otherwise (a fake blue gun is black)
    brown = row | {"event1": "A gun is brown.", "event2": "A fake big gun is brown."}
    reading = label_row("epc", brown, slots)
    assert (reading["rule"], reading["label"]) == ("property_kept", 1)
    blue = brown | {"modifier2": "blue", "m2_category": "intersective"}
    assert label_row("epc", blue | {"event2": "A fake blue gun is brown."}, slots)["label"] is None


def test_epc_compares_only_the_modifier_event_one_lacks(slots):
    """Event 1 holding M2 (a toy gun) leaves M1 (red) the only change: equally plausible, not
    the privative M2's 'less'; an event 1 holding both leaves nothing for the rules to read."""
    row = {
        "modifier1": "red",
        "modifier2": "toy",
        "noun": "gun",
        "m1_category": "intersective",
        "m2_category": "privative",
        "event1": "A toy gun can fire bullets.",
        "event2": "A red toy gun can fire bullets.",
    }
    reading = label_row("epc", row, slots)
    assert (reading["hypothesis"], reading["rule"], reading["label"]) == ("m2", "effect_equal", 1)
    bare = label_row("epc", row | {"event1": "A gun can fire bullets."}, slots)
    assert (bare["hypothesis"], bare["rule"], bare["label"]) == ("n", "privative_m2", 0)
    both = label_row("epc", row | {"event1": "A red toy gun is sold."}, slots)
    assert (both["hypothesis"], both["label"]) == ("both_held", None)
    # M2 added under a privative M1 that event 1 holds: a scope question, left out
    under = {
        "modifier1": "fake",
        "modifier2": "red",
        "noun": "gun",
        "m1_category": "privative",
        "m2_category": "intersective",
        "event1": "A fake gun can fire bullets.",
        "event2": "A fake red gun can fire bullets.",
    }
    reading = label_row("epc", under, slots)
    assert (reading["hypothesis"], reading["label"]) == ("m1", None)


def test_names_people_reads_the_first_wordnet_sense():
    assert names_people("surgeon") and names_people("a senior vice president")
    assert not names_people("gun")  # though one rare sense of gun is a gunman
    assert not names_people("agreement")


def _transfer_script():
    """perf/rnpc_transfer.py, loaded by path (perf/ is no package)."""
    path = Path(__file__).parents[1] / "perf" / "rnpc_transfer.py"
    spec = importlib.util.spec_from_file_location("rnpc_transfer", path)
    transfer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(transfer)
    return transfer


def test_the_transfer_script_reads_a_runs_answers_against_the_rules():
    """perf/rnpc_transfer.py's ``against_rules``: on the rows the rules label, how often the
    model gives their label and how often each is right; elsewhere the model's own accuracy;
    and the score of the rules' label where they give one and the model's answer elsewhere."""
    transfer = _transfer_script()
    readings = [
        {"rule": "a", "label": 1},
        {"rule": "a", "label": 1},
        {"rule": None, "label": None},  # left out
        {"rule": "b", "label": 0},
    ]
    humans, answers = [1, 0, 1, 0], [1, 1, 0, 1]
    result = transfer.against_rules(answers, humans, readings)
    assert result["rows"] == 4 and result["labelled_rows"] == 3
    assert result["model_right"] == pytest.approx(1 / 4)
    assert result["gives_rules_label"] == pytest.approx(2 / 3)
    assert result["model_right_labelled"] == pytest.approx(1 / 3)
    assert result["rules_right"] == pytest.approx(2 / 3)
    # the rules' two right labels, and the model's wrong answer on the row they leave out
    assert result["rules_then_model"] == pytest.approx(2 / 4)
    assert result["by_rule"]["a"] == {
        "rows": 2,
        "model_right": 0.5,
        "gives_rules_label": 1.0,
        "model_right_labelled": 0.5,
        "rules_right": 0.5,
    }
    assert result["by_rule"]["left out"] == {"rows": 1, "model_right": 0.0}
    assert result["by_rule"]["b"]["gives_rules_label"] == 0.0
    assert result["by_rule"]["b"]["rules_right"] == 1.0


@pytest.mark.parametrize("by", ["noun", "modifier"])
def test_the_transfer_scripts_unseen_halves_share_no_word(by):
    """perf/rnpc_transfer.py ``--unseen``: the rows trained on and the rows scored as unseen
    hold no noun (or modifier) in common, and a row whose modifiers straddle the halves is in
    neither."""
    transfer = _transfer_script()
    words = [f"w{i}" for i in range(12)]
    rows = Dataset.from_list(
        [
            {"noun": f"n{i % 7}", "modifier1": words[i % 12], "modifier2": words[(i * 5) % 12]}
            for i in range(300)
        ]
    )
    known, novel = transfer.disjoint_halves(rows, by, seed=3)
    fields = transfer.UNSEEN_FIELDS[by]
    seen_words = {row[f] for row in known for f in fields}
    assert len(known) and len(novel)
    assert not seen_words & {row[f] for row in novel for f in fields}
    if by == "noun":
        assert len(known) + len(novel) == len(rows)
    else:
        straddling = [
            r for r in rows if (r["modifier1"] in seen_words) != (r["modifier2"] in seen_words)
        ]
        assert len(known) + len(novel) + len(straddling) == len(rows)


def test_the_transfer_script_scores_human_rows_by_the_modifiers_trained_on():
    """perf/rnpc_transfer.py's ``by_modifiers_trained_on``: the human rows grouped by how many
    of their two modifiers the training rows hold, whatever their case."""
    drawn = Dataset.from_list([{"modifier1": "fake", "modifier2": "red"}])
    humans = [
        {"modifier1": "Fake", "modifier2": "red"},
        {"modifier1": "former", "modifier2": "red"},
    ]
    humans += [{"modifier1": "former", "modifier2": "big"}]
    result = _transfer_script().by_modifiers_trained_on([1, 0, 1], [1, 1, 1], humans, drawn)
    assert result == {
        "0": {"rows": 1, "accuracy": 1.0},
        "1": {"rows": 1, "accuracy": 0.0},
        "2": {"rows": 1, "accuracy": 1.0},
    }
