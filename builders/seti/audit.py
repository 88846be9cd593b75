"""What SETI's task settings promise (§3.2), as checks ``compsem audit`` runs over every config.

Trivial settings test compositions of the very primitives train shows: each test row's natural
pair (s → s′) is a training pair, and where train has PI_ver, its s is a training PI_ver
sentence. Non-trivial settings test on the other side of the sentence partition: no sentence of
test (or few_shot) occurs in train, validation or each other, in either role, and each test
row's natural rule (boy → kid) occurs in train. In-distribution twins re-split the same rows at
random (§4.1) and promise neither.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from compsem.audit_checks import CheckResult, atoms_in_train, vocabulary_disjoint
from compsem.builders.seti.config import SETTINGS
from compsem.builders.seti.splits import Setting

SENTENCE_FIELDS = ("s_id", "s_prime_id")
EVALUATED = ("test", "few_shot")


def _pairs(table: pa.Table) -> set[tuple[str, str]]:
    return set(zip(*(table[name].to_pylist() for name in SENTENCE_FIELDS), strict=True))


def natural_pairs_in_train(splits: dict[str, pa.Table]) -> CheckResult:
    """Every test row's natural pair (s, s′) is a pair train shows."""
    name = "test compositions use training pairs"
    if "train" not in splits or "test" not in splits:
        return CheckResult(name, None, "no train and test splits")
    unseen = _pairs(splits["test"]) - _pairs(splits["train"])
    if unseen:
        return CheckResult(name, False, f"{len(unseen)} natural pairs of test never in train")
    return CheckResult(name, True, f"all {len(_pairs(splits['test']))} pairs of test are in train")


def embedded_sentences_in_train(splits: dict[str, pa.Table]) -> CheckResult:
    """Where train has PI_ver rows, every test row's s is one of their sentences."""
    name = "test sentences embedded by training PI_ver"
    if "train" not in splits or "test" not in splits:
        return CheckResult(name, None, "no train and test splits")
    train = splits["train"]
    verbs = train.filter(pc.equal(train["kind"], "ver"))["s_id"].to_pylist()
    unseen = set(splits["test"]["s_id"].to_pylist()) - set(verbs)
    if unseen:
        return CheckResult(name, False, f"{len(unseen)} sentences of test never in train's PI_ver")
    return CheckResult(name, True, f"every s of test is embedded in train's PI_ver ({len(verbs)})")


def setting_checks(setting: Setting) -> list:
    if setting.trivial:
        checks = [natural_pairs_in_train]
        if any(t.kind == "ver" for t in setting.train_types()):
            checks.append(embedded_sentences_in_train)
        return checks
    return [
        vocabulary_disjoint(
            SENTENCE_FIELDS, EVALUATED, "test and few-shot sentences unseen elsewhere, any role"
        ),
        atoms_in_train(("nat_rule",), EVALUATED, name="natural rules of test seen in train"),
    ]


AUDIT_CHECKS = {name: setting_checks(setting) for name, setting in SETTINGS.items()}
