"""Multiple-choice scoring by a causal LM's log-likelihood, as lm-evaluation-harness does it.

Each row becomes a context (the question, after any demonstrations, inside the chat template when
used) and one continuation per answer choice; a choice's score is the sum of its tokens' log
probabilities given the context. Contexts and continuations are tokenised as lm-eval's
``HFLM._encode_pair`` does (whitespace at the end of the context moves onto the continuation;
``context + continuation`` is encoded whole and split at the context's token length), so both
give the same numbers.

When every choice of a row is a single token (after tokens all choices share, such as the
newline a chat template's context ends with), the row costs ONE forward pass over the shared
context (each choice read at the last position); otherwise one pass per (row, choice) over
``(context + continuation)[:-1]``. Passes are batched by length and right-padded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from compsem.benchmark.prompts import LLMPrompt


@dataclass(frozen=True)
class Request:
    """A row's context and its continuations (strings, before tokenisation)."""

    context: str
    continuations: tuple[str, ...]


@dataclass(frozen=True)
class Pass:
    """One forward pass: input token ids, and what to read from it: for each (row, choice),
    the position of the first continuation token's prediction and the continuation's ids."""

    input_ids: tuple[int, ...]
    reads: tuple[tuple[int, int, int, tuple[int, ...]], ...]


def context_text(
    prompt: LLMPrompt,
    row: Mapping,
    demonstrations: Sequence[tuple[Mapping, int]] = (),
    tokenizer=None,
) -> str:
    """The context lm-eval builds: description, demonstrations, question. With ``tokenizer``,
    its chat template over a system turn (the description, if any), one user and one assistant
    turn per demonstration (lm-eval's default ``fewshot_as_multiturn``) and the question."""
    if tokenizer is None:
        body = "".join(prompt.demonstration(demo, label) for demo, label in demonstrations)
        return prompt.description + body + prompt.question(row)
    messages = [{"role": "system", "content": prompt.description}] if prompt.description else []
    for demo, label in demonstrations:
        messages.append({"role": "user", "content": prompt.question(demo)})
        messages.append({"role": "assistant", "content": prompt.answers(demo)[label]})
    messages.append({"role": "user", "content": prompt.question(row)})
    return tokenizer.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=True, continue_final_message=False
    )


def build_request(
    prompt: LLMPrompt,
    row: Mapping,
    demonstrations: Sequence[tuple[Mapping, int]] = (),
    chat_tokenizer=None,
) -> Request:
    """A row's context and continuations; under a chat template the target delimiter is dropped
    (lm-eval's ``construct_requests`` does the same)."""
    delimiter = "" if chat_tokenizer is not None else prompt.target_delimiter
    return Request(
        context=context_text(prompt, row, demonstrations, chat_tokenizer),
        continuations=tuple(delimiter + answer for answer in prompt.answers(row)),
    )


