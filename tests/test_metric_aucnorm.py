"""AUCnorm (BoOQA paper, eq. 1) against hand-worked cases, scikit-learn and a brute-force reference."""

from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import evaluate
import numpy as np
import pytest
from sklearn.metrics import precision_recall_curve as sklearn_precision_recall_curve

from compsem.metrics.aucnorm.aucnorm import (
    aucnorm_scores,
    check_inputs,
    precision_recall_curve,
)

FOLDER = Path(__file__).resolve().parents[1] / "metrics" / "aucnorm"


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(FOLDER), keep_in_memory=True)


def reference_curve(scores, labels):
    """The curve by brute force: one threshold per distinct score, highest first; inside a tied
    group holding k > 1 positives a point at each whole number j < k of them, with the group's
    rows entering in proportion; a start point at recall 0 with the first point's precision."""
    positives = sum(labels)
    counts = [(0, 0)]  # (true positives, rows) kept at each threshold
    for threshold in sorted(set(scores), reverse=True):
        kept = [label for score, label in zip(scores, labels, strict=True) if score >= threshold]
        counts.append((sum(kept), len(kept)))
        if sum(kept) == positives:
            break
    points = []
    for (tp_before, rows_before), (tp, rows) in pairwise(counts):
        gained = tp - tp_before
        for j in range(1, gained):
            kept = rows_before + Fraction(j * (rows - rows_before), gained)
            points.append((Fraction(tp_before + j, positives), (tp_before + j) / kept))
        points.append((Fraction(tp, positives), Fraction(tp, rows)))
    return [(Fraction(0), points[0][1]), *points]


def trapezoid(points):
    return sum((r2 - r1) * (p1 + p2) / 2 for (r1, p1), (r2, p2) in pairwise(points))


def reference_scores(scores, labels, baseline=None):
    """aucnorm, auc_xi and auc_50 with exact fractions, written from the issue's definitions."""
    points = reference_curve(scores, labels)
    xi = Fraction(sum(labels), len(labels)) if baseline is None else Fraction(baseline)
    excess = [(recall, max(precision - xi, 0)) for recall, precision in points]
    return {
        "aucnorm": trapezoid(excess) / (1 - xi),
        "auc_xi": trapezoid([point for point in points if point[1] >= xi]),
        "auc_50": trapezoid([point for point in points if point[1] >= Fraction(1, 2)]),
    }


def tied_sample(seed: int, size: int, levels: int, positive_rate: float):
    rng = np.random.default_rng(seed)
    labels = (rng.random(size) < positive_rate).astype(int)
    labels[:2] = [0, 1]  # both classes
    # Scores correlated with the labels, on a coarse grid so that many tie.
    scores = np.round(rng.normal(labels * 0.8, 1.0) * levels) / levels
    return scores, labels


def test_hand_computed_example_a_tie_with_one_positive_is_one_point_and_the_curve_stops_at_full_recall():
    scores, labels = [0.9, 0.8, 0.8, 0.7, 0.3, 0.2], [1, 0, 1, 1, 0, 0]
    precision, recall, thresholds = precision_recall_curve(scores, labels)
    assert recall.tolist() == pytest.approx([0, 1 / 3, 2 / 3, 1])
    assert precision.tolist() == pytest.approx([1, 1, 2 / 3, 3 / 4])
    assert thresholds.tolist() == [0.9, 0.8, 0.7]
    results = aucnorm_scores(scores, labels)
    assert results["auc_xi"] == pytest.approx(61 / 72)
    assert results["auc_50"] == pytest.approx(61 / 72)
    assert results["aucnorm"] == pytest.approx(25 / 36)  # (61/72 - 1/2) / (1/2)
    assert results["baseline_precision"] == 0.5


