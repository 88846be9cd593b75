"""``compsem llm``: a causal LM on a config, zero- or few-shot, scored by log-likelihood.

Writes the result JSON every harness command writes (accuracy and macro-F1 overall and per
grouping field, plus lm-eval's length-normalised accuracy, the share of each predicted label,
and for BoOQA the AUCnorm of P(true)), a ``summary.md``, and the per-row log-likelihoods beside
the result (``<result>.rows.jsonl``) for comparison with other tools.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from compsem.benchmark.prompts import LLMPrompt
from compsem.files.bounded_read import read_text
from compsem.files.fingerprint import fingerprint
from compsem.harness.data.benchmark import Benchmark, load_benchmark
from compsem.harness.data.sampling import clusters_of, groups_of
from compsem.harness.llm.gen_scores import ci, score_sections
from compsem.harness.llm.loglikelihood import build_request, choice_predictions, score_requests
from compsem.harness.llm.prompts import choose_prompt
from compsem.harness.llm.vllm import score_with_vllm
from compsem.harness.models.device import resolve
from compsem.harness.models.loading import load_for_inference, memory_guard
from compsem.harness.models.offline import SMOLLM2, resolve_model
from compsem.harness.report.cells import number
from compsem.harness.results.files import (
    SUMMARY,
    check_writable,
    make_result,
    result_files,
    result_name,
    write_result,
    write_rows,
    write_text,
)
from compsem.harness.results.scores import aucnorm_interval, grouped_scores, ranking_scores
from compsem.text.escape import markdown_code, markdown_text

POOL_SPLITS = ("few_shot", "train")
BACKENDS = ("hf", "vllm")


def benchmark_name(bench: Benchmark) -> str:
    """The card's ``compsem`` benchmark, else the one the preset's signature columns name."""
    return bench.benchmark


def first_rows(dataset, limit: int | None):
    """The first ``limit`` rows, as lm-eval's ``--limit`` takes them."""
    if limit is None or limit >= len(dataset):
        return dataset
    if limit < 1:
        raise ValueError(f"--limit must be at least 1, got {limit}")
    return dataset.select(range(limit))


def pick_prompt(
    bench: Benchmark, name: str | None, template: Path | None, generate: bool = False
) -> LLMPrompt:
    """The named (else the default, for ``generate`` the default question) built-in prompt of
    the config; with ``template``, its answer choices under the file's question, named after
    the file with its suffix (``nli.jinja``), never a built-in's name."""
    columns = next(iter(bench.splits.values())).column_names
    prompt = choose_prompt(benchmark_name(bench), columns, name, generate)
    if template is not None:
        template = Path(template)
        if not template.exists():
            raise ValueError(f"no template file {template}: pass a Jinja file of the question")
        # An editor's final newline is not part of the question.
        text = read_text(template, "template").removesuffix("\n")
        prompt = prompt.with_text(text, template.name)
        # Render it once now, so a template that is refused fails before a model is loaded.
        prompt.question(next(iter(bench.splits.values()))[0])
    prompt.check_labels(bench.schema.label_names)
    return prompt


def prompt_fingerprint(prompt: LLMPrompt) -> str:
    """A hash of everything that puts a row to the model: the question's text, the choices,
    their labels, the description and both delimiters. Two runs with the same prompt name but
    other words (a user template, a built-in reworded in a later compsem) differ here."""
    return fingerprint(
        prompt.text,
        prompt.choices,
        prompt.labels,
        prompt.description,
        prompt.target_delimiter,
        prompt.fewshot_delimiter,
    )


def prompt_settings(
    bench: Benchmark,
    chosen: LLMPrompt,
    name: str | None,
    template: Path | None,
    generate: bool = False,
) -> dict:
    """What a result records of its prompt: its name, where the wording came from, the
    fingerprint of its content (what reports key on), and for a user template the file and
    the built-in whose answer choices it takes (what reruns it)."""
    columns = next(iter(bench.splits.values())).column_names
    return {
        "prompt": chosen.name,
        "prompt_source": chosen.source,
        "prompt_fingerprint": prompt_fingerprint(chosen),
        "template": None if template is None else str(Path(template).resolve()),
        "template_base": (
            None
            if template is None
            else choose_prompt(benchmark_name(bench), columns, name, generate).name
        ),
    }


