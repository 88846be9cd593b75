"""``compsem llm --generate``: an instruct, reasoning or API model answers each row in text; the
benchmark's parser reads the answer back to a label.

The run renders every row as a chat (``generation``), takes each answer from the call cache or
from the back end (transformers, an OpenAI-compatible endpoint, vLLM), parses it, and writes the
result JSON (accuracy and macro-F1 beside the unparsable share, the model's revision and the back
end's version), ``summary.md`` and ``<result>.rows.jsonl``: per row the exact model input, the
raw outputs, the parsed answer, token counts, the choices and the gold label, from which
``compsem rescore`` recomputes the result without a model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

from compsem.benchmark.answers import REASONING_TAGS, check_parser
from compsem.files.fingerprint import fingerprint
from compsem.harness.data.benchmark import load_benchmark
from compsem.harness.data.sampling import clusters_of, groups_of
from compsem.harness.llm.cache import CallCache, model_revision
from compsem.harness.llm.gen_ranking import ranking_positive
from compsem.harness.llm.gen_scores import generation_scores, parse_rows, write_generation
from compsem.harness.llm.generation import (
    Decoding,
    chat_template_text,
    conversation,
    generate_texts,
    render_chat,
)
from compsem.harness.llm.openai_api import (
    ChatEndpoint,
    api_key,
    generate_with_endpoint,
    server_version,
)
from compsem.harness.llm.run import (
    demonstrations,
    first_rows,
    load_causal_lm,
    load_tokenizer,
    pick_prompt,
    prompt_settings,
)
from compsem.harness.llm.vllm import generate_with_vllm
from compsem.harness.models.device import resolve
from compsem.harness.models.loading import memory_guard
from compsem.harness.models.offline import resolve_model
from compsem.harness.results.files import (
    check_writable,
    make_result,
    result_files,
)

GENERATION_BACKENDS = ("hf", "openai", "vllm")


@dataclass(frozen=True)
class Endpoint:
    """Where ``--backend openai`` sends requests and how."""

    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int = 8
    timeout: float = 60.0
    retries: int = 5


@dataclass
class Answers:
    """Each row's model output, what produced them and how many model calls it took."""

    outputs: list[dict] = field(default_factory=list)
    calls: int = 0
    cached: int = 0
    version: str | None = None
    revision: str | None = None


def _version(package: str) -> str | None:
    try:
        return f"{package} {metadata.version(package)}"
    except metadata.PackageNotFoundError:
        return None


def answer_rows(backend, path, conversations, decoding, endpoint, options) -> Answers:
    """Every row's outputs, from the cache where it has them, else from the back end; each
    output is cached as it arrives, so an interrupted run resumes where it stopped."""
    revision = model_revision(path)
    cache = CallCache(revision, backend, options["cache"])
    if backend == "hf":
        tokenizer = load_tokenizer(path)
        template = chat_template_text(tokenizer, path, options["chat_template"])
        inputs = [render_chat(tokenizer, messages, template) for messages in conversations]
    else:
        inputs = conversations
    settings = {**decoding.settings(), "model": path}
    keys = [CallCache.key(settings, model_input) for model_input in inputs]
    outputs = [cache.get(key) for key in keys]
    pending = [i for i, output in enumerate(outputs) if output is None]
    answers = Answers(cached=len(inputs) - len(pending), version=_version("transformers"))

    def done(found: dict[int, dict]) -> None:
        fresh = {}
        for n, output in found.items():
            index = pending[n]
            outputs[index] = output
            fresh[keys[index]] = output
        cache.put_many(fresh)

    if pending and backend == "hf":
        causal = load_causal_lm(path, options["placement"])
        with memory_guard(path, options["placement"], options["batch_size"], 0):
            answers.calls = generate_texts(
                causal,
                tokenizer,
                [inputs[i] for i in pending],
                decoding,
                options["batch_size"],
                options["placement"].device,
                done,
                options["progress"],
            )
    elif backend == "openai":
        client = ChatEndpoint(
            endpoint.base_url,
            path,
            api_key(endpoint.api_key_env),
            endpoint.timeout,
            endpoint.retries,
        )
        try:
            if pending:
                answers.calls = generate_with_endpoint(
                    client,
                    [inputs[i] for i in pending],
                    decoding,
                    endpoint.concurrency,
                    done,
                    options["progress"],
                )
            answers.version = server_version(client) or f"OpenAI-compatible at {endpoint.base_url}"
        finally:
            client.close()
    elif pending:  # vllm
        answers.calls = generate_with_vllm(path, inputs, pending, decoding, options, done)
        answers.version = _version("vllm")
    answers.outputs = [
        {**output, "input": model_input}
        for output, model_input in zip(outputs, inputs, strict=True)
    ]
    answers.revision = revision
    return answers


