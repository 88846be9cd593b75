"""A model ``train --save-model`` saved, scored on a config it may not have been trained on:
``compsem zero-shot --model runs/lh/model-seed1 --method ss`` (BoOQA Table 1's cells across
Levy/Holt subsets, as Tables 8, 10 and 12, and Table 6's Levy/Holt → SherLIiC).

The scoring is S&S's own, :meth:`patterns.PatternMethod.evaluate` (what ``train --method ss``
evaluates with), so the score of a pair, its prediction, AUCnorm and AUC50% are those ``train``
gives the same model on the same rows. The folder's manifest records how the model was trained
(:func:`finetune.save_model_folder`: method, dataset, config, seed, input length): the method is
``zero-shot``'s default, a ``--method`` that contradicts it is refused, and the result records
the method and the training config, so a report keeps S&S apart from NLI zero-shot and labels
each train → test cell."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import datasets

from compsem.files.output_folder import read_marker
from compsem.harness.data.benchmark import Benchmark
from compsem.harness.models.device import Placement
from compsem.harness.models.loading import load_for_inference
from compsem.harness.report.summary import summarise
from compsem.harness.results.files import make_result, write_result, write_rows
from compsem.harness.training.finetune import MODEL_KIND
from compsem.harness.training.patterns import METHODS, PatternMethod
from compsem.harness.training.trainer import align_padding, load_tokenizer

# What a result names about the training of a model compsem saved (``settings["training"]``).
RECORDED = ("method", "dataset", "config", "seed", "model", "max_length")


def recorded_training(model: str) -> dict | None:
    """How ``train --save-model`` trained the model in folder ``model`` (:data:`RECORDED`, as
    its manifest says), or None: a Hub id, a folder compsem did not save as a fine-tuned model,
    one saved before the method was recorded, or one moved or copied since (its manifest is
    signed for where it was written)."""
    folder = Path(model).expanduser()
    marker = read_marker(folder) if folder.is_dir() else None
    if not marker or marker.get("kind") != MODEL_KIND or marker.get("method") not in METHODS:
        return None
    return {name: marker.get(name) for name in RECORDED}


def zero_shot_method(model: str, requested: str | None, training: dict | None) -> str:
    """The method ``zero-shot`` scores ``model`` with: ``requested`` (``--method``), else the
    one its training recorded, else the plain classifier. One ValueError for an unknown method
    or one that contradicts the record."""
    if requested is not None and requested not in METHODS:
        raise ValueError(f"--method must be one of {', '.join(METHODS)}, got {requested!r}")
    recorded = training["method"] if training else None
    if requested is None:
        return recorded or "classifier"
    if recorded and requested != recorded:
        raise contradiction(model, recorded, requested)
    return requested


def contradiction(model: str, recorded: str, requested: str, offer: bool = True) -> ValueError:
    """The error for a ``--method`` other than the one ``model``'s manifest records; ``offer``:
    name ``--method RECORDED`` as the other fix (not where the command has no such method)."""
    alternative = f" or pass --method {recorded}" if offer else ""
    return ValueError(
        f"{model} was trained with --method {recorded} (its folder's manifest says so), "
        f"so --method {requested} would score it with inputs it never learnt: drop --method"
        f"{alternative}"
    )


def check_sentence_classifier(model: str, method: str) -> None:
    """One ValueError, from the model's config alone (no weights read), unless ``model`` is a
    sequence classifier of two labels, what S&S scores pattern sentences with."""
    from transformers import AutoConfig  # transformers takes seconds to import

    try:
        config = AutoConfig.from_pretrained(model)
    except (OSError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise OSError(f"cannot load {model!r}: {first}") from None
    architectures = config.architectures or []
    classifier = any(name.endswith("ForSequenceClassification") for name in architectures)
    if not classifier or config.num_labels != 2:
        what = ", ".join(architectures) or config.model_type
        raise ValueError(
            f"--method {method} scores pattern sentences with a sequence classifier of two "
            f"labels (false, true), but {model} is {what} with {config.num_labels} labels: give "
            "a model saved by compsem train --method ss --save-model (runs/…/model-seed1)"
        )


def load_pattern_classifier(model: str, method: str, placement: Placement):
    """S&S's sentence classifier saved in ``model``, and its tokenizer; one ValueError where
    the folder has no trained classification head."""
    from transformers import AutoModelForSequenceClassification  # seconds to import

    classifier, info = load_for_inference(model, AutoModelForSequenceClassification, placement)
    if info["missing_keys"]:
        raise ValueError(
            f"{model} has no trained classification head (missing "
            f"{sorted(info['missing_keys'])[0]} …): --method {method} needs a model saved "
            "by compsem train --method ss --save-model"
        )
    tokenizer = load_tokenizer(model)
    align_padding(classifier, tokenizer)
    return classifier, tokenizer


def score_patterns(
    bench: Benchmark,
    test: datasets.Dataset,
    split: str,
    out: Path,
    model: str,
    method: PatternMethod,
    training: dict | None,
    placement: Placement,
    batch_size: int,
    max_length: int | None,
    max_eval_examples: int | None,
) -> dict:
    """S&S's scores of the saved ``model`` on ``test`` (``split`` of ``bench``), written to
    ``out`` as a ``zero-shot`` result; ``max_length`` defaults to the length the model was
    trained at, else the preset's."""
    classifier, tokenizer = load_pattern_classifier(model, method.name, placement)
    length = max_length or (training or {}).get("max_length") or bench.preset.max_length
    settings = SimpleNamespace(eval_batch_size=batch_size, max_length=length)
    encoded = method.encode(test, tokenizer, length)
    scores, timing, rows = method.evaluate(
        classifier, tokenizer, encoded, test, bench, settings, placement
    )
    recorded = {"training": training, "train_config": training["config"]} if training else {}
    result = make_result(
        "zero-shot",
        model,
        bench.provenance(split),
        None,
        {
            "method": method.name,
            **recorded,
            "inputs": list(method.templates.columns),
            "batch_size": batch_size,
            "max_length": length,
            "eval_examples": len(test),
            "max_eval_examples": max_eval_examples,
        },
        scores,
        placement,
        timing,
    )
    write_rows(write_result(out, result), rows)
    summarise(out, [result], f"compsem zero-shot · {bench.config} · {method.name}")
    return result
