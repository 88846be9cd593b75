"""PLANE's label rules (Table 1), item features, split regimes and build settings."""

from __future__ import annotations

from dataclasses import dataclass

import datasets

from compsem.benchmark.settings import build_setting
from compsem.builders.plane.items.compounds import COMPOUND_RULES
from compsem.loading_scripts.embedded_corpora import EMBEDDED
from compsem.pipeline.runner import PipelineConfig
from compsem.resources.lexicon import load_adjective_lexicon

LABEL_NAMES = ["non_entailment", "entailment"]
INFERENCE_TYPES = (1, 2, 3)
# PLANE Table 1: does AN entail the hypothesis of inference type 1, 2, 3?
ENTAILS = {"I": (True, True, True), "S": (True, True, False), "O": (False, False, True)}
# §3.2: hypernyms up to path distance 3; intensional adjectives only direct hypernyms.
MAX_HYPERNYM_DISTANCE = {"I": 3, "S": 3, "O": 1}
# Bumped whenever extraction or pool construction changes what the caches hold (2: written forms,
# phrases WordNet reads otherwise dropped; 3: the lemma guard judged by SemCor frequency).
PIPELINE_REVISION = 3

ITEM_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "premise": datasets.Value("string"),
        "hypothesis": datasets.Value("string"),
        "sentence": datasets.Value("string"),
        "label": datasets.ClassLabel(names=LABEL_NAMES),
        "adjective": datasets.Value("string"),
        "noun": datasets.Value("string"),
        "hypernym": datasets.Value("string"),
        "adjective_class": datasets.Value("string"),
        "inference_type": datasets.Value("int8"),
        "hypernym_distance": datasets.Value("int8"),
        "phrase_count": datasets.Value("int64"),
        "pmi": datasets.Value("float64"),
    }
)


REGIMES = (
    "full",
    "goood",
    "one_it",
    "in_distribution",
    "two_shot",
    "original_goood",
    "original_one_it",
    "zero_shot",
    "two_shot_pairs",
)
N_RESAMPLES = 5
# Shares of the adjective-noun phrases given to train, validation and test in Appendix D splits.
IN_DISTRIBUTION_SHARES = (0.6, 0.4)
# Validation's share of the rows outside test, by regime, where --validation-fraction is not
# given. Validation only selects models: it needs rows enough to tell two models apart, about
# 2,400 for a 95% interval of ±2 points on an accuracy near 50% (1.96·√(0.25/n) ≤ 0.02), and
# each row beyond that is one train lacks. Both split regimes' trains are what their size targets
# bind (GOoD 5,000 rows, One-IT 10,000), with validation and test at 1,000 or more. On the
# embedded corpus (3.3.0, GCIDE included) GOoD at 0.175 holds 5,334-5,976 train and 1,140-1,272
# validation rows on every split (0.2 left 4,830 train rows on split 3, 0.25 4,554-4,842 on all
# five); One-IT, of 0.15, 0.175, 0.2 and 0.25, had only 0.175 give every split both (3.2.0).
VALIDATION_FRACTIONS = {"goood": 0.175, "one_it": 0.175, "in_distribution": 0.25}
REGIME_NAMES = {"goood": "GOoD", "one_it": "One-IT", "in_distribution": "in-distribution"}


def validation_share(regime: str, validation_fraction: float | None) -> float:
    """Validation's share of the rows outside test in ``regime``: ``validation_fraction`` where
    the user gave it (it sets every regime), else the regime's default (GOoD's for the regimes
    without a validation split, which never use it)."""
    if validation_fraction is not None:
        return validation_fraction
    return VALIDATION_FRACTIONS.get(regime, VALIDATION_FRACTIONS["goood"])


