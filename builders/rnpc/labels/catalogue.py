"""Every label rule of the RNPC tasks by name, with its task, label, condition and an example: the
catalogue the card and the rule agreement print, and each generated row names (``rule``)."""

from __future__ import annotations

from dataclasses import dataclass

from compsem.builders.rnpc.labels.rules import EPC_LABELS, SPTE_LABELS


@dataclass(frozen=True)
class Rule:
    task: str
    label: str
    condition: str
    example: str = ""


def _rule(task: str, label: int, condition: str, example: str) -> Rule:
    names = EPC_LABELS if task == "epc" else SPTE_LABELS
    return Rule(task, names[label], condition, example)


def _spte(label: int, condition: str, example: str) -> Rule:
    return _rule("spte", label, condition, example)


def _mpte(label: int, condition: str, example: str) -> Rule:
    return _rule("mpte", label, condition, example)


RULES = {
    "n.no_privative": _spte(
        1, "hypothesis N; neither modifier is privative", "a skillful American surgeon ⊨ a surgeon"
    ),
    "n.privative_m1": _spte(
        0,
        "hypothesis N; M1 is privative and negates N",
        "a fake black gun ⊭ a gun",
    ),
    "n.imitation_of_m2": _spte(
        1,
        "hypothesis N; M1 is an imitation privative over an origin or value M2, which is what it "
        "fakes (§7)",
        "a counterfeit Hollywood movie ⊨ a movie",
    ),
    "n.role_ended": _spte(
        0,
        "hypothesis N, a person; M1 ends or delegates the role (former, deputy) over a "
        "subsective M2: whatever M2 ranks, the role N itself is over",
        "a former talented violinist ⊭ a violinist",
    ),
    "n.privative_m2": _spte(
        0, "hypothesis N; M2 is privative, M1 is not", "a brown stuffed bear ⊭ a bear"
    ),
    "m2_n.m1_not_privative": _spte(
        1, "hypothesis M2 N; M1 is not privative", "the second green ball ⊨ a green ball"
    ),
    "m2_n.m1_privative": _spte(
        0, "hypothesis M2 N; M1 is privative", "a former famous actor ⊭ a famous actor"
    ),
    "m1_n.m1_keeps": _spte(
        1,
        "hypothesis M1 N; M2 is not privative and M1 is intersective, privative over N, or "
        "subsective judging the role (or a stage of it)",
        "a skillful American surgeon ⊨ a skillful surgeon",
    ),
    "m1_n.m1_gradable": _spte(
        1,
        "hypothesis M1 N; M1 is a relative modifier of degree (size, age, height, fame, "
        "quality …), which people judge against N itself, and M2 neither privative nor one "
        "that picks or ranks (ordinal, superlative, favorite, typicality)",
        "a tall young buffalo hunter ⊨ a tall buffalo hunter",
    ),
    "m1_n.m1_relative": _spte(
        0,
        "hypothesis M1 N; M1 picks or ranks members of its comparison class M2 N (ordinal, "
        "superlative, favorite, typicality), or M2 does and M1 speaks of that pick",
        "the second green ball ⊭ the second ball; my new favorite movie ⊭ my new movie",
    ),
    "m1_n.m2_privative": _spte(
        0,
        "hypothesis M1 N; M2 is privative and M1 is not intersective (an intersective M1 may "
        "describe the likeness itself: left out)",
        "a big stuffed bear ⊭ a big bear",
    ),
    "m1_n.privative_over_subsective": _spte(
        1,
        "hypothesis M1 N; M1 is privative over a subsective M2, which only narrows N: what M1 "
        "says of M2 N it says of N (M1 of unknown attribute: left out)",
        "a former talented violinist ⊨ a former violinist",
    ),
    "m1.intersective": _mpte(
        1,
        "hypothesis M1 N'; M1 is intersective: it holds of the entity itself",
        "This is a brown stuffed bear. This is a gift. ⊨ This is a brown gift.",
    ),
    "m1.role_to_hypernym": _mpte(
        1,
        "hypothesis M1 N'; M1 judges the role N (skill, licence, duty), M2 is not privative, "
        "and N' is a hypernym of N: doing N well is doing N' well",
        "He is a skillful American surgeon. He is a doctor. ⊨ He is a skillful doctor.",
    ),
    "m1.role_other_noun": _mpte(
        0,
        "hypothesis M1 N'; M1 judges the role N, and N' is another noun of the entity (a "
        "co-hyponym or a role), or M2 is privative",
        "He is a skillful American surgeon. He is a father. ⊭ He is a skillful father.",
    ),
    "m1.relative": _mpte(
        0,
        "hypothesis M1 N'; M1 is relative to a comparison class, which a hypernym or co-hyponym "
        "N' changes (over a privative M2, or with N' another role, left out)",
        "This is a big gray mouse. This is an animal. ⊭ This is a big animal.",
    ),
    "m1.stage_other_noun": _mpte(
        0,
        "hypothesis M1 N'; M1 is a stage of the role N and N' another noun of the entity",
        "She is a junior French diplomat. She is a mother. ⊭ She is a junior mother.",
    ),
    "m1.imitation_to_hypernym": _mpte(
        1,
        "hypothesis M1 N'; M1 is an imitation privative (counterfeit, forged, replica) and N' a "
        "hypernym of N that the imitation still is: what imitates an N imitates an N' (PLANE's "
        "IT3); a fake (authenticity) one is left out (a fake surgeon who is a doctor)",
        "This is a counterfeit banknote. This is a document. ⊨ This is a counterfeit document.",
    ),
    "m1.privative": _mpte(
        0,
        "hypothesis M1 N'; M1 is privative and N names people (or N' is a co-hyponym): M1 "
        "ends, delays or questions a role, and N' is a role they hold now; or M1 questions "
        "whether the item is an N at all (alleged, so-called)",
        "She is a former French minister. She is a mother. ⊭ She is a former mother.",
    ),
    "m1.privative_of_thing": _mpte(
        1,
        "hypothesis M1 N'; M1 is privative, N names a thing or an event and N' another "
        "description of it: M1 says what the item itself is (when, how possible, what made of)",
        "This is a possible early merger. This is a deal. ⊨ This is a possible deal.",
    ),
    "m2.intersective": _mpte(
        1,
        "hypothesis M2 N'; M2 is intersective and M1 is not privative",
        "He is a skillful American surgeon. He is a father. ⊨ He is an American father.",
    ),
    "m2.outlives_role": _mpte(
        1,
        "hypothesis M2 N'; M2 is a lasting intersective property (nationality, handedness) "
        "under an M1 that ends the role N (former, retired, deposed)",
        "She is a former French minister. She is a mother. ⊨ She is a French mother.",
    ),
    "m2.surface_of_imitation": _mpte(
        1,
        "hypothesis M2 N'; M2 is a surface property (colour, pattern, shape) under an M1 that "
        "imitates or depicts N: the imitation has it",
        "This is a fake black gun. This is a gift. ⊨ This is a black gift.",
    ),
    "m2.faked_origin": _mpte(
        0,
        "hypothesis M2 N'; M2 is an origin under an imitation or fake M1: what it fakes (§7), "
        "whether or not it is an N at all",
        "This is a fake Swiss watch. This is a gift. ⊭ This is a Swiss gift.",
    ),
    "m2.role_to_hypernym": _mpte(
        1,
        "hypothesis M2 N'; M2 judges the role N, M1 is not privative, and N' is a hypernym of N",
        "He is a famous skillful surgeon. He is a doctor. ⊨ He is a skillful doctor.",
    ),
    "m2.imitation_to_hypernym": _mpte(
        1,
        "hypothesis M2 N'; M2 is an imitation privative, M1 is not privative, and N' is a "
        "hypernym of N",
        "This is a green counterfeit banknote. This is a document. ⊨ This is a counterfeit document.",
    ),
    "m2.not_intersective": _mpte(
        0,
        "hypothesis M2 N'; M2 is subsective under a privative M1 (N' not a hypernym), a stage "
        "or judges the role N while N' is another noun of the entity, or M2 is privative of a "
        "person (as m1.privative)",
        "He is a famous skillful surgeon. He is a father. ⊭ He is a skillful father.",
    ),
    "m2.privative_of_thing": _mpte(
        1,
        "hypothesis M2 N'; M2 is privative under a non-privative M1, of a thing or an event "
        "(as m1.privative_of_thing); a fake (authenticity) M2 is left out",
        "This is a large artificial lake. This is a reservoir. ⊨ This is an artificial reservoir.",
    ),
    "m2.under_privative": _mpte(
        0,
        "hypothesis M2 N'; M2 is privative of a thing under a privative M1 that may negate it "
        "(not a material or imitation M2, which the item keeps)",
        "This is a failed temporary truce. This is a ceasefire. ⊭ This is a temporary ceasefire.",
    ),
    "privative_m1": _rule(
        "epc",
        0,
        "M1 is privative over M2 N and the event is in keeping with what N is (what it does, is "
        "for or is valued for; for a harmful N, its harm)",
        "A fake black gun fires bullets. An alleged violent thief steals a car.",
    ),
    "privative_m2": _rule(
        "epc",
        0,
        "M2 is privative over N, M1 is not, and the event is in keeping with what N is",
        "A black toy gun fires bullets.",
    ),
    "privative_against_nature": _rule(
        "epc",
        2,
        "the event goes against what N is by nature (denies it, says N fails, is worth little or, "
        "for a harmful N, is harmless) and a privative modifier is added (its scope not in "
        "doubt): what a privative takes from N, such an event states",
        "A fake black gun cannot fire bullets. A fake painting has little value.",
    ),
    "property_kept": _rule(
        "epc",
        1,
        "the event says what any modifier here leaves as it is: a thing's form, a person's own "
        "traits (no modifier of the look, hand or nationality, which would bear on it), the "
        "unit a quantity is stated in",
        "A fake black gun has a trigger. A former famous actor is left-handed. An alleged "
        "fictitious salary is denominated in dollars.",
    ),
    "modifier_restated": _rule(
        "epc",
        2,
        "the event says what an added modifier says (its synonym in WordNet), places N where "
        "the modifier does or within it (born in Nigeria under African), or says when N is "
        "where a modifier places N then: an event of N's past (retired, years ago) under a "
        "modifier of its past (former), one to come (will, has yet to start) under one of what "
        "may come (would-be, expected); modifiers of opposite times are left out (release rows "
        "only: compsem's events say none of these)",
        "An impossible long shot is unachievable. A former famous surgeon retired years ago. "
        "Chinese counterfeit goods are made in China.",
    ),
    "modifier_opposed": _rule(
        "epc",
        0,
        "the event says the opposite of what an added modifier says (its antonym in WordNet), "
        "places N in a place apart from the modifier's (born in China under African), or at "
        "the other time or now (still, currently) (release rows only)",
        "An amateur event is run by professionals. A would-be surgeon retired years ago. A "
        "onetime policy adviser still has a major impact.",
    ),
    "effect_more": _rule(
        "epc",
        2,
        "no privative; one modifier enables the event, none hinders it",
        "A red loaded gun fires bullets.",
    ),
    "effect_less": _rule(
        "epc",
        0,
        "no privative; one modifier hinders the event, none enables it",
        "A broken red gun fires bullets.",
    ),
    "effect_equal": _rule(
        "epc",
        1,
        "no privative; neither modifier bears on the event",
        "A red American gun fires bullets.",
    ),
}