def demonstrations(bench: Benchmark, split: str, shots: int, seed: int, rows: int) -> list:
    """For each evaluated row, ``shots`` (row, label) pairs drawn without replacement from the
    config's few_shot (else train) split, never from the evaluated split."""
    if shots == 0:
        return [[] for _ in range(rows)]
    pool_name = next((name for name in POOL_SPLITS if name in bench.splits), None)
    if pool_name is None or pool_name == split:
        raise ValueError(
            f"--shots {shots} needs demonstrations from a few_shot or train split other than the "
            f"evaluated {split!r}; config {bench.config!r} has {', '.join(bench.splits)}"
        )
    pool = bench.splits[pool_name]
    if shots > len(pool):
        raise ValueError(
            f"--shots {shots} exceeds the {len(pool)} rows of {pool_name!r}; pass --shots "
            f"{len(pool)} or fewer"
        )
    rng = np.random.default_rng(seed)
    pool_rows = pool.to_list()
    return [
        [(pool_rows[i], pool_rows[i]["label"]) for i in rng.choice(len(pool), shots, replace=False)]
        for _ in range(rows)
    ]


def load_tokenizer(model: str):
    # transformers is heavy; only the harness commands that run models import it.
    from transformers import AutoTokenizer  # transformers takes seconds to import

    try:
        return AutoTokenizer.from_pretrained(model)
    except (OSError, ValueError) as error:
        raise OSError(f"cannot load the tokenizer of {model!r}: {error}") from None


def load_causal_lm(model: str, placement):
    from transformers import AutoModelForCausalLM  # heavy: see load_tokenizer

    causal, info = load_for_inference(model, AutoModelForCausalLM, placement)
    if info["missing_keys"]:
        raise ValueError(
            f"{model} is not a causal language model (missing {sorted(info['missing_keys'])[0]}"
            " …): compsem llm needs a decoder-only LM, e.g. smollm2 or a Hub id"
        )
    return causal


def extra_scores(bench: Benchmark, references, found: dict, choices, clusters=None) -> dict:
    names = bench.schema.label_names
    predictions = found["raw"]
    shares = {name: float(np.mean(predictions == i)) for i, name in enumerate(names)}
    extra = {
        "accuracy_norm": float(np.mean(found["normalised"] == references)),
        "label_shares": shares,
        "reference_shares": {n: float(np.mean(references == i)) for i, n in enumerate(names)},
    }
    positive = bench.schema.positive_label
    if positive is not None:
        probability = np.array([p[positive] for p in found["probabilities"]])
        ranked = ranking_scores(bench, references, probability)
        extra.update(ranked)
        if ranked:  # its interval, over the rows' items where they share one
            extra.update(aucnorm_interval(probability, references == positive, clusters))
    return extra


