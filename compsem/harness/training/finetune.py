"""``train`` and ``curve``: fine-tuning with ``transformers.Trainer``, once per seed, or on the
k-shot prefixes of a pool split for a few-shot learning curve."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import datasets
import transformers

from compsem.files.output_folder import Wording, atomic_folder
from compsem.harness.data.benchmark import Benchmark, load_benchmark
from compsem.harness.data.encode import encode
from compsem.harness.data.sampling import cap
from compsem.harness.models.device import Placement, resolve
from compsem.harness.models.loading import default_model
from compsem.harness.report.plots import curve_plot
from compsem.harness.report.summary import summarise
from compsem.harness.results.files import (
    check_writable,
    make_result,
    result_files,
    write_result,
    write_rows,
)
from compsem.harness.results.model import model_name
from compsem.harness.training.classifier import evaluate_classifier, train_one, train_settings
from compsem.harness.training.patterns import PatternMethod, pattern_method
from compsem.harness.training.trainer import (
    TrainSettings,
    align_padding,
    load_classifier,
    load_tokenizer,
)

MODEL_KIND = "fine-tuned model"


@dataclass
class FineTuning:
    """What ``train`` and ``curve`` share: the model, where it runs, the benchmark config, the
    training settings and the evaluation split. The tokenizer is loaded when first needed, so
    requests are checked before any weights are read. ``method``: S&S's prompt fine-tuning
    (``compsem.harness.training.patterns``), None for the plain sequence classifier."""

    model: str
    placement: Placement
    bench: Benchmark
    settings: TrainSettings
    test: datasets.Dataset
    eval_split: str
    progress: bool = True
    max_eval_examples: int | None = None
    method: PatternMethod | None = None

    @classmethod
    def prepare(
        cls,
        dataset: str,
        config: str,
        model: str | None = None,
        revision: str | None = None,
        preset: str = "auto",
        input_form: str | None = None,
        eval_split: str = "test",
        max_eval_examples: int | None = None,
        epochs: float | None = None,
        batch_size: int | None = None,
        learning_rate: float | None = None,
        max_length: int | None = None,
        device: str = "auto",
        precision: str = "auto",
        progress: bool = True,
        method: str = "classifier",
    ) -> FineTuning:
        """Load ``config`` of ``dataset`` (a Hub id or an export folder) and resolve the
        settings: the preset's, where ``epochs``, ``batch_size``, ``learning_rate`` and
        ``max_length`` are None; ``model`` defaults to the offline MiniLM. ``method``: one of
        ``patterns.METHODS``, checked against the config here."""
        model = model or default_model()
        placement = resolve(device, precision)
        bench = load_benchmark(dataset, config, revision, preset, input_form)
        patterns = pattern_method(bench, method)
        test = cap(bench.split(eval_split), max_eval_examples, "--max-eval-examples")
        settings = train_settings(
            bench,
            epochs=epochs,
            batch_size=batch_size,
            learning_rate=learning_rate,
            max_length=max_length,
        )
        return cls(
            model,
            placement,
            bench,
            settings,
            test,
            eval_split,
            progress,
            max_eval_examples,
            patterns,
        )

    @cached_property
    def tokenizer(self):
        return load_tokenizer(self.model)

    @cached_property
    def encoded_test(self) -> datasets.Dataset:
        return self.encode(self.test)

    def at_length(self, max_length: int | None) -> FineTuning:
        """This run with inputs cut at ``max_length`` tokens (None: as it is); the tokenizer
        already loaded is kept, the encoded evaluation split is not."""
        if max_length is None or max_length == self.settings.max_length:
            return self
        settings = dataclasses.replace(self.settings, max_length=max_length)
        moved = dataclasses.replace(self, settings=settings)
        if "tokenizer" in vars(self):
            moved.tokenizer = self.tokenizer
        return moved

    def encode(self, split: datasets.Dataset) -> datasets.Dataset:
        if self.method:
            return self.method.encode(split, self.tokenizer, self.settings.max_length)
        return encode(split, self.tokenizer, self.bench.schema.inputs, self.settings.max_length)

    def train(self, start: str, encoded, seed: int, settings: TrainSettings | None = None):
        """Fine-tune from ``start`` (a model name or folder); the classifier and its timing."""
        run = self.method.train if self.method else train_one
        settings = settings or self.settings
        return run(start, self.tokenizer, encoded, settings, seed, self.placement, self.progress)

    def evaluate(self, classifier) -> tuple[dict, dict, list[dict]]:
        """Scores on the evaluation split, the evaluation's timing and the per-row outputs."""
        run = self.method.evaluate if self.method else evaluate_classifier
        return run(
            classifier,
            self.tokenizer,
            self.encoded_test,
            self.test,
            self.bench,
            self.settings,
            self.placement,
        )

    def result(self, command: str, seed: int | None, settings: dict, scores: dict, timing=None):
        """A result record of this run (schema in ``compsem.harness.results.files``)."""
        inputs = self.method.templates.columns if self.method else self.bench.schema.inputs
        settings = {
            **settings,
            "method": self.method.name if self.method else "classifier",
            "inputs": list(inputs),
            "eval_examples": len(self.test),
            "max_eval_examples": self.max_eval_examples,
            "preset_note": self.bench.preset.note_for(settings, command),
        }
        provenance = self.bench.provenance(self.eval_split)
        return make_result(
            command, self.model, provenance, seed, settings, scores, self.placement, timing
        )


