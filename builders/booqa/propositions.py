"""Propositions of a dated news corpus, aggregated out of core (BoOQA §4.1 and Appendix D).

1. :func:`extract_triples` runs the datatrove pipeline (readers → spaCy relation triples →
   sharded Parquet, one row per article with its triples) and caches its output by corpus,
   parser and task count; a killed run resumes from its completed tasks.
2. :func:`partition_triples` streams the shards once and hash-partitions the flat triples into
   buckets of bounded size: by context window (so each window's propositions sit in one bucket)
   and, as (predicate, argument pair) rows, by a hash of all three.
3. :func:`felicitous_predicates` counts distinct argument pairs per predicate, one bucket at a
   time; :func:`window_population` finds the starring pairs, positives and their
   negatives one window bucket at a time; :func:`bundle_evidence` collects the evidence of
   sampled bundles the same way. Only one bucket is in memory at a time, and every grouping is a
   pyarrow hash aggregation, not a Python dict.

An argument pair is unordered: "A visits B" and "B hosts A" are about the same pair.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import shutil
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from compsem.builders.booqa.predicate_hyponyms import hyponym_replacements
from compsem.builders.booqa.relations import TRIPLE_TYPE, relation_triples
from compsem.fingerprint import cache_root, fingerprint
from compsem.loading_scripts.booqa_corpus import NewsCorpus, NewsCorpusError, news_readers
from compsem.pipeline import SpacyAnnotator, parquet_shards, run_in_cache, spacy_pipeline
from compsem.pipeline import check_shards as pipeline_shards
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id

# Bumped whenever extraction changes what the shards hold.
EXTRACTION_REVISION = 1
EPOCH = dt.date(1970, 1, 1)
ARTICLE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("date", pa.date32()),
        ("sentences", pa.int32()),
        ("triples", pa.list_(TRIPLE_TYPE)),
    ]
)
PAIR = ["window", "a", "b"]
NEGATIVE_TYPE = pa.struct([("predicate", pa.string()), ("frequency", pa.int64())])


def annotate_relations(doc) -> dict:
    """The SpacyAnnotator function: an article's triples and sentence count."""
    return {"triples": relation_triples(doc), "sentences": sum(1 for _ in doc.sents)}


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


def _days(dates: pa.Array) -> np.ndarray:
    return dates.cast(pa.int32()).to_numpy(zero_copy_only=False).astype(np.int64)


def window_of(dates: pa.Array, window_days: int) -> pa.Array:
    """Disjoint windows of ``window_days`` days counted from 1970-01-01."""
    return pa.array(np.floor_divide(_days(dates), window_days).astype(np.int32))


def window_bounds(window: int, window_days: int) -> tuple[dt.date, dt.date]:
    """First and last day (inclusive) of a window."""
    start = EPOCH + dt.timedelta(days=int(window) * window_days)
    return start, start + dt.timedelta(days=window_days - 1)


def flat_triples(articles: pa.RecordBatch | pa.Table, window_days: int) -> pa.Table:
    """One row per triple, with its article, window and unordered argument pair (a, b)."""
    triples = articles.column("triples")
    parents = pc.list_parent_indices(triples)
    flat = pc.list_flatten(triples)
    if isinstance(flat, pa.ChunkedArray):
        flat = flat.combine_chunks()
    windows = window_of(pc.take(articles.column("date"), parents), window_days)
    subject, obj = flat.field("subject"), flat.field("object")
    return pa.table(
        {
            "window": windows,
            "article": pc.take(articles.column("id"), parents),
            "sentence": flat.field("sentence"),
            "subject": subject,
            "subject_type": flat.field("subject_type"),
            "predicate": flat.field("predicate"),
            "predicate_tags": flat.field("predicate_tags"),
            "object": obj,
            "object_type": flat.field("object_type"),
            "a": pc.min_element_wise(subject, obj),
            "b": pc.max_element_wise(subject, obj),
        }
    )


