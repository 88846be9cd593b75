"""Phrases whose words WordNet reads otherwise (PLANE Appendix A rules out multi-word expressions).

- **Non-compositional compounds.** WordNet lists some AN phrases as nouns of their own: a *blue
  chip* is a stock, not a chip, so "A blue chip is a chip" is no intersective entailment. A
  phrase WordNet has as a compound ``adjective_noun`` is dropped when that compound is no kind of
  its noun: under the rule ``first_sense`` when the compound's first (most frequent) sense neither
  is nor descends from (hypernyms and instance hypernyms) a sense of the noun; under
  ``any_sense`` when none of its senses does. "black bear" and "African country" stay.
- **Lemmas that change meaning.** The parser's lemma of a plural is not always the word used:
  "electronic means" → "mean", "raw data" → "datum", "many species" → "specie". An arc is
  dropped when its noun as written is a WordNet noun none of whose senses is a sense of the
  lemma, and SemCor tags it in those senses more often than the lemma in its first sense: the
  written word is then mostly a word of its own. Plurals with a rare sense of their own ("men",
  "years") stay.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.plane.corpus.extraction import an_pairs
from compsem.resources.wordnet import wordnet

# How a listed compound is judged; "keep" keeps every compound.
COMPOUND_RULES = ("first_sense", "any_sense", "keep")


def _is_kind_of(compound, senses: set) -> bool:
    """Whether the synset ``compound`` is, or descends from, one of ``senses``."""
    if compound in senses:
        return True
    return not senses.isdisjoint(
        compound.closure(lambda synset: synset.hypernyms() + synset.instance_hypernyms())
    )


def non_compositional(adjective: str, noun: str, rule: str = "first_sense") -> bool:
    """Whether WordNet lists ``adjective_noun`` as a compound that is no kind of ``noun``."""
    if rule == "keep":
        return False
    compounds = wordnet().synsets(f"{adjective}_{noun}", "n")
    if not compounds:
        return False
    senses = set(wordnet().synsets(noun, "n"))
    judged = compounds[:1] if rule == "first_sense" else compounds
    return not any(_is_kind_of(compound, senses) for compound in judged)


@cache
def changes_meaning(written: str, lemma: str) -> bool:
    """Whether the noun ``written`` is mostly a word of its own, not a form of ``lemma``: it is a
    WordNet noun none of whose senses is a sense of the lemma, and SemCor tags it in those senses
    more often than it tags the lemma in its first sense, the one PLANE's hypernyms come from
    ("means" → "mean", "data" → "datum", "species" → "specie"; not "men" → "man")."""
    if written == lemma:
        return False
    own = wordnet().lemmas(written, "n")
    senses = wordnet().synsets(lemma, "n")
    if not own or not {entry.synset() for entry in own}.isdisjoint(senses):
        return False
    first = (
        [entry for entry in senses[0].lemmas() if entry.name().lower() == lemma] if senses else []
    )
    return sum(entry.count() for entry in own) > sum(entry.count() for entry in first)


def meaning_changing_arcs(occurrences: pa.Table) -> pa.ChunkedArray:
    """A boolean mask of the occurrences (extraction's OCCURRENCE_SCHEMA) whose noun lemma
    changes the meaning of the noun as written; each distinct (noun, form) is judged once."""
    nouns, forms = occurrences["noun"], occurrences["noun_form"]
    differ = occurrences.filter(pc.not_equal(nouns, forms))
    distinct = differ.group_by(["noun", "noun_form"]).aggregate([])
    changed = [
        f"{noun}\x1f{form}"
        for noun, form in zip(
            distinct["noun"].to_pylist(), distinct["noun_form"].to_pylist(), strict=True
        )
        if changes_meaning(form, noun)
    ]
    keys = pc.binary_join_element_wise(nouns, forms, "\x1f")
    return pc.is_in(keys, value_set=pa.array(changed, pa.string()))


def non_compositional_pairs(pairs: pa.Table, adjectives, rule: str) -> pa.ChunkedArray:
    """A boolean mask of the AN pairs, among those whose adjective is in ``adjectives``, that
    WordNet lists as non-compositional compounds under ``rule``."""
    known = pc.is_in(pairs["adjective"], value_set=pa.array(sorted(adjectives), pa.string()))
    candidates = pairs.filter(known)
    dropped = [
        f"{adjective}_{noun}"
        for adjective, noun in zip(
            candidates["adjective"].to_pylist(), candidates["noun"].to_pylist(), strict=True
        )
        if non_compositional(adjective, noun, rule)
    ]
    keys = pc.binary_join_element_wise(pairs["adjective"], pairs["noun"], "_")
    return pc.is_in(keys, value_set=pa.array(dropped, pa.string()))


DROPPED_SCHEMA = pa.schema(
    [
        ("adjective", pa.string()),
        ("noun", pa.string()),
        ("noun_form", pa.string()),
        ("reason", pa.string()),
        ("count", pa.int64()),
    ]
)
NON_COMPOSITIONAL = "non_compositional_compound"
MEANING_CHANGING = "meaning_changing_lemma"


def filter_phrases(
    occurrences: pa.Table, adjectives, rule: str, lemma_guard: bool
) -> tuple[pa.Table, pa.Table]:
    """The AN pairs of ``occurrences`` (AN_PAIR_SCHEMA, PMI over the arcs kept) without the
    phrases WordNet reads otherwise, and the phrases of ``adjectives`` that were dropped
    (DROPPED_SCHEMA, one row per phrase and reason)."""
    if lemma_guard:
        changed = meaning_changing_arcs(occurrences)
    else:
        changed = pa.array(np.zeros(len(occurrences), bool))
    pairs = an_pairs(occurrences.filter(pc.invert(changed)))
    compound = non_compositional_pairs(pairs, adjectives, rule)
    known = pa.array(sorted(adjectives), pa.string())
    lost = occurrences.filter(changed)
    lost = lost.filter(pc.is_in(lost["adjective"], value_set=known))
    lost = lost.group_by(["adjective", "noun", "noun_form"]).aggregate([("count", "sum")])
    compounds = pairs.filter(compound)
    dropped = [
        _dropped(lost, lost["noun_form"], MEANING_CHANGING, lost["count_sum"]),
        _dropped(
            compounds,
            pa.nulls(len(compounds), pa.string()),
            NON_COMPOSITIONAL,
            compounds["count"],
        ),
    ]
    report = pa.concat_tables(dropped).sort_by(
        [
            ("reason", "ascending"),
            ("count", "descending"),
            ("adjective", "ascending"),
            ("noun", "ascending"),
            ("noun_form", "ascending"),
        ]
    )
    return pairs.filter(pc.invert(compound)), report


def _dropped(phrases: pa.Table, noun_form, reason: str, count) -> pa.Table:
    """DROPPED_SCHEMA rows: ``phrases``' adjective and noun, dropped for ``reason``."""
    return pa.table(
        {
            "adjective": phrases["adjective"],
            "noun": phrases["noun"],
            "noun_form": noun_form,
            "reason": pa.array([reason] * len(phrases), pa.string()),
            "count": count,
        }
    ).cast(DROPPED_SCHEMA)


def dropped_summary(dropped: pa.Table, examples: int = 8) -> dict:
    """Per reason: distinct phrases and arcs dropped, and the most frequent examples."""
    summary = {}
    for reason in (NON_COMPOSITIONAL, MEANING_CHANGING):
        rows = dropped.filter(pc.equal(dropped["reason"], reason)).to_pylist()
        summary[reason] = {
            "phrases": len({(row["adjective"], row["noun"]) for row in rows}),
            "arcs": sum(row["count"] for row in rows),
            "examples": [
                f"{row['adjective']} {row['noun_form'] or row['noun']}"
                + (f" → {row['noun']}" if row["noun_form"] else "")
                for row in rows[:examples]
            ],
        }
    return summary
