"""S&S, BoOQA's gauge model (Li et al. 2022, §3; Schmitt and Schütze 2021b): prompt
fine-tuning of one sentence classifier of two labels (false, true).

Each premise-hypothesis pair of propositions is put into the patterns and the antipatterns its
benchmark's preset declares (``Preset.prompt_patterns``; BoOQA's in
``builders/booqa/ss_patterns.py``). Each pattern sentence is trained towards the pair's label y
(1: the premise entails the hypothesis), each antipattern sentence towards 1 − y, and the loss
is the mean cross-entropy over the pattern sentences plus the mean over the antipattern
sentences. A pair's score is the highest P(true) of its pattern sentences minus the highest of
its antipattern sentences; the pair is an entailment when its score is above 0, and the score
is what AUCnorm ranks. ``ss-symmetric`` (BoOQA's 'S&S, Table 2) puts every pair into each
template both ways round, so the input cannot show the direction of the pair.

Training is ``transformers.Trainer`` (``trainer.fine_tune``) with :class:`PatternCollator`, which
lays a batch of pairs out as one batch of their sentences, and :class:`PatternTrainer`, whose
``compute_loss`` is the loss above (:func:`pattern_loss`)."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import datasets
import numpy as np
import torch
import transformers
from transformers import Trainer

from compsem.benchmark.prompts import PromptPatterns
from compsem.harness.data.benchmark import Benchmark
from compsem.harness.data.presets import PRESETS
from compsem.harness.models.inference import predict_logits, softmax
from compsem.harness.models.loading import memory_guard
from compsem.harness.results.files import row_ids
from compsem.harness.training.classifier import split_scores
from compsem.harness.training.trainer import align_padding, fine_tune, load_classifier

# ``train --method``: the plain sequence classifier, or S&S with its own or symmetric prompts.
METHODS = ("classifier", "ss", "ss-symmetric")
SENTENCE_LABELS = ("false", "true")  # what S&S's classifier says of one instantiated sentence


@dataclass(frozen=True)
class PatternMethod:
    """S&S for one config: the templates, whether each goes both ways round, and which label of
    the config is the entailment."""

    name: str
    templates: PromptPatterns
    symmetric: bool
    positive: int

    @property
    def patterns(self) -> int:
        """Pattern sentences per pair (they come first; the antipattern sentences follow)."""
        return len(self.templates.patterns) * (2 if self.symmetric else 1)

    def sentences(self, row) -> list[str]:
        patterns, antipatterns = self.templates.sentences(row, self.symmetric)
        return patterns + antipatterns

    # What ``FineTuning`` calls in place of ``encode``, ``train_one`` and
    # ``evaluate_classifier`` (the same arguments).
    def encode(self, split: datasets.Dataset, tokenizer, max_length: int) -> datasets.Dataset:
        return encode_patterns(split, tokenizer, self, max_length)

    def train(self, start, tokenizer, encoded, settings, seed, placement, progress):
        return train_patterns(start, tokenizer, encoded, settings, seed, placement, progress, self)

    def evaluate(self, model, tokenizer, encoded, split, bench, settings, placement):
        return evaluate_patterns(model, tokenizer, encoded, split, bench, settings, placement, self)


def pattern_method(
    bench: Benchmark, method: str, way_out: str = ", or drop --method"
) -> PatternMethod | None:
    """The S&S set-up of ``method`` for the loaded config; None for the plain classifier. One
    ValueError, before any model loads, for an unknown method or a config that is not a binary
    task over pairs of propositions whose columns a preset's patterns name (``way_out``: the
    other fix it offers, after giving such a config)."""
    if method not in METHODS:
        raise ValueError(f"--method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "classifier":
        return None
    columns = set(next(iter(bench.splits.values())).column_names)
    templates = declared_patterns(bench, columns)
    if templates is None:
        wanted = sorted(
            {", ".join(p.prompt_patterns.columns) for p in declaring(bench) if p.prompt_patterns}
        )
        raise ValueError(
            f"--method {method} puts a pair of propositions into S&S's patterns, but config "
            f"{bench.config!r} has no such columns (it has {', '.join(sorted(columns))}; the "
            f"patterns need {' or '.join(wanted) or 'columns no benchmark declares'}): give a "
            f"Levy/Holt or SherLIiC config (compsem build booqa --levyholt DIR, --sherliic DIR)"
            f"{way_out}"
        )
    positive = bench.schema.positive_label
    if positive is None:
        raise ValueError(
            f"--method {method} scores entailment against non-entailment, but config "
            f"{bench.config!r} has {len(bench.schema.label_names)} labels: give a binary "
            f"config of pairs of propositions{way_out}"
        )
    return PatternMethod(method, templates, method == "ss-symmetric", positive)


def declaring(bench: Benchmark) -> list:
    """The presets whose patterns a config may use: its own first, then every other."""
    return [bench.preset, *PRESETS.values()]


def declared_patterns(bench: Benchmark, columns) -> PromptPatterns | None:
    """The patterns of the config's preset, else of the first preset that declares some, whose
    columns are all among ``columns``; None where no preset's are."""
    return next(
        (
            preset.prompt_patterns
            for preset in declaring(bench)
            if preset.prompt_patterns and set(preset.prompt_patterns.columns) <= set(columns)
        ),
        None,
    )


