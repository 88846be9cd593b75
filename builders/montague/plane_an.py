"""A Montague lexicon over PLANE's adjective lexicon: a larger vocabulary, independent of Appendix A.

Adjectives: PLANE's classes (§3.1) mapped to Carvalho et al.'s types (``type_of``), by class and
by the lexicon's note column:

- I (intersective) → subsective_intersective;
- S (subsective) → subsective_non_intersective, except the notes ``size`` and ``age`` →
  ambiguous (the paper's ambiguous adjectives are exactly *old*, *small* and *big*);
- O (intensional) with the notes ``privative`` or ``fictional`` → privative_non_subsective, and
  every other O adjective (``epistemic``, ``modal``, ``temporal``) → plain_non_subsective.

Each adjective's synonym is WordNet's: in its first adjective sense that has another lemma, the
lemma with the highest SemCor tag count (none if no sense has one).

Nouns: as many as Appendix A has (12), half concrete and half abstract, chosen from WordNet as
the pairs of nouns that are each other's first sense (so they are synonyms in their main sense)
with the highest SemCor count for the rarer of the two; the commoner is the noun, the other its
synonym. Words of Appendix A or of the adjective lexicon, words with an adjective sense (*kind*),
plurals (*steps*) and abbreviations or derivations (one word a prefix of the other,
*fig*/*figure*) are skipped.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from compsem.builders.montague.lexicon import NOUN, Entry, MontagueLexicon, load_lexicon
from compsem.files.fingerprint import cached_table, fingerprint
from compsem.resources.lexicon import default_lexicon_path, load_adjective_lexicon
from compsem.resources.wordnet import wordnet, wordnet_version

PRIVATIVE_NOTES = ("privative", "fictional")
AMBIGUOUS_NOTES = ("size", "age")
CONCRETE_LEXNAMES = (
    "noun.animal",
    "noun.artifact",
    "noun.body",
    "noun.food",
    "noun.object",
    "noun.person",
    "noun.plant",
    "noun.substance",
)
# Bumped whenever the choice of nouns or synonyms changes.
_REVISION = 1


def type_of(plane_class: str, note: str) -> str:
    """The paper's adjective type for a PLANE class (I, S, O) and lexicon note."""
    note = note.strip().lower()
    if plane_class == "I":
        return "subsective_intersective"
    if plane_class == "S":
        return "ambiguous" if note in AMBIGUOUS_NOTES else "subsective_non_intersective"
    return "privative_non_subsective" if note in PRIVATIVE_NOTES else "plain_non_subsective"


def _notes(path: Path) -> dict[str, str]:
    """The note column of a PLANE lexicon TSV (the class loader keeps only the classes)."""
    notes = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and not line.startswith("#"):
            notes[fields[0].strip().lower()] = fields[2]
    return notes


def _tag_counts(wn) -> dict[str, int]:
    """SemCor tag count per sense key, read once (Lemma.count() searches the file per call)."""
    counts = {}
    with wn.open("cntlist.rev") as handle:
        for line in handle:
            key, _, count = line.split()
            counts[key] = int(count)
    return counts


def adjective_synonym(wn, counts: dict[str, int], adjective: str) -> str | None:
    for synset in wn.synsets(adjective, "a"):
        others = [
            lemma
            for lemma in synset.lemmas()
            if lemma.name().lower() != adjective and lemma.name().replace("-", "").isalpha()
        ]
        if others:
            best = max(others, key=lambda lemma: counts.get(lemma.key(), 0))  # first on ties
            return best.name().replace("_", " ")
    return None


def _is_word(wn, name: str) -> bool:
    """A lowercase single word of three letters or more, in its base form (not *steps*)."""
    plural = name.endswith("s") and bool(wn.synsets(name[:-1], "n"))
    return name.isalpha() and name.islower() and len(name) >= 3 and not plural


def synonym_nouns(wn, counts: dict[str, int], exclude: set[str]) -> list[tuple]:
    """(rarer count, noun, synonym, lexname) for every noun synset whose two commonest lemmas are
    both single words whose first noun sense it is; commonest pairs first."""
    pairs = []
    for synset in wn.all_synsets("n"):
        lemmas = [
            (lemma.name(), counts.get(lemma.key(), 0))
            for lemma in synset.lemmas()
            if _is_word(wn, lemma.name()) and lemma.name() not in exclude
        ]
        lemmas = [
            (name, count)
            for name, count in lemmas
            if count > 0 and wn.synsets(name, "n")[0] == synset and not wn.synsets(name, "a")
        ]
        if len(lemmas) < 2:
            continue
        (noun, common), (synonym, rare) = sorted(lemmas, key=lambda x: (-x[1], x[0]))[:2]
        if noun.startswith(synonym) or synonym.startswith(noun):
            continue
        pairs.append((rare, noun, synonym, synset.lexname()))
    return sorted(pairs, key=lambda pair: (-pair[0], pair[1]))


def choose_nouns(pairs: list[tuple], size: int) -> list[tuple[str, str]]:
    """The first size/2 concrete and size - size/2 abstract pairs, no word used twice."""
    wanted = {True: size // 2, False: size - size // 2}
    chosen, used = [], set()
    for _, noun, synonym, lexname in pairs:
        concrete = lexname in CONCRETE_LEXNAMES
        if wanted[concrete] and not {noun, synonym} & used:
            chosen.append((noun, synonym))
            used |= {noun, synonym}
            wanted[concrete] -= 1
    if any(wanted.values()):
        raise RuntimeError(f"WordNet gave only {len(chosen)} of {size} synonym noun pairs")
    return chosen


def _compute(plane_path: Path, paper: MontagueLexicon) -> pa.Table:
    wn = wordnet()
    counts = _tag_counts(wn)
    classes = load_adjective_lexicon(plane_path).classes
    notes = _notes(plane_path)
    rows = [
        (
            adjective,
            type_of(klass, notes.get(adjective, "")),
            adjective_synonym(wn, counts, adjective),
        )
        for adjective, klass in classes.items()
    ]
    exclude = set(classes) | {
        word.lower() for e in paper.entries for word in (e.word, e.synonym or "")
    }
    nouns = choose_nouns(synonym_nouns(wn, counts, exclude), len(paper.nouns))
    rows += [(noun, NOUN, synonym) for noun, synonym in nouns]
    return pa.Table.from_pylist(
        [{"word": word, "type": kind, "synonym": synonym} for word, kind, synonym in rows]
    )


def plane_lexicon(plane_path: str | Path | None = None) -> MontagueLexicon:
    """The PLANE adjectives with mapped types and WordNet synonyms, and 12 WordNet nouns; the
    WordNet walk is cached as Parquet keyed by its inputs."""
    plane_path = Path(plane_path) if plane_path else default_lexicon_path()
    plane = load_adjective_lexicon(plane_path)  # validates the file, one clear error
    paper = load_lexicon()
    key = fingerprint(
        "montague_plane", plane.fingerprint, _notes(plane_path), paper.fingerprint,
        wordnet_version(), _REVISION,
    )  # fmt: skip
    table = cached_table("montague_plane_lexicon", key, lambda: _compute(plane_path, paper))
    entries = [Entry(**row) for row in table.to_pylist()]
    return MontagueLexicon(
        adjectives=tuple(e for e in entries if e.type != NOUN),
        nouns=tuple(e for e in entries if e.type == NOUN),
        source=f"{plane_path.name} + WordNet {wordnet_version()} nouns",
    )
