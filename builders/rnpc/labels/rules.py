"""The label rules of the RNPC tasks (Lyu et al., NAACL 2022, §3), as pure functions of what
the two modifiers of ``Det M1 M2 N`` are (M1 scopes over ``M2 N``): their categories, subsective
kinds, attributes and event effects, and for MPTE how the second noun N' relates to N. Each
function returns ``(rule id, label)``, or ``None`` where the reading is genuinely ambiguous and
the item is left out rather than guessed. ``RULES`` describes every rule id with an example.

Scope follows the paper's §2 and §7: a privative M1 negates N or M2 depending on what it is. A
role-ending privative (former, retired, deposed) negates the noun's role and leaves the entity's
lasting properties (a former American diplomat is still American); an imitation (counterfeit)
fakes a value or an origin (a counterfeit Hollywood movie is a movie, not a Hollywood one); an
epistemic one (alleged, so-called) may question either, so what rests on its scope is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

SPTE_LABELS = ("non_entailment", "entailment")
EPC_LABELS = ("less_plausible", "equally_plausible", "more_plausible")
SPTE_HYPOTHESES = ("n", "m2_n", "m1_n")  # P Det N, P Det M2 N, P Det M1 N
MPTE_HYPOTHESES = ("m1", "m2")  # P Det M N' with M = M1 or M2
# How MPTE's N' relates to N (WordNet): a hypernym (surgeon → doctor), a co-hyponym that is
# true of the same entity (a surgeon who is a pianist), or a role any such entity can hold
# (a surgeon who is a father; a gun that is a gift).
RELATIONS = ("hypernym", "co_hyponym", "role")
# How an EPC event stands to what N is by nature: in keeping with it (what N does, is for or is
# valued for; for a harmful N, the harm it does) or against it (N failing at it, denied it, worth
# little, harmless). A privative takes away what makes an N an N, so it moves the two apart.
# "kept": the event says what a privative leaves as it is: a thing's form (a fake gun has a
# trigger, a toy dog has four legs), a person's own traits (a former surgeon is left-handed).
# "unread": the event's words say none of these (a painting is famous); no privative rule reads it.
# Read on release rows only (compsem's events say none of these): "restates" and "opposes": the
# event says what an added modifier says, or its opposite (an impossible shot is unachievable;
# an amateur event is run by professionals). "done", "to_come" and "now" say when N is: its time
# as an N is over (a surgeon retired years ago), yet to come (has yet to start the job) or now
# (a judge still sits on the court), which a modifier that places N in its past or in what may
# come (MODIFIER_TIMES) restates or opposes: no modifier places N now, so "now" opposes its past.
EVENT_STANCES = (
    "in_keeping", "against", "kept", "unread", "restates", "opposes", "done", "to_come", "now",
)  # fmt: skip
TIME_STANCES = {"done": "past", "to_come": "future", "now": "present"}
# what a modifier itself says of N decides, whatever it takes from N
_RESTATEMENT = {"restates": ("modifier_restated", 2), "opposes": ("modifier_opposed", 0)}

# Privative attributes by what they negate.
ROLE_ENDING = {"time", "status_loss", "deputyship"}  # the role of N ends or is only delegated
IMITATION = {"imitation"}  # counterfeit, forged, replica: fakes the origin or value of the item
AUTHENTICITY = {"authenticity"}  # fake, phony: need not be an N at all
DEPICTION = {"depiction"}  # toy, stone, stuffed: a likeness of an N
QUESTIONING = {"epistemic"}  # alleged, so-called: whether it is an N at all is in question
MATERIAL = IMITATION | DEPICTION | {"making"}  # what the item is made as: a copy, a likeness
# When a modifier places N: in its past (a former surgeon's working life is over) or in what may
# come (a would-be surgeon's has not begun). By the word, not the attribute: RNPC's time
# attribute holds both (former, future), its possibility attribute words of belief (likely,
# unlikely) that place N in no time.
MODIFIER_TIMES = {
    "past": {
        "former", "erstwhile", "onetime", "one-time", "ex-", "past", "previous", "prior",
        "preceding", "retired", "deposed", "ousted", "defrocked", "disbarred", "quondam",
        "historic",
    },
    "future": {
        "future", "would-be", "prospective", "aspiring", "potential", "expected", "proposed",
        "planned", "predicted", "imminent", "upcoming", "forthcoming", "incoming", "next",
    },
}  # fmt: skip
# Intersective attributes by how they fare under a privative M1.
SURFACE = {"colour", "pattern", "shape", "hair", "appearance"}  # perceptible on the thing itself
LASTING = {"nationality", "handedness"}  # properties of a person that outlive a role
ORIGIN = {"nationality", "provenance", "period"}  # what counterfeits fake
VALUE = {"price", "quality", "fame"}  # what counterfeits fake (a counterfeit luxury bag, §7)
# Relative subsective attributes bound to their comparison class M2 N: they pick or rank its
# members (the second, the best, my favorite) or say how typical of it one is (a typical blond
# mayor need not be a typical mayor).
SELECTING = {"ordinal", "superlative", "preference", "typicality"}
# Relative subsective attributes of degree (a tall, new, famous, good N): people judge them
# against N itself, whatever M2 says (a tall young buffalo hunter is a tall buffalo hunter;
# 23 of 23 such rows of issue 25's development half, 12 and 11 on its two halves). Importance
# is not here: it holds rank words too (America's top amateur wrestler is not its top wrestler).
GRADABLE = {
    "age", "beauty", "fame", "height", "intelligence", "length", "loudness", "price", "quality",
    "size", "speed", "strength", "taste", "temperature", "wealth", "weight", "width",
}  # fmt: skip


@dataclass(frozen=True)
class Slot:
    """What the rules need to know of a modifier in one position."""

    category: str  # intersective | subsective | privative
    kind: str = ""  # relative | role | stage (subsective only)
    effect: str = "equal"  # less | equal | more | unclear (EPC)
    attribute: str = ""  # the lexicon's attribute (time, colour, size …); "" when unknown
    time: str = ""  # past | future: when the modifier places N (MODIFIER_TIMES); "" for neither


def modifier_time(word: str) -> str:
    """``past`` or ``future`` when the modifier places N there (:data:`MODIFIER_TIMES`), else ""."""
    word = word.lower()
    return next((time for time, words in MODIFIER_TIMES.items() if word in words), "")


def ambiguous_scope(m1: Slot, m2: Slot) -> bool:
    """A privative before a stage of a role (a former beginner drummer) may negate either."""
    return m1.category == "privative" and m2.kind == "stage"


def _scope_unclear(m1: Slot, m2: Slot) -> bool:
    """Whether N itself holds is unclear: a role-ending or epistemic privative over a subsective
    M2 may end (or question) the role or only M2 (a former famous actor may still act; an
    alleged skillful thief may be a clumsy one, §7), and a fake (authenticity) over an origin
    or value may fake that or be no N at all (a fake Swiss watch)."""
    if m1.category != "privative":
        return False
    if m1.attribute in AUTHENTICITY:
        return m2.attribute in ORIGIN | VALUE
    known = ROLE_ENDING | IMITATION | AUTHENTICITY | DEPICTION
    return m2.category == "subsective" and (
        m1.attribute not in known or m1.attribute in ROLE_ENDING
    )


def _ends_role(slot: Slot) -> bool:
    """A privative that ends or delegates the role N (former, deposed, acting), not a
    subsective of time (annual, late)."""
    return slot.category == "privative" and slot.attribute in ROLE_ENDING


def _fakes_m2(m1: Slot, m2: Slot) -> bool:
    """An imitation M1 whose target is M2: a counterfeit Hollywood movie (§7)."""
    return m1.attribute in IMITATION and m2.attribute in ORIGIN | VALUE


def spte(hypothesis: str, m1: Slot, m2: Slot, person: bool = True) -> tuple[str, int] | None:
    """Does ``P Det M1 M2 N`` entail ``P Det N`` / ``P Det M2 N`` / ``P Det M1 N``?
    ``person``: N names people, whose role a role-ending M1 ends."""
    if ambiguous_scope(m1, m2):
        return None
    if hypothesis == "n":
        if _fakes_m2(m1, m2):
            return "n.imitation_of_m2", 1
        if person and _ends_role(m1) and m2.category == "subsective":
            return "n.role_ended", 0
        if _scope_unclear(m1, m2):
            return None
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
        return _spte_m1_n(m1, m2)
    raise ValueError(f"Unknown SPTE hypothesis {hypothesis!r}; use one of {SPTE_HYPOTHESES}.")


def _spte_m1_n(m1: Slot, m2: Slot) -> tuple[str, int] | None:
    if m2.category == "privative":
        # an intersective M1 may describe the likeness itself (a carved wooden duck)
        return None if m1.category == "intersective" else ("m1_n.m2_privative", 0)
    if m1.category == "privative" and m1.attribute and m2.category == "subsective":
        return "m1_n.privative_over_subsective", 1
    if _fakes_m2(m1, m2) or _scope_unclear(m1, m2):
        return None  # a counterfeit Swiss watch may be a genuine (if un-Swiss) watch
    if m1.kind != "relative":
        return "m1_n.m1_keeps", 1
    if m1.attribute in SELECTING or m2.attribute in SELECTING:
        return "m1_n.m1_relative", 0
    if m1.attribute in GRADABLE:
        return "m1_n.m1_gradable", 1
    return None  # a relative attribute of unknown kind: importance ranks (top) or grades


def mpte(
    hypothesis: str, m1: Slot, m2: Slot, relation: str = "role", person: bool = True
) -> tuple[str, int] | None:
    """Do ``P Det M1 M2 N`` and ``P Det N'`` entail ``P Det M N'`` (M = M1 or M2), where N' is
    a ``relation`` of N (see ``RELATIONS``) and ``person`` says whether N names people?"""
    if relation not in RELATIONS:
        raise ValueError(f"Unknown N' relation {relation!r}; use one of {RELATIONS}.")
    if ambiguous_scope(m1, m2):
        return None
    if relation == "hypernym" and any(_likeness(slot) for slot in (m1, m2)):
        return None  # the premises clash: a stuffed bear is no animal, an alleged spy no agent
    if hypothesis == "m1":
        return _mpte_kept(m1, m2, relation, person, "m1")
    if hypothesis == "m2":
        if m2.category == "intersective":
            return _mpte_m2_intersective(m1, m2)
        if m1.category == "privative" and m2.category == "subsective":
            # N' is not known to be true of whatever the privative leaves (a former famous actor
            # who is a father), and a hypernym of N may not be true of it at all
            return None if relation == "hypernym" else ("m2.not_intersective", 0)
        return _mpte_kept(m2, m1, relation, person, "m2")
    raise ValueError(f"Unknown MPTE hypothesis {hypothesis!r}; use one of {MPTE_HYPOTHESES}.")


def _likeness(slot: Slot) -> bool:
    """A privative whose item need not be anything N is (a depiction, an alleged one), unlike
    a counterfeit (still a document), a former one (still a person) or a possible one."""
    return slot.category == "privative" and slot.attribute in DEPICTION | QUESTIONING


def _mpte_kept(
    kept: Slot, other: Slot, relation: str, person: bool, side: str
) -> tuple[str, int] | None:
    """The kept modifier's rule when it is M1, or M2 under an M1 that leaves it in scope."""
    if kept.category == "intersective":
        return "m1.intersective", 1
    if kept.category == "privative":
        return _mpte_kept_privative(kept, other, relation, person, side)
    hypernym = relation == "hypernym"
    negative = "m1.relative" if side == "m1" else "m2.not_intersective"
    if kept.kind == "relative":
        if other.category == "privative" or side == "m2":
            # tall for a tree or for a decoration (a tall plastic tree)? a relative M2 under M1 is
            # ranked within M2 N, which says little of where it stands among the N'
            return None
        return (negative, 0) if relation != "role" else None
    if kept.kind == "role" and hypernym and other.category != "privative":
        return f"{side}.role_to_hypernym", 1
    if hypernym or not kept.kind:
        return None  # a novice surgeon may be a seasoned doctor; a subsective of unknown kind
    if side == "m2":
        return "m2.not_intersective", 0
    return ("m1.role_other_noun", 0) if kept.kind == "role" else ("m1.stage_other_noun", 0)