def run_train(
    dataset: str,
    config: str,
    out: Path,
    seeds: Sequence[int] = (1,),
    max_train_examples: int | None = None,
    save_model: bool = False,
    max_length: int | Sequence[int] | None = None,
    **options,
) -> list[dict]:
    """Fine-tune on the config's train split once per seed and evaluate; ``options`` are
    :meth:`FineTuning.prepare`'s (model, eval_split, epochs, device …). ``max_length``: one
    length (None: the preset's), or several, each trained and evaluated once per seed (PLANE's
    Fig. 8), its files named by :func:`length_tag`. ``save_model``: each run's model, written
    whole into ``out/model-seedN`` (:func:`model_folder`)."""
    lengths = max_lengths(max_length)
    tags = {length: length_tag(length, lengths) for length in lengths}
    folders = [model_folder(out, seed, tag) for tag in tags.values() for seed in seeds]
    models = dict.fromkeys(folders, MODEL_KIND) if save_model else {}
    check_writable(result_files(out, "train", config, seeds, tags=list(tags.values())), models)
    first = FineTuning.prepare(dataset, config, max_length=lengths[0], **options)
    train = cap(first.bench.train_split(), max_train_examples, "--max-train-examples")
    results = []
    for length, tag in tags.items():
        run = first.at_length(length)
        encoded_train = run.encode(train)
        for seed in seeds:
            classifier, stats = run.train(run.model, encoded_train, seed)
            scores, eval_stats, rows = run.evaluate(classifier)
            settings = {**run.settings.as_dict(), "train_examples": len(train)}
            result = run.result("train", seed, settings, scores, {**stats, **eval_stats})
            write_rows(write_result(out, result, tag), rows)
            if save_model:
                save_model_folder(classifier, run, result, model_folder(out, seed, tag))
            results.append(result)
    summarise(out, results, f"compsem train · {config}")
    return results


def max_lengths(max_length: int | Sequence[int] | None) -> list[int | None]:
    """The lengths ``train --max-length`` runs at: ``[None]`` (the preset's) or the values given,
    each a whole number ≥ 1 and given once; one ValueError otherwise."""
    if max_length is None:
        return [None]
    lengths = [max_length] if isinstance(max_length, int) else list(max_length)
    if not lengths:
        raise ValueError("--max-length needs at least one length")
    for length in lengths:
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise ValueError(f"--max-length: {length!r} is not a length; give whole numbers ≥ 1")
        if lengths.count(length) > 1:
            raise ValueError(
                f"--max-length {length} is given twice: give each length once "
                f"(--max-length {' '.join(map(str, sorted(set(lengths))))})"
            )
    return lengths


def length_tag(length: int | None, lengths: Sequence[int | None]) -> str:
    """What names a run's files apart in a sweep of several lengths (``len8``: its result is
    ``train-CONFIG-len8-seedN.json``); nothing for a run at one length, whose files keep the
    names they always had."""
    return f"len{length}" if len(lengths) > 1 else ""


def model_folder(out: Path, seed: int, tag: str = "") -> Path:
    """Where ``train --save-model`` writes the model of ``seed`` (of the sweep's length
    ``tag``, :func:`length_tag`)."""
    return Path(out) / f"model{f'-{tag}' if tag else ''}-seed{seed}"


def save_model_folder(classifier, run: FineTuning, result: dict, folder: Path) -> None:
    """The fine-tuned classifier and its tokenizer, written whole into ``folder`` with a manifest
    (:func:`compsem.files.output_folder.atomic_folder`) that records how it was trained (read by
    ``zero-shot``: :mod:`compsem.harness.training.transfer`): a later run replaces it, never a
    folder compsem did not write; an interrupted save leaves the previous folder as it was."""
    marker = {
        "kind": MODEL_KIND,
        "model": run.model,
        "dataset": result["dataset"]["path"],
        "config": result["dataset"]["config"],
        "seed": result["seed"],
        # what `zero-shot` scores the model with (S&S or a plain classifier) and at what length
        "method": result["settings"]["method"],
        "max_length": run.settings.max_length,
    }
    with atomic_folder(folder, marker, wording=Wording(name=str(folder))) as staging:
        classifier.save_pretrained(staging)
        run.tokenizer.save_pretrained(staging)


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