def _crc(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A stable CRC-32 of each string, hashing each distinct value of the batch once."""
    encoded = _codes(values)
    codes = np.array([zlib.crc32(v.encode()) for v in encoded.dictionary.to_pylist()], np.uint64)
    return codes[encoded.indices.to_numpy(zero_copy_only=False)]


def string_buckets(values: pa.Array | pa.ChunkedArray, buckets: int) -> np.ndarray:
    """A stable bucket per string."""
    return (_crc(values) % np.uint64(buckets)).astype(np.int32)


def row_buckets(table: pa.Table, columns: tuple[str, ...], buckets: int) -> np.ndarray:
    """A stable bucket per row from several string columns (so no single value, however
    frequent, fills a bucket by itself)."""
    mixed = np.zeros(len(table), dtype=np.uint64)
    for column in columns:  # a multiplicative mix of the columns' CRCs (wraps mod 2**64)
        mixed = (mixed ^ _crc(table[column])) * np.uint64(0x9E3779B97F4A7C15)
    return ((mixed >> np.uint64(32)) % np.uint64(buckets)).astype(np.int32)


def _codes(column: pa.ChunkedArray | pa.Array) -> pa.DictionaryArray:
    """Dictionary-encode a whole column, so equal strings get one integer code."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    return pc.dictionary_encode(column)


class BucketWriter:
    """Append row subsets to one Arrow IPC file per bucket (the out-of-core shuffle). IPC with
    LZ4, not Parquet: these files are read back once, whole, and IPC costs almost nothing."""

    def __init__(self, folder: Path, stem: str, buckets: int, schema: pa.Schema):
        folder.mkdir(parents=True, exist_ok=True)
        options = pa.ipc.IpcWriteOptions(compression="lz4")
        self.paths = [folder / f"{stem}-{i:05d}.arrow" for i in range(buckets)]
        self.writers = [pa.ipc.new_file(str(p), schema, options=options) for p in self.paths]
        self.rows = 0

    def write(self, table: pa.Table, bucket: np.ndarray) -> None:
        order = np.argsort(bucket, kind="stable")
        bounds = np.searchsorted(bucket[order], np.arange(len(self.writers) + 1))
        for index, writer in enumerate(self.writers):
            if bounds[index] < bounds[index + 1]:
                writer.write_table(table.take(order[bounds[index] : bounds[index + 1]]))
        self.rows += len(table)

    def close(self) -> None:
        for writer in self.writers:
            writer.close()


def read_bucket(path: Path) -> pa.Table:
    """One bucket file, whole."""
    with pa.memory_map(str(path)) as source:
        return pa.ipc.open_file(source).read_all()


@dataclass(frozen=True)
class Partitions:
    """The bucket files of one partitioned extraction, and what they summarise."""

    folder: Path
    buckets: int
    articles_per_window: pa.Table  # window, articles

    @property
    def triples(self) -> int:
        return int(self.articles_per_window.schema.metadata[b"triples"])

    def window_files(self) -> list[Path]:
        return [self.folder / f"window-{i:05d}.arrow" for i in range(self.buckets)]

    def pair_files(self) -> list[Path]:
        return [self.folder / f"pairs-{i:05d}.arrow" for i in range(self.buckets)]


def count_triples(files: list[Path]) -> int:
    """Triples in the shards, from Parquet metadata (values of the predicate leaf column)."""
    total = 0
    for path in files:
        metadata = pq.ParquetFile(path).metadata
        names = [metadata.schema.column(i).path for i in range(metadata.num_columns)]
        column = names.index("triples.list.element.predicate")
        total += sum(
            metadata.row_group(g).column(column).num_values for g in range(metadata.num_row_groups)
        )
    return total


def partition_triples(
    shards: Path, window_days: int, rows_per_bucket: int = 2_000_000, batch_articles: int = 20_000
) -> Partitions:
    """Partition the extraction's triples by window, and their (predicate, pair) rows by hash
    (cached, written atomically)."""
    files = check_shards(shards)
    buckets = max(1, math.ceil(count_triples(files) / rows_per_bucket))
    key = fingerprint(
        "booqa_partitions",
        [str(f) for f in files],
        [f.stat().st_mtime_ns for f in files],
        window_days,
        buckets,
    )
    folder = cache_root() / "booqa_partitions" / key
    if not (folder / "articles.parquet").is_file():
        staging = folder.with_name(f"{key}.partial-{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        _write_partitions(files, staging, window_days, buckets, batch_articles)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(staging, folder)
    return Partitions(folder, buckets, pq.read_table(folder / "articles.parquet"))


def _write_partitions(files, folder: Path, window_days: int, buckets: int, batch: int) -> None:
    flat_schema = flat_triples(ARTICLE_SCHEMA.empty_table(), window_days).schema
    pair_schema = pa.schema([flat_schema.field(n) for n in ("predicate", "a", "b")])
    by_window = BucketWriter(folder, "window", buckets, flat_schema)
    by_pair = BucketWriter(folder, "pairs", buckets, pair_schema)
    windows = []
    total = sum(pq.ParquetFile(path).metadata.num_rows for path in files)
    with tqdm(total=total, unit="article", desc="Partitioning triples", mininterval=1.0) as bar:
        for path in files:
            for articles in pq.ParquetFile(path).iter_batches(batch_size=batch):
                windows.append(window_of(articles.column("date"), window_days))
                flat = flat_triples(articles, window_days)
                bucket = np.mod(flat["window"].to_numpy(), buckets).astype(np.int32)
                by_window.write(flat, bucket)
                pairs = flat.select(["predicate", "a", "b"])
                by_pair.write(pairs, row_buckets(pairs, ("predicate", "a", "b"), buckets))
                bar.update(len(articles))
    by_window.close()
    by_pair.close()
    counts = pa.table(
        {"window": pa.concat_arrays(windows) if windows else pa.array([], pa.int32())}
    )
    counts = counts.group_by("window").aggregate([("window", "count")])
    counts = counts.rename_columns(["window", "articles"]).sort_by("window")
    counts = counts.replace_schema_metadata({"triples": str(by_window.rows)})
    pq.write_table(counts, folder / "articles.parquet")


def felicitous_predicates(partitions: Partitions, min_pairs: int) -> pa.Table:
    """(predicate, frequency): predicates seen with at least ``min_pairs`` distinct argument
    pairs anywhere in the corpus; frequency is that number of pairs.

    Each distinct (predicate, pair) row lies in one bucket of ``pair_files``, so a bucket's
    distinct rows counted per predicate are partial counts that add up; the partial counts are
    partitioned by predicate and summed one bucket at a time. No bucket holds more than its share
    of rows, however frequent a predicate (news has its "say")."""
    schema = pa.schema([("predicate", pa.string()), ("frequency", pa.int64())])
    with tempfile.TemporaryDirectory(dir=partitions.folder.parent) as folder:
        partial = BucketWriter(Path(folder), "counts", partitions.buckets, schema)
        for path in partitions.pair_files():
            rows = read_bucket(path)
            predicate = _codes(rows["predicate"])
            coded = pa.table(
                {
                    "p": predicate.indices,
                    "a": _codes(rows["a"]).indices,
                    "b": _codes(rows["b"]).indices,
                }
            )
            distinct = coded.group_by(["p", "a", "b"]).aggregate([])
            counts = distinct.group_by("p").aggregate([("a", "count")])
            counts = pa.table(
                [pc.take(predicate.dictionary, counts["p"]), counts["a_count"]], schema=schema
            )
            partial.write(counts, string_buckets(counts["predicate"], partitions.buckets))
        partial.close()
        tables = []
        for path in partial.paths:
            counts = read_bucket(path).group_by("predicate").aggregate([("frequency", "sum")])
            counts = counts.rename_columns(["predicate", "frequency"])
            tables.append(counts.filter(pc.greater_equal(counts["frequency"], min_pairs)))
    return pa.concat_tables([t.cast(schema) for t in tables]).sort_by("predicate")


def pair_keys(triples: pa.Table, min_rows: int = 1) -> tuple[np.ndarray, pa.Table, int]:
    """(row keys, pair statistics, pairs): an int64 key of (window, argument pair) per row; the
    articles and distinct predicates of each pair with at least ``min_rows`` triples (the others
    cannot star), keyed the same way; and the number of distinct pairs. Grouping runs on integer
    codes, not strings."""
    window = triples["window"].to_numpy().astype(np.int64)
    low = window.min() if len(window) else 0
    a, b = _codes(triples["a"]), _codes(triples["b"])
    n_a, n_b = max(len(a.dictionary), 1), max(len(b.dictionary), 1)
    a_code = a.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    b_code = b.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    key = pa.array(((window - low) * n_a + a_code) * n_b + b_code)
    sizes = pa.table({"key": key}).group_by("key").aggregate([("key", "count")])
    candidates = sizes.filter(pc.greater_equal(sizes["key_count"], min_rows))["key"]
    rows = pc.is_in(key, candidates) if min_rows > 1 else pa.array(np.ones(len(key), bool))
    coded = pa.table(
        {
            "key": key,
            "article": _codes(triples["article"]).indices,
            "predicate": _codes(triples["predicate"]).indices,
        }
    ).filter(rows)
    stats = coded.group_by("key").aggregate(
        [("article", "count_distinct"), ("predicate", "count_distinct")]
    )
    group = stats["key"].to_numpy()
    pair, b_index = np.divmod(group, n_b)
    window_index, a_index = np.divmod(pair, n_a)
    stats = pa.table(
        {
            "key": group,
            "window": pa.array((window_index + low).astype(np.int32)),
            "a": pc.take(a.dictionary, pa.array(a_index)),
            "b": pc.take(b.dictionary, pa.array(b_index)),
            "articles": stats["article_count_distinct"],
            "predicates": stats["predicate_count_distinct"],
        }
    )
    return key.to_numpy(), stats.sort_by("key"), len(sizes)


def pair_statistics(triples: pa.Table) -> pa.Table:
    """Articles and distinct predicates per (window, argument pair)."""
    stats = pair_keys(triples)[1].drop_columns(["key"])
    return stats.sort_by([("window", "ascending"), ("a", "ascending"), ("b", "ascending")])


def argument_types(triples: pa.Table) -> pa.Table:
    """(window, argument, type): each argument's most frequent entity type in the window."""
    stacked = pa.concat_tables(
        [
            triples.select(["window", role, f"{role}_type"]).rename_columns(
                ["window", "argument", "type"]
            )
            for role in ("subject", "object")
        ]
    )
    stacked = stacked.filter(pc.is_valid(stacked["type"]))
    counts = stacked.group_by(["window", "argument", "type"]).aggregate([("type", "count")])
    counts = counts.sort_by(
        [
            ("window", "ascending"),
            ("argument", "ascending"),
            ("type_count", "descending"),
            ("type", "ascending"),
        ]
    )
    return (
        counts.group_by(["window", "argument"], use_threads=False)
        .aggregate([("type", "first")])
        .rename_columns(["window", "argument", "type"])
    )


def _with_types(positives: pa.Table, types: pa.Table) -> pa.Table:
    for role in ("subject", "object"):
        renamed = types.rename_columns(["window", role, f"{role}_type"])
        positives = positives.join(renamed, ["window", role], join_type="left outer")
    return positives


def negative_candidates(
    positives: pa.Table, presence: pa.Table, felicitous: pa.Table, word_sense: str
) -> pa.Table:
    """(row, predicate, frequency) for each positive ``row``: its felicitous hyponym
    replacements of which neither the candidate nor a synonym occurs with the pair in the
    window (``presence`` holds every (window, a, b, predicate) of the starring pairs)."""
    distinct = positives.group_by(["predicate", "predicate_tags"]).aggregate([]).to_pylist()
    rows = [
        (item["predicate"], candidate, synonym)
        for item in distinct
        for candidate, synonyms in hyponym_replacements(
            item["predicate"], item["predicate_tags"], word_sense
        )
        for synonym in synonyms
    ]
    schema = pa.schema(
        [("predicate", pa.string()), ("candidate", pa.string()), ("synonym", pa.string())]
    )
    replacements = pa.Table.from_pylist(
        [dict(zip(schema.names, row, strict=True)) for row in rows], schema=schema
    )
    replacements = replacements.join(
        felicitous.rename_columns(["candidate", "frequency"]), "candidate", join_type="inner"
    )
    rows_table = positives.select([*PAIR, "predicate"]).append_column(
        "row", pa.array(np.arange(len(positives), dtype=np.int64))
    )
    candidates = rows_table.join(replacements, "predicate", join_type="inner")
    present = presence.append_column("present", pa.array(np.ones(len(presence), dtype=bool)))
    present = present.rename_columns([*PAIR, "synonym", "present"])
    candidates = candidates.join(present, [*PAIR, "synonym"], join_type="left outer")
    verdict = candidates.group_by(["row", "candidate", "frequency"]).aggregate(
        [("present", "count")]
    )
    absent = verdict.filter(pc.equal(verdict["present_count"], 0))
    return (
        absent.select(["row", "candidate", "frequency"])
        .rename_columns(["row", "predicate", "frequency"])
        .sort_by([("row", "ascending"), ("predicate", "ascending")])
    )


def window_population(
    triples: pa.Table,
    felicitous: pa.Table,
    min_articles: int,
    min_predicates: int,
    word_sense: str = "first",
) -> tuple[pa.Table, pa.Table, int]:
    """(population, statistics of the pairs that could star, number of pairs) of one window
    bucket.

    The population has one row per positive: a distinct proposition of a felicitous predicate
    about a starring pair in a window, with its mentions, entity types, frequency and the list of
    its negatives (possibly empty).
    """
    row_keys, stats, pairs = pair_keys(triples, max(min_articles, min_predicates))
    starring = stats.filter(
        pc.and_(
            pc.greater_equal(stats["articles"], min_articles),
            pc.greater_equal(stats["predicates"], min_predicates),
        )
    )
    starred = triples.filter(pc.is_in(pa.array(row_keys), starring["key"]))
    presence = starred.group_by([*PAIR, "predicate"]).aggregate([])
    mentions = starred.join(felicitous, "predicate", join_type="inner")
    keys = ["window", "subject", "predicate", "object", "a", "b"]
    positives = mentions.group_by(keys).aggregate(
        [("article", "count"), ("predicate_tags", "min"), ("frequency", "max")]
    )
    positives = positives.rename_columns([*keys, "mentions", "predicate_tags", "frequency"])
    positives = _with_types(positives, argument_types(starred))
    positives = positives.sort_by([(name, "ascending") for name in keys])
    negatives = negative_candidates(positives, presence, felicitous, word_sense)
    offsets = np.searchsorted(negatives["row"].to_numpy(), np.arange(len(positives) + 1))
    structs = pa.StructArray.from_arrays(
        [negatives["predicate"].combine_chunks(), negatives["frequency"].combine_chunks()],
        fields=list(NEGATIVE_TYPE),
    )
    lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), structs)
    columns = [
        "window",
        "subject",
        "predicate",
        "object",
        "a",
        "b",
        "subject_type",
        "object_type",
        "predicate_tags",
        "mentions",
        "frequency",
    ]
    population = positives.select(columns).append_column("negatives", lists)
    return population, stats.drop_columns(["key"]), pairs


