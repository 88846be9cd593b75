"""SETI's split regimes over a composition pool (§3.2, §4.1, §5.2, Appendix B).

A setting names the inference types of its training data, as two major types, and of its test
data. Train takes both majors, the larger down-sampled to the size of the smaller (Appendix B),
less the paper's 4:1 dev share (Table 5's train sizes). Test is drawn from every row of the test
types whose primitives were seen in train (trivial settings) or, in non-trivial settings, every
row on the test side of the sentence partition whose natural-inference rule (boy → kid) occurs
in train. Validation is drawn the way test is, so it is as far out of distribution as test: the
validation fraction of those rows (a stratified holdout in trivial settings; in non-trivial
ones the rows of whole groups of test-side sentences, so validation and test share no
sentence), test the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.benchmark.sampling import apportion
from compsem.builders.seti.compose import (
    ALL_TYPES,
    NAT_TYPES,
    RULES,
    SIDES,
    TYPE_CODES,
    InferenceType,
    Pool,
)

TRAIN, TEST, FEW_SHOT = (SIDES.index(side) for side in SIDES)
# k for the k-shot curves of §5.2; the few-shot split is ordered so each prefix is a k-shot set.
FEW_SHOT_SIZES = (0, 1, 2, 4, 8, 16, 32, 64, 128)


_VER_CODES = [code for t, code in TYPE_CODES.items() if t.kind == "ver"]


@dataclass(frozen=True)
class Setting:
    """One task setting of §3.2: training majors and test types exactly as its equation."""

    name: str
    task: int
    trivial: bool
    train: tuple[tuple[InferenceType, ...], tuple[InferenceType, ...]]
    test: tuple[InferenceType, ...]
    few_shot: bool
    equation: str
    summary: str

    def train_types(self) -> tuple[InferenceType, ...]:
        return self.train[0] + self.train[1]


class SetiSplitError(ValueError):
    """The pool is too small for a setting's constraints; the message says what to change."""


