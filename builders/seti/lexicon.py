"""The lexicons behind SETI: embedding verbs with their veridicality (Appendix A) and the
source-sentence lexicon of nouns and verbs, with selectional classes and WordNet relations.

Both are TSV files shipped in this package's ``data/`` folder that a user may replace with their own.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from itertools import product
from pathlib import Path

from compsem.files.fingerprint import fingerprint
from compsem.resources.user_text import read_user_text, require_file
from compsem.resources.wordnet import lexnames_text, wordnet

VERB_CLASSES = ("veridical", "non_veridical")
FRAMES = ("transitive", "intransitive")
# Relations that make a substitution an entailment, and those that make it a non-entailment.
ENTAILING_RELATIONS = ("synonym", "hypernym")
NON_ENTAILING_RELATIONS = ("antonym", "co_hyponym")
# Co-hyponyms share a hypernym at most this many edges above each of them (dog, cat: carnivore).
CO_HYPONYM_DISTANCE = 2
# Verb hierarchies drift fast (drive > operate > manipulate > handle > touch): verb hypernyms
# count only this close. Noun hypernyms count at any distance (cat > … > animal).
VERB_HYPERNYM_DISTANCE = 3


class SetiLexiconError(ValueError):
    """A SETI lexicon file is malformed: the message names the file, the line and the fix."""


@dataclass(frozen=True)
class EmbeddingVerbs:
    """Complement-embedding verbs ("Someone realizes that s") and their veridicality class."""

    classes: dict[str, str]  # verb -> veridical | non_veridical
    source: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(sorted(self.classes.items()))

    def of_class(self, verb_class: str) -> list[str]:
        return sorted(verb for verb, klass in self.classes.items() if klass == verb_class)


@dataclass(frozen=True)
class Noun:
    word: str
    synset: str
    also: tuple[str, ...] = ()  # hypernyms usage adds to WordNet's (boy: child.n.01)

    @property
    def sense(self) -> tuple[str, tuple[str, ...]]:
        return self.synset, self.also


@dataclass(frozen=True)
class Verb:
    word: str
    synset: str
    frame: str
    subject: tuple[str, ...]
    object: tuple[str, ...]
    also: tuple[str, ...] = ()

    @property
    def sense(self) -> tuple[str, tuple[str, ...]]:
        return self.synset, self.also


@dataclass(frozen=True)
class SentenceLexicon:
    nouns: tuple[Noun, ...]
    verbs: tuple[Verb, ...]
    source: str

    @property
    def fingerprint(self) -> str:
        return fingerprint([list(map(repr, self.nouns)), list(map(repr, self.verbs))])

    def noun(self, word: str) -> Noun:
        return self._nouns[word]

    def verb(self, word: str) -> Verb:
        return self._verbs[word]

    @functools.cached_property
    def _nouns(self) -> dict[str, Noun]:
        return {noun.word: noun for noun in self.nouns}

    @functools.cached_property
    def _verbs(self) -> dict[str, Verb]:
        return {verb.word: verb for verb in self.verbs}


def _data_path(name: str) -> Path:
    return Path(str(resources.files(__package__) / "data" / name))


def _rows(path: Path, header: tuple[str, ...]):
    """(line number, fields) of the data lines of a TSV file, comments and header skipped."""
    require_file(path, SetiLexiconError, "pass a TSV file as the lexicon")
    for number, line in enumerate(read_user_text(path, SetiLexiconError).splitlines(), start=1):
        fields = [field.strip() for field in line.rstrip("\r").split("\t")]
        if not line.strip() or line.startswith("#") or tuple(fields[: len(header)]) == header:
            continue
        yield number, fields


def load_embedding_verbs(path: str | Path | None = None) -> EmbeddingVerbs:
    """The paper's 30 verbs (the shipped ``seti_verbs.tsv``) or a user's ``verb<TAB>class`` TSV."""
    path = Path(path) if path is not None else _data_path("seti_verbs.tsv")
    classes: dict[str, str] = {}
    for number, fields in _rows(path, ("verb", "class")):
        where = f"{path.name}, line {number}"
        if len(fields) != 2 or not fields[0].isalpha() or not fields[0].islower():
            raise SetiLexiconError(
                f"{where}: expected 'verb<TAB>class' with a lowercase verb lemma, got "
                f"{fields!r}. Separate the fields with one tab."
            )
        verb, klass = fields
        if klass not in VERB_CLASSES:
            raise SetiLexiconError(
                f"{where}: unknown verb class {klass!r} for {verb!r}; use one of "
                f"{', '.join(VERB_CLASSES)}."
            )
        if classes.setdefault(verb, klass) != klass:
            raise SetiLexiconError(f"{where}: {verb!r} is listed as {classes[verb]} and {klass}.")
    missing = [klass for klass in VERB_CLASSES if klass not in classes.values()]
    if missing:
        raise SetiLexiconError(
            f"{path.name} lists no {' or '.join(missing)} verbs; SETI needs both classes."
        )
    return EmbeddingVerbs(classes=classes, source=path.name)


def _synset(name: str, pos: str, where: str):
    from nltk.corpus.reader.wordnet import WordNetError  # NLTK takes seconds to import

    try:
        synset = wordnet().synset(name)
    except (WordNetError, ValueError):
        synset = None
    if synset is None or synset.pos() != pos:
        raise SetiLexiconError(f"{where}: {name!r} is not a WordNet 3.0 synset of pos {pos!r}.")
    return synset


def _check_class(name: str, where: str) -> None:
    if name.startswith("noun."):
        if name not in known_supersenses():
            raise SetiLexiconError(f"{where}: unknown WordNet supersense {name!r}.")
    else:
        _synset(name, "n", where)


@functools.cache
def known_supersenses() -> frozenset[str]:
    return frozenset(line.split("\t")[1] for line in lexnames_text().splitlines())


def load_sentence_lexicon(path: str | Path | None = None) -> SentenceLexicon:
    """The shipped ``seti_lexicon.tsv`` or a user's file in its format (see its header)."""
    path = Path(path) if path is not None else _data_path("seti_lexicon.tsv")
    nouns, verbs, seen = [], [], set()
    for number, fields in _rows(path, ("word", "pos", "synset")):
        where = f"{path.name}, line {number}"
        if len(fields) < 3 or fields[1] not in ("n", "v"):
            raise SetiLexiconError(
                f"{where}: expected 'word<TAB>n|v<TAB>synset[<TAB>also[<TAB>frame<TAB>subject"
                f"<TAB>object]]', got {fields!r}."
            )
        fields = fields + [""] * (7 - len(fields))
        word, pos, name = fields[:3]
        synset = _synset(name, pos, where)
        if word not in {lemma.name().lower() for lemma in synset.lemmas()}:
            raise SetiLexiconError(f"{where}: {word!r} is not a lemma of {name}.")
        if (word, pos) in seen:
            raise SetiLexiconError(f"{where}: {word!r} ({pos}) is listed twice.")
        seen.add((word, pos))
        also = tuple(_synset(extra, pos, where).name() for extra in _classes(fields[3]))
        if pos == "n":
            nouns.append(Noun(word, name, also))
            continue
        frame, subject, object_ = fields[4], _classes(fields[5]), _classes(fields[6])
        if frame not in FRAMES or not subject or (frame == "transitive") != bool(object_):
            raise SetiLexiconError(
                f"{where}: verb {word!r} needs a frame ({' or '.join(FRAMES)}), subject classes "
                "and, for transitive verbs only, object classes."
            )
        for klass in subject + object_:
            _check_class(klass, where)
        verbs.append(Verb(word, name, frame, subject, object_, also))
    if not nouns or not verbs:
        raise SetiLexiconError(f"{path.name} must list nouns and verbs.")
    return SentenceLexicon(nouns=tuple(nouns), verbs=tuple(verbs), source=path.name)


