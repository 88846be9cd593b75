"""Where a modifier and an event place N, by WordNet: an event that places an *African* emigrant
in Nigeria restates the modifier, one that places it in China opposes it (people call the first
more plausible than the bare *emigrants were born in Nigeria*, the second less).

A modifier places N where its pertainym is a place (African: Africa; Swedish: Sweden); an event
where one of its capitalised words, not the first, names a place or pertains to one (born in
*Nigeria*, competes for *Germany*, speaks *Japanese*). Places hold one another by WordNet's
part holonyms (Nigeria is part of Africa, Paris of France). Two places neither of which holds
the other are apart when both are countries, or both lie in known continents: WordNet does not
place every country in a continent (Sweden), and then a country and a continent say nothing.
"""

from __future__ import annotations

import functools
import re

from compsem.resources.wordnet import wordnet

_CAPITALISED = re.compile(r"(?<!^)(?<![.!?]\s)\b([A-Z][A-Za-z.]*[A-Za-z])")


@functools.cache
def _kinds() -> dict[str, object]:
    wn = wordnet()
    return {
        # a country or city is a location, a continent a landmass, an island (Taiwan) land
        "place": {wn.synset(name) for name in ("location.n.01", "landmass.n.01", "land.n.04")},
        "country": {wn.synset("country.n.02")},
        "continent": {wn.synset("continent.n.01")},
    }


@functools.cache
def _types(synset) -> frozenset:
    """What an instance synset (Nigeria) is: its instance hypernyms and all theirs above."""
    types = set(synset.instance_hypernyms())
    for hypernym in list(types):
        types |= set(hypernym.closure(lambda s: s.hypernyms()))
    return frozenset(types)


def _is(synset, kind: str) -> bool:
    """Whether an instance synset (Nigeria) is of ``kind`` (place, country, continent)."""
    return bool(_types(synset) & _kinds()[kind])


@functools.cache
def _places_of(word: str) -> frozenset:
    """The places a word names (Nigeria) or, as an adjective, pertains to (Swedish: Sweden),
    with the other places of that one's names (Chinese pertains to Taiwan, also named China)."""
    wn = wordnet()
    named = {s for s in wn.synsets(word, "n") if _is(s, "place")}
    for synset in wn.synsets(word, "a"):
        for lemma in synset.lemmas():
            for place in (p.synset() for p in lemma.pertainyms()):
                names = place.lemma_names() if _is(place, "place") else []
                named |= {s for name in names for s in wn.synsets(name, "n") if _is(s, "place")}
    return frozenset(named)


def _within(place) -> set:
    """The place and every place that holds it (Paris: France, Europe, Eurasia …)."""
    return {place, *place.closure(lambda s: s.part_holonyms())}


def _relation(here, there) -> str | None:
    """``restates`` when one place holds the other, ``opposes`` when they are known apart."""
    if here in _within(there) or there in _within(here):
        return "restates"
    for kind in ("country", "continent"):
        ours = {p for p in _within(here) if _is(p, kind)}
        theirs = {p for p in _within(there) if _is(p, kind)}
        if ours and theirs:
            return "opposes"  # disjoint: neither holds the other
    return None


def event_places(event: str) -> frozenset:
    """The places an event's capitalised words, the first word apart, name or pertain to."""
    words = _CAPITALISED.findall(event.strip())
    return frozenset().union(*(_places_of(word.replace(".", "")) for word in words))


def place_relation(modifier: str, event: str) -> str | None:
    """``restates`` when the modifier and the event each place N and one place holds the other,
    ``opposes`` when none does and some lie known apart; None otherwise. A word names several
    places (Russian: the Soviet Union, Russia), so one pair that holds is enough to restate."""
    pairs = [(here, there) for here in _places_of(modifier) for there in event_places(event)]
    found = {_relation(here, there) for here, there in pairs}
    return "restates" if "restates" in found else "opposes" if "opposes" in found else None