def spread_sample(
    rows: np.ndarray,
    n: int,
    strata: np.ndarray,
    groups: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """``n`` of ``rows``, each stratum in proportion to its size, and within a stratum the rows
    of as many groups (pairs, sentences) as possible: one per group before a second."""
    rows = np.asarray(rows)
    if n >= len(rows):
        return np.sort(rows)
    chosen = []
    values = np.unique(strata[rows])
    sizes = np.array([(strata[rows] == value).sum() for value in values])
    for value, quota in zip(values, apportion(n, sizes), strict=True):
        members = rng.permutation(rows[strata[rows] == value])
        _, inverse = np.unique(groups[members], return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        grouped = inverse[order]
        rank = np.empty(len(members), dtype=np.int64)
        rank[order] = np.arange(len(members)) - np.searchsorted(grouped, grouped, side="left")
        chosen.append(members[np.lexsort((np.arange(len(members)), rank))[:quota]])
    return np.sort(np.concatenate(chosen))


def _group(pool: Pool) -> np.ndarray:
    """Rows to spread over: natural pairs, or for PI_ver rows their sentence."""
    return np.where(pool.pair >= 0, pool.pair, -1 - pool.sentence)


def _rows_of(pool: Pool, types, side: int | None) -> np.ndarray:
    mask = np.isin(pool.type_code, [TYPE_CODES[t] for t in types])
    if side is not None:
        mask &= pool.side == side
    return np.flatnonzero(mask)


def stratified_holdout(
    pool: Pool, rows: np.ndarray, fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """(rest, held out): ``fraction`` of each inference type's rows, spread over pairs."""
    held = []
    for code in np.unique(pool.type_code[rows]):
        members = rows[pool.type_code[rows] == code]
        quota = round(fraction * len(members))
        held.append(spread_sample(members, quota, pool.type_code, _group(pool), rng))
    held = np.sort(np.concatenate(held)) if held else np.array([], dtype=np.int64)
    return np.setdiff1d(rows, held), held


def sentence_groups(pool: Pool, rows: np.ndarray) -> np.ndarray:
    """For each of ``rows``, its group of sentences: the connected components of the graph whose
    edges are the rows' natural pairs (s, s′), so rows of two groups share no sentence."""
    table = pool.take(rows)
    s = table["s_id"].to_numpy(zero_copy_only=False)
    s_prime = pc.coalesce(table["s_prime_id"], table["s_id"]).to_numpy(zero_copy_only=False)
    _, codes = np.unique(np.concatenate([s, s_prime]), return_inverse=True)
    parent = np.arange(codes.max() + 1 if len(codes) else 0)

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    edges = codes.reshape(2, len(rows)).T
    for a, b in np.unique(edges, axis=0).tolist():
        parent[root(a)] = root(b)
    return np.array([root(a) for a in edges[:, 0].tolist()], dtype=np.int64)


def group_holdout(
    pool: Pool, rows: np.ndarray, fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """(rest, held out): the rows of whole sentence groups (:func:`sentence_groups`), taken in a
    random order until they come closest to ``fraction`` of ``rows``."""
    if len(rows) == 0:
        return rows, rows
    group = sentence_groups(pool, rows)
    names, sizes = np.unique(group, return_counts=True)
    order = rng.permutation(len(names))
    taken = np.cumsum(sizes[order])
    count = int(np.argmin(np.abs(taken - fraction * len(rows)))) + 1
    held = np.isin(group, names[order[:count]])
    return rows[~held], rows[held]


def train_rows(pool: Pool, setting: Setting, rng: np.random.Generator) -> np.ndarray:
    """Both majors, the larger down-sampled to the smaller (Appendix B)."""
    side = None if setting.trivial else TRAIN
    majors = [_rows_of(pool, types, side) for types in setting.train]
    n = min(len(rows) for rows in majors)
    if n == 0:
        raise SetiSplitError(
            f"{setting.name}: no training rows of "
            f"{' / '.join(t.notation for rows, types in zip(majors, setting.train, strict=True) if not len(rows) for t in types)}; "
            "generate more source sentences (--sentences) or use a larger SICK file."
        )
    sampled = [spread_sample(rows, n, pool.type_code, _group(pool), rng) for rows in majors]
    return np.sort(np.concatenate(sampled))


def test_rows(pool: Pool, setting: Setting, train: np.ndarray, side: int = TEST) -> np.ndarray:
    """Rows of the test types whose primitives train has seen (trivial: the same natural pair,
    and for PI_ver training data the same s; non-trivial: the same natural rule, on ``side``)."""
    if setting.trivial:
        rows = _rows_of(pool, setting.test, None)
        keep = np.isin(pool.pair[rows], pool.pair[train][pool.pair[train] >= 0])
        ver_rows = train[np.isin(pool.type_code[train], _VER_CODES)]
        if len(ver_rows):
            keep &= np.isin(pool.sentence[rows], pool.sentence[ver_rows])
        return rows[keep]
    rows = _rows_of(pool, setting.test, side)
    train_rules = pool.rule[train][pool.rule[train] >= 0]
    return rows[np.isin(pool.rule[rows], train_rules)]


def few_shot_rows(
    pool: Pool, setting: Setting, train: np.ndarray, size: int, rng: np.random.Generator
) -> np.ndarray:
    """§5.2's D_few: test-type compositions from sentences on neither the train nor the test
    side, ordered so every prefix is a k-shot set whose first rows each show one of the
    composition rules test needs and train lacks (then the rest, round robin over types)."""
    candidates = test_rows(pool, setting, train, side=FEW_SHOT)
    train_rules = {ALL_TYPES[code].rule for code in np.unique(pool.type_code[train])}
    types = sorted(
        setting.test,
        key=lambda t: (t.rule in train_rules, NAT_TYPES.index(t.nat_type), RULES.index(t.rule)),
    )
    queues = []
    for inference_type in types:
        members = candidates[pool.type_code[candidates] == TYPE_CODES[inference_type]]
        quota = min(len(members), size)
        queues.append(
            list(rng.permutation(spread_sample(members, quota, pool.type_code, _group(pool), rng)))
        )
    ordered = []
    while len(ordered) < size and any(queues):
        for queue in queues:
            if queue and len(ordered) < size:
                ordered.append(queue.pop(0))
    return np.array(ordered, dtype=np.int64)


def setting_splits(
    pool: Pool,
    setting: Setting,
    validation_fraction: float,
    few_shot_size: int,
    rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    """Row indices of train, validation, test (and few_shot) of one setting.

    Train keeps 1 − ``validation_fraction`` of the balanced training rows, as the paper's train
    beside its dev (Table 5); the rest are left out. Validation is ``validation_fraction`` of
    the rows test is drawn from, drawn as test is: a stratified holdout of the test types in
    trivial settings, whole test-side sentence groups in non-trivial ones (§3.2's sentences
    unseen in train hold for validation as for test, and validation shares none with test)."""
    balanced = train_rows(pool, setting, rng)
    train, _ = stratified_holdout(pool, balanced, validation_fraction, rng)
    few_shot = few_shot_rows(pool, setting, train, few_shot_size, rng) if setting.few_shot else None
    holdout = stratified_holdout if setting.trivial else group_holdout
    test, validation = holdout(pool, test_rows(pool, setting, train), validation_fraction, rng)
    splits = {"train": train, "validation": validation, "test": test}
    if few_shot is not None:
        splits["few_shot"] = few_shot
    empty = [name for name, rows in splits.items() if len(rows) == 0]
    if empty:
        raise SetiSplitError(
            f"{setting.name}: split(s) {', '.join(empty)} came out empty; generate more source "
            "sentences (--sentences) or use a larger SICK file."
        )
    return splits


def in_distribution(
    splits: dict[str, np.ndarray], rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """§4.1: train ∪ validation ∪ test re-split at random into splits of the same sizes."""
    names = ("train", "validation", "test")
    everything = rng.permutation(np.concatenate([splits[name] for name in names]))
    bounds = np.cumsum([len(splits[name]) for name in names])[:-1]
    return {
        name: np.sort(part) for name, part in zip(names, np.split(everything, bounds), strict=True)
    }


def as_tables(pool: Pool, splits: dict[str, np.ndarray], setting_name: str) -> dict[str, pa.Table]:
    """The output tables, with the ``setting`` column; few-shot rows keep their order."""
    tables = {}
    for name, rows in splits.items():
        table = pool.take(rows)
        tables[name] = table.append_column(
            "setting", pa.array([setting_name] * len(table), pa.string())
        )
    return tables