@dataclass
class PlaneConfig(PipelineConfig):
    """One PLANE split regime, and the build settings every regime shares (each setting's help
    text is its ``compsem build plane --help`` line).

    Args:
        regime: ``full`` (every item, one ``train`` split), ``goood`` (§6.1: no adjective, noun
            or hypernym of validation or test occurs in train in any role), ``one_it`` (§6.2:
            GOoD over IT3 items only), ``in_distribution`` (Appendix D: atoms shared, adjective-
            noun phrases disjoint), ``two_shot`` (§4 prompts), ``zero_shot`` (Appendix B.1 prompts),
            ``two_shot_pairs`` (§5: the two-shot items as NLI pairs), or ``original_goood`` /
            ``original_one_it`` (the published release, read from ``original_release``).
        split_index: 1 … 5, which independent seeded resample of a split regime.
    """

    regime: str = "full"
    split_index: int = 1
    corpus: str = build_setting(
        EMBEDDED,
        "embedded (WordNet's glosses, Reuters-21578, State of the Union, Brown, GCIDE), one of "
        "wordnet_glosses, reuters_21578, sotu, brown, gcide or several joined by +, "
        "hf://datasets/OWNER/NAME[/CONFIG], a .txt/.jsonl/.parquet file, a folder of them, or a "
        "datasets save_to_disk folder",
    )
    text_column: str = build_setting("text", "column or JSON field with the text")
    lexicon: str | None = build_setting(
        None, "adjective lexicon TSV (adjective, class, note); default: the shipped one"
    )
    seed: int = build_setting(42, "base random seed; each regime and resample derives its own")
    max_docs: int | None = build_setting(
        None, "parse only the first N documents (of each datatrove task's share)", minimum=1
    )
    test_fraction: float = build_setting(
        0.15, "share of the balanced rows the split optimiser aims to put in test (GOoD, One-IT)"
    )
    min_label_share: float = build_setting(
        1 / 6,
        "least share of each inference type's rows that each label keeps in every GOoD, "
        "One-IT and in-distribution split (the published GOoD test's IT3 share; 0: any, "
        "which lets the inference type give the label away)",
    )
    validation_fraction: float | None = build_setting(
        None,
        "share of the rows outside test that go to validation, in every regime: a vocabulary of "
        "its own in GOoD and One-IT, a share of train's phrases in-distribution; default: "
        + ", ".join(
            f"{REGIME_NAMES[regime]} {share}" for regime, share in VALIDATION_FRACTIONS.items()
        ),
    )
    non_compositional: str = build_setting(
        "first_sense",
        "drop AN phrases WordNet lists as compounds that are no kind of their noun (blue chip, "
        "yellow fever), judged by the compound's first_sense or any_sense; keep: keep them",
        metavar="{" + ",".join(COMPOUND_RULES) + "}",
    )
    lemma_guard: bool = build_setting(
        True,
        "drop arcs whose noun lemma means something else than the noun as written "
        "(means → mean, data → datum, species → specie)",
    )
    two_shot_triplets_per_class: int = build_setting(
        100, "<A, N, h(N)> triplets per adjective class in two_shot"
    )
    original_release: str | None = build_setting(
        None, "folder of the original PLANE pickles: adds the original_* configs", metavar="DIR"
    )

    @property
    def validation_share(self) -> float:
        """Validation's share of the rows outside test in this config's regime:
        ``validation_fraction`` where given, else the regime's default."""
        return validation_share(self.regime, self.validation_fraction)

    @property
    def partition_shares(self) -> tuple[float, float, float]:
        """The shares of the balanced rows the GOoD and One-IT vocabulary partition aims to give
        train, validation and test."""
        rest = 1 - self.test_fraction
        return (
            rest * (1 - self.validation_share),
            rest * self.validation_share,
            self.test_fraction,
        )

    def __post_init__(self):
        super().__post_init__()
        if self.regime not in REGIMES:
            raise ValueError(f"Unknown PLANE regime {self.regime!r}; use one of {REGIMES}.")
        if self.non_compositional not in COMPOUND_RULES:
            raise ValueError(
                f"non_compositional must be one of {COMPOUND_RULES}, got {self.non_compositional!r}."
            )
        if not 1 <= self.split_index <= N_RESAMPLES:
            raise ValueError(f"split_index must be 1 … {N_RESAMPLES}, got {self.split_index}.")
        if self.min_label_share > 0.5:
            raise ValueError(f"min_label_share must be at most 0.5, got {self.min_label_share}.")
        if not (0 < self.test_fraction < 1 and 0 < self.validation_share < 1 - self.test_fraction):
            raise ValueError(
                "test_fraction and validation_fraction must be positive and sum to less than 1, "
                f"got {self.test_fraction} and {self.validation_share}."
            )
        if self.lexicon is not None:
            # read now, so a malformed lexicon is one error before the corpus is parsed
            # (minutes on the embedded corpus), not after
            load_adjective_lexicon(self.lexicon)


def _resampled(regime: str, stem: str) -> list[PlaneConfig]:
    return [
        PlaneConfig(name=f"{stem}_{index}", regime=regime, split_index=index)
        for index in range(1, N_RESAMPLES + 1)
    ]


BUILDER_CONFIGS = [
    PlaneConfig(name="full", regime="full"),
    *_resampled("goood", "goood_split"),
    *_resampled("one_it", "one_it_split"),
    *_resampled("in_distribution", "in_distribution"),
    PlaneConfig(name="two_shot", regime="two_shot"),
    PlaneConfig(name="zero_shot", regime="zero_shot"),
    PlaneConfig(name="two_shot_pairs", regime="two_shot_pairs"),
]
ORIGINAL_CONFIGS = [
    *_resampled("original_goood", "original_goood_split"),
    *_resampled("original_one_it", "original_one_it_split"),
]