def run_generate(
    dataset: str,
    config: str,
    out: Path,
    model: str,
    decoding: Decoding,
    parser: str | None = None,
    backend: str = "hf",
    endpoint: Endpoint | None = None,
    shots: int = 0,
    limit: int | None = None,
    split: str = "test",
    prompt: str | None = None,
    template: Path | None = None,
    system: str | None = None,
    chat_template: Path | None = None,
    reasoning_tags: tuple[str, ...] = REASONING_TAGS,
    batch_size: int = 32,
    revision: str | None = None,
    device: str = "auto",
    precision: str = "auto",
    cache: bool = True,
    progress: bool = True,
) -> dict:
    """Generate an answer to every row of ``config``'s ``split``, parse and score it."""
    if backend not in GENERATION_BACKENDS:
        raise ValueError(
            f"unknown backend {backend!r}; choose one of {', '.join(GENERATION_BACKENDS)}"
        )
    endpoint = endpoint or Endpoint()
    if backend == "openai" and not endpoint.base_url:
        raise ValueError("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
    if parser is not None:
        check_parser(parser)
    chat_text = None if chat_template is None else chat_template_text(None, "", chat_template)
    seed = decoding.seed
    check_writable(result_files(out, "llm", config, [seed]))
    placement = resolve(device, precision)
    bench = load_benchmark(dataset, config, revision)
    chosen = pick_prompt(bench, prompt, template, generate=True)
    parser = parser or chosen.parser
    test = first_rows(bench.split(split), limit)
    rows = test.to_list()
    demos = demonstrations(bench, split, shots, seed, len(rows))
    conversations = [conversation(chosen, r, d, system) for r, d in zip(rows, demos, strict=True)]
    path = resolve_model(model)
    options = {
        "cache": cache,
        "chat_template": chat_template,
        "placement": placement,
        "batch_size": batch_size,
        "progress": progress,
    }
    start = time.perf_counter()
    answers = answer_rows(backend, path, conversations, decoding, endpoint, options)
    seconds = time.perf_counter() - start
    groups = groups_of(test, bench)
    cluster_by, clusters = clusters_of(test, bench) or (None, None)
    references = np.asarray(test["label"])
    records = [
        {
            "id": row.get("id", index),
            "label": int(references[index]),
            "input": answer["input"],
            "output": answer["texts"],
            "choices": chosen.answers(row),
            "prompt_tokens": answer["prompt_tokens"],
            "output_tokens": answer["output_tokens"],
            "refused": answer.get("refused", 0),
            "groups": {name: str(values[index]) for name, values in groups.items()},
            "cluster": None if clusters is None else clusters[index],
        }
        for index, (row, answer) in enumerate(zip(rows, answers.outputs, strict=True))
    ]
    records = parse_rows(records, parser, reasoning_tags)
    names = bench.schema.label_names
    settings = {
        "model_path": path,
        "model_revision": answers.revision,
        "backend": backend,
        "backend_version": answers.version,
        "base_url": endpoint.base_url if backend == "openai" else None,
        **prompt_settings(bench, chosen, prompt, template, generate=True),
        "generate": True,
        "parser": parser,
        "reasoning_tags": list(reasoning_tags),
        "system": system,
        "chat_template_file": None if chat_template is None else str(Path(chat_template).resolve()),
        "chat_template_fingerprint": None if chat_template is None else fingerprint(chat_text),
        **decoding.settings(),
        "shots": shots,
        "limit": limit,
        "eval_examples": len(rows),
        "model_calls": answers.calls,
        "cached_rows": answers.cached,
        "batch_size": batch_size,
        "label_names": list(names),
        "cluster_by": cluster_by,
        "ranking_positive": ranking_positive(bench),
    }
    scores = generation_scores(records, names, settings)
    timing = {"eval_seconds": seconds, "eval_examples_per_second": len(rows) / max(seconds, 1e-9)}
    result = make_result(
        "llm", model, bench.provenance(split), seed, settings, scores, placement, timing
    )
    return write_generation(out, result, records, names)
