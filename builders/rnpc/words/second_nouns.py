"""MPTE's second noun N', chosen by its WordNet relation to N.

MPTE's label depends on how N' relates to N (RNPC §3): a modifier that judges the role N carries
over to a hypernym of N (a skillful surgeon who is a doctor is a skillful doctor) but not to
another noun of the same entity (a skillful surgeon who is a father, or a pianist). Each noun
gets its options per relation of :data:`compsem.builders.rnpc.labels.rules.RELATIONS`:

* ``hypernym``: a listed hypernym (``rnpc_hypernyms.tsv``) among the WordNet ancestors of N's
  sense (surgeon → doctor, gun → weapon, mouse → animal);
* ``co_hyponym``: for people, a listed person hypernym that is neither an ancestor nor a
  descendant of N (a pianist who is a doctor), so the same N' word is a hypernym for one noun
  (a surgeon who is a doctor) and not for another;
* ``role``: a role any entity of N's supersense can hold (``rnpc_second_nouns.tsv``: father,
  customer; gift, souvenir; pet; snack).

:func:`noun_relation` reads the same relation off two words, for the original release's items.
"""

from __future__ import annotations

import functools

import pyarrow as pa

from compsem.builders.rnpc.labels.rules import RELATIONS
from compsem.builders.rnpc.words.noun_phrases import Vocabulary
from compsem.resources.wordnet import wordnet

Option = tuple[str, str]  # (N', its gender)


def _compatible(gender: str, other: str) -> bool:
    return not gender or not other or gender == other


def _unrelated(row: dict, synset: str, above: set[str]) -> bool:
    """Neither a hypernym nor a hyponym of (nor the same sense as) N."""
    return row["synset"] != synset and row["synset"] not in above and synset not in row["ancestors"]


def second_noun_choices(
    vocabulary: Vocabulary, roles: pa.Table, hypernyms: pa.Table
) -> list[dict[str, list[Option]]]:
    """For each noun of the vocabulary, ``{relation: [(N', gender), …]}``; a relation the noun
    has no option for is absent. A person's co-hyponyms are the listed person hypernyms that are
    not its own, so that N' alone does not tell a hypernym from a co-hyponym."""
    nouns = vocabulary.nouns
    roles, hypernyms = roles.to_pylist(), hypernyms.to_pylist()
    others = [row for row in hypernyms if row["supersense"] == "person"]
    choices = []
    for noun, synset, supersense, gender in zip(
        nouns["noun"], nouns["synset"], nouns["supersense"], nouns["gender"], strict=True
    ):
        above = {s.name() for s in wordnet().synset(synset).closure(lambda s: s.hypernyms())}
        options = {
            "hypernym": [
                (row["noun"], row["gender"])
                for row in hypernyms
                if row["supersense"] == supersense
                and row["synset"] in above
                and _compatible(gender, row["gender"])
            ],
            "co_hyponym": sorted(
                {
                    (row["noun"], row["gender"])
                    for row in (others if supersense == "person" else [])
                    if row["noun"] != noun
                    and _unrelated(row, synset, above)
                    and _compatible(gender, row["gender"])
                }
            ),
            "role": [
                (row["noun"], row["gender"])
                for row in roles
                if row["supersense"] == supersense
                and row["noun"] != noun
                and _unrelated(row, synset, above)
                and _compatible(gender, row["gender"])
            ],
        }
        choices.append({relation: options[relation] for relation in RELATIONS if options[relation]})
    return choices


@functools.lru_cache(maxsize=4096)
def _noun_closures(word: str) -> tuple[frozenset[str], frozenset[str], bool]:
    """The senses of a noun, all their ancestors, and whether one of them is a person."""
    senses = wordnet().synsets(word.replace(" ", "_"), "n")
    names = frozenset(s.name() for s in senses)
    above = frozenset(
        a.name()
        for s in senses
        for a in s.closure(lambda x: x.hypernyms() + x.instance_hypernyms())
    )
    person = any(s.lexname() == "noun.person" for s in senses) or "person.n.01" in above
    return names, above, person


def head_noun(phrase: str) -> str:
    """The head of a (compound) noun: its last word, lower-cased ('printing acquisition')."""
    words = phrase.strip().rstrip(".").split()
    return words[-1].lower() if words else ""


@functools.cache
def names_people(noun: str) -> bool:
    """Whether the first (most frequent) WordNet sense of the phrase's head noun is a person:
    a surgeon is, a gun is not (though one rare sense of gun is a gunman). Unknown words count
    as people, whose roles the rules treat with most caution."""
    senses = wordnet().synsets(head_noun(noun).replace(" ", "_"), "n")
    if not senses:
        return True
    first = senses[0]
    above = first.closure(lambda x: x.hypernyms() + x.instance_hypernyms())
    return first.lexname() == "noun.person" or any(a.name() == "person.n.01" for a in above)


def noun_relation(noun: str, second: str) -> str:
    """How N' relates to N by WordNet: ``hypernym`` when some sense of N' is N's or one of its
    ancestors, ``co_hyponym`` when both are people otherwise, else ``role`` (another noun true
    of the same entity, as MPTE's second premise says). Unknown words count as ``role``."""
    noun, second = head_noun(noun), head_noun(second)
    senses, above, person = _noun_closures(noun)
    second_senses, second_above, second_person = _noun_closures(second)
    if second_senses & (senses | above):
        return "hypernym"
    if person and second_person and not (senses & second_above):
        return "co_hyponym"
    return "role"
