"""Readers of the original RNPC release (Lyu et al., 2022) into compsem's RNPC schema.

Tasks: ``SPTE.csv`` and ``MPTE.csv`` (``id, combo, source NP, premise, hypothesis, label``) and
``EPC.csv`` (``id, combo, source NP, first_event, second_event, label``), anywhere under the
folder, with string labels (entailment / non-entailment; more_likely / equally_likely /
less_likely). The categories are read off ``combo`` (``pri-sub``), and the NP's determiner,
modifiers and noun off ``source NP``: M1 and M2 are the first two neighbouring words the lexicon
lists in the combo's categories, the words before them the determiner and those after the noun
(*the city's first so-called greenfield plant*: the city's, first, so-called, greenfield plant);
where no two words are, the first two words after a determiner.

Lexicon: ``int.csv``, ``sub.csv`` and ``pri.csv`` (``Attribute,Modifier``). A modifier that the
shipped lexicon lists in the same category takes its shipped attribute; any other gets an
attribute derived from its RNPC one (which nouns it applies to, relative or role for subsective
ones). Modifiers listed in more than one category, or whose attribute fits none of compsem's noun
supersenses, are left out and reported in ``ModifierLexicon.dropped``.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from compsem.files.fingerprint import row_id
from compsem.resources.lexicon import LexiconError
from compsem.resources.modifiers import (
    CATEGORIES,
    Attribute,
    Modifier,
    ModifierLexicon,
    check_categories,
    load_modifier_lexicon,
)

TASK_FILES = {"spte": "SPTE.csv", "mpte": "MPTE.csv", "epc": "EPC.csv"}
TASK_COLUMNS = {
    "spte": ("id", "combo", "source NP", "premise", "hypothesis", "label"),
    "mpte": ("id", "combo", "source NP", "premise", "hypothesis", "label"),
    "epc": ("id", "combo", "source NP", "first_event", "second_event", "label"),
}
COMBO_CATEGORIES = {"int": "intersective", "sub": "subsective", "pri": "privative"}
_ENTAILMENT = {"entailment": 1, "non-entailment": 0, "non_entailment": 0, "nonentailment": 0}
_PLAUSIBILITY = {"less": 0, "equally": 1, "more": 2}
_DETERMINERS = {
    "a", "an", "the", "my", "his", "her", "its", "their", "our", "your", "this", "that",
    "these", "those", "some", "one",
}  # fmt: skip

LEXICON_FILES = {"intersective": "int.csv", "subsective": "sub.csv", "privative": "pri.csv"}
_ORDER = {"intersective": 5, "subsective": 1, "privative": 0}
ALL = "person artifact animal plant food"
# Which of compsem's nouns each RNPC attribute applies to; "" = none of them (abstract nouns).
RNPC_DOMAINS = {
    "intersective": {
        "color": "artifact plant", "nationality": "person artifact food", "gender": "person",
        "employment": "occupation", "military": "person", "shape": "artifact food",
        "direction": "", "life": "animal plant", "making": "artifact", "habit": "person",
        "smell": "food plant", "anonymity": "person", "origin": "artifact", "price": "artifact",
        "location": "person", "content": "container.n.01", "personality": "person",
        "weather": "", "luck": "person", "race": "person", "crime": "", "therapy": "artifact",
        "benefit": "food", "neutrality": "person", "belonging": "artifact", "nudity": "person",
        "safety": "artifact", "rawness": "food", "time": "artifact", "frequency": "",
        "medium": "device.n.01", "belief": "person", "genre": "", "quantity": "", "sector": "",
        "openness": "artifact", "authenticity": "", "baldness": "person", "pregnancy": "",
        "governance": "", "company": "person", "communication": "", "perception": "",
        "relation": "", "expertise": "occupation", "choice": "person", "mood": "person",
        "existence": "artifact", "continuity": "", "politics": "person",
    },
    "subsective": {
        "height": "person animal plant", "length": "artifact", "distance": "",
        "age": "person animal", "newness": "artifact", "speed": "animal vehicle.n.01",
        "size": "artifact animal plant food", "time": "", "ordinal": ALL,
        "weight": "artifact animal", "sound": "animal device.n.01", "width": "artifact",
        "depth": "", "expertise": "occupation", "beauty": "person animal artifact plant",
        "intelligence": "person animal", "clarity": "", "type": ALL,
        "quality": "occupation artifact food", "qualilty": "occupation artifact food",
        "preference": ALL, "power": "person animal device.n.01", "quantity": "",
        "price": "artifact food", "fame": "occupation", "popularity": "occupation",
        "importance": "occupation", "intensity": "", "specificity": "",
        "authority": "occupation", "dependency": "person", "direction": "",
        "activeness": "person animal", "difficulty": "", "temperature": "food",
        "humidity": "", "similarity": "", "frequnecy": "", "frequency": "",
        "morality": "person", "sense": "", "danger": "animal", "familiarity": "",
        "health": "person animal", "belief": "person", "brightness": "artifact",
    },
    "privative": {
        "time": "occupation", "authenticity": "artifact person", "possibility": "occupation",
        "making": "animal", "existence": "person animal", "soundness": "",
        "authority": "occupation", "degree": "", "location": "",
    },
}  # fmt: skip
_ROLE_ATTRIBUTES = {"expertise"}  # subsective attributes that judge the noun's role
_DETERMINER_ATTRIBUTES = {"ordinal": "definite", "preference": "possessive"}


class ReleaseError(ValueError):
    """The release folder or one of its rows is not in the documented format."""


def _find(folder: Path, name: str, error=ReleaseError) -> Path:
    matches = sorted(p for p in folder.rglob("*") if p.name.lower() == name.lower())
    if not matches:
        raise error(f"{name} is not under {folder}; point at the RNPC release's data folder.")
    return matches[0]


def _read_csv(path: Path, columns: tuple[str, ...], error=ReleaseError) -> list[tuple[int, dict]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = {name.strip().lower(): name for name in reader.fieldnames or []}
        missing = [c for c in columns if c.lower() not in header]
        if missing:
            raise error(
                f"{path.name} lacks column(s) {', '.join(missing)}; expected {', '.join(columns)}."
            )
        return [
            (number, {c: (row[header[c.lower()]] or "").strip() for c in columns})
            for number, row in enumerate(reader, start=2)
        ]


def _label(task: str, value: str, where: str) -> int:
    text = re.sub(r"\[.*?\]", "", value).strip().lower().replace(" ", "_")
    if task == "epc":
        degree = text.split("_")[0]
        if degree in _PLAUSIBILITY and text.endswith(("likely", "plausible")):
            return _PLAUSIBILITY[degree]
    elif text in _ENTAILMENT:
        return _ENTAILMENT[text]
    expected = "more/equally/less_likely" if task == "epc" else "entailment or non-entailment"
    raise ReleaseError(f"{where}: label {value!r} is not {expected}.")


def parse_np(
    source: str, categories: tuple[str, str] | None = None, listed: dict | None = None
) -> dict:
    """Determiner, M1, M2 and noun of a source NP: 'the second green ball' → the, second, green,
    ball; a possessive ("Quebecor's") counts as the determiner. Given the combo's ``categories``
    and ``listed`` (lower-cased modifier -> the categories a lexicon lists it in), M1 and M2 are
    the first neighbouring words listed in them, with a noun after: 'an arrogant former young
    genius' (pri-sub) → an arrogant, former, young, genius."""
    tokens = source.split()
    det = []
    if tokens and (tokens[0].lower() in _DETERMINERS or tokens[0].endswith("'s")):
        det.append(tokens.pop(0))
    if len(tokens) < 3:
        return {"det": " ".join(det), "modifier1": None, "modifier2": None, "noun": None}
    if categories and listed:
        first = next(
            (
                i
                for i in range(len(tokens) - 2)
                if categories[0] in listed.get(tokens[i].lower(), ())
                and categories[1] in listed.get(tokens[i + 1].lower(), ())
            ),
            0,
        )
        det, tokens = det + tokens[:first], tokens[first:]
    return {
        "det": " ".join(det),
        "modifier1": tokens[0],
        "modifier2": tokens[1],
        "noun": " ".join(tokens[2:]),
    }


