"""BoOQA's relation extraction (§4.1): a datatrove pipeline (readers → spaCy relation triples →
sharded Parquet, one row per article with its triples), cached by corpus, parser and task count;
a killed run resumes from its completed tasks. Any datatrove executor (local, Slurm, Ray) can run
:func:`extraction_pipeline`; :func:`extract_triples` runs it locally.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pyarrow as pa

from compsem.builders.booqa.corpus.linking import article_names, link_mentions
from compsem.builders.booqa.corpus.relations import TRIPLE_TYPE, relation_triples
from compsem.files.fingerprint import fingerprint
from compsem.loading_scripts.booqa_corpus import NewsCorpus, NewsCorpusError, news_readers
from compsem.pipeline.runner import SpacyAnnotator, parquet_shards, run_in_cache, spacy_pipeline
from compsem.pipeline.runner import check_shards as pipeline_shards
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id

# Bumped whenever extraction changes what the shards hold.
EXTRACTION_REVISION = 6
ARTICLE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("date", pa.date32()),
        ("sentences", pa.int32()),
        ("triples", pa.list_(TRIPLE_TYPE)),
    ]
)


def annotate_relations(doc) -> dict:
    """The SpacyAnnotator function: an article's triples, their arguments linked to entities
    within the article and in WordNet, and its sentence count."""
    triples = relation_triples(doc)
    names, acronyms = article_names(doc)
    roles = ("subject", "object")
    mentions = [(triple[role], triple[f"{role}_type"]) for triple in triples for role in roles]
    entities = iter(link_mentions(mentions, names, acronyms))
    for triple in triples:
        for role in roles:
            entity = next(entities)
            triple[f"{role}_entity"] = entity.id
            triple[f"{role}_entity_name"] = entity.name
            triple[f"{role}_entity_type"] = entity.type
            triple[f"{role}_linked_by"] = entity.how
    return {"triples": triples, "sentences": sum(1 for _ in doc.sents)}


def article_row(self, document) -> dict:
    """The ParquetWriter adapter: one row per article (ARTICLE_SCHEMA)."""
    return {
        "id": document.id,
        "date": dt.date.fromisoformat(document.metadata["date"]),
        "sentences": document.metadata["sentences"],
        "triples": document.metadata["triples"],
    }


def extraction_pipeline(
    corpus: NewsCorpus, work: str | Path, spacy_model: str = DEFAULT_SPACY_MODEL
) -> list:
    """Readers, one spaCy pipeline per worker, sharded Parquet: the steps any datatrove
    executor (local, Slurm, Ray) can run. Output shards go to ``work/shards``; ``work`` must be
    on a file system every task can reach."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    parser = pipeline_id(spacy_pipeline(spacy_model))  # fails early if the model is missing
    schema = ARTICLE_SCHEMA.with_metadata(
        {"compsem.parser": parser, "compsem.extraction_revision": str(EXTRACTION_REVISION)}
    )
    return [
        *news_readers(corpus, work),
        SpacyAnnotator(annotate_relations, spacy_model=spacy_model),
        parquet_shards(work / "shards", schema, article_row),
    ]


def extract_triples(
    corpus: NewsCorpus, spacy_model: str = DEFAULT_SPACY_MODEL, tasks: int = 1, workers: int = 1
) -> Path:
    """Run (or resume, or reuse) the extraction locally; returns the folder of Parquet shards."""
    parser = pipeline_id(spacy_pipeline(spacy_model))
    key = fingerprint("booqa_triples", corpus.fingerprint, parser, tasks, EXTRACTION_REVISION)
    return run_in_cache(
        "booqa_extraction",
        key,
        lambda work: extraction_pipeline(corpus, work, spacy_model),
        tasks=tasks,
        workers=workers,
    )


def check_shards(folder: str | Path) -> list[Path]:
    """The shards of a complete extraction, checked to hold articles in ARTICLE_SCHEMA."""
    return pipeline_shards(
        folder,
        ARTICLE_SCHEMA,
        NewsCorpusError,
        producer="compsem's BoOQA extraction pipeline",
        empty="The corpus holds no articles with text; give a corpus of dated articles (id, "
        "date, text), or the shards folder of an extraction that has run",
    )
