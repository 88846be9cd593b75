"""RNPC §7: what models learn from RNPC, probed. ``compsem probe-edges`` reads each modifier of a
phrase ``Det M1 M2 N`` with its semantic category (intersective, subsective, privative: McCrae et
al. 2014, the lexicon's categories) for a linear probe on frozen token representations (edge
probing, Tenney et al. 2019; Appendix E.3); ``compsem probe-scope`` reads the phrases whose M1 is
privative for the attention ratio r = A(M1→M2) / (A(M1→M2) + A(M1→N)) (Fig. 5)."""

from __future__ import annotations

from compsem.benchmark.spec import ModifierProbes
from compsem.resources.modifiers import CATEGORIES

MODIFIER_PROBES = ModifierProbes(
    categories=CATEGORIES,
    modifiers=(("modifier1", "m1_category"), ("modifier2", "m2_category")),
    noun="noun",
    phrase="np",
    # SPTE's and MPTE's premise, EPC's second event: each holds the whole phrase
    sentences=("premise", "event2"),
    scope_category="privative",
    # Fig. 5's three sub-figures (fraudulent is not in compsem's lexicon)
    figure_modifiers=("alleged", "counterfeit", "fraudulent"),
    source="RNPC §7, Figs. 4-5 and Appendix E.3",
)
