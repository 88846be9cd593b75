"""RNPC's tasks, split regimes, item features and build settings."""

from __future__ import annotations

from dataclasses import dataclass

import datasets

from compsem.benchmark.settings import build_setting
from compsem.builders.rnpc.labels.rules import EPC_LABELS, SPTE_LABELS
from compsem.builders.rnpc.tasks import LABEL_NAMES, TASKS

REGIMES = ("split", "challenge", "original", "inoculation")
LEARNING_CURVE_SIZES = (10, 25, 50, 75, 100, 125, 150, 175, 200)  # §6: prefixes of train
PLANE_CACHE = "plane-cache"

_PHRASE = {
    "np": datasets.Value("string"),
    "det": datasets.Value("string"),
    "modifier1": datasets.Value("string"),
    "modifier2": datasets.Value("string"),
    "noun": datasets.Value("string"),
    "m1_category": datasets.Value("string"),
    "m2_category": datasets.Value("string"),
    "combo": datasets.Value("string"),
    "rule": datasets.Value("string"),
}
_ANALYSIS = {
    "supersense": datasets.Value("string"),
    "m1_attribute": datasets.Value("string"),
    "m2_attribute": datasets.Value("string"),
}
FEATURES = {
    "spte": datasets.Features(
        {
            "id": datasets.Value("string"),
            "premise": datasets.Value("string"),
            "hypothesis": datasets.Value("string"),
            "label": datasets.ClassLabel(names=list(SPTE_LABELS)),
            **_PHRASE,
            "hypothesis_type": datasets.Value("string"),
            "prefix": datasets.Value("string"),
            **_ANALYSIS,
        }
    ),
    "mpte": datasets.Features(
        {
            "id": datasets.Value("string"),
            "premise": datasets.Value("string"),
            "hypothesis": datasets.Value("string"),
            "label": datasets.ClassLabel(names=list(SPTE_LABELS)),
            **_PHRASE,
            "second_noun": datasets.Value("string"),
            "second_noun_relation": datasets.Value("string"),
            "hypothesis_modifier": datasets.Value("string"),
            "prefix": datasets.Value("string"),
            **_ANALYSIS,
        }
    ),
    "epc": datasets.Features(
        {
            "id": datasets.Value("string"),
            "event1": datasets.Value("string"),
            "event2": datasets.Value("string"),
            "label": datasets.ClassLabel(names=list(EPC_LABELS)),
            **_PHRASE,
            "event": datasets.Value("string"),
            "event_stance": datasets.Value("string"),
            "m1_effect": datasets.Value("string"),
            "m2_effect": datasets.Value("string"),
            **_ANALYSIS,
        }
    ),
}
ID_FIELDS = {
    "spte": ("modifier1", "modifier2", "noun", "hypothesis_type"),
    "mpte": ("modifier1", "modifier2", "noun", "second_noun", "hypothesis_modifier"),
    "epc": ("modifier1", "modifier2", "noun", "event"),
}


# The largest --size: RNPC's tasks hold thousands of items and the default is 10,000; a size
# far above them only grows the in-memory candidate pools (--size 1000000 passed 3.7 GB).
MAX_SIZE = 100_000


