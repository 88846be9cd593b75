"""PLANE's item pool: adjective-noun pairs counted in a corpus, less the phrases WordNet reads
otherwise (:mod:`~compsem.builders.plane.items.compounds`), joined with the adjective lexicon and
WordNet hypernyms into every item of Table 1, cached by fingerprints of the inputs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.plane.config import (
    ENTAILS,
    MAX_HYPERNYM_DISTANCE,
    PIPELINE_REVISION,
    PlaneConfig,
)
from compsem.builders.plane.corpus.extraction import (
    DISABLED,
    adjective_forms,
    check_an_shards,
    count_an_occurrences,
    extract_an_pairs,
)
from compsem.builders.plane.items.compounds import dropped_summary, filter_phrases
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.files.fingerprint import cached_table, file_fingerprint, fingerprint, row_id
from compsem.loading_scripts.corpora import Corpus, open_corpus
from compsem.pipeline.runner import (
    CorpusError,
    check_extracted,
    shard_files,
    shard_parser,
    spacy_pipeline,
)
from compsem.resources.lexicon import ADJECTIVE_CLASSES, load_adjective_lexicon
from compsem.resources.spacy_pipeline import pipeline_id
from compsem.resources.wordnet import wordnet_version
from compsem.text.articles import indefinite_article


def _words_with_articles(words: pa.Array, capitalise: bool) -> pa.Array:
    """'a word' / 'an word' for each entry, computing each distinct word's article once."""
    first_words = pc.list_element(pc.utf8_split_whitespace(words, max_splits=1), 0)
    distinct = pc.unique(first_words)
    articles = [indefinite_article(word) for word in distinct.to_pylist()]
    if capitalise:
        articles = [article.capitalize() for article in articles]
    article = pc.take(pa.array(articles, pa.string()), pc.index_in(first_words, distinct))
    return pc.binary_join_element_wise(article, words, " ")


def item_pool(
    pairs: pa.Table,
    lexicon_classes: dict[str, str],
    hypernyms: pa.Table,
    forms: dict[str, str] | None = None,
) -> pa.Table:
    """Every PLANE item (Table 1) for the AN pairs whose adjective is in the lexicon and whose
    noun has a WordNet noun synset; sorted, so the pool is deterministic.

    ``hypernyms`` has a ``distance`` 0 row (hypernym null) per noun with a synset: it makes the
    IT1 item; rows at distance ≥ 1 make the IT2 and IT3 items. ``forms`` writes an adjective
    otherwise than its lemma in the text fields ("australian" → "Australian")."""
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
            pc.binary_join_element_wise(
                _written(upward["adjective"], forms), upward["hypernym"], " "
            ),
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
    return _item_columns(table, forms)


def _written(adjectives: pa.ChunkedArray, forms: dict[str, str] | None) -> pa.ChunkedArray:
    """Each adjective lemma as the text writes it: its form in ``forms``, else the lemma."""
    if not forms:
        return adjectives
    lemmas = pa.array(list(forms), pa.string())
    written = pc.take(pa.array(list(forms.values()), pa.string()), pc.index_in(adjectives, lemmas))
    return pc.coalesce(written, adjectives)


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


def _item_columns(table: pa.Table, forms: dict[str, str] | None = None) -> pa.Table:
    """Add premise, sentence, label and id to the joined pool, in ITEM_FEATURES order."""
    premise = pc.binary_join_element_wise(_written(table["adjective"], forms), table["noun"], " ")
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
        if config.corpus != PlaneConfig.corpus:
            raise ValueError("Pass either a corpus or an extracted shards folder, not both.")
        return check_an_shards(check_extracted(config.extracted, CorpusError))
    return open_corpus(config.corpus, config.text_column, config.split)


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


def extract_source(config: PlaneConfig, source: Corpus | list[Path]) -> list[Path]:
    """The shard files of the corpus's AN arcs. Named sources joined (``embedded``) are each
    extracted and cached on their own, so a source added or dropped costs only its own parse;
    with --max-docs the corpus is one extraction, as its tasks' first documents span sources."""
    if not isinstance(source, Corpus):
        return source
    parts = [source]
    if len(source.sources) > 1 and not config.max_docs:
        parts = [open_corpus(info.name) for info in source.sources]
    return [
        path
        for part in parts
        for path in shard_files(
            extract_an_pairs(
                part, config.spacy_model, config.max_docs, config.tasks, config.workers
            )
        )
    ]


