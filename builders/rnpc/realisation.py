"""RNPC rows in words: what a task draws from (``TaskInputs``), its labelled candidates
(``Candidates``), and a candidate realised as premise and hypothesis (SPTE, MPTE) or as the two
sentences of EPC, with the phrase fields each row keeps and events denied for the
against-stance rows."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from compsem.builders.rnpc.words.noun_phrases import (
    PLURAL_SHARE,
    Vocabulary,
    determiner,
    noun_phrase,
    plural_form,
    sentence_prefix,
)
from compsem.builders.rnpc.words.second_nouns import Option
from compsem.resources.modifiers import CATEGORY_CODES
from compsem.resources.wordnet import wordnet

# the stance of each EPC hypothesis's event (rules.EVENT_STANCES), and the file stance it is
# drawn from: a denial turns a defining event against N
EPC_STANCES = {"": "in_keeping", "denied": "against", "against": "against", "kept": "kept"}


# rules balanced as one cell each, not one per combo. property_kept: no modifier moves its label
# (an event of what a privative keeps is as plausible with any modifiers); given a cell per
# combo, such events made 69% of EPC's equally-plausible rows and the event alone told 70% of
# the labels. effect_less, effect_more: rows with no privative, labelled by the effect table;
# RNPC made EPC the task for privative phrases (§3) and 93% of the human rows of issue 25's
# development half have one, yet with a cell per combo the effect table's four combos held 44%
# of the less and more rows (as one cell each: 18%). effect_equal keeps a cell per combo: with
# property_kept it is the equal label's only rule, and as one cell kept events became half of
# the equal rows (the event alone told 72% of the labels)
SINGLE_CELL_RULES = {"property_kept", "effect_less", "effect_more"}


def balance_cells(combo: np.ndarray, rule: np.ndarray) -> np.ndarray:
    """Each item's balancing cell: its ``combo|rule``, or the rule alone for the rules balanced
    as one cell (:data:`SINGLE_CELL_RULES`)."""
    rule = np.asarray(rule, dtype=str)
    cells = np.char.add(np.char.add(np.asarray(combo, dtype=str), "|"), rule)
    return np.where(np.isin(rule, list(SINGLE_CELL_RULES)), rule, cells)


EPC_SOURCES = {"": "in_keeping", "denied": "in_keeping", "against": "against", "kept": "kept"}


_AUXILIARIES = {"can": "cannot", "is": "is not", "are": "are not", "must": "must not"}


@dataclass(frozen=True)
class TaskInputs:
    """What generation reads besides the vocabulary: MPTE's second nouns and EPC's events."""

    vocabulary: Vocabulary
    second_nouns: list[dict[str, list[Option]]]  # per noun: {N' relation: [(N', gender)]}
    events: dict[str, dict[str, list[str]]]  # noun -> stance -> its events of that stance


@dataclass(frozen=True)
class Candidates:
    """Labelled candidate items: row i is hypothesis ``hypothesis[i]`` of phrase
    ``phrases[phrase[i]]`` (m1, m2, noun indices)."""

    phrases: np.ndarray
    phrase: np.ndarray
    hypothesis: np.ndarray
    rule: np.ndarray
    label: np.ndarray
    combo: np.ndarray

    @property
    def cells(self) -> np.ndarray:
        """Each candidate's balancing cell (:func:`balance_cells`)."""
        return balance_cells(self.combo, self.rule)

    def take(self, rows: np.ndarray) -> Candidates:
        return Candidates(
            self.phrases,
            *(column[rows] for column in (self.phrase, self.hypothesis, self.rule, self.label)),
            self.combo[rows],
        )


def _phrase_fields(vocabulary: Vocabulary, m1: int, m2: int, noun: int) -> dict:
    m, n = vocabulary.modifiers, vocabulary.nouns
    det, np_text = _premise_np(vocabulary, m1, m2, n["noun"][noun])
    return {
        "np": np_text,
        "det": det,
        "modifier1": m["modifier"][m1],
        "modifier2": m["modifier"][m2],
        "noun": n["noun"][noun],
        "supersense": n["supersense"][noun],
        "m1_category": m["category"][m1],
        "m2_category": m["category"][m2],
        "m1_attribute": m["attribute"][m1],
        "m2_attribute": m["attribute"][m2],
        "combo": f"{CATEGORY_CODES[m['category'][m1]]}-{CATEGORY_CODES[m['category'][m2]]}",
    }


def _premise_np(
    vocabulary: Vocabulary, m1: int, m2: int, noun_text: str, plural: bool = False
) -> tuple[str, str]:
    """The determiner and ``Det M1 M2 N`` (its determiner forced by either modifier's)."""
    m = vocabulary.modifiers
    words = [m["modifier"][m1], m["modifier"][m2], noun_text]
    return noun_phrase(words, determiner(m["determiner"][m1], m["determiner"][m2]), plural)


