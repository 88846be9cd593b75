"""Rule agreement: compsem's RNPC rules applied to the original release's human-labelled rows.

Each row of the release's SPTE, MPTE and EPC files is labelled by :mod:`compsem.builders.rnpc.labels.rules`
from what the row itself says: the categories of M1 and M2 from its ``combo``, their kind,
attribute and event effect from the modifier lexicon (the release's own ``int.csv``, ``sub.csv``
and ``pri.csv`` when the folder has them, else the shipped one), which hypothesis it is (read
off the hypothesis: SPTE's N / M2 N / M1 N, MPTE's kept modifier, EPC's modifier that event 1
already holds), for MPTE how the second premise's noun N' relates to N by WordNet
(:func:`~compsem.builders.rnpc.words.second_nouns.noun_relation`), and for EPC how the event stands to
what N is (:func:`event_stance`), when it says N is (:func:`event_time`) and whether it restates
or opposes what an added modifier says or where it places N (:func:`modifier_restatement`).
A row whose reading the rules leave out (ambiguous scope, an unclear event effect, an event whose
words do not say how it stands to N) counts as unlabelled. The report gives agreement with the human labels per task, combo and hypothesis
type, so researchers who hold RNPC see exactly where the rules and people part.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from compsem.builders.rnpc.generation import modifier_lexicon_from
from compsem.builders.rnpc.labels.events import (
    event_stance,
    event_time,
    modifier_restatement,
    words_of,
)
from compsem.builders.rnpc.labels.rules import TIME_STANCES, Slot, epc, modifier_time, mpte, spte
from compsem.builders.rnpc.words.second_nouns import head_noun, names_people, noun_relation
from compsem.loading_scripts.rnpc_release import derived_kind, read_original_task, release_entries
from compsem.resources.lexicon import LexiconError
from compsem.resources.modifiers import ModifierLexicon, load_modifier_lexicon

TASKS = ("spte", "mpte", "epc")
# RNPC's attribute names where compsem's rules name the same thing otherwise
_RNPC_ATTRIBUTES = {"color": "colour", "origin": "provenance", "possibility": "modality"}
# a modifier both EPC events hold: it bears on neither side of the comparison
_HELD = Slot("intersective", effect="equal")


def release_lexicon(folder: str | Path) -> ModifierLexicon:
    """The release's own lexicon when the folder holds it, else the shipped one."""
    try:
        return modifier_lexicon_from(str(folder))
    except LexiconError:
        return load_modifier_lexicon()


def _attribute(name: str) -> str:
    """compsem's name for an attribute; derived ones are ``rnpc_<cat>_<RNPC attribute>``."""
    match = re.fullmatch(r"rnpc_[a-z]{3}_(.+)", name)
    if match is None:
        return name
    return _RNPC_ATTRIBUTES.get(match.group(1), match.group(1))


def slot_table(lexicon: ModifierLexicon) -> dict[tuple[str, str], Slot]:
    """``(modifier, category) -> Slot`` for every lexicon entry (modifiers lower-cased)."""
    return {
        (m.text.lower(), m.category): Slot(
            m.category,
            m.kind,
            lexicon.attributes[m.attribute].effect,
            _attribute(m.attribute),
            modifier_time(m.text),
        )
        for m in lexicon.modifiers
    }


def release_slots(folder: str | Path) -> dict[tuple[str, str], Slot]:
    """Slots of every entry of the release's own lexicon files, those the generation lexicon
    drops included (listed in two categories, or of an attribute none of compsem's nouns take:
    *erroneous*, *partial*, *many*): what a modifier is does not depend on which nouns compsem
    can pair it with. Empty when the folder has no lexicon files."""
    try:
        entries = release_entries(Path(folder))
    except LexiconError:
        return {}
    return {
        (key, category): Slot(
            category,
            derived_kind(category, name),
            "less" if category == "privative" else "unclear",
            _attribute(f"rnpc_{category[:3]}_{name}"),
            modifier_time(key),
        )
        for key, listed in entries.items()
        for _, category, name, _ in listed
    }


def slot(word: str | None, category: str, slots: dict) -> Slot:
    """The modifier's slot; the category (and when the word places N) alone when the lexicon
    does not list it as such."""
    found = slots.get(((word or "").lower(), category))
    return found or Slot(category, effect="unclear", time=modifier_time(word or ""))


