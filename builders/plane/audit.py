"""What PLANE's split regimes promise (§6.1 GOoD, §6.2 One-IT, Appendix D in-distribution), as
checks ``compsem audit`` runs over every exported config."""

from __future__ import annotations

from compsem.benchmark.audit_checks import (
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
_BALANCED = [label_balance(), share_balance("inference_type"), no_lexical_cue(("noun", "hypernym"))]
_IT3 = only_values("inference_type", {3}, "IT3 items only")
# Ours: validation and test each have a vocabulary of their own. The release has no validation.
_PLANE_GOOD = [vocabulary_disjoint(_WORDS, held_out=("validation", "test")), *_BALANCED]
_ORIGINAL_GOOD = [vocabulary_disjoint(_WORDS), *_BALANCED]
AUDIT_CHECKS: dict[str, list[Check]] = {
    "goood": _PLANE_GOOD,
    "one_it": [*_PLANE_GOOD, _IT3],
    "original_goood": _ORIGINAL_GOOD,
    "original_one_it": [*_ORIGINAL_GOOD, _IT3],
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
