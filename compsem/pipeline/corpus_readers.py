"""datatrove readers for a corpus's files: plain text lines, JSON Lines, Parquet, ``datasets`` folders.

Each reader turns input files into ``Document`` objects, sharded by file across tasks, and says
where a bad record is (file and line, or row); only task 0 draws a document bar, with a total
where the files can be counted.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pyarrow.parquet as pq
from datatrove.pipeline.readers import HuggingFaceDatasetReader, ParquetReader
from datatrove.pipeline.readers.base import BaseDiskReader
from tqdm.auto import tqdm

from compsem.pipeline.runner import CorpusError

MOST_LINE = 64 * 1024 * 1024  # bytes of one document line: a longer one is not a document


def bounded_lines(handle, where: Callable[[], str]):
    """The lines of ``handle``, each read with at most ``MOST_LINE`` bytes: a file of one huge
    line (a disk image, /dev/zero's bytes) is one CorpusError at once, never read whole."""
    index = 0
    while line := handle.readline(MOST_LINE + 1):
        index += 1
        if len(line) > MOST_LINE:
            raise CorpusError(
                f"{where()}, line {index}: longer than {MOST_LINE // 1024 // 1024} MiB, which no "
                "document is (a binary file?); pass text with one document per line."
            )
        yield line


class FirstTaskProgress:
    """A reader mixin: only task 0 draws its document bar. Every task drawing its own made bars
    overwrite each other on one console line; the corpus is sharded evenly by file, so task 0's
    pace is the run's."""

    def run(self, data=None, rank: int = 0, world_size: int = 1):
        self.doc_progress = self.doc_progress and rank == 0
        return super().run(data, rank, world_size)


class CountedProgress(FirstTaskProgress):
    """A disk-reader mixin: task 0's document bar has a total (the documents of its files,
    counted before they are read: non-empty lines, or Parquet's row counts), so it shows an ETA;
    datatrove's own bar knows no total. Documents flow to the parser as they are read, so the
    bar moves at the parse's pace."""

    def count_documents(self, filepath: str) -> int:
        with self.data_folder.open(filepath, "rb", compression="infer") as handle:
            where = lambda: self.data_folder.resolve_paths(filepath)  # noqa: E731
            return sum(1 for line in bounded_lines(handle, where) if line.strip())

    def read_files_shard(self, shard: list[str]):
        if not self.doc_progress:
            yield from super().read_files_shard(shard)
            return
        self.doc_progress = False  # this bar replaces datatrove's
        total = max(0, sum(self.count_documents(path) for path in shard) - self.skip)
        if self.limit != -1:
            total = min(total, self.limit)
        with tqdm(total=total, desc="Document progress", unit="doc") as bar:
            for document in super().read_files_shard(shard):
                bar.update()
                yield document


class JsonlLinesReader(CountedProgress, BaseDiskReader):
    """datatrove's disk reader for JSON Lines, strict about malformed lines.

    datatrove's own ``JsonlReader`` skips a line it cannot decode with a warning (and needs
    ``orjson``); a benchmark built from a silently shortened corpus is wrong, so here a bad line is
    a :class:`CorpusError` naming the file and line. Everything else (sharding files by task,
    compression, adapters, ``limit``) is datatrove's.
    """

    name = "🐿 Jsonl (strict)"

    def read_file(self, filepath: str):
        with self.data_folder.open(filepath, "rt", compression="infer") as handle:
            where = lambda: self.data_folder.resolve_paths(filepath)  # noqa: E731
            for index, line in enumerate(bounded_lines(handle, where)):
                if not line.strip():
                    continue
                with self.track_time():
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as error:
                        raise CorpusError(
                            f"{self.data_folder.resolve_paths(filepath)}, line {index + 1}: not "
                            f"valid JSON ({error.msg}); write one JSON object per line."
                        ) from None
                    if not isinstance(record, dict):
                        raise CorpusError(
                            f"{self.data_folder.resolve_paths(filepath)}, line {index + 1}: not a "
                            "JSON object; write one object per line."
                        )
                    document = self.get_document_from_dict(record, filepath, index)
                if document:
                    yield document


class TextLinesReader(CountedProgress, BaseDiskReader):
    """datatrove's disk reader for plain text: one document per non-empty line, stripped."""

    name = "📄 Text lines"

    def read_file(self, filepath: str):
        with self.data_folder.open(filepath, "rb", compression="infer") as handle:
            where = lambda: self.data_folder.resolve_paths(filepath)  # noqa: E731
            for index, raw in enumerate(bounded_lines(handle, where)):
                try:
                    text = raw.decode("utf-8-sig" if index == 0 else "utf-8").strip()
                except UnicodeDecodeError as error:
                    raise CorpusError(
                        f"{self.data_folder.resolve_paths(filepath)}, line {index + 1}: byte "
                        f"0x{raw[error.start]:02x} is not UTF-8; convert the file to UTF-8 "
                        "(e.g. iconv -f latin1 -t utf-8)."
                    ) from None
                if not text:
                    continue
                with self.track_time():
                    document = self.get_document_from_dict({self.text_key: text}, filepath, index)
                if document:
                    yield document


class ParquetFileReader(CountedProgress, ParquetReader):
    """datatrove's Parquet reader, with one document bar per run."""

    def count_documents(self, filepath: str) -> int:
        with self.data_folder.open(filepath, "rb") as handle:
            return pq.ParquetFile(handle).metadata.num_rows


class SavedDatasetReader(FirstTaskProgress, HuggingFaceDatasetReader):
    """datatrove's reader of ``datasets`` folders, with one document bar per run."""


# File readers by name ending; the paths files they shard by are named after the first ending.
FILE_READERS = (
    ((".txt",), TextLinesReader),
    ((".jsonl", ".jsonl.gz"), JsonlLinesReader),
    ((".parquet",), ParquetFileReader),
)


def corpus_readers(
    root: Path,
    files: Sequence[Path],
    work: Path,
    adapter: Callable,
    saved_dataset: bool = False,
    text_key: str = "text",
) -> list:
    """datatrove readers for a corpus: ``files`` under ``root``, one reader per format that
    shards its files across tasks, or one reader for a ``save_to_disk`` folder at ``root``.

    The readers' path lists are written under ``work``, which every task must be able to reach.
    """
    if saved_dataset:
        return [
            SavedDatasetReader(
                str(root),
                load_from_disk=True,
                adapter=adapter,
                text_key=text_key,
                doc_progress=True,
            )
        ]
    readers = []
    for endings, reader in FILE_READERS:
        paths = [str(path.relative_to(root)) for path in files if path.name.endswith(endings)]
        if paths:
            paths_file = Path(work) / f"inputs-{endings[0].lstrip('.')}.txt"
            paths_file.write_text("\n".join(paths) + "\n")
            readers.append(
                reader(
                    str(root),
                    paths_file=str(paths_file),
                    adapter=adapter,
                    text_key=text_key,
                    doc_progress=True,
                )
            )
    return readers


def record_location(reader, path: str, id_in_file) -> str:
    """Where a reader found a record, for error messages: the file, then its line or row."""
    folder = getattr(reader, "data_folder", None)  # disk readers name files relative to it
    source = folder.resolve_paths(path) if folder is not None else path
    if isinstance(id_in_file, int) and not str(path).endswith(".parquet"):
        return f"{source}, line {id_in_file + 1}"
    return f"{source}, row {id_in_file}"
