"""``train`` and ``curve``: fine-tuning with ``transformers.Trainer``, once per seed, or on the
k-shot prefixes of a pool split for a few-shot learning curve."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import transformers

from compsem.harness import report
from compsem.harness.common import (
    cap,
    default_model,
    evaluate_classifier,
    summarise,
    train_one,
    train_settings,
)
from compsem.harness.data import load_benchmark
from compsem.harness.device import resolve
from compsem.harness.encode import encode
from compsem.harness.results import make_result, write_result
from compsem.harness.training import (
    TrainSettings,
    align_padding,
    load_classifier,
    load_tokenizer,
)


def run_train(
    dataset: str,
    config: str,
    out: Path,
    model: str | None = None,
    seeds: Sequence[int] = (1,),
    revision: str | None = None,
    preset: str = "auto",
    input_form: str | None = None,
    eval_split: str = "test",
    max_train_examples: int | None = None,
    max_eval_examples: int | None = None,
    epochs: float | None = None,
    batch_size: int | None = None,
    learning_rate: float | None = None,
    max_length: int | None = None,
    device: str = "auto",
    precision: str = "auto",
    save_model: bool = False,
    progress: bool = True,
) -> list[dict]:
    """Fine-tune ``model`` on the config's train split once per seed; evaluate on ``eval_split``."""
    model = model or default_model()
    placement = resolve(device, precision)
    bench = load_benchmark(dataset, config, revision, preset, input_form)
    settings = train_settings(
        bench,
        epochs=epochs,
        batch_size=batch_size,
        learning_rate=learning_rate,
        max_length=max_length,
    )
    train = cap(bench.train_split(), max_train_examples, "--max-train-examples")
    test = cap(bench.split(eval_split), max_eval_examples, "--max-eval-examples")
    tokenizer = load_tokenizer(model)
    encoded_train = encode(train, tokenizer, bench.schema.inputs, settings.max_length)
    encoded_test = encode(test, tokenizer, bench.schema.inputs, settings.max_length)
    results = []
    for seed in seeds:
        classifier, stats = train_one(
            model, tokenizer, encoded_train, settings, seed, placement, progress
        )
        scores, eval_stats = evaluate_classifier(
            classifier, tokenizer, encoded_test, test, bench, settings, placement
        )
        result = make_result(
            "train",
            model,
            bench.provenance(eval_split),
            seed,
            {
                **settings.as_dict(),
                "inputs": list(bench.schema.inputs),
                "train_examples": len(train),
                "eval_examples": len(test),
                "preset_note": bench.preset.note,
            },
            scores,
            placement,
            {**stats, **eval_stats},
        )
        write_result(out, result)
        if save_model:
            classifier.save_pretrained(Path(out) / f"model-seed{seed}")
            tokenizer.save_pretrained(Path(out) / f"model-seed{seed}")
        results.append(result)
    summarise(out, results, f"compsem train · {config}")
    return results


def check_shots(shots: Sequence[int], pool_size: int, pool_split: str) -> list[int]:
    shots = sorted(set(int(k) for k in shots))
    if any(k < 0 for k in shots):
        raise ValueError(f"--shots must be whole numbers ≥ 0, got {shots}")
    if len(shots) < 2:
        raise ValueError(f"a learning curve needs at least two shot counts, got {shots}")
    if shots[-1] > pool_size:
        raise ValueError(
            f"{shots[-1]} shots need {shots[-1]} examples but the {pool_split!r} split has "
            f"{pool_size}: lower --shots"
        )
    return shots


