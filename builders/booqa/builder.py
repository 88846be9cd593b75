"""BoOQA: Boolean Open QA for directional predicate entailment (Li, Hosseini, Weber and Steedman,
Findings of EMNLP 2022), generated from a dated news corpus.

Each entry is a proposition about two arguments in a context window of the corpus: true if the
corpus states it there (a positive), false if it is a WordNet hyponym replacement of a positive
that the window never states, with any synonym (a negative). A model judges it from the
``evidence``, the other propositions about the same arguments in the same window (§4, App. D):

1. relation triples from the dependency parse of every article
   (``compsem.builders.booqa.relations``), run as a datatrove pipeline
   (``compsem.builders.booqa.propositions``);
2. context windows of disjoint ``window_days``-day spans; starring argument pairs: mentioned in at
   least ``min_articles`` articles with at least ``min_predicates`` predicates in a window;
   felicitous predicates: seen with at least ``min_pairs`` distinct argument pairs anywhere;
3. positives: propositions of felicitous predicates about starring pairs; negatives: hyponym
   replacements of a span of the positive's predicate that are felicitous and absent, with every
   synonym, from the pair's window (``compsem.builders.booqa.predicate_hyponyms``);
4. bundles of a positive and at most two negatives, windows by article count, negatives by
   frequency bucket (``compsem.builders.booqa.bundles``); ``dev`` and ``test`` from disjoint
   time spans.

Example::

    from compsem.builders.booqa.builder import Booqa
    builder = Booqa(config_name="en", corpus="news/", preset="paper")
    builder.download_and_prepare()
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass, fields

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builder import TableBuilder

# bucket_labels: the card orders the frequency buckets with it.
from compsem.builders.booqa.bundles import bucket_labels  # noqa: F401
from compsem.builders.booqa.population import (
    ThresholdError,
    corpus_population,
    parser_id,
    population_summary,
)
from compsem.builders.booqa.predicate_hyponyms import WORD_SENSES
from compsem.builders.booqa.propositions import EXTRACTION_REVISION, check_shards
from compsem.builders.booqa.splits import AUDIT_CHECKS, en_splits, h_only_splits  # noqa: F401
from compsem.fingerprint import row_id
from compsem.loading_scripts.booqa_corpus import DEMO, NewsCorpusError, open_news_corpus
from compsem.pipeline import add_pipeline_arguments, shard_parser
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL
from compsem.resources.wordnet import wordnet_version

_CITATION = """\
@inproceedings{li-etal-2022-language,
    title = "Language Models Are Poor Learners of Directional Inference",
    author = "Li, Tianyi and Hosseini, Mohammad Javad and Weber, Sabine and Steedman, Mark",
    booktitle = "Findings of the Association for Computational Linguistics: EMNLP 2022",
    year = "2022",
    address = "Abu Dhabi, United Arab Emirates",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2022.findings-emnlp.64",
    pages = "903--921",
}
"""
_DESCRIPTION = (
    "BoOQA asks whether a proposition about two arguments is true in a context window of a news "
    "corpus, given the other propositions about those arguments there; negatives are WordNet "
    "hyponym replacements of true propositions, so a symmetric similarity measure is not enough."
)
_HOMEPAGE = "https://aclanthology.org/2022.findings-emnlp.64"

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
    # Scaled down for the embedded demo corpus (about a hundred articles).
    "demo": {
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
class BooqaConfig(datasets.BuilderConfig):
    """One BoOQA config, and the inputs every config shares.

    Args:
        regime: ``en`` (dev, test), ``h_only`` (App. E.1: train and dev2 from dev, test;
            arguments masked by entity type; no proposition in two splits) or ``levyholt``.
        levyholt_subset: ``full``, ``directional`` or ``symmetric`` (regime ``levyholt``).
        corpus: ``demo`` (the embedded demo corpus) or dated articles: a JSONL/Parquet file with
            ``id``, ``date``, ``text``, a folder of them, or a ``save_to_disk`` folder.
        extracted: instead of ``corpus``, the ``shards`` folder of an extraction already run
            (e.g. on Slurm or Ray with
            ``compsem.builders.booqa.propositions.extraction_pipeline``).
        preset: ``paper`` (the thresholds and sizes of App. D and Table 4) or ``demo`` (scaled
            down); default ``demo`` for the demo corpus, ``paper`` otherwise. Every threshold
            below left at None comes from the preset.
        window_days, min_articles, min_predicates, min_pairs: context windows, starring pairs
            and felicitous predicates (App. D: 3, 15, 15, 30).
        frequency_buckets: boundaries of the frequency buckets for sampling negatives.
        max_negatives: negatives per bundle (2).
        max_evidence: evidence propositions per entry (3,200).
        positives_per_split: bundles (so positives) sampled for each of dev and test.
        dev_fraction: share of the (bundle-bearing) windows' articles, earliest first, for dev.
        h_only_sizes: rows of H-only train and dev2 (Levy/Holt's 4,372 and 1,114).
        word_sense: how a predicate span's synset is chosen (``first``; see
            ``compsem.builders.booqa.predicate_hyponyms.register_word_sense``).
        spacy_model: an installed spaCy pipeline with parser, lemmatizer and NER.
        tasks, workers: datatrove tasks for the extraction, and how many run at once.
        seed: base seed of the sampling.
        levyholt: folder of the Levy/Holt files; adds the ``levyholt_*`` configs.
        rows_per_bucket: triples per partition bucket of the out-of-core aggregation.
    """

    regime: str = "en"
    levyholt_subset: str = "full"
    corpus: str = DEMO
    extracted: str | None = None
    preset: str | None = None
    window_days: int | None = None
    min_articles: int | None = None
    min_predicates: int | None = None
    min_pairs: int | None = None
    frequency_buckets: tuple[int, ...] | None = None
    max_negatives: int = 2
    max_evidence: int | None = None
    positives_per_split: int | None = None
    dev_fraction: float = 0.5
    h_only_sizes: tuple[int, int] | None = None
    word_sense: str = "first"
    spacy_model: str = DEFAULT_SPACY_MODEL
    tasks: int = 1
    workers: int = 1
    seed: int = 42
    levyholt: str | None = None
    rows_per_bucket: int = 2_000_000


@dataclass(frozen=True)
class Settings:
    """A config's inputs with the preset applied and every value checked."""

    corpus: str
    extracted: str | None
    preset: str
    window_days: int
    min_articles: int
    min_predicates: int
    min_pairs: int
    frequency_buckets: tuple[int, ...]
    max_negatives: int
    max_evidence: int
    positives_per_split: int
    dev_fraction: float
    h_only_sizes: tuple[int, int]
    word_sense: str
    spacy_model: str
    tasks: int
    workers: int
    seed: int
    rows_per_bucket: int


