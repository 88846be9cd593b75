"""The command line that reruns a result, from what the result file records: the dataset, config,
split, model, seed, the rows evaluated and every setting that changes the number."""

from __future__ import annotations

import shlex
from pathlib import Path

from compsem.harness.models.offline import offline_name

INPUT_FORMS = {("sentence",): "single"}


def _flags(pairs) -> list[str]:
    """``--flag value`` for each pair whose value is not None (lists spread as several values)."""
    parts = []
    for flag, value in pairs:
        if value is None:
            continue
        parts.append(flag)
        parts += (
            [str(v) for v in value]
            if isinstance(value, list)
            else [f"{value:g}" if isinstance(value, float) else str(value)]
        )
    return parts


def _training(result: dict) -> list:
    settings = result["settings"]
    inputs = tuple(settings.get("inputs") or ())
    return [
        ("--preset", result["dataset"].get("preset")),
        ("--input", INPUT_FORMS.get(inputs, "pair" if len(inputs) == 2 else None)),
        ("--max-train-examples", settings.get("train_examples")),
        ("--max-eval-examples", settings.get("max_eval_examples")),
        ("--eval-split", result["dataset"]["split"]),
        ("--epochs", settings.get("epochs")),
        ("--batch-size", settings.get("batch_size")),
        ("--learning-rate", settings.get("learning_rate")),
        ("--max-length", settings.get("max_length")),
    ]


def _inference(result: dict) -> list:
    settings = result["settings"]
    return [
        ("--split", result["dataset"]["split"]),
        ("--max-eval-examples", settings.get("max_eval_examples")),
        ("--max-length", settings.get("max_length")),
    ]


def _own(result: dict) -> list:
    """Each command's own settings."""
    settings, command = result["settings"], result["command"]
    # --method where it is not the default (a zero-shot S&S run's model folder records it too,
    # but the line says what it reruns)
    method = None if settings.get("method") == "classifier" else settings.get("method")
    if command == "train":
        return [("--seeds", result["seed"]), ("--method", method), *_training(result)]
    if command == "curve":
        base = settings.get("base_split")
        return [
            ("--shots", settings.get("shots")),
            ("--seeds", settings.get("seeds")),
            ("--metric", settings.get("metric")),
            ("--pool-split", settings.get("pool_split")),
            ("--base-split", base if base else "none"),
            *_training(result),
        ]
    if command == "zero-shot":
        mapping = settings.get("label_mapping") or {}
        labels = [f"{theirs}={ours}" for theirs, ours in mapping.items()] or None
        return [*_inference(result), ("--label-map", labels), ("--method", method)]
    if command == "prompt":
        return _inference(result)
    if command == "score":
        return [
            *_inference(result),
            ("--method", settings.get("method")),
            ("--max-evidence", settings.get("max_evidence")),
            ("--graph", settings.get("graph")),
            ("--graph-measure", settings.get("graph_measure")),
            ("--graph-matching", settings.get("graph_matching")),
        ]
    if command == "llm":
        return [
            ("--shots", settings.get("shots")),
            ("--seed", result["seed"]),
            ("--limit", settings.get("limit")),
            ("--split", result["dataset"]["split"]),
            # a user template's run names the built-in prompt that gave its answer choices
            ("--prompt", settings.get("template_base") or settings.get("prompt")),
            ("--template", settings.get("template")),
            ("--max-length", settings.get("max_length")),
            ("--backend", settings.get("backend")),
        ]
    raise ValueError(f"no command line for a {command!r} result")


def command_line(result: dict, result_file: str | None = None) -> str:
    """``compsem <command> …`` that reruns ``result`` into the folder its file is in."""
    dataset = result["dataset"]
    if result["command"] == "harm-detection":
        return _harm_detection_line(result, result_file)
    parts = ["compsem", result["command"], "--dataset", dataset["path"], "--config"]
    # an offline model by its short name: its folder is where this machine installed it
    parts += [dataset["config"], "--model", offline_name(result["model"]) or result["model"]]
    if dataset.get("revision"):
        parts += ["--revision", dataset["revision"]]
    parts += _flags(_own(result))
    if result["command"] == "llm" and result["settings"].get("chat_template") is False:
        parts.append("--no-chat-template")
    precision = result["environment"].get("precision")
    if precision:
        parts += ["--precision", precision]
    out = str(Path(result_file).parent) if result_file else "DIR"
    return shlex.join([*parts, "--out", out])


def _harm_detection_line(result: dict, result_file: str | None) -> str:
    """``compsem harm-detection …``: its data folder, classifier and model (none for always)."""
    settings = result["settings"]
    model = None if settings["task"] == "always" else result["model"]
    parts = _flags(
        [
            ("--data", result["dataset"]["path"]),
            ("--task", settings["task"]),
            ("--model", model and (offline_name(model) or model)),
            ("--queries", settings.get("queries")),
            ("--precision", result["environment"].get("precision")),
        ]
    )
    if settings.get("chat_template") is False:
        parts.append("--no-chat-template")
    out = str(Path(result_file).parent) if result_file else "DIR"
    return shlex.join(["compsem", "harm-detection", *parts, "--out", out])
