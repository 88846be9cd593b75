"""Argument linking: each argument mention becomes an entity with an id, a name and a type, as the
paper's arguments are linked entities typed in FIGER (Ling and Weld, 2012; App. E.1).

Offline and deterministic, in three steps per mention (:func:`link_mentions`):

1. **Within the article** (name coreference): a person named by one word is the article's person
   whose full name ends with it (a later "Baker" is the "James Baker" of the article); an
   acronym is the name the article introduced it with ("General Electric Co (GE)") or the
   article's name whose initials it spells ("International Business Machines" for "IBM").
2. **WordNet 3.0's instance synsets as the alias table**: "U.S.", "US", "United States" and
   "America" are lemmas of one synset, so one entity, named by its first lemma. A synset is
   taken only where its type agrees with the parser's entity label, and never for a lone word
   the parser calls a person (WordNet's "Baker" is Josephine Baker).
3. Otherwise the **normalised surface form**: a company's legal suffix ("Texaco Inc" is
   "Texaco") and a possessive dropped.

An entity's type is the coarse FIGER-like type of its WordNet instance hypernyms where it is
linked there (``country``, ``city``, ``province``, ``company``, ``organization``, ``person``,
``location`` …), else of the parser's entity label (``GPE`` is a ``location``), else none.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from compsem.resources.wordnet import wordnet

# spaCy's entity labels as FIGER-like coarse types (FIGER's /person, /organization, /location …).
NER_TYPES = {
    "PERSON": "person",
    "NORP": "group",
    "FAC": "building",
    "ORG": "organization",
    "GPE": "location",
    "LOC": "location",
    "PRODUCT": "product",
    "EVENT": "event",
    "WORK_OF_ART": "art",
    "LAW": "law",
    "LANGUAGE": "language",
}
# WordNet synsets whose instances have a FIGER-like type, most specific first: an instance takes
# the first of these among its hypernyms.
WORDNET_TYPES = (
    ("country.n.02", "country"),
    ("state.n.04", "country"),
    ("city.n.01", "city"),
    ("town.n.01", "city"),
    ("american_state.n.01", "province"),
    ("state.n.01", "province"),
    ("province.n.01", "province"),
    ("company.n.01", "company"),
    ("organization.n.01", "organization"),
    ("person.n.01", "person"),
    ("location.n.01", "location"),
)
# Which WordNet types may stand for a mention of each parser label (None: no label).
COMPATIBLE = {
    "GPE": {"country", "city", "province", "location"},
    "LOC": {"country", "city", "province", "location"},
    "FAC": {"location", "city"},
    "ORG": {"organization", "company"},
    "PERSON": {"person"},
    None: {"country", "city", "province", "location", "organization", "company", "person"},
}
# Legal suffixes of company names, dropped from the surface form ("Texaco Inc" is "Texaco").
_COMPANY_SUFFIXES = frozenset(
    "inc corp co cos ltd plc llc ag nv sa spa corporation company incorporated limited".split()
)
_INITIAL_STOPWORDS = frozenset({"of", "and", "the", "for", "&", "de", "du", "des", "on"})
_ACRONYM = re.compile(r"[A-Z](?:\.?[A-Z])+\.?")
_NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "PRODUCT", "EVENT"})


@dataclass(frozen=True)
class Entity:
    """The entity a mention links to: ``id`` (``wordnet:<synset>`` or ``name:<name>``), the
    ``name`` propositions use, its coarse ``type`` (or None) and ``how`` it was found
    (``wordnet``, ``coreference``, ``acronym`` or ``surface``)."""

    id: str
    name: str
    type: str | None
    how: str


def normalised(text: str) -> str:
    """The surface form without a possessive or a company's legal suffix, spaces collapsed."""
    words = text.replace("'s ", " ").removesuffix("'s").strip("<>,;: ").split()
    while len(words) > 1 and words[-1].lower().rstrip(".").replace(".", "") in _COMPANY_SUFFIXES:
        words = words[:-1]
        if len(words) > 1 and words[-1] in ("&", "and"):  # "Smith Barney and Co"
            words = words[:-1]
        words[-1] = words[-1].rstrip(",")
    return " ".join(words) or text


def is_acronym(text: str) -> bool:
    """Capitals, optionally dotted, two or more letters: "GE", "U.S.", "OPEC"."""
    return bool(_ACRONYM.fullmatch(text))


def initials(name: str) -> str:
    """The capitals of a name's words that acronyms spell: "Organization of Petroleum Exporting
    Countries" gives "OPEC"."""
    words = [w for w in re.split(r"[\s-]+", name) if w and w.lower() not in _INITIAL_STOPWORDS]
    return "".join(w[0] for w in words if w[0].isupper())


