"""Masked-LM two-shot prompting (PLANE §4): the model's first prediction at the mask against the
prompt's verbalisers (Table 3). A first prediction that is neither verbaliser is an error."""

from __future__ import annotations

from collections.abc import Sequence

import datasets
import numpy as np
import torch
from tqdm.auto import tqdm

from compsem.harness.models.device import Placement
from compsem.harness.models.inference import autocast, length_batches, pad_batch
from compsem.harness.results.scores import OTHER

MASK_PLACEHOLDER = "{mask}"
# Sub-word markers of BPE (RoBERTa Ġ), SentencePiece (▁) and WordPiece (##) tokens.
_MARKERS = ("Ġ", "▁", "##")


def token_word(token: str) -> str:
    for marker in _MARKERS:
        token = token.replace(marker, "")
    return token.strip().lower()


def encode_prompts(dataset: datasets.Dataset, tokenizer, max_length: int) -> datasets.Dataset:
    """Token ids of each prompt with the placeholder replaced by the model's mask token."""
    if tokenizer.mask_token is None:
        raise ValueError(
            f"{tokenizer.name_or_path} has no mask token: prompting needs a masked language model "
            "(BERT, RoBERTa, DistilBERT …)"
        )
    mask = tokenizer.mask_token

    def tokenise(batch: dict) -> dict:
        texts = [prompt.replace(MASK_PLACEHOLDER, mask) for prompt in batch["prompt"]]
        encoded = tokenizer(texts, truncation=True, max_length=max_length)
        encoded["length"] = [len(ids) for ids in encoded["input_ids"]]
        encoded["masks"] = [ids.count(tokenizer.mask_token_id) for ids in encoded["input_ids"]]
        return encoded

    encoded = dataset.map(
        tokenise, batched=True, remove_columns=dataset.column_names, desc="Tokenising prompts"
    )
    bad = [i for i, count in enumerate(encoded["masks"]) if count != 1]
    if bad:
        raise ValueError(
            f"{len(bad)} prompt(s) do not hold exactly one mask after tokenisation (first: row "
            f"{bad[0]}); raise --max-length if prompts were cut, or check the {MASK_PLACEHOLDER} "
            "placeholder"
        )
    return encoded


@torch.inference_mode()
def first_predictions(
    model, tokenizer, encoded: datasets.Dataset, batch_size: int, placement: Placement
) -> list[str]:
    """The top token at each prompt's mask, as a lower-case word."""
    model.eval()
    columns = {name: list(encoded[name]) for name in ("input_ids", "attention_mask")}
    if "token_type_ids" in encoded.column_names:
        columns["token_type_ids"] = list(encoded["token_type_ids"])
    top = np.empty(len(encoded), dtype=np.int64)
    with autocast(placement):
        for rows in tqdm(
            length_batches(encoded["length"], batch_size), desc="Prompting", unit="batch"
        ):
            batch = pad_batch(tokenizer, columns, rows, placement.device)
            logits = model(**batch).logits
            at_mask = logits[batch["input_ids"] == tokenizer.mask_token_id]
            top[rows] = at_mask.argmax(dim=-1).cpu().numpy()
    return [token_word(token) for token in tokenizer.convert_ids_to_tokens(top.tolist())]


def verbalised_predictions(
    words: list[str], negative: Sequence[Sequence[str]], positive: Sequence[Sequence[str]]
) -> np.ndarray:
    """1 where the word is one of the row's positive verbalisers, 0 one of its negative ones,
    ``OTHER`` otherwise (a two-shot row has one of each; a zero-shot row Table 7's eight)."""
    predictions = np.full(len(words), OTHER, dtype=np.int64)
    for index, (word, negatives, positives) in enumerate(
        zip(words, negative, positive, strict=True)
    ):
        if word in {w.lower() for w in positives}:
            predictions[index] = 1
        elif word in {w.lower() for w in negatives}:
            predictions[index] = 0
    return predictions
