"""``compsem llm --backend vllm``: the same log-likelihoods from vLLM's prompt log-probabilities,
for GPUs, and with ``--generate`` the chats' answers from vLLM's ``generate``. It follows lm-eval's vLLM backend: each (context, choice) is one prompt, scored by the
log-probabilities vLLM reports for the prompt's own tokens (``prompt_logprobs``). vLLM needs a
CUDA GPU and is not installed where compsem's tests run: they check compsem's bookkeeping around
it with a stand-in engine, NOT vLLM's own scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from compsem.harness.llm.loglikelihood import PairEncoder, Request


def score_with_vllm(
    model: str, tokenizer, requests: Sequence[Request], precision: str, max_length: int | None
) -> tuple[list[list[float]], int, int, int]:
    """Each request's choice log-likelihoods, the number of prompts vLLM scored, the length
    limit it scored them under, and how many rows had a prompt cut to that limit (its first
    tokens dropped, as the hf backend and lm-eval do)."""
    try:
        # vLLM is a large optional GPU dependency: imported only for this backend.
        from vllm import LLM, SamplingParams  # an optional GPU backend, not installed by default
        from vllm.inputs import TokensPrompt  # (as above)
    except ImportError:
        raise RuntimeError(
            "--backend vllm needs vLLM on a CUDA machine (pip install vllm); use --backend hf"
        ) from None
    dtype = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}[precision]
    engine = LLM(model=model, dtype=dtype, max_model_len=max_length)
    limit = engine.llm_engine.model_config.max_model_len
    encoder = PairEncoder(tokenizer)
    prompts, owners, cut = [], [], set()
    for row, request in enumerate(requests):
        for choice, continuation in enumerate(request.continuations):
            context, tokens = encoder.pair(request.context, continuation)
            whole = context + tokens
            if len(whole) > limit:
                cut.add(row)
            prompts.append(TokensPrompt(prompt_token_ids=whole[-limit:]))
            owners.append((row, choice, len(tokens)))
    params = SamplingParams(temperature=0, max_tokens=1, prompt_logprobs=1)
    outputs = engine.generate(prompts, params)
    scores = [[float("nan")] * len(r.continuations) for r in requests]
    for output, (row, choice, length) in zip(outputs, owners, strict=True):
        ids = output.prompt_token_ids
        found = output.prompt_logprobs
        scores[row][choice] = sum(
            found[i][ids[i]].logprob for i in range(len(ids) - length, len(ids))
        )
    return scores, len(prompts), limit, len(cut)


def generate_with_vllm(model: str, inputs, pending, decoding, options, done) -> int:
    """``compsem llm --generate --backend vllm``: the rendered chats of the ``pending`` rows
    answered by vLLM in one call (it batches itself); ``done`` gets them as
    :func:`compsem.harness.llm.generation.generate_texts` gives them. Returns 1 (one call)."""
    try:
        from vllm import LLM, SamplingParams  # an optional GPU backend, not installed by default
    except ImportError:
        raise RuntimeError(
            "--backend vllm needs vLLM on a CUDA machine (pip install vllm); use --backend hf"
        ) from None
    dtype = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}[
        options["placement"].precision
    ]
    engine = LLM(model=model, dtype=dtype)
    params = SamplingParams(
        n=decoding.samples,
        temperature=decoding.temperature,
        max_tokens=decoding.max_new_tokens,
        seed=decoding.seed if decoding.temperature > 0 else None,
    )
    outputs = engine.generate([inputs[i] for i in pending], params)
    done(
        {
            n: {
                "texts": [c.text for c in output.outputs],
                "prompt_tokens": len(output.prompt_token_ids),
                "output_tokens": [len(c.token_ids) for c in output.outputs],
            }
            for n, output in enumerate(outputs)
        }
    )
    return 1
