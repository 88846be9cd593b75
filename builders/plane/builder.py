"""PLANE: Phrase-Level Adjective-Noun Entailment (Bertolini, Weeds and Weir, COLING 2022).

Items come from adjective-noun phrases found by a dependency parser in real text, hypernyms from
WordNet, and labels from the adjective's class and the inference type (Table 1):

=====================  ============  ============  ============
inference type          intersective  subsective    intensional
=====================  ============  ============  ============
IT1  AN ⊨ N             entailment    entailment    non-entailment
IT2  AN ⊨ h(N)          entailment    entailment    non-entailment
IT3  AN ⊨ A h(N)        entailment    non-entailment entailment
=====================  ============  ============  ============

Example::

    from compsem.builders.plane import Plane
    builder = Plane(config_name="goood_split_2", max_docs=20_000)
    builder.download_and_prepare()
    dataset = builder.as_dataset()
"""

from __future__ import annotations

import datasets
import pyarrow as pa

from compsem.benchmark.builder import TableBuilder
from compsem.builders.plane.config import (
    BUILDER_CONFIGS,
    ITEM_FEATURES,
    ORIGINAL_CONFIGS,
    PlaneConfig,
)
from compsem.builders.plane.prompts import PROMPT_FEATURES, ZERO_SHOT_FEATURES
from compsem.builders.plane.splits.regimes import plane_splits

_CITATION = """\
@inproceedings{bertolini-etal-2022-testing,
    title = "Testing Large Language Models on Compositionality and Inference with Phrase-Level Adjective-Noun Entailment",
    author = "Bertolini, Lorenzo and Weeds, Julie and Weir, David",
    booktitle = "Proceedings of the 29th International Conference on Computational Linguistics",
    year = "2022",
    address = "Gyeongju, Republic of Korea",
    publisher = "International Committee on Computational Linguistics",
    url = "https://aclanthology.org/2022.coling-1.359",
    pages = "4084--4100",
}
"""
_DESCRIPTION = (
    "PLANE tests compositional entailment with adjective-noun phrases: whether AN entails N, "
    "a hypernym h(N), and A h(N), for intersective, subsective and intensional adjectives."
)
_HOMEPAGE = "https://aclanthology.org/2022.coling-1.359"


# The configs whose rows are prompts, not items.
REGIME_FEATURES = {"two_shot": PROMPT_FEATURES, "zero_shot": ZERO_SHOT_FEATURES}


class Plane(TableBuilder):
    """PLANE generated from a corpus, an adjective lexicon and WordNet, one config per regime."""

    VERSION = datasets.Version("3.4.0")
    BUILDER_CONFIG_CLASS = PlaneConfig
    BUILDER_CONFIGS = BUILDER_CONFIGS + ORIGINAL_CONFIGS
    DEFAULT_CONFIG_NAME = "goood_split_1"

    def _info(self) -> datasets.DatasetInfo:
        features = REGIME_FEATURES.get(self.config.regime, ITEM_FEATURES)
        return datasets.DatasetInfo(
            description=_DESCRIPTION,
            features=features,
            citation=_CITATION,
            homepage=_HOMEPAGE,
        )

    def splits(self) -> dict[str, pa.Table]:
        return plane_splits(self.config)
