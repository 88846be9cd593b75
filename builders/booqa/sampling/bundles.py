"""BoOQA sampling (Appendix D): bundles, windows by article count, negatives by frequency bucket.

A bundle is one positive and at most ``max_negatives`` of its negatives, sampled together: a
positive is never sampled without its negatives, nor a negative without its positive.

- Windows in proportion to their article counts: each positive with at least one negative gets
  the weight articles(window) / (such positives in the window), and bundles are visited in the
  order of a weighted random permutation (Efraimidis and Spirakis, 2006), so a sample of ``n``
  bundles draws from each window about in proportion to its articles.
- Negatives per frequency bucket: each bucket's quota is its share of the positive population
  times the negatives chosen so far (plus the one in question). A bundle takes its negatives
  from the buckets furthest below quota first (at random within a bucket, at most
  ``max_negatives``, none from a bucket at quota); a positive whose negatives all fall in buckets
  at quota is passed over. So the negatives' frequency distribution tracks the positives'.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def frequency_bucket(frequency: np.ndarray, boundaries: tuple[int, ...]) -> np.ndarray:
    """Bucket index of each frequency: 0 below the first boundary, i in [b[i-1], b[i])."""
    return np.searchsorted(np.asarray(boundaries), np.asarray(frequency), side="right")


def bucket_labels(boundaries: tuple[int, ...]) -> list[str]:
    """'<60', '60-99', …, '100000+' for boundaries (60, 100, …, 100000)."""
    inner = [f"{low}-{high - 1}" for low, high in zip(boundaries, boundaries[1:], strict=False)]
    return [f"<{boundaries[0]}", *inner, f"{boundaries[-1]}+"]


@dataclass(frozen=True)
class Bundle:
    positive: int  # row of the positive in the population
    negatives: tuple[int, ...]  # positions in that positive's list of negatives


def sample_bundles(
    windows: np.ndarray,
    positive_frequency: np.ndarray,
    negative_frequencies: list[np.ndarray],
    articles_per_window: dict[int, int],
    target: int,
    boundaries: tuple[int, ...],
    rng: np.random.Generator,
    max_negatives: int = 2,
    negative_keys: list[list] | None = None,
) -> list[Bundle]:
    """At most ``target`` bundles from a population of positives (one entry per positive).

    ``negative_keys`` identify the negatives (the same proposition can derive from two
    positives of one window, e.g. *beat* from *defeat* and from *overcome*): a negative already
    in a sampled bundle is not sampled again."""
    eligible = np.flatnonzero([len(n) > 0 for n in negative_frequencies])
    if len(eligible) == 0 or target <= 0:
        return []
    target = min(target, len(eligible))
    share = np.bincount(
        frequency_bucket(positive_frequency, boundaries), minlength=len(boundaries) + 1
    ) / len(positive_frequency)
    counts = np.zeros(len(share))
    per_window = dict(zip(*np.unique(windows[eligible], return_counts=True), strict=True))
    weight = np.array([articles_per_window[w] / per_window[w] for w in windows[eligible]])
    keys = np.log(rng.random(len(eligible))) / weight  # the largest keys come first
    bundles, used = [], set()
    for row in eligible[np.argsort(-keys, kind="stable")]:
        buckets = frequency_bucket(negative_frequencies[row], boundaries)
        keys_of = negative_keys[row] if negative_keys is not None else [None] * len(buckets)
        taken = [i for i, key in enumerate(keys_of) if key is not None and key in used]
        chosen: list[int] = []
        for _ in range(max_negatives):
            deficit = share[buckets] * (counts.sum() + 1) - counts[buckets]
            deficit[chosen + taken] = -np.inf
            if deficit.max() <= 0:
                break
            best = np.flatnonzero(deficit == deficit.max())
            position = int(rng.choice(best))
            counts[buckets[position]] += 1
            chosen.append(position)
        if chosen:
            used.update(keys_of[i] for i in chosen)
            bundles.append(Bundle(int(row), tuple(sorted(chosen))))
            if len(bundles) == target:
                break
    return bundles


def time_split(windows: np.ndarray, articles: np.ndarray, first_fraction: float) -> np.ndarray:
    """Chronological split of windows: the earliest holding about ``first_fraction`` of the
    articles go to the first part (True), the rest to the second; each part keeps at least one
    window. ``windows`` must be sorted and hold at least two."""
    if len(windows) < 2:
        raise ValueError("a time split needs at least two windows")
    cumulative = np.cumsum(articles) / np.sum(articles)
    cut = int(np.searchsorted(cumulative, first_fraction, side="left")) + 1
    cut = min(max(cut, 1), len(windows) - 1)
    first = np.zeros(len(windows), dtype=bool)
    first[:cut] = True
    return first
