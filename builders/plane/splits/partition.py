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

from dataclasses import replace

import numpy as np

from compsem.builders.plane.splits.balancing import balanced_rows
from compsem.builders.plane.splits.search import (
    MAX_ROUNDS,
    MIN_ROUNDS,
    ROW_ROUNDS,
    Hyperedges,
    Partition,
    optimise_sides,
)
from compsem.builders.plane.splits.vocabulary import (
    UNASSIGNED,
    ItemCodes,
    seen_with_every_class,
    vocabulary_sides,
)

# Starts from independent random deals: START_ROWS / rows of them, at most MAX_STARTS.
START_ROWS = 1_000_000
MAX_STARTS = 4


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
