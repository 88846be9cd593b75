"""Few-shot learning curves: per-k statistics and normalised areas (RNPC §6, SETI §5.2)."""

import math
import numbers

import datasets
import evaluate
import numpy as np

_DESCRIPTION = """\
Summarises a few-shot learning curve: a score (accuracy, F1, AUCnorm …) measured after training on
k examples, for several k and possibly several seeds, as in RNPC §6 (10 to 200 examples) and SETI
§5.2 (0 to 128 shots). It reports the mean, standard deviation and count of the scores at each k,
the normalised area under the mean curve (trapezoid over k, and over log2(k + 1), which weighs
the first few shots as SETI's doubling grid does), the zero-shot score, the best mean and where it
is reached, the gain of the best over zero-shot, and the fewest shots whose mean reaches a given
fraction of the best.
"""

_KWARGS_DESCRIPTION = """
Args:
    shots (`list` of `int`): number of training examples k of each measurement (k ≥ 0).
    scores (`list` of `float`): the score of each measurement, within `score_range`.
    runs (`list`, optional): a run (seed) id per measurement. Each (run, k) may occur once, and
        every run must cover every k; the areas are then also reported per run (their std).
    score_range (`tuple`, defaults to `(0, 1)`): the lowest and highest possible score; the
        areas are scaled by it to [0, 1]. Use `(0, 100)` for percentages.
    fraction (`float`, defaults to 0.9): `shots_to_fraction` is the fewest shots whose mean
        reaches `fraction` of the best mean, measured from the bottom of `score_range`:
        mean − low ≥ fraction × (best − low) (mean ≥ fraction × best when low is 0).
    ddof (`int` ≥ 0, defaults to 1): delta degrees of freedom of the standard deviations (1:
        sample std over seeds; 0: population std).

Returns:
    shots (`list` of `int`): the distinct k, ascending.
    mean, std, count (`list`): per k; std is None where fewer than ddof + 1 scores exist.
    aulc (`float`): trapezoid area under the mean curve over k, divided by the k span and
        scaled by `score_range` to [0, 1] (the mean score over the k range).
    aulc_log2 (`float`): the same over log2(k + 1).
    zero_shot (`float` or None): the mean at k = 0, if measured.
    best (`float`), best_shots (`int`): the highest mean and the fewest k reaching it.
    gain_over_zero_shot (`float` or None): best − zero_shot.
    shots_to_fraction (`int`): the fewest k whose mean − low ≥ fraction × (best − low), low the
        bottom of `score_range`; `fraction` echoes it.
    With `runs`: runs (`int`), aulc_std and aulc_log2_std (std of the per-run areas).

Examples:
    >>> curve = evaluate.load("few_shot_curve")
    >>> results = curve.compute(shots=[0, 0, 4, 4, 16, 16], scores=[0.5, 0.6, 0.8, 0.9, 0.9, 0.9])
    >>> [round(mean, 4) for mean in results["mean"]], results["count"]
    ([0.55, 0.85, 0.9], [2, 2, 2])
    >>> round(results["aulc"], 3), results["best_shots"], results["shots_to_fraction"]
    (0.831, 16, 4)
"""

_CITATION = """\
@inproceedings{lyu-etal-2022-favorite,
    title = "Is {``}My Favorite New Movie{''} My Favorite Movie? Probing the Understanding of Recursive Noun Phrases",
    author = "Lyu, Qing and Zheng, Hua and Li, Daoxin and Zhang, Li and Apidianaki, Marianna and Callison-Burch, Chris",
    booktitle = "Proceedings of the 2022 Conference of the North American Chapter of the Association for Computational Linguistics: Human Language Technologies",
    year = "2022",
    address = "Seattle, United States",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2022.naacl-main.388",
    pages = "5286--5302",
}
@inproceedings{fu-frank-2024-seti,
    title = "{SETI}: Systematicity Evaluation of Textual Inference",
    author = "Fu, Xiyan and Frank, Anette",
    booktitle = "Findings of the Association for Computational Linguistics: ACL 2024",
    year = "2024",
    address = "Bangkok, Thailand",
    publisher = "Association for Computational Linguistics",
}
"""


