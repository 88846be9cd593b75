"""SICK-like source sentences and the natural inferences PI_nat between them (SETI §3.1).

Source sentences are present-progressive clauses ("A man is eating a pizza", "A pizza is being
eaten by a man", "A dog is running") over the SETI lexicon, whose subjects and objects satisfy
the verb's selectional classes. From each, natural inferences s → s′ are derived:

- lexical (``lex``): one word replaced by a WordNet synonym or hypernym (entailment) or by a
  co-hyponym or antonym (non-entailment), the new word again fitting the verb;
- structural (``stru``): the other voice with the same arguments (entailment), against the other
  voice with the arguments swapped or with a co-hyponym/antonym verb, a different event
  (non-entailment).

Every sentence is parsed with spaCy and kept only when the parse has the intended structure
(subject, progressive verb, object; ``nsubjpass``/``auxpass``/``agent`` for passives), which
also checks the inflections.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from tqdm.auto import tqdm

from compsem.builders.seti.lexicon import (
    ENTAILING_RELATIONS,
    NON_ENTAILING_RELATIONS,
    SentenceLexicon,
    fits,
    substitutions,
)
from compsem.files.fingerprint import row_id
from compsem.text.articles import with_article
from compsem.text.inflection import past_participle, present_participle

VOICES = ("active", "passive")
NAT_PAIR_SCHEMA = pa.schema(
    [
        ("s_id", pa.string()),
        ("s_prime_id", pa.string()),
        ("s", pa.string()),
        ("s_prime", pa.string()),
        ("nat_type", pa.string()),
        ("nat_label", pa.int8()),
        ("nat_relation", pa.string()),
        ("nat_rule", pa.string()),
    ]
)
SENTENCE_SCHEMA = pa.schema(
    [
        ("sentence_id", pa.string()),
        ("sentence", pa.string()),
        ("subject", pa.string()),
        ("verb", pa.string()),
        ("object", pa.string()),
        ("voice", pa.string()),
        ("source", pa.bool_()),
        ("parsed", pa.bool_()),
    ]
)


def sentence_id(text: str) -> str:
    return row_id("seti-sentence", text)


@dataclass(frozen=True)
class Clause:
    """Agent ``subject``, ``verb`` lemma, patient ``object`` (None: intransitive), ``voice``."""

    subject: str
    verb: str
    object: str | None = None
    voice: str = "active"

    def text(self) -> str:
        if self.voice == "passive":
            return (
                f"{with_article(self.object, capitalise=True)} is being "
                f"{past_participle(self.verb)} by {with_article(self.subject)}"
            )
        words = [with_article(self.subject, capitalise=True), "is", present_participle(self.verb)]
        if self.object is not None:
            words.append(with_article(self.object))
        return " ".join(words)

    def replace(self, **changes) -> Clause:
        return dataclasses.replace(self, **changes)

    @property
    def other_voice(self) -> str:
        return VOICES[1 - VOICES.index(self.voice)]


def clause_frame(doc) -> tuple[str, str, str, str | None, str] | None:
    """(subject, verb form, verb lemma, object, voice) of a parsed simple clause, by head words
    (the agent is the subject of a passive, the passive subject its object); None when the
    parse is not a progressive clause."""
    roots = [token for token in doc if token.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].tag_ not in ("VBG", "VBN"):
        return None
    root = roots[0]
    deps = {}
    for child in root.children:
        deps.setdefault(child.dep_, child)
    if root.tag_ == "VBN" and "nsubjpass" in deps and "auxpass" in deps:
        agent = deps.get("agent")
        objects = [c for c in agent.children if c.dep_ == "pobj"] if agent is not None else []
        if not objects:
            return None
        subject, object_ = objects[0].text.lower(), deps["nsubjpass"].text.lower()
        return subject, root.text.lower(), root.lemma_.lower(), object_, "passive"
    if root.tag_ == "VBG" and "nsubj" in deps and "aux" in deps:
        object_ = deps["dobj"].text.lower() if "dobj" in deps else None
        return deps["nsubj"].text.lower(), root.text.lower(), root.lemma_.lower(), object_, "active"
    return None


def parses_as(frame, clause: Clause) -> bool:
    """Whether the parser read the sentence with the structure it was generated with."""
    if frame is None:
        return False
    form = past_participle(clause.verb) if clause.voice == "passive" else None
    form = form or present_participle(clause.verb)
    return frame[:2] == (clause.subject, form) and frame[3:] == (clause.object, clause.voice)


def compatible_clauses(lexicon: SentenceLexicon) -> list[Clause]:
    """Every active clause whose subject and object fit the verb's classes, sorted."""
    clauses = []
    for verb in lexicon.verbs:
        subjects = [noun.word for noun in lexicon.nouns if fits(noun, verb.subject)]
        if verb.frame == "intransitive":
            clauses.extend(Clause(subject, verb.word) for subject in subjects)
            continue
        objects = [noun.word for noun in lexicon.nouns if fits(noun, verb.object)]
        clauses.extend(
            Clause(subject, verb.word, object_)
            for subject in subjects
            for object_ in objects
            if lexicon.noun(subject).synset != lexicon.noun(object_).synset
        )
    return sorted(clauses, key=lambda c: (c.verb, c.subject, c.object or ""))