def encode_patterns(
    split: datasets.Dataset, tokenizer, method: PatternMethod, max_length: int
) -> datasets.Dataset:
    """Each row's pattern and antipattern sentences, tokenised (one list per row, patterns
    first), with ``labels``: 1 where the row is an entailment, else 0 (rows without a label,
    ``score``'s pairs of evidence and hypothesis, get none)."""

    def tokenise(batch: dict) -> dict:
        names = list(batch)
        rows = [
            dict(zip(names, values, strict=True)) for values in zip(*batch.values(), strict=True)
        ]
        encoded: dict[str, list] = {}
        for row in rows:
            tokens = tokenizer(method.sentences(row), truncation=True, max_length=max_length)
            for name, values in tokens.items():
                encoded.setdefault(name, []).append(values)
        if "label" in batch:
            encoded["labels"] = [int(label == method.positive) for label in batch["label"]]
        return encoded

    return split.map(
        tokenise,
        batched=True,
        remove_columns=split.column_names,
        desc=f"Putting pairs into S&S's patterns ({method.name})",
    )


@dataclass
class PatternCollator:
    """A batch of pairs as one padded batch of their sentences, pair by pair (each pair's
    patterns, then its antipatterns), with each pair's label."""

    tokenizer: object
    pad_to_multiple_of: int | None = None

    def __call__(self, features: list[dict]) -> dict:
        names = [name for name in features[0] if name != "labels"]
        sentences = [
            {name: feature[name][i] for name in names}
            for feature in features
            for i in range(len(feature["input_ids"]))
        ]
        batch = self.tokenizer.pad(
            sentences,
            padding=True,
            pad_to_multiple_of=self.pad_to_multiple_of,
            return_tensors="pt",
        )
        batch = dict(batch)
        batch["labels"] = torch.tensor([int(feature["labels"]) for feature in features])
        return batch


def pattern_loss(logits: torch.Tensor, labels: torch.Tensor, patterns: int) -> torch.Tensor:
    """S&S's loss: ``logits`` (pairs, sentences, 2) with each pair's pattern sentences first;
    the mean cross-entropy of the pattern sentences against the pair's label plus that of the
    antipattern sentences against its opposite."""
    pairs, sentences, classes = logits.shape
    targets = labels.view(-1, 1).expand(pairs, sentences).clone()
    targets[:, patterns:] = 1 - targets[:, patterns:]
    losses = torch.nn.functional.cross_entropy(
        logits.reshape(-1, classes).float(), targets.reshape(-1), reduction="none"
    ).view(pairs, sentences)
    return losses[:, :patterns].mean() + losses[:, patterns:].mean()


