"""Balancing PLANE's splits: equal rows per inference type with half of them entailments
(:func:`balanced_rows`, :func:`balanced_per_type`), and drawing them (:func:`balance`) so that the
rows kept hold each word's partners."""

from __future__ import annotations

import functools

import numpy as np

from compsem.benchmark.sampling import apportion
from compsem.builders.plane.splits.vocabulary import ItemCodes, cue_free


def _pick(
    items: ItemCodes, cells: list[tuple[np.ndarray, int]], rng: np.random.Generator
) -> np.ndarray:
    """Take ``count`` rows of each cell: cells taken whole first, then entailment cells, then
    the rest, the fullest first. Within a cell, rows whose noun
    and hypernym already carry the other label among the rows taken so far come first (random
    among equals), so a kept row seldom leaves a word with a single label: the subsective IT2
    row of a triplet follows its IT3 twin, which shares noun and hypernym. Among rows that
    score alike, a word's first rows come before its second ones, so the rows taken cover as
    many words as they can."""
    has_label = np.zeros((2, items.n_words + 1), dtype=bool)  # [label, word]; index -1: none
    taken = []

    def order(cell: tuple[np.ndarray, int]) -> tuple:
        members, count = cell
        whole = count >= len(members)
        label = items.label[members[0]] if len(members) else 0
        return (not whole, -label, -count / max(len(members), 1))

    for members, count in sorted(cells, key=order):
        members = rng.permutation(members)
        label = items.label[members]
        # A word counts once if it already carries the other label (or is absent) and once
        # more if it carries only the other label, so this row is what saves its rows.
        score = sum(
            (has_label[1 - label, role[members]] | (role[members] < 0)).astype(np.int64)
            + (has_label[1 - label, role[members]] & ~has_label[label, role[members]])
            for role in (items.noun, items.hypernym)
        )
        spread = sum(_occurrence(role[members]) for role in (items.noun, items.hypernym))
        chosen = members[np.lexsort((spread, -score))[:count]]
        for role in (items.noun, items.hypernym):
            has_label[items.label[chosen], role[chosen]] = True
        taken.append(chosen)
    return np.concatenate(taken) if taken else np.array([], dtype=np.int64)


def cue_free_rows(items: ItemCodes, rows: np.ndarray) -> np.ndarray:
    """Drop rows until no noun or hypernym carries a single label (a lexical cue)."""
    every = np.ones(len(rows), dtype=bool)
    noun, hypernym, label = items.noun[rows], items.hypernym[rows], items.label[rows]
    return rows[cue_free(noun, hypernym, label, every, items.n_words)]