def check_sentence_capacity(lexicon: SentenceLexicon, wanted: int) -> None:
    """One ValueError when the lexicon licenses fewer distinct source sentences than
    ``wanted`` (``--sentences``): a size that cannot be made is refused, not silently cut."""
    made = len(compatible_clauses(lexicon))
    if wanted > made:
        raise ValueError(
            f"--sentences {wanted:,} is more than the {made:,} distinct source sentences the "
            f"lexicon {lexicon.source} licenses; pass --sentences {made} or less, or a larger "
            "lexicon (--lexicon)."
        )


def sample_sources(
    clauses: list[Clause], n: int, passive_share: float, rng: np.random.Generator
) -> list[Clause]:
    """``n`` clauses, verbs taken in turn so every verb is used; transitive ones passive with
    probability ``passive_share``."""
    by_verb: dict[str, list[Clause]] = {}
    for clause in clauses:
        by_verb.setdefault(clause.verb, []).append(clause)
    queues = {
        verb: [group[i] for i in rng.permutation(len(group))] for verb, group in by_verb.items()
    }
    chosen = []
    while len(chosen) < n and any(queues.values()):
        for verb in sorted(queues):
            if queues[verb] and len(chosen) < n:
                chosen.append(queues[verb].pop())
    passive = rng.random(len(chosen)) < passive_share
    return [
        clause.replace(voice="passive") if flip and clause.object is not None else clause
        for clause, flip in zip(chosen, passive, strict=True)
    ]


@dataclass(frozen=True)
class Candidate:
    s_prime: Clause
    nat_type: str
    relation: str
    rule: str

    @property
    def label(self) -> int:
        return int(
            self.relation in ENTAILING_RELATIONS + ("active_to_passive", "passive_to_active")
        )


class PairGenerator:
    """The lexical and structural inferences the lexicon licenses from one clause."""

    def __init__(self, lexicon: SentenceLexicon):
        self.lexicon = lexicon
        self.noun_subs = substitutions({noun.word: noun.sense for noun in lexicon.nouns})
        self.verb_subs = substitutions({verb.word: verb.sense for verb in lexicon.verbs})

    def _fits(self, verb: str, subject: str, object_: str | None) -> bool:
        entry = self.lexicon.verb(verb)
        if (object_ is None) != (entry.frame == "intransitive"):
            return False
        subject_ok = fits(self.lexicon.noun(subject), entry.subject)
        return subject_ok and (object_ is None or fits(self.lexicon.noun(object_), entry.object))

    def _distinct(self, clause: Clause) -> bool:
        """Subject and object name different things (not "a child is pushing a kid")."""
        if clause.object is None:
            return True
        return self.lexicon.noun(clause.subject).synset != self.lexicon.noun(clause.object).synset

    def lexical(self, clause: Clause) -> list[Candidate]:
        found = []
        slots = [("subject", clause.subject), ("object", clause.object)]
        for slot, word in slots:
            for other, relation in self.noun_subs.get(word, []) if word else []:
                new = clause.replace(**{slot: other})
                if self._fits(new.verb, new.subject, new.object) and self._distinct(new):
                    found.append(Candidate(new, "lex", relation, f"{word} → {other}"))
        for other, relation in self.verb_subs[clause.verb]:
            if self._fits(other, clause.subject, clause.object):
                found.append(
                    Candidate(
                        clause.replace(verb=other), "lex", relation, f"{clause.verb} → {other}"
                    )
                )
        return found

    def structural(self, clause: Clause) -> list[Candidate]:
        if clause.object is None:
            return []
        voice, other = clause.voice, clause.other_voice
        found = [
            Candidate(
                clause.replace(voice=other),
                "stru",
                f"{voice}_to_{other}",
                f"{clause.verb}: {voice} → {other}",
            )
        ]
        if self._fits(clause.verb, clause.object, clause.subject):
            swapped = Clause(clause.object, clause.verb, clause.subject, other)
            found.append(
                Candidate(swapped, "stru", "argument_swap", f"{clause.verb}: argument swap")
            )
        for verb, relation in self.verb_subs[clause.verb]:
            if relation in NON_ENTAILING_RELATIONS and self._fits(
                verb, clause.subject, clause.object
            ):
                rule = f"{clause.verb} → {verb}: {voice} → {other}"
                found.append(
                    Candidate(
                        clause.replace(verb=verb, voice=other), "stru", "different_event", rule
                    )
                )
        return found

    def choose(self, clause: Clause, rng: np.random.Generator) -> list[Candidate]:
        """One entailment and one non-entailment of each type, where the lexicon has them."""
        chosen = []
        for candidates in (self.lexical(clause), self.structural(clause)):
            for label in (1, 0):
                options = [c for c in candidates if c.label == label]
                if options:
                    chosen.append(options[int(rng.integers(len(options)))])
        return chosen