@dataclass
class RnpcConfig(datasets.BuilderConfig):
    """One RNPC task under one split regime, and the build settings every config shares (each
    setting's help text is its ``compsem build rnpc --help`` line).

    Args:
        task: ``spte``, ``mpte`` or ``epc``.
        regime: ``split`` (§6, Appendix A: ``train`` of ``train_size`` items whose prefixes are
            the learning-curve subsets, and ``validation`` and ``test``, drawn from the other
            side of the modifier split: no modifier of train occurs in the same position, M1 or
            M2, in validation or test, so validation is as far out of distribution as test),
            ``challenge`` (§5: the same items as one ``test`` split, with ``train`` and
            ``validation`` generated apart from them for training on many generated rows: no
            phrase (M1, M2, N) of test occurs in train or validation, nor one of train in
            validation), or ``original`` (the
            published RNPC CSVs, read from ``original_release``) or ``inoculation`` (the
            release's §6 splits, read from ``inoculation``: each ``train_N``, ``train`` and
            ``test``).
    """

    task: str = "spte"
    regime: str = "split"
    size: int = build_setting(
        10_000,
        "items per task (all splits together), balanced across labels; at most 100,000",
        minimum=1,
    )
    seed: int = build_setting(42, "base random seed; each task derives its own generators")
    lexicon: str | None = build_setting(
        None,
        "modifier lexicon TSV, or a folder with RNPC's int.csv, sub.csv and pri.csv; default: "
        "the shipped one",
        metavar="PATH",
    )
    nouns: str | None = build_setting(
        None, "noun list TSV (noun, synset, role); default: the shipped one", metavar="FILE"
    )
    events: str | None = build_setting(
        None, "EPC events TSV (noun, event, rationale); default: the shipped one", metavar="FILE"
    )
    cooccurrence: str | None = build_setting(
        None,
        f"{PLANE_CACHE!r} (the largest PLANE extraction in the compsem cache) or a Parquet file "
        "of adjective-noun pairs: keep only modifier-noun pairs the corpus attests",
        metavar="SOURCE",
    )
    train_size: int = build_setting(200, "training items of the split configs (§6 used 200)")
    validation_size: int = build_setting(500, "validation items of the split configs")
    challenge_train_size: int = build_setting(
        2_000,
        "training items of the challenge configs, drawn from phrases their test never holds",
    )
    challenge_validation_size: int = build_setting(
        500,
        "validation items of the challenge configs (phrases of neither their test nor train)",
    )
    train_modifier_share: float = build_setting(
        0.25, "share of each position's modifiers (per category) kept for train"
    )
    original_release: str | None = build_setting(
        None, "folder of the original RNPC CSVs: adds the original_* configs", metavar="DIR"
    )
    inoculation: str | None = build_setting(
        None,
        "folder of the release's inoculation splits (SPTE/, MPTE/, EPC/ holding train_10.tsv "
        "… train_200.tsv, train.tsv, test.tsv): adds the inoculation_* configs (§6)",
        metavar="DIR",
    )

    def __post_init__(self):
        """Raise a ValueError naming a bad setting (run again by ``TableBuilder`` once
        ``datasets`` has set the build's keyword arguments)."""
        super().__post_init__()
        if self.task not in TASKS:
            raise ValueError(f"Unknown RNPC task {self.task!r}; use one of {TASKS}.")
        if self.regime not in REGIMES:
            raise ValueError(f"Unknown RNPC regime {self.regime!r}; use one of {REGIMES}.")
        if not 0 < self.train_modifier_share < 1:
            raise ValueError(
                f"train_modifier_share must lie between 0 and 1, got {self.train_modifier_share}."
            )
        minimum = self.train_size + self.validation_size + len(LABEL_NAMES[self.task])
        if self.train_size < max(LEARNING_CURVE_SIZES) or self.validation_size < 0:
            raise ValueError(
                f"train_size must be at least {max(LEARNING_CURVE_SIZES)} (the learning curve) "
                f"and validation_size at least 0, got {self.train_size} and {self.validation_size}."
            )
        if self.size > MAX_SIZE:
            raise ValueError(
                f"size {self.size} is above {MAX_SIZE:,} items per task: RNPC's own tasks hold "
                "a few thousand and the default is 10,000, while generation holds its candidate "
                "items in memory (--size 1000000 passed 3.7 GB), so a larger size runs for "
                f"hours and can exhaust memory; use --size {MAX_SIZE} or less."
            )
        if self.size < minimum:
            raise ValueError(
                f"size {self.size} leaves no test items after {self.train_size} train and "
                f"{self.validation_size} validation items; use --size {minimum} or more."
            )


BUILDER_CONFIGS = [
    *(RnpcConfig(name=task, task=task, regime="split") for task in TASKS),
    *(RnpcConfig(name=f"{task}_challenge", task=task, regime="challenge") for task in TASKS),
]
ORIGINAL_CONFIGS = [
    RnpcConfig(name=f"original_{task}", task=task, regime="original") for task in TASKS
]
INOCULATION_CONFIGS = [
    RnpcConfig(name=f"inoculation_{task}", task=task, regime="inoculation") for task in TASKS
]
