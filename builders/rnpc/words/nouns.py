"""Nouns for recursive noun phrases: WordNet senses with their supersense, hypernyms and gender.

The shipped list (``builders/rnpc/data/rnpc_nouns.tsv``) pins each common count noun to its WordNet
sense; everything else is read from WordNet: the supersense is the sense's lexicographer file
(``noun.person`` → ``person``), the hypernyms are its closure, and a person noun's grammatical
gender (for He/She) comes from its gloss ("a male parent") or its form (policeman, actress).
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa

from compsem.builders.rnpc.labels.rules import EVENT_STANCES
from compsem.resources.lexicon import LexiconError
from compsem.resources.modifiers import ROLES, SUPERSENSES, data_path, read_tsv
from compsem.resources.wordnet import wordnet

RNPC = "compsem.builders.rnpc"  # the package whose data/ folder holds these files

NOUN_COLUMNS = ("noun", "synset", "role")
SECOND_NOUN_COLUMNS = ("supersense", "noun", "synset")
EVENT_COLUMNS = ("noun", "event", "rationale", "stance")
# the stances an events file may give (the last, ``unread``, is for release rows only);
# a file without the column lists defining events, as before RNPC 3.5.0
FILE_STANCES = EVENT_STANCES[:3]
_MALE = {"man", "male", "boy", "brother", "father", "son", "husband", "king", "gentleman", "monk"}
_FEMALE = {
    "woman",
    "female",
    "girl",
    "sister",
    "mother",
    "daughter",
    "wife",
    "queen",
    "lady",
    "nun",
}


def sense(noun: str, synset_name: str, where: str):
    """The WordNet synset named ``synset_name``, checked to be a sense of ``noun``."""
    from nltk.corpus.reader.wordnet import WordNetError  # NLTK takes seconds to import

    try:
        synset = wordnet().synset(synset_name)
    except (WordNetError, ValueError):
        raise LexiconError(
            f"{where}: {synset_name!r} is not a WordNet noun synset; name one of "
            f"{[s.name() for s in wordnet().synsets(noun, 'n')]}."
        ) from None
    if noun not in {lemma.name() for lemma in synset.lemmas()}:
        raise LexiconError(f"{where}: {noun!r} is not a lemma of {synset_name}; pick its sense.")
    return synset


def gender(noun: str, synset) -> str:
    """'male', 'female' or '' from the noun's form, else the first gendered word of its gloss;
    'a father or mother' and 'a man or woman' are neither."""
    if noun.endswith(("woman", "ess")):
        return "female"
    if noun.endswith("man"):
        return "male"
    words = re.findall(r"[a-z]+", synset.definition().lower().split(";")[0].split("(")[0])
    for index, word in enumerate(words):
        if word in _MALE or word in _FEMALE:
            if index + 2 < len(words) and words[index + 1] == "or":
                if words[index + 2] in _MALE | _FEMALE:
                    return ""
            return "male" if word in _MALE else "female"
    return ""


def ancestors(synset) -> list[str]:
    """The synset and all its hypernyms (instance hypernyms too), by name, sorted."""
    closure = synset.closure(lambda s: s.hypernyms() + s.instance_hypernyms())
    return sorted({synset.name(), *(s.name() for s in closure)})


def supersense(synset) -> str:
    return synset.lexname().split(".", 1)[1]


def load_nouns(path: str | Path | None = None) -> pa.Table:
    """``noun, synset, supersense, role, gender, ancestors`` for each listed noun."""
    path = Path(path) if path else data_path("rnpc_nouns.tsv", RNPC)
    rows, seen = [], set()
    for number, (noun, synset_name, role) in read_tsv(path, NOUN_COLUMNS, 2):
        where = f"{path.name}, line {number}"
        if role and role not in ROLES:
            raise LexiconError(f"{where}: unknown role {role!r}; use one of {', '.join(ROLES)}.")
        synset = sense(noun, synset_name, where)
        if supersense(synset) not in SUPERSENSES:
            raise LexiconError(
                f"{where}: {synset_name} is in {synset.lexname()}; nouns must be one of "
                f"{', '.join(SUPERSENSES)}."
            )
        if noun in seen:
            raise LexiconError(f"{where}: {noun!r} is listed twice; keep one sense per noun.")
        seen.add(noun)
        rows.append(
            {
                "noun": noun,
                "synset": synset.name(),
                "supersense": supersense(synset),
                "role": role,
                "gender": gender(noun, synset) if supersense(synset) == "person" else "",
                "ancestors": ancestors(synset),
            }
        )
    if not rows:
        raise LexiconError(f"{path.name} lists no nouns.")
    return pa.Table.from_pylist(rows)


def load_second_nouns(
    path: str | Path | None = None, default: str = "rnpc_second_nouns.tsv"
) -> pa.Table:
    """MPTE's N' (role nouns, or with ``default="rnpc_hypernyms.tsv"`` the hypernyms):
    ``supersense, noun, synset, gender, ancestors`` per row."""
    path = Path(path) if path else data_path(default, RNPC)
    rows = []
    for number, (group, noun, synset_name) in read_tsv(path, SECOND_NOUN_COLUMNS, 3):
        where = f"{path.name}, line {number}"
        if group not in SUPERSENSES:
            raise LexiconError(f"{where}: unknown supersense {group!r}; use one of {SUPERSENSES}.")
        synset = sense(noun.replace(" ", "_"), synset_name, where)  # health professional
        rows.append(
            {
                "supersense": group,
                "noun": noun,
                "synset": synset.name(),
                "gender": gender(noun, synset) if group == "person" else "",
                "ancestors": ancestors(synset),
            }
        )
    return pa.Table.from_pylist(rows)


def load_events(path: str | Path | None = None, nouns: pa.Table | None = None) -> pa.Table:
    """EPC's events: ``noun, event, rationale, stance``; every noun must be in ``nouns``, and
    a stance is ``in_keeping`` (the default), ``against`` or ``kept``."""
    path = Path(path) if path else data_path("rnpc_events.tsv", RNPC)
    known = set(nouns["noun"].to_pylist()) if nouns is not None else None
    rows = []
    for number, (noun, event, rationale, stance) in read_tsv(path, EVENT_COLUMNS, 2):
        where = f"{path.name}, line {number}"
        if known is not None and noun not in known:
            raise LexiconError(
                f"{where}: {noun!r} is not in the noun list; add it there or drop its event."
            )
        stance = stance or FILE_STANCES[0]
        if stance not in FILE_STANCES:
            raise LexiconError(f"{where}: unknown stance {stance!r}; use one of {FILE_STANCES}.")
        rows.append({"noun": noun, "event": event, "rationale": rationale, "stance": stance})
    return pa.Table.from_pylist(rows)
