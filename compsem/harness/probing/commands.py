"""``zero-shot`` and ``prompt``: models evaluated without training: an NLI model's labels
mapped onto ours, and masked-LM prompts (``score``, BoOQA's max over evidence, is
:mod:`compsem.harness.probing.score`)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from compsem.harness.data.benchmark import load_benchmark
from compsem.harness.data.encode import encode
from compsem.harness.data.sampling import cap, clusters_of, groups_of
from compsem.harness.models.device import resolve
from compsem.harness.models.inference import predict_logits, softmax
from compsem.harness.models.loading import load_for_inference, memory_guard
from compsem.harness.probing import evidence as scoring
from compsem.harness.probing.label_mapping import label_mapping, parse_overrides
from compsem.harness.probing.masked_lm import (
    encode_prompts,
    first_predictions,
    verbalised_predictions,
)
from compsem.harness.report.cells import mean_std
from compsem.harness.report.summary import summarise
from compsem.harness.results.files import (
    check_writable,
    make_result,
    result_files,
    row_ids,
    write_result,
    write_rows,
)
from compsem.harness.results.scores import (
    aucnorm_interval,
    confusion,
    grouped_scores,
    ranking_scores,
)
from compsem.harness.results.scores import scores as plain_scores
from compsem.harness.training import transfer
from compsem.harness.training.patterns import pattern_method
from compsem.harness.training.trainer import align_padding, load_tokenizer


def run_zero_shot(
    dataset: str,
    config: str,
    out: Path,
    model: str,
    label_map: Sequence[str] | None = None,
    split: str = "test",
    revision: str | None = None,
    preset: str = "auto",
    max_eval_examples: int | None = None,
    batch_size: int = 64,
    max_length: int | None = None,
    device: str = "auto",
    precision: str = "auto",
    method: str | None = None,
) -> dict:
    """An off-the-shelf NLI (or ADEPT-style) classifier on a config's pairs, without training;
    its labels mapped onto ours by its own ``id2label``, probabilities summed (RNPC §5).
    ``method`` ss or ss-symmetric: a saved S&S model scored as S&S
    (:mod:`compsem.harness.training.transfer`); default: what the model's folder records, else
    classifier (the above)."""
    from transformers import (
        AutoModelForSequenceClassification,  # transformers takes seconds to import: only commands that run a model pay
    )

    training = transfer.recorded_training(model)
    chosen = transfer.zero_shot_method(model, method, training)
    check_writable(result_files(out, "zero-shot", config))
    placement = resolve(device, precision)
    bench = load_benchmark(dataset, config, revision, preset)
    test = cap(bench.split(split), max_eval_examples, "--max-eval-examples")
    if chosen != "classifier":
        fix = (
            ", or drop --method"
            if method and not training
            else f"; {model} was trained with --method {chosen}"
        )
        patterns = pattern_method(bench, chosen, fix)
        transfer.check_sentence_classifier(model, chosen)
        inference = (placement, batch_size, max_length, max_eval_examples)
        return transfer.score_patterns(
            bench, test, split, out, model, patterns, training, *inference
        )
    # A BoOQA-style config: each hypothesis is scored from its evidence, as `score` does.
    from_evidence = (
        bench.schema.pair is None
        and bench.schema.evidence is not None
        and "hypothesis" in test.column_names
    )
    if bench.schema.pair is None and not from_evidence:
        raise ValueError(
            f"zero-shot NLI needs premise/hypothesis or event1/event2 columns, or hypothesis "
            f"and evidence columns; config {config!r} has none"
        )
    classifier, info = load_for_inference(model, AutoModelForSequenceClassification, placement)
    if info["missing_keys"]:
        raise ValueError(
            f"{model} has no trained classification head (missing {sorted(info['missing_keys'])[0]} …): "
            "zero-shot needs a model fine-tuned for NLI, e.g. roberta-large-mnli"
        )
    id2label = {int(k): v for k, v in classifier.config.id2label.items()}
    mapping = label_mapping(id2label, bench.schema.label_names, parse_overrides(label_map))
    tokenizer = load_tokenizer(model)
    align_padding(classifier, tokenizer)
    length = max_length or bench.preset.max_length
    positive = bench.schema.positive_label
    start = time.perf_counter()
    with memory_guard(model, placement, batch_size, length):
        if from_evidence:
            ours, top = scoring.evidence_probabilities(
                classifier,
                tokenizer,
                list(test["hypothesis"]),
                list(test[bench.schema.evidence]),
                bench.preset.max_evidence,
                mapping,
                positive,
                batch_size,
                length,
                placement,
            )
        else:
            encoded = encode(test, tokenizer, bench.schema.pair, length)
            logits = predict_logits(classifier, tokenizer, encoded, batch_size, placement)
            ours, top = softmax(logits) @ mapping, logits.argmax(-1)
    seconds = time.perf_counter() - start
    predictions = ours.argmax(-1)
    references = np.asarray(test["label"])
    scores = grouped_scores(
        references,
        predictions,
        bench.schema.label_names,
        groups_of(test, bench),
        clusters_of(test, bench),
    )
    if positive is not None:
        ranked = ranking_scores(bench, references, ours[:, positive])
        scores.update(ranked)
        if ranked:  # its interval, over the rows' items where they share one
            clusters = clusters_of(test, bench)
            scores.update(aucnorm_interval(ours[:, positive], references == positive, clusters))
    scored = top >= 0  # rows without evidence have no model label
    scores["model_label_confusion"] = {
        "rows": list(bench.schema.label_names),
        "columns": [id2label[i] for i in range(len(id2label))],
        "counts": confusion(
            references[scored], top[scored], len(bench.schema.label_names), len(id2label)
        ),
    }
    result = make_result(
        "zero-shot",
        model,
        bench.provenance(split),
        None,
        {
            "label_mapping": {
                id2label[i]: bench.schema.label_names[int(mapping[i].argmax())]
                for i in range(len(id2label))
            },
            "method": "classifier",
            **({"training": training, "train_config": training["config"]} if training else {}),
            "inputs": ["evidence", "hypothesis"] if from_evidence else list(bench.schema.pair),
            **({"max_evidence": bench.preset.max_evidence} if from_evidence else {}),
            "batch_size": batch_size,
            "max_length": length,
            "eval_examples": len(test),
            "max_eval_examples": max_eval_examples,
        },
        scores,
        placement,
        {"eval_seconds": seconds, "eval_examples_per_second": len(test) / seconds},
    )
    write_rows(
        write_result(out, result),
        (
            {"id": i, "label": int(gold), "prediction": int(guess), "probabilities": p.tolist()}
            | {"model_label": id2label[int(label)] if label >= 0 else None}
            for i, gold, guess, p, label in zip(
                row_ids(test), references, predictions, ours, top, strict=True
            )
        ),
    )
    summarise(out, [result], f"compsem zero-shot · {config}")
    return result


def run_prompt(
    dataset: str,
    out: Path,
    model: str,
    config: str = "two_shot",
    split: str = "test",
    revision: str | None = None,
    max_eval_examples: int | None = None,
    batch_size: int = 32,
    max_length: int = 128,
    device: str = "auto",
    precision: str = "auto",
) -> dict:
    """Masked-LM two-shot prompting (PLANE §4) on a config with ``prompt`` and verbaliser columns."""
    from transformers import (
        AutoModelForMaskedLM,  # transformers takes seconds to import: only commands that run a model pay
    )

    check_writable(result_files(out, "prompt", config))
    placement = resolve(device, precision)
    bench = load_benchmark(dataset, config, revision)
    test = cap(bench.split(split), max_eval_examples, "--max-eval-examples")
    negatives, positives = verbalisers(test, config)
    masked_lm, info = load_for_inference(model, AutoModelForMaskedLM, placement)
    if info["missing_keys"]:
        # A checkpoint without its masked-LM head (a sentence encoder) predicts from a fresh one.
        warnings.warn(
            f"{model} has no trained masked-LM head; its predictions are not meaningful",
            stacklevel=2,
        )
    tokenizer = load_tokenizer(model)
    encoded = encode_prompts(test, tokenizer, max_length)
    start = time.perf_counter()
    with memory_guard(model, placement, batch_size, max_length):
        words = first_predictions(masked_lm, tokenizer, encoded, batch_size, placement)
    seconds = time.perf_counter() - start
    predictions = verbalised_predictions(words, negatives, positives)
    references = np.asarray(test["label"])
    label_names = bench.schema.label_names
    scores = grouped_scores(
        references, predictions, label_names, groups_of(test, bench), clusters_of(test, bench)
    )
    scores["verbaliser_rate"] = float(np.mean(predictions >= 0))
    scores["per_class"] = per_class_cells(test, references, predictions, label_names)
    scores["cells"] = prompt_cells(test, references, predictions, label_names)
    result = make_result(
        "prompt",
        model,
        bench.provenance(split),
        None,
        {
            "batch_size": batch_size,
            "max_length": max_length,
            "eval_examples": len(test),
            "max_eval_examples": max_eval_examples,
            "untrained_weights": sorted(info["missing_keys"]),
        },
        scores,
        placement,
        {"eval_seconds": seconds, "eval_examples_per_second": len(test) / seconds},
    )
    write_rows(
        write_result(out, result),
        (
            {"id": i, "label": int(gold), "prediction": int(guess), "word": word}
            for i, gold, guess, word in zip(
                row_ids(test), references, predictions, words, strict=True
            )
        ),
    )
    summarise(out, [result], f"compsem prompt · {config}")
    return result


def verbalisers(test, config: str) -> tuple[list, list]:
    """Each row's negative and positive verbaliser words: one of each (``negative_word``,
    ``positive_word``: PLANE's two_shot) or several (``negative_words``, ``positive_words``:
    PLANE's zero_shot, Table 7's conversion table)."""
    columns = set(test.column_names)
    if {"prompt", "negative_words", "positive_words"} <= columns:
        return list(test["negative_words"]), list(test["positive_words"])
    if {"prompt", "negative_word", "positive_word"} <= columns:
        return [[w] for w in test["negative_word"]], [[w] for w in test["positive_word"]]
    raise ValueError(
        f"config {config!r} is not a prompting config: it needs a prompt column and its "
        "verbalisers (negative_word/positive_word or negative_words/positive_words); PLANE's "
        "are two_shot and zero_shot"
    )


# The fields a prompt's score is broken down by, jointly, where a config has them (PLANE's
# Figs. 5-7: class × template × verbaliser × hypothesis IT × premise order).
CELL_FIELDS = (
    "adjective_class",
    "template",
    "verbaliser",
    "inference_type",
    "premise_inference_types",
)


def prompt_cells(test, references, predictions, label_names) -> list[dict]:
    """Weighted F1 and accuracy of every joint cell of the :data:`CELL_FIELDS` the config has,
    so a report can average them over models, premise orders or verbalisers as each figure
    does."""
    fields = [field for field in CELL_FIELDS if field in test.column_names]
    return [
        {
            **dict(zip(fields, key, strict=True)),
            "n": scored["n"],
            "weighted_f1": scored["weighted_f1"],
            "accuracy": scored["accuracy"],
        }
        for key, scored in cell_scores(test, fields, references, predictions, label_names).items()
    ]


def cell_scores(test, fields, references, predictions, label_names) -> dict[tuple, dict]:
    """The scores of each joint value of ``fields`` over its rows (keys in sorted order)."""
    keys = list(zip(*(test[field] for field in fields), strict=True))
    cells = {}
    for key in sorted(set(keys), key=str):
        rows = np.array([k == key for k in keys])
        scored = plain_scores(references[rows], predictions[rows], label_names)
        cells[key] = {**scored, "n": int(rows.sum())}
    return cells


def per_class_cells(test, references, predictions, label_names) -> dict:
    """PLANE Table 4: weighted F1 of each (class, template, verbaliser) cell, then mean ± std
    over the cells of each adjective class and over all cells (Average)."""
    fields = ("adjective_class", "template", "verbaliser")
    scored = cell_scores(test, fields, references, predictions, label_names)
    cells = {key: cell["weighted_f1"] for key, cell in scored.items()}
    classes = list(dict.fromkeys(k[0] for k in sorted(cells, key=lambda k: "ISO".find(k[0]))))
    table = {
        klass: mean_std(f1 for key, f1 in cells.items() if key[0] == klass) for klass in classes
    }
    table["Average"] = mean_std(cells.values())
    return table
