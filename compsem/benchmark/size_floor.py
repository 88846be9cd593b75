"""How large a split must be before its scores can rank models, declared once for every
benchmark, so that ``compsem build``, each card's header and ``compsem audit`` say it in the same
words when a config falls short.

A test split of fewer than :data:`MIN_TEST_ROWS` rows leaves a model's accuracy a wide interval
(95% normal approximation, at 50% accuracy: ±3.1 points at 1,000 rows, ±18.5 at 28), wider than
the gaps between the models being compared. A hypothesis-only probe trained on fewer than
:data:`MIN_PROBE_TRAIN_ROWS` rows learns too little for its score to say whether the hypotheses
give the label away, so the audit reports "not enough rows" instead of one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

MIN_TEST_ROWS = 1000
MIN_PROBE_TRAIN_ROWS = 200
NOT_ENOUGH_ROWS = "not enough rows"


def accuracy_interval(rows: int) -> float:
    """Half-width, in accuracy points, of the 95% interval of an accuracy near 50% on ``rows``
    rows (normal approximation)."""
    return 100 * 1.96 * math.sqrt(0.25 / max(rows, 1))


def size_warnings(summary: Iterable[dict]) -> list[str]:
    """One plain sentence per config whose ``test`` split is below :data:`MIN_TEST_ROWS`, from
    rows with ``config``, ``split`` and ``rows`` (``compsem.publish.export.export_summary``'s)."""
    warnings = []
    for row in summary:
        if row["split"] == "test" and row["rows"] < MIN_TEST_ROWS:
            warnings.append(
                f"{row['config']}: its test split has {row['rows']:,} rows, below the "
                f"{MIN_TEST_ROWS:,} a test split needs to rank models (an accuracy on it is "
                f"uncertain by ±{accuracy_interval(row['rows']):.1f} points, more than the gaps "
                "between most models)."
            )
    return warnings


def probe_too_small(train_rows: int) -> str | None:
    """The note a hypothesis-only probe gets instead of a score when trained on too few rows."""
    if train_rows >= MIN_PROBE_TRAIN_ROWS:
        return None
    return f"{NOT_ENOUGH_ROWS}: trained on {train_rows}, fewer than {MIN_PROBE_TRAIN_ROWS}"
