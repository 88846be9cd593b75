"""Open relation triples (subject, predicate, object) from a dependency parse (BoOQA Appendix D).

Predicates are lemma strings that keep particles, prepositions and discontinuous parts:
"Federer played a practice game with Nadal" gives ``(Federer, play, practice game)`` and
``(Federer, play practice game with, Nadal)``. Each predicate word carries a tag, so later steps
know which spans are verbs and which nouns: ``V`` verb, ``R`` particle, ``N`` noun folded into
the predicate, ``A`` adjective, ``P`` preposition ("play practice game with" is ``VNNP``).

Arguments are normalised to their head phrase: the named entity that contains the head (without a
leading determiner), else the head's proper-noun compound ("Real Madrid"), else the lemma of a
common noun with its compound modifiers ("oil price"). The argument's entity type is the parser's
label where it has one. Pronouns, numbers, quantities (a noun with a number: "5.5 mln dlrs") and
temporal or numeric entities are not arguments, and
negated predicates ("did not visit") give no triple, since BoOQA's positives must be true.
Sentences written all in capitals (newswire headlines), an article's leading headline run into
its story's first sentence, and arguments of several words all in capitals ("JAPAN ON TRADE
TENSIONS") give no triple either: the parser, trained on mixed case, tags their every word a
proper noun. Nor do tables and lists of figures ("Net 4,568,000 vs 7,000", "projections
include France 3.57 ... USSR"), whose verbs join row labels ("U.S. includes Soviet Union").
"""

from __future__ import annotations

import bisect
import re

import pyarrow as pa

from compsem.text.inflection import third_person_singular

