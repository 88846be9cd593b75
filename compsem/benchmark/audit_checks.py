"""The properties a split regime promises, as checks over a config's splits.

A check is a callable ``(splits: dict[str, pyarrow.Table]) -> CheckResult``. The factories here
build the ones the papers' regimes need; a builder module lists its own per regime in
its spec's ``audit_checks`` (see ``compsem/benchmark/spec.py``), e.g. an RNPC modifier-position check is::

    def modifier_positions_disjoint(splits):
        ...
        return CheckResult("modifier positions disjoint", passed=not shared, detail=...)

    AUDIT_CHECKS = {"modifier_ood": [modifier_positions_disjoint, label_balance()]}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

Splits = dict[str, pa.Table]
HELD_OUT = ("test",)
SHOWN = 5  # offending values named in a detail


@dataclass
class CheckResult:
    """The outcome of one check. ``passed`` None means informational (nothing was promised, or
    the splits it needs are absent); a promised check that fails breaks the audit."""

    name: str
    passed: bool | None
    detail: str
    promised: bool = True
    numbers: dict = field(default_factory=dict)

    @property
    def broken(self) -> bool:
        return self.promised and self.passed is False


Check = Callable[[Splits], CheckResult]


def _sample(values: Iterable) -> str:
    values = sorted(map(str, values))
    more = f" … ({len(values) - SHOWN} more)" if len(values) > SHOWN else ""
    return ", ".join(values[:SHOWN]) + more


def _values(table: pa.Table, column: str) -> set:
    if column not in table.column_names:
        return set()
    return set(table[column].drop_null().unique().to_pylist()) - {""}


def _tuples(table: pa.Table, columns: tuple[str, ...]) -> set[tuple]:
    present = [c for c in columns if c in table.column_names]
    return set(zip(*(table[c].to_pylist() for c in present), strict=True)) if present else set()


def _pairs(splits: Splits, held_out: tuple[str, ...]):
    """(held-out split, other split) for each held-out split present."""
    for evaluation in held_out:
        if evaluation in splits:
            for other in splits:
                if other != evaluation:
                    yield evaluation, other


def vocabulary_disjoint(
    fields: tuple[str, ...], held_out: tuple[str, ...] = HELD_OUT, name: str | None = None
) -> Check:
    """No word of a held-out split occurs in any other split in any of ``fields`` (a word that is
    a hypernym in test and a noun in train counts): PLANE §6.1's "each adjective, noun, and
    hypernym is unique to either the train or the test set"."""
    name = name or "vocabulary disjoint in every role"

    def check(splits: Splits) -> CheckResult:
        pairs = list(_pairs(splits, held_out))
        if not pairs:
            return CheckResult(name, None, f"no {'/'.join(held_out)} split to hold out")
        leaks, total = [], 0
        for evaluation, other in pairs:
            for role in fields:
                for other_role in fields:
                    shared = _values(splits[evaluation], role) & _values(splits[other], other_role)
                    if shared:
                        total += len(shared)
                        leaks.append(
                            f"{len(shared)} {role}(s) of {evaluation} are {other_role}s in "
                            f"{other} ({_sample(shared)})"
                        )
        if leaks:
            return CheckResult(name, False, "; ".join(leaks), numbers={"shared": total})
        held = {evaluation: [] for evaluation, _ in pairs}
        for evaluation, other in pairs:
            held[evaluation].append(other)
        detail = "; ".join(
            f"{len(set().union(*(_values(splits[split], role) for role in fields)))} words of "
            f"{split} occur nowhere in {', '.join(others)}"
            for split, others in held.items()
        )
        return CheckResult(name, True, detail)

    return check


def compounds_disjoint(
    fields: tuple[str, ...], held_out: tuple[str, ...] = HELD_OUT, name: str | None = None
) -> Check:
    """No combination of ``fields`` (a compound) of a held-out split occurs in another split."""
    name = name or f"⟨{', '.join(fields)}⟩ compounds disjoint"

    def check(splits: Splits) -> CheckResult:
        pairs = list(_pairs(splits, held_out))
        if not pairs:
            return CheckResult(name, None, f"no {'/'.join(held_out)} split to hold out")
        leaks = []
        for evaluation, other in pairs:
            shared = _tuples(splits[evaluation], fields) & _tuples(splits[other], fields)
            if shared:
                shown = [" ".join(str(v) for v in compound if v is not None) for compound in shared]
                leaks.append(f"{len(shared)} of {evaluation} occur in {other} ({_sample(shown)})")
        if leaks:
            return CheckResult(name, False, "; ".join(leaks))
        count = len(_tuples(splits[pairs[0][0]], fields))
        others = ", ".join(other for _, other in pairs)
        return CheckResult(name, True, f"none of {count} in {pairs[0][0]} occurs in {others}")

    return check