def parse_frames(texts: list[str], nlp, batch_size: int = 256) -> list:
    docs = nlp.pipe(texts, batch_size=batch_size)
    return [
        clause_frame(doc)
        for doc in tqdm(docs, total=len(texts), desc="Parsing SETI sentences", leave=False)
    ]


def generate_natural_pairs(
    lexicon: SentenceLexicon, n_sentences: int, passive_share: float, seed: int, nlp
) -> tuple[pa.Table, pa.Table]:
    """(natural-inference pairs, every sentence with its parse check), deterministic in seed."""
    rng = np.random.default_rng([seed, 6])
    sources = sample_sources(compatible_clauses(lexicon), n_sentences, passive_share, rng)
    generator = PairGenerator(lexicon)
    chosen = [(source, generator.choose(source, rng)) for source in sources]
    clauses = {source.text(): (source, True) for source in sources}
    for _source, candidates in chosen:
        for candidate in candidates:
            clauses.setdefault(candidate.s_prime.text(), (candidate.s_prime, False))
    texts = list(clauses)
    parsed = {
        text: parses_as(frame, clauses[text][0])
        for text, frame in zip(texts, parse_frames(texts, nlp), strict=True)
    }
    sentences = pa.Table.from_pylist(
        [
            {
                "sentence_id": sentence_id(text),
                "sentence": text,
                "subject": clause.subject,
                "verb": clause.verb,
                "object": clause.object,
                "voice": clause.voice,
                "source": is_source,
                "parsed": parsed[text],
            }
            for text, (clause, is_source) in clauses.items()
        ],
        schema=SENTENCE_SCHEMA,
    )
    rows = [
        pair_row(
            source.text(),
            candidate.s_prime.text(),
            candidate.nat_type,
            candidate.label,
            candidate.relation,
            candidate.rule,
        )
        for source, candidates in chosen
        for candidate in candidates
        if parsed[source.text()] and parsed[candidate.s_prime.text()]
    ]
    return pa.Table.from_pylist(deduplicated(rows), schema=NAT_PAIR_SCHEMA), sentences


def pair_row(s: str, s_prime: str, nat_type: str, label: int, relation: str, rule: str) -> dict:
    return {
        "s_id": sentence_id(s),
        "s_prime_id": sentence_id(s_prime),
        "s": s,
        "s_prime": s_prime,
        "nat_type": nat_type,
        "nat_label": label,
        "nat_relation": relation,
        "nat_rule": rule,
    }


def deduplicated(rows: Iterable[dict]) -> list[dict]:
    """The first row of each (s, s′), so no pair carries two labels."""
    seen, kept = set(), []
    for row in rows:
        if (row["s"], row["s_prime"]) not in seen:
            seen.add((row["s"], row["s_prime"]))
            kept.append(row)
    return kept