def test_hand_computed_dip_below_the_baseline_counts_as_zero_in_aucnorm_but_is_bridged_in_auc_xi():
    # Curve (0,1) (.5,1) (.5,.5) (.5,1/3) (.5,1/4) (1,.4); ξ = 2/5.
    results = aucnorm_scores([5, 4, 3, 2, 1], [1, 0, 0, 0, 1])
    assert results["baseline_precision"] == pytest.approx(0.4)
    assert results["auc_xi"] == pytest.approx(0.5 + 0.5 * (0.5 + 0.4) / 2)
    assert results["auc_50"] == pytest.approx(0.5)
    assert results["aucnorm"] == pytest.approx(0.5 * 0.6 / 0.6)
    # Here (AUC_ξ − ξ)/(1 − ξ) would differ: eq. 1 holds only without points below ξ.
    assert results["aucnorm"] != pytest.approx((results["auc_xi"] - 0.4) / 0.6)


@pytest.mark.parametrize("seed", range(6))
def test_thresholds_points_equal_sklearn_precision_recall_curve_cut_at_full_recall(seed):
    scores, labels = tied_sample(seed, size=2000, levels=3, positive_rate=0.2 + 0.1 * seed)
    assert len(np.unique(scores)) < 60  # heavy ties
    precision, recall, thresholds = precision_recall_curve(scores, labels)
    assert precision[0] == precision[1] and recall[0] == 0.0  # the start point
    # The point at each threshold is the last of the points carrying its score (those before
    # it lie inside its group of tied rows).
    last = np.append(thresholds[1:] != thresholds[:-1], True)
    precision, recall, thresholds = precision[1:][last], recall[1:][last], thresholds[last]
    sk_precision, sk_recall, sk_thresholds = sklearn_precision_recall_curve(
        labels, scores, drop_intermediate=False
    )
    # sklearn: recall descending, a sentinel (0, 1) last. Ours: recall ascending, and the
    # released code's convention of stopping at the first point with full recall.
    sk_precision, sk_recall, sk_thresholds = (
        sk_precision[::-1],
        sk_recall[::-1],
        sk_thresholds[::-1],
    )
    stop = int(np.argmax(sk_recall == 1.0)) + 1
    np.testing.assert_allclose(recall, sk_recall[1:stop], rtol=0, atol=1e-15)
    np.testing.assert_allclose(precision, sk_precision[1:stop], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(thresholds, sk_thresholds[: stop - 1])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("baseline", [None, 0.5, 0.1])
def test_scores_match_the_brute_force_reference_on_random_tied_inputs(seed, baseline):
    rng = np.random.default_rng(100 + seed)
    scores, labels = tied_sample(seed, size=int(rng.integers(5, 300)), levels=2, positive_rate=0.35)
    expected = reference_scores(scores.tolist(), labels.tolist(), baseline)
    results = aucnorm_scores(scores, labels, baseline_precision=baseline)
    for name in ("aucnorm", "auc_xi", "auc_50"):
        assert results[name] == pytest.approx(float(expected[name]), abs=1e-12), name


@pytest.mark.parametrize("positive_rate", [0.05, 0.3, 0.5, 0.9])
def test_a_perfect_ranking_scores_one(positive_rate):
    rng = np.random.default_rng(1)
    labels = (rng.random(1000) < positive_rate).astype(int)
    scores = labels + rng.random(1000) * 0.5  # every positive above every negative
    results = aucnorm_scores(scores, labels)
    assert results["aucnorm"] == 1.0
    assert results["auc_xi"] == 1.0


def test_the_worst_ranking_scores_zero():
    labels = np.array([0] * 70 + [1] * 30)
    results = aucnorm_scores(np.arange(100.0), labels[::-1])  # negatives score highest
    assert results["aucnorm"] == 0.0
    assert results["auc_50"] == 0.0  # no point reaches precision 0.5


def test_a_constant_scorer_gets_zero_flat_at_the_baseline():
    # All scores tied: the rows enter together, so precision is ξ at every recall; no credit
    # from a precision of 1 at recall 0 (the released code's sentinel gave this scorer 0.5).
    with pytest.warns(UserWarning, match="all 10 scores are tied at 0.7"):
        results = aucnorm_scores([0.7] * 10, [1, 1, 1, 0, 0, 0, 0, 0, 0, 0], return_curve=True)
    assert results["curve"]["recall"] == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0])
    assert results["curve"]["precision"] == [0.3] * 4
    assert results["curve"]["thresholds"] == [0.7] * 3
    assert results["aucnorm"] == 0.0
    assert results["auc_xi"] == pytest.approx(0.3)
    assert results["auc_50"] == 0.0