class PairEncoder:
    """lm-eval's ``tok_encode`` and ``_encode_pair`` for a causal model."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        prefix = tokenizer.bos_token_id
        prefix = tokenizer.eos_token_id if prefix is None else prefix
        self.prefix_text = tokenizer.decode(prefix) if prefix is not None else None

    def encode(self, text: str) -> list[int]:
        # A text that already starts with the BOS text (a chat template's) gets no second one.
        if self.prefix_text and text.startswith(self.prefix_text):
            return self.tokenizer.encode(text, add_special_tokens=False)
        return self.tokenizer.encode(text)

    def pair(self, context: str, continuation: str) -> tuple[list[int], list[int]]:
        if not context:
            raise ValueError("an empty context cannot be scored: the prompt rendered nothing")
        spaces = len(context) - len(context.rstrip())
        if spaces:
            continuation = context[-spaces:] + continuation
            context = context[:-spaces]
        whole = self.encode(context + continuation)
        context_ids = self.encode(context)
        return context_ids, whole[len(context_ids) :]


def plan(
    requests: Sequence[Request], tokenizer, max_length: int, cut: list[int] | None = None
) -> list[Pass]:
    """The forward passes that score every request (see the module docstring). A row whose
    context does not fit ``max_length`` keeps its last tokens (as lm-eval does) and its index
    is appended to ``cut`` where given; a ``max_length`` that cuts every row is refused, since
    the model would then never see a whole question."""
    encoder = PairEncoder(tokenizer)
    passes = []
    rows_cut, needs = [], []
    for row, request in enumerate(requests):
        pairs = [encoder.pair(request.context, c) for c in request.continuations]
        empty = [i for i, (_, continuation) in enumerate(pairs) if not continuation]
        if empty:
            raise ValueError(
                f"row {row}: choice {empty[0]} adds no token to the context; choices must differ"
            )
        longest = max(len(continuation) for _, continuation in pairs)
        if longest >= max_length:  # every token of the question would be cut: noise, not a score
            raise ValueError(
                f"--max-length {max_length} leaves no room for the question: row {row} has a "
                f"choice of {longest} tokens; pass --max-length {longest + 1} or more (default: "
                "the model's context length)"
            )
        shared = _shared_prefix(pairs)
        if shared is not None:
            # Every choice is the same tokens plus one of its own (often just the answer
            # token, or "\n" + answer under a chat template): one pass over the context and
            # those shared tokens scores them all, read at the last positions.
            needed = len(pairs[0][0]) + len(shared)
            whole = _truncate(pairs[0][0] + shared, max_length)
            start = len(whole) - len(shared) - 1
            reads = tuple((row, i, start, tuple(c)) for i, (_, c) in enumerate(pairs))
            passes.append(Pass(tuple(whole), reads))
        else:
            # A pass reads all but the last token of its context and choice.
            needed = max(len(context) + len(continuation) - 1 for context, continuation in pairs)
            for choice, (context, continuation) in enumerate(pairs):
                whole = (context + continuation)[-(max_length + 1) :]
                start = len(whole) - len(continuation) - 1
                passes.append(Pass(tuple(whole[:-1]), ((row, choice, start, tuple(continuation)),)))
        needs.append(needed)
        if needed > max_length:
            rows_cut.append(row)
    if rows_cut and len(rows_cut) == len(requests):
        raise ValueError(
            f"--max-length {max_length} cuts the prompt of every row (the shortest needs "
            f"{min(needs)} tokens), so the model would never see a whole question; pass "
            f"--max-length {min(needs)} or more (default: the model's context length), or "
            "fewer --shots"
        )
    if cut is not None:
        cut.extend(rows_cut)
    return passes


def _shared_prefix(pairs: list[tuple[list[int], list[int]]]) -> list[int] | None:
    """The tokens every continuation starts with, when all share one context and each adds
    exactly one token of its own after them; else None."""
    if len({tuple(context) for context, _ in pairs}) != 1:
        return None
    continuations = [continuation for _, continuation in pairs]
    shared = continuations[0][:-1]
    if all(len(c) == len(shared) + 1 and c[:-1] == shared for c in continuations):
        return shared
    return None


def _truncate(ids: list[int], max_length: int) -> list[int]:
    """Keep the last ``max_length`` tokens, as lm-eval does for a context that is too long."""
    return ids[-max_length:]


def pad_right(sequences: Sequence[Pass], pad_id: int):
    """input_ids and attention_mask, right-padded (positions stay those of the unpadded rows)."""
    import torch  # deferred: the module's planning functions need no torch

    width = max(len(s.input_ids) for s in sequences)
    ids = torch.full((len(sequences), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.long)
    for i, sequence in enumerate(sequences):
        ids[i, : len(sequence.input_ids)] = torch.tensor(sequence.input_ids)
        mask[i, : len(sequence.input_ids)] = 1
    return {"input_ids": ids, "attention_mask": mask}


def batches(sequences: Sequence[Pass], batch_size: int) -> list[list[int]]:
    """Indices of sequences in batches of similar length, longest first."""
    order = np.argsort([-len(s.input_ids) for s in sequences], kind="stable")
    return [order[i : i + batch_size].tolist() for i in range(0, len(order), batch_size)]


def score_batch(model, batch: dict, passes: Sequence[Pass], out: list) -> None:
    """One forward pass; sets ``out[row][choice]`` to each read's summed log-probability."""
    import torch  # deferred: see pad_right

    logits = model(**batch).logits
    where, tokens, owners = [], [], []
    for i, one in enumerate(passes):
        for row, choice, start, continuation in one.reads:
            for offset, token in enumerate(continuation):
                where.append((i, start + offset))
                tokens.append(token)
                owners.append((row, choice))
    rows, positions = (
        torch.tensor(axis, device=logits.device) for axis in zip(*where, strict=True)
    )
    # Only the positions read are normalised: (reads, vocabulary), not (batch, length, vocab).
    log_probs = torch.log_softmax(logits[rows, positions].float(), dim=-1)
    picked = log_probs.gather(1, torch.tensor(tokens, device=logits.device)[:, None])[:, 0]
    totals: dict[tuple[int, int], float] = {}
    for owner, value in zip(owners, picked.tolist(), strict=True):
        totals[owner] = totals.get(owner, 0.0) + value
    for (row, choice), total in totals.items():
        out[row][choice] = total


def score_passes(
    model,
    tokenizer,
    passes: Sequence[Pass],
    rows: Sequence[int],
    batch_size: int,
    device: str,
    progress: bool = True,
) -> list[list[float]]:
    """Run the planned passes; ``rows[i]`` is the number of choices of request ``i``."""
    import torch  # deferred: see pad_right

    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    out = [[float("nan")] * choices for choices in rows]
    model.eval()
    with torch.inference_mode():
        for indices in tqdm(batches(passes, batch_size), desc="Scoring", disable=not progress):
            chosen = [passes[i] for i in indices]
            batch = {k: v.to(device) for k, v in pad_right(chosen, pad_id).items()}
            score_batch(model, batch, chosen, out)
    return out


def score_requests(
    model,
    tokenizer,
    requests: Sequence[Request],
    batch_size: int,
    device: str,
    max_length: int,
    progress: bool = True,
    cut: list[int] | None = None,
) -> tuple[list[list[float]], int]:
    """Each request's choice log-likelihoods, and how many forward passes (sequences) it took
    (``cut``: as :func:`plan`'s)."""
    passes = plan(requests, tokenizer, max_length, cut)
    choices = [len(r.continuations) for r in requests]
    scored = score_passes(model, tokenizer, passes, choices, batch_size, device, progress)
    return scored, len(passes)


def choice_predictions(log_likelihoods, choices: Sequence[Sequence[str]]) -> dict:
    """Predictions by raw log-likelihood and by log-likelihood per character of the choice
    (lm-eval's ``acc`` and ``acc_norm``), and each choice's probability among the choices."""
    predictions = np.array([int(np.argmax(row)) for row in log_likelihoods])
    normalised = np.array(
        [
            int(np.argmax(np.asarray(row) / np.array([len(c) for c in row_choices], dtype=float)))
            for row, row_choices in zip(log_likelihoods, choices, strict=True)
        ]
    )
    probabilities = []
    for row in log_likelihoods:
        row = np.asarray(row, dtype=float)
        shifted = np.exp(row - row.max())
        probabilities.append(shifted / shifted.sum())
    return {"raw": predictions, "normalised": normalised, "probabilities": probabilities}
