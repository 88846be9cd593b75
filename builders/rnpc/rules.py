"""The label rules of the RNPC tasks (Lyu et al., NAACL 2022, §3), as pure functions of the two
modifiers' categories, subsective kinds and event effects in ``Det M1 M2 N`` (M1 scopes over
``M2 N``). Each function returns ``(rule id, label)``, or ``None`` where the reading is genuinely
ambiguous and the item is left out rather than guessed. ``RULES`` describes every rule id.
"""

from __future__ import annotations

from dataclasses import dataclass

SPTE_LABELS = ("non_entailment", "entailment")
EPC_LABELS = ("less_plausible", "equally_plausible", "more_plausible")
SPTE_HYPOTHESES = ("n", "m2_n", "m1_n")  # P Det N, P Det M2 N, P Det M1 N
MPTE_HYPOTHESES = ("m1", "m2")  # P Det M N' with M = M1 or M2


@dataclass(frozen=True)
class Slot:
    """What the rules need to know of a modifier in one position."""

    category: str  # intersective | subsective | privative
    kind: str = ""  # relative | role | stage (subsective only)
    effect: str = "equal"  # less | equal | more | unclear (EPC)


@dataclass(frozen=True)
class Rule:
    task: str
    label: str
    condition: str


RULES = {
    "n.no_privative": Rule("spte", "entailment", "hypothesis N; neither modifier is privative"),
    "n.privative_m1": Rule("spte", "non_entailment", "hypothesis N; M1 is privative"),
    "n.privative_m2": Rule("spte", "non_entailment", "hypothesis N; M2 is privative, M1 is not"),
    "m2_n.m1_not_privative": Rule("spte", "entailment", "hypothesis M2 N; M1 is not privative"),
    "m2_n.m1_privative": Rule("spte", "non_entailment", "hypothesis M2 N; M1 is privative"),
    "m1_n.m1_keeps": Rule(
        "spte",
        "entailment",
        "hypothesis M1 N; M2 is not privative and M1 is intersective, privative, or subsective "
        "judging the role (or a stage of it)",
    ),
    "m1_n.m1_relative": Rule(
        "spte", "non_entailment", "hypothesis M1 N; M1 is relative to its comparison class M2 N"
    ),
    "m1_n.m2_privative": Rule("spte", "non_entailment", "hypothesis M1 N; M2 is privative"),
    "m1.intersective": Rule("mpte", "entailment", "hypothesis M1 N'; M1 is intersective"),
    "m1.not_intersective": Rule(
        "mpte", "non_entailment", "hypothesis M1 N'; M1 is not intersective"
    ),
    "m2.intersective": Rule(
        "mpte", "entailment", "hypothesis M2 N'; M2 is intersective and M1 is not privative"
    ),
    "m2.under_privative": Rule(
        "mpte", "non_entailment", "hypothesis M2 N'; M2 is intersective but under a privative M1"
    ),
    "m2.not_intersective": Rule(
        "mpte", "non_entailment", "hypothesis M2 N'; M2 is not intersective"
    ),
    "privative_m1": Rule("epc", "less_plausible", "M1 is privative over M2 N"),
    "privative_m2": Rule("epc", "less_plausible", "M2 is privative over N, M1 is not"),
    "effect_more": Rule(
        "epc", "more_plausible", "no privative; one modifier enables the event, none hinders it"
    ),
    "effect_less": Rule(
        "epc", "less_plausible", "no privative; one modifier hinders the event, none enables it"
    ),
    "effect_equal": Rule(
        "epc", "equally_plausible", "no privative; neither modifier bears on the event"
    ),
}


def ambiguous_scope(m1: Slot, m2: Slot) -> bool:
    """A privative before a stage of a role (a former beginner drummer) may negate either."""
    return m1.category == "privative" and m2.kind == "stage"


def spte(hypothesis: str, m1: Slot, m2: Slot) -> tuple[str, int] | None:
    """Does ``P Det M1 M2 N`` entail ``P Det N`` / ``P Det M2 N`` / ``P Det M1 N``?"""
    if ambiguous_scope(m1, m2):
        return None
    if hypothesis == "n":
        if m1.category == "privative":
            return "n.privative_m1", 0
        if m2.category == "privative":
            return "n.privative_m2", 0
        return "n.no_privative", 1
    if hypothesis == "m2_n":
        return (
            ("m2_n.m1_privative", 0) if m1.category == "privative" else ("m2_n.m1_not_privative", 1)
        )
    if hypothesis == "m1_n":
        if m2.category == "privative":
            return "m1_n.m2_privative", 0
        if m1.kind == "relative":
            return "m1_n.m1_relative", 0
        return "m1_n.m1_keeps", 1
    raise ValueError(f"Unknown SPTE hypothesis {hypothesis!r}; use one of {SPTE_HYPOTHESES}.")


def mpte(hypothesis: str, m1: Slot, m2: Slot) -> tuple[str, int] | None:
    """Do ``P Det M1 M2 N`` and ``P Det N'`` entail ``P Det M N'`` (M = M1 or M2)?"""
    if ambiguous_scope(m1, m2):
        return None
    if hypothesis == "m1":
        if m1.category == "intersective":
            return "m1.intersective", 1
        return "m1.not_intersective", 0
    if hypothesis == "m2":
        if m2.category != "intersective":
            return "m2.not_intersective", 0
        if m1.category == "privative":
            return "m2.under_privative", 0
        return "m2.intersective", 1
    raise ValueError(f"Unknown MPTE hypothesis {hypothesis!r}; use one of {MPTE_HYPOTHESES}.")


def epc(m1: Slot, m2: Slot) -> tuple[str, int] | None:
    """Is ``Det M1 M2 N E`` less (0), equally (1) or more (2) plausible than ``Det N E``?

    A privative over N lowers a defining event; otherwise the attribute-effect table decides.
    Left out: effects the table calls unclear, a privative M1 over an M2 that itself changes the
    event (a fake broken gun may be a working one), an enabling M1 over a privative M2 (a loaded
    toy gun), and modifiers pulling both ways (a loaded broken gun)."""
    if ambiguous_scope(m1, m2) or "unclear" in (m1.effect, m2.effect):
        return None
    if m1.category == "privative":
        if m2.category != "privative" and m2.effect == "less":
            return None
        return "privative_m1", 0
    if m2.category == "privative":
        return None if m1.effect == "more" else ("privative_m2", 0)
    effects = {m1.effect, m2.effect}
    if effects >= {"more", "less"}:
        return None
    if "more" in effects:
        return "effect_more", 2
    if "less" in effects:
        return "effect_less", 0
    return "effect_equal", 1
