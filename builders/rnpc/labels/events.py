"""How a release row's EPC event reads, from its words: how it stands to what N is
(:func:`event_stance`: in keeping, against, kept), when it says N is (:func:`event_time`), and
whether it restates or opposes what an added modifier says (:func:`modifier_restatement`)."""

from __future__ import annotations

import functools
import re

from compsem.builders.rnpc.words.places import place_relation
from compsem.builders.rnpc.words.valence import sentence_valence, word_valence
from compsem.resources.wordnet import wordnet

_NEGATION = re.compile(r"\b(?:not|never|no|cannot|nobody|nothing|none)\b|n't\b")


def words_of(text: str) -> list[str]:
    """A text's lower-cased words (letters, digits, apostrophes and hyphens)."""
    return re.findall(r"[a-z0-9'-]+", text.lower())


# an event of what N can do: its function, whatever the words' valence (a plane can carry people)
_ABILITY = re.compile(r"\b(?:can|could|able)\b")


_COLOUR = r"(?:black|white|red|green|blue|yellow|brown|gr[ae]y|pink|orange|purple|golden|silver)"


# an event of what a privative keeps, by the words that say it: a colour (a toy gun is black, a
# mythical beast has black fur), a person's sex or hand (a former actor is a man), a count of
# parts (a toy car has four wheels), what kind of thing N is or what it involves (a mock trial
# involves debates, false evidence is a type of information: people call 16 of the dev half's
# 17 such rows equally plausible)
_KEPT = re.compile(
    r"\b(?:is|are|was|were|can be)\s+(?:a\s+)?"
    rf"(?:male|female|man|woman|left-handed|right-handed|{_COLOUR})\b"
    rf"|\bha(?:s|ve)\s+(?:a\s+)?(?:\w+\s+)?{_COLOUR}\s+\w+"
    r"|\bha(?:s|ve)\s+(?:two|three|four|five|six|eight)\s+\w+"
    r"|\binvolves?\b|\b(?:is|are)\s+(?:an?\s+)?(?:type|kind|form|sort)s?\s+of\b"
)


# an event of when N is (rules.TIME_STANCES), by the words that say it: its time as an N is over
# (retired, years ago, no longer, in history; not "used to": a currency is used to buy things),
# yet to come (will, has yet to, soon, tomorrow) or now (still, currently, today). An ended
# state is read first, then one to come: would-be professionals retiring soon are retiring,
# not starting, and one still in training has yet to start.
_DONE = re.compile(
    r"\b(?:ago|retired|retiring|no longer|already|formerly|in the past|in history|"
    r"out of practice)\b"
)


_TO_COME = re.compile(
    r"\b(?:will|going to|yet to|soon|someday|one day|about to|any second|tomorrow|"
    r"in the future|still in training)\b"
)


_NOW = re.compile(
    r"\b(?:now|still|currently|today|nowadays|these days|at present|presently|this year|"
    r"21st century)\b"
)


# an event of the unit N is stated in: a fictitious salary is still paid in dollars, and a
# temperature measured in Fahrenheit whatever it is (people call 5 of the dev half's 5 such
# rows equally plausible); a currency is read by WordNet (monetary_unit), see _states_unit
_UNIT = re.compile(
    r"\b(?:denominated|measured|expressed|quoted|priced) in\b"
    r"|\b(?:is|are|was|were) in (?:\w+ )?(\w+)\b"
)


def negated(event: str) -> bool:
    """Whether an event sentence denies its predicate (not, never, no, cannot, -n't)."""
    return bool(_NEGATION.search(event.lower()))


def event_stance(row: dict) -> str:
    """How a release row's event stands to what N is (:data:`~compsem.builders.rnpc.labels.rules.
    EVENT_STANCES`), ``unread`` where its words do not say. A denial goes against N's nature; so
    does an event whose valence (VADER, on event 1 without the noun phrase's words) is opposite
    to the noun's: bad news of a good or neutral N (a painting has little value), good news of a
    harmful one (a gun is harmless). An event that says a colour, a person's sex or hand, a
    count of parts, what kind of thing N is or what it involves is of what a privative keeps.
    An event of the noun's own valence is in keeping with it, and so is a neutral one that says
    what N can do."""
    if negated(row["event2"]):
        return "against"
    noun = row["noun"] or ""
    # the noun phrase's own words are read apart: a gun is harmless is good news of a gun
    event = _event_text(row, "event1", "modifier1", "modifier2", "noun")
    lowered = event.lower()  # VADER reads the event as written: capitals are emphasis to it
    if _KEPT.search(lowered) or _states_unit(lowered):
        return "kept"
    valence = sentence_valence(event)
    if valence == 0:
        return "in_keeping" if _ABILITY.search(lowered) else "unread"
    harmful = word_valence(noun) < 0
    return "in_keeping" if (valence < 0) == harmful else "against"


