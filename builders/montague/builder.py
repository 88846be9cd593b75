"""Montague modifier consistency (Carvalho, Manino, Rozanova, Cordeiro and Freitas, COLING 2025).

Adjective-noun phrases from the regular language ``(adj )+noun`` over the paper's Appendix A
lexicon (§4.1.2): every phrase of up to three words with no word repeated, that is every AN and
every AAN with two distinct adjectives in either order. With 61 adjectives and 12 nouns that is
61 × 12 = 732 AN and 61 × 60 × 12 = 43,920 AAN phrases, the paper's 44,652. The phrases carry no
gold answer: the three consistency tests (§3.3-3.5; ``compsem embed`` and the ``consistency``
metric) compare a model's embeddings of the phrases and their words. ``label`` holds the
adjective type (AN) or ordered pair of types (AAN) that a phrase is scored under.

Example::

    from compsem.builders.montague import Montague
    builder = Montague(config_name="an")
    builder.download_and_prepare()
    phrases = builder.as_dataset()["test"]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product

import datasets
import pyarrow as pa

from compsem.benchmark.builder import TableBuilder
from compsem.benchmark.settings import build_setting
from compsem.builders.montague.lexicon import (
    ADJECTIVE_TYPES,
    NOUN,
    MontagueLexicon,
    MontagueLexiconError,
    load_lexicon,
)
from compsem.builders.montague.plane_an import plane_lexicon
from compsem.files.fingerprint import row_id

_CITATION = """\
@inproceedings{carvalho-etal-2025-montague,
    title = "{M}ontague semantics and modifier consistency measurement in neural language models",
    author = "Carvalho, Danilo S. and Manino, Edoardo and Rozanova, Julia and Cordeiro, Lucas and Freitas, Andr{\\'e}",
    booktitle = "Proceedings of the 31st International Conference on Computational Linguistics",
    year = "2025",
    publisher = "Association for Computational Linguistics",
    note = "arXiv:2212.04310",
}
"""
_DESCRIPTION = (
    "Adjective-noun phrases (AN and AAN) over adjectives of five Montagovian types, for testing "
    "whether embedding models compose modifiers as set semantics predicts."
)
_HOMEPAGE = "https://arxiv.org/abs/2212.04310"

PHRASE_SETS = {"an": 1, "aan": 2, "lexicon": 0}  # adjectives per phrase
VOCABULARIES = ("paper", "plane")
TYPE_PAIRS = tuple(f"{first}, {second}" for first, second in product(ADJECTIVE_TYPES, repeat=2))
LEXICON_LABELS = (*ADJECTIVE_TYPES, NOUN)


def phrase_features(label_names) -> datasets.Features:
    strings = datasets.List(datasets.Value("string"))
    return datasets.Features(
        {
            "id": datasets.Value("string"),
            "phrase": datasets.Value("string"),
            "words": strings,
            "adjectives": strings,
            "noun": datasets.Value("string"),
            "adjective_types": strings,
            "synonyms": strings,
            "label": datasets.ClassLabel(names=list(label_names)),
        }
    )


LEXICON_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "word": datasets.Value("string"),
        "part_of_speech": datasets.Value("string"),
        "type": datasets.Value("string"),
        "synonym": datasets.Value("string"),
        "label": datasets.ClassLabel(names=list(LEXICON_LABELS)),
    }
)
FEATURES = {
    "an": phrase_features(ADJECTIVE_TYPES),
    "aan": phrase_features(TYPE_PAIRS),
    "lexicon": LEXICON_FEATURES,
}


@dataclass
class MontagueConfig(datasets.BuilderConfig):
    """One phrase set of the Montague consistency benchmark, and its build settings (each
    setting's help text is its ``compsem build montague --help`` line).

    Args:
        phrase_set: ``an`` (adjective + noun), ``aan`` (two distinct adjectives + noun, both
            orders) or ``lexicon`` (the words themselves, with types and synonyms).
        vocabulary: ``paper`` (Appendix A, or ``lexicon``) or ``plane`` (PLANE's adjective
            lexicon with classes mapped to the paper's types, and 12 WordNet nouns).

    Example::

        Montague(config_name="aan", lexicon="my_lexicon.tsv")
    """

    phrase_set: str = "an"
    vocabulary: str = "paper"
    lexicon: str | None = build_setting(
        None,
        "word<TAB>type<TAB>synonym TSV replacing Appendix A for an, aan and lexicon",
        metavar="FILE",
    )
    plane_lexicon: str | None = build_setting(
        None,
        "PLANE adjective TSV (adjective, class, note) for plane_an; default: the shipped one",
        metavar="FILE",
    )

    def __post_init__(self):
        super().__post_init__()
        if self.phrase_set not in PHRASE_SETS:
            raise ValueError(
                f"Unknown phrase set {self.phrase_set!r}; use one of {list(PHRASE_SETS)}."
            )
        if self.vocabulary not in VOCABULARIES:
            raise ValueError(f"Unknown vocabulary {self.vocabulary!r}; use one of {VOCABULARIES}.")


BUILDER_CONFIGS = [
    MontagueConfig(name="an", phrase_set="an"),
    MontagueConfig(name="aan", phrase_set="aan"),
    MontagueConfig(name="lexicon", phrase_set="lexicon"),
    MontagueConfig(name="plane_an", phrase_set="an", vocabulary="plane"),
]


def config_lexicon(config: MontagueConfig) -> MontagueLexicon:
    if config.vocabulary == "plane":
        return plane_lexicon(config.plane_lexicon)
    return load_lexicon(config.lexicon)


def phrase_table(lexicon: MontagueLexicon, adjectives_per_phrase: int) -> pa.Table:
    """Every phrase of ``adjectives_per_phrase`` distinct adjectives (in every order) and a noun,
    adjectives in lexicon order, then the noun; in FEATURES order, label as a class index."""
    adjectives, nouns = lexicon.adjectives, lexicon.nouns
    if len(adjectives) < adjectives_per_phrase:
        raise MontagueLexiconError(
            f"{lexicon.source} has {len(adjectives)} adjective(s): phrases of "
            f"{adjectives_per_phrase} distinct adjectives need at least {adjectives_per_phrase}."
        )
    label_names = ADJECTIVE_TYPES if adjectives_per_phrase == 1 else TYPE_PAIRS
    label_index = {name: index for index, name in enumerate(label_names)}
    columns = {name: [] for name in FEATURES["an"]}
    for chosen, noun in product(permutations(adjectives, adjectives_per_phrase), nouns):
        entries = (*chosen, noun)
        words = [entry.word for entry in entries]
        types = [entry.type for entry in chosen]
        columns["id"].append(row_id("montague", *words))
        columns["phrase"].append(" ".join(words))
        columns["words"].append(words)
        columns["adjectives"].append(words[:-1])
        columns["noun"].append(noun.word)
        columns["adjective_types"].append(types)
        columns["synonyms"].append([entry.synonym for entry in entries])
        columns["label"].append(label_index[", ".join(types)])
    return pa.table(columns)


def lexicon_table(lexicon: MontagueLexicon) -> pa.Table:
    """One row per word, adjectives then nouns, in lexicon order."""
    entries = lexicon.entries
    return pa.table(
        {
            "id": [row_id("montague-lexicon", entry.word) for entry in entries],
            "word": [entry.word for entry in entries],
            "part_of_speech": [NOUN if e.type == NOUN else "adjective" for e in entries],
            "type": [entry.type for entry in entries],
            "synonym": [entry.synonym for entry in entries],
            "label": [LEXICON_LABELS.index(entry.type) for entry in entries],
        }
    )


def montague_splits(config: MontagueConfig) -> dict[str, pa.Table]:
    """The one split of a config: ``test`` for the phrase sets, ``train`` for the lexicon."""
    lexicon = config_lexicon(config)
    if config.phrase_set == "lexicon":
        return {"train": lexicon_table(lexicon)}
    return {"test": phrase_table(lexicon, PHRASE_SETS[config.phrase_set])}


class Montague(TableBuilder):
    """The Montague consistency phrase sets, one config per phrase set and vocabulary."""

    VERSION = datasets.Version("1.1.0")
    BUILDER_CONFIG_CLASS = MontagueConfig
    BUILDER_CONFIGS = BUILDER_CONFIGS
    DEFAULT_CONFIG_NAME = "an"

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=_DESCRIPTION,
            features=FEATURES[self.config.phrase_set],
            citation=_CITATION,
            homepage=_HOMEPAGE,
        )

    def splits(self) -> dict[str, pa.Table]:
        return montague_splits(self.config)