@pytest.mark.parametrize(("size", "positives"), [(19, 8), (100, 30), (1000, 300)])
def test_a_constant_scorer_is_not_above_a_random_rankings_mean(size, positives):
    labels = np.array([1] * positives + [0] * (size - positives))
    rng = np.random.default_rng(size)
    random = [aucnorm_scores(rng.random(size), labels) for _ in range(400)]
    with pytest.warns(UserWarning, match="tied"):
        constant = aucnorm_scores(np.zeros(size), labels)
    for name in ("aucnorm", "auc_xi", "auc_50"):
        assert constant[name] <= np.mean([r[name] for r in random]), name
    assert constant["aucnorm"] == 0.0


def test_a_nearly_constant_scorer_gets_nothing_for_the_tied_rest():
    # One positive scores high and the 999 other rows tie: the released code's straight line
    # from (1/P, 1) to (1, ξ) gave about 0.5; the tied rows enter at about ξ.
    labels = np.array([1] + [0, 1] * 499 + [0])
    scores = np.array([1.0] + [0.0] * 999)
    results = aucnorm_scores(scores, labels)
    assert results["aucnorm"] < 0.01
    random = [aucnorm_scores(np.random.default_rng(s).random(1000), labels) for s in range(50)]
    assert results["aucnorm"] <= np.mean([r["aucnorm"] for r in random])


@pytest.mark.parametrize("seed", range(3))
def test_a_tied_group_scores_about_the_mean_of_breaking_its_ties_at_random(seed):
    rng = np.random.default_rng(seed)
    labels = (rng.random(2000) < 0.3).astype(int)
    scores = np.round(rng.normal(labels * 1.0, 1.0) * 2) / 2  # a good ranking, ~15 levels
    tied = aucnorm_scores(scores, labels)
    broken = [aucnorm_scores(scores + rng.random(2000) * 1e-6, labels) for _ in range(100)]
    for name in ("aucnorm", "auc_xi", "auc_50"):
        mean = np.mean([b[name] for b in broken])
        assert tied[name] == pytest.approx(mean, abs=0.005), name


def test_the_order_of_tied_rows_does_not_change_any_number():
    scores, labels = tied_sample(11, size=600, levels=2, positive_rate=0.4)
    expected = aucnorm_scores(scores, labels, return_curve=True)
    rng = np.random.default_rng(0)
    for _ in range(5):
        # Shuffle the rows within each score, keeping the scores' order.
        keys = np.lexsort((rng.random(len(scores)), -scores))
        assert aucnorm_scores(scores[keys], labels[keys], return_curve=True) == expected


@pytest.mark.parametrize("seed", range(4))
def test_distinct_scores_give_the_released_codes_aucnorm(seed):
    """Without ties each point adds one row; the released code's sentinel (0, 1) then only
    differs from the start point where a negative scores highest, with no width under it."""
    rng = np.random.default_rng(seed)
    labels = (rng.random(500) < 0.35).astype(int)
    scores = rng.normal(labels * 0.7, 1.0)
    _, sk_recall, _ = sklearn_precision_recall_curve(labels, scores)
    counts = np.cumsum(labels[np.argsort(-scores)])
    stop = int(np.argmax(counts == labels.sum())) + 1
    released = [(Fraction(0), Fraction(1))] + [
        (Fraction(int(tp), int(labels.sum())), Fraction(int(tp), rows + 1))
        for rows, tp in enumerate(counts[:stop])
    ]
    xi = Fraction(int(labels.sum()), len(labels))
    excess = [(recall, max(precision - xi, 0)) for recall, precision in released]
    expected = trapezoid(excess) / (1 - xi)
    assert aucnorm_scores(scores, labels)["aucnorm"] == pytest.approx(float(expected), abs=1e-12)
    assert len(sk_recall) > stop  # sklearn's curve goes on past full recall; ours is cut