def _states_unit(event: str) -> bool:
    """Whether a lower-cased event says the unit N is stated in (:data:`_UNIT`): denominated or
    measured in, or in a currency (revenues are in British pounds)."""
    for match in _UNIT.finditer(event):
        unit = match.group(1)
        if unit is None or _is_currency(unit):
            return True
    return False


@functools.cache
def _is_currency(word: str) -> bool:
    wn = wordnet()
    currency = wn.synset("monetary_unit.n.01")
    lemma = wn.morphy(word, "n") or word
    return any(currency in s.closure(lambda s: s.hypernyms()) for s in wn.synsets(lemma, "n"))


def _phrase_words(row: dict, apart: tuple[str, ...]) -> set[str]:
    """The words of the row's ``apart`` fields (modifier1, noun …), lower-cased."""
    return set(words_of(" ".join(row[name] or "" for name in apart)))


def _event_text(row: dict, field: str, *apart: str) -> str:
    """An event as written, less the words of the row's ``apart`` fields (modifier1, noun …)."""
    phrase = _phrase_words(row, apart)
    return " ".join(w for w in row[field].split() if w.lower().strip(".,;!?") not in phrase)


def _event_words(row: dict, *apart: str) -> list[str]:
    """Event 2's words, less those of the row's ``apart`` fields (modifier1, noun …)."""
    phrase = _phrase_words(row, apart)
    return [word for word in words_of(row["event2"]) if word not in phrase]


def event_time(row: dict) -> str | None:
    """``done``, ``to_come`` or ``now`` when event 2's words say N's time is over, yet to come
    or now (the modifiers' own words set apart: a *future* star will shine says nothing by
    *future*)."""
    event = " ".join(_event_words(row, "modifier1", "modifier2"))
    times = (("done", _DONE), ("to_come", _TO_COME), ("now", _NOW))
    return next((time for time, words in times if words.search(event)), None)


@functools.cache
def _adjective_senses(word: str) -> tuple[frozenset, frozenset]:
    """What an adjective says in WordNet: the words of its senses and of the senses similar to
    them (impossible: unachievable, unattainable), and of their antonyms (amateur:
    professional). Multi-word lemmas are left out: an event's words are read one by one."""
    synonyms, antonyms = set(), set()
    for synset in wordnet().synsets(word.replace(" ", "_")):
        if synset.pos() not in "as":
            continue
        for similar in [synset, *synset.similar_tos()]:
            synonyms |= {lemma.name().lower() for lemma in similar.lemmas()}
            for lemma in similar.lemmas():
                for antonym in lemma.antonyms():
                    antonyms |= {name.lower() for name in antonym.synset().lemma_names()}
    synonyms.discard(word)
    return frozenset(synonyms - antonyms), frozenset(antonyms - synonyms)


@functools.cache
def _adjective_forms(word: str) -> frozenset:
    """The adjectives WordNet derives from a verb or noun of the event (exists: existent;
    hypotheses: hypothetical), so that what the event says meets the modifier's senses."""
    wn, forms = wordnet(), set()
    for pos in ("v", "n"):
        base = wn.morphy(word, pos)
        lemmas = [lemma for s in wn.synsets(base, pos) for lemma in s.lemmas()] if base else []
        for lemma in (lemma for lemma in lemmas if lemma.name().lower() == base):
            derived = lemma.derivationally_related_forms()
            forms |= {d.name().lower() for d in derived if d.synset().pos() in "as"}
    return frozenset(forms)


def modifier_restatement(row: dict, added: list[str]) -> str | None:
    """``restates`` or ``opposes`` when event 2 says what an added modifier says or its
    opposite (:func:`_adjective_senses`; the event's words with the adjectives derived from
    them: *a fictitious market exists* opposes *fictitious*), or places N where the modifier
    does or elsewhere (:func:`~compsem.builders.rnpc.words.places.place_relation`: *African*
    emigrants born in Nigeria, in China), one of the two only; the noun phrase's words are set
    apart (a false rumour *is* a rumour)."""
    phrase = ("modifier1", "modifier2", "noun")
    words = set(_event_words(row, *phrase))
    forms = words | {wordnet().morphy(w, pos) or w for w in words for pos in ("n", "v", "a")}
    forms |= {form for word in words for form in _adjective_forms(word)}
    event = _event_text(row, "event2", *phrase)
    found = set()
    for word in added:
        synonyms, antonyms = _adjective_senses(word.lower())
        found |= {"restates"} if forms & synonyms else set()
        found |= {"opposes"} if forms & antonyms else set()
        found |= {place_relation(word, event)} - {None}
    return found.pop() if len(found) == 1 else None
