"""The vocabulary partition of PLANE's GOoD and One-IT splits, optimised for balanced rows.

An item is kept in a split only if its adjective, noun and hypernym all fall on that split's
side of the partition (a hypergraph partition: each item is a hyperedge over its words). What a
side is worth is not how many items it keeps but how many survive balancing: equal rows per
inference type and half of them entailments (:func:`balanced_rows`). Intensional rows are the
only negatives of IT1 and IT2, so they bind; the worth of a side is a function of its six
(inference type, label) counts, and the optimiser moves words to raise it.

:func:`optimise_sides` is a local search over single-word moves from a seeded random deal. One
round computes, with ``numpy.bincount`` over the items, what moving each word to the other side
would change in both sides' counts, scores every move at once, and applies the best moves
(halving their number while a batch does not pay, doubling it while it does), until no move
pays or the round budget is spent. :func:`partition_vocabulary` runs it from several seeded
deals on pools small enough to afford them and keeps the best.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from compsem.builders.plane.vocabulary import (
    UNASSIGNED,
    ItemCodes,
    balanced_rows,
    seen_with_every_class,
    vocabulary_sides,
)

# Worth of one raw kept row beside a balanced one: lets the search cross plateaus where the
# balanced count does not move (a row of a non-binding cell may pay later).
_RAW_WEIGHT = 0.01
# Rounds of moves: a bound on time that, unlike a clock, keeps the splits reproducible. A pool
# gets ROW_ROUNDS / rows rounds (a round costs about a quarter of a microsecond per row).
ROW_ROUNDS = 100_000_000
MIN_ROUNDS = 20
MAX_ROUNDS = 400
# Starts from independent random deals: START_ROWS / rows of them, at most MAX_STARTS.
START_ROWS = 1_000_000
MAX_STARTS = 4


@dataclass(frozen=True)
class Hyperedges:
    """The items as hyperedges: ``words`` (rows × 3: adjective, noun, hypernym, all distinct;
    -1 where a row has no hypernym), each row's ``cell`` (inference type index × 2 + label) and whether the
    row may count on the test side (``testable``: its noun is seen with every class)."""

    words: np.ndarray
    cell: np.ndarray
    testable: np.ndarray
    n_words: int
    n_types: int
    min_label_share: float = 0.0

    @property
    def n_cells(self) -> int:
        return 2 * self.n_types


@dataclass
class Partition:
    """A side per word (0 train, 1 test) and the balanced rows each side keeps."""

    side: np.ndarray
    counts: np.ndarray  # (2, types, 2): kept rows per side, inference type and label
    score: float
    rounds: int = 0
    seconds: float = 0.0
    min_label_share: float = 0.0

    @property
    def balanced(self) -> np.ndarray:
        return balanced_rows(self.counts, self.min_label_share)


def _score(
    counts0: np.ndarray,
    counts1: np.ndarray,
    n_types: int,
    test_share: float,
    min_label_share: float = 0.0,
):
    """The objective of sides with these cell counts (``(..., cells)``): balanced rows of both
    sides, less what test lacks of ``test_share`` of them or train of the rest (each counted at
    the full price of the rows it stands for, so a partition with everything on one side is
    worth nothing), plus a little for every raw kept row."""
    shape = (*counts0.shape[:-1], n_types, 2)
    train = balanced_rows(counts0.reshape(shape), min_label_share)
    test = balanced_rows(counts1.reshape(shape), min_label_share)
    total = train + test
    gap = test_share * total - test
    raw = counts0.sum(axis=-1) + counts1.sum(axis=-1)
    lacking = np.maximum(0, gap) / test_share + np.maximum(0, -gap) / (1 - test_share)
    return total - lacking + _RAW_WEIGHT * raw


class _Moves:
    """Per-word effects of moving each word to the other side, from the items' current sides."""

    def __init__(self, edges: Hyperedges):
        self.edges = edges
        self.present = edges.words >= 0
        self.size = self.present.sum(axis=1)
        self.safe_words = np.where(self.present, edges.words, 0)
        # The cell a row counts in on each side (the last cell index: counts nowhere).
        nowhere = edges.n_cells
        self.cell_on = np.stack([edges.cell, np.where(edges.testable, edges.cell, nowhere)])

    def evaluate(self, side: np.ndarray):
        """Kept counts per side (2, cells) and, per word, the cells it would take from its side
        (``loss``) and give to the other (``gain``) if it alone moved."""
        edges, width = self.edges, self.edges.n_cells + 1
        word_side = side[self.safe_words]
        on_test = (word_side * self.present).sum(axis=1)
        kept = np.stack([on_test == 0, on_test == self.size])
        counts = np.stack(
            [np.bincount(self.cell_on[s][kept[s]], minlength=width)[:-1] for s in (0, 1)]
        )
        loss = np.zeros(edges.n_words * width, dtype=np.int64)
        gain = np.zeros(edges.n_words * width, dtype=np.int64)
        for role in range(edges.words.shape[1]):
            present, words = self.present[:, role], edges.words[:, role]
            own = word_side[:, role]
            for s in (0, 1):
                mine = present & (own == s)
                # Rows kept on side s lose this word's rows if it leaves.
                leaving = mine & kept[s]
                loss += np.bincount(
                    words[leaving] * width + self.cell_on[s][leaving], minlength=len(loss)
                )
                # Rows whose other words all lie on the other side are kept there if it moves.
                others_on_test = on_test - s
                target = 1 - s
                joining = mine & (others_on_test == target * (self.size - 1)) & ~kept[s]
                gain += np.bincount(
                    words[joining] * width + self.cell_on[target][joining], minlength=len(gain)
                )
        shape = (edges.n_words, width)
        return counts, loss.reshape(shape)[:, :-1], gain.reshape(shape)[:, :-1]


