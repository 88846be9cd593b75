"""RNPC's headline numbers as Lyu et al. print them (§6, Fig. 3's learning curves, whose end points
the text states): accuracy of the best model of each task before fine-tuning on RNPC and after 200
of its examples. Shown beside compsem's runs of the same task ("reported in the paper, not
rerun"); the curve in between is a figure only."""

from compsem.benchmark.spec import PaperResult

PAPER_RESULTS = tuple(
    PaperResult("Figure 3 (§6)", model, (task,), "accuracy", value, scale=100)
    for task, model, value in (
        ("spte", "RoBERTa-large (MNLI), no RNPC example", 61.1),
        ("spte", "RoBERTa-large (MNLI), 10 RNPC examples", 75.8),
        ("mpte", "RoBERTa-base (MPE), 200 RNPC examples", 67.8),
        ("epc", "RoBERTa-large (ADEPT), no RNPC example", 39.5),
        ("epc", "RoBERTa-large (ADEPT), 200 RNPC examples", 64.4),
    )
)
