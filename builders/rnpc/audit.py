"""What RNPC's regimes promise (§5 challenge sets, §6 learning-curve splits), as checks
``compsem audit`` runs over every exported config."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from compsem.audit_checks import CheckResult, label_balance, vocabulary_disjoint
from compsem.builders.rnpc.config import LEARNING_CURVE_SIZES
from compsem.builders.rnpc.rules import RULES
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


AUDIT_CHECKS = {
    "split": [
        vocabulary_disjoint(
            ("modifier1",), ("test",), "M1 modifiers of test never M1 in train or validation"
        ),
        vocabulary_disjoint(
            ("modifier2",), ("test",), "M2 modifiers of test never M2 in train or validation"
        ),
        label_balance(),
        learning_curve_prefixes,
        rules_followed,
    ],
    "challenge": [label_balance(), rules_followed],
}
