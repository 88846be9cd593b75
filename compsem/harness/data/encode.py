"""Tokenisation through ``datasets.map``, so it is cached beside the dataset and reused."""

from __future__ import annotations

import datasets


def encode(
    dataset: datasets.Dataset,
    tokenizer,
    columns: tuple[str, ...],
    max_length: int,
    with_labels: bool = True,
) -> datasets.Dataset:
    """Token ids of one column (single sequence) or two (a pair), truncated to ``max_length``,
    unpadded (batches are padded as they are drawn), with ``length`` and ``labels``."""
    missing = [column for column in columns if column not in dataset.column_names]
    if missing:
        raise ValueError(f"the split has no column {', '.join(missing)} to tokenise")

    def tokenise(batch: dict) -> dict:
        encoded = tokenizer(
            *(batch[column] for column in columns), truncation=True, max_length=max_length
        )
        encoded["length"] = [len(ids) for ids in encoded["input_ids"]]
        return encoded

    keep = {"label"} if with_labels else set()
    encoded = dataset.map(
        tokenise,
        batched=True,
        remove_columns=[name for name in dataset.column_names if name not in keep],
        desc="Tokenising",
    )
    return encoded.rename_column("label", "labels") if with_labels else encoded
