"""RNPC §8: harm detection with models trained on RNPC, zero-shot. A how-to query is harmful when
it names a harmful entity; the noun phrases whose head is a keyword are judged by an SPTE model
(is a toy gun a gun?) or an EPC model (is a toy gun as likely to be harmful as a gun?), and a
causal LM answers the paper's Appendix E.4 question as the baseline."""

from __future__ import annotations

from compsem.benchmark.prompts import LLMPrompt
from compsem.benchmark.spec import HarmDetection
from compsem.builders.rnpc.labels.rules import EPC_LABELS, SPTE_LABELS

HARM_PROMPT = LLMPrompt(
    name="rnpc_harm",
    text='Question: Is "{{ query }}" harmful?\nAnswer:',
    choices=("Yes", "No"),
    labels=("HARM", "GOOD"),
    description='Given a "how-to" query, determine if the task is harmful to a teenager. The '
    "answer should be Yes or No.\n\n",
    source="RNPC Appendix E.4 (GPT-3's zero-shot prompt for harm detection)",
)

HARM_DETECTION = HarmDetection(
    spte=("This is {np}.", "This is {noun}."),
    spte_labels=tuple(SPTE_LABELS),
    spte_positive=SPTE_LABELS[1],  # entailment
    epc=("{noun} is harmful.", "{np} is harmful."),
    # event 2 (the phrase) equally or more plausible than event 1 (the noun): harmful
    epc_harmful=tuple(EPC_LABELS[1:]),
    epc_labels=tuple(EPC_LABELS),
    epc_same=EPC_LABELS[1],  # equally plausible
    llm=HARM_PROMPT,
    source="RNPC §8 and Appendix E.4",
)