def test_scores_that_reach_full_recall_at_once_without_a_tie_do_not_warn(recwarn):
    results = aucnorm_scores([0.9, 0.9, 0.1], [1, 1, 0])
    assert results["aucnorm"] == 1.0
    assert not [w for w in recwarn if "tied" in str(w.message)]


def test_the_card_describes_what_the_module_computes():
    """The card's description and the module's say what a constant scorer gets."""
    card = (FOLDER / "README.md").read_text()
    description = card.split("description: >-", 1)[1].split("---", 1)[0]
    assert "0 for a constant scorer" in " ".join(description.split())
    assert "0.5 for a constant" not in " ".join(card.split())
    with pytest.warns(UserWarning):
        assert aucnorm_scores([1.0] * 4, [1, 0, 0, 0])["aucnorm"] == 0.0


@pytest.mark.parametrize("positive_rate", [0.1, 0.3, 0.6])
def test_random_scores_give_about_zero(positive_rate):
    rng = np.random.default_rng(7)
    labels = (rng.random(200_000) < positive_rate).astype(int)
    results = aucnorm_scores(rng.random(200_000), labels)
    assert abs(results["aucnorm"]) < 0.01
    assert results["auc_xi"] == pytest.approx(positive_rate, abs=0.01)


@pytest.mark.parametrize(
    "transform",
    [lambda x: 3 * x - 7, np.exp, lambda x: x**3, np.arctan, lambda x: np.log1p(x - x.min())],
    ids=["affine", "exp", "cube", "arctan", "log1p"],
)
def test_invariant_to_any_strictly_increasing_transform_of_the_scores(transform):
    scores, labels = tied_sample(3, size=3000, levels=4, positive_rate=0.3)
    before = aucnorm_scores(scores, labels, return_curve=True)
    after = aucnorm_scores(transform(scores), labels, return_curve=True)
    for name in ("aucnorm", "auc_xi", "auc_50", "baseline_precision"):
        assert after[name] == before[name]
    assert after["curve"]["recall"] == before["curve"]["recall"]
    assert after["curve"]["precision"] == before["curve"]["precision"]


def test_order_of_examples_does_not_matter():
    scores, labels = tied_sample(5, size=1000, levels=2, positive_rate=0.4)
    permutation = np.random.default_rng(0).permutation(len(scores))
    assert aucnorm_scores(scores[permutation], labels[permutation]) == aucnorm_scores(
        scores, labels
    )


def test_baseline_precision_overrides_the_positive_rate():
    scores, labels = tied_sample(2, size=500, levels=3, positive_rate=0.3)
    results = aucnorm_scores(scores, labels, baseline_precision=0.5)
    assert results["baseline_precision"] == 0.5
    assert results["auc_xi"] == results["auc_50"]
    assert results["aucnorm"] != aucnorm_scores(scores, labels)["aucnorm"]


def test_the_evaluate_module_returns_the_pure_functions_results(metric):
    scores, labels = tied_sample(4, size=800, levels=3, positive_rate=0.25)
    expected = aucnorm_scores(scores, labels, return_curve=True)
    assert metric.compute(predictions=scores, references=labels, return_curve=True) == expected
    # Batches stored through evaluate's Arrow cache give the same numbers.
    for start in range(0, 800, 300):
        metric.add_batch(
            predictions=scores[start : start + 300].tolist(),
            references=labels[start : start + 300].tolist(),
        )
    assert metric.compute(return_curve=True) == expected


