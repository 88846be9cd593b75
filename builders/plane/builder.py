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

    from compsem.builders.plane.builder import Plane
    builder = Plane(config_name="goood_split_2", max_docs=20_000)
    builder.download_and_prepare()
    dataset = builder.as_dataset()
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.audit_checks import PLANE_AUDIT_CHECKS as AUDIT_CHECKS  # noqa: F401 (protocol)
from compsem.builder import TableBuilder
from compsem.builders.plane.extraction import (
    DISABLED,
    check_an_shards,
    count_an_shards,
    extract_an_pairs,
)
from compsem.builders.plane.hypernyms import hypernym_table
from compsem.card import WORDNET_LICENSE
from compsem.fingerprint import cached_table, file_fingerprint, fingerprint, row_id
from compsem.loading_scripts.corpora import (
    GLOSS_PARTS,
    WORDNET_GLOSSES,
    Corpus,
    CorpusError,
    open_corpus,
)
from compsem.pipeline import add_pipeline_arguments, shard_files, shard_parser, spacy_pipeline
from compsem.resources.lexicon import ADJECTIVE_CLASSES, load_adjective_lexicon
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id
from compsem.resources.wordnet import wordnet_version
from compsem.splits import (
    ItemCodes,
    atoms_seen_in,
    balance,
    compound_sides,
    holdout,
    nouns_with_every_class,
    rows_within_sides,
    vocabulary_sides,
)
from compsem.text import indefinite_article, with_article

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

LABEL_NAMES = ["non_entailment", "entailment"]
INFERENCE_TYPES = (1, 2, 3)
# PLANE Table 1: does AN entail the hypothesis of inference type 1, 2, 3?
ENTAILS = {"I": (True, True, True), "S": (True, True, False), "O": (False, False, True)}
# §3.2: hypernyms up to path distance 3; intensional adjectives only direct hypernyms.
MAX_HYPERNYM_DISTANCE = {"I": 3, "S": 3, "O": 1}
# Bumped whenever extraction or pool construction changes what the caches hold.
_PIPELINE_REVISION = 1

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

# §4, Tables 2 and 3: two labelled premises and one masked hypothesis.
TEMPLATES = {
    "internal": "{c1} is a {verbaliser} example of {c2}.",
    "external": "{c1} is a type of {c2}:{verbaliser}.",
}
VERBALISERS = {
    "GP": ("poor", "good"),
    "TF": ("false", "true"),
    "PN": ("negative", "positive"),
}
MASK = "{mask}"
PROMPT_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "prompt": datasets.Value("string"),
        "label": datasets.ClassLabel(names=LABEL_NAMES),
        "target": datasets.Value("string"),
        "negative_word": datasets.Value("string"),
        "positive_word": datasets.Value("string"),
        "template": datasets.Value("string"),
        "verbaliser": datasets.Value("string"),
        "premise_inference_types": datasets.Value("string"),
        "inference_type": datasets.Value("int8"),
        "adjective": datasets.Value("string"),
        "noun": datasets.Value("string"),
        "hypernym": datasets.Value("string"),
        "adjective_class": datasets.Value("string"),
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
)
N_RESAMPLES = 5
# Shares of the adjective-noun phrases given to train, validation and test in Appendix D splits.
IN_DISTRIBUTION_SHARES = (0.6, 0.4)


