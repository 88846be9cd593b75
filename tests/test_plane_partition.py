"""The split optimiser's arithmetic, checked against brute force on small random inputs, what a
corpus too small for a regime is told, and an export's searches run in parallel."""

import os
from itertools import product

import numpy as np
import pyarrow.parquet as pq
import pytest

from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.items.pool import build_item_pool
from compsem.builders.plane.splits.balancing import _Feasibility, balanced_rows, label_bounds
from compsem.builders.plane.splits.partition import partition_vocabulary
from compsem.builders.plane.splits.regimes import (
    MIN_INTENSIONAL_PHRASES,
    PARTITION_STEP,
    checked_pool,
    intensional_phrases,
    partition_key,
    plane_splits,
    search_partition,
    search_partitions,
    search_pool,
)
from compsem.builders.plane.splits.search import Hyperedges, Moves, _score, optimise_sides
from compsem.builders.plane.splits.vocabulary import ItemCodes
from compsem.files.fingerprint import cache_path
from compsem.pipeline.process_guard import guarded_map
from compsem.resources.lexicon import ADJECTIVE_CLASSES


def brute_force_balanced(counts: np.ndarray, min_label_share: float = 0.0) -> int:
    """Largest 3k (or k) with k rows per inference type, half of all rows entailments and each
    label at least ``min_label_share`` of each inference type."""
    negatives, positives = counts[:, 0], counts[:, 1]
    n_types = len(negatives)
    best = 0
    for k in range(int((negatives + positives).min()) + 1):
        if (k * n_types) % 2:
            continue
        ranges = [
            [x for x in range(min(k, n) + 1) if k - x <= p and min(x, k - x) >= min_label_share * k]
            for n, p in zip(negatives, positives, strict=True)
        ]
        if any(2 * sum(taken) == k * n_types for taken in product(*ranges)):
            best = k * n_types
    return best


@pytest.mark.parametrize("min_label_share", [0.0, 1 / 6])
@pytest.mark.parametrize("n_types", [1, 3])
def test_balanced_rows_is_the_largest_balanced_subset(n_types, min_label_share):
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 9, size=(300, n_types, 2))
    counts[::7, :, 0] = 0  # no negatives at all: nothing balances
    expected = [brute_force_balanced(c, min_label_share) for c in counts]
    assert balanced_rows(counts, min_label_share).tolist() == expected


@pytest.mark.parametrize("min_label_share", [0.0, 1 / 6, 0.5])
def test_the_search_asks_what_label_bounds_define(min_label_share):
    """The search's feasibility test, folded for speed, answers as the label bounds it stands
    for: each type's fewest negatives at most its most, and half the rows between their sums."""
    rng = np.random.default_rng(1)
    for n_types in (1, 3):
        negatives, positives = rng.integers(0, 40, size=(2, 4, 500, n_types))
        per_type = rng.integers(0, 90, size=(4, 500))
        fewest, most = label_bounds(per_type, negatives, positives, min_label_share)
        total = per_type * n_types
        expected = (
            (fewest <= most).all(axis=-1)
            & (2 * fewest.sum(axis=-1) <= total)
            & (total <= 2 * most.sum(axis=-1))
        )
        feasible = _Feasibility(negatives, positives, min_label_share)
        assert (feasible(per_type) == expected).all() and expected.any() and not expected.all()


def random_edges(
    rng: np.random.Generator, n_rows=400, n_words=40, min_label_share=0.0, n_sides=3
) -> Hyperedges:
    words = rng.integers(0, n_words, size=(n_rows, 3))
    words[:, 1] = np.where(words[:, 1] == words[:, 0], (words[:, 0] + 1) % n_words, words[:, 1])
    repeated = (words[:, 2] == words[:, 0]) | (words[:, 2] == words[:, 1])
    words[repeated | (rng.random(n_rows) < 0.3), 2] = -1  # IT1 rows have no hypernym
    return Hyperedges(
        words=words,
        cell=rng.integers(0, 6, n_rows),
        testable=rng.random(n_rows) < 0.8,
        restricted=(False, False, True) if n_sides == 3 else (False, True),  # both kinds of side
        n_words=n_words,
        n_types=3,
        min_label_share=min_label_share,
    )


