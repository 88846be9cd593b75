"""The reference runs of ``compsem baselines``, declared once: each benchmark's headline configs
at its preset with the offline models. MiniLM is fine-tuned where the paper fine-tunes, over
three seeds (PLANE Table 6, RNPC §6, SETI §4.2); SmolLM2 answers zero- and few-shot by
log-likelihood (``compsem llm``); BoOQA ranks hypotheses by MiniLM's cosine over the evidence
and by SmolLM2's P(true), both scored by AUCnorm beside the random baseline ξ (§4.2); MiniLM and
GloVe take Montague's consistency tests (Tables 2-5).

The quick set (``--quick``, which ``compsem demo`` runs) is the runs that carry a ``quick``
entry, with those settings replacing the full ones: fewer configs, one seed, fewer rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from compsem.harness.embed.models import GLOVE, MINILM
from compsem.harness.models.offline import SMOLLM2

# The row caps each command takes, which a test-only ``--max-rows`` lowers.
ROW_CAPS = {
    "train": ("max_train_examples", "max_eval_examples"),
    "curve": ("max_train_examples", "max_eval_examples"),
    "llm": ("limit",),
    "score": ("max_eval_examples",),
    "embed": (),
}


@dataclass(frozen=True)
class Baseline:
    """One reference run: a harness command on one or more configs of a benchmark's export.

    Attributes:
        name: its folder under ``--out``.
        benchmark: the export it reads.
        command: ``train``, ``curve``, ``llm``, ``score`` (the harness commands') or ``embed``.
        configs: the configs (``embed``: the phrase sets), one harness call each.
        options: the command's keyword arguments (seeds, shots, row caps, models …).
        quick: None to leave it out of ``--quick``; else the settings that replace
            ``configs`` and ``options`` entries there.
    """

    name: str
    benchmark: str
    command: str
    configs: tuple[str, ...]
    options: Mapping = field(default_factory=dict)
    quick: Mapping | None = None

    def settings(self, quick: bool, max_rows: int | None = None) -> tuple[tuple[str, ...], dict]:
        """The configs and options of this run in the chosen set; ``max_rows`` caps every row
        count the command takes (tests)."""
        chosen = {"configs": self.configs, **self.options, **((self.quick or {}) if quick else {})}
        configs = tuple(chosen.pop("configs"))
        if max_rows is not None:
            for name in ROW_CAPS[self.command]:
                chosen[name] = min(chosen.get(name) or max_rows, max_rows)
        return configs, chosen


SEEDS = (1, 2, 3)
ONE_SEED = {"seeds": (1,)}
PLANE_FINE_TUNE = ("goood_split_1", "one_it_split_1")
# task1_nontrivial and its twin: the smallest SETI setting whose compositional test holds both
# labels (task3_nontrivial_rnat's test is all one label, which only measures that label's share).
SETI_FINE_TUNE = ("task1_nontrivial", "task1_nontrivial_in_distribution")

BASELINES = (
    # PLANE Table 6: fine-tuned on `sentence`, one epoch, input length 12; GOoD and One-IT.
    Baseline(
        "plane-minilm",
        "plane",
        "train",
        PLANE_FINE_TUNE,
        {"seeds": SEEDS},
        quick={"configs": ("goood_split_1",), **ONE_SEED},
    ),
    Baseline(
        "plane-smollm2-0shot",
        "plane",
        "llm",
        ("goood_split_1",),
        {"model": SMOLLM2},
        quick={"limit": 200},
    ),
    # Three demonstrations make each context about four times longer: half the rows.
    Baseline(
        "plane-smollm2-3shot",
        "plane",
        "llm",
        ("goood_split_1",),
        {"model": SMOLLM2, "shots": 3, "limit": 500},
    ),
    # RNPC §6: fine-tuned on 200 examples; the learning curve over 10 to 200 on SPTE.
    Baseline(
        "rnpc-minilm",
        "rnpc",
        "train",
        ("spte", "mpte", "epc"),
        {"seeds": SEEDS},
        quick={"configs": ("spte",), **ONE_SEED, "max_eval_examples": 2000},
    ),
    Baseline(
        "rnpc-minilm-curve",
        "rnpc",
        "curve",
        ("spte",),
        {"shots": (0, 10, 50, 100, 200), "seeds": SEEDS, "max_eval_examples": 2000},
    ),
    Baseline(
        "rnpc-smollm2-0shot",
        "rnpc",
        "llm",
        ("spte", "mpte", "epc"),
        {"model": SMOLLM2, "limit": 1000},
        quick={"configs": ("spte",), "limit": 200},
    ),
    Baseline(
        "rnpc-smollm2-3shot",
        "rnpc",
        "llm",
        ("spte",),
        {"model": SMOLLM2, "shots": 3, "limit": 500},
    ),
    # SETI Figure 1: a compositional setting beside its in-distribution twin.
    Baseline(
        "seti-minilm",
        "seti",
        "train",
        SETI_FINE_TUNE,
        {"seeds": SEEDS, "max_eval_examples": 3000},
        quick={**ONE_SEED, "max_train_examples": 1000, "max_eval_examples": 1000},
    ),
    Baseline(
        "seti-smollm2-0shot",
        "seti",
        "llm",
        SETI_FINE_TUNE[:1],
        {"model": SMOLLM2, "limit": 1000},
    ),
    # BoOQA Table 5: max over the evidence, AUCnorm beside ξ.
    Baseline("booqa-minilm-cosine", "booqa", "score", ("en",), {"method": "cosine"}, quick={}),
    Baseline("booqa-smollm2-0shot", "booqa", "llm", ("en",), {"model": SMOLLM2}, quick={}),
    # Montague Tables 2-5 (and 6-7 with AAN).
    Baseline(
        "montague-embed",
        "montague",
        "embed",
        ("an", "aan"),
        {"models": (MINILM, GLOVE)},
        quick={"configs": ("an",)},
    ),
)


def selected(quick: bool, benchmarks=None) -> list[Baseline]:
    """The runs of the full or quick set, on the named benchmarks (default: all)."""
    return [
        run
        for run in BASELINES
        if (run.quick is not None or not quick)
        and (benchmarks is None or run.benchmark in benchmarks)
    ]
