"""Hypernym walks over WordNet (PLANE §3.2): first synset, unigram hypernyms, path distance."""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa

from compsem.resources.wordnet import wordnet

HYPERNYM_SCHEMA = pa.schema(
    [("noun", pa.string()), ("hypernym", pa.string()), ("distance", pa.int8())]
)


def first_noun_synset(noun: str):
    synsets = wordnet().synsets(noun, pos="n")
    return synsets[0] if synsets else None


def unigram_hypernyms(noun: str, max_distance: int) -> dict[str, int]:
    """Hypernym words of the noun's first synset within ``max_distance`` edges, at their shortest
    distance. Each synset is named by its first lemma; multi-word lemmas are dropped."""
    synset = first_noun_synset(noun)
    found: dict[str, int] = {}
    frontier, seen = [synset] if synset else [], set()
    for distance in range(1, max_distance + 1):
        frontier = [
            parent
            for child in frontier
            for parent in child.hypernyms() + child.instance_hypernyms()
            if parent not in seen
        ]
        seen.update(frontier)
        for parent in frontier:
            word = parent.lemmas()[0].name().lower()
            if word.isalpha() and word != noun:
                found.setdefault(word, distance)
    return found


def hypernym_table(nouns: Iterable[str], max_distance: int = 3) -> pa.Table:
    """For each noun with a noun synset: a row (noun, null, 0) saying so, then one row per
    (noun, hypernym word, distance); sorted."""
    rows = [
        row
        for noun in sorted(set(nouns))
        if first_noun_synset(noun) is not None
        for row in [
            (noun, None, 0),
            *((noun, word, d) for word, d in sorted(unigram_hypernyms(noun, max_distance).items())),
        ]
    ]
    return pa.Table.from_pylist(
        [dict(zip(HYPERNYM_SCHEMA.names, row, strict=True)) for row in rows], schema=HYPERNYM_SCHEMA
    )