@dataclass
class PlaneConfig(datasets.BuilderConfig):
    """One PLANE split regime, and the inputs every regime shares.

    Args:
        regime: ``full`` (every item, one ``train`` split), ``goood`` (§6.1: no adjective, noun
            or hypernym of validation or test occurs in train in any role), ``one_it`` (§6.2:
            GOoD over IT3 items only), ``in_distribution`` (Appendix D: atoms shared, adjective-
            noun phrases disjoint), ``two_shot`` (§4 prompts), or ``original_goood`` /
            ``original_one_it`` (the published release, read from ``original_release``).
        split_index: 1 … 5, which independent seeded resample of a split regime.
        corpus: ``wordnet_glosses`` (default) or a text/JSONL/Parquet file or folder, or a
            ``save_to_disk`` dataset folder.
        extracted: instead of ``corpus``, the ``shards`` folder of an AN extraction already run
            (e.g. on Slurm or Ray with
            ``compsem.builders.plane.extraction.an_extraction_pipeline``).
        text_column: the column or JSON field that holds the text.
        lexicon: an adjective lexicon TSV (adjective, class, note); default the shipped one.
        spacy_model: an installed spaCy pipeline with a parser.
        seed: base seed; each regime and resample derives its own generator from it.
        max_docs: parse only the first documents of the corpus (of each task's share).
        tasks, workers: datatrove tasks for the extraction, and how many run at once.
        test_fraction: share of the row mass whose vocabulary goes to test (GOoD, One-IT).
        validation_fraction: share of the balanced train side held out as validation (GOoD,
            One-IT; same vocabulary as train). In-distribution splits use IN_DISTRIBUTION_SHARES.
        two_shot_triplets_per_class: ⟨A, N, h(N)⟩ triplets per adjective class in ``two_shot``.
        original_release: folder of the original PLANE pickles, for the ``original_*`` regimes.
    """

    regime: str = "full"
    split_index: int = 1
    corpus: str = WORDNET_GLOSSES
    extracted: str | None = None
    text_column: str = "text"
    lexicon: str | None = None
    spacy_model: str = DEFAULT_SPACY_MODEL
    seed: int = 42
    max_docs: int | None = None
    tasks: int = 1
    workers: int = 1
    test_fraction: float = 0.4
    validation_fraction: float = 0.25
    two_shot_triplets_per_class: int = 100
    original_release: str | None = None

    def __post_init__(self):
        super().__post_init__()
        if self.regime not in REGIMES:
            raise ValueError(f"Unknown PLANE regime {self.regime!r}; use one of {REGIMES}.")
        if not 1 <= self.split_index <= N_RESAMPLES:
            raise ValueError(f"split_index must be 1 … {N_RESAMPLES}, got {self.split_index}.")
        if not (
            0 < self.test_fraction < 1 and 0 < self.validation_fraction < 1 - self.test_fraction
        ):
            raise ValueError(
                "test_fraction and validation_fraction must be positive and sum to less than 1, "
                f"got {self.test_fraction} and {self.validation_fraction}."
            )


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
]
ORIGINAL_CONFIGS = [
    *_resampled("original_goood", "original_goood_split"),
    *_resampled("original_one_it", "original_one_it_split"),
]


def _words_with_articles(words: pa.Array, capitalise: bool) -> pa.Array:
    """'a word' / 'an word' for each entry, computing each distinct word's article once."""
    first_words = pc.list_element(pc.utf8_split_whitespace(words, max_splits=1), 0)
    distinct = pc.unique(first_words)
    articles = [indefinite_article(word) for word in distinct.to_pylist()]
    if capitalise:
        articles = [article.capitalize() for article in articles]
    article = pc.take(pa.array(articles, pa.string()), pc.index_in(first_words, distinct))
    return pc.binary_join_element_wise(article, words, " ")


