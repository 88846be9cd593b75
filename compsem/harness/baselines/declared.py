"""The reference runs of ``compsem baselines``, each declared by its benchmark's spec (``baselines``): its headline configs
at its preset with the offline models. MiniLM is fine-tuned where the paper fine-tunes, over
three seeds (PLANE Table 6, RNPC §6, SETI §4.2); SmolLM2 answers zero- and few-shot by
log-likelihood (``compsem llm``); BoOQA ranks hypotheses by MiniLM's cosine over the evidence
and by SmolLM2's P(true), both scored by AUCnorm beside the random baseline ξ (§4.2); MiniLM and
GloVe take Montague's consistency tests (Tables 2-5).

The quick set (``--quick``, which ``compsem demo`` runs) is the runs that carry a ``quick``
entry, with those settings replacing the full ones: fewer configs, one seed, fewer rows."""

from __future__ import annotations

from compsem.benchmark.spec import Baseline
from compsem.builders import BENCHMARKS


def all_baselines() -> tuple[Baseline, ...]:
    """Every registered benchmark's reference runs, in the registry's order."""
    return tuple(run for spec in BENCHMARKS.values() for run in spec.baselines)


def selected(quick: bool, benchmarks=None) -> list[Baseline]:
    """The runs of the full or quick set, on the named benchmarks (default: all)."""
    return [
        run
        for run in all_baselines()
        if (run.quick is not None or not quick)
        and (benchmarks is None or run.benchmark in benchmarks)
    ]