def atoms_in_train(
    fields: tuple[str, ...],
    evaluated: tuple[str, ...] = ("validation", "test"),
    train="train",
    name: str | None = None,
) -> Check:
    """Every value of ``fields`` in the evaluated splits also occurs in ``train`` in the same
    role: PLANE Appendix D's overlapping atoms."""
    name = name or f"atoms of {' and '.join(evaluated)} occur in {train}"

    def check(splits: Splits) -> CheckResult:
        if train not in splits:
            return CheckResult(name, None, f"no {train} split")
        missing = []
        for split in (s for s in evaluated if s in splits):
            for role in fields:
                unseen = _values(splits[split], role) - _values(splits[train], role)
                if unseen:
                    missing.append(
                        f"{len(unseen)} {role}(s) of {split} never {role}s in {train} "
                        f"({_sample(unseen)})"
                    )
        if missing:
            return CheckResult(name, False, "; ".join(missing))
        return CheckResult(name, True, f"every {', '.join(fields)} is seen in {train}")

    return check


def _label_counts(table: pa.Table, column: str = "label") -> Counter:
    return Counter(v for v in table[column].to_pylist() if v is not None and v >= 0)


def label_balance(tolerance: float = 0.01, column: str = "label") -> Check:
    """Each label's share of every split lies within ``tolerance`` of an equal share."""
    return share_balance(column, tolerance, name="labels balanced")


def share_balance(column: str, tolerance: float = 0.01, name: str | None = None) -> Check:
    """The values of ``column`` present in a split occur in equal shares, within ``tolerance``."""
    name = name or f"{column} in equal shares"

    def check(splits: Splits) -> CheckResult:
        uneven, shown = [], []
        for split, table in splits.items():
            if column not in table.column_names or table.num_rows == 0:
                continue
            counts = _label_counts(table, column)
            total = sum(counts.values())
            shares = {value: count / total for value, count in sorted(counts.items())}
            text = "/".join(f"{100 * share:.1f}" for share in shares.values())
            shown.append(f"{split} {text}%")
            if len(shares) < 2 and column == "label":
                uneven.append(f"{split} has a single label")
            elif any(abs(share - 1 / len(shares)) > tolerance for share in shares.values()):
                uneven.append(f"{split} {text}%")
        if not shown:
            return CheckResult(name, None, f"no {column} column")
        if uneven:
            return CheckResult(
                name, False, f"off by more than {tolerance:.0%}: {'; '.join(uneven)}"
            )
        return CheckResult(name, True, "; ".join(shown))

    return check


def only_values(column: str, allowed: set, name: str | None = None) -> Check:
    """Every row's ``column`` is one of ``allowed`` (One-IT: inference type 3 only)."""
    name = name or f"{column} only {', '.join(map(str, sorted(allowed)))}"

    def check(splits: Splits) -> CheckResult:
        found = set().union(*(_values(t, column) for t in splits.values()))
        extra = found - set(allowed)
        if extra:
            return CheckResult(name, False, f"also {_sample(extra)}")
        return CheckResult(name, True, f"every row has {column} in {sorted(allowed)}")

    return check


def no_lexical_cue(fields: tuple[str, ...], column: str = "label") -> Check:
    """No value of ``fields`` occurs with a single label within a split, so no word alone gives
    the answer away (PLANE §6.2: "nouns and hypernyms do not act as cues")."""
    name = f"no {'/'.join(fields)} with a single label"

    def check(splits: Splits) -> CheckResult:
        cues = []
        for split, table in splits.items():
            for role in fields:
                if role not in table.column_names:
                    continue
                grouped = (
                    table.select([role, column])
                    .filter(pc.is_valid(table[role]))
                    .group_by(role)
                    .aggregate([(column, "count_distinct")])
                )
                single = grouped.filter(pc.less(grouped[f"{column}_count_distinct"], 2))
                if single.num_rows:
                    cues.append(
                        f"{single.num_rows} {role}(s) in {split} ({_sample(single[role].to_pylist())})"
                    )
        if cues:
            return CheckResult(name, False, "; ".join(cues))
        return CheckResult(name, True, "every one occurs with both labels")

    return check


