"""Sampling arithmetic that more than one benchmark's splits use."""

from __future__ import annotations

import numpy as np


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