def _pool_inputs(config: PlaneConfig) -> tuple:
    """The AN occurrences, hypernyms and lexicon of ``config``, and the key of its pool."""
    source = open_source(config)
    description = describe_source(config, source)
    # With --max-docs, which documents are parsed depends on how the corpus is split into tasks.
    tasks = config.tasks if config.max_docs and not config.extracted else None
    pairs_key = fingerprint("an_pairs", description, config.max_docs, tasks, PIPELINE_REVISION)

    def count() -> pa.Table:
        occurrences = count_an_occurrences(extract_source(config, source))
        if len(occurrences) == 0:
            raise CorpusError(
                f"Corpus {description['corpus']!r} yielded no adjective-noun phrases: it is empty, "
                "holds no English text, or only documents longer than spaCy's limit of 1,000,000 "
                "characters (a whole book on one line), which are skipped. Pass a corpus of "
                "English sentences, split into lines or paragraphs."
            )
        return occurrences

    occurrences = cached_table("an_occurrences", pairs_key, count)
    hypernym_key = fingerprint("hypernyms", pairs_key, wordnet_version(), MAX_HYPERNYM_DISTANCE)
    hypernyms = cached_table(
        "hypernyms",
        hypernym_key,
        lambda: hypernym_table(
            occurrences["noun"].unique().to_pylist(), max(MAX_HYPERNYM_DISTANCE.values())
        ),
    )
    lexicon = load_adjective_lexicon(config.lexicon)
    pool_key = fingerprint(
        "plane_items",
        hypernym_key,
        lexicon.fingerprint,
        config.non_compositional,
        config.lemma_guard,
        PIPELINE_REVISION,
    )
    return occurrences, hypernyms, lexicon, pool_key


def build_item_pool(config: PlaneConfig) -> pa.Table:
    """The item pool of ``config``'s inputs. Extraction, counting, the WordNet walk and the pool
    are cached by fingerprints of their inputs, so every config reads one cache."""
    occurrences, hypernyms, lexicon, pool_key = _pool_inputs(config)
    built = cache(lambda: _pool_and_dropped(config, occurrences, lexicon, hypernyms))
    cached_table("plane_dropped", pool_key, lambda: built()[1])
    return cached_table("plane_items", pool_key, lambda: built()[0])


def dropped_phrases(config: PlaneConfig) -> dict:
    """What the pool of ``config`` left out as phrases WordNet reads otherwise, for the card."""
    occurrences, hypernyms, lexicon, pool_key = _pool_inputs(config)
    dropped = cached_table(
        "plane_dropped",
        pool_key,
        lambda: _pool_and_dropped(config, occurrences, lexicon, hypernyms)[1],
    )
    return dropped_summary(dropped)


def _pool_and_dropped(
    config: PlaneConfig, occurrences: pa.Table, lexicon, hypernyms: pa.Table
) -> tuple[pa.Table, pa.Table]:
    """The item pool of ``occurrences`` under ``config``'s WordNet filters, and the phrases
    those filters dropped."""
    return pool_from_occurrences(
        occurrences, lexicon.classes, hypernyms, config.non_compositional, config.lemma_guard
    )


def pool_from_occurrences(
    occurrences: pa.Table,
    lexicon_classes: dict[str, str],
    hypernyms: pa.Table,
    non_compositional: str,
    lemma_guard: bool,
) -> tuple[pa.Table, pa.Table]:
    """The item pool of AN occurrences (extraction's OCCURRENCE_SCHEMA), less the phrases WordNet
    reads otherwise, written in each adjective's corpus form; and the phrases dropped."""
    pairs, dropped = filter_phrases(occurrences, lexicon_classes, non_compositional, lemma_guard)
    return item_pool(pairs, lexicon_classes, hypernyms, adjective_forms(occurrences)), dropped
