"""Split algorithms over integer-coded item tables.

Words (adjectives, nouns, hypernyms) share one code space, so "no word of test occurs in train
in any role" is one partition of that space. Every split then goes through
:func:`~compsem.builders.plane.splits.balancing.balance`, which
enforces what PLANE §3.2 and §6 promise of a split: labels balanced, inference types in equal
shares, and no noun or hypernym that carries a single label (a lexical cue); test splits also
keep only nouns seen with every adjective class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

SPLITS = ("train", "validation", "test")
UNASSIGNED = -1


@dataclass(frozen=True)
class ItemCodes:
    """Per-row integer codes. ``hypernym`` is -1 where a row has none (AN ⊨ N)."""

    adjective: np.ndarray
    noun: np.ndarray
    hypernym: np.ndarray
    adjective_class: np.ndarray
    inference_type: np.ndarray
    label: np.ndarray
    n_words: int

    @classmethod
    def from_table(cls, table: pa.Table, class_names: tuple[str, ...]) -> ItemCodes:
        words = (
            pa.concat_arrays(
                [table[name].combine_chunks() for name in ("adjective", "noun", "hypernym")]
            )
            .drop_null()
            .unique()
        )

        def code(name: str) -> np.ndarray:
            return pc.fill_null(pc.index_in(table[name], words), UNASSIGNED).to_numpy()

        return cls(
            adjective=code("adjective"),
            noun=code("noun"),
            hypernym=code("hypernym"),
            adjective_class=pc.index_in(table["adjective_class"], pa.array(class_names)).to_numpy(),
            inference_type=table["inference_type"].to_numpy(),
            label=table["label"].to_numpy(),
            n_words=len(words),
        )


def _cut(codes: np.ndarray, fractions: tuple[float, ...], rng: np.random.Generator) -> list:
    """Shuffle ``codes`` and cut them into consecutive parts of the given fractions."""
    shuffled = rng.permutation(codes)
    bounds = np.round(np.cumsum(fractions)[:-1] * len(shuffled)).astype(int)
    return np.split(shuffled, bounds)


def _deal(
    codes: np.ndarray, weights: np.ndarray, fractions: tuple[float, ...], rng: np.random.Generator
) -> np.ndarray:
    """Deal ``codes`` in random order, each to the side furthest below its share of the total
    weight so far, so every side gets its share of rows, not just of words."""
    sides = np.empty(len(codes), dtype=np.int64)
    dealt = np.zeros(len(fractions))
    shares = np.asarray(fractions)
    for index in rng.permutation(len(codes)):
        side = int(np.argmax(shares * (dealt.sum() + weights[index]) - dealt))
        sides[index] = side
        dealt[side] += weights[index]
    return sides


def vocabulary_sides(
    items: ItemCodes, fractions: tuple[float, ...], rng: np.random.Generator
) -> np.ndarray:
    """A side (index into ``fractions``) for every word, or -1 for words no split may use.

    Adjectives (per class, so every side sees every class) and then nouns are dealt to sides by
    their row counts (:func:`_deal`). A word that is only ever a hypernym joins the side whose
    rows it would keep most of, weighted by the side's share so small sides still get some."""
    side = np.full(items.n_words, UNASSIGNED)
    rows_per_word = np.bincount(items.noun, minlength=items.n_words) + np.bincount(
        items.adjective, minlength=items.n_words
    )
    for klass in np.unique(items.adjective_class):
        adjectives = np.unique(items.adjective[items.adjective_class == klass])
        side[adjectives] = _deal(adjectives, rows_per_word[adjectives], fractions, rng)
    nouns = np.unique(items.noun)
    nouns = nouns[side[nouns] == UNASSIGNED]
    side[nouns] = _deal(nouns, rows_per_word[nouns], fractions, rng)
    has_hypernym = items.hypernym >= 0
    row_side = np.where(
        side[items.adjective] == side[items.noun], side[items.adjective], UNASSIGNED
    )[has_hypernym]
    hypernyms = items.hypernym[has_hypernym]
    votes = np.stack(
        [
            np.bincount(hypernyms[row_side == index], minlength=items.n_words) / share
            for index, share in enumerate(fractions)
        ]
    )
    open_words = (side == UNASSIGNED) & (votes.max(axis=0) > 0)
    side[open_words] = votes.argmax(axis=0)[open_words]
    return side


def seen_with_every_class(items: ItemCodes) -> np.ndarray:
    """Per word: whether it is the noun of rows with adjectives of every class in the pool."""
    n_classes = int(items.adjective_class.max()) + 1
    seen = np.zeros((n_classes, items.n_words), dtype=bool)
    seen[items.adjective_class, items.noun] = True
    return seen.all(axis=0)


def nouns_with_every_class(items: ItemCodes, rows: np.ndarray) -> np.ndarray:
    """The ``rows`` whose noun occurs with adjectives of every class somewhere in the pool
    (PLANE §3.2's restriction on test items, against noun-adjective association cues)."""
    return rows[seen_with_every_class(items)[items.noun[rows]]]


def rows_within_sides(items: ItemCodes, side: np.ndarray) -> np.ndarray:
    """The side of each row whose words all lie on one side, else -1."""
    row_side = np.where(
        side[items.adjective] == side[items.noun], side[items.adjective], UNASSIGNED
    )
    has_hypernym = items.hypernym >= 0
    mixed = has_hypernym & (side[np.maximum(items.hypernym, 0)] != row_side)
    return np.where(mixed, UNASSIGNED, row_side)


def compound_sides(
    items: ItemCodes, fractions: tuple[float, ...], rng: np.random.Generator
) -> np.ndarray:
    """A side for each row such that every adjective-noun phrase lies on one side only."""
    phrase = items.adjective.astype(np.int64) * items.n_words + items.noun
    phrases, inverse = np.unique(phrase, return_inverse=True)
    phrase_side = np.empty(len(phrases), dtype=np.int64)
    for index, part in enumerate(_cut(np.arange(len(phrases)), fractions, rng)):
        phrase_side[part] = index
    return phrase_side[inverse]


def atoms_seen_in(items: ItemCodes, rows: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The ``rows`` whose adjective, noun and hypernym each occur in that role in ``reference``."""
    keep = np.ones(len(rows), dtype=bool)
    for role in (items.adjective, items.noun, items.hypernym):
        seen = np.zeros(items.n_words + 1, dtype=bool)
        seen[role[reference]] = True
        seen[UNASSIGNED] = True  # "no hypernym" is not an atom
        keep &= seen[role[rows]]
    return rows[keep]


def cue_free(
    nouns: np.ndarray, hypernyms: np.ndarray, labels: np.ndarray, keep: np.ndarray, n_words: int
) -> np.ndarray:
    """Of the rows where ``keep``, those left once rows are dropped until no noun or hypernym
    (-1: none) carries a single label among them (a lexical cue), as a mask over all rows."""
    keep = keep.copy()
    while True:
        bad = np.zeros(len(keep), dtype=bool)
        for role in (nouns, hypernyms):
            present = keep & (role >= 0)
            words, label = role[present], labels[present]
            total = np.bincount(words, minlength=n_words)
            positive = np.bincount(words, weights=label, minlength=n_words)
            one_label = (positive == 0) | (positive == total)
            bad |= present & one_label[np.maximum(role, 0)]
        if not bad.any():
            return keep
        keep &= ~bad
