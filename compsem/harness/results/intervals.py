"""95% intervals of every score a result reports, numpy only.

- **Accuracy**: the closed-form standard error lm-evaluation-harness reports as ``acc_stderr``,
  ``sqrt(p(1 - p) / (n - 1))``, and a Wilson score interval. Wilson rather than Wald (p ± 1.96 SE):
  it stays inside [0, 1] and keeps its coverage near 0 and 1 and on small groups, where Wald's
  interval shrinks to nothing (a group of 20 rows all right gets Wald [1, 1]). Where rows share an
  item (a cluster: RNPC's source NP, PLANE's adjective-noun item, SETI's sentence, BoOQA's bundle)
  the standard error is the cluster-robust one (CR1, the sum over clusters of the residuals'
  squared sums; the lm-eval formula when every row is its own cluster) and the Wilson interval is
  taken at the effective sample size ``n / design effect`` (Korn and Graubard, 1998).
- **Macro-F1, AUCnorm, per-group scores**: a seeded bias-corrected percentile bootstrap
  (Efron's BC) over clusters (rows
  where there are none), :data:`RESAMPLES` resamples. A resample is a vector of cluster weights
  drawn from the multinomial (the number of times each cluster is drawn), so every statistic is a
  weighted count and a thousand resamples are a few matrix products.

A resample repeating a row counts it with its weight; for AUCnorm a repeated row enters the
precision-recall curve as one point (the metric would add a point per copy inside a tie), which
moves a resample's AUCnorm by far less than its spread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from statistics import NormalDist

import numpy as np

LEVEL = 0.95
Z = 1.959963984540054  # the standard normal's 97.5th percentile
RESAMPLES = 1000
SEED = 0
# Resamples per weight matrix (resamples × rows floats): bounds memory on large splits.
CHUNK_CELLS = 4_000_000


def cluster_codes(clusters: Sequence | None, n: int) -> np.ndarray:
    """Each row's cluster as an integer 0 … k-1; every row its own cluster without ``clusters``."""
    if clusters is None:
        return np.arange(n)
    values = [str(value) for value in clusters]
    if len(values) != n:
        raise ValueError(f"{len(values)} cluster values for {n} rows: one each")
    return np.unique(np.asarray(values), return_inverse=True)[1].reshape(-1)


def wilson(p: float, n: float, z: float = Z) -> list[float]:
    """The Wilson score interval of a proportion ``p`` observed on ``n`` (effective) rows."""
    if n <= 0:
        return [0.0, 1.0]
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def accuracy_interval(correct, clusters: Sequence | None = None) -> dict:
    """``{"se", "ci"}`` of the share of ``correct`` rows (booleans), clustered where given."""
    correct = np.asarray(correct, dtype=float)
    n = len(correct)
    p = float(correct.mean())
    if n < 2:
        return {"se": None, "ci": wilson(p, n)}
    codes = cluster_codes(clusters, n)
    k = int(codes.max()) + 1
    iid = p * (1 - p) / (n - 1)
    if k == n:
        se2 = iid
    elif k < 2:
        return {"se": None, "ci": [0.0, 1.0]}  # one cluster: no information on the spread
    else:
        sums = np.bincount(codes, weights=correct - p, minlength=k)
        se2 = k / (k - 1) * float(np.sum(sums**2)) / n**2
    # effective rows: n over the design effect (at least 1), k where p is 0 or 1 (no residuals)
    effective = n / max(1.0, se2 / iid) if iid > 0 else float(k)
    return {"se": math.sqrt(se2), "ci": wilson(p, effective)}


