"""BoOQA scoring (§4.2): a hypothesis's score is the maximum, over its evidence, of an entailment
score from the evidence to the hypothesis: an NLI model's entailment probability (the supervised
baselines) or the cosine of mean-pooled encoder embeddings (the unsupervised LM baseline)."""

from __future__ import annotations

from collections.abc import Sequence

import datasets
import numpy as np
import torch
from tqdm.auto import tqdm

from compsem.harness.data.encode import encode
from compsem.harness.models.inference import (
    autocast,
    length_batches,
    model_columns,
    pad_batch,
    predict_logits,
    softmax,
)
from compsem.harness.models.loading import load_for_inference, memory_guard
from compsem.harness.probing.label_mapping import normalise
from compsem.harness.training.trainer import align_padding, load_tokenizer

METHODS = ("auto", "nli", "cosine")
# The lowest score of each method: what a hypothesis with no evidence gets.
FLOOR = {"nli": 0.0, "cosine": -1.0}
EVIDENCE_TEXT_FIELDS = ("text", "proposition", "sentence", "premise")


def evidence_text(item) -> str:
    """The text of one piece of evidence: a string, or a record with a text field."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        for name in EVIDENCE_TEXT_FIELDS:
            if isinstance(item.get(name), str):
                return item[name]
    raise ValueError(
        f"cannot read evidence {item!r}: expected a string or a record with one of "
        f"{', '.join(EVIDENCE_TEXT_FIELDS)}"
    )


def evidence_pairs(
    hypotheses: Sequence[str], evidence: Sequence[Sequence], max_evidence: int
) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Distinct (premise, hypothesis) pairs, and for each kept evidence item its hypothesis row
    and its pair index; at most ``max_evidence`` items per hypothesis, in the given order."""
    pair_index: dict[tuple[str, str], int] = {}
    owners, pairs = [], []
    for row, (hypothesis, items) in enumerate(zip(hypotheses, evidence, strict=True)):
        for item in list(items or ())[:max_evidence]:
            key = (evidence_text(item), hypothesis)
            pairs.append(pair_index.setdefault(key, len(pair_index)))
            owners.append(row)
    premises = [premise for premise, _ in pair_index]
    targets = [hypothesis for _, hypothesis in pair_index]
    return premises, targets, np.asarray(owners, np.int64), np.asarray(pairs, np.int64)


def max_per_hypothesis(values: np.ndarray, owners: np.ndarray, n: int, floor: float) -> np.ndarray:
    scores = np.full(n, floor, dtype=np.float64)
    np.maximum.at(scores, owners, values)
    return scores


def entailment_index(id2label: dict) -> int:
    for index, name in id2label.items():
        if normalise(name) in ("entailment", "entailed", "entails"):
            return int(index)
    labels = ", ".join(f"{i}={name}" for i, name in id2label.items())
    raise ValueError(
        f"the model has no entailment label (id2label: {labels}); use an NLI model, or "
        "--method cosine for the unsupervised baseline"
    )


def nli_pair_scores(model, tokenizer, premises, hypotheses, batch_size, max_length, placement):
    """The entailment probability of each (premise, hypothesis) pair."""
    pairs = datasets.Dataset.from_dict({"premise": premises, "hypothesis": hypotheses})
    encoded = encode(pairs, tokenizer, ("premise", "hypothesis"), max_length, with_labels=False)
    probabilities = softmax(
        predict_logits(model, tokenizer, encoded, batch_size, placement, desc="Scoring evidence")
    )
    return probabilities[:, entailment_index(model.config.id2label)]


