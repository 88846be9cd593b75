"""BoOQA's questions for causal LMs: is the hypothesis true given its window's evidence (the
first ``BOOQA_EVIDENCE`` pieces; an LLM's context is short), or given nothing (``h_only``,
Appendix E.1)."""

from __future__ import annotations

from compsem.benchmark.prompts import LLMPrompt
from compsem.builders.booqa.config import LABEL_NAMES

TRUTH = tuple(LABEL_NAMES)
BOOQA_EVIDENCE = 20
BOOQA_EVIDENCE_PROMPT = LLMPrompt(
    name="booqa_evidence",
    text="News reports:\n{% for piece in evidence[:" + str(BOOQA_EVIDENCE) + "] %}- "
    "{{ piece.text }}\n{% endfor %}Question: Based on these reports, is it true that "
    "{{ hypothesis }}? True or False?\nAnswer:",
    choices=("False", "True"),
    labels=TRUTH,
    parser="choices",
    source=f"BoOQA §3: the hypothesis against its window's evidence (first {BOOQA_EVIDENCE})",
)
BOOQA_H_ONLY = LLMPrompt(
    name="booqa_h_only",
    text="Question: Is it true that {{ hypothesis }}? True or False?\nAnswer:",
    choices=("False", "True"),
    labels=TRUTH,
    parser="choices",
    source="BoOQA Appendix E.1: the hypothesis alone",
)

# The first entry whose columns a config has gives its prompts, the first prompt the default.
LLM_PROMPTS = (
    (frozenset({"evidence"}), (BOOQA_EVIDENCE_PROMPT,)),
    (frozenset({"hypothesis"}), (BOOQA_H_ONLY,)),
)