def run_curve(
    dataset: str,
    config: str,
    out: Path,
    model: str | None = None,
    shots: Sequence[int] | None = None,
    seeds: Sequence[int] = (1,),
    metric: str = "accuracy",
    pool_split: str | None = None,
    base_split: str | None = None,
    revision: str | None = None,
    preset: str = "auto",
    input_form: str | None = None,
    eval_split: str = "test",
    max_train_examples: int | None = None,
    max_eval_examples: int | None = None,
    epochs: float | None = None,
    batch_size: int | None = None,
    learning_rate: float | None = None,
    max_length: int | None = None,
    device: str = "auto",
    precision: str = "auto",
    progress: bool = True,
) -> dict:
    """Few-shot learning curve: per seed, fine-tune on the first k rows of the pool split (after
    an optional fine-tune on ``base_split``, SETI §5.2) and evaluate; scored with few_shot_curve."""
    from compsem.harness.plots import curve_plot
    from compsem.metrics.few_shot_curve.few_shot_curve import few_shot_curve

    if metric not in ("accuracy", "macro_f1"):
        raise ValueError(f"--metric must be accuracy or macro_f1, got {metric!r}")
    model = model or default_model()
    placement = resolve(device, precision)
    bench = load_benchmark(dataset, config, revision, preset, input_form)
    pool_split = pool_split or next(
        (name for name in bench.preset.curve_pool_splits if name in bench.splits), None
    )
    if pool_split is None:
        raise ValueError(
            f"config {config!r} has no few_shot or train split to draw shots from (it has "
            f"{', '.join(bench.splits)}); pass --pool-split"
        )
    base_split = bench.preset.curve_base_split if base_split is None else base_split
    base_split = None if base_split in ("none", "") else base_split
    if base_split == pool_split:
        raise ValueError(
            f"the shots and the base fine-tune would both come from {pool_split!r}: pass "
            "--pool-split few_shot or --base-split none"
        )
    pool = bench.split(pool_split, "the k-shot sets")  # prefixes: the k-shot sets are nested
    shots = check_shots(shots or bench.preset.shots, len(pool), pool_split)
    settings = train_settings(
        bench,
        epochs=epochs,
        batch_size=batch_size,
        learning_rate=learning_rate,
        max_length=max_length,
    )
    shot_settings = TrainSettings(
        **{**settings.as_dict(), "epochs": epochs or bench.preset.curve_epochs}
    )
    test = cap(bench.split(eval_split), max_eval_examples, "--max-eval-examples")
    tokenizer = load_tokenizer(model)
    encoded_pool = encode(
        pool.select(range(shots[-1])), tokenizer, bench.schema.inputs, settings.max_length
    )
    encoded_test = encode(test, tokenizer, bench.schema.inputs, settings.max_length)
    if base_split:
        base = bench.split(base_split, "the base fine-tune")
        base = cap(base, max_train_examples, "--max-train-examples")
        encoded_base = encode(base, tokenizer, bench.schema.inputs, settings.max_length)
    points = []
    with tempfile.TemporaryDirectory(prefix="compsem-curve-") as scratch:
        for seed in seeds:
            start = model
            if base_split:
                trained, _ = train_one(
                    model, tokenizer, encoded_base, settings, seed, placement, progress
                )
                start = str(Path(scratch) / f"base-seed{seed}")
                trained.save_pretrained(start)
                tokenizer.save_pretrained(start)
            for k in shots:
                if k == 0:
                    transformers.set_seed(seed)
                    classifier = load_classifier(start, bench.schema.label_names)
                    classifier = align_padding(classifier, tokenizer).to(placement.device)
                else:
                    classifier, _ = train_one(
                        start,
                        tokenizer,
                        encoded_pool.select(range(k)),
                        shot_settings,
                        seed,
                        placement,
                        progress,
                    )
                scores, _ = evaluate_classifier(
                    classifier, tokenizer, encoded_test, test, bench, settings, placement
                )
                points.append({"shots": k, "seed": seed, **scores})
    summary = few_shot_curve(
        [p["shots"] for p in points], [p[metric] for p in points], runs=[p["seed"] for p in points]
    )
    result = make_result(
        "curve",
        model,
        bench.provenance(eval_split),
        None,
        {
            **shot_settings.as_dict(),
            "base_epochs": settings.epochs if base_split else None,
            "metric": metric,
            "shots": shots,
            "seeds": list(seeds),
            "pool_split": pool_split,
            "base_split": base_split,
            "inputs": list(bench.schema.inputs),
            "eval_examples": len(test),
            "preset_note": bench.preset.note,
        },
        {"points": points, "curve": summary},
        placement,
    )
    path = write_result(out, result)
    curve_plot(summary, metric, f"{report.model_name(model)} · {config}", path.with_suffix(".png"))
    summarise(out, [result], f"compsem curve · {config}")
    return result
