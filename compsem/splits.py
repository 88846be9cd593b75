"""Split algorithms over integer-coded item tables.

Words (adjectives, nouns, hypernyms) share one code space, so "no word of test occurs in train
in any role" is one partition of that space. Every split then goes through :func:`balance`, which
enforces what PLANE §3.2 and §6 promise of a split: labels balanced, inference types in equal
shares, no noun or hypernym that carries a single label (a lexical cue), and, for test splits,
only nouns seen with every adjective class.
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


def vocabulary_sides(
    items: ItemCodes, fractions: tuple[float, ...], rng: np.random.Generator
) -> np.ndarray:
    """A side (index into ``fractions``) for every word, or -1 for words no split may use.

    Adjectives are cut per class, so each side sees every class; nouns are cut at random;
    a word that is only ever a hypernym joins the side whose rows it would keep most of,
    weighted by the side's share (so small splits still get hypernyms)."""
    side = np.full(items.n_words, UNASSIGNED)
    for klass in np.unique(items.adjective_class):
        adjectives = np.unique(items.adjective[items.adjective_class == klass])
        for index, part in enumerate(_cut(adjectives, fractions, rng)):
            side[part] = index
    nouns = np.unique(items.noun)
    for index, part in enumerate(_cut(nouns[side[nouns] == UNASSIGNED], fractions, rng)):
        side[part] = index
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


def _cue_free(items: ItemCodes, rows: np.ndarray, every_class_per_noun: bool) -> np.ndarray:
    """Drop rows until no noun or hypernym carries a single label (and, if asked, every noun
    occurs with every adjective class)."""
    n_classes = int(items.adjective_class.max()) + 1 if len(items.label) else 0
    while True:
        bad = np.zeros(len(rows), dtype=bool)
        label = items.label[rows]
        for role in (items.noun[rows], items.hypernym[rows]):
            present = role >= 0
            total = np.bincount(role[present], minlength=items.n_words)
            positive = np.bincount(role[present], weights=label[present], minlength=items.n_words)
            one_label = (positive == 0) | (positive == total)
            bad |= present & one_label[np.maximum(role, 0)]
        if every_class_per_noun:
            noun, klass = items.noun[rows], items.adjective_class[rows]
            classes_seen = np.zeros((n_classes, items.n_words), dtype=bool)
            classes_seen[klass, noun] = True
            bad |= ~classes_seen.all(axis=0)[noun]
        if not bad.any():
            return rows
        rows = rows[~bad]


def apportion(total: int, capacities: np.ndarray) -> np.ndarray:
    """Split ``total`` (≤ sum of capacities) proportionally to ``capacities``, largest remainder."""
    capacities = np.asarray(capacities, dtype=np.int64)
    if total <= 0 or capacities.sum() == 0:
        return np.zeros_like(capacities)
    exact = total * capacities / capacities.sum()
    counts = np.floor(exact).astype(np.int64)
    for index in np.argsort(-(exact - counts), kind="stable")[: total - counts.sum()]:
        counts[index] += 1
    return np.minimum(counts, capacities)


def _quota_sample(
    items: ItemCodes,
    rows: np.ndarray,
    inference_types: tuple[int, ...],
    rng: np.random.Generator,
) -> np.ndarray:
    """The largest subsample with equal rows per inference type and half of them entailments.

    Labels are a function of (inference type, adjective class) (PLANE Table 1), so each such
    cell is sampled as a whole; negatives are spread over inference types by their slack."""
    it, klass, label = (
        items.inference_type[rows],
        items.adjective_class[rows],
        items.label[rows],
    )
    available = {
        (t, value): np.flatnonzero((it == t) & (label == value))
        for t in inference_types
        for value in (0, 1)
    }
    positives = np.array([len(available[t, 1]) for t in inference_types])
    negatives = np.array([len(available[t, 0]) for t in inference_types])

    def bounds(per_type: int) -> tuple[np.ndarray, np.ndarray, int]:
        low = np.maximum(0, per_type - positives)
        high = np.minimum(per_type, negatives)
        return low, high, per_type * len(inference_types) // 2

    def feasible(per_type: int) -> bool:
        low, high, wanted = bounds(per_type)
        return bool((low <= high).all() and low.sum() <= wanted <= high.sum())

    lo, hi = 0, int((positives + negatives).min())
    while lo < hi:
        middle = (lo + hi + 1) // 2
        lo, hi = (middle, hi) if feasible(middle) else (lo, middle - 1)
    low, high, wanted = bounds(lo)
    negative_counts = low + apportion(wanted - int(low.sum()), high - low)
    chosen = []
    for t, n_negative in zip(inference_types, negative_counts, strict=True):
        for value, count in ((0, n_negative), (1, lo - n_negative)):
            cell_rows = available[t, value]
            cells = np.unique(klass[cell_rows])
            sizes = np.array([(klass[cell_rows] == c).sum() for c in cells])
            for c, n in zip(cells, apportion(int(count), sizes), strict=True):
                members = cell_rows[klass[cell_rows] == c]
                chosen.append(rng.choice(members, size=int(n), replace=False))
    return np.sort(rows[np.concatenate(chosen)]) if chosen else rows[:0]


def balance(
    items: ItemCodes,
    rows: np.ndarray,
    inference_types: tuple[int, ...],
    rng: np.random.Generator,
    every_class_per_noun: bool = False,
) -> np.ndarray:
    """Subsample ``rows`` until labels are balanced, inference types are in equal shares and no
    noun or hypernym is a lexical cue. Each round only removes rows, so the loop ends."""
    rows = _cue_free(items, np.sort(rows), every_class_per_noun)
    while True:
        rows = _quota_sample(items, rows, inference_types, rng)
        kept = _cue_free(items, rows, every_class_per_noun)
        if len(kept) == len(rows):
            return rows
        rows = kept
