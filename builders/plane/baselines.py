"""The reference runs of ``compsem baselines`` on this benchmark, with the offline models
(``compsem model-path``): the full set, and the quick set ``compsem demo`` runs."""

from compsem.benchmark.spec import ONE_SEED, SEEDS, Baseline

SMOLLM2 = "smollm2"
FINE_TUNE = ("goood_split_1", "one_it_split_1")

BASELINES = (
    # PLANE Table 6: fine-tuned on `sentence`, one epoch, input length 12; GOoD and One-IT.
    Baseline(
        "plane-minilm",
        "plane",
        "train",
        FINE_TUNE,
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
)
