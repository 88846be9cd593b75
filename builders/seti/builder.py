"""SETI: Systematicity Evaluation of Textual Inference (Fu and Frank, Findings of ACL 2023).

Primitive inferences are veridical (PI_ver: ``Someone realizes that s`` → s, entailed for the 15
veridical verbs, not for the 15 non-veridical ones) and natural (PI_nat: s → s′ by a lexical
substitution or a change of voice); compositions CI chain them (``Someone realizes that s`` →
s′) and are labelled by Table 3's Boolean rules. Seven task settings (§3.2, eqs. 1–9) fix which
inference types train and test hold; each has an in-distribution twin (§4.1), and three
non-trivial settings a ``few_shot`` split (§5.2).

Example::

    from compsem.builders.seti.builder import Seti
    builder = Seti(config_name="task2_nontrivial")
    builder.download_and_prepare()
    dataset = builder.as_dataset()
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import datasets
import numpy as np
import pyarrow as pa

from compsem.builder import TableBuilder
from compsem.builders.seti.compose import NAT_LABEL_NAMES, Pool, ci, composition_pool, nat, ver
from compsem.builders.seti.lexicon import load_embedding_verbs, load_sentence_lexicon
from compsem.builders.seti.sentences import generate_natural_pairs
from compsem.builders.seti.splits import (
    FEW_SHOT_SIZES,
    SetiSplitError,
    Setting,
    as_tables,
    in_distribution,
    setting_splits,
)
from compsem.card import WORDNET_LICENSE
from compsem.fingerprint import cached_table, file_fingerprint, fingerprint
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, load_pipeline, pipeline_id
from compsem.resources.wordnet import wordnet_version

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

LABEL_NAMES = ["non_entailment", "entailment"]
# Bumped whenever generation or pool construction changes what the caches hold.
_PIPELINE_REVISION = 1

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "premise": datasets.Value("string"),
        "hypothesis": datasets.Value("string"),
        "label": datasets.ClassLabel(names=LABEL_NAMES),
        "kind": datasets.Value("string"),
        "inference_type": datasets.Value("string"),
        "rule": datasets.Value("string"),
        "verb": datasets.Value("string"),
        "verb_class": datasets.Value("string"),
        "nat_type": datasets.Value("string"),
        "nat_label": datasets.Value("string"),
        "nat_relation": datasets.Value("string"),
        "nat_rule": datasets.Value("string"),
        "s_id": datasets.Value("string"),
        "s_prime_id": datasets.Value("string"),
        "setting": datasets.Value("string"),
    }
)

V, NV = "veridical", "non_veridical"
SETTINGS = {
    setting.name: setting
    for setting in (
        Setting(
            "task1_trivial",
            1,
            True,
            train=((ver(V), ver(NV)), (nat("lex", 1), nat("lex", 0))),
            test=(ci(V, "lex", 1), ci(V, "lex", 0), ci(NV, "lex", 1), ci(NV, "lex", 0)),
            few_shot=False,
            equation="eqs. 1–2",
            summary="primitives → compositions: PI_ver and PI_lex in train, their compositions "
            "(same sentences) in test",
        ),
        Setting(
            "task1_nontrivial",
            1,
            False,
            train=((ver(V), ver(NV)), (nat("lex", 1), nat("lex", 0))),
            test=(ci(V, "lex", 1), ci(V, "lex", 0), ci(NV, "lex", 1), ci(NV, "lex", 0)),
            few_shot=True,
            equation="eqs. 1–2",
            summary="primitives → compositions with test sentences unseen in train, sharing "
            "its lexical rules",
        ),
        Setting(
            "task2_trivial",
            2,
            True,
            train=((ci(V, "lex", 1), ci(V, "lex", 0)), (ci(NV, "stru", 1), ci(NV, "stru", 0))),
            test=(ci(V, "stru", 1), ci(V, "stru", 0), ci(NV, "lex", 1), ci(NV, "lex", 0)),
            few_shot=False,
            equation="eqs. 3–4",
            summary="compositions → compositions: f_v with lex and f_nv with stru in train, "
            "switched in test (all four rules seen)",
        ),
        Setting(
            "task2_nontrivial",
            2,
            False,
            train=(
                (ci(V, "lex", 1), ci(V, "stru", 1)),
                (ci(NV, "lex", 0), ci(NV, "stru", 0)),
            ),
            test=(ci(V, "lex", 0), ci(V, "stru", 0), ci(NV, "lex", 1), ci(NV, "stru", 1)),
            few_shot=True,
            equation="eq. 5",
            summary="compositions → compositions with unseen rules: ① and ④ in train, ② and "
            "③ in test",
        ),
        Setting(
            "task3_trivial",
            3,
            True,
            train=((nat("stru", 1), nat("stru", 0)), (ci(V, "lex", 1), ci(V, "lex", 0))),
            test=(ci(V, "stru", 1), ci(V, "stru", 0)),
            few_shot=False,
            equation="eqs. 6–7",
            summary="primitives and compositions → compositions: PI_stru and f_v with lex in "
            "train, f_v with stru in test",
        ),
        Setting(
            "task3_nontrivial_rver",
            3,
            False,
            train=((ver(NV),), (ci(V, "lex", 1),)),
            test=(ci(NV, "lex", 1),),
            few_shot=True,
            equation="eq. 8",
            summary="−R_ver: non-veridical PI_ver and f_v with lex+ in train, f_nv with lex+ "
            "(rule ③) in test",
        ),
        Setting(
            "task3_nontrivial_rnat",
            3,
            False,
            train=((nat("lex", 0),), (ci(V, "lex", 1),)),
            test=(ci(V, "lex", 0),),
            few_shot=False,
            equation="eq. 9",
            summary="−R_nat: non-entailed PI_lex and f_v with lex+ in train, f_v with lex− "
            "(rule ②) in test",
        ),
    )
}


@dataclass
class SetiConfig(datasets.BuilderConfig):
    """One SETI task setting, and the inputs every setting shares.

    Args:
        setting: one of ``SETTINGS`` (``task1_trivial`` … ``task3_nontrivial_rnat``).
        in_distribution: re-split train ∪ validation ∪ test at random with the same sizes (§4.1).
        sick: path to the SICK release's ``SICK.txt``: natural inferences come from its lexical
            and active/passive pairs, as in the paper. Default: generated sentences.
        verbs: embedding-verb TSV (``verb<TAB>veridical|non_veridical``); default the paper's 30.
        lexicon: source-sentence lexicon TSV; default the shipped one.
        sentences: how many source sentences to generate (ignored with ``sick``).
        passive_share: share of generated transitive source sentences in the passive voice.
        spacy_model: an installed spaCy pipeline with a parser (checks generated sentences,
            finds active/passive pairs in SICK).
        seed: base seed; each setting derives its own generator from it.
        validation_fraction: share of the balanced training data held out as validation (the
            paper's 4:1 train:dev).
        test_share, few_shot_share: shares of source sentences dealt to the test side and to the
            few-shot side in non-trivial settings (the rest is the train side).
        few_shot_size: rows of the ``few_shot`` split (its prefixes are the k-shot sets).
    """

    setting: str = "task1_trivial"
    in_distribution: bool = False
    sick: str | None = None
    verbs: str | None = None
    lexicon: str | None = None
    sentences: int = 1000
    passive_share: float = 0.25
    spacy_model: str = DEFAULT_SPACY_MODEL
    seed: int = 42
    validation_fraction: float = 0.2
    test_share: float = 0.3
    few_shot_share: float = 0.1
    few_shot_size: int = max(FEW_SHOT_SIZES)

    def __post_init__(self):
        super().__post_init__()
        if self.setting not in SETTINGS:
            raise ValueError(f"Unknown SETI setting {self.setting!r}; use one of {list(SETTINGS)}.")
        if self.sentences < 1 or self.few_shot_size < 1:
            raise ValueError("sentences and few_shot_size must be positive.")
        shares = (self.validation_fraction, self.test_share, self.few_shot_share)
        if not all(0 < share < 1 for share in shares) or self.test_share + self.few_shot_share >= 1:
            raise ValueError(
                "validation_fraction, test_share and few_shot_share must lie in (0, 1), and "
                f"test_share + few_shot_share below 1; got {shares}."
            )
        if not 0 <= self.passive_share <= 1:
            raise ValueError(f"passive_share must lie in [0, 1], got {self.passive_share}.")

    @property
    def side_shares(self) -> tuple[float, float, float]:
        return (1 - self.test_share - self.few_shot_share, self.test_share, self.few_shot_share)


BUILDER_CONFIGS = [
    SetiConfig(name=f"{name}{suffix}", setting=name, in_distribution=bool(suffix))
    for name in SETTINGS
    for suffix in ("", "_in_distribution")
]


def natural_pairs(config: SetiConfig) -> tuple[str, pa.Table, pa.Table | None]:
    """(cache key, PI_nat pairs, generated sentences or None for SICK), cached by inputs."""
    nlp = load_pipeline(config.spacy_model)
    if config.sick:
        from compsem.loading_scripts.sick_release import sick_fingerprint, sick_natural_pairs

        key = fingerprint(
            "seti-sick",
            sick_fingerprint(config.sick),
            pipeline_id(nlp),
            wordnet_version(),
            _PIPELINE_REVISION,
        )
        pairs = cached_table("seti_sick_pairs", key, lambda: sick_natural_pairs(config.sick, nlp))
        return key, pairs, None
    lexicon = load_sentence_lexicon(config.lexicon)
    key = fingerprint(
        "seti-generated",
        lexicon.fingerprint,
        config.sentences,
        config.passive_share,
        config.seed,
        pipeline_id(nlp),
        wordnet_version(),
        _PIPELINE_REVISION,
    )
    generated = {}

    def generate(part: int) -> pa.Table:
        if not generated:
            generated["tables"] = generate_natural_pairs(
                lexicon, config.sentences, config.passive_share, config.seed, nlp
            )
        return generated["tables"][part]

    pairs = cached_table("seti_pairs", key, lambda: generate(0))
    sentences = cached_table("seti_sentences", key, lambda: generate(1))
    return key, pairs, sentences


# The pool of the last inputs built: every config of one export shares it.
_POOLS: dict[tuple, Pool] = {}


def composition_rows(config: SetiConfig) -> Pool:
    key, pairs, _ = natural_pairs(config)
    if len(pairs) == 0:
        raise SetiSplitError(
            "No natural-inference pairs: the SICK file has no lexical or active/passive pairs "
            "with a WordNet relation. Pass the full SICK.txt, or generate sentences instead."
        )
    verbs = load_embedding_verbs(config.verbs)
    pool_key = (key, verbs.fingerprint, config.side_shares, config.seed)
    if pool_key not in _POOLS:
        _POOLS.clear()
        rng = np.random.default_rng([config.seed, 0])
        _POOLS[pool_key] = composition_pool(pairs, verbs, config.side_shares, rng)
    return _POOLS[pool_key]


def seti_splits(config: SetiConfig) -> dict[str, pa.Table]:
    """The splits of one config as Arrow tables in FEATURES order."""
    load_embedding_verbs(config.verbs)  # fail on a bad verb file before any parsing
    pool = composition_rows(config)
    setting = SETTINGS[config.setting]
    index = list(SETTINGS).index(config.setting)
    rng = np.random.default_rng([config.seed, 1, index])
    splits = setting_splits(pool, setting, config.validation_fraction, config.few_shot_size, rng)
    if config.in_distribution:
        splits = in_distribution(splits, np.random.default_rng([config.seed, 2, index]))
    return as_tables(pool, splits, setting.name)


class Seti(TableBuilder):
    """SETI generated from WordNet-based SICK-like sentences (or SICK), one config per setting."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = SetiConfig
    BUILDER_CONFIGS = BUILDER_CONFIGS
    DEFAULT_CONFIG_NAME = "task1_trivial"

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=_DESCRIPTION, features=FEATURES, citation=_CITATION, homepage=_HOMEPAGE
        )

    def splits(self) -> dict[str, pa.Table]:
        return seti_splits(self.config)


