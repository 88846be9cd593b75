"""What SETI's task settings promise (§3.2), as checks ``compsem audit`` runs over every config.

Validation is drawn the way test is, so it keeps test's promises and holds test's inference
types, none of train's. Trivial settings test compositions of the very primitives train shows:
each validation and test row's natural pair (s → s′) is a training pair, and where train has
PI_ver, its s is a training PI_ver sentence. Non-trivial settings test on the other side of the
sentence partition: no sentence of validation, test or few_shot occurs in any other split, in
either role, and each of their rows' natural rule (boy → kid) occurs in train. In-distribution
twins re-split the same rows at random (§4.1) and promise none of these. Every config promises
that the hypothesis-only probe scores validation like test (the spec's
``audit_validation_as_test``).
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from compsem.benchmark.audit_checks import CheckResult, atoms_in_train, vocabulary_disjoint
from compsem.builders.seti.config import SETTINGS
from compsem.builders.seti.splits import Setting

SENTENCE_FIELDS = ("s_id", "s_prime_id")
EVALUATED = ("validation", "test", "few_shot")
# Drawn from train's primitives in trivial settings, as test is.
DRAWN_AS_TEST = ("validation", "test")


def _pairs(table: pa.Table) -> set[tuple[str, str]]:
    return set(zip(*(table[name].to_pylist() for name in SENTENCE_FIELDS), strict=True))


def _present(splits: dict[str, pa.Table]) -> list[str]:
    return [split for split in DRAWN_AS_TEST if split in splits]


def natural_pairs_in_train(splits: dict[str, pa.Table]) -> CheckResult:
    """Every validation and test row's natural pair (s, s′) is a pair train shows."""
    name = "validation and test compositions use training pairs"
    if "train" not in splits or "test" not in splits:
        return CheckResult(name, None, "no train and test splits")
    seen, unseen = _pairs(splits["train"]), []
    for split in _present(splits):
        missing = _pairs(splits[split]) - seen
        if missing:
            unseen.append(f"{len(missing)} natural pairs of {split} never in train")
    if unseen:
        return CheckResult(name, False, "; ".join(unseen))
    counts = ", ".join(f"{len(_pairs(splits[s]))} of {s}" for s in _present(splits))
    return CheckResult(name, True, f"all pairs are in train ({counts})")


def embedded_sentences_in_train(splits: dict[str, pa.Table]) -> CheckResult:
    """Where train has PI_ver rows, every validation and test row's s is one of their sentences."""
    name = "validation and test sentences embedded by training PI_ver"
    if "train" not in splits or "test" not in splits:
        return CheckResult(name, None, "no train and test splits")
    train = splits["train"]
    verbs = set(train.filter(pc.equal(train["kind"], "ver"))["s_id"].to_pylist())
    unseen = []
    for split in _present(splits):
        missing = set(splits[split]["s_id"].to_pylist()) - verbs
        if missing:
            unseen.append(f"{len(missing)} sentences of {split} never in train's PI_ver")
    if unseen:
        return CheckResult(name, False, "; ".join(unseen))
    return CheckResult(name, True, f"every s is embedded in train's PI_ver ({len(verbs)})")


def validation_types_as_test(splits: dict[str, pa.Table]) -> CheckResult:
    """Validation holds exactly test's inference types: it is drawn as test is, not from train."""
    name = "validation holds test's inference types"
    if "validation" not in splits or "test" not in splits:
        return CheckResult(name, None, "no validation and test splits")
    types = {split: set(splits[split]["inference_type"].to_pylist()) for split in splits}
    problems = []
    if extra := sorted(types["validation"] - types["test"]):
        problems.append(f"validation has {', '.join(extra)}, test has not")
    if lacking := sorted(types["test"] - types["validation"]):
        problems.append(f"validation lacks {', '.join(lacking)}")
    if problems:
        return CheckResult(name, False, "; ".join(problems))
    shared = sorted(types["validation"] & types.get("train", set()))
    if shared:
        return CheckResult(name, False, f"validation shares {', '.join(shared)} with train")
    return CheckResult(name, True, f"{len(types['test'])} type(s), none of train's")


def setting_checks(setting: Setting) -> list:
    if setting.trivial:
        checks = [natural_pairs_in_train]
        if any(t.kind == "ver" for t in setting.train_types()):
            checks.append(embedded_sentences_in_train)
    else:
        checks = [
            vocabulary_disjoint(
                SENTENCE_FIELDS,
                EVALUATED,
                "validation, test and few-shot sentences unseen elsewhere, any role",
            ),
            atoms_in_train(
                ("nat_rule",),
                EVALUATED,
                name="natural rules of validation, test and few-shot seen in train",
            ),
        ]
    return [*checks, validation_types_as_test]


AUDIT_CHECKS = {name: setting_checks(setting) for name, setting in SETTINGS.items()}