def hypothesis_type(task: str, row: dict) -> str | None:
    """SPTE: ``n``, ``m2_n`` or ``m1_n``; MPTE: ``m1`` or ``m2``; None if unreadable."""
    words = words_of(row["hypothesis"])
    m1, m2 = ((row[k] or "").lower() for k in ("modifier1", "modifier2"))
    has1, has2 = m1 in words, m2 in words
    if has1 and has2:
        return None  # the hypothesis repeats the premise's NP
    if task == "spte":
        return "m1_n" if has1 else "m2_n" if has2 else "n"
    return "m1" if has1 else "m2" if has2 else None


def _epc_comparison(row: dict) -> str:
    """Which modifier event 1 already holds: ``n`` (``N E`` vs ``M1 M2 N E``), ``m1``, ``m2``
    (``M2 N E`` vs ``M1 M2 N E``) or ``both_held`` (nothing added that the rules can read)."""
    words = words_of(row.get("event1", ""))
    held = [key for key in ("m1", "m2") if (row[f"modifier{key[1]}"] or "").lower() in words]
    return "both_held" if len(held) == 2 else held[0] if held else "n"


def _epc_readable(comparison: str, m1: Slot) -> bool:
    """Whether the rules can read what event 2 adds: not when it adds nothing, nor when it adds
    M2 under a privative M1 that event 1 holds (a former alleged thief against a former thief:
    whether *former* ends the thieving or the allegation is the scope question of §7)."""
    return comparison != "both_held" and not (comparison == "m1" and m1.category == "privative")


def _epc_outcome(row: dict, m1: Slot, m2: Slot, added: list[str]) -> tuple[str, int] | None:
    """How the rules read an EPC row: an event of when N is, against when the modifiers place
    N; where they place it at no time, the event's stance to what N is; where that says
    nothing, an event restating or opposing what an added modifier says."""
    time = event_time(row)
    outcome = epc(m1, m2, time) if time in TIME_STANCES else None
    if outcome:
        return outcome
    stance = event_stance(row)
    outcome = epc(m1, m2, stance)
    if outcome is None and stance == "unread":
        restatement = modifier_restatement(row, added)
        outcome = epc(m1, m2, restatement) if restatement else None
    return outcome


def second_noun(premise: str) -> str:
    """N' of an MPTE premise: the head of its last sentence ('... He is a father.')."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", premise.strip()) if s.strip()]
    return head_noun(sentences[-1]) if len(sentences) > 1 else ""


def label_row(task: str, row: dict, slots: dict) -> dict:
    """The rules' reading of one release row: hypothesis type, relation, rule and label."""
    if row["modifier1"] is None:
        return {"hypothesis": None, "relation": None, "rule": None, "label": None}
    m1 = slot(row["modifier1"], row["m1_category"], slots)
    m2 = slot(row["modifier2"], row["m2_category"], slots)
    kind = hypothesis_type(task, row) if task != "epc" else _epc_comparison(row)
    relation, outcome = None, None
    if task == "epc" and _epc_readable(kind, m1):
        # a modifier event 1 already holds is in both events: only the added one can move E
        added = [row[f"modifier{key[1]}"] for key in ("m1", "m2") if key != kind]
        m1, m2 = (_HELD if kind == held else slot_ for held, slot_ in (("m1", m1), ("m2", m2)))
        outcome = _epc_outcome(row, m1, m2, added)
    elif task == "spte" and kind:
        outcome = spte(kind, m1, m2, names_people(row["noun"]))
    elif task == "mpte" and kind and second_noun(row["premise"]):
        relation = noun_relation(row["noun"], second_noun(row["premise"]))
        outcome = mpte(kind, m1, m2, relation, names_people(row["noun"]))
    rule, label = outcome if outcome else (None, None)
    return {"hypothesis": kind, "relation": relation, "rule": rule, "label": label}


def _cell() -> dict:
    return {"rows": 0, "labelled": 0, "agreed": 0}


def _share(part: int, whole: int) -> float | None:
    """``part / whole`` to four places, as every share of the report is given; None of none."""
    return round(part / whole, 4) if whole else None


def _finish(cell: dict) -> dict:
    cell["coverage"] = _share(cell["labelled"], cell["rows"])
    cell["agreement"] = _share(cell["agreed"], cell["labelled"])
    return cell


def holds_privative(row: dict) -> bool:
    """Whether a release or generated row's phrase holds a privative, by its categories (as
    :func:`~compsem.builders.rnpc.labels.rules.epc` reads its slots)."""
    return "privative" in (row["m1_category"], row["m2_category"])