def _mpte_kept_privative(
    kept: Slot, other: Slot, relation: str, person: bool, side: str
) -> tuple[str, int] | None:
    """A kept privative on N'. Of a person it names a role (former, would-be, alleged, fake)
    that the second premise's N', true of them now, does not share; of a thing or an event it
    says what the item itself is (a possible merger that is a deal is a possible deal; an
    artificial lake that is a reservoir is an artificial reservoir), unless it questions the item (alleged)
    or an M1 privative may have negated it (a failed temporary truce)."""
    if kept.attribute in IMITATION and relation == "hypernym" and other.category != "privative":
        return f"{side}.imitation_to_hypernym", 1
    if person or relation == "co_hyponym":
        return "m1.privative" if side == "m1" else "m2.not_intersective", 0
    if kept.attribute in QUESTIONING:
        return "m1.privative" if side == "m1" else "m2.not_intersective", 0
    if side == "m2" and other.category == "privative" and kept.attribute not in MATERIAL:
        return "m2.under_privative", 0
    if side == "m2" and kept.attribute in AUTHENTICITY:
        return None  # a sham marriage that is a contract: a sham contract, or a real one?
    return f"{side}.privative_of_thing", 1


def _mpte_m2_intersective(m1: Slot, m2: Slot) -> tuple[str, int] | None:
    """Whether an intersective M2 still holds of the entity under M1."""
    if m1.category != "privative":
        return "m2.intersective", 1
    if _ends_role(m1):
        return ("m2.outlives_role", 1) if m2.attribute in LASTING else None
    if m1.attribute in IMITATION | AUTHENTICITY and m2.attribute in ORIGIN:
        return "m2.faked_origin", 0  # no watch, or a watch faking Swissness: Swiss either way?
    if m1.attribute in IMITATION | AUTHENTICITY | DEPICTION and m2.attribute in SURFACE:
        return "m2.surface_of_imitation", 1
    return None  # an alleged Russian spy; a fictional French detective


