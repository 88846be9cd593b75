"""``compsem probe-scope``: RNPC §7's modifier scope of a privative M1 (Fig. 5), by attention.

For each phrase ``Det M1 M2 N`` whose M1 is of the scope category (privative), at every layer:
A(M1→x), the attention from M1 to word x averaged over heads, summed over x's pieces and
averaged over M1's (Clark et al. 2019's word-level attention), and the ratio
r = A(M1→M2) / (A(M1→M2) + A(M1→N)) in (0, 1): above 0.5 M1 attends more to M2, below it more
to N. The paper reads the final layer of one fine-tuned model; compsem reports every layer of
each model given (pretrained, then fine-tuned: before and after), and r per M1 word."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import numpy as np

from compsem.harness.models.device import resolve
from compsem.harness.probing.figures import rerun_command, scope_markdown
from compsem.harness.probing.phrases import (
    in_batches,
    load_encoder,
    model_label,
    open_probe,
    read_phrases,
    write_analysis,
)
from compsem.harness.results.files import write_text

COMMAND = "probe-scope"


def attention_to(weights: np.ndarray, source: list[int], target: list[int]) -> np.ndarray:
    """Per layer: the attention (averaged over heads) from ``source``'s pieces (their mean) to
    ``target``'s (their sum). ``weights``: (layers, heads, tokens, tokens)."""
    heads = weights.mean(axis=1)
    return heads[:, source][:, :, target].sum(axis=2).mean(axis=1)


def ratios(encoder, phrases, batch_size: int) -> np.ndarray:
    """(phrases, layers): r of each phrase at each layer."""
    found = []
    for batch in in_batches(phrases, batch_size):
        for _, weights, (m1, m2, noun) in encoder.encode(batch, attentions=True):
            to_m2, to_noun = attention_to(weights, m1, m2), attention_to(weights, m1, noun)
            found.append(to_m2 / (to_m2 + to_noun))
    return np.array(found)


def summary(r: np.ndarray) -> dict:
    return {
        "n": int(len(r)),
        "mean": float(np.mean(r)),
        "median": float(np.median(r)),
        "std": float(np.std(r)),
        "below_half": float(np.mean(r < 0.5)),
    }


def run_probe_scope(
    dataset: str,
    config: str,
    out: Path,
    models: list[str],
    split: str = "test",
    revision: str | None = None,
    max_phrases: int | None = 500,
    batch_size: int = 64,
    device: str = "auto",
    precision: str = "auto",
) -> dict:
    """r for each privative M1 of ``config``'s phrases, per layer and model; write the analysis."""
    name, bench, probes = open_probe(COMMAND, dataset, config, revision, out)
    scoped = bench.split(split).filter(
        lambda row: row[probes.modifiers[0][1]] == probes.scope_category
    )
    phrases, skipped = read_phrases(scoped, probes, max_phrases)
    if not phrases:
        raise ValueError(
            f"the {split} split of {config!r} has no phrase whose M1 is {probes.scope_category}; "
            "probe a config with such phrases (spte_challenge, epc_challenge)"
        )
    counts = Counter(p.words[0] for p in phrases)
    order = [w for w in probes.figure_modifiers if w in counts]
    order += [w for w, _ in counts.most_common() if w not in order]
    placement = resolve(device, precision)
    encoders = [load_encoder(model, placement, attentions=True) for model in models]
    results, by_phrase, start = [], {}, time.perf_counter()
    words = np.array([p.words[0] for p in phrases])
    for encoder in encoders:
        r = ratios(encoder, phrases, batch_size)
        label = model_label(encoder.name)
        by_phrase[label] = r
        results.append(
            {
                "model": label,
                "layers": [{"layer": i, **summary(r[:, i])} for i in range(r.shape[1])],
                "by_modifier": {w: summary(r[words == w, -1]) for w in order},
                "untrained_weights": encoder.untrained,
            }
        )
    payload = {
        "analysis": COMMAND,
        "benchmark": bench.benchmark,
        "command": rerun_command(
            COMMAND, dataset, config, models, out, split=split, max_phrases=max_phrases
        ),
        "dataset": bench.provenance(split),
        "settings": {
            "phrases": len(phrases),
            "phrases_not_read": skipped,
            "max_phrases": max_phrases,
            "m1_category": probes.scope_category,
            "ratio": "A(M1→M2) / (A(M1→M2) + A(M1→N)); A: attention averaged over heads, "
            "summed over the target's pieces, averaged over M1's",
            "layers": "every layer (the paper: the final one)",
        },
        "modifiers": {w: counts[w] for w in order},
        "figure_modifiers": list(probes.figure_modifiers),
        "models": results,
        "timing": {"seconds": time.perf_counter() - start},
        "source": probes.source,
    }
    rows = (
        {
            "id": p.id,
            "phrase": p.phrase,
            "text": p.text,
            "m1": p.words[0],
            "m2": p.words[1],
            "noun": p.words[2],
            "r": {m: [round(float(v), 6) for v in r[k]] for m, r in by_phrase.items()},
        }
        for k, p in enumerate(phrases)
    )
    write_analysis(out, name, payload, rows, placement)
    write_text(Path(out) / "summary.md", scope_markdown(payload))
    return payload
