"""Corpus readers: each yields documents (strings) in a fixed order, with a content fingerprint.

A corpus is named by a spec:

- ``wordnet_glosses``: WordNet 3.0's definitions and example sentences (the embedded default:
  real English text that is always available offline);
- a ``.txt`` file (one document per non-empty line);
- a ``.jsonl`` file (one JSON object per line, text in ``text_column``);
- a ``.parquet`` file (text in ``text_column``);
- a folder of such files (read in sorted order);
- a folder written by ``datasets.Dataset.save_to_disk`` (text in ``text_column``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from compsem.fingerprint import file_fingerprint, fingerprint

WORDNET_GLOSSES = "wordnet_glosses"
_SUFFIXES = (".txt", ".jsonl", ".parquet")


class CorpusError(ValueError):
    """A corpus cannot be read: the message names the file (and line) and what to do."""


@dataclass(frozen=True)
class Corpus:
    spec: str
    kind: str  # "wordnet_glosses" | "files" | "saved_dataset"
    files: tuple[Path, ...] = field(default=(), repr=False)
    text_column: str = "text"

    @property
    def fingerprint(self) -> str:
        if self.kind == WORDNET_GLOSSES:
            from compsem.resources.wordnet import wordnet_version

            return fingerprint(WORDNET_GLOSSES, wordnet_version())
        return fingerprint(self.text_column, [file_fingerprint(path) for path in self.files])

    def documents(self) -> Iterator[str]:
        if self.kind == WORDNET_GLOSSES:
            yield from wordnet_glosses()
        elif self.kind == "saved_dataset":
            yield from _saved_dataset_texts(Path(self.spec), self.text_column)
        else:
            for path in self.files:
                yield from _READERS[path.suffix](path, self.text_column)


def open_corpus(spec: str | Path, text_column: str = "text") -> Corpus:
    """Resolve a corpus spec; raises :class:`CorpusError` for anything unreadable."""
    spec = str(spec)
    if spec == WORDNET_GLOSSES:
        return Corpus(spec, WORDNET_GLOSSES)
    path = Path(spec)
    if _is_saved_dataset(path):
        return Corpus(spec, "saved_dataset", tuple(sorted(path.glob("*.arrow"))), text_column)
    if path.is_dir():
        files = tuple(sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES))
        if not files:
            raise CorpusError(f"Folder {path} holds no {', '.join(_SUFFIXES)} files.")
        return Corpus(spec, "files", files, text_column)
    if path.is_file() and path.suffix in _SUFFIXES:
        return Corpus(spec, "files", (path,), text_column)
    raise CorpusError(
        f"Cannot read corpus {spec!r}: give {WORDNET_GLOSSES!r}, a {'/'.join(_SUFFIXES)} file, a "
        "folder of them, or a folder saved with datasets' save_to_disk."
    )


def wordnet_glosses() -> Iterator[str]:
    """Every synset's definition, then its example sentences, in WordNet's file order."""
    from compsem.resources.wordnet import wordnet

    for synset in wordnet().all_synsets():
        yield synset.definition()
        yield from synset.examples()


def _text_lines(path: Path, text_column: str) -> Iterator[str]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield line.strip()


def _jsonl_texts(path: Path, text_column: str) -> Iterator[str]:
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise CorpusError(
                    f"{path}, line {number}: not valid JSON ({error.msg}); "
                    "write one JSON object per line."
                ) from None
            if not isinstance(record, dict) or not isinstance(record.get(text_column), str):
                raise CorpusError(
                    f"{path}, line {number}: no string field {text_column!r}; "
                    "pass --text-column to name the field that holds the text."
                )
            yield record[text_column]


def _parquet_texts(path: Path, text_column: str) -> Iterator[str]:
    parquet = pq.ParquetFile(path)
    if text_column not in parquet.schema_arrow.names:
        raise CorpusError(
            f"{path} has no column {text_column!r} (columns: {parquet.schema_arrow.names}); "
            "pass --text-column."
        )
    for batch in parquet.iter_batches(columns=[text_column], batch_size=10_000):
        yield from (text for text in batch.column(0).to_pylist() if text)


def _is_saved_dataset(path: Path) -> bool:
    return (
        path.is_dir() and (path / "dataset_info.json").is_file() and (path / "state.json").is_file()
    )


def _saved_dataset_texts(path: Path, text_column: str) -> Iterator[str]:
    from datasets import load_from_disk

    dataset = load_from_disk(str(path))
    if text_column not in dataset.column_names:
        raise CorpusError(
            f"Dataset {path} has no column {text_column!r} (columns: {dataset.column_names}); "
            "pass --text-column."
        )
    for batch in dataset.select_columns([text_column]).iter(batch_size=10_000):
        yield from (text for text in batch[text_column] if text)


_READERS = {".txt": _text_lines, ".jsonl": _jsonl_texts, ".parquet": _parquet_texts}
