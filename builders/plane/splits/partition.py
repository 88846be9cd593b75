"""The vocabulary partition of PLANE's GOoD and One-IT splits, optimised for balanced rows.

Every word (adjective, noun or hypernym) goes to one side: train, validation or test. An item is
kept in a split only if its adjective, noun and hypernym all fall on that split's side (a
hypergraph partition: each item is a hyperedge over its words), so no word is shared between any
two splits in any role. What a side is worth is not how many items it keeps but how many survive
the build: rows whose noun or hypernym carries a single label on the side are dropped (lexical
cues, until none is left), then balancing keeps equal rows per inference type and half of them
entailments (:func:`balanced_rows`).
Intensional rows are the only negatives of IT1 and IT2, so they bind; the worth of a side is a
function of its six (inference type, label) counts, and the optimiser moves words to raise the
worth of all sides together, each near its share.

:func:`optimise_sides` is a local search over single-word moves from a seeded random deal. One
round computes, with ``numpy.bincount`` over the items, what moving each word to each other side
would change in the sides' counts, scores every move at once, and applies the best moves
(halving their number while a batch does not pay, doubling it while it does), until no move
pays or the round budget is spent. Single-word moves cannot carry a group of linked words from
one held-out side to the other, so a three-way search from a random deal stops far below what
the pool allows; :func:`partition_vocabulary` therefore cuts in two steps (:func:`_bisect`:
train against the held-out sides together, then the held-out rows into validation and test,
then a search over all three sides from there), from several seeded starts on pools small
enough to afford them, and keeps the best. These searches count rows before cue removal, where
single-word moves are scored exactly; a last search counts what cue removal leaves, ranking
moves by their effect to first order and keeping only those the exact count pays for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from compsem.builders.plane.splits.vocabulary import (
    UNASSIGNED,
    ItemCodes,
    balanced_rows,
    cue_free,
    seen_with_every_class,
    vocabulary_sides,
)

# Worth of one raw kept row beside a balanced one: lets the search cross plateaus where the
# balanced count does not move (a row of a non-binding cell may pay later).
_RAW_WEIGHT = 0.01
# Rounds of moves: a bound on time that, unlike a clock, keeps the splits reproducible. A pool
# gets ROW_ROUNDS / rows rounds (a round over three sides costs about a microsecond per row on
# a loaded machine; 25 rounds on a 2M-item pool).
ROW_ROUNDS = 50_000_000
MIN_ROUNDS = 20
MAX_ROUNDS = 400
# Starts from independent random deals: START_ROWS / rows of them, at most MAX_STARTS.
START_ROWS = 1_000_000
MAX_STARTS = 4
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


class _Moves:
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
    moves = _Moves(edges, cues)
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


def hyperedges(
    items: ItemCodes,
    inference_types: tuple[int, ...],
    min_label_share: float = 0.0,
    restricted: tuple[bool, ...] = (False, True),
) -> Hyperedges:
    """The items of ``items`` as hyperedges over their words, in cells of ``inference_types``
    (balanced with each label at least ``min_label_share`` of each inference type)."""
    type_index = np.full(max(inference_types) + 1, -1)
    type_index[list(inference_types)] = np.arange(len(inference_types))
    # A hypernym spelt like its noun is one word of the hyperedge (adjectives never are: the
    # pool drops such items).
    hypernym = np.where(items.hypernym == items.noun, UNASSIGNED, items.hypernym)
    return Hyperedges(
        words=np.stack([items.adjective, items.noun, hypernym], axis=1),
        cell=type_index[items.inference_type] * 2 + items.label,
        testable=seen_with_every_class(items)[items.noun],
        n_words=items.n_words,
        n_types=len(inference_types),
        min_label_share=min_label_share,
        restricted=restricted,
    )


def _deal_nouns(
    rows: np.ndarray, allowed: np.ndarray, shares: tuple[float, ...], rng: np.random.Generator
) -> np.ndarray:
    """A side for each noun, given its rows with adjectives of each side (``rows``, sides ×
    nouns) and the sides it may take (``allowed``): in random order, each noun goes to the side
    where the share of its rows exceeds that side's share most, plus how far the side is below
    its share of the rows dealt so far. A noun seen with adjectives of every side alike (as when
    every noun takes every adjective) is dealt by shares alone instead of all to one side."""
    shares = np.asarray(shares)
    sides = np.zeros(rows.shape[1], dtype=np.int64)
    dealt = np.zeros(len(shares))
    for noun in rng.permutation(rows.shape[1]):
        mine = rows[:, noun]
        total = dealt.sum() + mine.sum()
        affinity = mine / max(mine.sum(), 1) - shares
        shortfall = (shares * total - dealt) / max(total, 1)
        side = int(np.argmax(np.where(allowed[:, noun], affinity + shortfall, -np.inf)))
        sides[noun] = side
        dealt[side] += mine.sum()
    return sides


def _follow_adjectives(
    items: ItemCodes,
    edges: Hyperedges,
    side: np.ndarray,
    shares: tuple[float, ...],
    rng: np.random.Generator,
) -> np.ndarray:
    """Sides for nouns and hypernyms given the adjectives' sides: nouns where their adjectives
    pull them (:func:`_deal_nouns`; a held-out side only for a testable noun), then every other
    word to the side with most, for its share, of the rows whose adjective and noun already
    share it."""
    side = side.copy()
    is_adjective = np.zeros(items.n_words, dtype=bool)
    is_adjective[items.adjective] = True
    testable = np.zeros(items.n_words, dtype=bool)
    testable[items.noun[edges.testable]] = True
    adjective_side = side[items.adjective]
    nouns = np.flatnonzero(~is_adjective & (np.bincount(items.noun, minlength=items.n_words) > 0))
    with_side = np.stack(
        [
            np.bincount(items.noun[adjective_side == s], minlength=items.n_words)
            for s in range(len(shares))
        ]
    )[:, nouns]
    allowed = np.stack([testable[nouns] | ~limited for limited in edges.restricted])
    side[nouns] = _deal_nouns(with_side, allowed, shares, rng)
    hypernym = edges.words[:, 2]
    row_side = np.where(adjective_side == side[items.noun], adjective_side, -1)
    votes = np.stack(
        [
            np.bincount(hypernym[(row_side == s) & (hypernym >= 0)], minlength=items.n_words)
            / share
            for s, share in enumerate(shares)
        ]
    )
    others = ~is_adjective
    others[nouns] = False
    side[others] = votes.argmax(axis=0)[others]
    return side


def start_budget(n_rows: int) -> int:
    """Starts of the search for a pool of ``n_rows`` items: :data:`START_ROWS` rows' worth,
    within [1, :data:`MAX_STARTS`] (one start on a 2M-item pool keeps it within a minute)."""
    return int(np.clip(START_ROWS // max(n_rows, 1), 1, MAX_STARTS))


def round_budget(n_rows: int) -> int:
    """Rounds of search a pool of ``n_rows`` items gets: :data:`ROW_ROUNDS` row-rounds, within
    [:data:`MIN_ROUNDS`, :data:`MAX_ROUNDS`] (a round costs time in proportion to the rows)."""
    return int(np.clip(ROW_ROUNDS // max(n_rows, 1), MIN_ROUNDS, MAX_ROUNDS))


def _deal_and_search(
    items: ItemCodes,
    edges: Hyperedges,
    shares: tuple[float, ...],
    rng: np.random.Generator,
    rounds: int | None = None,
) -> Partition:
    """:func:`optimise_sides` (``rounds``, by default :func:`round_budget`) from a random deal of
    adjectives (per class, by row mass), nouns and hypernyms where those adjectives pull them
    (:func:`_follow_adjectives`)."""
    is_adjective = np.zeros(items.n_words, dtype=bool)
    is_adjective[items.adjective] = True
    dealt = vocabulary_sides(items, shares, rng)
    side = _follow_adjectives(items, edges, np.where(is_adjective, dealt, 0), shares, rng)
    return optimise_sides(edges, side, shares, rounds or round_budget(len(edges.cell)), cues=False)


def _rows(items: ItemCodes, edges: Hyperedges, rows: np.ndarray, restricted) -> tuple:
    """The items and hyperedges of ``rows`` alone (testable as judged on the whole pool)."""
    fields = ("adjective", "noun", "hypernym", "adjective_class", "inference_type", "label")
    part = ItemCodes(*(getattr(items, name)[rows] for name in fields), n_words=items.n_words)
    return part, replace(
        edges,
        words=edges.words[rows],
        cell=edges.cell[rows],
        testable=edges.testable[rows],
        restricted=restricted,
    )


def _bisect(
    items: ItemCodes, edges: Hyperedges, shares: tuple[float, ...], rng: np.random.Generator
) -> Partition:
    """Train against the held-out sides together (a two-way search), then the held-out side's
    rows cut into validation and test (a two-way search over them alone), then a search over
    all three sides from there: one three-way search from a random deal keeps far fewer rows,
    as single-word moves cannot carry a cluster of words from one held-out side to another.
    The first and last searches each get the pool's whole :func:`round_budget` (half of it each
    kept a fifth fewer rows on the embedded corpus); the middle one, over the held-out rows,
    that of its own rows. With :func:`partition_vocabulary`'s refinement after cue removal, a
    start costs up to three times what one search does."""
    held = 1 - shares[0]
    rounds = round_budget(len(edges.cell))
    two_way = replace(edges, restricted=(edges.restricted[0], True))
    first = _deal_and_search(items, two_way, (shares[0], held), rng, rounds)
    on_held = (first.side[np.maximum(edges.words, 0)] == 1) | (edges.words < 0)
    kept = np.flatnonzero(on_held.all(axis=1) & edges.testable)
    held_items, held_edges = _rows(items, edges, kept, (True, True))
    held_shares = tuple(share / held for share in shares[1:])
    second = _deal_and_search(held_items, held_edges, held_shares, rng)
    side = np.where(first.side == 1, 1 + second.side, 0)
    return optimise_sides(edges, side, shares, rounds, cues=False)


def partition_vocabulary(
    items: ItemCodes,
    inference_types: tuple[int, ...],
    shares: tuple[float, ...],
    rng: np.random.Generator,
    min_label_share: float = 0.0,
    restricted: tuple[bool, ...] = (False, True, True),
) -> Partition:
    """A side per word: train (0), then one held-out side per further entry of ``shares``
    (validation 1, test 2), each at about its share of the balanced rows and, where
    ``restricted``, of the rows whose noun is seen with every class: from each of
    :func:`start_budget` starts, :func:`_bisect` (three sides) or a search from a random deal
    (two), each counting rows before cue removal and refined by a search counting what cue
    removal leaves; the best-scoring partition wins (the search's local optima differ by up to
    a sixth of the rows from one start to the next)."""
    edges = hyperedges(items, inference_types, min_label_share, restricted)
    search = _bisect if len(shares) == 3 else _deal_and_search
    rounds, best = round_budget(len(edges.cell)), None
    for _ in range(start_budget(len(edges.cell))):
        partition = optimise_sides(edges, search(items, edges, shares, rng).side, shares, rounds)
        if best is None or partition.score > best.score:
            best = partition
    return best


def balanced_ceiling(
    items: ItemCodes, inference_types: tuple[int, ...], min_label_share: float = 0.0
) -> int:
    """Rows in the largest subset of the pool's items of ``inference_types`` with equal rows
    per inference type, balanced labels and each label at least ``min_label_share`` of each
    inference type, ignoring the vocabulary partition: what no split of the pool can exceed in
    train, validation and test together."""
    edges = hyperedges(items, inference_types)
    cells = edges.cell[edges.cell >= 0]
    counts = np.bincount(cells, minlength=edges.n_cells).reshape(edges.n_types, 2)
    return int(balanced_rows(counts, min_label_share))
