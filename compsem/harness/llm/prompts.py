"""The questions a causal LM is asked about a config: those its benchmark's spec declares for
the config's columns (``llm_prompts`` in ``builders/<name>/spec.py``)."""

from __future__ import annotations

from compsem.benchmark.prompts import LLMPrompt, default_prompt
from compsem.builders import BENCHMARKS


def prompts_for(benchmark: str, columns) -> tuple[LLMPrompt, ...]:
    """The prompts for a config of ``benchmark``; one clear error for a benchmark without any."""
    spec = BENCHMARKS.get(benchmark)
    offered = spec.prompts_for(columns) if spec is not None else ()
    if not offered:
        with_prompts = [name for name, spec in BENCHMARKS.items() if spec.llm_prompts]
        raise ValueError(
            f"no LLM prompt is declared for {benchmark!r} configs with columns "
            f"{', '.join(sorted(columns))} (LLM prompts exist for {', '.join(with_prompts)}); "
            "Montague consistency is measured on embeddings: use compsem embed"
        )
    return offered


def choose_prompt(
    benchmark: str, columns, name: str | None = None, generate: bool = False
) -> LLMPrompt:
    """The named prompt of the config's task, or its default: the first prompt, or for
    generation the first that is a question rather than a cloze (the first when all are)."""
    offered = prompts_for(benchmark, columns)
    if name is None:
        return default_prompt(offered, generate)
    for prompt in offered:
        if prompt.name == name:
            return prompt
    raise ValueError(
        f"unknown prompt {name!r} for this config; choose one of "
        f"{', '.join(p.name for p in offered)}"
    )