def check_measurements(shots, scores) -> tuple[np.ndarray, np.ndarray]:
    """Whole shots ≥ 0 and finite scores, one of each per measurement, else one ValueError."""
    try:
        values = np.asarray(scores, dtype=np.float64)
        counts = np.asarray(shots, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # 10**400 overflows a float
        raise ValueError("shots and scores must be numbers (one of each per measurement)") from None
    if values.ndim != 1 or counts.ndim != 1:
        raise ValueError(
            f"shots and scores must be flat lists; got shapes {counts.shape} and {values.shape}: "
            "pass one k and one score per measurement"
        )
    if len(values) != len(counts):
        raise ValueError(
            f"shots and scores differ in length ({len(counts)} vs {len(values)}): pass one k and "
            "one score per measurement"
        )
    if len(values) == 0:
        raise ValueError("shots and scores are empty: pass one k and one score per measurement")
    if not np.isfinite(values).all():
        raise ValueError("scores contain NaN or infinite values: drop or re-run those points")
    # Shots are training-set sizes: beyond 2**53 a float64 cannot even hold them exactly.
    whole = np.isfinite(counts) & (counts == np.round(counts)) & (counts >= 0) & (counts < 2**53)
    if not whole.all():
        raise ValueError(
            "shots must be whole numbers from 0 to 2**53 (training examples); got "
            f"{counts[~whole][0]:g}"
        )
    return counts.astype(np.int64), values


def check_curve(shots, scores, runs=None, score_range=(0.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """Validated integer shots and float scores; raises one ValueError naming the problem."""
    shots, values = check_measurements(shots, scores)
    if runs is not None and not hasattr(runs, "__len__"):
        raise ValueError(
            f"runs must be a list of run ids (one per measurement); got a {type(runs).__name__}: "
            "pass list(runs)"
        )
    if runs is not None and len(runs) != len(values):
        raise ValueError(
            f"runs has {len(runs)} ids for {len(values)} scores: give one run id per measurement "
            "or leave runs unset"
        )
    try:
        low, high = (float(bound) for bound in score_range)
    except (TypeError, ValueError):
        low = high = math.nan
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"score_range must be (low, high) with low < high; got {score_range!r}")
    if ((values < low) | (values > high)).any():
        raise ValueError(
            f"scores span [{values.min():g}, {values.max():g}], outside score_range "
            f"({low:g}, {high:g}): pass score_range=(0, 100) for percentages"
        )
    if len(np.unique(shots)) < 2:
        raise ValueError(
            f"a learning curve needs at least two distinct shot counts; got only k={shots[0]}: "
            "measure the score at more values of k"
        )
    return shots, values


def trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    """Trapezoid-rule area under y over x (`np.trapezoid`, which numpy < 2 lacks)."""
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def normalized_area(x: np.ndarray, y: np.ndarray, low: float, high: float) -> float:
    """Trapezoid area under y over x, divided by the x span and scaled from [low, high] to [0, 1]."""
    return float((trapezoid(y, x) / (x[-1] - x[0]) - low) / (high - low))


def _per_run_areas(shots, values, runs, ks, low, high) -> tuple[np.ndarray, np.ndarray]:
    names, run_index = np.unique(np.asarray([str(run) for run in runs]), return_inverse=True)
    names = names.tolist()
    k_index = np.searchsorted(ks, shots)
    grid = np.full((len(names), len(ks)), np.nan)
    seen = np.zeros(grid.shape, dtype=np.int64)
    np.add.at(seen, (run_index, k_index), 1)
    if (seen > 1).any():
        run, k = np.argwhere(seen > 1)[0]
        raise ValueError(
            f"run {names[run]!r} has {seen[run, k]} scores at k={ks[k]}: give each (run, k) one "
            "score, or distinct run ids for repeated measurements"
        )
    if (seen == 0).any():
        run, k = np.argwhere(seen == 0)[0]
        raise ValueError(
            f"run {names[run]!r} has no score at k={ks[k]}: every run must cover every k for "
            "per-run areas; leave runs unset to pool the points"
        )
    grid[run_index, k_index] = values
    linear = [normalized_area(ks.astype(float), row, low, high) for row in grid]
    log2 = [normalized_area(np.log2(ks + 1.0), row, low, high) for row in grid]
    return np.asarray(linear), np.asarray(log2)


def few_shot_curve(
    shots, scores, runs=None, score_range=(0.0, 1.0), fraction: float = 0.9, ddof: int = 1
) -> dict:
    """Summary statistics of a few-shot learning curve (see the module description)."""
    if not (isinstance(fraction, numbers.Real) and 0.0 < fraction <= 1.0):
        raise ValueError(f"fraction must lie in (0, 1]; got {fraction!r}")
    if isinstance(ddof, bool) or not isinstance(ddof, numbers.Integral) or ddof < 0:
        raise ValueError(
            f"ddof must be a whole number ≥ 0 (1: sample std over seeds, 0: population std); "
            f"got {ddof!r}"
        )
    ddof = int(ddof)
    shots, values = check_curve(shots, scores, runs, score_range)
    low, high = (float(bound) for bound in score_range)
    ks, k_index, count = np.unique(shots, return_inverse=True, return_counts=True)
    mean = np.bincount(k_index, weights=values) / count
    squares = np.bincount(k_index, weights=(values - mean[k_index]) ** 2)
    std = [
        math.sqrt(total / (n - ddof)) if n > ddof else None
        for total, n in zip(squares, count, strict=True)
    ]
    best_at = int(np.argmax(mean))
    best = float(mean[best_at])
    # "Reaches a fraction of the best" on the score scale from its floor: (mean − low) ≥
    # fraction × (best − low). With low = 0 this is mean ≥ fraction × best; it also holds for
    # negative scores (e.g. correlations in (−1, 1)), and is always met at the best itself.
    reach = int(np.flatnonzero(mean - low >= fraction * (best - low))[0])
    zero_shot = float(mean[0]) if ks[0] == 0 else None
    results = {
        "shots": ks.tolist(),
        "mean": mean.tolist(),
        "std": std,
        "count": count.tolist(),
        "aulc": normalized_area(ks.astype(float), mean, low, high),
        "aulc_log2": normalized_area(np.log2(ks + 1.0), mean, low, high),
        "zero_shot": zero_shot,
        "best": best,
        "best_shots": int(ks[best_at]),
        "gain_over_zero_shot": None if zero_shot is None else best - zero_shot,
        "shots_to_fraction": int(ks[reach]),
        "fraction": float(fraction),
    }
    if runs is not None:
        linear, log2 = _per_run_areas(shots, values, runs, ks, low, high)
        results["runs"] = len(linear)
        results["aulc_std"] = float(np.std(linear, ddof=ddof)) if len(linear) > ddof else None
        results["aulc_log2_std"] = float(np.std(log2, ddof=ddof)) if len(log2) > ddof else None
    return results


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FewShotCurve(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {"shots": datasets.Value("int64"), "scores": datasets.Value("float64")}
            ),
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of (shots, scores) measurements."""
        check_measurements(kwargs.get("shots"), kwargs.get("scores"))
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def _compute(self, shots, scores, **kwargs):
        return few_shot_curve(shots, scores, **kwargs)