# Entity labels that name times and quantities, not participants.
NON_ARGUMENT_TYPES = frozenset(
    {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
)
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those"})
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")

TRIPLE_TYPE = pa.struct(
    [
        ("sentence", pa.int32()),
        ("subject", pa.string()),
        ("subject_type", pa.string()),
        ("predicate", pa.string()),
        ("predicate_tags", pa.string()),
        ("object", pa.string()),
        ("object_type", pa.string()),
        # Each argument linked to an entity (compsem.builders.booqa.corpus.linking): its id, name,
        # coarse type and how it was linked.
        *(
            (f"{role}_{part}", pa.string())
            for role in ("subject", "object")
            for part in ("entity", "entity_name", "entity_type", "linked_by")
        ),
    ]
)


def _entity_index(doc) -> dict[int, object]:
    return {i: ent for ent in doc.ents for i in range(ent.start, ent.end)}


def argument(token, entities: dict) -> tuple[str, str | None] | None:
    """(head phrase, entity type or None) of the noun phrase headed by ``token``, or None."""
    if token.pos_ not in ("NOUN", "PROPN"):
        return None
    if any(child.dep_ in ("nummod", "quantmod") or child.like_num for child in token.children):
        return None  # a quantity ("5.5 mln dlrs", "21 cts"), even where NER calls it a name
    entity = entities.get(token.i)
    if entity is not None:
        if entity.label_ in NON_ARGUMENT_TYPES:
            return None
        words = [t for t in entity if not (t.is_punct or t.is_space) and t.tag_ != "POS"]
        while words and words[0].lower_ in _DETERMINERS:
            words = words[1:]
        text = " ".join(t.text for t in words)
        return (text, entity.label_) if text and not _shouted_words(words) else None
    compounds = []
    for child in reversed(list(token.lefts)):  # nearest first, stop at the first gap
        if child.dep_ != "compound" or child.i != token.i - len(compounds) - 1:
            break
        compounds.insert(0, child)
    if token.pos_ == "PROPN":
        if _shouted_words([*compounds, token]):
            return None
        return " ".join(t.text for t in [*compounds, token]), None
    words = [t.lower_ for t in compounds] + [token.lemma_.lower()]
    if not all(_WORD.fullmatch(word) for word in words):
        return None
    return " ".join(words), None


def _noun_phrase(token) -> tuple[list[str], str] | None:
    """A common noun with its compounds, as predicate words and tags ("practice game", "NN").
    A compound with modifiers of its own is left out: it is half of a hyphenated or counted
    modifier ("16 pct voting interest", "long-term owner", "two-way link"), not a noun of the
    predicate."""
    if token.pos_ != "NOUN":
        return None
    words = [
        c.lower_
        for c in token.lefts
        if c.dep_ == "compound" and c.pos_ == "NOUN" and not list(c.children)
    ]
    words.append(token.lemma_.lower())
    return words, "N" * len(words)


def _objects_of(preposition) -> list:
    return [child for child in preposition.children if child.dep_ == "pobj"]


def _subject(verb) -> tuple[object, bool] | None:
    """(subject token, passive?) of a verb, inheriting the subject of a coordinated verb."""
    while True:
        for child in verb.children:
            if child.dep_ == "nsubj":
                return child, False
            if child.dep_ == "nsubjpass":
                return child, True
        if verb.dep_ != "conj" or verb.head.pos_ not in ("VERB", "AUX"):
            return None
        verb = verb.head


def _predicates(verb) -> list[tuple[list[str], str, object, object]]:
    """(words, tags, subject token, object token) for each relation headed by ``verb``."""
    children = list(verb.children)
    if any(child.dep_ == "neg" for child in children):
        return []
    found = _subject(verb)
    if found is None:
        return []
    subject, passive = found
    base = [verb.lemma_.lower()] + [c.lower_ for c in children if c.dep_ == "prt"]
    tags = "V" + "R" * (len(base) - 1)
    relations = []
    if passive:  # "Apple was acquired by Microsoft": the active relation, with its own roles
        for agent in (c for c in children if c.dep_ == "agent"):
            relations += [(base, tags, obj, subject) for obj in _objects_of(agent)]
        return relations
    preps = [c for c in children if c.dep_ == "prep"]
    if verb.lemma_ == "be":  # "X is president of Y": be + complement + preposition
        for complement in (c for c in children if c.dep_ in ("attr", "acomp")):
            if complement.pos_ == "ADJ":
                folded = ([complement.lower_], "A")
            else:
                folded = _noun_phrase(complement)
            if folded is None:
                continue
            for prep in [*preps, *(c for c in complement.children if c.dep_ == "prep")]:
                words = ["be", *folded[0], prep.lower_]
                relations += [(words, "V" + folded[1] + "P", subject, o) for o in _objects_of(prep)]
        return relations
    direct = [c for c in children if c.dep_ == "dobj"]
    for obj in direct:
        relations.append((base, tags, subject, obj))
        folded = _noun_phrase(obj) if obj.ent_type_ == "" else None
        if folded is not None:  # "play game with": the object noun joins the predicate
            obj_preps = [c for c in obj.children if c.dep_ == "prep"]
            for prep in [*preps, *obj_preps]:
                words = [*base, *folded[0], prep.lower_]
                relations += [
                    (words, tags + folded[1] + "P", subject, o) for o in _objects_of(prep)
                ]
            preps = []
    for prep in preps:
        relations += [([*base, prep.lower_], tags + "P", subject, o) for o in _objects_of(prep)]
    return relations


def _shouted(text: str) -> bool:
    """Whether a text has letters and none of them lower case."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and not any(c.islower() for c in letters)


def _shouted_words(words: list) -> bool:
    """Whether a phrase of several words is all in capitals: a headline's fragment the parser
    took for a name ("JAPAN ON TRADE TENSIONS"), where one word ("U.S.", "IMF") is an acronym."""
    return len(words) > 1 and _shouted(" ".join(t.text for t in words))


def _headline_end(doc) -> int:
    """The first token after the article's headline: the leading run of tokens with no lower
    case letter ("BRAZIL, BANKS FAIL TO MAKE BREAKTHROUGH  Brazil and its ..."), which the
    sentence splitter often runs into the story's first sentence."""
    return next((t.i for t in doc if any(c.islower() for c in t.text)), len(doc))


def _tabular(sentence) -> bool:
    """Whether a sentence is a table or a list of figures rather than prose ("Shr 28 cts vs nil
    Net 4,568,000 vs 7,000", "include France 3.57 3.42 ... EC 13.82 ... USSR"): at least one
    number for every three words. Its verbs join row labels, not participants."""
    numbers = sum(1 for t in sentence if t.like_num or t.pos_ == "NUM")
    words = sum(1 for t in sentence if t.is_alpha)
    return numbers * 3 >= max(words, 1)


def relation_triples(doc) -> list[dict]:
    """Every relation triple of a parsed document, in token order, as TRIPLE_TYPE dicts."""
    entities = _entity_index(doc)
    sentences = list(doc.sents)
    sentence_starts = [sentence.start for sentence in sentences]
    skipped = [_shouted(sentence.text) or _tabular(sentence) for sentence in sentences]
    headline = _headline_end(doc)
    triples = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        sentence = bisect.bisect_right(sentence_starts, verb.i) - 1
        if skipped[sentence]:
            continue
        for words, tags, subject_token, object_token in _predicates(verb):
            if not all(_WORD.fullmatch(word) for word in words):
                continue
            if min(verb.i, subject_token.i, object_token.i) < headline:
                continue
            subject = argument(subject_token, entities)
            obj = argument(object_token, entities)
            if subject is None or obj is None or subject[0] == obj[0]:
                continue
            triples.append(
                {
                    "sentence": sentence,
                    "subject": subject[0],
                    "subject_type": subject[1],
                    "predicate": " ".join(words),
                    "predicate_tags": tags,
                    "object": obj[0],
                    "object_type": obj[1],
                }
            )
    return triples


def realise(subject: str, predicate: str, obj: str) -> str:
    """The proposition as a present-tense clause: "Barcelona plays game with Real Madrid"."""
    verb, _, rest = predicate.partition(" ")
    try:
        verb = third_person_singular(verb)
    except ValueError:  # a hyphenated or unusual lemma: leave it as it is
        pass
    return " ".join(part for part in (subject, verb, rest, obj) if part)
