"""The authors' harm-detection folder (``test.csv``: ``Index,Query,Label,keyword``;
``keyword_list.txt``) and each query's noun phrases whose head is a keyword, found with spaCy."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from compsem.resources.user_text import read_user_text
from compsem.text.articles import with_article

TASKS = ("spte", "epc", "llm", "always")  # the classifiers of ``compsem harm-detection``
COLUMNS = ("Index", "Query", "Label", "keyword")
LABELS = ("HARM", "GOOD")
QUERIES = "test.csv"
KEYWORDS = "keyword_list.txt"
# a phrase's leading words that are not part of what it names: the article is written anew
_DROPPED = {"DET", "PRON", "PUNCT", "PART", "NUM"}
_PLURAL = {"NNS", "NNPS"}


@dataclass(frozen=True)
class Query:
    index: str
    text: str
    harmful: bool
    keyword: str


@dataclass(frozen=True)
class KeywordPhrase:
    """A noun phrase of a query whose head matches a keyword: ``phrase`` its words from its
    first modifier to its head ("toy gun"), ``noun`` the keyword's words in it ("gun")."""

    phrase: str
    noun: str
    keyword: str

    @property
    def np(self) -> str:
        return with_article(self.phrase)

    @property
    def bare(self) -> str:
        return with_article(self.noun)


def normalised(text: str) -> str:
    """Lower case without spaces or punctuation: "A. K." and "ak-47" read as "ak", "ak47"."""
    return re.sub(r"[\W_]+", "", text.lower())


def read_keywords(path: Path) -> dict[str, str]:
    """The keyword list: normalised form -> keyword as written; one error if it is empty."""
    if not path.exists():
        raise ValueError(f"{path} does not exist: --data needs the release's {KEYWORDS}")
    keywords = {}
    for line in read_user_text(path, ValueError).splitlines():  # bounded, no control character
        if normalised(line):
            keywords.setdefault(normalised(line), line.strip())
    if not keywords:
        raise ValueError(f"{path} holds no keyword: give one harmful entity a line (gun, poison)")
    return keywords


def read_queries(path: Path) -> list[Query]:
    """The queries of a ``test.csv``; one error naming a missing column or an unknown label."""
    if not path.exists():
        raise ValueError(f"{path} does not exist: --data needs the release's {QUERIES}")
    text = read_user_text(path, ValueError)  # a regular file, bounded, no control character
    with io.StringIO(text, newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [name for name in COLUMNS if name not in (reader.fieldnames or ())]
        if missing:
            raise ValueError(
                f"{path} lacks the column {missing[0]!r}: make its first line the header "
                f"{','.join(COLUMNS)}"
            )
        queries = []
        for line, row in enumerate(reader, start=2):
            label = (row["Label"] or "").strip()
            if label not in LABELS:
                raise ValueError(f"{path} line {line}: unknown label {label!r}; use HARM or GOOD")
            text = (row["Query"] or "").strip()
            if not text:
                raise ValueError(f"{path} line {line}: the query is empty")
            queries.append(Query(row["Index"], text, label == "HARM", row["keyword"] or ""))
    if not queries:
        raise ValueError(f"{path} holds no query")
    if len({query.harmful for query in queries}) < 2:
        raise ValueError(
            f"{path} holds only {LABELS[not queries[0].harmful]} queries: "
            "precision and recall of HARM need both labels"
        )
    return queries


def parse_queries(nlp, texts: list[str]) -> list:
    """Each query parsed as a sentence: a how-to title ends without the full stop the parser's
    training sentences end with, and without it a small parser splits "a jump shot" in two."""
    return list(nlp.pipe(text if text[-1:] in ".?!" else f"{text}." for text in texts))


def noun_phrases(doc) -> list:
    """spaCy's noun chunks, and the phrases its tagger missed: a word a determiner modifies is
    a noun's head whatever its tag ("for a tattoo", "tattoo" tagged an adverb)."""
    chunks = list(doc.noun_chunks)
    inside = {token.i for chunk in chunks for token in chunk}
    for token in doc:
        determiners = [child for child in token.lefts if child.dep_ == "det"]
        if determiners and token.i not in inside and token.pos_ not in ("VERB", "AUX"):
            chunks.append(doc[determiners[0].i : token.i + 1])
    return sorted(chunks, key=lambda chunk: chunk.start)


def keyword_phrases(doc, keywords: dict[str, str]) -> list[KeywordPhrase]:
    """Every noun phrase of a parsed query whose head noun, alone or with the words before it
    (a multi-word keyword, "shop lift", whose first word the parser may leave outside the
    phrase), matches a keyword, by its text or, for the head, its lemma. The longest match
    wins; the phrase runs from its first word after any determiner to its head."""
    longest = max(len(keyword.split()) for keyword in keywords.values()) + 2
    found = []
    for chunk in noun_phrases(doc):
        head = chunk.root
        words = [t for t in chunk if t.i <= head.i]
        while len(words) > 1 and words[0].pos_ in _DROPPED:
            words = words[1:]
        matched = None
        for start in range(head.i, max(head.i - longest, -1), -1):  # the head alone first
            span = doc[start : head.i + 1]
            if start < words[0].i and any(t.pos_ in _DROPPED for t in span):
                break  # outside the phrase only a keyword's own words may join it
            forms = {
                normalised(span.text),
                normalised(" ".join([*(t.text for t in span[:-1]), head.lemma_])),
            }
            hit = next((keywords[form] for form in forms if form in keywords), None)
            if hit:
                matched = (start, hit)
        if matched:
            start, keyword = matched
            first = min(start, words[0].i)
            # a plural head in the singular: the sentences say "This is a rusty pistol."
            said = head.lemma_ if head.tag_ in _PLURAL else head.text
            phrase, noun = (
                " ".join([*(t.text for t in doc[at : head.i]), said]).lower()
                for at in (first, start)
            )
            found.append(KeywordPhrase(phrase, noun, keyword))
    return found