def curve_splits(
    bench: Benchmark, pool_split: str | None, base_split: str | None, eval_split: str = "test"
) -> tuple[str, str | None]:
    """The split the k-shot sets come from, and the one fine-tuned on first (None: none).
    Neither may be ``eval_split``, the split the curve is scored on: a model trained on the rows
    it is then scored on would show a curve that measures memory, not few-shot learning."""
    pool_split = pool_split or next(
        (name for name in bench.preset.curve_pool_splits if name in bench.splits), None
    )
    if pool_split is None:
        raise ValueError(
            f"config {bench.config!r} has no few_shot or train split to draw shots from (it has "
            f"{', '.join(bench.splits)}); pass --pool-split"
        )
    base_split = bench.preset.curve_base_split if base_split is None else base_split
    base_split = None if base_split in ("none", "") else base_split
    if pool_split == eval_split:
        raise ValueError(
            f"--pool-split {pool_split} is the split the curve is scored on (--eval-split "
            f"{eval_split}): draw the shots from train (the default) or another split, or "
            "score on another --eval-split"
        )
    if base_split == eval_split:
        raise ValueError(
            f"--base-split {base_split} is the split the curve is scored on (--eval-split "
            f"{eval_split}): fine-tune first on train or another split, or pass --base-split none"
        )
    if base_split == pool_split:
        raise ValueError(
            f"the shots and the base fine-tune would both come from {pool_split!r}: pass "
            "--pool-split few_shot or --base-split none"
        )
    return pool_split, base_split


def run_curve(
    dataset: str,
    config: str,
    out: Path,
    shots: Sequence[int] | None = None,
    seeds: Sequence[int] = (1,),
    metric: str = "accuracy",
    pool_split: str | None = None,
    base_split: str | None = None,
    max_train_examples: int | None = None,
    **options,
) -> dict:
    """Few-shot learning curve: per seed, fine-tune on the first k rows of the pool split (after
    an optional fine-tune on ``base_split``, SETI §5.2) and evaluate; scored with few_shot_curve.
    ``options`` are :meth:`FineTuning.prepare`'s; ``epochs`` there is the shots' (default: the
    preset's curve epochs) and the base fine-tune's."""
    from compsem.metrics.few_shot_curve.few_shot_curve import (
        few_shot_curve,  # a metric script imports evaluate, hence transformers and torch
    )

    if metric not in ("accuracy", "macro_f1"):
        raise ValueError(f"--metric must be accuracy or macro_f1, got {metric!r}")
    check_writable(result_files(out, "curve", config, beside=[".png"]))
    run = FineTuning.prepare(dataset, config, **options)
    if metric == "macro_f1" and len(set(run.test["label"])) < 2:
        raise ValueError(
            f"the evaluated {run.eval_split!r} split of {config!r} holds one label only: "
            "macro-F1 is undefined there; use --metric accuracy"
        )
    pool_split, base_split = curve_splits(run.bench, pool_split, base_split, run.eval_split)
    pool = run.bench.split(pool_split, "the k-shot sets")  # prefixes: the k-shot sets are nested
    shots = check_shots(shots or run.bench.preset.shots, len(pool), pool_split)
    shot_settings = TrainSettings(
        **{
            **run.settings.as_dict(),
            "epochs": options.get("epochs") or run.bench.preset.curve_epochs,
        }
    )
    encoded_pool = run.encode(pool.select(range(shots[-1])))
    if base_split:
        base = run.bench.split(base_split, "the base fine-tune")
        encoded_base = run.encode(cap(base, max_train_examples, "--max-train-examples"))
    points, per_row = [], []
    with tempfile.TemporaryDirectory(prefix="compsem-curve-") as scratch:
        for seed in seeds:
            start = run.model
            if base_split:
                trained, _ = run.train(run.model, encoded_base, seed)
                start = str(Path(scratch) / f"base-seed{seed}")
                trained.save_pretrained(start)
                run.tokenizer.save_pretrained(start)
            for k in shots:
                if k == 0:
                    transformers.set_seed(seed)
                    classifier = load_classifier(start, run.bench.schema.label_names)
                    classifier = align_padding(classifier, run.tokenizer)
                    classifier = classifier.to(run.placement.device)
                else:
                    classifier, _ = run.train(
                        start, encoded_pool.select(range(k)), seed, shot_settings
                    )
                scores, _, rows = run.evaluate(classifier)
                points.append({"shots": k, "seed": seed, **scores})
                per_row += [{"shots": k, "seed": seed, **row} for row in rows]
    summary = few_shot_curve(
        [p["shots"] for p in points], [p[metric] for p in points], runs=[p["seed"] for p in points]
    )
    settings = {
        **shot_settings.as_dict(),
        "base_epochs": run.settings.epochs if base_split else None,
        "metric": metric,
        "shots": shots,
        "seeds": list(seeds),
        "pool_split": pool_split,
        "base_split": base_split,
    }
    result = run.result("curve", None, settings, {"points": points, "curve": summary})
    path = write_result(out, result)
    write_rows(path, per_row)
    title = f"{model_name(run.model)} · {config}"
    curve_plot(summary, metric, title, path.with_suffix(".png"))
    summarise(out, [result], f"compsem curve · {config}")
    return result