def resample_weights(codes: np.ndarray, resamples: int, seed: int):
    """Per chunk of resamples, a (resamples × rows) matrix of each row's weight: how many times
    its cluster was drawn when drawing as many clusters as there are, with replacement."""
    rng = np.random.default_rng(seed)
    k = int(codes.max()) + 1
    identity = bool(np.array_equal(codes, np.arange(len(codes))))
    chunk = max(1, CHUNK_CELLS // max(len(codes), 1))
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        drawn = rng.integers(0, k, size=(size, k)) + k * np.arange(size)[:, None]
        counts = np.bincount(drawn.reshape(-1), minlength=size * k).reshape(size, k)
        counts = counts.astype(np.float32)  # exact for counts below 2**24
        yield counts if k == len(codes) and identity else counts[:, codes]


def bootstrap(
    statistic: Callable[[np.ndarray], np.ndarray],
    n: int,
    clusters: Sequence | None = None,
    resamples: int | None = None,
    seed: int = SEED,
) -> np.ndarray:
    """``statistic(weights)`` (one value per row of a weight matrix) over ``resamples``
    resamples (default :data:`RESAMPLES`)."""
    resamples = RESAMPLES if resamples is None else resamples
    codes = cluster_codes(clusters, n)
    return np.concatenate([statistic(w) for w in resample_weights(codes, resamples, seed)])


def percentile_interval(values: np.ndarray, point: float | None = None, level: float = LEVEL):
    """The central ``level`` share of the bootstrap values (undefined resamples left out), or
    None with fewer than two. Given the ``point`` estimate, bias-corrected (Efron's BC): the
    percentiles move by twice the normal quantile of the share of resamples below it, so that a
    statistic whose resamples sit on one side of it (AUCnorm, F1 on few rows) is not read as
    shifted twice."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if len(values) < 2:
        return None
    tail = (1 - level) / 2
    shares = [tail, 1 - tail]
    if point is not None and math.isfinite(point):
        below = (np.sum(values < point) + np.sum(values == point) / 2) / len(values)
        below = min(max(below, 0.5 / len(values)), 1 - 0.5 / len(values))
        normal = NormalDist()
        bias = normal.inv_cdf(below)
        shares = [normal.cdf(2 * bias + normal.inv_cdf(share)) for share in shares]
    low, high = np.percentile(values, [100 * share for share in shares])
    return [float(low), float(high)]


def weighted_accuracy(correct) -> Callable[[np.ndarray], np.ndarray]:
    correct = np.asarray(correct, dtype=float)
    return lambda weights: (weights @ correct) / weights.sum(axis=1)


def weighted_macro_f1(
    references, predictions, labels: Sequence[int], by_support: bool = False
) -> Callable:
    """Macro-F1 over ``labels`` of each resample (``by_support``: F1 weighted by each label's
    rows, scikit-learn's ``average="weighted"``); a label without predictions or references in
    a resample gets F1 0, as ``scores.f1_per_label`` gives it."""
    references, predictions = np.asarray(references), np.asarray(predictions)
    labels = np.asarray(labels)
    hits = np.stack([(predictions == lab) & (references == lab) for lab in labels], 1)
    given = np.stack([predictions == lab for lab in labels], 1)
    actual = np.stack([references == lab for lab in labels], 1)

    def statistic(weights: np.ndarray) -> np.ndarray:
        denominator = weights @ given + weights @ actual
        f1 = np.divide(2 * (weights @ hits), denominator, out=np.zeros_like(denominator),
                       where=denominator > 0)  # fmt: skip
        if not by_support:
            return f1.mean(axis=1)
        support = weights @ actual
        return (f1 * support).sum(axis=1) / support.sum(axis=1)

    return statistic


def weighted_aucnorm(scores, positive) -> Callable[[np.ndarray], np.ndarray]:
    """AUCnorm of each resample (``metrics/aucnorm``'s curve: one point per distinct score, the
    start at recall 0 with the top group's precision, ξ the resample's positive share); NaN for a
    resample holding one class."""
    scores, positive = np.asarray(scores, dtype=float), np.asarray(positive, dtype=np.float32)
    order = np.argsort(-scores, kind="stable")
    ranked = scores[order]
    ends = np.append(np.flatnonzero(ranked[1:] != ranked[:-1]), len(ranked) - 1)
    labels = positive[order]

    def statistic(weights: np.ndarray) -> np.ndarray:
        weights = weights[:, order]
        tp = np.cumsum(weights * labels, axis=1)[:, ends]
        rows = np.cumsum(weights, axis=1)[:, ends]
        total_tp, total = tp[:, -1:], rows[:, -1:]
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = tp / rows
            first = precision[np.arange(len(rows)), np.argmax(rows > 0, axis=1)][:, None]
            precision = np.where(rows > 0, precision, first)
            recall = tp / total_tp
            xi = total_tp / total
            excess = np.maximum(np.concatenate([first, precision], 1) - xi, 0.0)
            recall = np.concatenate([np.zeros_like(first), recall], 1)
            area = np.sum(np.diff(recall, axis=1) * (excess[:, 1:] + excess[:, :-1]) / 2, axis=1)
            value = np.minimum(1.0, area / (1 - xi[:, 0]))
        one_class = (total_tp[:, 0] == 0) | (total_tp[:, 0] == total[:, 0])
        return np.where(one_class, np.nan, value)

    return statistic


def bootstrap_interval(
    statistic: Callable, n: int, clusters: Sequence | None = None, seed: int = SEED
) -> list[float] | None:
    """The 95% bias-corrected percentile bootstrap interval of ``statistic`` (see
    :func:`bootstrap`)."""
    return bootstrap_intervals({None: statistic}, n, clusters, seed)[None]


def bootstrap_intervals(
    statistics: Mapping, n: int, clusters: Sequence | None = None, seed: int = SEED
) -> dict:
    """:func:`bootstrap_interval` of each of ``statistics`` (by key), all on the same resamples:
    the weights are drawn once, so a result's every group costs one draw, not one each."""
    values = {key: [] for key in statistics}
    for weights in resample_weights(cluster_codes(clusters, n), RESAMPLES, seed):
        for key, statistic in statistics.items():
            values[key].append(statistic(weights))
    ones = np.ones((1, n), dtype=np.float32)
    return {
        key: percentile_interval(np.concatenate(values[key]), float(statistic(ones)[0]))
        for key, statistic in statistics.items()
    }


def within(rows: np.ndarray, statistic: Callable) -> Callable[[np.ndarray], np.ndarray]:
    """``statistic`` of the rows where ``rows`` is True (a group), from weights over all rows;
    NaN for a resample that drew none of them."""

    def restricted(weights: np.ndarray) -> np.ndarray:
        weights = weights[:, rows]
        with np.errstate(invalid="ignore", divide="ignore"):
            found = statistic(weights)
        return np.where(weights.sum(axis=1) > 0, found, np.nan)

    return restricted


def method(clusters: Sequence | None, cluster_by: str | None) -> dict:
    """What a result's ``intervals`` field records of how its intervals were made."""
    return {
        "level": LEVEL,
        "accuracy": "Wilson score interval; standard error sqrt(p(1-p)/(n-1))"
        + (", cluster-robust over " + cluster_by if clusters is not None else ""),
        "bootstrap": {
            "resamples": RESAMPLES,
            "seed": SEED,
            "kind": "bias-corrected percentile",
            "cluster_by": cluster_by if clusters is not None else None,
            "clusters": None if clusters is None else len(set(map(str, clusters))),
        },
    }
