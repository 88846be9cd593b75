"""One classifier of a fine-tuning run: its settings from the preset, trained once per seed, and
evaluated on an encoded split (scores, throughput and each row's output)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
import transformers

from compsem.harness.data.benchmark import Benchmark
from compsem.harness.data.sampling import clusters_of, groups_of
from compsem.harness.models.inference import predict_logits, softmax
from compsem.harness.models.loading import memory_guard
from compsem.harness.results.files import row_ids
from compsem.harness.results.scores import aucnorm_interval, grouped_scores, ranking_scores
from compsem.harness.training.trainer import (
    TrainSettings,
    align_padding,
    fine_tune,
    load_classifier,
)


def train_settings(bench: Benchmark, **overrides) -> TrainSettings:
    preset = bench.preset.with_overrides(**overrides)
    return TrainSettings(
        epochs=preset.epochs,
        batch_size=preset.batch_size,
        learning_rate=preset.learning_rate,
        max_length=preset.max_length,
        eval_batch_size=max(64, 2 * preset.batch_size),
    )


def evaluate_classifier(
    model, tokenizer, encoded, split, bench: Benchmark, settings: TrainSettings, placement
) -> tuple[dict, dict, list[dict]]:
    """Scores of a fine-tuned classifier on an encoded split, its evaluation throughput, and
    its output on each row (id, label, prediction, class probabilities)."""
    start = time.perf_counter()
    with memory_guard(model.name_or_path, placement, settings.eval_batch_size, settings.max_length):
        logits = predict_logits(model, tokenizer, encoded, settings.eval_batch_size, placement)
    seconds = time.perf_counter() - start
    references = np.asarray(split["label"])
    predictions = logits.argmax(-1)
    probabilities = softmax(logits)
    positive = bench.schema.positive_label
    ranked = None if positive is None else probabilities[:, positive]
    scores = split_scores(split, bench, predictions, ranked)
    rows = [
        {"id": i, "label": int(gold), "prediction": int(guess), "probabilities": p.tolist()}
        for i, gold, guess, p in zip(
            row_ids(split), references, predictions, probabilities, strict=True
        )
    ]
    timing = {"eval_seconds": seconds, "eval_examples_per_second": len(split) / seconds}
    return scores, timing, rows


def split_scores(split, bench: Benchmark, predictions, ranked=None) -> dict:
    """Accuracy and F1 of ``predictions``, overall and per grouping field; where the task is
    binary and ``ranked`` gives each row's P(positive) or score, AUCnorm and its interval of that
    ranking, with AUC_ξ, AUC50% and ξ where the spec declares the config (BoOQA, Levy/Holt)."""
    references = np.asarray(split["label"])
    clusters = clusters_of(split, bench)
    scores = grouped_scores(
        references, predictions, bench.schema.label_names, groups_of(split, bench), clusters
    )
    positive = bench.schema.positive_label
    if ranked is not None and positive is not None and len(set(references.tolist())) == 2:
        from compsem.metrics.aucnorm.aucnorm import (
            aucnorm_scores,  # a metric script imports evaluate, hence transformers and torch
        )

        scores["aucnorm"] = aucnorm_scores(ranked, references == positive)["aucnorm"]
        scores.update(aucnorm_interval(ranked, references == positive, clusters))
        scores.update(ranking_scores(bench, references, ranked))
    return scores


def train_one(model_name, tokenizer, encoded, settings, seed, placement, progress):
    transformers.set_seed(seed)
    model = align_padding(
        load_classifier(model_name, tuple(encoded.features["labels"].names)), tokenizer
    )
    with tempfile.TemporaryDirectory(prefix="compsem-trainer-") as scratch:
        stats = fine_tune(
            model, tokenizer, encoded, settings, seed, placement, Path(scratch), progress
        )
    return model, stats