# a privative whose kind the event alone cannot tell, over a modifier event 1 already holds
_SOME_PRIVATIVE = Slot("privative")


def baselines(task: str, rows: list[dict]) -> dict:
    """What the human labels give a reading that never looks at the modifiers: the commonest
    label's share (``majority``), the share of rows whose phrase holds a privative, and for EPC
    each row read by its event alone (``event_alone``) as the rules read it under a privative
    (:func:`~compsem.builders.rnpc.labels.rules.epc`: in keeping with N less plausible, against it more,
    of what a privative keeps equally; the commonest label where the event says neither). RNPC
    built EPC for privative phrases (§3), so most of its rows reward that reading: a model that
    scores near it may have learnt nothing of what the modifiers do."""
    labels = [row["label"] for row in rows]
    if not labels:
        return {}
    common, count = Counter(labels).most_common(1)[0]
    report = {
        "majority": _share(count, len(labels)),
        "privative_share": _share(sum(map(holds_privative, rows)), len(rows)),
    }
    if task == "epc":
        guesses = []
        for row in rows:
            outcome = epc(_SOME_PRIVATIVE, _HELD, event_stance(row)) if row["noun"] else None
            guesses.append(outcome[1] if outcome else common)
        agreed = sum(guess == label for guess, label in zip(guesses, labels, strict=True))
        report["event_alone"] = _share(agreed, len(labels))
    return report


def task_agreement(task: str, rows: list[dict], slots: dict) -> dict:
    """Agreement of the rules with the human labels of one task's rows, overall and per combo,
    hypothesis type, (combo, hypothesis), N' relation (MPTE) and rule."""
    groups: dict[str, dict[str, dict]] = defaultdict(lambda: defaultdict(_cell))
    for row in rows:
        reading = label_row(task, row, slots)
        keys = {
            "all": "all",
            "by_combo": row["combo"],
            "by_hypothesis": reading["hypothesis"] or "unread",
            "by_combo_hypothesis": f"{row['combo']}|{reading['hypothesis'] or 'unread'}",
            "by_rule": reading["rule"] or "left out",
        }
        if task == "mpte":
            keys["by_relation"] = reading["relation"] or "unread"
        for group, key in keys.items():
            cell = groups[group][key]
            cell["rows"] += 1
            if reading["label"] is not None:
                cell["labelled"] += 1
                cell["agreed"] += int(reading["label"] == row["label"])
    report = _finish(groups.pop("all")["all"])
    for group, cells in groups.items():
        report[group] = {key: _finish(cell) for key, cell in sorted(cells.items())}
    report["baselines"] = baselines(task, rows)
    return report


def reading_slots(
    folder: str | Path, lexicon: ModifierLexicon | None = None
) -> dict[tuple[str, str], Slot]:
    """The slots the rules read a release's rows with: every entry of its lexicon files
    (:func:`release_slots`), under the lexicon its modifiers resolve to (``lexicon``, by
    default :func:`release_lexicon`'s, read here)."""
    lexicon = release_lexicon(folder) if lexicon is None else lexicon
    return release_slots(folder) | slot_table(lexicon)


def rule_agreement(folder: str | Path) -> dict:
    """The agreement report of every task file the release folder holds."""
    lexicon = release_lexicon(folder)
    slots = reading_slots(folder, lexicon)
    tasks = {}
    for task in TASKS:
        rows = read_original_task(folder, task)
        tasks[task] = task_agreement(task, rows, slots)
    return {
        "lexicon": lexicon.source,
        "overall": _overall(tasks),
        "note": "agreement = rule label == human label over the rows the rules label, per task "
        "only (SPTE and MPTE have two labels, EPC three); coverage = labelled rows / rows (the "
        "rest are readings the rules leave out)",
        "tasks": tasks,
    }


def _overall(tasks: dict) -> dict:
    """Rows and coverage over every task; agreement stays per task: SPTE and MPTE have two
    labels and EPC three, so one pooled share would mix a chance of 1/2 with one of 1/3."""
    rows = sum(report["rows"] for report in tasks.values())
    labelled = sum(report["labelled"] for report in tasks.values())
    return {
        "rows": rows,
        "labelled": labelled,
        "coverage": _share(labelled, rows),
    }


def export_files(config, provenance: dict) -> dict[str, str]:
    """``rule_agreement.json`` at the top of an export built with ``--original-release``."""
    if not provenance.get("rule_agreement"):
        return {}
    return {"rule_agreement.json": json.dumps(provenance["rule_agreement"], indent=2) + "\n"}
