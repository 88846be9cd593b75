"""What RNPC's regimes promise (§5 challenge sets, §6 learning-curve splits), as checks
``compsem audit`` runs over every exported config."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from compsem.benchmark.audit_checks import (
    CheckResult,
    compounds_disjoint,
    label_balance,
    vocabulary_disjoint,
)
from compsem.benchmark.size_floor import MIN_TEST_ROWS
from compsem.builders.rnpc.config import LEARNING_CURVE_SIZES
from compsem.builders.rnpc.labels.catalogue import RULES
from compsem.builders.rnpc.shortcut_balance import SPTE_SINGLE_SHARE
from compsem.builders.rnpc.tasks import LABEL_NAMES


def rules_followed(splits: dict[str, pa.Table]) -> CheckResult:
    """Every generated row's label is the label of the rule it names."""
    wrong, total = 0, 0
    for table in splits.values():
        names = LABEL_NAMES["epc" if "event1" in table.column_names else "spte"]
        for rule, label in zip(table["rule"].to_pylist(), table["label"].to_pylist(), strict=True):
            if rule in RULES:
                total += 1
                wrong += RULES[rule].label != names[label]
    if not total:
        return CheckResult("labels follow their rules", None, "no generated rules to check")
    return CheckResult(
        "labels follow their rules", not wrong, f"{total - wrong} of {total} rows agree"
    )


def learning_curve_prefixes(splits: dict[str, pa.Table]) -> CheckResult:
    """Each learning-curve prefix of train is balanced to within one item per label."""
    name = "learning-curve prefixes balanced"
    if "train" not in splits:
        return CheckResult(name, None, "no train split")
    labels = np.array(splits["train"]["label"].to_pylist())
    n_labels = max(len(np.unique(labels)), 2)
    uneven = [
        size
        for size in LEARNING_CURVE_SIZES
        if size <= len(labels) and np.ptp(np.bincount(labels[:size], minlength=n_labels)) > 1
    ]
    if uneven:
        return CheckResult(name, False, f"prefixes {uneven} are unbalanced")
    return CheckResult(name, True, f"prefixes {', '.join(map(str, LEARNING_CURVE_SIZES))}")


def majority_probe(values: np.ndarray, labels: np.ndarray) -> float:
    """Accuracy of the commonest label per value, learnt on a random half of the rows and scored
    on the other. The hypothesis-only probe keeps rows of one text in one half, right for
    hypotheses but not for a modifier's attribute, which recurs by design: it would never see
    the values it is scored on."""
    scored = np.random.default_rng(0).random(len(values)) < 0.5
    seen, seen_labels = values[~scored], labels[~scored]
    fallback = np.bincount(seen_labels).argmax()
    learnt = {value: np.bincount(seen_labels[seen == value]).argmax() for value in set(seen)}
    predicted = np.array([learnt.get(value, fallback) for value in values[scored]])
    return float(np.mean(predicted == labels[scored]))


def first_modifier_alone(splits: dict[str, pa.Table]) -> CheckResult:
    """SPTE: M1's attribute alone tells little of the label (shortcut_balance), on every split
    large enough to measure it."""
    name = "M1's attribute alone tells little"
    if not all({"hypothesis_type", "m1_attribute"} <= set(t.column_names) for t in splits.values()):
        return CheckResult(name, None, "an SPTE promise")
    bound = 0.5 + SPTE_SINGLE_SHARE + 0.05
    scores = {
        split: majority_probe(
            np.asarray(table["m1_attribute"].to_pylist()), np.asarray(table["label"].to_pylist())
        )
        for split, table in splits.items()
        if table.num_rows >= MIN_TEST_ROWS
    }
    if not scores:
        return CheckResult(name, None, f"no split of {MIN_TEST_ROWS:,} rows or more to measure")
    detail = ", ".join(f"{split} {score:.3f}" for split, score in sorted(scores.items()))
    return CheckResult(
        name, max(scores.values()) <= bound, f"{detail} (bound {bound:.2f})", numbers=scores
    )


AUDIT_CHECKS = {
    "split": [
        # validation is drawn from test's side of the modifier split (its rows are not test's)
        vocabulary_disjoint(
            ("modifier1",), ("train",), "M1 modifiers of train never M1 in validation or test"
        ),
        vocabulary_disjoint(
            ("modifier2",), ("train",), "M2 modifiers of train never M2 in validation or test"
        ),
        label_balance(),
        learning_curve_prefixes,
        rules_followed,
        first_modifier_alone,
    ],
    "challenge": [
        # train and validation are generated apart from test, from phrases it never holds
        compounds_disjoint(
            ("modifier1", "modifier2", "noun"),
            ("test", "validation"),
            "phrases (M1, M2, N) of test never in train or validation, nor validation's in train",
        ),
        label_balance(),
        learning_curve_prefixes,
        rules_followed,
        first_modifier_alone,
    ],
}