BUILDER = Seti
CARD_TEMPLATE = "seti.md"
CARD_METADATA = {
    "pretty_name": "SETI: Systematicity Evaluation of Textual Inference (compsem generation)",
    "language": ["en"],
    **WORDNET_LICENSE,
    "task_categories": ["text-classification"],
    "task_ids": ["natural-language-inference"],
    "tags": ["compositionality", "systematicity", "entailment", "veridicality", "compsem"],
}
DEMO_TITLE = "SETI, systematicity of veridical and natural inference, on generated sentences"
# Fields without nulls only: export.split_statistics sorts the values it counts.
STATISTICS_FIELDS = ("kind", "rule", "inference_type")
VOCABULARY_FIELDS = ("verb", "nat_rule", "s_id")


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    """The inputs of ``compsem build seti``."""
    parser.add_argument(
        "--sick",
        metavar="SICK.txt",
        help="build on the SICK release (tab-separated, with sentence_A, sentence_B, "
        "entailment_label) instead of generated sentences",
    )
    parser.add_argument(
        "--verbs",
        help="embedding-verb TSV (verb, veridical|non_veridical); default: the paper's 30",
    )
    parser.add_argument("--lexicon", help="source-sentence lexicon TSV; default: the shipped one")
    parser.add_argument(
        "--sentences", type=int, default=SetiConfig.sentences, help="source sentences to generate"
    )
    parser.add_argument(
        "--spacy-model",
        default=SetiConfig.spacy_model,
        help="an installed spaCy pipeline with a parser",
    )
    parser.add_argument("--seed", type=int, default=SetiConfig.seed, help="base random seed")