def item_pool(pairs: pa.Table, lexicon_classes: dict[str, str], hypernyms: pa.Table) -> pa.Table:
    """Every PLANE item (Table 1) for the AN pairs whose adjective is in the lexicon and whose
    noun has a WordNet noun synset; sorted, so the pool is deterministic.

    ``hypernyms`` has a ``distance`` 0 row (hypernym null) per noun with a synset: it makes the
    IT1 item; rows at distance ≥ 1 make the IT2 and IT3 items."""
    lexicon = pa.table(
        {
            "adjective": list(lexicon_classes),
            "adjective_class": list(lexicon_classes.values()),
        }
    )
    joined = pairs.join(lexicon, "adjective").join(hypernyms, "noun")
    max_distance = pc.index_in(joined["adjective_class"], pa.array(list(MAX_HYPERNYM_DISTANCE)))
    limit = pc.take(pa.array(list(MAX_HYPERNYM_DISTANCE.values()), pa.int8()), max_distance)
    joined = joined.filter(
        pc.and_(
            pc.less_equal(joined["distance"], limit),
            pc.and_kleene(
                pc.not_equal(joined["adjective"], joined["noun"]),
                pc.not_equal(joined["adjective"], pc.fill_null(joined["hypernym"], "")),
            ),
        )
    )
    direct = joined.filter(pc.equal(joined["distance"], 0))
    upward = joined.filter(pc.greater(joined["distance"], 0))
    parts = [
        (direct, 1, direct["noun"]),
        (upward, 2, upward["hypernym"]),
        (
            upward,
            3,
            pc.binary_join_element_wise(upward["adjective"], upward["hypernym"], " "),
        ),
    ]
    table = pa.concat_tables(
        part.select(
            [
                "adjective",
                "noun",
                "hypernym",
                "adjective_class",
                "distance",
                "count",
                "pmi",
            ]
        )
        .append_column("inference_type", pa.array(np.full(len(part), it, np.int8)))
        .append_column(
            "hypothesis",
            hypothesis.combine_chunks() if len(part) else pa.array([], pa.string()),
        )
        for part, it, hypothesis in parts
    ).sort_by(
        [
            ("adjective", "ascending"),
            ("noun", "ascending"),
            ("inference_type", "ascending"),
            ("distance", "ascending"),
            ("hypernym", "ascending"),
        ]
    )
    return _item_columns(table)


def _item_ids(table: pa.Table, batch_rows: int = 100_000) -> pa.ChunkedArray:
    """Each item's ``row_id``, a batch of rows at a time: the fields of two million items as
    Python strings at once would cost about a gigabyte."""
    chunks = []
    for batch in table.select(["adjective", "noun", "hypernym", "inference_type"]).to_batches(
        batch_rows
    ):
        fields = [batch.column(i).to_pylist() for i in range(4)]
        chunks.append(
            pa.array(
                [row_id("plane", a, n, h or "", t) for a, n, h, t in zip(*fields, strict=True)],
                pa.string(),
            )
        )
    return pa.chunked_array(chunks, pa.string())


def _item_columns(table: pa.Table) -> pa.Table:
    """Add premise, sentence, label and id to the joined pool, in ITEM_FEATURES order."""
    premise = pc.binary_join_element_wise(table["adjective"], table["noun"], " ")
    sentence = pc.binary_join_element_wise(
        _words_with_articles(premise, capitalise=True),
        "is",
        _words_with_articles(table["hypothesis"], capitalise=False),
        " ",
    )
    sentence = pc.binary_join_element_wise(sentence, ".", "")
    entails = np.array([ENTAILS[klass] for klass in ADJECTIVE_CLASSES], dtype=np.int64)
    klass = pc.index_in(table["adjective_class"], pa.array(ADJECTIVE_CLASSES)).to_numpy()
    it = table["inference_type"].to_numpy()
    return pa.table(
        {
            "id": _item_ids(table),
            "premise": premise,
            "hypothesis": table["hypothesis"],
            "sentence": sentence,
            "label": pa.array(entails[klass, it - 1]),
            "adjective": table["adjective"],
            "noun": table["noun"],
            "hypernym": table["hypernym"],
            "adjective_class": table["adjective_class"],
            "inference_type": table["inference_type"],
            "hypernym_distance": table["distance"],
            "phrase_count": table["count"],
            "pmi": table["pmi"],
        }
    )