@torch.inference_mode()
def embed(model, tokenizer, texts, batch_size, max_length, placement) -> np.ndarray:
    """Unit-length mean-pooled last-layer embeddings of each text."""
    model.eval()
    encoded = encode(
        datasets.Dataset.from_dict({"text": list(texts)}),
        tokenizer,
        ("text",),
        max_length,
        with_labels=False,
    )
    columns = model_columns(encoded, model)
    vectors = None
    with autocast(placement):
        for rows in tqdm(
            length_batches(encoded["length"], batch_size), desc="Embedding", unit="batch"
        ):
            batch = pad_batch(tokenizer, columns, rows, placement.device)
            hidden = model(**batch).last_hidden_state.float()
            mask = batch["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
            pooled = torch.nn.functional.normalize(pooled, dim=-1)
            if vectors is None:
                vectors = np.empty((len(encoded), pooled.shape[-1]), dtype=np.float32)
            vectors[rows] = pooled.cpu().numpy()
    return vectors


def cosine_pair_scores(model, tokenizer, premises, hypotheses, batch_size, max_length, placement):
    """The cosine of each (premise, hypothesis) pair, each distinct text embedded once."""
    texts = sorted(set(premises) | set(hypotheses))
    index = {text: i for i, text in enumerate(texts)}
    vectors = embed(model, tokenizer, texts, batch_size, max_length, placement)
    left = vectors[[index[p] for p in premises]]
    right = vectors[[index[h] for h in hypotheses]]
    return np.einsum("ij,ij->i", left, right).astype(np.float64)


def evidence_probabilities(
    model,
    tokenizer,
    hypotheses,
    evidence,
    max_evidence,
    mapping,
    positive,
    batch_size,
    max_length,
    placement,
) -> tuple[np.ndarray, np.ndarray]:
    """``zero-shot`` on a BoOQA-style config (§4.2): each hypothesis takes the model's label
    probabilities, mapped onto ours, from the piece of its evidence that gives our positive
    label the highest probability, so that its P(positive) is ``score``'s max over evidence. A
    hypothesis without evidence gets P(positive) 0 and the rest shared by the other labels.
    Returns our probabilities per hypothesis and the model's top label per hypothesis (-1
    without evidence)."""
    n, labels = len(hypotheses), mapping.shape[1]
    ours = np.full((n, labels), 1.0 / max(labels - 1, 1))
    ours[:, positive] = 0.0
    model_label = np.full(n, -1, dtype=np.int64)
    premises, targets, owners, pairs = evidence_pairs(hypotheses, evidence, max_evidence)
    if not premises:
        return ours, model_label
    table = datasets.Dataset.from_dict({"premise": premises, "hypothesis": targets})
    encoded = encode(table, tokenizer, ("premise", "hypothesis"), max_length, with_labels=False)
    probabilities = softmax(
        predict_logits(model, tokenizer, encoded, batch_size, placement, desc="Scoring evidence")
    )
    mapped = (probabilities @ mapping)[pairs]
    # per hypothesis, its evidence item with the highest P(positive): sorted by owner, then by
    # that probability descending; the first of each owner wins
    order = np.lexsort((-mapped[:, positive], owners))
    rows, first = np.unique(owners[order], return_index=True)
    chosen = order[first]
    ours[rows] = mapped[chosen]
    model_label[rows] = probabilities[pairs[chosen]].argmax(-1)
    return ours, model_label


def model_pair_scores(method, model, premises, hypotheses, batch_size, max_length, placement):
    """Each distinct (evidence, hypothesis) pair's score: an NLI model's entailment probability,
    or the cosine of the encoder's mean-pooled embeddings."""
    from transformers import (  # transformers takes seconds to import: only commands that run a model pay
        AutoModel,
        AutoModelForSequenceClassification,
    )

    tokenizer = load_tokenizer(model)
    with memory_guard(model, placement, batch_size, max_length):
        if method == "nli":
            nli, _ = load_for_inference(model, AutoModelForSequenceClassification, placement)
            align_padding(nli, tokenizer)
            return nli_pair_scores(
                nli, tokenizer, premises, hypotheses, batch_size, max_length, placement
            )
        encoder, _ = load_for_inference(model, AutoModel, placement)
        return cosine_pair_scores(
            encoder, tokenizer, premises, hypotheses, batch_size, max_length, placement
        )
