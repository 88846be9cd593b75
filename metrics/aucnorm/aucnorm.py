"""AUCnorm: area under the precision-recall curve above the random baseline (Li et al., 2022)."""

import math
import numbers
import warnings

import datasets
import evaluate
import numpy as np

_DESCRIPTION = """\
AUCnorm (Li et al., 2022, eq. 1) is the share of the area above the random baseline precision ξ
that lies under a model's precision-recall curve: 1 for a perfect ranking, 0 for a constant scorer
(all scores tied: precision ξ at every recall; a warning says so), and near 0 for a random ranking
of many examples (on average 0.015 for 1,000 rows with 300 positives, but 0.156 for 19 rows with 8:
the area below ξ counts as 0, so chance is above 0 on few rows). Unlike AUC with a fixed
precision floor (AUC50%), it compares models across test sets with different positive rates. ξ
defaults to the positive rate of the references.

The curve follows the authors' released code (sklearn's precision-recall curve as of 2021) where
scores are distinct: scores sorted descending, one point per distinct score (tied rows enter
together), precision = tp / (tp + fp), recall = tp / positives, cut at the first point reaching
full recall. Two things differ, both about ties, so that tied scores earn no precision their rows
do not have. The curve starts at recall 0 with the precision of the top-scored group, not at a
sentinel precision 1 (average precision likewise credits recall up to the first point with that
point's precision): the same as the released code when one positive scores highest, but a
constant scorer no longer gets 0.5 from a straight line from (0, 1) to (1, ξ). And a group of tied
rows holding k > 1 positives gets a point at each whole number of them, with positives and rows
growing in proportion (Davis and Goadrich, 2006), rather than one straight line across the group;
a tied group then scores about the mean of breaking its ties at random. `auc_xi` and `auc_50` keep
the points with precision ≥ ξ (resp. 0.5) and integrate them by the trapezoid over recall;
`aucnorm` integrates max(P − ξ, 0) by the trapezoid over every curve point and divides by 1 − ξ.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `float`): scores, higher meaning more likely positive (entailment).
        Only their order matters.
    references (`list` of `int`): gold labels, 1 positive and 0 negative; both must occur.
    baseline_precision (`float`, optional): the random baseline ξ in [0, 1). Defaults to the
        positive rate of `references`.
    return_curve (`bool`, defaults to `False`): also return the precision-recall curve.
    ties (`str`, defaults to `"honest"`): `"honest"`, tied rows enter together and earn no
        precision their rows lack (described above); `"released"`, the authors' released
        computation exactly: a sentinel (0, 1) starts the curve, each tied group is one point,
        and AUCnorm = (AUC_ξ − ξ) / (1 − ξ), unclipped. Use it to set heavily tied scores
        (entailment graphs, which give every missing edge one score) beside the paper's tables.

Returns:
    aucnorm (`float`): ∫ max(P(R) − ξ, 0) dR / (1 − ξ), in [0, 1]; 0 (with a warning) when all
        scores tie.
    auc_xi (`float`): area under the points with precision ≥ ξ, in [0, 1].
    auc_50 (`float`): area under the points with precision ≥ 0.5 (AUC50%), in [0, 1].
    baseline_precision (`float`): the ξ used.
    curve (`dict`, with `return_curve=True`): `recall` and `precision` (recall ascending, from
        the start point at recall 0) and `thresholds` (the score at each point after the start;
        points inside a tied group repeat its score).

Examples:
    >>> aucnorm = evaluate.load("aucnorm")
    >>> results = aucnorm.compute(
    ...     predictions=[0.9, 0.8, 0.8, 0.7, 0.3, 0.2], references=[1, 0, 1, 1, 0, 0]
    ... )
    >>> print({name: round(value, 4) for name, value in results.items()})
    {'aucnorm': 0.6944, 'auc_xi': 0.8472, 'auc_50': 0.8472, 'baseline_precision': 0.5}

    A perfect ranking scores 1 whatever the positive rate:

    >>> aucnorm.compute(predictions=[3, 2, 1, 0], references=[1, 0, 0, 0])["aucnorm"]
    1.0
"""

_CITATION = """\
@inproceedings{li-etal-2022-language,
    title = "Language Models Are Poor Learners of Directional Inference",
    author = "Li, Tianyi and Hosseini, Mohammad Javad and Weber, Sabine and Steedman, Mark",
    booktitle = "Findings of the Association for Computational Linguistics: EMNLP 2022",
    year = "2022",
    address = "Abu Dhabi, United Arab Emirates",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2022.findings-emnlp.64",
}
"""


