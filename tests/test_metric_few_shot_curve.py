"""Few-shot learning curves (RNPC §6, SETI §5.2) against a hand-worked curve and a plain reference."""

import math
import statistics
from itertools import pairwise
from pathlib import Path

import evaluate
import numpy as np
import pytest

from compsem.metrics.few_shot_curve.few_shot_curve import few_shot_curve

FOLDER = Path(__file__).resolve().parents[1] / "metrics" / "few_shot_curve"
SETI_SHOTS = [0, 1, 2, 4, 8, 16, 32, 64, 128]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(FOLDER), keep_in_memory=True)


def reference(shots, scores, low=0.0, high=1.0, fraction=0.9):
    """Per-k statistics and areas with the statistics module and explicit loops."""
    groups = {}
    for k, score in zip(shots, scores, strict=True):
        groups.setdefault(k, []).append(score)
    ks = sorted(groups)
    means = [statistics.fmean(groups[k]) for k in ks]

    def area(xs):
        total = sum(
            (x2 - x1) * (y1 + y2) / 2
            for (x1, x2), (y1, y2) in zip(pairwise(xs), pairwise(means), strict=True)
        )
        return (total / (xs[-1] - xs[0]) - low) / (high - low)

    best = max(means)
    return {
        "shots": ks,
        "mean": means,
        "std": [statistics.stdev(groups[k]) if len(groups[k]) > 1 else None for k in ks],
        "count": [len(groups[k]) for k in ks],
        "aulc": area(ks),
        "aulc_log2": area([math.log2(k + 1) for k in ks]),
        "zero_shot": means[0] if ks[0] == 0 else None,
        "best": best,
        "best_shots": ks[means.index(best)],
        "gain_over_zero_shot": best - means[0] if ks[0] == 0 else None,
        "shots_to_fraction": next(
            k for k, m in zip(ks, means, strict=True) if m >= fraction * best
        ),
    }


def assert_matches(results, expected):
    for name, value in expected.items():
        if isinstance(value, list):
            assert results[name] == pytest.approx(value), name
        elif value is None or isinstance(value, int):
            assert results[name] == value, name
        else:
            assert results[name] == pytest.approx(value, abs=1e-12), name


def test_hand_computed_curve():
    results = few_shot_curve(shots=[0, 0, 4, 4, 16, 16], scores=[0.5, 0.6, 0.8, 0.9, 0.9, 0.9])
    assert results["shots"] == [0, 4, 16]
    assert results["mean"] == pytest.approx([0.55, 0.85, 0.9])
    assert results["std"] == pytest.approx([math.sqrt(0.005), math.sqrt(0.005), 0.0])
    assert results["count"] == [2, 2, 2]
    assert results["aulc"] == pytest.approx(((0.55 + 0.85) / 2 * 4 + (0.85 + 0.9) / 2 * 12) / 16)
    x = [0, math.log2(5), math.log2(17)]
    log_area = (0.55 + 0.85) / 2 * x[1] + (0.85 + 0.9) / 2 * (x[2] - x[1])
    assert results["aulc_log2"] == pytest.approx(log_area / x[2])
    assert results["zero_shot"] == pytest.approx(0.55)
    assert (results["best"], results["best_shots"]) == (pytest.approx(0.9), 16)
    assert results["gain_over_zero_shot"] == pytest.approx(0.35)
    assert results["shots_to_fraction"] == 4  # 0.85 ≥ 0.9 × 0.9
    assert (
        few_shot_curve([0, 0, 4, 4, 16, 16], [0.5, 0.6, 0.8, 0.9, 0.9, 0.9], fraction=1.0)[
            "shots_to_fraction"
        ]
        == 16
    )


@pytest.mark.parametrize("seed", range(10))
def test_matches_the_reference_on_random_curves_with_heavy_ties(seed):
    rng = np.random.default_rng(seed)
    grid = SETI_SHOTS if seed % 2 else [10, 20, 50, 100, 150, 200]  # SETI's and RNPC's grids
    shots = rng.choice(grid[: rng.integers(2, len(grid) + 1)], size=int(rng.integers(8, 60)))
    shots[:2] = grid[:2]  # at least two distinct k
    scores = np.round(rng.random(len(shots)), 1)  # many equal scores, ties for the best
    results = few_shot_curve(shots.tolist(), scores.tolist())
    assert_matches(results, reference(shots.tolist(), scores.tolist()))


