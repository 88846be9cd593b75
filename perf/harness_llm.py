"""The LLM row of ``perf/harness.py``: ``compsem llm``'s scoring loop against a plain loop of
``model(**batch)`` over the same padded batches (target: ≥ 90% of its throughput).

Both sides run the offline SmolLM2-135M-Instruct (bf16 on a GPU, fp32 on CPU) over the same
PLANE rows under the default prompt and the chat template, so every row is one forward pass.
The two sides take turns batch by batch (see ``interleaved``); whole runs of ``score_passes`` are
timed too. Tokenising and planning the passes is timed apart (``plan_seconds``).
"""

from __future__ import annotations

import time

import torch

from compsem.harness.llm.loglikelihood import (
    batches,
    build_request,
    pad_right,
    plan,
    score_batch,
    score_passes,
)
from compsem.harness.llm.prompts import choose_prompt
from compsem.harness.llm.run import load_causal_lm, load_tokenizer
from compsem.harness.models.device import Placement
from compsem.harness.models.offline import model_path

MAX_LENGTH = 2048


def _timed(function, device: str) -> float:
    start = time.perf_counter()
    function()
    if device == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


@torch.inference_mode()
def interleaved(model, tokenizer, passes, choices, batch_size: int, device: str) -> dict:
    """Seconds of each side, batch by batch in turns (a shared machine's load drifts less
    within one batch than over a whole run): the plain side is ``model(**batch)`` on a batch
    padded beforehand; the harness side is ``score_passes``'s loop body (pad, move, forward,
    read the choices' log-probabilities)."""
    pad_id = tokenizer.pad_token_id
    out = [[float("nan")] * n for n in choices]
    seconds = {"plain": 0.0, "harness": 0.0}
    for number, indices in enumerate(batches(passes, batch_size)):
        chosen = [passes[i] for i in indices]
        ready = pad_right(chosen, pad_id)

        def plain(ready=ready):
            model(**{name: tensor.to(device) for name, tensor in ready.items()})

        def harness(chosen=chosen):
            batch = {k: v.to(device) for k, v in pad_right(chosen, pad_id).items()}
            score_batch(model, batch, chosen, out)

        sides = (("plain", plain), ("harness", harness))
        for name, side in sides if number % 2 == 0 else sides[::-1]:
            seconds[name] += _timed(side, device)
    return seconds


def measure_llm(rows, placement: Placement, batch_size: int, repeats: int) -> dict:
    path = str(model_path("smollm2"))
    tokenizer = load_tokenizer(path)
    model = load_causal_lm(path, placement)
    rows = rows.to_list()
    prompt = choose_prompt("plane", rows[0])
    start = time.perf_counter()
    requests = [build_request(prompt, row, (), tokenizer) for row in rows]
    passes = plan(requests, tokenizer, MAX_LENGTH)
    plan_seconds = time.perf_counter() - start
    choices = [len(r.continuations) for r in requests]
    # Warm-up (first-call allocations, kernel selection), then whole runs of score_passes
    # (the harness's loop as compsem llm runs it) and the interleaved comparison.
    score_passes(
        model, tokenizer, passes[:batch_size], choices, batch_size, placement.device, False
    )
    times = {"harness": [], "plain": [], "score_passes": []}
    for _ in range(repeats):
        times["score_passes"].append(
            _timed(
                lambda: score_passes(
                    model, tokenizer, passes, choices, batch_size, placement.device, False
                ),
                placement.device,
            )
        )
        for name, value in interleaved(
            model, tokenizer, passes, choices, batch_size, placement.device
        ).items():
            times[name].append(value)
    best = {name: min(values) for name, values in times.items()}
    return {
        "model": "smollm2",
        "device": placement.describe(),
        "parameters": sum(p.numel() for p in model.parameters()),
        "rows": len(rows),
        "forward_passes": len(passes),
        "batch_size": batch_size,
        "plan_seconds": plan_seconds,
        "score_passes_rows_per_second": len(rows) / best["score_passes"],
        "harness_rows_per_second": len(rows) / best["harness"],
        "plain_rows_per_second": len(rows) / best["plain"],
        "ratio": best["plain"] / best["harness"],
        "seconds": times,
    }