def check_inputs(predictions, references) -> tuple[np.ndarray, np.ndarray]:
    """Validated float scores and 0/1 labels; raises one ValueError naming the problem."""
    try:
        scores = np.asarray(predictions, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # 10**400 overflows a float
        raise ValueError(
            "predictions must be numbers (one score per example); got values that are not"
        ) from None
    try:
        labels = np.asarray(references, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # 10**400 overflows a float
        raise ValueError("references must be the numbers 0 or 1; got values that are not") from None
    if scores.ndim != 1 or labels.ndim != 1:
        raise ValueError(
            f"predictions and references must be flat lists; got shapes {scores.shape} and "
            f"{labels.shape}: pass one score and one label per example"
        )
    if len(scores) != len(labels):
        raise ValueError(
            f"predictions and references differ in length ({len(scores)} vs {len(labels)}): "
            "pass exactly one score per reference"
        )
    if len(scores) == 0:
        raise ValueError("predictions and references are empty: pass at least two examples")
    finite = np.isfinite(scores)
    if not finite.all():
        where = int(np.flatnonzero(~finite)[0])
        raise ValueError(
            f"predictions contain {int((~finite).sum())} NaN or infinite scores (first at index "
            f"{where}: {scores[where]}): drop those examples or replace them with finite scores"
        )
    binary = (labels == 0) | (labels == 1)
    if not binary.all():
        where = int(np.flatnonzero(~binary)[0])
        raise ValueError(
            f"references must be 0 or 1; index {where} holds {labels[where]:g}: map the "
            "positive class (entailment) to 1 and every other class to 0"
        )
    return scores, labels.astype(np.int64)


def _check_both_classes(labels: np.ndarray) -> int:
    positives = int(labels.sum())
    if positives in (0, len(labels)):
        only = "positive (1)" if positives else "negative (0)"
        raise ValueError(
            f"references hold one class only (all {len(labels)} are {only}): a precision-recall "
            "curve needs both positives and negatives; evaluate on a set with both classes"
        )
    return positives


def _group_points(scores: np.ndarray, labels: np.ndarray):
    """True positives, rows kept and threshold at each distinct score, highest first, cut at
    the first that reaches full recall (tied rows enter together: one point per group)."""
    positives = _check_both_classes(labels)
    order = np.argsort(scores)[::-1]  # descending; the order within ties does not matter
    scores = scores[order]
    true_positives = np.cumsum(labels[order])
    # One threshold per distinct score: the last index of each run of equal scores.
    ends = np.append(np.flatnonzero(scores[1:] != scores[:-1]), len(scores) - 1)
    stop = int(np.searchsorted(true_positives[ends], positives)) + 1  # first at full recall
    ends = ends[:stop]
    return true_positives[ends], ends + 1, scores[ends], positives


def _curve(scores: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tp, rows, thresholds, positives = _group_points(scores, labels)
    gained = np.diff(tp, prepend=0)
    if gained.max() > 1:
        tp, precision, thresholds = _within_ties(tp, rows, gained, thresholds)
    else:
        precision = tp / rows
    # The curve starts at recall 0 with the precision of the top-scored group, which holds all
    # the way from its first row to its last (they enter together), not with a precision of 1
    # that no threshold gives.
    precision = np.concatenate(([precision[0]], precision))
    recall = np.concatenate(([0.0], tp / positives))
    return precision, recall, thresholds


def _released_curve(scores: np.ndarray, labels: np.ndarray):
    """The curve of the authors' released code: the sentinel (recall 0, precision 1) that
    scikit-learn's and pytorch-lightning's ``precision_recall_curve`` append, then one point per
    distinct score (a tied group is one point, joined to the previous by a straight line), cut
    at the first point reaching full recall (those libraries' releases of 2021). See
    Teddy-Li/LM-DirctionalInference, ``discrete_prompt_model/src/models/nli_model.py``
    (``precision_recall_curve(scores[:, 1], truth)``) and ``src/models/utils.py``
    (``compute_auc``: keep the points with precision >= the minimum precision, set to the test
    set's positive rate, then the trapezoid ``auc``)."""
    tp, rows, thresholds, positives = _group_points(scores, labels)
    precision = np.concatenate(([1.0], tp / rows))
    recall = np.concatenate(([0.0], tp / positives))
    return precision, recall, thresholds


def _within_ties(tp, rows, gained, thresholds):
    """Points inside the groups of tied rows that hold several positives: a group's rows enter
    together, in no order, so from one threshold to the next the positives and the rows grow
    in proportion (Davis and Goadrich, 2006). A group gaining k > 1 positives gets a point at
    each whole number j < k of them, with precision (tp₀ + j) / (rows₀ + j·Δrows / k), so that
    the trapezoid's straight lines do not credit the group with a precision its rows never
    have. Returns true positives, precision and threshold per point."""
    points = np.maximum(gained, 1)  # k − 1 points inside the group, then the threshold itself
    group = np.repeat(np.arange(len(tp)), points)
    step = np.arange(len(group)) - np.repeat(np.cumsum(points) - points, points) + 1
    k = points[group]
    tp_before = (tp - gained)[group]
    rows_before = np.diff(rows, prepend=0)
    rows_before = (rows - rows_before)[group]
    point_tp = tp_before + np.minimum(step, gained[group])
    # k·tp / (k·rows₀ + j·Δrows) in integers: one correctly rounded division, so that points
    # of a group whose precision is constant all equal it exactly (and thresholds give tp/rows).
    precision = (k * point_tp) / (k * rows_before + step * (rows[group] - rows_before))
    return point_tp, precision, thresholds[group]


def precision_recall_curve(
    predictions, references, ties: str = "honest"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The precision-recall curve that AUCnorm integrates (with ``ties="released"``, the
    released code's: the sentinel (0, 1), then one point per distinct score; see
    `_released_curve`).

    Returns `(precision, recall, thresholds)` with recall ascending: first the start point
    (recall 0, the precision of the top-scored group), then one point per distinct score taken
    from the highest down, cut at the first point that reaches full recall; a group of tied
    scores holding k > 1 positives has k − 1 points inside it too (see `_within_ties`).
    `thresholds[i]` is the score at point `i + 1`. Without ties: the released BoOQA code's curve,
    but for the start point's precision (1 there, whatever the top-scored row holds).
    """
    return CURVES[_check_ties(ties)](*check_inputs(predictions, references))


def trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    """Trapezoid-rule area under y over x (`np.trapezoid`, which numpy < 2 lacks)."""
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def auc_above(precision: np.ndarray, recall: np.ndarray, floor: float) -> float:
    """Trapezoid area over recall of the curve points with precision ≥ `floor` (AUC_floor).

    The start point survives when its precision, the top-scored group's, reaches `floor`; with
    one point or none left the area is 0.
    """
    keep = precision >= floor
    return min(1.0, trapezoid(precision[keep], recall[keep]))  # rounding can give 1 + 2e-16


def normalized_auc(precision: np.ndarray, recall: np.ndarray, baseline: float) -> float:
    """∫ max(P(R) − ξ, 0) dR / (1 − ξ) by the trapezoid over every curve point."""
    excess = np.maximum(precision - baseline, 0.0)
    return min(1.0, trapezoid(excess, recall) / (1.0 - baseline))


CURVES = {"honest": _curve, "released": _released_curve}


def _check_ties(ties) -> str:
    if ties not in CURVES:
        raise ValueError(
            f"ties must be 'honest' (tied rows enter together, the default) or 'released' "
            f"(the authors' released computation, to set beside the paper's tables); got {ties!r}"
        )
    return ties


def aucnorm_scores(
    predictions,
    references,
    baseline_precision: float | None = None,
    return_curve: bool = False,
    ties: str = "honest",
) -> dict:
    """AUCnorm, AUC_ξ and AUC50% of scores against 0/1 labels (see the module description).

    ``ties="released"`` reproduces the authors' released computation exactly: its curve (see
    `_released_curve`), AUC_ξ and AUC50% as the trapezoid over the points with precision at
    least ξ (resp. 0.5), the sentinel (0, 1) always among them, and AUCnorm = (AUC_ξ − ξ) /
    (1 − ξ) as eq. 1 writes it, not clipped (it is negative where AUC_ξ < ξ).
    """
    if baseline_precision is not None and not (
        isinstance(baseline_precision, numbers.Real)
        and math.isfinite(baseline_precision)
        and 0.0 <= baseline_precision < 1.0
    ):
        raise ValueError(
            f"baseline_precision must lie in [0, 1); got {baseline_precision!r}: leave it unset "
            "to use the positive rate of the references"
        )
    released = _check_ties(ties) == "released"
    scores, labels = check_inputs(predictions, references)
    precision, recall, thresholds = CURVES[ties](scores, labels)
    if scores.min() == scores.max():
        outcome = (
            "the released computation's sentinel (0, 1) gives it AUCnorm 0.5"
            if released
            else "AUCnorm is 0 (no better than random)"
        )
        warnings.warn(
            f"all {len(scores)} scores are tied at {scores[0]:g}: precision is the positive "
            f"rate at every recall, so {outcome} for a scorer that ranks nothing; check the "
            "model's scores",
            UserWarning,
            stacklevel=2,
        )
    if baseline_precision is None:
        baseline = float(labels.sum() / len(labels))
    else:
        baseline = float(baseline_precision)
    auc_xi = auc_above(precision, recall, baseline)
    if released:
        aucnorm = (auc_xi - baseline) / (1.0 - baseline)
    else:
        aucnorm = normalized_auc(precision, recall, baseline)
    results = {
        "aucnorm": aucnorm,
        "auc_xi": auc_xi,
        "auc_50": auc_above(precision, recall, 0.5),
        "baseline_precision": baseline,
    }
    if return_curve:
        results["curve"] = {
            "recall": recall.tolist(),
            "precision": precision.tolist(),
            "thresholds": thresholds.tolist(),
        }
    return results


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Aucnorm(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {"predictions": datasets.Value("float64"), "references": datasets.Value("int32")}
            ),
            reference_urls=["https://github.com/Teddy-Li/LM-DirctionalInference"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute AUCnorm."""
        if self.num_process == 1 and self.writer is None and predictions is not None:
            # Nothing stored yet: skip evaluate's row-by-row Arrow round trip (minutes at 10^8
            # rows). The result is the same, since float64 and 0/1 survive that trip unchanged.
            return self._compute(predictions, references, **kwargs)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of scores and labels, checked first so bad input gets a clear message."""
        check_inputs(predictions, references)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def _compute(
        self, predictions, references, baseline_precision=None, return_curve=False, ties="honest"
    ):
        return aucnorm_scores(predictions, references, baseline_precision, return_curve, ties)
