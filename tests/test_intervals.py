"""The 95% intervals of every score (compsem/harness/results/intervals.py): the closed forms
lm-eval and Wilson give, the bootstrap statistics agree with the scores they resample, and each
interval covers a known population value in 93-97% of 1,000 simulated runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from compsem.harness.results import intervals
from compsem.harness.results.scores import grouped_scores, scores
from compsem.metrics.aucnorm.aucnorm import aucnorm_scores

TRIALS = 1000
ROWS = 200
RESAMPLES = 200  # enough for the 2.5th and 97.5th percentiles; the runtime default is 1,000


def test_accuracy_stderr_is_lm_evals_and_the_interval_is_wilsons():
    correct = np.array([1] * 70 + [0] * 30, dtype=bool)
    found = intervals.accuracy_interval(correct)
    assert found["se"] == pytest.approx(math.sqrt(0.7 * 0.3 / 99))  # lm-eval's acc_stderr
    low, high = found["ci"]
    assert (low, high) == pytest.approx((0.6042, 0.7810), abs=1e-4)  # Wilson, z = 1.96
    # all right on 20 rows: Wald collapses to [1, 1]; Wilson keeps a width
    assert intervals.accuracy_interval(np.ones(20, dtype=bool))["ci"][0] == pytest.approx(
        0.8389, abs=1e-4
    )


def test_rows_sharing_an_item_widen_the_accuracy_interval():
    rng = np.random.default_rng(3)
    items = np.repeat(np.arange(50), 4)  # 4 rows per item, answered alike
    correct = np.repeat(rng.random(50) < 0.6, 4)
    alone = intervals.accuracy_interval(correct)
    clustered = intervals.accuracy_interval(correct, items)
    assert clustered["se"] == pytest.approx(2 * alone["se"], rel=0.05)  # √4: 50 items, not 200
    width = clustered["ci"][1] - clustered["ci"][0]
    assert width == pytest.approx(2 * (alone["ci"][1] - alone["ci"][0]), rel=0.1)


def test_unit_weights_give_back_the_scores_the_bootstrap_resamples():
    rng = np.random.default_rng(0)
    references = rng.integers(0, 3, 150)
    predictions = np.where(rng.random(150) < 0.6, references, rng.integers(0, 3, 150))
    ones = np.ones((1, 150))
    full = scores(references, predictions, ["a", "b", "c"])
    macro = intervals.weighted_macro_f1(references, predictions, [0, 1, 2])(ones)[0]
    assert macro == pytest.approx(full["macro_f1"])
    weighted = intervals.weighted_macro_f1(references, predictions, [0, 1, 2], by_support=True)
    assert weighted(ones)[0] == pytest.approx(full["weighted_f1"])
    values = rng.normal(size=150) + (references == 1)
    aucnorm = intervals.weighted_aucnorm(values, references == 1)(ones)[0]
    assert aucnorm == pytest.approx(aucnorm_scores(values, references == 1)["aucnorm"])


def test_a_weight_of_two_is_the_row_drawn_twice():
    rng = np.random.default_rng(1)
    references = rng.integers(0, 2, 40)
    predictions = rng.integers(0, 2, 40)
    weights = rng.integers(0, 3, 40).astype(float)
    drawn = np.repeat(np.arange(40), weights.astype(int))
    macro = intervals.weighted_macro_f1(references, predictions, [0, 1])(weights[None])[0]
    assert macro == pytest.approx(scores(references[drawn], predictions[drawn], "ab")["macro_f1"])


def test_the_bootstrap_is_seeded_and_resamples_whole_items():
    correct = np.repeat([True, False, True, True], 5)
    items = np.repeat(np.arange(4), 5)
    statistic = intervals.weighted_accuracy(correct)
    first = intervals.bootstrap(statistic, 20, items, resamples=300)
    assert np.array_equal(first, intervals.bootstrap(statistic, 20, items, resamples=300))
    # drawing 4 items: every resampled accuracy is a multiple of 1/4
    assert np.allclose((first * 4) % 1, 0)


def test_results_carry_intervals_per_label_precision_and_recall_and_their_method():
    references = np.array([0, 0, 1, 1, 1, 2, 2, 2, 2, 0])
    predictions = np.array([0, 1, 1, 1, 0, 2, 2, 1, 2, 0])
    groups = {"kind": ["x", "y"] * 5}
    result = grouped_scores(references, predictions, "abc", groups, ("np", list("aabbccddee")))
    assert result["precision"] == pytest.approx({"a": 2 / 3, "b": 2 / 4, "c": 3 / 3})
    assert result["recall"] == pytest.approx({"a": 2 / 3, "b": 2 / 3, "c": 3 / 4})
    assert result["support"] == {"a": 3, "b": 3, "c": 4}
    for key in ("accuracy_ci", "macro_f1_ci", "weighted_f1_ci"):
        low, high = result[key]
        assert low <= result[key.removesuffix("_ci")] <= high
    assert result["intervals"]["bootstrap"] == {
        "resamples": intervals.RESAMPLES,
        "seed": intervals.SEED,
        "kind": "bias-corrected percentile",
        "cluster_by": "np",
        "clusters": 5,
    }
    cell = result["by_group"]["kind"]["x"]
    assert cell["accuracy_ci"][0] <= cell["accuracy"] <= cell["accuracy_ci"][1]


# ---------------------------------------------------------------- calibration -----------------
def coverage(draw, interval, truth: float) -> float:
    """The share of TRIALS simulated runs whose 95% interval holds ``truth``."""
    rng = np.random.default_rng(2026)
    hits = 0
    for trial in range(TRIALS):
        low, high = interval(*draw(rng), trial)
        hits += low <= truth <= high
    return hits / TRIALS


@pytest.fixture
def modest_bootstrap(monkeypatch):
    monkeypatch.setattr(intervals, "RESAMPLES", RESAMPLES)


def test_the_accuracy_interval_covers_the_true_accuracy_95_percent_of_the_time():
    found = coverage(
        lambda rng: (rng.random(ROWS) < 0.72,),
        lambda correct, _: intervals.accuracy_interval(correct)["ci"],
        0.72,
    )
    assert 0.93 <= found <= 0.97


def test_the_clustered_accuracy_interval_covers_when_items_share_rows():
    def draw(rng):  # 50 items of 4 rows; an item's rows lean the same way
        skill = np.clip(0.7 + rng.normal(0, 0.2, 50), 0, 1)
        return (rng.random(ROWS) < np.repeat(skill, 4),)

    items = np.repeat(np.arange(50), 4)
    truth = float(np.mean(np.clip(0.7 + np.random.default_rng(9).normal(0, 0.2, 10**6), 0, 1)))
    found = coverage(draw, lambda c, _: intervals.accuracy_interval(c, items)["ci"], truth)
    assert 0.93 <= found <= 0.97


PRIOR = np.array([0.5, 0.3, 0.2])
CONFUSION = np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]])  # P(prediction | label)


def test_the_macro_f1_interval_covers_the_population_macro_f1(modest_bootstrap):
    joint = PRIOR[:, None] * CONFUSION
    truth = float(
        np.mean([2 * joint[k, k] / (joint[k].sum() + joint[:, k].sum()) for k in range(3)])
    )

    def draw(rng):
        references = rng.choice(3, ROWS, p=PRIOR)
        cumulative = CONFUSION[references].cumsum(1)
        return references, (rng.random(ROWS)[:, None] > cumulative).sum(1)

    def interval(references, predictions, trial):
        statistic = intervals.weighted_macro_f1(references, predictions, [0, 1, 2])
        return intervals.bootstrap_interval(statistic, ROWS, seed=trial)

    assert 0.93 <= coverage(draw, interval, truth) <= 0.97


def test_the_aucnorm_interval_covers_the_population_aucnorm(modest_bootstrap):
    def draw(rng, rows=ROWS):  # binormal scores: positives shifted by 1.5, 30% positive
        positive = rng.random(rows) < 0.3
        return rng.normal(size=rows) + 1.5 * positive, positive

    big = draw(np.random.default_rng(7), 200_000)
    truth = intervals.weighted_aucnorm(*big)(np.ones((1, 200_000)))[0]  # the population value

    def interval(values, positive, trial):
        statistic = intervals.weighted_aucnorm(values, positive)
        return intervals.bootstrap_interval(statistic, ROWS, seed=trial)

    assert 0.93 <= coverage(draw, interval, truth) <= 0.97
