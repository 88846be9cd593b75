"""The adjective lexicon: TSV rows `adjective<TAB>class[<TAB>note]`, classes of PLANE §3.1."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from compsem.files.fingerprint import fingerprint
from compsem.resources.user_text import read_user_text, require_file

ADJECTIVE_CLASSES = ("I", "S", "O")  # intersective, subsective, intensional
CLASS_NAMES = {"I": "intersective", "S": "subsective", "O": "intensional"}
# The original PLANE release writes subsective as "N" (non-intersective); accept it as S.
_CLASS_ALIASES = {"N": "S"}
HEADER = ("adjective", "class", "note")


class LexiconError(ValueError):
    """A lexicon file is malformed: the message names the file, the line and the fix."""


@dataclass(frozen=True)
class AdjectiveLexicon:
    classes: dict[str, str]  # adjective -> "I" | "S" | "O"
    source: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(sorted(self.classes.items()))

    def __len__(self) -> int:
        return len(self.classes)


def default_lexicon_path() -> Path:
    return Path(str(resources.files("compsem") / "data" / "plane_adjectives.tsv"))


def parse_adjective_lexicon(text: str, source: str) -> AdjectiveLexicon:
    classes: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.rstrip("\r").split("\t")
        if (
            not line.strip()
            or line.startswith("#")
            or tuple(f.lower() for f in fields)
            in (
                HEADER,
                HEADER[:2],
            )
        ):
            continue
        where = f"{source}, line {number}"
        if len(fields) not in (2, 3) or not fields[0].strip():
            raise LexiconError(
                f"{where}: expected 'adjective<TAB>class[<TAB>note]', got {line!r}. "
                "Separate the fields with one tab each."
            )
        adjective, label = fields[0].strip().lower(), fields[1].strip().upper()
        label = _CLASS_ALIASES.get(label, label)
        if label not in ADJECTIVE_CLASSES:
            raise LexiconError(
                f"{where}: unknown class {fields[1]!r} for {adjective!r}; use one of "
                "I (intersective), S (subsective) or O (intensional)."
            )
        if adjective in classes:
            raise LexiconError(
                f"{where}: {adjective!r} is listed again (first on line {first_line[adjective]}, "
                f"as {classes[adjective]}; here as {label}); keep one line per adjective."
            )
        classes[adjective] = label
        first_line[adjective] = number
    if not classes:
        raise LexiconError(f"{source} lists no adjectives.")
    return AdjectiveLexicon(classes=classes, source=source)


def load_adjective_lexicon(path: str | Path | None = None) -> AdjectiveLexicon:
    """The shipped lexicon, or a user's TSV file in the same format."""
    path = Path(path) if path is not None else default_lexicon_path()
    require_file(path, LexiconError, "pass a TSV file as the lexicon")
    return parse_adjective_lexicon(read_user_text(path, LexiconError), source=path.name)