def epc(m1: Slot, m2: Slot, stance: str = "in_keeping") -> tuple[str, int] | None:
    """Is ``Det M1 M2 N E`` less (0), equally (1) or more (2) plausible than ``Det N E``?
    ``stance`` (:data:`EVENT_STANCES`): whether E is in keeping with what N is by nature or goes
    against it; with a privative the first is less plausible and the second more. An event of
    what every modifier keeps (a thing's form, a person's own traits) is as plausible. Generated
    events in keeping are stated; those against N are denials of them or events listed against
    N (``rnpc_events.tsv``). The effect table reads an unread event as one in keeping with N.
    An event that restates or opposes what an added modifier says, or says when N is (read on
    release rows only), goes by that modifier: restated more plausible, opposed less.

    A privative over N lowers a defining event; otherwise the attribute-effect table decides.
    Left out: effects the table calls unclear, a privative M1 over an M2 that itself changes the
    event (a fake broken gun may be a working one), an enabling M1 over a privative M2 (a loaded
    toy gun), modifiers pulling both ways (a loaded broken gun), and a privative before a stage
    (:func:`ambiguous_scope`) unless the event is of what every modifier keeps."""
    if stance == "kept":
        # a fake gun is made to look like a gun and a former surgeon is the same person: the
        # event is as plausible, unless a modifier speaks of that very look or person; so too
        # whichever of N or M2 a privative negates (a onetime amateur boxer is a man)
        clash = {m1.attribute, m2.attribute} & (SURFACE | LASTING)
        return None if clash else ("property_kept", 1)
    if ambiguous_scope(m1, m2):
        return None
    if stance in TIME_STANCES:
        return _epc_time(m1, m2, TIME_STANCES[stance])
    if stance in _RESTATEMENT:
        return _RESTATEMENT[stance]
    privative = "privative" in (m1.category, m2.category)
    if stance == "against" and privative:
        # what a privative takes from N (a fake gun need not fire), an event against N's nature
        # states: whatever the other modifier's effect, it is more plausible
        return "privative_against_nature", 2
    if stance == "unread" and privative:
        return None  # which way a privative moves an event rests on what the event says
    outcome = _epc_positive(m1, m2)
    if stance != "against" or outcome is None or outcome[1] == 1:
        return outcome
    return None  # an effect the table reads off a defining event says nothing sure against it