def _classes(field: str) -> tuple[str, ...]:
    return tuple(name for name in field.split("|") if name)


@functools.cache
def _synset_ancestors(name: str) -> dict[str, int]:
    """Every hypernym (and instance hypernym) of a synset at its shortest distance; itself at 0."""
    synset = wordnet().synset(name)
    found = {synset.name(): 0}
    frontier = [synset]
    for distance in range(1, 100):
        frontier = [
            parent
            for child in frontier
            for parent in child.hypernyms() + child.instance_hypernyms()
            if parent.name() not in found
        ]
        if not frontier:
            break
        for parent in frontier:
            found.setdefault(parent.name(), distance)
    return found


def _ancestors(sense) -> dict[str, int]:
    """A sense's ancestors: its synset's, and those of its ``also`` synsets one edge up."""
    synset, also = sense if isinstance(sense, tuple) else (sense, ())
    found = dict(_synset_ancestors(synset))
    for extra in also:
        for name, distance in _synset_ancestors(extra).items():
            found[name] = min(found.get(name, distance + 1), distance + 1)
    return found


def in_class(sense, klass: str) -> bool:
    """Whether a noun sense satisfies a selectional class (a supersense or an ancestor)."""
    synset = sense[0] if isinstance(sense, tuple) else sense
    if klass.startswith("noun."):
        return wordnet().synset(synset).lexname() == klass
    return klass in _ancestors(sense)


