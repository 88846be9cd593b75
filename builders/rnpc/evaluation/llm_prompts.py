"""RNPC's questions for causal LMs: SPTE and MPTE as textual entailment (the shared NLI prompt),
EPC as Event 2's plausibility compared with Event 1's (RNPC §3), three choices."""

from __future__ import annotations

from pathlib import Path

from compsem.benchmark.prompts import NLI, LLMPrompt
from compsem.builders.rnpc.labels.rules import EPC_LABELS

PLAUSIBILITY = tuple(EPC_LABELS)
EPC = LLMPrompt(
    name="epc",
    text="Event 1: {{ event1 }}\nEvent 2: {{ event2 }}\nQuestion: Compared with Event 1, is "
    "Event 2 less, equally or more plausible?\nAnswer:",
    choices=("less", "equally", "more"),
    labels=PLAUSIBILITY,
    source="RNPC §3: the plausibility of Event2 compared to that of Event1",
    parser="three_way",
)

# The first entry whose columns a config has gives its prompts, the first prompt the default.
LLM_PROMPTS = (
    (frozenset({"event1", "event2"}), (EPC,)),
    (frozenset({"premise", "hypothesis"}), (NLI,)),
)

# Appendix C.3's sanity check for `compsem probe-likelihood`, 50 pairs written for compsem (the
# paper's are not released): a commonsense statement as "necessarily" and "not necessarily"
# true, and which is right.
SANITY_PAIRS = Path(__file__).parent.parent / "data" / "likelihood_sanity.tsv"
