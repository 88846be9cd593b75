"""The lexicons of the Montague consistency benchmark (Carvalho et al., Appendix A).

A lexicon is a TSV ``word<TAB>type<TAB>synonym``: adjectives of the paper's five types and nouns
(type ``noun``), each with one synonym (the paper chose the closest one for every word). The
shipped ``montague_lexicon.tsv`` is Appendix A as printed: 61 adjectives and 12 nouns, in the
paper's order and spelling (``occurence``, ``ex-``, ``Canadian``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from compsem.files.fingerprint import fingerprint
from compsem.resources.user_text import read_user_text, require_file

# The paper's adjective types (§2.2, Table 1), in its column order, with its shorthand.
ADJECTIVE_TYPES = (
    "subsective_intersective",
    "subsective_non_intersective",
    "plain_non_subsective",
    "privative_non_subsective",
    "ambiguous",
)
TYPE_CODES = {
    "subsective_intersective": "S-I",
    "subsective_non_intersective": "S-NI",
    "plain_non_subsective": "NS-Pl",
    "privative_non_subsective": "NS-Pr",
    "ambiguous": "A",
}
NOUN = "noun"
HEADER = ("word", "type", "synonym")
# Also accepted in a lexicon's type column: the shorthand, and Appendix A's headings.
_TYPE_ALIASES = {
    **{code.lower(): name for name, code in TYPE_CODES.items()},
    "subsective (intersective)": "subsective_intersective",
    "subsective (non-intersective)": "subsective_non_intersective",
    "plain non-subsective": "plain_non_subsective",
    "privative non-subsective": "privative_non_subsective",
    "nouns": NOUN,
}


class MontagueLexiconError(ValueError):
    """A lexicon file is malformed or unusable: the message names the file, the line and the fix."""


@dataclass(frozen=True)
class Entry:
    word: str
    type: str  # one of ADJECTIVE_TYPES, or "noun"
    synonym: str | None


@dataclass(frozen=True)
class MontagueLexicon:
    """Adjectives and nouns in file order, each with its type and synonym."""

    adjectives: tuple[Entry, ...]
    nouns: tuple[Entry, ...]
    source: str

    @property
    def entries(self) -> tuple[Entry, ...]:
        return self.adjectives + self.nouns

    @property
    def fingerprint(self) -> str:
        """Of the entries as a set: an export's ``lexicon`` config, whose rows are shuffled,
        gives the same fingerprint (how shipped reference scores are matched to a dataset)."""
        return fingerprint(sorted((e.word, e.type, e.synonym) for e in self.entries))

    def type_counts(self) -> dict[str, int]:
        """Adjectives per type, in the paper's type order (types with none left out)."""
        counts = {kind: 0 for kind in ADJECTIVE_TYPES}
        for entry in self.adjectives:
            counts[entry.type] += 1
        return {kind: count for kind, count in counts.items() if count}


def default_lexicon_path() -> Path:
    return Path(str(resources.files(__package__) / "data" / "montague_lexicon.tsv"))


def _type_name(raw: str, where: str, word: str) -> str:
    name = raw.strip().lower()
    name = _TYPE_ALIASES.get(name, name.replace("-", "_").replace(" ", "_"))
    if name not in (*ADJECTIVE_TYPES, NOUN):
        raise MontagueLexiconError(
            f"{where}: unknown type {raw!r} for {word!r}; use one of {', '.join(ADJECTIVE_TYPES)} "
            f"(or S-I, S-NI, NS-Pl, NS-Pr, A) for adjectives and 'noun' for nouns."
        )
    return name


def parse_lexicon(text: str, source: str) -> MontagueLexicon:
    """Parse ``word<TAB>type[<TAB>synonym]`` lines; blank lines, ``#`` comments and the header
    are skipped. A word may occur once; it needs at least one adjective and one noun."""
    entries: dict[str, Entry] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        fields = [field.strip() for field in line.rstrip("\r").split("\t")]
        if not line.strip() or line.startswith("#") or tuple(f.lower() for f in fields) == HEADER:
            continue
        where = f"{source}, line {number}"
        if len(fields) not in (2, 3) or not fields[0]:
            raise MontagueLexiconError(
                f"{where}: expected 'word<TAB>type[<TAB>synonym]', got {line!r}. Separate the "
                "fields with one tab each."
            )
        word = fields[0]
        if len(word.split()) != 1:
            raise MontagueLexiconError(
                f"{where}: {word!r} is not one word: phrases are words joined by spaces, so a "
                "word must not contain spaces (synonyms may)."
            )
        if word in entries:
            raise MontagueLexiconError(
                f"{where}: {word!r} is listed twice; keep one line (one type) per word."
            )
        synonym = fields[2] if len(fields) == 3 and fields[2] else None
        entries[word] = Entry(word, _type_name(fields[1], where, word), synonym)
    adjectives = tuple(e for e in entries.values() if e.type != NOUN)
    nouns = tuple(e for e in entries.values() if e.type == NOUN)
    if not adjectives or not nouns:
        missing = "adjectives" if not adjectives else "nouns (type 'noun')"
        raise MontagueLexiconError(
            f"{source} lists no {missing}: a Montague lexicon needs at least one adjective and "
            "one noun, one 'word<TAB>type<TAB>synonym' line each."
        )
    return MontagueLexicon(adjectives, nouns, source)


def load_lexicon(path: str | Path | None = None) -> MontagueLexicon:
    """The shipped Appendix A lexicon, or a user's TSV file in the same format."""
    path = Path(path) if path is not None else default_lexicon_path()
    require_file(path, MontagueLexiconError, "pass a 'word<TAB>type<TAB>synonym' TSV file")
    return parse_lexicon(read_user_text(path, MontagueLexiconError), source=path.name)
