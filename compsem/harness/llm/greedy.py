"""Greedy decoding of a batch without the work ``generate`` spends on rows that are done.

``model.generate`` keeps every row of a batch in each decoding step until the longest answer
ends, and reads each prompt whole. On a benchmark most answers are a word or two while a few run
to the token budget, and every prompt begins with the same chat-template text, so most of that
work is padding: here rows leave the batch (and the KV cache) as soon as they end, and the
prompts' common prefix is read once and shared. The arithmetic is the one ``generate`` does
(positions from the attention mask, argmax of the last logits, the same stop tokens), so the
answers are the same tokens up to floating-point rounding; models whose generation config
changes the logits (a repetition penalty, suppressed tokens…) or whose architecture is not one
checked here keep ``generate``.
"""

from __future__ import annotations

from collections.abc import Sequence

# Decoder-only families with rotary positions read from ``position_ids`` and a plain KV cache,
# checked against ``generate`` (tests/test_generation.py); others keep ``generate``.
PRUNED_FAMILIES = frozenset({"llama", "mistral", "qwen2", "qwen3", "phi3"})
# Generation-config fields whose non-default values make ``generate`` change the logits.
LOGIT_SETTINGS = (
    "repetition_penalty",
    "encoder_repetition_penalty",
    "no_repeat_ngram_size",
    "bad_words_ids",
    "suppress_tokens",
    "begin_suppress_tokens",
    "forced_bos_token_id",
    "forced_eos_token_id",
    "min_length",
    "min_new_tokens",
    "sequence_bias",
    "exponential_decay_length_penalty",
    "renormalize_logits",
    "guidance_scale",
    "watermarking_config",
)


def prunes(causal) -> bool:
    """Whether :func:`greedy_tokens` decodes ``causal`` as ``generate`` would."""
    from transformers import GenerationConfig  # heavy: the prompt exports import this module

    if getattr(causal.config, "model_type", None) not in PRUNED_FAMILIES:
        return False
    default, used = GenerationConfig(), causal.generation_config
    return all(getattr(used, name, None) == getattr(default, name, None) for name in LOGIT_SETTINGS)


def common_prefix(prompts: Sequence[Sequence[int]]) -> int:
    """The length of the tokens every prompt begins with, leaving each at least one of its own
    (the last prompt token's logits give the first answer token)."""
    shortest = min(len(p) for p in prompts)
    length = 0
    while length < shortest - 1 and len({p[length] for p in prompts}) == 1:
        length += 1
    return length


def greedy_tokens(
    causal, prompts: Sequence[Sequence[int]], max_new_tokens: int, stop: set[int], pad: int
) -> list[list[int]]:
    """Each prompt's greedy answer tokens, up to and including its first stop token."""
    import torch  # heavy: only decoding needs it (the prompt exports import this module)
    from transformers import DynamicCache  # heavy, as torch

    device = causal.device
    rows = len(prompts)
    cache = DynamicCache(config=causal.config)
    shared = common_prefix(prompts) if rows > 1 else 0
    if shared:
        causal(
            input_ids=torch.tensor([prompts[0][:shared]], device=device),
            past_key_values=cache,
            logits_to_keep=1,
        )
        cache.batch_repeat_interleave(rows)
    rest = [list(p[shared:]) for p in prompts]
    width = max(len(r) for r in rest)
    ids = torch.tensor([[pad] * (width - len(r)) + r for r in rest], device=device)
    mask = torch.tensor(
        [[1] * shared + [0] * (width - len(r)) + [1] * len(r) for r in rest], device=device
    )
    # Positions count real tokens only, as ``generate`` derives them from a left-padded mask.
    positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 0)[:, shared:]
    logits = causal(
        input_ids=ids,
        attention_mask=mask,
        position_ids=positions,
        past_key_values=cache,
        logits_to_keep=1,
    ).logits
    answers: list[list[int]] = [[] for _ in range(rows)]
    alive = list(range(rows))
    last = positions[:, -1]
    for step in range(max_new_tokens):
        chosen = logits[:, -1].argmax(-1)
        tokens = chosen.tolist()
        for row, token in zip(alive, tokens, strict=True):
            answers[row].append(token)
        going = [k for k, token in enumerate(tokens) if token not in stop]
        if not going or step == max_new_tokens - 1:
            break
        if len(going) < len(alive):  # the rows that ended leave the batch and the cache
            keep = torch.tensor(going, device=device)
            cache.batch_select_indices(keep)
            mask, chosen, last = mask[keep], chosen[keep], last[keep]
            alive = [alive[k] for k in going]
        mask = torch.cat([mask, mask.new_ones((len(alive), 1))], dim=-1)
        last = last + 1
        logits = causal(
            input_ids=chosen[:, None],
            attention_mask=mask,
            position_ids=last[:, None],
            past_key_values=cache,
        ).logits
    return answers