def _hypothesis_np(
    vocabulary: Vocabulary, modifier: int | None, noun_text: str, plural: bool
) -> str:
    m = vocabulary.modifiers
    if modifier is None:
        return noun_phrase([noun_text], "indefinite", plural)[1]
    words = [m["modifier"][modifier], noun_text]
    return noun_phrase(words, m["determiner"][modifier], plural)[1]


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def denied(event: str) -> str:
    """A defining event said not to happen, for a singular subject: 'fires bullets' → 'does not
    fire bullets', 'can fly' → 'cannot fly', 'is used …' → 'is not used …'."""
    verb, _, rest = event.partition(" ")
    if verb in _AUXILIARIES:
        return f"{_AUXILIARIES[verb]} {rest}".strip()
    base = wordnet().morphy(verb, "v") or verb
    return f"does not {base} {rest}".strip()


def realise(
    task: str, inputs: TaskInputs, chosen: Candidates, rng: np.random.Generator
) -> list[dict]:
    """The chosen candidates as rows of the task's fields. One phrase's items share the
    sentence prefix (and MPTE's second noun, EPC's event), drawn once per phrase.

    SPTE: premise ``P Det M1 M2 N``, hypothesis ``P Det N`` / ``P Det M2 N`` / ``P Det M1 N``.
    MPTE: premises ``P Det M1 M2 N. P Det N'.``, hypothesis ``P Det M1 N'`` / ``P Det M2 N'``,
    N' drawn among the noun's options for the candidate's relation. A ``PLURAL_SHARE`` of the
    SPTE and MPTE phrases are said of several entities ('These are fake guns. These are
    toys.'), where the nouns have a regular plural.
    EPC: event 1 ``Det N E``, event 2 ``Det M1 M2 N E`` with E an event in keeping with N, as it
    is or denied (hypothesis ``denied``), or an event against N's nature (``against``)."""
    vocabulary, nouns = inputs.vocabulary, inputs.vocabulary.nouns
    drawn: dict[tuple[int, str], dict] = {}
    rows = []
    for index, hypothesis, rule, label in zip(
        chosen.phrase.tolist(),
        chosen.hypothesis.tolist(),
        chosen.rule.tolist(),
        chosen.label.tolist(),
        strict=True,
    ):
        m1, m2, noun = chosen.phrases[index].tolist()
        hypothesis, _, relation = hypothesis.partition(":")
        key = (index, relation)  # MPTE draws N' (and the prefix) per relation
        if key not in drawn:
            fields = _phrase_fields(vocabulary, m1, m2, noun)
            if task == "epc":  # a phrase's rows share its events, one of each stance
                fields["events"] = {
                    stance: options[rng.integers(len(options))]
                    for stance, options in sorted(inputs.events[fields["noun"]].items())
                }
            else:
                gender = nouns["gender"][noun]
                if task == "mpte":
                    options = inputs.second_nouns[noun][relation]
                    fields["second_noun"], second_gender = options[rng.integers(len(options))]
                    fields["second_noun_relation"] = relation
                    gender = gender or second_gender
                nouns_said = [fields["noun"], fields.get("second_noun", fields["noun"])]
                fields["plural"] = bool(rng.random() < PLURAL_SHARE) and all(
                    plural_form(word) for word in nouns_said
                )
                if fields["plural"]:
                    fields["det"], fields["np"] = _premise_np(
                        vocabulary, m1, m2, fields["noun"], plural=True
                    )
                fields["prefix"] = sentence_prefix(
                    fields["supersense"], gender, rng, fields["plural"]
                )
            drawn[key] = fields
        fields = drawn[key]
        row = {k: v for k, v in fields.items() if k not in ("events", "plural")}
        row |= {"rule": rule, "label": label}
        plural = fields.get("plural", False)
        if task == "spte":
            modifier = {"n": None, "m2_n": m2, "m1_n": m1}[hypothesis]
            said = _hypothesis_np(vocabulary, modifier, fields["noun"], plural)
            row["premise"] = f"{fields['prefix']} {fields['np']}."
            row["hypothesis"] = f"{fields['prefix']} {said}."
            row["hypothesis_type"] = hypothesis
        elif task == "mpte":
            second = noun_phrase([fields["second_noun"]], "indefinite", plural)[1]
            modifier = {"m1": m1, "m2": m2}[hypothesis]
            said = _hypothesis_np(vocabulary, modifier, fields["second_noun"], plural)
            row["premise"] = f"{fields['prefix']} {fields['np']}. {fields['prefix']} {second}."
            row["hypothesis"] = f"{fields['prefix']} {said}."
            row["hypothesis_modifier"] = hypothesis
        else:
            event = fields["events"][EPC_SOURCES[hypothesis]]
            row["event"] = denied(event) if hypothesis == "denied" else event
            row["event_stance"] = EPC_STANCES[hypothesis]
            bare = noun_phrase([fields["noun"]], "indefinite")[1]
            row["event1"] = f"{_capitalised(bare)} {row['event']}."
            row["event2"] = f"{_capitalised(fields['np'])} {row['event']}."
            row["m1_effect"] = vocabulary.modifiers["effect"][m1]
            row["m2_effect"] = vocabulary.modifiers["effect"][m2]
        rows.append(row)
    return rows