def kept_counts(edges: Hyperedges, side: np.ndarray, cues: bool = False) -> np.ndarray:
    """Rows per side and cell, row by row: a row counts on a side when all its words lie there
    (and, on a restricted side, only if it is testable); with ``cues``, rows are then dropped
    one pass at a time while their noun or hypernym carries a single label."""
    counted = []
    for row, (words, testable) in enumerate(zip(edges.words, edges.testable, strict=True)):
        sides = {int(side[w]) for w in words if w >= 0}
        if len(sides) == 1:
            (s,) = sides
            if testable or not edges.restricted[s]:
                counted.append(row)
    while cues:
        labels = {}
        for row in counted:
            for role in (1, 2):
                labels.setdefault((role, edges.words[row, role]), set()).add(edges.cell[row] % 2)
        keep = [
            row
            for row in counted
            if all(
                edges.words[row, role] < 0 or len(labels[role, edges.words[row, role]]) == 2
                for role in (1, 2)
            )
        ]
        cues, counted = len(keep) < len(counted), keep
    counts = np.zeros((edges.n_sides, edges.n_cells), dtype=np.int64)
    for row in counted:
        counts[side[edges.words[row, 0]], edges.cell[row]] += 1
    return counts


@pytest.mark.parametrize("n_sides", [2, 3])
def test_moves_predict_the_counts_after_each_single_move(n_sides):
    """Exact for the rough search (``cues=False``), which counts rows before cue removal."""
    rng = np.random.default_rng(1)
    edges = random_edges(rng, n_sides=n_sides)
    side = rng.integers(0, n_sides, edges.n_words)
    counts, loss, gain = Moves(edges, cues=False).evaluate(side)
    assert (counts == kept_counts(edges, side)).all()
    for word in range(edges.n_words):
        here = side[word]
        assert not gain[here, word].any()
        for there in set(range(n_sides)) - {here}:
            moved = side.copy()
            moved[word] = there
            after = kept_counts(edges, moved)
            assert (after[here] == counts[here] - loss[word]).all()
            assert (after[there] == counts[there] + gain[there, word]).all()
            for other in set(range(n_sides)) - {here, there}:
                assert (after[other] == counts[other]).all()


@pytest.mark.parametrize("seed", range(6))
def test_the_search_counts_the_rows_cue_removal_leaves_on_each_side(seed):
    """What the cue-aware search counts is what the build keeps before balancing: a row whose
    noun or hypernym carries a single label on its side is dropped, and so on until none is."""
    rng = np.random.default_rng(10 + seed)
    edges = random_edges(rng, n_sides=2 + seed % 2)
    side = rng.integers(0, edges.n_sides, edges.n_words)
    counts, _, _ = Moves(edges).evaluate(side)
    assert (counts == kept_counts(edges, side, cues=True)).all()
    assert counts.sum() < kept_counts(edges, side).sum()  # cue removal does drop rows here


SHARES = (0.6, 0.2, 0.2)


@pytest.mark.parametrize("cues", [False, True])
@pytest.mark.parametrize("min_label_share", [0.0, 1 / 6])
def test_local_search_only_improves_and_is_deterministic(min_label_share, cues):
    rng = np.random.default_rng(2)
    edges = random_edges(rng, n_rows=3000, n_words=120, min_label_share=min_label_share)
    start = rng.integers(0, 3, edges.n_words)

    def score(side):
        return float(_score(kept_counts(edges, side, cues), 3, SHARES, min_label_share))

    first = optimise_sides(edges, start, SHARES, cues=cues)
    second = optimise_sides(edges, start, SHARES, cues=cues)
    assert (first.side == second.side).all()
    assert score(first.side) > score(start)
    assert first.score == pytest.approx(score(first.side))
    assert (first.counts.reshape(3, -1) == kept_counts(edges, first.side, cues)).all()
    # What the search scores is what balancing under the floor keeps of each side's rows
    # (balanced_rows is checked against brute force above).
    kept = kept_counts(edges, first.side, cues).reshape(3, 3, 2)
    assert (first.balanced == balanced_rows(kept, min_label_share)).all()
    assert (first.balanced > 0).all()  # every side keeps rows: train, validation and test
    if cues:  # moves are ranked to first order only: the search stops where the best ranked fails
        return
    # A local optimum: no single move to any other side pays.
    for word in range(edges.n_words):
        for there in set(range(3)) - {first.side[word]}:
            moved = first.side.copy()
            moved[word] = there
            assert score(moved) <= score(first.side) + 1e-9


