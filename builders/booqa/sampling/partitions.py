"""The out-of-core shuffle of BoOQA's triples (Appendix D at corpus scale).

:func:`partition_triples` streams the extraction's shards once and hash-partitions the flat
triples into buckets of bounded size: by context window (so each window's propositions sit in one
bucket) and, as (predicate, argument pair) rows, by a hash of all three.
:func:`felicitous_predicates` then counts distinct argument pairs per predicate one bucket at a
time. Only one bucket is in memory at a time, and every grouping is a pyarrow hash aggregation.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import shutil
import tempfile
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from compsem.builders.booqa.corpus.extraction import ARTICLE_SCHEMA, check_shards
from compsem.builders.booqa.corpus.linking import NER_TYPES
from compsem.files.fingerprint import cache_root, fingerprint
from compsem.files.ownership import writer_lock

EPOCH = dt.date(1970, 1, 1)


def _days(dates: pa.Array) -> np.ndarray:
    return dates.cast(pa.int32()).to_numpy(zero_copy_only=False).astype(np.int64)


def window_of(dates: pa.Array, window_days: int) -> pa.Array:
    """Disjoint windows of ``window_days`` days counted from 1970-01-01."""
    return pa.array(np.floor_divide(_days(dates), window_days).astype(np.int32))


def window_bounds(window: int, window_days: int) -> tuple[dt.date, dt.date]:
    """First and last day (inclusive) of a window."""
    start = EPOCH + dt.timedelta(days=int(window) * window_days)
    return start, start + dt.timedelta(days=window_days - 1)


def _argument(flat: pa.StructArray, role: str, linked: bool) -> tuple[pa.Array, pa.Array]:
    """(argument, type) of each triple: the linked entity's name and type, or the surface form
    with the parser's label as a coarse type."""
    if linked:
        return flat.field(f"{role}_entity_name"), flat.field(f"{role}_entity_type")
    labels = flat.field(f"{role}_type")
    coarse = pa.array([NER_TYPES.get(label) for label in labels.to_pylist()], pa.string())
    return flat.field(role), coarse


def flat_triples(
    articles: pa.RecordBatch | pa.Table, window_days: int, linked: bool = True
) -> pa.Table:
    """One row per triple, with its article, window and unordered argument pair (a, b); the
    arguments are linked entities (``linked``) or surface forms. A triple whose two arguments
    are one entity ("U.S." and "United States") is left out."""
    triples = articles.column("triples")
    parents = pc.list_parent_indices(triples)
    flat = pc.list_flatten(triples)
    if isinstance(flat, pa.ChunkedArray):
        flat = flat.combine_chunks()
    windows = window_of(pc.take(articles.column("date"), parents), window_days)
    subject, subject_type = _argument(flat, "subject", linked)
    obj, object_type = _argument(flat, "object", linked)
    table = pa.table(
        {
            "window": windows,
            "article": pc.take(articles.column("id"), parents),
            "sentence": flat.field("sentence"),
            "subject": subject,
            "subject_type": subject_type,
            "predicate": flat.field("predicate"),
            "predicate_tags": flat.field("predicate_tags"),
            "object": obj,
            "object_type": object_type,
            "a": pc.min_element_wise(subject, obj),
            "b": pc.max_element_wise(subject, obj),
        }
    )
    return table.filter(pc.not_equal(table["subject"], table["object"]))


