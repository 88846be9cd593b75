"""Accuracy and F1, overall and broken down by a config's grouping fields."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from compsem.builders import BENCHMARKS

# Predictions outside the label set (a masked LM's first token that is neither verbaliser).
OTHER = -1


def f1_per_label(references: np.ndarray, predictions: np.ndarray, labels: Sequence[int]) -> dict:
    """F1 and support of each label; a label never predicted nor present gets F1 0."""
    result = {}
    for label in labels:
        true_positive = int(np.sum((predictions == label) & (references == label)))
        predicted = int(np.sum(predictions == label))
        actual = int(np.sum(references == label))
        denominator = predicted + actual
        result[label] = (2 * true_positive / denominator if denominator else 0.0, actual)
    return result


def scores(references, predictions, label_names: Sequence[str]) -> dict:
    """Accuracy, macro-F1 (over the labels that occur in references or predictions, as
    scikit-learn does), support-weighted F1 and per-label F1. ``OTHER`` predictions are errors.

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
    result = {"n": int(len(references)), "accuracy": float(np.mean(references == predictions))}
    if len(set(references.tolist())) < 2:
        return {**result, "macro_f1": None, "weighted_f1": None, "f1": None}
    occurring = sorted(set(references.tolist()) | (set(predictions.tolist()) - {OTHER}))
    per_label = f1_per_label(references, predictions, occurring)
    support = np.array([per_label[label][1] for label in occurring], dtype=float)
    f1 = np.array([per_label[label][0] for label in occurring])
    return {
        **result,
        "macro_f1": float(f1.mean()),
        "weighted_f1": float((f1 * support).sum() / support.sum()),
        "f1": {label_names[label]: per_label[label][0] for label in occurring},
    }


def grouped_scores(
    references, predictions, label_names: Sequence[str], groups: Mapping[str, Sequence]
) -> dict:
    """``scores`` overall, plus ``by_group[field][value]`` for each grouping field."""
    references = np.asarray(references)
    predictions = np.asarray(predictions)
    result = scores(references, predictions, label_names)
    result["by_group"] = {}
    for field, values in groups.items():
        values = np.asarray([str(value) for value in values])
        result["by_group"][field] = {
            value: _brief(
                scores(references[values == value], predictions[values == value], label_names)
            )
            for value in sorted(set(values.tolist()))
        }
    return result


def _brief(full: dict) -> dict:
    return {key: full[key] for key in ("n", "accuracy", "macro_f1", "weighted_f1")}


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
