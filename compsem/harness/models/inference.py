"""Batched forward passes for evaluation: length-sorted batches (little padding), no gradients,
autocast to the placement's precision on GPUs."""

from __future__ import annotations

import contextlib

import datasets
import numpy as np
import torch
from tqdm.auto import tqdm

from compsem.harness.models.device import Placement

MODEL_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def autocast(placement: Placement):
    """Mixed precision on GPUs; nothing on CPU (fp32) or for weights already in half."""
    if placement.device == "cpu" or placement.precision == "fp32":
        return contextlib.nullcontext()
    return torch.autocast(placement.device, dtype=placement.dtype)


def length_batches(lengths, batch_size: int) -> list[np.ndarray]:
    """Row indices in batches of similar length, longest first (memory errors surface early)."""
    order = np.argsort(-np.asarray(lengths), kind="stable")
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


def pad_batch(tokenizer, columns: dict[str, list], rows: np.ndarray, device: str) -> dict:
    """The rows' token columns padded to their longest, on the tokenizer's padding side."""
    width = max(len(columns["input_ids"][row]) for row in rows)
    fill = {"input_ids": tokenizer.pad_token_id, "token_type_ids": tokenizer.pad_token_type_id}
    batch = {}
    for name, values in columns.items():
        padded = np.full((len(rows), width), fill.get(name, 0), dtype=np.int64)
        for i, row in enumerate(rows):
            sequence = values[row]
            if tokenizer.padding_side == "left":
                padded[i, width - len(sequence) :] = sequence
            else:
                padded[i, : len(sequence)] = sequence
        batch[name] = torch.from_numpy(padded).to(device, non_blocking=True)
    return batch


def model_columns(encoded: datasets.Dataset, model) -> dict[str, list]:
    """The tokenised columns the model's forward takes, as Python lists."""
    accepted = set(MODEL_INPUTS)
    if "token_type_ids" in encoded.column_names and getattr(model.config, "type_vocab_size", 2) < 2:
        accepted.discard("token_type_ids")  # RoBERTa-style models have one segment type
    return {name: list(encoded[name]) for name in encoded.column_names if name in accepted}


@torch.inference_mode()
def predict_logits(
    model,
    tokenizer,
    encoded: datasets.Dataset,
    batch_size: int,
    placement: Placement,
    desc: str = "Predicting",
) -> np.ndarray:
    """Logits (float32, rows in dataset order) of a sequence classifier over an encoded split."""
    model.eval()
    columns = model_columns(encoded, model)
    logits = None
    with autocast(placement):
        for rows in tqdm(length_batches(encoded["length"], batch_size), desc=desc, unit="batch"):
            out = model(**pad_batch(tokenizer, columns, rows, placement.device)).logits
            if logits is None:
                logits = np.empty((len(encoded), out.shape[-1]), dtype=np.float32)
            logits[rows] = out.float().cpu().numpy()
    if logits is None:
        raise ValueError("the split to evaluate is empty")
    return logits


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
