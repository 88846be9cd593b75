"""What PLANE's split regimes promise (§6.1 GOoD, §6.2 One-IT, Appendix D in-distribution), as
checks ``compsem audit`` runs over every exported config."""

from __future__ import annotations

from compsem.audit_checks import (
    Check,
    atoms_in_train,
    compounds_disjoint,
    label_balance,
    no_lexical_cue,
    only_values,
    share_balance,
    vocabulary_disjoint,
)

_WORDS = ("adjective", "noun", "hypernym")
_PLANE_GOOD = [
    vocabulary_disjoint(_WORDS),
    label_balance(),
    share_balance("inference_type"),
    no_lexical_cue(("noun", "hypernym")),
]
_PLANE_ONE_IT = [*_PLANE_GOOD, only_values("inference_type", {3}, "IT3 items only")]
AUDIT_CHECKS: dict[str, list[Check]] = {
    "goood": _PLANE_GOOD,
    "one_it": _PLANE_ONE_IT,
    "original_goood": _PLANE_GOOD,
    "original_one_it": _PLANE_ONE_IT,
    "in_distribution": [
        compounds_disjoint(
            ("adjective", "noun", "hypernym", "inference_type"), name="compounds disjoint"
        ),
        compounds_disjoint(("adjective", "noun"), name="adjective-noun phrases disjoint"),
        atoms_in_train(_WORDS),
        label_balance(),
        share_balance("inference_type"),
        no_lexical_cue(("noun", "hypernym")),
    ],
}