def open_source(config: PlaneConfig) -> Corpus | list[Path]:
    """The corpus to parse, or the checked shard files of an extraction run elsewhere."""
    if config.extracted:
        if config.corpus != WORDNET_GLOSSES:
            raise ValueError("Pass either a corpus or an extracted shards folder, not both.")
        return check_an_shards(config.extracted)
    return open_corpus(config.corpus, config.text_column)


def describe_source(config: PlaneConfig, source: Corpus | list[Path]) -> dict:
    """What the AN pairs are counted from, a fingerprint of its content, and the parser: part of
    the cache key and of the card's provenance."""
    if isinstance(source, Corpus):
        return {
            "corpus": config.corpus,
            "extracted": False,
            "corpus_fingerprint": source.fingerprint,
            "spacy_model": pipeline_id(spacy_pipeline(config.spacy_model, DISABLED)),
        }
    return {
        "corpus": config.extracted,
        "extracted": True,
        "corpus_fingerprint": fingerprint("an_shards", [file_fingerprint(p) for p in source]),
        "spacy_model": shard_parser(source),
    }


def build_item_pool(config: PlaneConfig) -> pa.Table:
    """The item pool of ``config``'s inputs. Extraction, counting, the WordNet walk and the pool
    are cached by fingerprints of their inputs, so every config reads one cache."""
    source = open_source(config)
    description = describe_source(config, source)
    # With --max-docs, which documents are parsed depends on how the corpus is split into tasks.
    tasks = config.tasks if config.max_docs and not config.extracted else None
    pairs_key = fingerprint("an_pairs", description, config.max_docs, tasks, _PIPELINE_REVISION)

    def count() -> pa.Table:
        files = source
        if isinstance(source, Corpus):
            shards = extract_an_pairs(
                source, config.spacy_model, config.max_docs, config.tasks, config.workers
            )
            files = shard_files(shards)
        pairs = count_an_shards(files)
        if len(pairs) == 0:
            raise CorpusError(
                f"Corpus {description['corpus']!r} yielded no adjective-noun phrases: it is empty "
                "or holds no English text. Pass a corpus of English sentences."
            )
        return pairs

    pairs = cached_table("an_pairs", pairs_key, count)
    hypernym_key = fingerprint("hypernyms", pairs_key, wordnet_version(), MAX_HYPERNYM_DISTANCE)
    hypernyms = cached_table(
        "hypernyms",
        hypernym_key,
        lambda: hypernym_table(
            pairs["noun"].unique().to_pylist(), max(MAX_HYPERNYM_DISTANCE.values())
        ),
    )
    lexicon = load_adjective_lexicon(config.lexicon)
    pool_key = fingerprint("plane_items", hypernym_key, lexicon.fingerprint, _PIPELINE_REVISION)
    return cached_table(
        "plane_items", pool_key, lambda: item_pool(pairs, lexicon.classes, hypernyms)
    )


def _generator(config: PlaneConfig) -> np.random.Generator:
    return np.random.default_rng([config.seed, REGIMES.index(config.regime), config.split_index])


def _too_small(config: PlaneConfig, what: str) -> ValueError:
    return ValueError(
        f"Config {config.name!r}: {what}: the corpus is too small for this regime's constraints. "
        "Parse more text (raise --max-docs or pass a larger --corpus)."
    )


def _check_nonempty(splits: dict[str, pa.Table], config: PlaneConfig) -> dict[str, pa.Table]:
    empty = [name for name, table in splits.items() if len(table) == 0]
    if empty:
        raise _too_small(config, f"split(s) {', '.join(empty)} came out empty")
    return splits