BAD_INPUTS = [
    ({"predictions": [0.1, 0.2, 0.3], "references": [0, 1]}, r"differ in length \(3 vs 2\)"),
    ({"predictions": [], "references": []}, "empty"),
    ({"predictions": [0.1, float("nan")], "references": [0, 1]}, "NaN or infinite"),
    ({"predictions": [0.1, float("inf")], "references": [0, 1]}, "NaN or infinite"),
    ({"predictions": [0.1, 0.2], "references": [0, 2]}, "must be 0 or 1; index 1 holds 2"),
    ({"predictions": [0.1, 0.2], "references": [0.5, 1]}, "must be 0 or 1"),
    ({"predictions": [0.1, 0.2], "references": ["yes", "no"]}, "must be the numbers 0 or 1"),
    ({"predictions": ["high", "low"], "references": [0, 1]}, "predictions must be numbers"),
    ({"predictions": [[0.1], [0.2]], "references": [0, 1]}, "flat lists"),
    ({"predictions": [0.1, 0.2], "references": [1, 1]}, r"one class only .*positive"),
    ({"predictions": [0.1, 0.2], "references": [0, 0]}, r"one class only .*negative"),
    (
        {"predictions": [0.1, 0.2], "references": [0, 1], "baseline_precision": 1.0},
        r"baseline_precision must lie in \[0, 1\)",
    ),
    (
        {"predictions": [0.1, 0.2], "references": [0, 1], "baseline_precision": -0.1},
        "baseline_precision",
    ),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS)
def test_bad_input_gets_one_clear_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        aucnorm_scores(**kwargs)


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS)
def test_bad_input_through_evaluate_gets_the_same_error(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.compute(**kwargs)


def test_add_batch_checks_each_batch_before_evaluate_stores_it():
    metric = evaluate.load(str(FOLDER), keep_in_memory=True)
    with pytest.raises(ValueError, match="must be 0 or 1"):
        metric.add_batch(predictions=[0.1, 0.2], references=[0.5, 1])
    with pytest.raises(ValueError, match="NaN"):
        metric.add_batch(predictions=[float("nan")], references=[1])


def test_check_inputs_returns_float_scores_and_integer_labels():
    scores, labels = check_inputs([1, 2], [True, False])
    assert scores.dtype == np.float64 and labels.tolist() == [1, 0]


# ties="released": the authors' released computation (sentinel start, one point per tied group).


def released_reference(scores, labels, baseline=None):
    """The released computation from scikit-learn's curve as the authors' code got it (2021):
    the sentinel (0, 1), one point per distinct score, cut at the first point at full recall;
    the points with precision ≥ ξ (resp. 0.5) by the trapezoid; AUCnorm by eq. 1."""
    precision, recall, _ = sklearn_precision_recall_curve(labels, scores, drop_intermediate=False)
    precision, recall = precision[::-1], recall[::-1]  # ascending recall, sentinel first
    stop = int(np.argmax(recall == 1.0)) + 1
    points = list(zip(recall[:stop], precision[:stop], strict=True))
    xi = float(np.mean(labels)) if baseline is None else baseline

    def area(floor):
        kept = [(r, p) for r, p in points if p >= floor]
        return sum((r2 - r1) * (p1 + p2) / 2 for (r1, p1), (r2, p2) in pairwise(kept))

    return {"aucnorm": (area(xi) - xi) / (1 - xi), "auc_xi": area(xi), "auc_50": area(0.5)}


def test_released_hand_computed_heavy_ties_one_point_per_group():
    """4 positives in 10 rows; a tied group of 4 rows holding 2 positives is one point, joined
    to the previous by a straight line: (0, 1), (1/4, 1), (3/4, 3/5), (1, 2/5). AUC_ξ = 31/40,
    AUCnorm = (31/40 − 2/5) / (3/5) = 5/8, AUC50% = 13/20. The honest curve adds the point
    (1/2, 2/3) inside the group and gives 41/72."""
    scores = [0.9, 0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0, 0]
    labels = [1, 1, 0, 1, 0, 1, 0, 0, 0, 0]
    released = aucnorm_scores(scores, labels, ties="released", return_curve=True)
    assert released["curve"]["recall"] == [0.0, 0.25, 0.75, 1.0]
    assert released["curve"]["precision"] == [1.0, 1.0, 0.6, 0.4]
    assert released["curve"]["thresholds"] == [0.9, 0.5, 0.0]
    assert released["auc_xi"] == pytest.approx(31 / 40, abs=1e-15)
    assert released["aucnorm"] == pytest.approx(5 / 8, abs=1e-15)
    assert released["auc_50"] == pytest.approx(13 / 20, abs=1e-15)
    assert aucnorm_scores(scores, labels)["aucnorm"] == pytest.approx(41 / 72, abs=1e-15)


def test_released_sentinel_is_bridged_to_the_first_point_kept():
    """A negative scores highest: the released curve still starts at (0, 1), and with the
    points of precision 0 dropped by the ξ filter it bridges to (1, 1/4): AUC_ξ = 5/8 and
    AUCnorm = 1/2, where the honest computation gives the worst ranking 0."""
    scores, labels = [3, 2, 1, 0], [0, 0, 0, 1]
    released = aucnorm_scores(scores, labels, ties="released")
    assert released["auc_xi"] == pytest.approx(5 / 8)
    assert released["aucnorm"] == pytest.approx(1 / 2)
    assert released["auc_50"] == 0.0  # only the sentinel reaches 0.5: one point, no area
    assert aucnorm_scores(scores, labels)["aucnorm"] == 0.0


def test_released_constant_scorer_gets_one_half_with_a_warning():
    with pytest.warns(UserWarning, match="sentinel"):
        released = aucnorm_scores([1.0] * 5, [1, 0, 0, 0, 0], ties="released")
    assert released["auc_xi"] == pytest.approx(3 / 5)
    assert released["aucnorm"] == pytest.approx(1 / 2)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("levels", [2, 4, 50])
def test_released_matches_sklearns_curve_cut_at_full_recall(seed, levels):
    """Heavily tied scores (2 or 4 distinct values, as an entailment graph's), and lightly."""
    rng = np.random.default_rng(seed)
    labels = (rng.random(300) < 0.3).astype(int)
    scores = rng.integers(0, levels, 300) + labels * rng.integers(0, 2, 300)
    expected = released_reference(scores, labels)
    got = aucnorm_scores(scores, labels, ties="released")
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-12)