def optimise_sides(
    edges: Hyperedges,
    side: np.ndarray,
    test_share: float,
    max_rounds: int = MAX_ROUNDS,
) -> Partition:
    """Improve the partition ``side`` (0/1 per word) by local search: each round moves the
    words whose move raises :func:`_score` most."""
    start = time.perf_counter()
    moves = _Moves(edges)
    side = side.copy()
    batch, rounds = 1, 0
    counts, loss, gain = moves.evaluate(side)
    current = float(_score(counts[0], counts[1], edges.n_types, test_share, edges.min_label_share))
    while rounds < max_rounds:
        rounds += 1
        on_test = side[:, None] == 1
        new0 = np.where(on_test, counts[0] + gain, counts[0] - loss)
        new1 = np.where(on_test, counts[1] - loss, counts[1] + gain)
        delta = _score(new0, new1, edges.n_types, test_share, edges.min_label_share) - current
        candidates = np.flatnonzero(delta > 1e-9)
        if len(candidates) == 0:
            break
        best = candidates[np.argsort(-delta[candidates], kind="stable")]
        while True:
            chosen = best[:batch]
            side[chosen] = 1 - side[chosen]
            trial, trial_loss, trial_gain = moves.evaluate(side)
            score = float(
                _score(trial[0], trial[1], edges.n_types, test_share, edges.min_label_share)
            )
            if score > current + 1e-9 or len(chosen) == 1:
                break
            side[chosen] = 1 - side[chosen]
            batch = max(1, batch // 2)
        if score <= current + 1e-9:  # the single best move does not pay after all
            side[chosen] = 1 - side[chosen]
            break
        counts, loss, gain, current = trial, trial_loss, trial_gain, score
        if len(chosen) == batch:
            batch *= 2
    counts = counts.reshape(2, edges.n_types, 2)
    seconds = time.perf_counter() - start
    return Partition(side, counts, current, rounds, seconds, edges.min_label_share)


def hyperedges(
    items: ItemCodes, inference_types: tuple[int, ...], min_label_share: float = 0.0
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
    )


def _follow_adjectives(
    items: ItemCodes, edges: Hyperedges, side: np.ndarray, test_share: float
) -> np.ndarray:
    """Sides for nouns and hypernyms given the adjectives' sides: a testable noun goes to test
    when it has more rows with test adjectives than its share, then every other word to the
    side with more of the rows whose adjective and noun already share it."""
    side = side.copy()
    is_adjective = np.zeros(items.n_words, dtype=bool)
    is_adjective[items.adjective] = True
    on_test = side[items.adjective] == 1
    with_test = np.bincount(items.noun[on_test], minlength=items.n_words)
    with_train = np.bincount(items.noun[~on_test], minlength=items.n_words)
    testable = np.zeros(items.n_words, dtype=bool)
    testable[items.noun[edges.testable]] = True
    nouns = ~is_adjective & (with_test + with_train > 0)
    side[nouns] = testable[nouns] & (
        with_test[nouns] * (1 - test_share) > with_train[nouns] * test_share
    )
    hypernym = edges.words[:, 2]
    row_side = np.where(side[items.adjective] == side[items.noun], side[items.adjective], -1)
    votes = [
        np.bincount(hypernym[(row_side == s) & (hypernym >= 0)], minlength=items.n_words) / share
        for s, share in ((0, 1 - test_share), (1, test_share))
    ]
    others = ~is_adjective & ~nouns
    side[others] = votes[1][others] > votes[0][others]
    return side


def start_budget(n_rows: int) -> int:
    """Starts of the search for a pool of ``n_rows`` items: :data:`START_ROWS` rows' worth,
    within [1, :data:`MAX_STARTS`] (one start on a 2M-item pool keeps it within a minute)."""
    return int(np.clip(START_ROWS // max(n_rows, 1), 1, MAX_STARTS))


def round_budget(n_rows: int) -> int:
    """Rounds of search a pool of ``n_rows`` items gets: :data:`ROW_ROUNDS` row-rounds, within
    [:data:`MIN_ROUNDS`, :data:`MAX_ROUNDS`] (a round costs time in proportion to the rows)."""
    return int(np.clip(ROW_ROUNDS // max(n_rows, 1), MIN_ROUNDS, MAX_ROUNDS))


def partition_vocabulary(
    items: ItemCodes,
    inference_types: tuple[int, ...],
    test_share: float,
    rng: np.random.Generator,
    min_label_share: float = 0.0,
) -> Partition:
    """A train (0) / test (1) side per word, with test at about ``test_share`` of the balanced
    rows: from each of :func:`start_budget` starts, a random deal of adjectives (per class, by
    row mass: :func:`~compsem.builders.plane.vocabulary.vocabulary_sides`), nouns and hypernyms
    where those adjectives pull them (:func:`_follow_adjectives`), then :func:`optimise_sides`;
    the best-scoring partition wins (the search's local optima differ by a tenth of the rows
    from one start to the next)."""
    edges = hyperedges(items, inference_types, min_label_share)
    is_adjective = np.zeros(items.n_words, dtype=bool)
    is_adjective[items.adjective] = True
    best = None
    for _ in range(start_budget(len(edges.cell))):
        dealt = vocabulary_sides(items, (1 - test_share, test_share), rng)
        side = _follow_adjectives(items, edges, np.where(is_adjective, dealt, 0), test_share)
        partition = optimise_sides(edges, side, test_share, round_budget(len(edges.cell)))
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