def goood_splits(
    pool: pa.Table, config: PlaneConfig, rng: np.random.Generator, inference_types=INFERENCE_TYPES
) -> dict[str, pa.Table]:
    """§6.1: train and test over disjoint vocabularies (every role, hypernyms included), each
    balanced; test nouns are those seen with every adjective class (§3.2). Validation is a
    balanced holdout of the train side, for model selection."""
    items = ItemCodes.from_table(pool, ADJECTIVE_CLASSES)
    shares = (1 - config.test_fraction, config.test_fraction)
    row_side = rows_within_sides(items, vocabulary_sides(items, shares, rng))
    train = balance(items, np.flatnonzero(row_side == 0), inference_types, rng)
    test = nouns_with_every_class(items, np.flatnonzero(row_side == 1))
    train, validation = holdout(items, train, inference_types, config.validation_fraction, rng)
    splits = {
        "train": train,
        "validation": validation,
        "test": balance(items, test, inference_types, rng),
    }
    return {split: pool.take(rows) for split, rows in splits.items()}


def one_it_splits(pool: pa.Table, config: PlaneConfig, rng: np.random.Generator):
    """§6.2: GOoD splits of the IT3 items alone, the one type where I and S disagree."""
    return goood_splits(pool.filter(pc.equal(pool["inference_type"], 3)), config, rng, (3,))


def in_distribution_splits(
    pool: pa.Table, config: PlaneConfig, rng: np.random.Generator
) -> dict[str, pa.Table]:
    """Appendix D: adjective-noun phrases (hence every ⟨A, N, h(N), IT⟩ compound) are disjoint
    across splits, while every adjective, noun and hypernym of validation and test also occurs,
    in the same role, in train."""
    items = ItemCodes.from_table(pool, ADJECTIVE_CLASSES)
    row_side = compound_sides(items, IN_DISTRIBUTION_SHARES, rng)
    train = balance(items, np.flatnonzero(row_side == 0), INFERENCE_TYPES, rng)
    train, validation = holdout(items, train, INFERENCE_TYPES, config.validation_fraction, rng)
    validation = atoms_seen_in(items, validation, train)
    test = nouns_with_every_class(items, atoms_seen_in(items, np.flatnonzero(row_side == 1), train))
    splits = {
        "train": train,
        "validation": balance(items, validation, INFERENCE_TYPES, rng),
        "test": balance(items, test, INFERENCE_TYPES, rng),
    }
    return {split: pool.take(rows) for split, rows in splits.items()}


def two_shot_prompts(pool: pa.Table, triplets_per_class: int, rng: np.random.Generator) -> pa.Table:
    """§4: for sampled ⟨A, N, h(N)⟩ triplets, every hypothesis IT with the other two ITs as
    labelled premises in both orders, under each template (Table 2) and verbaliser (Table 3)."""
    triplets = pool.filter(pc.equal(pool["inference_type"], 2))
    rows = []
    for klass in ADJECTIVE_CLASSES:
        members = np.flatnonzero(
            pc.equal(triplets["adjective_class"], klass).to_numpy(zero_copy_only=False)
        )
        chosen = np.sort(
            rng.choice(members, size=min(triplets_per_class, len(members)), replace=False)
        )
        for triplet in triplets.take(chosen).to_pylist():
            rows.extend(_prompts_for(triplet))
    return pa.Table.from_pylist(rows, schema=PROMPT_FEATURES.arrow_schema)


def _prompt_line(template: str, c1: str, c2: str, verbaliser: str) -> str:
    """One premise or hypothesis of Table 2; the internal template puts an article before c2."""
    c2 = with_article(c2) if template == "internal" else c2
    return TEMPLATES[template].format(c1=c1, c2=c2, verbaliser=verbaliser)