def test_percentages_with_score_range_give_the_same_areas():
    rng = np.random.default_rng(1)
    shots = np.repeat(SETI_SHOTS, 3)
    scores = rng.random(len(shots))
    unit = few_shot_curve(shots, scores)
    percent = few_shot_curve(shots, scores * 100, score_range=(0, 100))
    assert percent["aulc"] == pytest.approx(unit["aulc"])
    assert percent["aulc_log2"] == pytest.approx(unit["aulc_log2"])
    assert percent["best"] == pytest.approx(100 * unit["best"])


@pytest.mark.parametrize("level", [0.0, 0.37, 1.0])
def test_a_flat_curve_has_its_level_as_area(level):
    results = few_shot_curve(SETI_SHOTS, [level] * len(SETI_SHOTS))
    assert results["aulc"] == pytest.approx(level)
    assert results["aulc_log2"] == pytest.approx(level)
    assert results["gain_over_zero_shot"] == 0.0
    assert results["shots_to_fraction"] == 0


def test_the_log2_area_weighs_the_first_shots_more():
    # SETI: a jump after one or two shots. Over log2(k + 1) the jump fills more of the axis.
    scores = [0.3, 0.9, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95]
    results = few_shot_curve(SETI_SHOTS, scores)
    assert results["aulc_log2"] < results["aulc"]
    assert results["shots_to_fraction"] == 1
    late = few_shot_curve(SETI_SHOTS, scores[::-1])  # learns only at the end
    assert late["aulc_log2"] > late["aulc"]


def test_the_order_of_measurements_does_not_matter():
    rng = np.random.default_rng(2)
    shots = np.repeat([10, 50, 100, 200], 5)
    scores = rng.random(20)
    order = rng.permutation(20)
    shuffled, ordered = few_shot_curve(shots[order], scores[order]), few_shot_curve(shots, scores)
    assert shuffled.keys() == ordered.keys()
    assert_matches(shuffled, {name: value for name, value in ordered.items() if name != "std"})
    assert shuffled["std"] == pytest.approx(ordered["std"])


def test_without_zero_shots_there_is_no_zero_shot_score():
    results = few_shot_curve([10, 50, 200], [0.6, 0.85, 0.9])
    assert results["zero_shot"] is None and results["gain_over_zero_shot"] is None
    assert results["shots_to_fraction"] == 50  # the first k whose mean reaches 0.9 × 0.9
    assert few_shot_curve([10, 50, 200], [0.6, 0.8, 0.9])["shots_to_fraction"] == 200


def test_runs_add_the_spread_of_the_per_run_areas():
    rng = np.random.default_rng(3)
    per_run = {seed: rng.random(len(SETI_SHOTS)) for seed in (1, 2, 3)}
    shots = SETI_SHOTS * 3
    scores = np.concatenate(list(per_run.values()))
    runs = np.repeat([1, 2, 3], len(SETI_SHOTS))
    results = few_shot_curve(shots, scores, runs=runs)
    pooled = few_shot_curve(shots, scores)
    assert {k: v for k, v in results.items() if k in pooled} == pooled
    areas = [reference(SETI_SHOTS, list(values))["aulc"] for values in per_run.values()]
    log_areas = [reference(SETI_SHOTS, list(values))["aulc_log2"] for values in per_run.values()]
    assert results["runs"] == 3
    assert results["aulc_std"] == pytest.approx(statistics.stdev(areas))
    assert results["aulc_log2_std"] == pytest.approx(statistics.stdev(log_areas))
    assert statistics.fmean(areas) == pytest.approx(results["aulc"])  # area is linear


def test_population_std_with_ddof_zero():
    results = few_shot_curve([0, 0, 1], [0.2, 0.4, 0.5], ddof=0)
    assert results["std"] == pytest.approx([0.1, 0.0])


def test_the_evaluate_module_returns_the_pure_functions_results(metric):
    shots, scores = [0, 0, 4, 4, 16, 16], [0.5, 0.6, 0.8, 0.9, 0.9, 0.9]
    expected = few_shot_curve(shots, scores, runs=[1, 2, 1, 2, 1, 2])
    assert metric.compute(shots=shots, scores=scores, runs=[1, 2, 1, 2, 1, 2]) == expected
    metric.add_batch(shots=shots[:3], scores=scores[:3])
    metric.add_batch(shots=shots[3:], scores=scores[3:])
    assert metric.compute() == few_shot_curve(shots, scores)


