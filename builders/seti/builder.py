"""SETI: Systematicity Evaluation of Textual Inference (Fu and Frank, Findings of ACL 2023).

Primitive inferences are veridical (PI_ver: ``Someone realizes that s`` → s, entailed for the 15
veridical verbs, not for the 15 non-veridical ones) and natural (PI_nat: s → s′ by a lexical
substitution or a change of voice); compositions CI chain them (``Someone realizes that s`` →
s′) and are labelled by Table 3's Boolean rules. Seven task settings (§3.2, eqs. 1–9) fix which
inference types train and test hold; each has an in-distribution twin (§4.1), and three
non-trivial settings a ``few_shot`` split (§5.2).

Example::

    from compsem.builders.seti import Seti
    builder = Seti(config_name="task2_nontrivial")
    builder.download_and_prepare()
    dataset = builder.as_dataset()
"""

from __future__ import annotations

import datasets
import pyarrow as pa

from compsem.benchmark.builder import TableBuilder
from compsem.builders.seti.config import BUILDER_CONFIGS, FEATURES, SetiConfig
from compsem.builders.seti.generation import seti_splits

_CITATION = """\
@inproceedings{fu-frank-2023-seti,
    title = "{SETI}: Systematicity Evaluation of Textual Inference",
    author = "Fu, Xiyan and Frank, Anette",
    booktitle = "Findings of the Association for Computational Linguistics: ACL 2023",
    year = "2023",
    address = "Toronto, Canada",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2023.findings-acl.252",
    doi = "10.18653/v1/2023.findings-acl.252",
    pages = "4101--4114",
}
"""
_DESCRIPTION = (
    "SETI tests systematicity in natural language inference: whether a model composes "
    "veridical and natural inferences it has learned as primitives or in other compositions."
)
_HOMEPAGE = "https://aclanthology.org/2023.findings-acl.252"


class Seti(TableBuilder):
    """SETI generated from WordNet-based SICK-like sentences (or SICK), one config per setting."""

    VERSION = datasets.Version("2.1.0")
    BUILDER_CONFIG_CLASS = SetiConfig
    BUILDER_CONFIGS = BUILDER_CONFIGS
    DEFAULT_CONFIG_NAME = "task1_trivial"
    # §5.2: each prefix of few_shot is a k-shot set, ordered to show first the composition rules
    # test needs and train lacks, then round robin over types (representative by design).
    ORDERED_SPLITS = frozenset({"few_shot"})

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=_DESCRIPTION, features=FEATURES, citation=_CITATION, homepage=_HOMEPAGE
        )

    def splits(self) -> dict[str, pa.Table]:
        return seti_splits(self.config)