def _prompts_for(triplet: dict) -> list[dict]:
    adjective, noun, hypernym = triplet["adjective"], triplet["noun"], triplet["hypernym"]
    klass = triplet["adjective_class"]
    c1 = with_article(f"{adjective} {noun}", capitalise=True)
    c2 = {1: noun, 2: hypernym, 3: f"{adjective} {hypernym}"}
    rows = []
    for template, (verbaliser, words), it in product(
        TEMPLATES, VERBALISERS.items(), INFERENCE_TYPES
    ):
        others = [other for other in INFERENCE_TYPES if other != it]
        label = int(ENTAILS[klass][it - 1])
        for order in (others, others[::-1]):
            premises = [
                _prompt_line(template, c1, c2[p], words[ENTAILS[klass][p - 1]]) for p in order
            ]
            order_text = ",".join(map(str, order))
            rows.append(
                {
                    "id": row_id(
                        "plane-two-shot",
                        adjective,
                        noun,
                        hypernym,
                        it,
                        order_text,
                        template,
                        verbaliser,
                    ),
                    "prompt": " ".join([*premises, _prompt_line(template, c1, c2[it], MASK)]),
                    "label": label,
                    "target": words[label],
                    "negative_word": words[0],
                    "positive_word": words[1],
                    "template": template,
                    "verbaliser": verbaliser,
                    "premise_inference_types": order_text,
                    "inference_type": it,
                    "adjective": adjective,
                    "noun": noun,
                    "hypernym": hypernym,
                    "adjective_class": klass,
                }
            )
    return rows


def plane_splits(config: PlaneConfig) -> dict[str, pa.Table]:
    """The splits of one config, as Arrow tables in ITEM_FEATURES (or PROMPT_FEATURES) order."""
    if config.regime.startswith("original_"):
        from compsem.loading_scripts.plane_release import read_original_split

        return read_original_split(config.original_release, config.regime, config.split_index)
    pool = build_item_pool(config)
    classes = set(pool["adjective_class"].unique().to_pylist())
    if not classes or (config.regime != "full" and classes != set(ADJECTIVE_CLASSES)):
        missing = ", ".join(sorted(set(ADJECTIVE_CLASSES) - classes))
        raise _too_small(config, f"no phrases with adjectives of class {missing}")
    rng = _generator(config)
    if config.regime == "full":
        return {"train": pool}
    if config.regime == "two_shot":
        return {"test": two_shot_prompts(pool, config.two_shot_triplets_per_class, rng)}
    regime = {
        "goood": goood_splits,
        "one_it": one_it_splits,
        "in_distribution": in_distribution_splits,
    }
    return _check_nonempty(regime[config.regime](pool, config, rng), config)


