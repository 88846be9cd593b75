"""S&S, the gauge model of BoOQA §3 (Li et al. 2022): Schmitt and Schütze's (2021b, EACL,
"Language Models for Lexical Inference in Context") hand-crafted patterns and antipatterns, into
which ``compsem train --method ss`` puts each Levy/Holt pair of propositions.

S&S lists five patterns; its fourth and fifth need the premise and hypothesis negated, and
without those negations (Levy/Holt's propositions come without them) they are the converses of
the third and the first. BoOQA Appendix B found this bug and fixed it: its released code
(``PATTERNS_DIR`` of its ``discrete_prompt_model``) keeps the first three patterns with all five
antipatterns, the model of its §3 and Appendices B and C. ``SS_CONVERSE_PATTERNS`` keeps the
two left out, for the record; ``compsem.benchmark.prompts.PromptPatterns`` instantiates them.
"""

from __future__ import annotations

from compsem.benchmark.prompts import PromptPatterns

# S&S's patterns (a)-(c): the premise entails the hypothesis.
PATTERNS = (
    "{pal} {prem} {par}, which means that {hal} {hypo} {har}.",
    "It is not the case that {hal} {hypo} {har}, let alone that {pal} {prem} {par}.",
    "{hal} {hypo} {har} because {pal} {prem} {par}.",
)
# (d) and (e) without their negations: the converses of (c) and (a) (BoOQA Appendix B).
SS_CONVERSE_PATTERNS = (
    "{pal} {prem} {par} because {hal} {hypo} {har}.",
    "{hal} {hypo} {har}, which means that {pal} {prem} {par}.",
)
# The antipatterns: the premise does not entail the hypothesis.
ANTIPATTERNS = (
    "It is not sure that {hal} {hypo} {har} just because {pal} {prem} {par}.",
    "{pal} {prem} {par}. This does not mean that {hal} {hypo} {har}.",
    "The fact that {pal} {prem} {par} does not necessarily mean that {hal} {hypo} {har}.",
    "Even if {pal} {prem} {par}, {hal} maybe {hypo} {har}.",
    "Just because {pal} {prem} {par}, it might still not be true that {hal} {hypo} {har}.",
)
PLACES = ("pal", "prem", "par", "hal", "hypo", "har")
COLUMNS = tuple(
    f"{side}_{part}"
    for side in ("premise", "hypothesis")
    for part in ("subject", "predicate", "object")
)
SS_PATTERNS = PromptPatterns(
    patterns=PATTERNS,
    antipatterns=ANTIPATTERNS,
    fields=tuple(zip(PLACES, COLUMNS, strict=True)),
    # premise and hypothesis trade places: pal takes hal's value, hal pal's, and so on
    reverse=tuple(zip(PLACES, PLACES[3:] + PLACES[:3], strict=True)),
    source="Schmitt and Schütze (2021b) patterns (a)-(c) and antipatterns, as BoOQA App. B "
    "fixed them",
)