def listed_categories(folder: Path) -> dict[str, set[str]]:
    """Lower-cased modifier -> the categories the release's lexicon lists it in (compsem's
    shipped lexicon where the folder has no lexicon files)."""
    try:
        return {key: {e[1] for e in entries} for key, entries in release_entries(folder).items()}
    except LexiconError:
        listed: dict[str, set[str]] = {}
        for modifier in load_modifier_lexicon().modifiers:
            listed.setdefault(modifier.text.lower(), set()).add(modifier.category)
        return listed


def release_item(
    task: str,
    fields: tuple[str, str, str, str],
    label: int,
    identifier: tuple,
    listed: dict,
    where: str,
) -> dict:
    """One release row (``fields``: combo, source NP and the task's two sentences) as a dict of
    the task's feature names, its id a hash of ``identifier``."""
    combo, source, first, second = fields
    codes = combo.lower().split("-")
    if len(codes) != 2 or any(code not in COMBO_CATEGORIES for code in codes):
        raise ReleaseError(f"{where}: combo {combo!r} is not like 'pri-sub'.")
    categories = (COMBO_CATEGORIES[codes[0]], COMBO_CATEGORIES[codes[1]])
    names = ("event1", "event2") if task == "epc" else ("premise", "hypothesis")
    return {
        "id": row_id(*identifier),
        "label": label,
        "np": source,
        **parse_np(source, categories, listed),
        "m1_category": categories[0],
        "m2_category": categories[1],
        "combo": "-".join(codes),
        "rule": "original",
        **dict(zip(names, (first, second), strict=True)),
    }


