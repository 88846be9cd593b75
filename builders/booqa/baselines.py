"""The reference runs of ``compsem baselines`` on this benchmark, with the offline models
(``compsem model-path``): the full set, and the quick set ``compsem demo`` runs."""

from compsem.benchmark.spec import Baseline

SMOLLM2 = "smollm2"

BASELINES = (
    # BoOQA Table 5: max over the evidence, AUCnorm beside ξ.
    Baseline("booqa-minilm-cosine", "booqa", "score", ("en",), {"method": "cosine"}, quick={}),
    Baseline("booqa-smollm2-0shot", "booqa", "llm", ("en",), {"model": SMOLLM2}, quick={}),
)