def _occurrence(values: np.ndarray) -> np.ndarray:
    """For each entry, how many equal entries precede it (0 for a value's first)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    first = np.repeat(starts, np.diff(np.r_[starts, len(values)]))
    occurrence = np.empty(len(values), dtype=np.int64)
    occurrence[order] = np.arange(len(values)) - first
    return occurrence


def label_bounds(
    per_type: np.ndarray,
    negatives: np.ndarray,
    positives: np.ndarray,
    min_label_share: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """The fewest and most negatives each inference type can take when it has ``per_type`` rows
    (``(...)``), given the negatives and positives it has (``(..., types)``) and the least share
    of its rows each label must have."""
    k = np.asarray(per_type)[..., None]
    least = np.ceil(min_label_share * k - 1e-9).astype(np.int64)
    fewest = np.maximum(np.maximum(0, k - positives), least)
    most = np.minimum(np.minimum(k, negatives), k - least)
    return fewest, most


class _Feasibility:
    """Whether ``per_type`` rows per inference type can hold half entailments, for arrays
    ``(..., types)`` of negatives and positives: :func:`label_bounds`'s fewest and most
    negatives per type must meet and bracket half the rows. Asked a dozen times per array by
    :func:`balanced_per_type`'s search, which the partition search calls tens of thousands of
    times (it took half of the tests' PLANE build's split time when it rebuilt
    :func:`label_bounds`' arrays at every step), so what does not depend on ``per_type`` is
    worked out once, and the per-type test folds into three bounds."""

    def __init__(self, negatives: np.ndarray, positives: np.ndarray, min_label_share: float):
        # an array per type (copied whole): numpy sums over a short last axis slowly
        self.negatives = [negatives[..., t].copy() for t in range(negatives.shape[-1])]
        self.positives = [positives[..., t].copy() for t in range(positives.shape[-1])]
        self.share = min_label_share
        # fewest <= most for every type: k <= n + p, least <= min(n, p) and 2 least <= k
        pairs = list(zip(self.negatives, self.positives, strict=True))
        self.rows = functools.reduce(np.minimum, [n + p for n, p in pairs])
        self.scarcer = functools.reduce(np.minimum, [np.minimum(n, p) for n, p in pairs])

    def __call__(self, per_type: np.ndarray) -> np.ndarray:
        k = np.asarray(per_type)
        least = np.ceil(self.share * k - 1e-9).astype(np.int64)  # as label_bounds rounds it
        # fewest = max(0, k - p, least) and most = min(k, n, k - least): least >= 0 makes the
        # 0 and the k redundant
        fewest = sum(np.maximum(k - positives, least) for positives in self.positives)
        most = sum(np.minimum(negatives, k - least) for negatives in self.negatives)
        total = k * len(self.negatives)
        return (
            (k <= self.rows)
            & (least <= self.scarcer)
            & (2 * least <= k)
            & (2 * fewest <= total)
            & (total <= 2 * most)
        )


def balanced_per_type(
    negatives: np.ndarray, positives: np.ndarray, min_label_share: float = 0.0
) -> np.ndarray:
    """The largest even number of rows per inference type such that every inference type has
    that many rows, each label at least ``min_label_share`` of them, and half of all rows are
    entailments, for arrays ``(..., types)`` of the negatives and positives available per
    inference type (as :func:`balance` takes them)."""
    negatives = np.asarray(negatives, dtype=np.int64)
    positives = np.asarray(positives, dtype=np.int64)
    feasible = _Feasibility(negatives, positives, min_label_share)

    # Search over halves: an even count per type splits the labels exactly in half.
    low = np.zeros(negatives.shape[:-1], dtype=np.int64)
    high = feasible.rows // 2
    while (low < high).any():
        middle = (low + high + 1) // 2
        ok = feasible(2 * middle)
        low, high = np.where(ok, middle, low), np.where(ok, high, middle - 1)
    return 2 * low


def balanced_rows(counts: np.ndarray, min_label_share: float = 0.0) -> np.ndarray:
    """Rows in the largest balanced subset, for counts ``(..., types, 2)`` by (inference type,
    label): equal rows per inference type, labels 50/50, each label at least
    ``min_label_share`` of each inference type."""
    counts = np.asarray(counts)
    per_type = balanced_per_type(counts[..., 0], counts[..., 1], min_label_share)
    return per_type * counts.shape[-2]


def _quota_sample(
    items: ItemCodes,
    rows: np.ndarray,
    inference_types: tuple[int, ...],
    rng: np.random.Generator,
    min_label_share: float = 0.0,
) -> np.ndarray:
    """The largest subsample with equal rows per inference type, half of them entailments, and
    each label at least ``min_label_share`` of each inference type.

    Negatives are spread over inference types by their slack. Each (inference type, label)
    cell's rows are then picked by :func:`_pick` across adjective classes, not in proportion
    to them: the rows that keep a noun or hypernym from carrying a single label (often an
    intensional IT3 entailment, the only positive of a noun seen only with intensional
    adjectives) come first."""
    it, label = items.inference_type[rows], items.label[rows]
    available = {
        (t, value): np.flatnonzero((it == t) & (label == value))
        for t in inference_types
        for value in (0, 1)
    }
    positives = np.array([len(available[t, 1]) for t in inference_types])
    negatives = np.array([len(available[t, 0]) for t in inference_types])
    per_type = int(balanced_per_type(negatives, positives, min_label_share))
    low, high = label_bounds(per_type, negatives, positives, min_label_share)
    wanted = per_type * len(inference_types) // 2
    negative_counts = low + apportion(wanted - int(low.sum()), high - low)
    cells = []
    for t, n_negative in zip(inference_types, negative_counts, strict=True):
        for value, count in ((0, n_negative), (1, per_type - n_negative)):
            cells.append((rows[available[t, value]], int(count)))
    return np.sort(_pick(items, cells, rng))


def _swap_in_partners(
    items: ItemCodes, sample: np.ndarray, rows: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """``sample`` (a balanced subsample of ``rows``) with rows swapped so that fewer nouns and
    hypernyms carry a single label in it: for each such word, a row of ``rows`` holding it with
    the label it lacks takes the place of a sampled row of the same (inference type, label)
    cell that no word needs (its noun and hypernym keep that label without it). Cell counts,
    hence the balance, stay as they are; without this, the cue removal after sampling drops
    every row of such a word, and the next round's quotas shrink with it (on the embedded
    corpus's GOoD train, a sixth of the rows: the scarce intensional negatives of nouns whose
    positives were not sampled)."""
    roles = (items.noun, items.hypernym)
    cell = items.inference_type.astype(np.int64) * 2 + items.label
    count = np.zeros((2, 2, items.n_words + 1), dtype=np.int64)  # role, label, word (-1: none)
    for index, role in enumerate(roles):
        np.add.at(count[index], (items.label[sample], role[sample]), 1)
    chosen, spare = set(sample.tolist()), np.setdiff1d(rows, sample)
    # Each cell's sampled rows in random order, scanned once: a row found needed stays.
    members = {c: rng.permutation(sample[cell[sample] == c]).tolist() for c in np.unique(cell)}
    scanned = dict.fromkeys(members, 0)

    def needless(row: int, label: int) -> bool:
        return all(role[row] < 0 or count[k, label, role[row]] >= 2 for k, role in enumerate(roles))

    def swap_out(row: int, label: int) -> int | None:
        """A needless row of ``row``'s cell, replaced there by ``row``."""
        c, rows_of_cell = int(cell[row]), members[int(cell[row])]
        while scanned[c] < len(rows_of_cell):
            position, scanned[c] = scanned[c], scanned[c] + 1
            if needless(rows_of_cell[position], label):
                out, rows_of_cell[position] = rows_of_cell[position], row
                return out
        return None

    for index, role in enumerate(roles):
        by_word = spare[np.argsort(role[spare], kind="stable")]
        words = role[by_word]
        for word in rng.permutation(np.flatnonzero((count[index] > 0).sum(axis=0)[:-1] == 1)):
            lacking = int(count[index, 1, word] == 0)  # the label the word lacks
            if count[index, lacking, word]:  # given by an earlier swap
                continue
            low, high = np.searchsorted(words, (word, word + 1))
            options = by_word[low:high]
            for row in rng.permutation(options[items.label[options] == lacking]).tolist():
                partner = roles[1 - index][row]
                if row in chosen or (partner >= 0 and not count[1 - index, 1 - lacking, partner]):
                    continue  # the row would leave its other word with a single label
                out = swap_out(row, lacking)
                if out is None:
                    break
                chosen.symmetric_difference_update((out, row))
                for k, r in enumerate(roles):
                    count[k, lacking, r[out]] -= 1
                    count[k, lacking, r[row]] += 1
                break
    return np.sort(np.fromiter(chosen, dtype=np.int64, count=len(chosen)))


def balance(
    items: ItemCodes,
    rows: np.ndarray,
    inference_types: tuple[int, ...],
    rng: np.random.Generator,
    min_label_share: float = 0.0,
) -> np.ndarray:
    """Subsample ``rows`` until labels are balanced (each at least ``min_label_share`` of each
    inference type), inference types are in equal shares and no noun or hypernym is a lexical
    cue (:func:`_swap_in_partners` first rescues what it can). Each round only removes rows,
    so the loop ends."""
    rows = cue_free_rows(items, np.sort(rows))
    while True:
        sample = _quota_sample(items, rows, inference_types, rng, min_label_share)
        sample = _swap_in_partners(items, sample, rows, rng)
        kept = cue_free_rows(items, sample)
        if len(kept) == len(sample):
            return sample
        rows = kept