def read_original_task(folder: str | Path | None, task: str) -> list[dict]:
    """The rows of one original task file, as dicts of the task's feature names."""
    if folder is None:
        raise ReleaseError(
            f"Config original_{task} reads the original RNPC release: pass its folder with "
            "--original-release DIR."
        )
    path = _find(Path(folder), TASK_FILES[task])
    columns = TASK_COLUMNS[task]
    listed = listed_categories(Path(folder))
    rows = []
    for number, row in _read_csv(path, columns):
        where = f"{path.name}, line {number}"
        first, second = (row[c] for c in columns[3:5])
        identifier = ("rnpc-original", task, row["id"], row["source NP"], first, second)
        fields = (row["combo"], row["source NP"], first, second)
        label = _label(task, row["label"], where)
        rows.append(release_item(task, fields, label, identifier, listed, where))
    if not rows:
        raise ReleaseError(f"{path} holds no items.")
    return rows


def _derived_attribute(category: str, name: str, where: str) -> Attribute:
    domains = RNPC_DOMAINS[category]
    if name not in domains:
        raise LexiconError(
            f"{where}: RNPC attribute {name!r} is unknown to compsem; write this lexicon in "
            "compsem's TSV format (modifier, category, attribute, subsective_kind, applies_to)."
        )
    return Attribute(
        name=f"rnpc_{category[:3]}_{name}",
        dimension=f"rnpc_{name}",
        applies_to=tuple(domains[name].split()),
        determiner=_DETERMINER_ATTRIBUTES.get(name, "indefinite"),
        order=0 if name in _DETERMINER_ATTRIBUTES else _ORDER[category],
        effect="less" if category == "privative" else "unclear",
        rationale=f"RNPC's {category} attribute {name!r}.",
    )


def derived_kind(category: str, name: str) -> str:
    """The subsective kind of an RNPC attribute: ``role`` if it judges the noun's role."""
    if category != "subsective":
        return ""
    return "role" if name in _ROLE_ATTRIBUTES else "relative"


def release_entries(folder: Path) -> dict[str, list[tuple[str, str, str, str]]]:
    """Every entry of the RNPC lexicon files: lower-cased modifier -> [(modifier, category,
    RNPC attribute, where)], one per file line, modifiers listed twice included."""
    entries: dict[str, list[tuple[str, str, str, str]]] = {}
    for category in CATEGORIES:
        path = _find(folder, LEXICON_FILES[category], LexiconError)
        for number, row in _read_csv(path, ("Attribute", "Modifier"), LexiconError):
            if row["Modifier"]:
                where = f"{path.name}, line {number}"
                entries.setdefault(row["Modifier"].lower(), []).append(
                    (row["Modifier"], category, row["Attribute"].lower(), where)
                )
    return entries


def read_original_lexicon(folder: Path, attributes: dict[str, Attribute]) -> ModifierLexicon:
    """The RNPC lexicon as a :class:`ModifierLexicon` over ``attributes`` plus derived ones."""
    entries = release_entries(folder)
    shipped = {(m.text.lower(), m.category): m for m in load_modifier_lexicon().modifiers}
    attributes = dict(attributes)
    modifiers, dropped = [], []
    for key, listed in entries.items():
        text, category, name, where = listed[0]
        categories = sorted({entry[1] for entry in listed})
        if len(categories) > 1:
            dropped.append(f"{text}: listed as {' and '.join(categories)}")
            continue
        ours = shipped.get((key, category))
        if ours is not None:
            modifiers.append(Modifier(text, category, ours.attribute, ours.kind, ours.applies_to))
            continue
        attribute = _derived_attribute(category, name, where)
        if not attribute.applies_to:
            dropped.append(f"{text}: RNPC attribute {name!r} fits none of compsem's nouns")
            continue
        attributes.setdefault(attribute.name, attribute)
        modifiers.append(Modifier(text, category, attribute.name, derived_kind(category, name)))
    source = f"RNPC lexicon ({folder.name})"
    check_categories(tuple(modifiers), source)
    return ModifierLexicon(tuple(modifiers), attributes, source, tuple(dropped))