def settings(config: BooqaConfig) -> Settings:
    """Resolve the preset (datasets sets config kwargs after construction, so not in
    ``__post_init__``) and validate; errors name the value and what to pass."""
    if config.extracted and config.corpus != DEMO:
        raise ValueError("Pass either a corpus or an extracted shards folder, not both.")
    preset = config.preset or (DEMO if config.corpus == DEMO and not config.extracted else "paper")
    if preset not in PRESETS:
        raise ValueError(f"Unknown preset {preset!r}; use one of {sorted(PRESETS)}.")
    values = {f.name: getattr(config, f.name) for f in fields(Settings) if f.name != "preset"}
    for name, default in PRESETS[preset].items():
        values[name] = default if values[name] is None else values[name]
    values["frequency_buckets"] = tuple(int(b) for b in values["frequency_buckets"])
    values["h_only_sizes"] = tuple(int(n) for n in values["h_only_sizes"])
    positive = (
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
    for name in positive:
        if int(values[name]) < 1:
            raise ValueError(f"{name} must be at least 1, got {values[name]}.")
    buckets = values["frequency_buckets"]
    if not buckets or list(buckets) != sorted(set(buckets)):
        raise ValueError(f"frequency_buckets must be increasing, got {buckets}.")
    if not 0 < values["dev_fraction"] < 1:
        raise ValueError(f"dev_fraction must lie in (0, 1), got {values['dev_fraction']}.")
    if values["word_sense"] not in WORD_SENSES:
        raise ValueError(
            f"Unknown word_sense {values['word_sense']!r}; registered: {sorted(WORD_SENSES)}."
        )
    return Settings(preset=preset, **values)


BUILDER_CONFIGS = [
    BooqaConfig(name="en", regime="en"),
    BooqaConfig(name="h_only", regime="h_only"),
]
LEVYHOLT_CONFIGS = [
    BooqaConfig(name=f"levyholt_{subset}", regime="levyholt", levyholt_subset=subset)
    for subset in ("full", "directional", "symmetric")
]


# --- the builder --------------------------------------------------------------------------------


def levyholt_splits(config: BooqaConfig) -> dict[str, pa.Table]:
    """A Levy/Holt subset's splits; a split holding no pair of the subset is left out."""
    from compsem.loading_scripts.levyholt_release import LevyHoltError, levyholt_tables

    if not config.levyholt:
        raise LevyHoltError(
            f"Config {config.name!r} reads the Levy/Holt files: pass their folder with "
            "--levyholt DIR."
        )
    tables = levyholt_tables(
        config.levyholt, config.levyholt_subset, row_id, LEVYHOLT_FEATURES.arrow_schema
    )
    tables = {split: table for split, table in tables.items() if len(table)}
    if not tables:
        raise LevyHoltError(
            f"The Levy/Holt files in {config.levyholt} hold no {config.levyholt_subset} pairs."
        )
    return tables


def booqa_splits(config: BooqaConfig) -> dict[str, pa.Table]:
    """The splits of one config, as Arrow tables in its features' order."""
    if config.regime == "levyholt":
        return levyholt_splits(config)
    s = settings(config)
    if config.regime == "en":
        return en_splits(s, EN_FEATURES.arrow_schema)
    return h_only_splits(s, EN_FEATURES.arrow_schema)


class Booqa(TableBuilder):
    """BoOQA generated from a dated news corpus and WordNet, one config per split regime."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = BooqaConfig
    BUILDER_CONFIGS = BUILDER_CONFIGS + LEVYHOLT_CONFIGS
    DEFAULT_CONFIG_NAME = "en"
    _BATCH_ROWS = 10_000

    def _info(self) -> datasets.DatasetInfo:
        features = {"en": EN_FEATURES, "h_only": H_ONLY_FEATURES, "levyholt": LEVYHOLT_FEATURES}
        return datasets.DatasetInfo(
            description=_DESCRIPTION,
            features=features[self.config.regime],
            citation=_CITATION,
            homepage=_HOMEPAGE,
        )

    def splits(self) -> dict[str, pa.Table]:
        return booqa_splits(self.config)


# --- the module protocol of compsem.export ------------------------------------------------------

BUILDER = Booqa
CARD_TEMPLATE = "booqa.md"
CARD_METADATA = {
    "pretty_name": "BoOQA: Boolean Open QA for directional predicate entailment (compsem generation)",
    "language": ["en"],
    "license": "other",
    "license_name": "corpus-and-wordnet",
    "license_link": "https://wordnet.princeton.edu/license-and-commercial-use",
    "task_categories": ["text-classification", "question-answering"],
    "task_ids": ["natural-language-inference"],
    "tags": ["entailment", "directional-inference", "predicate-entailment", "wordnet", "compsem"],
}
CHANGELOG = {
    "1.0.0": "first compsem generation of BoOQA (English) from a dated news corpus: `en`, "
    "`h_only` and the Levy/Holt subsets.",
}
DEMO_TITLE = "BoOQA, directional predicate entailment, built from the embedded DEMO news corpus"
# An entry is a proposition in a context window: these fix its hypothesis and its evidence
# (`compsem audit` checks them for duplicates; the Levy/Holt configs lack them).
AUDIT_INPUT_FIELDS = ("subject", "predicate", "object", "window")
STATISTICS_FIELDS = ("frequency_bucket", "subgroup")
VOCABULARY_FIELDS = ("bundle_id", "window", "predicate")
_REGIME_DESCRIPTIONS = {
    "en": "Dev and test from disjoint time spans, each entry with its evidence (§4, App. D).",
    "h_only": "Hypothesis-only robustness test (App. E.1): train and dev2 carved from dev at "
    "Levy/Holt-like sizes, test; arguments masked by entity type; no proposition shared by two "
    "splits; no evidence.",
    "levyholt": "Levy/Holt {subset} subset, read from the public files (§2).",
}


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    """The inputs of ``compsem build booqa``."""
    parser.add_argument(
        "--corpus",
        default=BooqaConfig.corpus,
        help="'demo' (the embedded demo corpus) or dated articles: a .jsonl/.parquet file with "
        "id, date and text, a folder of them, or a datasets save_to_disk folder",
    )
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help="thresholds and sizes: paper (App. D) or demo (default: demo for the demo corpus, "
        "paper otherwise)",
    )
    for name, help_text in (
        ("window-days", "days per context window"),
        ("min-articles", "starring pairs: at least this many articles in a window"),
        ("min-predicates", "starring pairs: at least this many predicates in a window"),
        ("min-pairs", "felicitous predicates: at least this many argument pairs in the corpus"),
        ("max-evidence", "evidence propositions per entry"),
        ("positives-per-split", "bundles sampled for dev and for test"),
    ):
        parser.add_argument(f"--{name}", type=int, help=f"{help_text} (default: the preset's)")
    parser.add_argument(
        "--frequency-buckets",
        type=int,
        nargs="+",
        metavar="N",
        help="frequency bucket boundaries (default: the preset's)",
    )
    parser.add_argument("--word-sense", default="first", help="synset choice for a predicate span")
    add_pipeline_arguments(
        parser, BooqaConfig.spacy_model, "an installed spaCy pipeline with parser and NER"
    )
    parser.add_argument("--seed", type=int, default=BooqaConfig.seed, help="base random seed")
    parser.add_argument(
        "--levyholt", metavar="DIR", help="folder of the Levy/Holt files: adds levyholt_* configs"
    )


_ARGUMENTS = (
    "corpus",
    "extracted",
    "preset",
    "window_days",
    "min_articles",
    "min_predicates",
    "min_pairs",
    "max_evidence",
    "positives_per_split",
    "frequency_buckets",
    "word_sense",
    "spacy_model",
    "tasks",
    "workers",
    "seed",
    "levyholt",
)


def build_kwargs(args: argparse.Namespace) -> dict:
    """BooqaConfig keyword arguments from the parsed ``compsem build booqa`` arguments."""
    kwargs = {name: getattr(args, name) for name in _ARGUMENTS}
    if kwargs["frequency_buckets"] is not None:
        kwargs["frequency_buckets"] = tuple(kwargs["frequency_buckets"])
    return {name: value for name, value in kwargs.items() if value is not None}


def default_config_names(config_kwargs: dict) -> list[str]:
    """The Levy/Holt subsets when their folder is given, then ``en`` and ``h_only`` (last, so the
    card's provenance describes the corpus)."""
    configs = (LEVYHOLT_CONFIGS if config_kwargs.get("levyholt") else []) + BUILDER_CONFIGS
    return [config.name for config in configs]


def config_description(config: BooqaConfig) -> str:
    return _REGIME_DESCRIPTIONS[config.regime].format(subset=config.levyholt_subset)


def provenance(config: BooqaConfig) -> dict:
    """The inputs that determine the generated content, and what the corpus yielded (left out
    when only Levy/Holt configs were built, so no corpus is processed for them)."""
    base = {"version": str(Booqa.VERSION), "seed": config.seed, "levyholt": config.levyholt}
    if config.regime == "levyholt":
        return base
    s = settings(config)
    partitions, population = corpus_population(s)
    if s.extracted:
        corpus, fingerprint_, parser = (
            s.extracted,
            "extracted",
            shard_parser(check_shards(s.extracted)),
        )
    else:
        corpus, fingerprint_, parser = (
            s.corpus,
            open_news_corpus(s.corpus).fingerprint,
            parser_id(s),
        )
    spans = {
        split: [pc.min(table["window_start"]).as_py(), pc.max(table["window_end"]).as_py()]
        for split, table in en_splits(s, EN_FEATURES.arrow_schema).items()
        if len(table)
    }
    return {
        **base,
        "corpus": corpus,
        "demo": s.corpus == DEMO and not s.extracted,
        "corpus_fingerprint": fingerprint_,
        "spacy_model": parser,
        "wordnet": wordnet_version(),
        "preset": s.preset,
        "settings": asdict(s),
        "articles": int(pc.sum(partitions.articles_per_window["articles"]).as_py()),
        "windows": len(partitions.articles_per_window),
        "split_spans": spans,
        "extraction_revision": EXTRACTION_REVISION,
        **population_summary(population),
    }


__all__ = ["Booqa", "BooqaConfig", "NewsCorpusError", "ThresholdError", "settings"]
