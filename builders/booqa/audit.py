"""What BoOQA's configs promise (§4 disjoint time spans, App. D whole bundles, App. E.1 no
proposition in two H-only splits), as checks ``compsem audit`` runs over every exported config."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from compsem.benchmark.audit_checks import CheckResult
from compsem.builders.booqa.splits import column_rows, propositions_of


def time_spans_disjoint(splits: dict[str, pa.Table]):
    """§4: dev and test come from disjoint time spans, dev first."""
    name = "dev and test time spans disjoint"
    if not all(len(splits.get(split, [])) for split in ("dev", "test")):
        return CheckResult(name, None, "needs non-empty dev and test splits")
    last = pc.max(splits["dev"]["window_end"]).as_py()
    first = pc.min(splits["test"]["window_start"]).as_py()
    return CheckResult(name, last < first, f"dev ends {last}, test starts {first}")


def bundles_whole(splits: dict[str, pa.Table]):
    """App. D: a bundle is its positive and one or two of its negatives, in one split."""
    broken, owners = [], {}
    for split, table in splits.items():
        for bundle_id, rows in _group(table, "bundle_id").items():
            positives = [key for key, label in rows if label == 1]
            if positives != [bundle_id] or not 1 <= len(rows) - 1 <= 2:
                broken.append(bundle_id)
            owners.setdefault(bundle_id, set()).add(split)
    broken += [bundle for bundle, split_names in owners.items() if len(split_names) > 1]
    detail = f"{len(broken)} broken bundle(s), e.g. {broken[:3]}" if broken else "all whole"
    return CheckResult("bundles whole", not broken, detail)


def _group(table: pa.Table, column: str) -> dict[str, list[tuple[str, int]]]:
    groups: dict[str, list[tuple[str, int]]] = {}
    for key, row_id_, label in column_rows(table, column, "id", "label"):
        groups.setdefault(key, []).append((row_id_, label))
    return groups


def no_shared_proposition(splits: dict[str, pa.Table]):
    """App. E.1: no proposition (subject, predicate, object) in two H-only splits."""
    seen, shared = {}, set()
    for split, table in splits.items():
        for proposition in set(propositions_of(table)):
            if proposition in seen:
                shared.add(proposition)
            seen[proposition] = split
    detail = f"{len(shared)} shared, e.g. {sorted(shared)[:3]}" if shared else "none shared"
    return CheckResult("no proposition in two splits", not shared, detail)


AUDIT_CHECKS = {"en": [time_spans_disjoint, bundles_whole], "h_only": [no_shared_proposition]}