BAD_INPUTS = [
    ({"shots": [0, 1], "scores": [0.5]}, r"differ in length \(2 vs 1\)"),
    ({"shots": [0, 1], "scores": [0.5, float("nan")]}, "NaN or infinite"),
    ({"shots": [0, 1.5], "scores": [0.5, 0.6]}, "whole numbers from 0 to 2\\*\\*53 .*got 1.5"),
    ({"shots": [-1, 1], "scores": [0.5, 0.6]}, "whole numbers from 0 to 2\\*\\*53 .*got -1"),
    ({"shots": [4, 4], "scores": [0.5, 0.6]}, "at least two distinct shot counts; got only k=4"),
    (
        {"shots": [0, 1], "scores": [50, 60]},
        r"outside score_range \(0, 1\).*score_range=\(0, 100\)",
    ),
    ({"shots": [0, 1], "scores": [0.5, 0.6], "score_range": (1, 0)}, "low < high"),
    ({"shots": [0, 1], "scores": [0.5, 0.6], "fraction": 0}, r"fraction must lie in \(0, 1\]"),
    ({"shots": [0, 1], "scores": [0.5, 0.6], "runs": [1]}, "runs has 1 ids for 2 scores"),
    (
        {"shots": [0, 1, 1], "scores": [0.5, 0.6, 0.7], "runs": [1, 1, 1]},
        "run '1' has 2 scores at k=1",
    ),
    (
        {"shots": [0, 1, 1], "scores": [0.5, 0.6, 0.7], "runs": ["a", "a", "b"]},
        "run 'b' has no score at k=0",
    ),
    ({"shots": ["zero", "one"], "scores": [0.5, 0.6]}, "must be numbers"),
    ({"shots": [[0], [1]], "scores": [0.5, 0.6]}, "flat lists"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS)
def test_bad_input_gets_one_clear_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        few_shot_curve(**kwargs)


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS[:11])
def test_bad_input_through_evaluate_gets_the_same_error(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.compute(**kwargs)


def test_negative_scores_reach_a_fraction_of_the_best_above_the_range_floor():
    # All means negative in (-1, 1): -0.2 is the best, 0.8 above the floor; 90% of that is
    # 0.72 above the floor (-0.28), which k=4 (-0.2) reaches and k=0 (-0.3) does not.
    results = few_shot_curve([0, 4, 16], [-0.3, -0.2, -0.25], score_range=(-1, 1))
    assert results["best"] == pytest.approx(-0.2) and results["best_shots"] == 4
    assert results["shots_to_fraction"] == 4
    # The best at k=16 now; k=4 (-0.25, 0.75 above the floor) still reaches 90% of it.
    later = few_shot_curve([0, 4, 16], [-0.3, -0.25, -0.2], score_range=(-1, 1))
    assert later["shots_to_fraction"] == 4
    assert (
        few_shot_curve([0, 4, 16], [-0.9, -0.5, -0.2], score_range=(-1, 1))["shots_to_fraction"]
        == 16
    )


def test_with_a_zero_floor_the_fraction_is_of_the_best_itself():
    results = few_shot_curve([0, 4, 16], [0.5, 0.8, 0.9], fraction=0.9)
    assert results["shots_to_fraction"] == 16  # 0.8 < 0.81
    assert few_shot_curve([0, 4, 16], [0.5, 0.82, 0.9])["shots_to_fraction"] == 4


@pytest.mark.parametrize("ddof", [-1, "1", 1.5, None, True])
def test_a_bad_ddof_gets_one_clear_value_error(ddof):
    with pytest.raises(ValueError, match="ddof must be a whole number ≥ 0"):
        few_shot_curve([0, 4], [0.5, 0.6], runs=[1, 1], ddof=ddof)


def test_a_numpy_integer_ddof_is_accepted():
    results = few_shot_curve([0, 0, 4, 4], [0.5, 0.7, 0.6, 0.8], ddof=np.int64(0))
    assert results["std"] == [pytest.approx(0.1), pytest.approx(0.1)]
