"""Montague modifier consistency (Carvalho, Manino, Rozanova, Cordeiro and Freitas, COLING 2025).

Adjective-noun phrases from the regular language ``(adj )+noun`` over the paper's Appendix A
lexicon (§4.1.2): every phrase of up to three words with no word repeated, that is every AN and
every AAN with two distinct adjectives in either order. With 61 adjectives and 12 nouns that is
61 × 12 = 732 AN and 61 × 60 × 12 = 43,920 AAN phrases, the paper's 44,652. The phrases carry no
gold answer: the three consistency tests (§3.3-3.5; ``compsem embed`` and the ``consistency``
metric) compare a model's embeddings of the phrases and their words. ``label`` holds the
adjective type (AN) or ordered pair of types (AAN) that a phrase is scored under.

Example::

    from compsem.builders.montague.builder import Montague
    builder = Montague(config_name="an")
    builder.download_and_prepare()
    phrases = builder.as_dataset()["test"]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from itertools import permutations, product

import datasets
import pyarrow as pa

from compsem.builder import TableBuilder
from compsem.builders.montague.lexicon import (
    ADJECTIVE_TYPES,
    NOUN,
    TYPE_CODES,
    MontagueLexicon,
    MontagueLexiconError,
    load_lexicon,
)
from compsem.fingerprint import row_id

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
    """One phrase set of the Montague consistency benchmark.

    Args:
        phrase_set: ``an`` (adjective + noun), ``aan`` (two distinct adjectives + noun, both
            orders) or ``lexicon`` (the words themselves, with types and synonyms).
        vocabulary: ``paper`` (Appendix A, or ``lexicon``) or ``plane`` (PLANE's adjective
            lexicon with classes mapped to the paper's types, and 12 WordNet nouns).
        lexicon: a ``word<TAB>type<TAB>synonym`` TSV replacing Appendix A (vocabulary ``paper``).
        plane_lexicon: a PLANE adjective TSV (``adjective<TAB>class<TAB>note``) for vocabulary
            ``plane``; default the shipped one.

    Example::

        Montague(config_name="aan", lexicon="my_lexicon.tsv")
    """

    phrase_set: str = "an"
    vocabulary: str = "paper"
    lexicon: str | None = None
    plane_lexicon: str | None = None

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
        from compsem.builders.montague.plane_an import plane_lexicon

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

    VERSION = datasets.Version("1.0.0")
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


BUILDER = Montague
CARD_TEMPLATE = "montague.md"
CARD_METADATA = {
    "pretty_name": "Montague modifier consistency: adjective-noun phrases (compsem generation)",
    "language": ["en"],
    "license": "cc-by-4.0",
    "task_categories": ["sentence-similarity", "feature-extraction"],
    "tags": ["compositionality", "adjective-noun", "montague-semantics", "embeddings", "compsem"],
}
CHANGELOG = {
    "1.0.0": "first compsem generation: the AN and AAN phrase sets and the lexicon of Appendix "
    "A, and AN phrases over the PLANE adjective lexicon.",
}
_DESCRIPTIONS = {
    ("an", "paper"): "Every adjective-noun phrase over Appendix A (the paper's AN format, Tables "
    "2, 4 and 5).",
    ("aan", "paper"): "Every phrase of two distinct adjectives, in both orders, and a noun over "
    "Appendix A (the paper's AAN format, Tables 3 and 6).",
    ("lexicon", "paper"): "The words of Appendix A with their types and synonyms.",
    ("an", "plane"): "Every adjective-noun phrase over PLANE's adjective lexicon (classes mapped "
    "to the paper's types) and 12 WordNet nouns: a larger vocabulary, independent of Appendix A.",
}
DEMO_TITLE = "Montague modifier consistency, the adjective-noun phrases of Appendix A"
STATISTICS_FIELDS = ("type",)
VOCABULARY_FIELDS = ("noun", "word")
AUDIT_INPUT_FIELDS = ("id",)  # a phrase's id hashes its words, and the lexicon has no phrase


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    """The inputs of ``compsem build montague``."""
    parser.add_argument(
        "--lexicon",
        help="word<TAB>type<TAB>synonym TSV replacing Appendix A for an, aan and lexicon",
    )
    parser.add_argument(
        "--plane-lexicon",
        help="PLANE adjective TSV (adjective, class, note) for plane_an; default: the shipped one",
    )


def build_kwargs(args: argparse.Namespace) -> dict:
    """MontagueConfig keyword arguments from the parsed ``compsem build montague`` arguments."""
    return {"lexicon": args.lexicon, "plane_lexicon": args.plane_lexicon}


def default_config_names(config_kwargs: dict) -> list[str]:
    return [config.name for config in BUILDER_CONFIGS]


def config_description(config: MontagueConfig) -> str:
    return _DESCRIPTIONS[config.phrase_set, config.vocabulary]


def _lexicon_provenance(lexicon: MontagueLexicon) -> dict:
    counts = lexicon.type_counts()
    adjectives, nouns = len(lexicon.adjectives), len(lexicon.nouns)
    return {
        "source": lexicon.source,
        "fingerprint": lexicon.fingerprint,
        "adjectives": adjectives,
        "nouns": nouns,
        "types": {TYPE_CODES[kind]: count for kind, count in counts.items()},
        "with_synonym": sum(entry.synonym is not None for entry in lexicon.entries),
        "an_phrases": adjectives * nouns,
        "aan_phrases": adjectives * max(adjectives - 1, 0) * nouns,
        "entries": [(e.word, e.type, e.synonym or "") for e in lexicon.entries],
    }


def provenance(config: MontagueConfig) -> dict:
    """The inputs that determine the generated content, and the reference results, for the card."""
    from compsem.builders.montague.plane_an import AMBIGUOUS_NOTES, PRIVATIVE_NOTES
    from compsem.harness.embed_report import reference_results
    from compsem.resources.wordnet import wordnet_version

    paper = load_lexicon(config.lexicon)
    plane = config_lexicon(
        MontagueConfig(name="plane_an", vocabulary="plane", plane_lexicon=config.plane_lexicon)
    )
    return {
        "version": str(Montague.VERSION),
        "type_codes": TYPE_CODES,
        "paper": _lexicon_provenance(paper),
        "plane": _lexicon_provenance(plane),
        "plane_nouns": [(e.word, e.synonym) for e in plane.nouns],
        "privative_notes": PRIVATIVE_NOTES,
        "ambiguous_notes": AMBIGUOUS_NOTES,
        "wordnet": wordnet_version(),
        "reference": reference_results(paper.fingerprint),
    }
