"""Sentence likelihoods of pretrained LMs without fine-tuning (RNPC Appendix C): a causal LM's
left-to-right log-likelihood, a masked LM's pseudo-log-likelihood (Salazar et al., 2020: each
token masked in turn and scored given the rest), both of a text given an optional context, and
the "necessarily" / "not necessarily" statements the entailment tasks are converted into."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import torch
from tqdm.auto import tqdm

from compsem.harness.models.inference import length_batches

# The first finite verb or modal a statement's "necessarily" follows ("This is necessarily a
# car.", "He can necessarily swim."): copulas and modals, with their contracted negations.
_VERB = re.compile(
    r"\b(is|are|was|were|am|be|can|could|will|would|shall|should|may|might|must|does|do|did|has"
    r"|have|had)\b",
    re.IGNORECASE,
)


def necessity_statements(sentence: str) -> tuple[str, str]:
    """``sentence`` as "necessarily" and "not necessarily" true (Appendix C.2): the adverb after
    its first copula or modal ("This is a car." → "This is necessarily a car." / "This is not
    necessarily a car."); a sentence without one is wrapped ("It is necessarily true that …")."""
    text = sentence.strip()
    match = _VERB.search(text)
    if match is None:
        body = text[:1].lower() + text[1:]
        return f"It is necessarily true that {body}", f"It is not necessarily true that {body}"
    head, tail = text[: match.end()], text[match.end() :]
    return f"{head} necessarily{tail}", f"{head} not necessarily{tail}"


def batched_log_probs(scorer, sequences: list[list[int]], description: str, progress: bool):
    """``(rows, log probabilities)`` for batches of similar length: each batch's sequences
    right-padded and run through the scorer's model, one progress bar over the batches."""
    tokenizer = scorer.tokenizer
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    for rows in tqdm(
        length_batches([len(ids) for ids in sequences], scorer.batch_size),
        desc=description,
        disable=not progress,
    ):
        width = max(len(sequences[r]) for r in rows)
        ids = torch.full((len(rows), width), pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(sequences[r])] = torch.tensor(sequences[r])
            mask[i, : len(sequences[r])] = 1
        logits = scorer.model(
            input_ids=ids.to(scorer.device), attention_mask=mask.to(scorer.device)
        )
        yield rows, torch.log_softmax(logits.logits.float(), dim=-1).cpu()


class CausalScorer:
    """Log-likelihood of a text given a context under a causal LM, summed over the text's
    tokens; with no context, given the tokenizer's beginning-of-text token (or end-of-text,
    as lm-eval does for models without one)."""

    kind = "causal"

    def __init__(self, model, tokenizer, device: str, batch_size: int, max_length: int):
        self.model, self.tokenizer = model.eval(), tokenizer
        self.device, self.batch_size, self.max_length = device, batch_size, max_length
        start = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else None
        self.start = start if start is not None else tokenizer.eos_token_id

    def sequences(self, context: str, text: str) -> tuple[list[int], int]:
        """The ids to run and how many of them, at the end, are the text's."""
        encode = self.tokenizer.encode
        prefix = encode(context, add_special_tokens=False) if context else [self.start]
        target = encode((" " if context else "") + text, add_special_tokens=False)
        ids = (prefix + target)[-self.max_length :]
        return ids, min(len(target), len(ids) - 1)

    @torch.inference_mode()
    def score(self, pairs: Sequence[tuple[str, str]], progress: bool = True) -> np.ndarray:
        planned = [self.sequences(context, text) for context, text in pairs]
        out = np.zeros(len(planned))
        batches = batched_log_probs(
            self, [ids for ids, _ in planned], "Scoring sentences", progress
        )
        for rows, log_probs in batches:
            for i, r in enumerate(rows):
                sequence, targets = planned[r]
                end = len(sequence)
                positions = torch.arange(end - targets - 1, end - 1)
                tokens = torch.tensor(sequence[end - targets : end])
                out[r] = float(log_probs[i, positions, tokens].sum())
        return out


class MaskedScorer:
    """Pseudo-log-likelihood of a text given a context under a masked LM: the sum, over the
    text's tokens, of the log probability of each token with it alone masked and the context,
    the rest of the text and the special tokens present."""

    kind = "masked"

    def __init__(self, model, tokenizer, device: str, batch_size: int, max_length: int):
        if tokenizer.mask_token_id is None:
            raise ValueError(
                f"{tokenizer.name_or_path} has neither a causal LM head nor a mask token: "
                "likelihood probing needs a causal LM (GPT-2, SmolLM2 …) or a masked LM (BERT …)"
            )
        self.model, self.tokenizer = model.eval(), tokenizer
        self.device, self.batch_size, self.max_length = device, batch_size, max_length

    def sequence(self, context: str, text: str) -> tuple[list[int], list[int]]:
        """The ids (with special tokens) and the positions of the text's tokens."""
        encode = self.tokenizer.encode
        before = encode(context, add_special_tokens=False) if context else []
        target = encode((" " if context else "") + text, add_special_tokens=False)
        opening, closing = self.special_tokens()
        ids = [*opening, *before, *target, *closing]
        start = len(opening) + len(before)
        positions = range(start, start + len(target))
        return ids[: self.max_length], [p for p in positions if p < self.max_length]

    def special_tokens(self) -> tuple[list[int], list[int]]:
        """The ids the tokenizer puts before and after a single text ([CLS] … [SEP], <s> …
        </s>), found by encoding a word with and without them."""
        plain = self.tokenizer.encode("word", add_special_tokens=False)
        full = self.tokenizer.encode("word")
        start = next(i for i in range(len(full)) if full[i : i + len(plain)] == plain)
        return full[:start], full[start + len(plain) :]

    @torch.inference_mode()
    def score(self, pairs: Sequence[tuple[str, str]], progress: bool = True) -> np.ndarray:
        copies = []  # (pair index, ids with one token masked, position, original token)
        for index, (context, text) in enumerate(pairs):
            ids, positions = self.sequence(context, text)
            for position in positions:
                masked = list(ids)
                masked[position] = self.tokenizer.mask_token_id
                copies.append((index, masked, position, ids[position]))
        out = np.zeros(len(pairs))
        sequences = [masked for _, masked, _, _ in copies]
        for rows, log_probs in batched_log_probs(
            self, sequences, "Scoring masked tokens", progress
        ):
            for i, r in enumerate(rows):
                index, _, position, token = copies[r]
                out[index] += float(log_probs[i, position, token])
        return out