def run_llm(
    dataset: str,
    config: str,
    out: Path,
    model: str = SMOLLM2,
    shots: int = 0,
    seed: int = 1,
    limit: int | None = None,
    split: str = "test",
    prompt: str | None = None,
    template: Path | None = None,
    chat_template: bool = True,
    batch_size: int = 32,
    max_length: int | None = None,
    backend: str = "hf",
    revision: str | None = None,
    device: str = "auto",
    precision: str = "auto",
    progress: bool = True,
) -> dict:
    """Score every answer choice of ``config``'s ``split`` by its log-likelihood under ``model``."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    check_writable(result_files(out, "llm", config, [seed]))
    placement = resolve(device, precision)
    bench = load_benchmark(dataset, config, revision)
    chosen = pick_prompt(bench, prompt, template)
    test = first_rows(bench.split(split), limit)
    rows = test.to_list()
    demos = demonstrations(bench, split, shots, seed, len(rows))
    path = resolve_model(model)
    tokenizer = load_tokenizer(path)
    chat = tokenizer if chat_template and tokenizer.chat_template else None
    requests = [build_request(chosen, r, d, chat) for r, d in zip(rows, demos, strict=True)]
    scored, passes, length, seconds, truncated = score(
        backend, path, tokenizer, requests, placement, batch_size, max_length, progress
    )
    if truncated:
        print(
            f"warning: max length {length} cut the prompt of {truncated} of {len(rows)} rows "
            "(the model saw only their last tokens); pass a larger --max-length or fewer --shots",
            file=sys.stderr,
        )
    choices = [chosen.answers(r) for r in rows]
    found = choice_predictions(scored, choices)
    references = np.asarray(test["label"])
    names = bench.schema.label_names
    clusters = clusters_of(test, bench)
    scores = grouped_scores(references, found["raw"], names, groups_of(test, bench), clusters)
    scores.update(extra_scores(bench, references, found, choices, clusters))
    settings = {
        "model_path": path,
        **prompt_settings(bench, chosen, prompt, template),
        "chat_template": chat is not None,
        "shots": shots,
        "limit": limit,
        "eval_examples": len(rows),
        "forward_passes": passes,
        "batch_size": batch_size,
        "max_length": length,
        "truncated_rows": truncated,
        "backend": backend,
    }
    timing = {"eval_seconds": seconds, "eval_examples_per_second": len(rows) / seconds}
    result = make_result(
        "llm", model, bench.provenance(split), seed, settings, scores, placement, timing
    )
    write_result(out, result)
    _write_rows(Path(out) / result_name(result), rows, references, found, scored, requests)
    write_text(Path(out) / SUMMARY, render_summary(result, names))
    return result


def score(backend, path, tokenizer, requests, placement, batch_size, max_length, progress):
    """Choice log-likelihoods by the chosen backend, the passes taken, the length limit used,
    the seconds the scoring took and how many rows' prompts were cut to the limit."""
    start = time.perf_counter()
    if backend == "vllm":
        scored, passes, limit, cut = score_with_vllm(
            path, tokenizer, requests, placement.precision, max_length
        )
        return scored, passes, limit, time.perf_counter() - start, cut
    causal = load_causal_lm(path, placement)
    length = max_length or _model_max_length(causal)
    start = time.perf_counter()  # the hf backend's time is the scoring alone
    cut: list[int] = []
    with memory_guard(path, placement, batch_size, length):
        scored, passes = score_requests(
            causal, tokenizer, requests, batch_size, placement.device, length, progress, cut
        )
    return scored, passes, length, time.perf_counter() - start, len(cut)


def _model_max_length(model) -> int:
    return int(getattr(model.config, "max_position_embeddings", 2048))


def _write_rows(result_path: Path, rows, references, found, scored, requests) -> None:
    """Per row: the gold label, the prediction, each choice's log-likelihood, and the exact
    context (after templating) and continuations the model scored."""
    write_rows(
        result_path,
        (
            {
                "id": row.get("id", index),
                "label": int(references[index]),
                "prediction": int(found["raw"][index]),
                "log_likelihoods": scored[index],
                "input": requests[index].context,
                "continuations": list(requests[index].continuations),
            }
            for index, row in enumerate(rows)
        ),
    )


def render_summary(result: dict, names) -> str:
    """The run's Markdown: overall scores, predicted vs true label shares, accuracy by group."""
    scores, settings = result["scores"], result["settings"]
    shots = f"{settings['shots']}-shot (seed {result['seed']})" if settings["shots"] else "0-shot"
    auc = (
        f" · AUCnorm {scores['aucnorm']:.3f} {ci(scores, 'aucnorm')}" if "aucnorm" in scores else ""
    )
    title = f"compsem llm · {result['dataset']['config']} · {result['model']}"
    lines = [
        f"# {markdown_text(title)}",
        f"{shots}, prompt {markdown_code(settings['prompt'])}, chat template "
        f"{'on' if settings['chat_template'] else 'off'}, {settings['eval_examples']} rows of "
        f"{markdown_text(result['dataset']['split'])}: accuracy {scores['accuracy']:.3f} "
        f"{ci(scores, 'accuracy')} · length-normalised {scores['accuracy_norm']:.3f} · "
        f"macro-F1 {number(scores['macro_f1'])} {ci(scores, 'macro_f1')}{auc} (in brackets: "
        "the 95% interval)",
    ]
    lines += score_sections(scores, names)
    return "\n\n".join(lines) + "\n"
