"""The three ways to call a query harmful (RNPC §8): an SPTE or an EPC model over the query's
keyword phrases, a causal LM asked the paper's question (by the log-likelihood of its answers),
and always."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

from compsem.benchmark.spec import HarmDetection
from compsem.harness.harm.queries import KeywordPhrase
from compsem.harness.llm.loglikelihood import build_request, score_requests
from compsem.harness.llm.run import load_causal_lm, load_tokenizer
from compsem.harness.models.loading import load_for_inference


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentences(task: str, spec: HarmDetection, phrase: KeywordPhrase) -> tuple[str, str]:
    """The pair a classifier model reads for one keyword phrase."""
    first, second = spec.spte if task == "spte" else spec.epc
    fields = {"np": phrase.np, "noun": phrase.bare}
    return tuple(
        _capitalised(template.format(**fields))
        if template.startswith(("{np}", "{noun}"))
        else template.format(**fields)
        for template in (first, second)
    )


def same_sentence_label(task: str, spec: HarmDetection, pair: tuple[str, str]) -> str | None:
    """The label a pair of one sentence twice has by definition (a phrase that is its bare
    head: "This is a gun." ⇒ "This is a gun." is an entailment, "A gun is harmful." is as
    plausible as itself), else None: the model decides. No training row pairs a sentence with
    itself, so a model's answer there says nothing of what it learned."""
    if pair[0] != pair[1]:
        return None
    return spec.spte_positive if task == "spte" else spec.epc_same


def harmful_labels(task: str, spec: HarmDetection, id2label: dict[int, str]) -> np.ndarray:
    """The model's label indices under which a query is harmful; one error for a model that
    cannot do the task (its labels are not the task's)."""
    names = [id2label[i] for i in range(len(id2label))]
    needed = spec.spte_labels if task == "spte" else spec.epc_labels
    if sorted(names) != sorted(needed):
        raise ValueError(
            f"the model's labels are {', '.join(names)}, not {task.upper()}'s ("
            f"{', '.join(needed)}): pass a model fine-tuned on RNPC's {task} or {task}_challenge "
            f"(compsem train --config {task}_challenge --save-model)"
        )
    harmful = (spec.spte_positive,) if task == "spte" else spec.epc_harmful
    return np.array([name in harmful for name in names])


def model_labels(model: str) -> dict[int, str]:
    """A classifier's labels, read from its config before its weights are loaded."""
    try:
        config = AutoConfig.from_pretrained(model)
    except (OSError, ValueError) as error:
        raise OSError(f"cannot load {model!r}: {str(error).strip().splitlines()[0]}") from None
    return {int(k): v for k, v in (config.id2label or {}).items()}


def load_pair_classifier(model: str, placement):
    """A sequence classifier and its tokenizer, loaded once."""
    classifier, info = load_for_inference(model, AutoModelForSequenceClassification, placement)
    if info["missing_keys"]:
        raise ValueError(
            f"{model} has no trained classification head (missing {sorted(info['missing_keys'])[0]}"
            "): pass a `compsem train --save-model` folder (OUT/model-seedN) or a fine-tuned "
            "Hub id"
        )
    return classifier.eval(), AutoTokenizer.from_pretrained(model)


def pair_probabilities(
    classifier, tokenizer, pairs: Sequence[tuple[str, str]], device: str, batch_size: int = 32
) -> np.ndarray:
    """Each pair's label probabilities, in the model's label order."""
    out = []
    with torch.inference_mode():
        for start in range(0, len(pairs), batch_size):
            batch = pairs[start : start + batch_size]
            encoded = tokenizer(
                [a for a, _ in batch],
                [b for _, b in batch],
                padding=True,
                truncation=True,
                max_length=128,
                return_tensors="pt",
            ).to(device)
            out.append(torch.softmax(classifier(**encoded).logits.float(), -1).cpu().numpy())
    n_labels = classifier.config.num_labels
    return np.concatenate(out) if out else np.empty((0, n_labels))


def check_causal(model: str) -> None:
    """One clear error for a model that is not a causal LM, before its weights are loaded."""
    architectures = AutoConfig.from_pretrained(model).architectures or []
    if architectures and not any(name.endswith("ForCausalLM") for name in architectures):
        raise ValueError(
            f"{model} is a {architectures[0]}, not a causal language model: --task llm needs a "
            "decoder-only LM (smollm2, a folder or a Hub id)"
        )


def llm_log_likelihoods(
    model: str, prompt, queries: Sequence[str], placement, chat: bool
) -> list[list[float]]:
    """Each query's log-likelihood of the prompt's answers ("Yes", "No"), scored as
    ``compsem llm`` scores them (answers by generation: ``compsem.harness.harm.generation``)."""
    check_causal(model)
    tokenizer = load_tokenizer(model)
    template = tokenizer if chat and tokenizer.chat_template else None
    causal = load_causal_lm(model, placement)
    requests = [build_request(prompt, {"query": query}, (), template) for query in queries]
    scores, _ = score_requests(causal, tokenizer, requests, 8, placement.device, 512)
    return scores