def test_sides_at_their_shares_are_worth_their_rows_and_a_missing_side_costs_its_share():
    at_shares = np.stack([np.full(6, 30), np.full(6, 10), np.full(6, 10)])  # 180 / 60 / 60 rows
    assert _score(at_shares, 3, SHARES) == pytest.approx(300 + 0.01 * 300)
    no_validation = at_shares * np.array([[1], [0], [1]])  # 240 rows, validation lacks 48
    assert _score(no_validation, 3, SHARES) == pytest.approx(240 - 48 / 0.2 + 0.01 * 240)


@pytest.mark.slow
def clustered_items(n_clusters=20) -> ItemCodes:
    """Clusters of words that share no item with another cluster, each balanced on its own (3
    adjectives of classes 0-2, 2 nouns, a hypernym; every inference type): a partition along the
    clusters keeps every row."""
    rows = []
    for cluster in range(n_clusters):
        first = 6 * cluster
        hypernym = first + 5
        for klass, noun, inference_type in product(range(3), (first + 3, first + 4), (1, 2, 3)):
            label = (1, noun % 2, 0)[klass]
            word = -1 if inference_type == 1 else hypernym
            rows.append((first + klass, noun, word, klass, inference_type, label))
    return ItemCodes(*np.array(rows).T, n_words=6 * n_clusters)


@pytest.mark.parametrize("seed", range(5))
def test_the_partition_moves_linked_words_between_held_out_sides_together(seed):
    """Single-word moves from a random three-way deal keep 150-270 of these 360 rows (a cluster
    split between validation and test cannot move over one word at a time); the two-step search
    keeps them all, on every side."""
    items = clustered_items()
    partition = partition_vocabulary(
        items, (1, 2, 3), (0.6, 0.2, 0.2), np.random.default_rng(seed), 1 / 6
    )
    assert partition.balanced.sum() == len(items.label)
    assert (partition.balanced > 0).all()


def test_a_corpus_too_small_for_goood_says_how_many_intensional_phrases_it_lacks():
    config = PlaneConfig(name="goood_split_1", regime="goood", max_docs=3000)
    pool_phrases = intensional_phrases(build_item_pool(config))
    need = MIN_INTENSIONAL_PHRASES["goood"]
    assert pool_phrases < need
    message = (
        rf"holds {pool_phrases} distinct intensional adjective-noun phrases; goood splits need "
        rf"about {need}, so about {need - pool_phrases} more"
    )
    with pytest.raises(ValueError, match=message):
        plane_splits(config)


def pid_and_square(number: int) -> tuple[int, int]:
    return os.getpid(), number * number


def test_guarded_map_keeps_the_jobs_order_on_other_processes_and_one_worker_runs_here():
    on_two = list(guarded_map(pid_and_square, list(range(6)), workers=2))
    assert [square for _, square in on_two] == [n * n for n in range(6)]
    assert os.getpid() not in {pid for pid, _ in on_two}
    assert {pid for pid, _ in guarded_map(pid_and_square, [1, 2], workers=1)} == {os.getpid()}


def test_an_exports_parallel_searches_cache_what_each_config_would_search_alone():
    # a seed no other test builds, so that every search runs here, on two workers
    configs = [
        PlaneConfig(
            name=f"{regime}_split_{index}",
            regime=regime,
            split_index=index,
            max_docs=3000,
            seed=7,
            workers=2,
        )
        for regime in ("goood", "one_it")
        for index in (1, 2)
    ]
    inputs = {config.name: search_pool(checked_pool(config), config) for config in configs}
    search_partitions(configs)
    for config in configs:
        pool, inference_types = inputs[config.name]
        alone = search_partition(
            (ItemCodes.from_table(pool, ADJECTIVE_CLASSES), inference_types, config)
        )
        key = partition_key(pool, config, inference_types)
        assert pq.read_table(cache_path(PARTITION_STEP, key)).equals(alone)