def fits(noun: Noun, classes: tuple[str, ...]) -> bool:
    return any(in_class(noun.sense, klass) for klass in classes)


def _antonyms(a: str, b: str) -> bool:
    lemmas_b = set(wordnet().synset(b).lemmas())
    return any(
        antonym in lemmas_b
        for lemma in wordnet().synset(a).lemmas()
        for antonym in lemma.antonyms()
    )


@functools.cache
def relation(a, b) -> str | None:
    """The WordNet relation that substituting sense ``b`` for ``a`` instantiates, or None.

    A sense is a synset name or (synset, also-synsets). ``synonym`` (same synset) and
    ``hypernym`` (b above a; for verbs at most VERB_HYPERNYM_DISTANCE above) make the
    substitution an entailment; ``antonym`` and ``co_hyponym`` (same supersense, neither above
    the other, a shared hypernym within CO_HYPONYM_DISTANCE of both) a non-entailment. Hyponyms
    (b below a), unique beginners (noun.Tops: person, animal) as co-hyponyms and unrelated
    words give None: they are not used."""
    synset_a = a[0] if isinstance(a, tuple) else a
    synset_b = b[0] if isinstance(b, tuple) else b
    if synset_a == synset_b:
        return "synonym"
    up_a, up_b = _ancestors(a), _ancestors(b)
    if synset_b in up_a:
        limit = VERB_HYPERNYM_DISTANCE if wordnet().synset(synset_a).pos() == "v" else None
        return "hypernym" if limit is None or up_a[synset_b] <= limit else None
    if synset_a in up_b:
        return None
    if _antonyms(synset_a, synset_b):
        return "antonym"
    lexname = wordnet().synset(synset_a).lexname()
    if lexname != wordnet().synset(synset_b).lexname() or lexname == "noun.Tops":
        return None
    shared = set(up_a) & set(up_b)
    if any(max(up_a[s], up_b[s]) <= CO_HYPONYM_DISTANCE for s in shared):
        return "co_hyponym"
    return None


def substitutions(words: dict) -> dict[str, list[tuple[str, str]]]:
    """For each word (word -> sense), the (other word, relation) substitutions WordNet licenses."""
    found: dict[str, list[tuple[str, str]]] = {word: [] for word in words}
    for (a, sense_a), (b, sense_b) in product(words.items(), repeat=2):
        if a != b and (kind := relation(sense_a, sense_b)) is not None:
            found[a].append((b, kind))
    return found
