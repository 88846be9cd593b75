"""Accuracy, F1, precision and recall per label, overall and broken down by a config's grouping
fields, each with its 95% interval (``intervals``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from compsem.builders import BENCHMARKS
from compsem.harness.results import intervals

# Predictions outside the label set (a masked LM's first token that is neither verbaliser).
OTHER = -1


def f1_per_label(references: np.ndarray, predictions: np.ndarray, labels: Sequence[int]) -> dict:
    """F1, support, precision and recall of each label; a label never predicted nor present gets
    F1 0, and precision (recall) 0 where it is never predicted (never present), as scikit-learn's
    ``zero_division=0`` gives them."""
    result = {}
    for label in labels:
        true_positive = int(np.sum((predictions == label) & (references == label)))
        predicted = int(np.sum(predictions == label))
        actual = int(np.sum(references == label))
        denominator = predicted + actual
        result[label] = (
            2 * true_positive / denominator if denominator else 0.0,
            actual,
            true_positive / predicted if predicted else 0.0,
            true_positive / actual if actual else 0.0,
        )
    return result


def occurring_labels(references: np.ndarray, predictions: np.ndarray) -> list[int]:
    """The labels macro-F1 averages over: those in the references or the predictions."""
    return sorted(set(references.tolist()) | (set(predictions.tolist()) - {OTHER}))


def scores(
    references, predictions, label_names: Sequence[str], clusters=None, bootstrap: bool = True
) -> dict:
    """Accuracy with its standard error and 95% interval, macro-F1 (over the labels that occur in
    references or predictions, as scikit-learn does) and support-weighted F1 with their
    bootstrap intervals, and per-label F1, precision and recall. ``OTHER`` predictions are errors. ``clusters``:
    each row's item, where rows share one (``intervals``); ``bootstrap=False`` leaves the
    bootstrap interval to the caller (``grouped_scores`` draws one set of resamples for all).

    Where the references hold one class only, the F1 scores are None: a constant predictor of
    that class would get macro-F1 1.0, which says nothing about the model."""
    references = np.asarray(references)
    predictions = np.asarray(predictions)
    if len(references) != len(predictions):
        raise ValueError(
            f"{len(predictions)} predictions for {len(references)} references: one each"
        )
    if len(references) == 0:
        raise ValueError("nothing to score: the evaluated split is empty")
    correct = references == predictions
    accuracy = intervals.accuracy_interval(correct, clusters)
    result = {
        "n": int(len(references)),
        "accuracy": float(np.mean(correct)),
        "accuracy_stderr": accuracy["se"],
        "accuracy_ci": accuracy["ci"],
    }
    if len(set(references.tolist())) < 2:
        empty = dict.fromkeys(("macro_f1", "macro_f1_ci", "weighted_f1", "weighted_f1_ci", "f1"))
        return {**result, **empty, "precision": None, "recall": None}
    occurring = occurring_labels(references, predictions)
    per_label = f1_per_label(references, predictions, occurring)
    support = np.array([per_label[label][1] for label in occurring], dtype=float)
    f1 = np.array([per_label[label][0] for label in occurring])
    f1_statistics = {
        f"{kind}_f1_ci": intervals.weighted_macro_f1(references, predictions, occurring, weighted)
        for kind, weighted in (("macro", False), ("weighted", True))
    }
    found = (
        intervals.bootstrap_intervals(f1_statistics, len(references), clusters)
        if bootstrap
        else dict.fromkeys(f1_statistics)
    )
    by_name = {label_names[label]: per_label[label] for label in occurring}
    return {
        **result,
        "macro_f1": float(f1.mean()),
        "macro_f1_ci": found["macro_f1_ci"],
        "weighted_f1": float((f1 * support).sum() / support.sum()),
        "weighted_f1_ci": found["weighted_f1_ci"],
        "f1": {name: values[0] for name, values in by_name.items()},
        "precision": {name: values[2] for name, values in by_name.items()},
        "recall": {name: values[3] for name, values in by_name.items()},
        "support": {name: values[1] for name, values in by_name.items()},
    }


def grouped_scores(
    references,
    predictions,
    label_names: Sequence[str],
    groups: Mapping[str, Sequence],
    clusters: tuple[str, Sequence] | None = None,
) -> dict:
    """``scores`` overall, plus ``by_group[field][value]`` for each grouping field, each group's
    accuracy and macro-F1 with a bootstrap interval (the split's items resampled once, each
    group scored on its rows of each resample). ``clusters``:
    (the column(s) rows share an item by, each row's value), or None where rows are independent;
    ``intervals`` records how the intervals were made."""
    references = np.asarray(references)
    predictions = np.asarray(predictions)
    by, values_of = clusters if clusters is not None else (None, None)
    codes = None if values_of is None else np.asarray([str(value) for value in values_of])
    result = scores(references, predictions, label_names, codes)
    result["intervals"] = intervals.method(codes, by)
    result["by_group"], statistics = {}, {}
    for field, values in groups.items():
        values = np.asarray([str(value) for value in values])
        cells = result["by_group"][field] = {}
        for value in sorted(set(values.tolist())):
            rows = values == value
            cells[value] = group_scores(references, predictions, label_names, rows, codes)
            found = group_statistics(references[rows], predictions[rows], rows, cells[value])
            for metric, statistic in found.items():
                statistics[(field, value, metric)] = statistic
    found = intervals.bootstrap_intervals(statistics, len(references), codes)
    for (field, value, metric), interval in found.items():
        result["by_group"][field][value][f"{metric}_ci"] = interval
    return result


def group_statistics(references, predictions, rows: np.ndarray, cell: dict) -> dict:
    """The bootstrap statistics of one group: accuracy, and macro- and weighted F1 where they
    are defined."""
    statistics = {
        "accuracy": intervals.within(rows, intervals.weighted_accuracy(references == predictions))
    }
    if cell["macro_f1"] is not None:
        labels = occurring_labels(references, predictions)
        for kind, weighted in (("macro", False), ("weighted", True)):
            f1 = intervals.weighted_macro_f1(references, predictions, labels, weighted)
            statistics[f"{kind}_f1"] = intervals.within(rows, f1)
    return statistics


def group_scores(references, predictions, label_names, rows: np.ndarray, clusters) -> dict:
    """One group's n, accuracy, macro-F1 and weighted F1 (intervals: ``grouped_scores``)."""
    clusters = None if clusters is None else clusters[rows]
    full = scores(references[rows], predictions[rows], label_names, clusters, bootstrap=False)
    brief = {key: full[key] for key in ("n", "accuracy", "macro_f1", "weighted_f1")}
    return {**brief, **dict.fromkeys(("accuracy_ci", "macro_f1_ci", "weighted_f1_ci"))}


def aucnorm_interval(probability, positive, clusters: tuple[str, Sequence] | None) -> dict:
    """``{"aucnorm_ci"}``: the bootstrap interval of AUCnorm of ``probability`` ranking the
    ``positive`` rows, over the rows' clusters where given."""
    values = None if clusters is None else [str(value) for value in clusters[1]]
    statistic = intervals.weighted_aucnorm(probability, positive)
    return {"aucnorm_ci": intervals.bootstrap_interval(statistic, len(positive), values)}


def confusion(references, predictions, n_references: int, n_predictions: int) -> list[list[int]]:
    """Counts [reference][prediction], for labels of different sets (e.g. ours × a model's)."""
    matrix = np.zeros((n_references, n_predictions), dtype=np.int64)
    np.add.at(matrix, (np.asarray(references), np.asarray(predictions)), 1)
    return matrix.tolist()


RANKING_KEYS = ("aucnorm", "auc_xi", "auc_50", "baseline_precision")


def ranking_scores(bench, references, probability, ties: str = "honest") -> dict:
    """AUCnorm, AUC_ξ, AUC50% and ξ of P(positive) against the gold labels, where the
    benchmark's spec declares the config (BoOQA and its Levy/Holt configs, ``reports_aucnorm``)
    and the rows hold both classes; else {}. ξ, the positive share, is the baseline AUCnorm is
    read against (BoOQA Table 5)."""
    spec = BENCHMARKS.get(bench.benchmark)
    positive = bench.schema.positive_label
    references = np.asarray(references)
    if spec is None or positive is None or not spec.reports_aucnorm(bench.config):
        return {}
    if len(set(references.tolist())) != 2:
        return {}
    from compsem.metrics.aucnorm.aucnorm import (
        aucnorm_scores,  # a metric script imports evaluate, hence transformers and torch
    )

    ranked = aucnorm_scores(np.asarray(probability), references == positive, ties=ties)
    return {key: ranked[key] for key in RANKING_KEYS}