def build_kwargs(args: argparse.Namespace) -> dict:
    """SetiConfig keyword arguments from the parsed ``compsem build seti`` arguments."""
    names = ("sick", "verbs", "lexicon", "sentences", "spacy_model", "seed")
    return {name: getattr(args, name) for name in names if getattr(args, name) is not None}


def default_config_names(config_kwargs: dict) -> list[str]:
    return [config.name for config in BUILDER_CONFIGS]


def config_description(config: SetiConfig) -> str:
    setting = SETTINGS[config.setting]
    if config.in_distribution:
        return (
            f"In-distribution twin of `{setting.name}` (§4.1): its train, validation and test "
            "rows pooled and re-split at random into splits of the same sizes."
        )
    kind = "Trivial" if setting.trivial else "Non-trivial"
    return f"Task {setting.task}, {kind.lower()} setting ({setting.equation}): {setting.summary}."


def provenance(config: SetiConfig) -> dict:
    """The inputs that determine the generated content, and what generation produced."""
    _, pairs, sentences = natural_pairs(config)
    verbs = load_embedding_verbs(config.verbs)
    nlp = load_pipeline(config.spacy_model)
    counts = Counter(
        (kind, NAT_LABEL_NAMES[label])
        for kind, label in zip(
            pairs["nat_type"].to_pylist(), pairs["nat_label"].to_pylist(), strict=True
        )
    )
    result = {
        "version": str(Seti.VERSION),
        "seed": config.seed,
        "source": "SICK" if config.sick else "generated",
        "spacy_model": pipeline_id(nlp),
        "wordnet": wordnet_version(),
        "verbs": verbs.source,
        "verbs_fingerprint": verbs.fingerprint,
        "veridical_verbs": verbs.of_class("veridical"),
        "non_veridical_verbs": verbs.of_class("non_veridical"),
        "pairs": {f"{kind} {label}": count for (kind, label), count in sorted(counts.items())},
        "relations": dict(sorted(Counter(pairs["nat_relation"].to_pylist()).items())),
        "distinct_rules": len(set(pairs["nat_rule"].to_pylist())),
        "validation_fraction": config.validation_fraction,
        "side_shares": dict(zip(("train", "test", "few_shot"), config.side_shares, strict=True)),
        "few_shot_size": config.few_shot_size,
        "few_shot_sizes": list(FEW_SHOT_SIZES),
    }
    if config.sick:
        result["sick_fingerprint"] = file_fingerprint(Path(config.sick))
    else:
        lexicon = load_sentence_lexicon(config.lexicon)
        result.update(
            lexicon=lexicon.source,
            lexicon_fingerprint=lexicon.fingerprint,
            lexicon_nouns=len(lexicon.nouns),
            lexicon_verbs=len(lexicon.verbs),
            sentences_requested=config.sentences,
            passive_share=config.passive_share,
            sentences_generated=len(sentences),
            source_sentences=sum(sentences["source"].to_pylist()),
            sentences_parsed=sum(sentences["parsed"].to_pylist()),
        )
    return result