@functools.lru_cache(maxsize=1)
def _alias_table() -> dict[str, tuple]:
    """Every lemma of WordNet's noun instance synsets (with spaces) → its synsets: the most
    frequent sense of that lemma first, then the broader type ("Luxembourg" the country before
    its capital), then by name."""
    rank = {kind: i for i, (_, kind) in reversed(list(enumerate(WORDNET_TYPES)))}
    table: dict[str, list] = {}
    for synset in wordnet().all_synsets("n"):
        if not synset.instance_hypernyms():
            continue
        kind = rank.get(wordnet_type(synset.name()), len(rank))
        for lemma in synset.lemmas():
            key = (-lemma.count(), kind, synset.name())
            table.setdefault(lemma.name().replace("_", " "), []).append((key, synset))
    return {alias: tuple(s for _, s in sorted(found)) for alias, found in table.items()}


@functools.cache
def wordnet_type(synset_name: str) -> str | None:
    """The coarse type of a WordNet instance synset, from its instance hypernyms' closure."""
    synset = wordnet().synset(synset_name)
    above = {synset.name()}
    for parent in synset.instance_hypernyms():
        above |= {parent.name()} | {s.name() for s in parent.closure(lambda s: s.hypernyms())}
    return next((kind for name, kind in WORDNET_TYPES if name in above), None)


@functools.lru_cache(maxsize=65536)
def wordnet_entity(name: str, label: str | None) -> Entity | None:
    """The WordNet instance a name (exactly a lemma, case included) stands for, if one has a
    type compatible with the parser's label."""
    allowed = COMPATIBLE.get(label, set())
    for synset in _alias_table().get(name, ()):
        kind = wordnet_type(synset.name())
        if kind in allowed:
            display = synset.lemmas()[0].name().replace("_", " ")
            return Entity(f"wordnet:{synset.name()}", display, kind, "wordnet")
    return None


def _within_article(text: str, label: str | None, names: list, acronyms: dict) -> tuple:
    """(name, label, how) of a mention after name coreference within its article."""
    if is_acronym(text):
        key = text.replace(".", "")
        if key in acronyms:
            return acronyms[key], None, "acronym"
        for name, name_label in names:
            if len(name.split()) > 1 and initials(name) == key:
                return name, name_label, "acronym"
    elif label in ("PERSON", None) and len(text.split()) == 1:
        for name, name_label in names:
            words = name.split()
            if name_label == "PERSON" and len(words) > 1 and words[-1] == text:
                return name, "PERSON", "coreference"
    return text, label, "surface"


def link_mentions(
    mentions: list[tuple[str, str | None]], names: list[tuple[str, str]], acronyms: dict
) -> list[Entity]:
    """The entity of each (text, parser label) mention of one article, given the article's named
    entities ``names`` ((text, label), in order) and its ``acronyms`` (acronym without dots →
    the name it was introduced with)."""
    names = [(normalised(name), label) for name, label in names]
    linked = []
    for text, label in mentions:
        if label is None and not any(c.isupper() for c in text):  # a common noun: itself
            linked.append(Entity(f"name:{text}", text, None, "surface"))
            continue
        surface = normalised(text)
        name, name_label, how = _within_article(surface, label, names, acronyms)
        lone_person = name_label == "PERSON" and len(name.split()) == 1
        entity = None if lone_person else wordnet_entity(name, name_label)
        if entity is None and name != surface and not lone_person:
            entity = wordnet_entity(surface, label)  # "U.S." when no full name was found
        if entity is None:
            kind = NER_TYPES.get(name_label or label or "")
            entity = Entity(f"name:{name}", name, kind, how)
        linked.append(entity)
    return linked


def article_names(doc) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """(names, acronyms) of a parsed article: its named entities in order, and each acronym
    introduced in parentheses after a name ("General Electric Co (GE)")."""
    names, acronyms = [], {}
    for ent in doc.ents:
        if ent.label_ not in _NAME_LABELS:
            continue
        text = " ".join(t.text for t in ent if t.lower_ not in ("the",) and t.tag_ != "POS")
        names.append((text, ent.label_))
        after = doc[ent.end : ent.end + 3]
        if len(after) == 3 and after[0].text == "(" and after[2].text == ")":
            if is_acronym(after[1].text) and len(after[1].text) > 1:
                acronyms.setdefault(after[1].text.replace(".", ""), normalised(text))
    return names, acronyms
