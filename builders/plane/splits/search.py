"""The local search behind PLANE's vocabulary partition (:mod:`~compsem.builders.plane.splits.partition`):
the items as hyperedges over their words, what moving each word to another side would change in
the sides' counts (one ``numpy.bincount`` round scores every move at once), and
:func:`optimise_sides`, which applies the best moves (halving their number while a batch does
not pay, doubling it while it does) until no move pays or the round budget is spent."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from compsem.builders.plane.splits.balancing import balanced_rows
from compsem.builders.plane.splits.vocabulary import cue_free

# Worth of one raw kept row beside a balanced one: lets the search cross plateaus where the
# balanced count does not move (a row of a non-binding cell may pay later).
_RAW_WEIGHT = 0.01


# Rounds of moves: a bound on time that, unlike a clock, keeps the splits reproducible. A pool
# gets ROW_ROUNDS / rows rounds (a round over three sides costs about a microsecond per row on
# a loaded machine; 25 rounds on a 2M-item pool).
ROW_ROUNDS = 50_000_000


MIN_ROUNDS = 20


MAX_ROUNDS = 400


# Single moves tried, best ranked first, before a round of the cue-aware search gives up: its
# ranking sees cue removal to first order only, so the best ranked move may not pay.
PATIENCE = 8


@dataclass(frozen=True)
class Hyperedges:
    """The items as hyperedges: ``words`` (rows × 3: adjective, noun, hypernym, all distinct;
    -1 where a row has no hypernym), each row's ``cell`` (inference type index × 2 + label) and
    whether the row may count on a side that keeps only nouns seen with every class
    (``testable``; ``restricted``: a flag per side, train first, test last)."""

    words: np.ndarray
    cell: np.ndarray
    testable: np.ndarray
    n_words: int
    n_types: int
    min_label_share: float = 0.0
    restricted: tuple[bool, ...] = (False, True)

    @property
    def n_sides(self) -> int:
        return len(self.restricted)

    @property
    def n_cells(self) -> int:
        return 2 * self.n_types


@dataclass
class Partition:
    """A side per word (0 train, then the held-out sides) and the rows each side keeps."""

    side: np.ndarray
    counts: np.ndarray  # (sides, types, 2): kept rows per side, inference type and label
    score: float
    rounds: int = 0
    seconds: float = 0.0
    min_label_share: float = 0.0

    @property
    def balanced(self) -> np.ndarray:
        return balanced_rows(self.counts, self.min_label_share)


def _side_rows(counts: np.ndarray, n_types: int, min_label_share: float) -> np.ndarray:
    """Balanced rows of cell counts ``(..., cells)``."""
    return balanced_rows(counts.reshape(*counts.shape[:-1], n_types, 2), min_label_share)


def _worth(balanced: np.ndarray, raw: np.ndarray, shares: tuple[float, ...]) -> np.ndarray:
    """The objective of sides with these balanced rows (``(sides, ...)``) and raw kept rows:
    their total, less what each side lacks of its share of it (counted at the full price of the
    rows it stands for, so a partition with everything on one side is worth nothing), plus a
    little for every raw kept row."""
    total = balanced.sum(axis=0)
    lacking = sum(
        np.maximum(0, share * total - rows) / share
        for rows, share in zip(balanced, shares, strict=True)
    )
    return total - lacking + _RAW_WEIGHT * raw


def _score(
    counts: np.ndarray, n_types: int, shares: tuple[float, ...], min_label_share: float = 0.0
):
    """:func:`_worth` of sides with these cell counts (``(sides, ..., cells)``)."""
    balanced = _side_rows(counts, n_types, min_label_share)
    return _worth(balanced, counts.sum(axis=(0, -1)), shares)


class Moves:
    """Per-word effects of moving each word to another side, from the items' current sides."""

    def __init__(self, edges: Hyperedges, cues: bool = True):
        self.edges, self.cues = edges, cues
        self.adjective, self.noun = edges.words[:, 0].copy(), edges.words[:, 1].copy()
        self.has_hypernym = edges.words[:, 2] >= 0
        self.hypernym = np.where(self.has_hypernym, edges.words[:, 2], 0)
        # The cell a row counts in on train and on a held-out side (the last: counts nowhere).
        self.nowhere = edges.n_cells
        self.held_out_cell = np.where(edges.testable, edges.cell, self.nowhere)
        self.restricted = np.array(edges.restricted)
        self.label = edges.cell % 2
        self.cue_hypernym = edges.words[:, 2]

    def _cell_on(self, side: int) -> np.ndarray:
        return self.held_out_cell if self.edges.restricted[side] else self.edges.cell

    def evaluate(self, side: np.ndarray):
        """Kept counts per side (sides, cells), per word the cells it would take from its side
        (``loss``, words × cells) if it alone moved, and per side the cells it would give that
        side (``gain``, sides × words × cells; nothing for its own side).

        A row counts as the build keeps it: all its words on one side, testable there if the
        side is restricted, and left once rows are dropped until no noun or hypernym carries a
        single label (:func:`~compsem.builders.plane.splits.vocabulary.cue_free`, what the build does
        before balancing). ``loss`` and ``gain`` see that only to first order: a row joining a
        side counts if its noun and hypernym would carry both labels there."""
        edges, width = self.edges, self.edges.n_cells + 1
        side = side.astype(np.int8)  # a narrow type: every comparison below is over all rows
        adjective, noun, hypernym, eligible, counting, cell = self._kept(side)
        counts = self._counts(adjective, counting, cell)
        loss = np.zeros(edges.n_words * width, dtype=np.int64)
        gain = np.zeros((edges.n_sides, edges.n_words * width), dtype=np.int64)

        def add(total: np.ndarray, words: np.ndarray, cells: np.ndarray, rows: np.ndarray):
            rows = np.flatnonzero(rows)
            total += np.bincount(words[rows] * width + cells[rows], minlength=len(total))

        # A counted row is lost to its side if any of its words leaves.
        for words, rows in (
            (self.adjective, counting),
            (self.noun, counting),
            (self.hypernym, counting & self.has_hypernym),
        ):
            add(loss, words, cell, rows)
        # Which labels each noun and hypernym carries among the rows its side keeps.
        other_label = self._other_label_seen(eligible)
        if not self.cues:
            other_label[:] = True
        for target in range(edges.n_sides):
            # Rows whose other words all lie on the target side are kept there if one moves.
            on_adjective, on_noun = adjective == target, noun == target
            on_hypernym = hypernym == target
            hypernym_fits = on_hypernym | ~self.has_hypernym
            cells = self._cell_on(target)
            fits = cells < self.nowhere
            joining = fits & on_noun & hypernym_fits & ~on_adjective
            add(gain[target], self.adjective, cells, joining & other_label.all(axis=0))
            joining = fits & on_adjective & hypernym_fits & ~on_noun
            add(gain[target], self.noun, cells, self._both_labels(joining, 0, other_label))
            joining = fits & on_adjective & on_noun & self.has_hypernym & ~on_hypernym
            add(gain[target], self.hypernym, cells, self._both_labels(joining, 1, other_label))
        shape = (edges.n_words, width)
        return counts, loss.reshape(shape)[:, :-1], gain.reshape(edges.n_sides, *shape)[..., :-1]

    def _kept(self, side: np.ndarray) -> tuple:
        """Per row: the sides of its adjective, noun and hypernym (-1: none), whether a side
        keeps it (``eligible``) and counts it (``counting``: eligible and no cue), and the cell
        it counts in (:attr:`nowhere` where it does not)."""
        adjective, noun = side[self.adjective], side[self.noun]
        hypernym = np.where(self.has_hypernym, side[self.hypernym], -1)
        kept = (adjective == noun) & ((hypernym == adjective) | ~self.has_hypernym)
        restricted = self.restricted[adjective]
        cell = np.where(
            kept, np.where(restricted, self.held_out_cell, self.edges.cell), self.nowhere
        )
        eligible = cell < self.nowhere
        counting = eligible
        if self.cues:
            counting = cue_free(
                self.noun, self.cue_hypernym, self.label, eligible, self.edges.n_words
            )
        return adjective, noun, hypernym, eligible, counting, np.where(counting, cell, self.nowhere)

    def _counts(self, adjective: np.ndarray, counting: np.ndarray, cell: np.ndarray):
        width = self.edges.n_cells + 1
        return np.bincount(
            np.where(counting, adjective, 0).astype(np.int64) * width + cell,
            minlength=self.edges.n_sides * width,
        ).reshape(self.edges.n_sides, width)[:, :-1]

    def counts(self, side: np.ndarray) -> np.ndarray:
        """Counted rows per side and cell (sides, cells): :meth:`evaluate`'s first part."""
        adjective, _, _, _, counting, cell = self._kept(side.astype(np.int8))
        return self._counts(adjective, counting, cell)

    def _other_label_seen(self, rows: np.ndarray) -> np.ndarray:
        """Per row, whether its noun (first) and its hypernym (second; true where it has
        none) occur in ``rows`` with the other label than the row's."""
        seen = []
        for role in (self.noun, self.cue_hypernym):
            present = rows & (role >= 0)
            has = np.zeros((2, self.edges.n_words + 1), dtype=bool)  # index -1: no word
            has[self.label[present], role[present]] = True
            has[:, -1] = True
            seen.append(has[1 - self.label, role])
        return np.stack(seen)

    def _both_labels(self, joining: np.ndarray, role: int, other_label: np.ndarray):
        """The ``joining`` rows that keep their other word's label pair, and whose moving word
        (the noun if ``role`` is 0, the hypernym if 1) joins with rows of both labels."""
        rows = joining & other_label[1 - role]
        if not self.cues:
            return rows
        words = (self.noun, self.hypernym)[role]
        total = np.bincount(words[rows], minlength=self.edges.n_words)
        positive = np.bincount(words[rows], weights=self.label[rows], minlength=self.edges.n_words)
        return rows & ((positive > 0) & (positive < total))[words]


