"""Hypothesis-only probe: how much of a config's labels the hypothesis alone gives away.

Poliak et al. (2018) and the BoOQA paper (§3.2, Appendix E.1) use a model that never sees the
premise as a proxy for the strength of a dataset's artefacts. Here the model is a bag-of-words
logistic regression (scikit-learn) on the hypothesis text, trained on ``train`` and scored on
every other split, reported as accuracy (with the majority-class baseline beside it) and AUCnorm
(0 for a ranking no better than chance). Where the probe gives every row the same score (none of
the words it learned occurs, or none carries label information) it ranks nothing, and no AUCnorm
is reported (the metric gives a constant score 0, which would read as a measured ranking).
Without a ``train`` split, as in BoOQA's dev/test
release, the first split is cut into two halves that share no hypothesis (E.1 removes such
overlaps), one to train on and one to score, and the other splits are scored without the
hypotheses the probe was trained on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from compsem.benchmark.size_floor import probe_too_small

TRAIN_PREFERENCE = ("train", "dev", "validation", "test")


@dataclass
class ProbeResult:
    """One hypothesis-only evaluation: trained on ``trained_on``, scored on ``evaluated_on``."""

    trained_on: str
    evaluated_on: str
    train_rows: int
    rows: int
    accuracy: float | None = None
    majority_accuracy: float | None = None
    aucnorm: float | None = None
    note: str = ""
    tied: bool = False


def _need_sklearn():
    try:  # scikit-learn takes about a second to import: only an audit that probes pays for it
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.linear_model import LogisticRegression  # (as above)
    except ImportError:
        raise RuntimeError(
            "The hypothesis-only probe needs scikit-learn: `pip install scikit-learn`, or pass "
            "--no-hypothesis-only to skip it."
        ) from None
    return CountVectorizer, LogisticRegression


def _labelled(table: pa.Table, field: str) -> tuple[list[str], np.ndarray]:
    texts = table[field].to_pylist()
    labels = table["label"].to_pylist()
    keep = [i for i, label in enumerate(labels) if label is not None and label >= 0]
    return [texts[i] or "" for i in keep], np.asarray([labels[i] for i in keep], dtype=np.int64)


def _halves(texts: list[str]) -> np.ndarray:
    """True for rows in the scored half; rows with the same hypothesis share a half."""
    return np.array(
        [hashlib.blake2b(text.encode(), digest_size=2).digest()[0] % 2 == 1 for text in texts],
        dtype=bool,
    )


def _score(model, vectorizer, texts, labels, majority: int) -> dict:
    # A metric script imports evaluate, which imports transformers and torch (over ten seconds).
    from compsem.metrics.aucnorm.aucnorm import aucnorm_scores

    features = vectorizer.transform(texts)
    predicted = model.predict(features)
    result = {
        "accuracy": float(np.mean(predicted == labels)),
        "majority_accuracy": float(np.mean(labels == majority)),
    }
    classes = list(model.classes_)
    if len(np.unique(labels)) < 2:
        result["note"] = "one label"
    elif len(classes) == 2 and set(np.unique(labels)) == {0, 1} and 1 in classes:
        scores = model.predict_proba(features)[:, classes.index(1)]
        if np.ptp(scores) < 1e-9:
            # A constant scorer ranks nothing: AUCnorm would be 0, which reads as a measured
            # ranking no better than chance, so none is reported.
            result["tied"] = True
            result["note"] = "tied"
        else:
            result["aucnorm"] = aucnorm_scores(scores, labels)["aucnorm"]
    return result


def probe(splits: dict[str, pa.Table], field: str = "hypothesis") -> list[ProbeResult]:
    """Train a bag-of-words logistic regression on ``field`` alone and score it on the splits."""
    if not splits or any(
        field not in t.column_names or "label" not in t.column_names for t in splits.values()
    ):
        return []
    CountVectorizer, LogisticRegression = _need_sklearn()
    source = next(name for name in (*TRAIN_PREFERENCE, *splits) if name in splits)
    texts, labels = _labelled(splits[source], field)
    if source == "train" and len(splits) > 1:
        train_texts, train_labels = texts, labels
        targets = {name: _labelled(t, field) for name, t in splits.items() if name != "train"}
        trained_on = "train"
    else:
        scored = _halves(texts)
        train_texts = [t for t, s in zip(texts, scored, strict=True) if not s]
        train_labels = labels[~scored]
        targets = {
            f"{source} (held-out half)": (
                [t for t, s in zip(texts, scored, strict=True) if s],
                labels[scored],
            )
        }
        seen = set(train_texts)
        for name, table in splits.items():
            if name != source:  # E.1: drop hypotheses the probe was trained on
                other_texts, other_labels = _labelled(table, field)
                keep = np.array([t not in seen for t in other_texts], dtype=bool)
                targets[name] = (
                    [t for t, k in zip(other_texts, keep, strict=True) if k],
                    other_labels[keep] if len(other_labels) else other_labels,
                )
        trained_on = f"{source} (other half)"
    too_small = probe_too_small(len(train_labels))
    if too_small:
        return [
            ProbeResult(trained_on, name, len(train_labels), len(y), note=too_small)
            for name, (_, y) in targets.items()
        ]
    if len(np.unique(train_labels)) < 2:
        return [
            ProbeResult(
                trained_on, name, len(train_labels), len(y), note="one label in training data"
            )
            for name, (_, y) in targets.items()
        ]
    vectorizer = CountVectorizer(lowercase=True, token_pattern=r"(?u)\b\w+\b")
    model = LogisticRegression(max_iter=1000)
    try:
        model.fit(vectorizer.fit_transform(train_texts), train_labels)
    except ValueError as error:  # e.g. no word at all in the training hypotheses
        return [
            ProbeResult(trained_on, name, len(train_labels), len(y), note=str(error))
            for name, (_, y) in targets.items()
        ]
    majority = int(np.bincount(train_labels).argmax())
    results = []
    for name, (eval_texts, eval_labels) in targets.items():
        result = ProbeResult(trained_on, name, len(train_labels), len(eval_labels))
        if len(eval_labels):
            for key, value in _score(model, vectorizer, eval_texts, eval_labels, majority).items():
                setattr(result, key, value)
        else:
            result.note = "no labelled rows"
        results.append(result)
    return results