class Plane(TableBuilder):
    """PLANE generated from a corpus, an adjective lexicon and WordNet, one config per regime."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = PlaneConfig
    BUILDER_CONFIGS = BUILDER_CONFIGS + ORIGINAL_CONFIGS
    DEFAULT_CONFIG_NAME = "goood_split_1"

    def _info(self) -> datasets.DatasetInfo:
        features = PROMPT_FEATURES if self.config.regime == "two_shot" else ITEM_FEATURES
        return datasets.DatasetInfo(
            description=_DESCRIPTION,
            features=features,
            citation=_CITATION,
            homepage=_HOMEPAGE,
        )

    def splits(self) -> dict[str, pa.Table]:
        return plane_splits(self.config)


BUILDER = Plane
CARD_TEMPLATE = "plane.md"
CARD_METADATA = {
    "pretty_name": "PLANE: Phrase-Level Adjective-Noun Entailment (compsem generation)",
    "language": ["en"],
    **WORDNET_LICENSE,
    "task_categories": ["text-classification"],
    "task_ids": ["natural-language-inference"],
    "tags": ["compositionality", "entailment", "adjective-noun", "wordnet", "compsem"],
}
_REGIME_DESCRIPTIONS = {
    "full": "Every item of the pool, unsplit.",
    "goood": "Generalise out of distribution (§6.1): no adjective, noun or hypernym of test "
    "occurs in train or validation in any role; validation is a balanced holdout of the train "
    "side, for model selection.",
    "one_it": "One-IT (§6.2): GOoD splits of IT3 items only, the inference type where "
    "intersective and subsective adjectives disagree.",
    "in_distribution": "In-distribution (Appendix D): adjectives, nouns and hypernyms shared "
    "with train, adjective-noun phrases disjoint.",
    "two_shot": "Two-shot prompts (§4): two labelled premises and one masked hypothesis.",
    "original_goood": "The published GOoD split, read from the original release.",
    "original_one_it": "The published One-IT split, read from the original release.",
}


CHANGELOG = {
    "1.0.0": "First compsem generation of PLANE: Table 1 items from a corpus, the shipped "
    "472-adjective lexicon and WordNet 3.0; GOoD, One-IT and in-distribution splits (five seeded "
    "resamples each) with no hypernym leak; two-shot prompts; readers of the original release.",
}
DEMO_TITLE = "PLANE, adjective-noun phrase entailment, built from WordNet's glosses"
STATISTICS_FIELDS = ("adjective_class", "inference_type", "template", "verbaliser")
VOCABULARY_FIELDS = ("adjective", "noun", "hypernym")


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    """The inputs of ``compsem build plane``."""
    parser.add_argument(
        "--corpus",
        default=PlaneConfig.corpus,
        help="wordnet_glosses, a .txt/.jsonl/.parquet file, a folder of them, "
        "or a datasets save_to_disk folder",
    )
    parser.add_argument(
        "--text-column", default=PlaneConfig.text_column, help="column or JSON field with the text"
    )
    parser.add_argument(
        "--lexicon", help="adjective lexicon TSV (adjective, class, note); default: the shipped one"
    )
    add_pipeline_arguments(
        parser,
        PlaneConfig.spacy_model,
        "an installed spaCy pipeline with a parser (PLANE used en_core_web_lg)",
    )
    parser.add_argument("--seed", type=int, default=PlaneConfig.seed, help="base random seed")
    parser.add_argument(
        "--max-docs", type=int, help="parse only the first N documents (of each task's share)"
    )
    parser.add_argument(
        "--original-release",
        metavar="DIR",
        help="folder of the original PLANE pickles: adds the original_* configs",
    )


def build_kwargs(args: argparse.Namespace) -> dict:
    """PlaneConfig keyword arguments from the parsed ``compsem build plane`` arguments."""
    names = ("corpus", "text_column", "lexicon", "spacy_model", "seed", "max_docs")
    kwargs = {name: getattr(args, name) for name in (*names, "tasks", "workers")}
    for name in ("extracted", "original_release"):
        if getattr(args, name):
            kwargs[name] = getattr(args, name)
    return kwargs


def demo_kwargs() -> dict:
    """One datatrove task per core (up to the glosses' parts): the pair counts do not depend on
    the number of tasks when every document is parsed."""
    parallel = min(os.cpu_count() or 1, GLOSS_PARTS)
    return {"tasks": parallel, "workers": parallel}


def default_config_names(config_kwargs: dict) -> list[str]:
    """Every generated config, plus the original release's when a release folder is given."""
    configs = BUILDER_CONFIGS + (ORIGINAL_CONFIGS if config_kwargs.get("original_release") else [])
    return [config.name for config in configs]


def config_description(config: PlaneConfig) -> str:
    return _REGIME_DESCRIPTIONS[config.regime]


def provenance(config: PlaneConfig) -> dict:
    """The inputs that determine the generated content, for the card."""
    lexicon = load_adjective_lexicon(config.lexicon)
    return {
        "version": str(Plane.VERSION),
        "seed": config.seed,
        **describe_source(config, open_source(config)),
        "max_docs": config.max_docs,
        "wordnet": wordnet_version(),
        "lexicon": lexicon.source,
        "lexicon_size": len(lexicon),
        "lexicon_classes": dict(sorted(Counter(lexicon.classes.values()).items())),
        "lexicon_fingerprint": lexicon.fingerprint,
        "max_hypernym_distance": MAX_HYPERNYM_DISTANCE,
        "test_fraction": config.test_fraction,
        "validation_fraction": config.validation_fraction,
        "two_shot_triplets_per_class": config.two_shot_triplets_per_class,
    }
