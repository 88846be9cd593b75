"""Text corpora for corpus extraction: a spec resolved to files, read by datatrove readers.

A corpus is named by a spec:

- ``wordnet_glosses``: WordNet 3.0's definitions and example sentences (the embedded default:
  real English text that is always available offline), written once to Parquet parts in the
  cache so that datatrove tasks can share them out by file;
- a ``.txt`` file (one document per non-empty line);
- a ``.jsonl`` file (one JSON object per line, text in ``text_column``);
- a ``.parquet`` file (text in ``text_column``);
- a folder of such files (read format by format, each in sorted order; datatrove tasks share out
  each format's files separately, so a corpus meant for many tasks is best one format);
- a folder written by ``datasets.Dataset.save_to_disk`` (text in ``text_column``).

:meth:`Corpus.readers` gives the datatrove readers of a pipeline; :meth:`Corpus.documents` reads
the same texts in this process.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from compsem.fingerprint import cache_root, file_fingerprint, fingerprint
from compsem.pipeline import CorpusError, corpus_readers, record_location
from compsem.resources.wordnet import wordnet, wordnet_version

WORDNET_GLOSSES = "wordnet_glosses"
GLOSS_PARTS = 16
_SUFFIXES = (".txt", ".jsonl", ".parquet")


@dataclass(frozen=True)
class Corpus:
    """A resolved corpus spec: its files (or saved dataset) and a content fingerprint."""

    spec: str
    root: Path | None = None  # None for wordnet_glosses, whose files are written on first use
    files: tuple[Path, ...] = field(default=(), repr=False)
    text_column: str = "text"
    saved_dataset: bool = False

    @cached_property
    def fingerprint(self) -> str:
        """A hash of the corpus's content (every file read once), or of WordNet's version."""
        if self.spec == WORDNET_GLOSSES:
            return fingerprint(WORDNET_GLOSSES, wordnet_version())
        return fingerprint(self.text_column, [file_fingerprint(path) for path in self.files])

    def readers(self, work: Path) -> list:
        """datatrove readers of the corpus, sharding its files across tasks; their path lists
        are written under ``work``."""
        root, files = (self.root, self.files)
        if self.spec == WORDNET_GLOSSES:
            root = gloss_folder(self.fingerprint)
            files = tuple(sorted(root.glob("*.parquet")))
        return corpus_readers(
            root, files, work, text_adapter, self.saved_dataset, text_key=self.text_column
        )

    def documents(self) -> Iterator[str]:
        """The corpus's texts, in reading order, through the same readers as a pipeline."""
        with tempfile.TemporaryDirectory(prefix="compsem-corpus-") as work:
            data = None
            for reader in self.readers(Path(work)):
                data = reader.run(data)
            for document in data or ():
                yield document.text


def open_corpus(spec: str | Path, text_column: str = "text") -> Corpus:
    """Resolve a corpus spec; raises :class:`CorpusError` for anything unreadable."""
    spec = str(spec)
    if spec == WORDNET_GLOSSES:
        return Corpus(spec)
    path = Path(spec)
    if is_saved_dataset(path):
        return Corpus(spec, path, tuple(sorted(path.glob("*.arrow"))), text_column, True)
    if path.is_dir():
        files = tuple(sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES))
        if not files:
            raise CorpusError(f"Folder {path} holds no {', '.join(_SUFFIXES)} files.")
        return Corpus(spec, path, files, text_column)
    if path.is_file() and path.suffix in _SUFFIXES:
        return Corpus(spec, path.parent, (path,), text_column)
    raise CorpusError(
        f"Cannot read corpus {spec!r}: give {WORDNET_GLOSSES!r}, a {'/'.join(_SUFFIXES)} file, a "
        "folder of them, or a folder saved with datasets' save_to_disk."
    )


def is_saved_dataset(path: Path) -> bool:
    """Whether ``path`` is a folder written by ``datasets.Dataset.save_to_disk``."""
    return (
        path.is_dir() and (path / "dataset_info.json").is_file() and (path / "state.json").is_file()
    )


def text_adapter(self, data: dict, path: str, id_in_file) -> dict:
    """datatrove adapter: a record's text (field ``text_key``) as a Document; a record without
    that field is an error, not a skipped document."""
    text = data.get(self.text_key)
    if self.text_key not in data or not isinstance(text, str | None):
        raise CorpusError(
            f"{record_location(self, path, id_in_file)}: no text field {self.text_key!r} (fields: "
            f"{sorted(data)}); pass --text-column to name the field that holds the text."
        )
    return {"text": text or "", "id": f"{path}/{id_in_file}"}


def wordnet_glosses() -> Iterator[str]:
    """Every synset's definition, then its example sentences, in WordNet's file order."""
    for synset in wordnet().all_synsets():
        yield synset.definition()
        yield from synset.examples()


def gloss_folder(key: str) -> Path:
    """WordNet's glosses as GLOSS_PARTS contiguous Parquet parts (``text``), written once per
    WordNet version under the cache and moved into place whole."""
    folder = cache_root() / WORDNET_GLOSSES / key
    if folder.is_dir():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f"{key}.", suffix=".partial", dir=folder.parent))
    try:
        texts = list(wordnet_glosses())
        size = -(-len(texts) // GLOSS_PARTS)
        for part in range(GLOSS_PARTS):
            chunk = texts[part * size : (part + 1) * size]
            pq.write_table(pa.table({"text": chunk}), partial / f"part-{part:02d}.parquet")
        os.replace(partial, folder)
    except OSError:
        if not folder.is_dir():  # another process may have moved its copy in first
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder
