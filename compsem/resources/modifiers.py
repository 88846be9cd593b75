"""The RNPC modifier lexicon and its attribute and effect tables (TSV files in ``compsem/data``).

``rnpc_modifiers.tsv``: ``modifier, category, attribute, subsective_kind, applies_to`` — category
intersective, subsective or privative (McCrae et al. 2014, RNPC §2); subsective modifiers say
whether they are *relative* to a comparison class, judge the noun's *role*, or name a *stage* of a
role (the label rules need it); ``applies_to`` optionally replaces the attribute's nouns. A modifier
whose category depends on its noun has one row per category, each later row naming the nouns it
is for (``applies_to``), which it takes from the rows before it: paper is intersective in a paper
bag and privative in a paper gun (RNPC §4: a material modifier such as *wooden* can be privative).
``rnpc_attributes.tsv``: per attribute, its dimension, the nouns it applies to, the determiner it
forces and its adjective order. ``rnpc_effects.tsv``: per attribute, its effect on a noun's defining
event (EPC) with a rationale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pyarrow as pa

from compsem.files.fingerprint import fingerprint
from compsem.resources.lexicon import LexiconError
from compsem.resources.user_text import read_user_text, require_file

CATEGORIES = ("intersective", "subsective", "privative")
CATEGORY_CODES = {"intersective": "int", "subsective": "sub", "privative": "pri"}
SUBSECTIVE_KINDS = ("relative", "role", "stage")
DETERMINERS = ("indefinite", "definite", "possessive")
EFFECTS = ("less", "equal", "more", "unclear")
CONCRETE_SUPERSENSES = ("person", "artifact", "animal", "food", "plant")
# what people do, say, own and plan: about two-thirds of the heads of RNPC's phrases
ABSTRACT_SUPERSENSES = ("act", "communication", "event", "possession", "cognition")
SUPERSENSES = CONCRETE_SUPERSENSES + ABSTRACT_SUPERSENSES
ROLES = ("occupation", "criminal")  # person-noun roles of the noun list

MODIFIER_COLUMNS = ("modifier", "category", "attribute", "subsective_kind", "applies_to")
ATTRIBUTE_COLUMNS = ("attribute", "dimension", "applies_to", "determiner", "order", "rationale")
EFFECT_COLUMNS = ("attribute", "effect", "rationale")


@dataclass(frozen=True)
class Attribute:
    name: str
    dimension: str
    applies_to: tuple[str, ...]
    determiner: str
    order: int
    effect: str
    rationale: str = ""
    effect_rationale: str = ""


@dataclass(frozen=True)
class Modifier:
    text: str
    category: str
    attribute: str
    kind: str = ""  # relative | role | stage, for subsective modifiers only
    applies_to: tuple[str, ...] = ()  # replaces the attribute's nouns when set


@dataclass(frozen=True)
class ModifierLexicon:
    modifiers: tuple[Modifier, ...]
    attributes: dict[str, Attribute]
    source: str
    dropped: tuple[str, ...] = field(default=())  # entries a reader left out, with the reason

    @property
    def fingerprint(self) -> str:
        return fingerprint(
            [(m.text, m.category, m.attribute, m.kind, m.applies_to) for m in self.modifiers],
            sorted(
                (a.name, a.dimension, a.applies_to, a.determiner, a.order, a.effect)
                for a in self.attributes.values()
            ),
        )

    def __len__(self) -> int:
        return len(self.modifiers)

    def category_counts(self) -> dict[str, int]:
        return {c: sum(m.category == c for m in self.modifiers) for c in CATEGORIES}

    def table(self) -> pa.Table:
        """One row per modifier with its attribute's dimension, determiner, order and effect."""
        attributes = [self.attributes[m.attribute] for m in self.modifiers]
        return pa.table(
            {
                "modifier": [m.text for m in self.modifiers],
                "category": [m.category for m in self.modifiers],
                "kind": [m.kind for m in self.modifiers],
                "attribute": [m.attribute for m in self.modifiers],
                "dimension": [a.dimension for a in attributes],
                "determiner": [a.determiner for a in attributes],
                "order": pa.array([a.order for a in attributes], pa.int8()),
                "effect": [a.effect for a in attributes],
                "applies_to": [
                    list(m.applies_to or a.applies_to)
                    for m, a in zip(self.modifiers, attributes, strict=True)
                ],
            }
        )


def data_path(name: str, package: str = "compsem") -> Path:
    """A data file shipped in ``package``'s ``data/`` folder (compsem's shared files by default;
    a benchmark package passes its own name for the files only it reads)."""
    return Path(str(resources.files(package) / "data" / name))


def read_tsv(path: Path, columns: tuple[str, ...], required: int) -> list[tuple[int, list[str]]]:
    """(line number, fields padded to ``columns``) for each data row; ``#`` lines are comments and
    the header, when present, must name the columns in order."""
    require_file(path, LexiconError, f"pass a TSV file with columns {', '.join(columns)}")
    rows = []
    for number, line in enumerate(read_user_text(path, LexiconError).splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.rstrip("\r").split("\t")]
        if tuple(f.lower() for f in fields[: len(columns)]) == columns[: len(fields)]:
            continue  # the header
        if not required <= len(fields) <= len(columns) or not all(fields[:required]):
            raise LexiconError(
                f"{path.name}, line {number}: expected {required} to {len(columns)} tab-separated "
                f"fields ({', '.join(columns)}), got {line!r}."
            )
        rows.append((number, fields + [""] * (len(columns) - len(fields))))
    return rows


def read_attributes(
    path: str | Path | None = None, effects_path: str | Path | None = None
) -> dict[str, Attribute]:
    """The attribute table joined with the attribute-effect table."""
    path = Path(path) if path else data_path("rnpc_attributes.tsv")
    effects_path = Path(effects_path) if effects_path else data_path("rnpc_effects.tsv")
    effects = {}
    for number, (name, effect, rationale) in read_tsv(effects_path, EFFECT_COLUMNS, 2):
        if effect not in EFFECTS:
            raise LexiconError(
                f"{effects_path.name}, line {number}: unknown effect {effect!r} for {name!r}; use "
                f"one of {', '.join(EFFECTS)}."
            )
        effects[name] = (effect, rationale)
    attributes = {}
    for number, (name, dimension, applies, determiner, order, rationale) in read_tsv(
        path, ATTRIBUTE_COLUMNS, 5
    ):
        where = f"{path.name}, line {number}"
        if determiner not in DETERMINERS:
            raise LexiconError(
                f"{where}: unknown determiner {determiner!r}; use one of {', '.join(DETERMINERS)}."
            )
        if not order.isdigit():
            raise LexiconError(f"{where}: order must be a whole number, got {order!r}.")
        if name not in effects:
            raise LexiconError(
                f"{where}: attribute {name!r} has no row in {effects_path.name}; add its effect "
                "on defining events (less, equal, more or unclear)."
            )
        effect, effect_rationale = effects[name]
        attributes[name] = Attribute(
            name=name,
            dimension=dimension,
            applies_to=tuple(applies.split()),
            determiner=determiner,
            order=int(order),
            effect=effect,
            rationale=rationale,
            effect_rationale=effect_rationale,
        )
    return attributes


def parse_modifier_rows(
    rows: list[tuple[int, list[str]]], attributes: dict[str, Attribute], source: str
) -> tuple[Modifier, ...]:
    modifiers: dict[tuple, Modifier] = {}
    listed: set[str] = set()
    for number, (text, category, attribute, kind, applies) in rows:
        where = f"{source}, line {number}"
        category = category.lower()
        if category not in CATEGORIES:
            raise LexiconError(
                f"{where}: unknown category {category!r} for {text!r}; use one of "
                f"{', '.join(CATEGORIES)}."
            )
        if attribute not in attributes:
            raise LexiconError(
                f"{where}: unknown attribute {attribute!r} for {text!r}; add it to the attribute "
                f"table or use one of {', '.join(sorted(attributes))}."
            )
        if category == "subsective" and kind not in SUBSECTIVE_KINDS:
            raise LexiconError(
                f"{where}: subsective {text!r} needs a subsective_kind, one of "
                f"{', '.join(SUBSECTIVE_KINDS)} (relative to a comparison class, judging the "
                "noun's role, or a stage of a role)."
            )
        if category != "subsective" and kind:
            raise LexiconError(
                f"{where}: {text!r} is {category}; only subsective modifiers take a "
                "subsective_kind. Leave the column empty."
            )
        modifier = Modifier(text, category, attribute, kind, tuple(applies.split()))
        if modifiers.get((text, category)) == modifier:
            continue  # the same row twice
        if text in listed and not modifier.applies_to:
            raise LexiconError(
                f"{where}: {text!r} is listed again without applies_to; a later row of a "
                "modifier names the nouns it is for (a paper gun: privative for gun.n.01), or "
                "keep one row per modifier."
            )
        if (text, category) in modifiers and modifiers[text, category] != modifier:
            raise LexiconError(
                f"{where}: {text!r} is listed twice as {category} with different entries; keep "
                "one row per modifier and category."
            )
        listed.add(text)
        modifiers[text, category] = modifier
    return tuple(modifiers.values())


def check_categories(modifiers: tuple[Modifier, ...], source: str) -> None:
    """The nine category combinations need modifiers of every category."""
    if not modifiers:
        raise LexiconError(f"{source} lists no modifiers.")
    missing = [c for c in CATEGORIES if not any(m.category == c for m in modifiers)]
    if missing:
        raise LexiconError(
            f"{source} has no {' and no '.join(missing)} modifier: the RNPC rules and the nine "
            "category combinations need intersective, subsective and privative modifiers. Add at "
            f"least one {missing[0]} modifier."
        )


def load_modifier_lexicon(
    path: str | Path | None = None,
    attributes_path: str | Path | None = None,
    effects_path: str | Path | None = None,
) -> ModifierLexicon:
    """The shipped lexicon or a user's TSV in the same format (the original RNPC lexicon's
    folder is read by ``compsem.loading_scripts.rnpc_release.read_original_lexicon``)."""
    attributes = read_attributes(attributes_path, effects_path)
    path = Path(path) if path is not None else data_path("rnpc_modifiers.tsv")
    modifiers = parse_modifier_rows(read_tsv(path, MODIFIER_COLUMNS, 3), attributes, path.name)
    check_categories(modifiers, path.name)
    return ModifierLexicon(modifiers, attributes, path.name)