def test_released_equals_honest_without_ties_when_a_positive_scores_highest():
    rng = np.random.default_rng(3)
    labels = (rng.random(400) < 0.4).astype(int)
    scores = rng.normal(labels, 1.0)
    scores[np.argmax(labels)] = scores.max() + 1  # a positive on top
    honest, released = (
        aucnorm_scores(scores, labels),
        aucnorm_scores(scores, labels, ties="released"),
    )
    assert released["aucnorm"] == pytest.approx(honest["aucnorm"], abs=1e-12)


def test_released_through_evaluate_and_bad_ties(metric):
    scores, labels = [0.9, 0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0, 0], [1, 1, 0, 1, 0, 1, 0, 0, 0, 0]
    result = metric.compute(predictions=scores, references=labels, ties="released")
    assert result["aucnorm"] == pytest.approx(5 / 8)
    with pytest.raises(ValueError, match="ties must be 'honest'"):
        aucnorm_scores(scores, labels, ties="sklearn")
    with pytest.raises(ValueError, match="ties must be 'honest'"):
        precision_recall_curve(scores, labels, ties=None)


def test_released_bridges_a_dip_below_the_baseline_that_honest_counts_as_zero():
    """The card's dip example: AUC_ξ = 0.725 either way, but eq. 1 on it gives
    (0.725 − 0.4) / 0.6 = 13/24 where the honest integral of max(P − ξ, 0) gives 1/2."""
    scores, labels = [5, 4, 3, 2, 1], [1, 0, 0, 0, 1]
    released = aucnorm_scores(scores, labels, ties="released")
    assert released["auc_xi"] == pytest.approx(0.725)
    assert released["aucnorm"] == pytest.approx(13 / 24)
    assert aucnorm_scores(scores, labels)["aucnorm"] == pytest.approx(1 / 2)