def input_fields(table: pa.Table, declared: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The columns that make a row's model input: those of ``declared`` the table has, else
    premise + hypothesis, else the first of sentence, prompt, text, question, else every scalar
    column but id and label."""
    present = tuple(column for column in declared or () if column in table.column_names)
    if present:
        return present
    if {"premise", "hypothesis"} <= set(table.column_names):
        return ("premise", "hypothesis")
    for column in ("sentence", "prompt", "text", "question"):
        if column in table.column_names:
            return (column,)
    return tuple(
        field.name
        for field in table.schema
        if field.name not in ("id", "label") and not pa.types.is_list(field.type)
    )


def no_duplicates_within(fields: tuple[str, ...] | None = None) -> Check:
    """No split repeats an id or a model input; repeated inputs with different labels are named."""
    name = "no duplicates within a split"

    def check(splits: Splits) -> CheckResult:
        found = []
        for split, table in splits.items():
            if "id" in table.column_names:
                repeated = table.num_rows - len(table["id"].unique())
                if repeated:
                    found.append(f"{repeated} repeated id(s) in {split}")
            columns = input_fields(table, fields)
            inputs = Counter(zip(*(table[c].to_pylist() for c in columns), strict=True))
            repeated = {key: n for key, n in inputs.items() if n > 1}
            if repeated:
                shown = [" / ".join(map(str, key)) for key in repeated]
                found.append(
                    f"{sum(repeated.values()) - len(repeated)} repeated input(s) in {split} "
                    f"({_sample(shown)})"
                )
        if found:
            return CheckResult(name, False, "; ".join(found))
        return CheckResult(name, True, f"ids and inputs unique in {', '.join(splits)}")

    return check


def no_duplicates_across(fields: tuple[str, ...] | None = None) -> Check:
    """No model input (or id) occurs in two splits of a config."""
    name = "no duplicates across splits"

    def check(splits: Splits) -> CheckResult:
        if len(splits) < 2:
            return CheckResult(name, None, "one split only")
        names, found = list(splits), []
        for index, first in enumerate(names):
            for second in names[index + 1 :]:
                columns = input_fields(splits[first], fields)
                shared = _tuples(splits[first], columns) & _tuples(splits[second], columns)
                if shared:
                    shown = [" / ".join(map(str, key)) for key in shared]
                    found.append(
                        f"{len(shared)} input(s) in {first} and {second} ({_sample(shown)})"
                    )
        if found:
            return CheckResult(name, False, "; ".join(found))
        return CheckResult(name, True, f"no input shared between {', '.join(names)}")

    return check


def label_distribution(column: str = "label", names: list[str] | None = None) -> Check:
    """Informational: each split's label counts (balance is checked where a regime promises it)."""

    def check(splits: Splits) -> CheckResult:
        parts = []
        for split, table in splits.items():
            if column not in table.column_names:
                continue
            counts = _label_counts(table, column)
            total = sum(counts.values()) or 1
            shares = ", ".join(
                f"{names[value] if names and value < len(names) else value} "
                f"{100 * count / total:.1f}%"
                for value, count in sorted(counts.items())
            )
            parts.append(f"{split}: {shares}")
        return CheckResult("label distribution", None, "; ".join(parts) or "no labels", False)

    return check


def single_label_splits(names: list[str] | None = None, column: str = "label") -> Check:
    """Informational: the splits that hold one label only. A model's accuracy there is the share
    of its predictions that are that label, so it says nothing of the other; read it beside the
    per-label shares of predictions (SETI's −R_ver test, for one, is all non_entailment)."""
    name = "splits holding one label"

    def check(splits: Splits) -> CheckResult:
        single = []
        for split, table in splits.items():
            counts = _label_counts(table, column) if column in table.column_names else Counter()
            if len(counts) == 1:
                ((value, rows),) = counts.items()
                label = names[value] if names and value < len(names) else value
                single.append(f"{split} is all {label} ({rows:,} rows)")
        if not single:
            return CheckResult(name, None, "none", promised=False)
        detail = "; ".join(single) + ": accuracy there is only the share of that label predicted"
        return CheckResult(name, None, detail, promised=False, numbers={"splits": len(single)})

    return check