def bundle_evidence(triples: pa.Table, bundles: pa.Table, max_evidence: int) -> pa.Table:
    """(bundle_id, evidence): the distinct propositions of the bundle's window and argument pair,
    with their mention counts, leaving out every triple of the sentences the positive was
    extracted from (footnote 8); the most mentioned first, at most ``max_evidence``.

    ``bundles`` has bundle_id, window, a, b, subject, predicate, object (the positive)."""
    own = (
        triples.join(
            bundles.select(["bundle_id", "window", "subject", "predicate", "object"]),
            ["window", "subject", "predicate", "object"],
            join_type="inner",
        )
        .group_by(["bundle_id", "article", "sentence"])
        .aggregate([])
    )
    own = own.append_column("own", pa.array(np.ones(len(own), dtype=bool)))
    pair = triples.select([*PAIR, "article", "sentence", "subject", "predicate", "object"]).join(
        bundles.select(["bundle_id", *PAIR]), PAIR, join_type="inner"
    )
    pair = pair.join(own, ["bundle_id", "article", "sentence"], join_type="left outer")
    pair = pair.filter(pc.is_null(pair["own"]))
    counted = (
        pair.group_by(["bundle_id", "subject", "predicate", "object"])
        .aggregate([("article", "count")])
        .rename_columns(["bundle_id", "subject", "predicate", "object", "mentions"])
    )
    counted = counted.sort_by(
        [
            ("bundle_id", "ascending"),
            ("mentions", "descending"),
            ("subject", "ascending"),
            ("predicate", "ascending"),
            ("object", "ascending"),
        ]
    )
    ids = counted["bundle_id"].to_numpy(zero_copy_only=False)
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]]) if len(ids) else np.array([], int)
    rank = np.arange(len(ids)) - np.repeat(starts, np.diff(np.r_[starts, len(ids)]))
    return counted.filter(pa.array(rank < max_evidence))