def _best_moves(edges: Hyperedges, side, counts, loss, gain, shares) -> tuple:
    """Per word, the side it gains most by moving to and that gain of :func:`_score`."""
    n_types, floor = edges.n_types, edges.min_label_share
    balanced = _side_rows(counts, n_types, floor)
    raw = counts.sum()
    current = _worth(balanced[:, None], np.array([raw]), shares)[0]
    left = _side_rows(counts[side] - loss, n_types, floor)  # own side, the word gone
    joined = _side_rows(counts[:, None] + gain, n_types, floor)  # (sides, words)
    sides = np.arange(edges.n_sides)[:, None]
    delta = np.full((edges.n_sides, edges.n_words), -np.inf)
    for target in range(edges.n_sides):
        after = np.where(
            sides == side, left, np.where(sides == target, joined[target], balanced[:, None])
        )
        worth = _worth(after, raw - loss.sum(axis=1) + gain[target].sum(axis=1), shares)
        delta[target] = np.where(side == target, -np.inf, worth - current)
    target = delta.argmax(axis=0)
    return target, delta[target, np.arange(edges.n_words)]


def optimise_sides(
    edges: Hyperedges,
    side: np.ndarray,
    shares: tuple[float, ...],
    max_rounds: int = MAX_ROUNDS,
    cues: bool = True,
) -> Partition:
    """Improve the partition ``side`` (a side per word, sides' aimed shares of the balanced rows
    ``shares``) by local search: each round moves the words whose move raises :func:`_score`
    most, each to its best other side."""
    start = time.perf_counter()
    moves = Moves(edges, cues)
    side = side.copy()
    batch, rounds = 1, 0
    floor = edges.min_label_share
    counts, loss, gain = moves.evaluate(side)
    current = float(_score(counts, edges.n_types, shares, floor))
    while rounds < max_rounds:
        rounds += 1
        target, delta = _best_moves(edges, side, counts, loss, gain, shares)
        candidates = np.flatnonzero(delta > 1e-9)
        best = candidates[np.argsort(-delta[candidates], kind="stable")]
        paid, tries = False, 0
        while len(best) and tries < PATIENCE:
            chosen = best[:batch]
            before = side[chosen]
            side[chosen] = target[chosen]
            score = float(_score(moves.counts(side), edges.n_types, shares, floor))
            if score > current + 1e-9:
                paid = True
                break
            side[chosen] = before
            if len(chosen) > 1:
                batch = max(1, batch // 2)
            else:  # ranked to first order only, a single move may not pay where the next does
                best, tries = best[1:], tries + 1
        if not paid:
            break
        counts, loss, gain = moves.evaluate(side)
        current = score
        if len(chosen) == batch:
            batch *= 2
    counts = counts.reshape(edges.n_sides, edges.n_types, 2)
    seconds = time.perf_counter() - start
    return Partition(side, counts, current, rounds, seconds, edges.min_label_share)