def _epc_time(m1: Slot, m2: Slot, event_time: str) -> tuple[str, int] | None:
    """An event of when N is against when the modifiers place it, whichever of the two does (a
    former deputy mayor, a famous former surgeon, an alleged former spy: each is past); an
    event of N now opposes its past (a onetime adviser still advises) and is left out under
    what may come, as it may tell of the wait (a would-be actor is still looking for a role).
    Modifiers of opposite times (a former would-be surgeon), or none, leave it out."""
    placed = {m1.time, m2.time} - {""}
    if len(placed) != 1 or (event_time == "present" and placed != {"past"}):
        return None
    return _RESTATEMENT["restates" if placed == {event_time} else "opposes"]


def _epc_positive(m1: Slot, m2: Slot) -> tuple[str, int] | None:
    if m1.category == "privative":
        if m2.category != "privative" and m2.effect == "less":
            return None
        return "privative_m1", 0
    if m2.category == "privative":
        return None if m1.effect == "more" else ("privative_m2", 0)
    effects = {m1.effect, m2.effect}
    if "unclear" in effects:
        return None  # what a privative takes away does not rest on the other's effect; this does
    if effects >= {"more", "less"}:
        return None
    if "more" in effects:
        return "effect_more", 2
    if "less" in effects:
        return "effect_less", 0
    return "effect_equal", 1
