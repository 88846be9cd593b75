"""The reference runs of ``compsem baselines`` on this benchmark, with the offline models
(``compsem model-path``): the full set, and the quick set ``compsem demo`` runs."""

from compsem.benchmark.spec import Baseline

MINILM = "minilm"
GLOVE = "glove"

BASELINES = (
    # Montague Tables 2-5 (and 6-7 with AAN).
    Baseline(
        "montague-embed",
        "montague",
        "embed",
        ("an", "aan"),
        {"models": (MINILM, GLOVE)},
        quick={"configs": ("an",)},
    ),
)