def _crc(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A stable CRC-32 of each string, hashing each distinct value of the batch once."""
    encoded = dictionary_codes(values)
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


def dictionary_codes(column: pa.ChunkedArray | pa.Array) -> pa.DictionaryArray:
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

    @property
    def linking(self) -> dict:
        """How the argument mentions were linked (:meth:`LinkingCounts.summary`)."""
        return json.loads(self.articles_per_window.schema.metadata[b"linking"])

    def window_files(self) -> list[Path]:
        return [self.folder / f"window-{i:05d}.arrow" for i in range(self.buckets)]

    def pair_files(self) -> list[Path]:
        return [self.folder / f"pairs-{i:05d}.arrow" for i in range(self.buckets)]


class LinkingCounts:
    """How many argument mentions were linked, and how: counted over the extraction's triples
    (both arguments of each), with the commonest merges of a surface form into another name."""

    def __init__(self):
        self.mentions = self.typed = 0
        self.by = Counter()
        self.merges = Counter()

    def add(self, triples: pa.ChunkedArray | pa.Array) -> None:
        flat = pc.list_flatten(triples)
        if isinstance(flat, pa.ChunkedArray):
            flat = flat.combine_chunks()
        for role in ("subject", "object"):
            surface, name = flat.field(role), flat.field(f"{role}_entity_name")
            how = flat.field(f"{role}_linked_by")
            self.mentions += len(flat)
            self.typed += len(flat) - flat.field(f"{role}_entity_type").null_count
            for row in (
                pa.table({"how": how}).group_by("how").aggregate([("how", "count")]).to_pylist()
            ):
                self.by[row["how"]] += row["how_count"]
            merged = pa.table({"surface": surface, "name": name, "how": how}).filter(
                pc.not_equal(surface, name)
            )
            for row in (
                merged.group_by(["surface", "name", "how"])
                .aggregate([("how", "count")])
                .to_pylist()
            ):
                self.merges[(row["surface"], row["name"], row["how"])] += row["how_count"]

    def summary(self, examples: int = 12) -> dict:
        """Mentions, typed mentions, mentions per way of linking (``wordnet``, ``coreference``,
        ``acronym``, ``surface``), mentions whose name differs from their surface form
        (``merged``), and the commonest such merges of each way."""
        kinds = sorted({how for _, _, how in self.merges})
        return {
            "mentions": self.mentions,
            "typed": self.typed,
            "linked_by": dict(sorted(self.by.items())),
            "merged": sum(self.merges.values()),
            "examples": {
                how: [
                    {"surface": surface, "name": name, "mentions": count}
                    for (surface, name, _), count in sorted(
                        ((k, c) for k, c in self.merges.items() if k[2] == how),
                        key=lambda item: (-item[1], item[0]),
                    )[:examples]
                ]
                for how in kinds
            },
        }


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
    shards: Path,
    window_days: int,
    rows_per_bucket: int = 2_000_000,
    batch_articles: int = 20_000,
    linked: bool = True,
) -> Partitions:
    """Partition the extraction's triples by window, and their (predicate, pair) rows by hash
    (cached, written atomically); arguments are linked entities unless ``linked`` is False."""
    files = check_shards(shards)
    buckets = max(1, math.ceil(count_triples(files) / rows_per_bucket))
    key = fingerprint(
        "booqa_partitions",
        [str(f) for f in files],
        [f.stat().st_mtime_ns for f in files],
        window_days,
        buckets,
        linked,
    )
    folder = cache_root() / "booqa_partitions" / key
    folder.parent.mkdir(parents=True, exist_ok=True)
    # One writer at a time: a second build waits, then reads the first one's partitions instead
    # of removing the folder under it.
    with writer_lock(folder, wait=True):
        if not (folder / "articles.parquet").is_file():
            staging = folder.with_name(f"{key}.partial-{os.getpid()}")
            shutil.rmtree(staging, ignore_errors=True)
            _write_partitions(files, staging, window_days, buckets, batch_articles, linked)
            shutil.rmtree(folder, ignore_errors=True)
            os.replace(staging, folder)
    return Partitions(folder, buckets, pq.read_table(folder / "articles.parquet"))


def _write_partitions(
    files, folder: Path, window_days: int, buckets: int, batch: int, linked: bool
) -> None:
    flat_schema = flat_triples(ARTICLE_SCHEMA.empty_table(), window_days).schema
    pair_schema = pa.schema([flat_schema.field(n) for n in ("predicate", "a", "b")])
    by_window = BucketWriter(folder, "window", buckets, flat_schema)
    by_pair = BucketWriter(folder, "pairs", buckets, pair_schema)
    windows = []
    linking = LinkingCounts()
    total = sum(pq.ParquetFile(path).metadata.num_rows for path in files)
    with tqdm(total=total, unit="article", desc="Partitioning triples", mininterval=1.0) as bar:
        for path in files:
            for articles in pq.ParquetFile(path).iter_batches(batch_size=batch):
                windows.append(window_of(articles.column("date"), window_days))
                linking.add(articles.column("triples"))
                flat = flat_triples(articles, window_days, linked)
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
    counts = counts.replace_schema_metadata(
        {"triples": str(by_window.rows), "linking": json.dumps(linking.summary())}
    )
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
            predicate = dictionary_codes(rows["predicate"])
            coded = pa.table(
                {
                    "p": predicate.indices,
                    "a": dictionary_codes(rows["a"]).indices,
                    "b": dictionary_codes(rows["b"]).indices,
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
