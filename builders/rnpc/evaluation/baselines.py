"""The reference runs of ``compsem baselines`` on this benchmark, with the offline models
(``compsem model-path``): the full set, and the quick set ``compsem demo`` runs."""

from compsem.benchmark.spec import ONE_SEED, SEEDS, Baseline

SMOLLM2 = "smollm2"

BASELINES = (
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
)
