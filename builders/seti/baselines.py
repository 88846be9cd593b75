"""The reference runs of ``compsem baselines`` on this benchmark, with the offline models
(``compsem model-path``): the full set, and the quick set ``compsem demo`` runs."""

from compsem.benchmark.spec import ONE_SEED, SEEDS, Baseline

SMOLLM2 = "smollm2"
# task1_nontrivial and its twin: the smallest SETI setting whose compositional test holds both
# labels (task3_nontrivial_rnat's test is all one label, which only measures that label's share).
FINE_TUNE = ("task1_nontrivial", "task1_nontrivial_in_distribution")

BASELINES = (
    # SETI Figure 1: a compositional setting beside its in-distribution twin.
    Baseline(
        "seti-minilm",
        "seti",
        "train",
        FINE_TUNE,
        {"seeds": SEEDS, "max_eval_examples": 3000},
        quick={**ONE_SEED, "max_train_examples": 1000, "max_eval_examples": 1000},
    ),
    Baseline(
        "seti-smollm2-0shot",
        "seti",
        "llm",
        FINE_TUNE[:1],
        {"model": SMOLLM2, "limit": 1000},
    ),
)