class PatternTrainer(Trainer):
    """``Trainer`` whose loss is :func:`pattern_loss` over a :class:`PatternCollator` batch."""

    # the loss is a mean over the batch: the Trainer scales it for gradient accumulation
    loss_is_scaled_for_ga = False

    def __init__(self, *args, patterns: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.patterns = patterns

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        inputs = dict(inputs)
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits.view(len(labels), -1, outputs.logits.shape[-1])
        loss = pattern_loss(logits, labels, self.patterns)
        return (loss, outputs) if return_outputs else loss


def train_patterns(model_name, tokenizer, encoded, settings, seed, placement, progress, method):
    """Fine-tune S&S's sentence classifier from ``model_name`` on encoded pairs
    (:func:`encode_patterns`); the classifier and the run's loss, time and throughput."""
    transformers.set_seed(seed)
    model = align_padding(load_classifier(model_name, SENTENCE_LABELS), tokenizer)
    collator = PatternCollator(tokenizer, 8 if placement.device == "cuda" else None)
    trainer_class = partial(PatternTrainer, patterns=method.patterns)
    with tempfile.TemporaryDirectory(prefix="compsem-trainer-") as scratch:
        stats = fine_tune(
            model,
            tokenizer,
            encoded,
            settings,
            seed,
            placement,
            Path(scratch),
            progress,
            collator=collator,
            trainer_class=trainer_class,
        )
    return model, stats


def pair_scores(probabilities: np.ndarray, patterns: int) -> np.ndarray:
    """Each pair's score from P(true) of its sentences (pairs × sentences, patterns first): the
    highest of its patterns minus the highest of its antipatterns."""
    return probabilities[:, :patterns].max(axis=1) - probabilities[:, patterns:].max(axis=1)


def true_probabilities(model, tokenizer, encoded, settings, placement) -> tuple[np.ndarray, float]:
    """P(true) of each encoded pair's sentences (pairs × sentences, patterns first), every
    sentence of every pair batched together by length, and the seconds the model took."""
    per_pair = len(encoded[0]["input_ids"]) if len(encoded) else 0
    names = [name for name in encoded.column_names if name != "labels"]
    flat = {name: [ids for row in encoded[name] for ids in row] for name in names}
    flat["length"] = [len(ids) for ids in flat["input_ids"]]
    sentences = datasets.Dataset.from_dict(flat)
    start = time.perf_counter()
    with memory_guard(model.name_or_path, placement, settings.eval_batch_size, settings.max_length):
        logits = predict_logits(model, tokenizer, sentences, settings.eval_batch_size, placement)
    seconds = time.perf_counter() - start
    true = softmax(logits)[:, SENTENCE_LABELS.index("true")].reshape(len(encoded), per_pair)
    return true, seconds


def evaluate_patterns(
    model, tokenizer, encoded, split, bench: Benchmark, settings, placement, method: PatternMethod
) -> tuple[dict, dict, list[dict]]:
    """Scores of S&S on an encoded split (:func:`encode_patterns`): each pair's score, an
    entailment where above 0, and AUCnorm of the scores; the evaluation's throughput; and each
    row's output (id, label, prediction, score, P(true) of each sentence)."""
    true, seconds = true_probabilities(model, tokenizer, encoded, settings, placement)
    score = pair_scores(true, method.patterns)
    other = 1 - method.positive
    predictions = np.where(score > 0, method.positive, other)
    scores = split_scores(split, bench, predictions, score)
    rows = [
        {
            "id": i,
            "label": int(gold),
            "prediction": int(guess),
            "score": float(value),
            "pattern_probabilities": p[: method.patterns].tolist(),
            "antipattern_probabilities": p[method.patterns :].tolist(),
        }
        for i, gold, guess, value, p in zip(
            row_ids(split), split["label"], predictions, score, true, strict=True
        )
    ]
    timing = {"eval_seconds": seconds, "eval_examples_per_second": len(split) / seconds}
    return scores, timing, rows
