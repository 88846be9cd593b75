"""BoOQA: Boolean Open QA for directional predicate entailment (Li, Hosseini, Weber and Steedman,
Findings of EMNLP 2022), generated from a dated news corpus.

Each entry is a proposition about two arguments in a context window of the corpus: true if the
corpus states it there (a positive), false if it is a WordNet hyponym replacement of a positive
that the window never states, with any synonym (a negative). A model judges it from the
``evidence``, the other propositions about the same arguments in the same window (§4, App. D):

1. relation triples from the dependency parse of every article
   (``compsem.builders.booqa.corpus.relations``), run as a datatrove pipeline
   (``compsem.builders.booqa.corpus.extraction``);
2. context windows of disjoint ``window_days``-day spans; starring argument pairs: mentioned in at
   least ``min_articles`` articles with at least ``min_predicates`` predicates in a window;
   felicitous predicates: seen with at least ``min_pairs`` distinct argument pairs anywhere;
3. positives: propositions of felicitous predicates about starring pairs; negatives: hyponym
   replacements of a span of the positive's predicate that are felicitous and absent, with every
   synonym, from the pair's window (``compsem.builders.booqa.sampling.predicate_hyponyms``);
4. bundles of a positive and at most two negatives, windows by article count, negatives by
   frequency bucket (``compsem.builders.booqa.sampling.bundles``); ``dev`` and ``test`` from disjoint
   time spans.

Example::

    from compsem.builders.booqa import Booqa
    builder = Booqa(config_name="en", corpus="news/", preset="paper")
    builder.download_and_prepare()
"""

from __future__ import annotations

import datasets
import pyarrow as pa

from compsem.benchmark.builder import TableBuilder
from compsem.builders.booqa.config import (
    BUILDER_CONFIGS,
    EN_FEATURES,
    H_ONLY_FEATURES,
    LEVYHOLT_CONFIGS,
    LEVYHOLT_FEATURES,
    SHERLIIC_CONFIGS,
    BooqaConfig,
    resolved,
)
from compsem.builders.booqa.splits import en_splits, h_only_splits
from compsem.files.fingerprint import row_id
from compsem.loading_scripts.levyholt_release import LevyHoltError, levyholt_tables
from compsem.loading_scripts.sherliic_release import SherLIiCError, sherliic_tables

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


def levyholt_splits(config: BooqaConfig) -> dict[str, pa.Table]:
    """A Levy/Holt subset's splits; a split holding no pair of the subset is left out."""
    if not config.levyholt:
        raise LevyHoltError(
            f"Config {config.name!r} reads the Levy/Holt files: pass their folder with "
            "--levyholt DIR."
        )
    tables = levyholt_tables(
        config.levyholt,
        config.levyholt_subset,
        row_id,
        LEVYHOLT_FEATURES.arrow_schema,
        seed=config.seed,
        hypothesis_only=config.levyholt_hypothesis_only,
    )
    tables = {split: table for split, table in tables.items() if len(table)}
    if not tables:
        raise LevyHoltError(
            f"The Levy/Holt files in {config.levyholt} hold no {config.levyholt_subset} pairs."
        )
    return tables


def sherliic_splits(config: BooqaConfig) -> dict[str, pa.Table]:
    """SherLIiC's splits in the Levy/Holt configs' columns (Table 6 tests across the two)."""
    if not config.sherliic:
        raise SherLIiCError(
            f"Config {config.name!r} reads the SherLIiC files: pass their folder with "
            "--sherliic DIR."
        )
    return sherliic_tables(config.sherliic, row_id, LEVYHOLT_FEATURES.arrow_schema)


def booqa_splits(config: BooqaConfig) -> dict[str, pa.Table]:
    """The splits of one config, as Arrow tables in its features' order."""
    if config.regime == "levyholt":
        return levyholt_splits(config)
    if config.regime == "sherliic":
        return sherliic_splits(config)
    s = resolved(config)
    if config.regime == "en":
        return en_splits(s, EN_FEATURES.arrow_schema)
    return h_only_splits(s, EN_FEATURES.arrow_schema)


class Booqa(TableBuilder):
    """BoOQA generated from a dated news corpus and WordNet, one config per split regime."""

    VERSION = datasets.Version("2.2.0")
    BUILDER_CONFIG_CLASS = BooqaConfig
    # The release configs first: an export's card describes the corpus of its last config.
    BUILDER_CONFIGS = LEVYHOLT_CONFIGS + SHERLIIC_CONFIGS + BUILDER_CONFIGS
    DEFAULT_CONFIG_NAME = "en"
    _BATCH_ROWS = 10_000

    def _info(self) -> datasets.DatasetInfo:
        features = {
            "en": EN_FEATURES,
            "h_only": H_ONLY_FEATURES,
            "levyholt": LEVYHOLT_FEATURES,
            "sherliic": LEVYHOLT_FEATURES,
        }
        return datasets.DatasetInfo(
            description=_DESCRIPTION,
            features=features[self.config.regime],
            citation=_CITATION,
            homepage=_HOMEPAGE,
        )

    def splits(self) -> dict[str, pa.Table]:
        return booqa_splits(self.config)
