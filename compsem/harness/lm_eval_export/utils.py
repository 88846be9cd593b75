"""The functions compsem's lm-eval tasks name with ``!function utils.…``.

``compsem lm-eval-tasks`` copies this file beside the task YAMLs as ``utils.py``, compsem's answer
parsers (``compsem/benchmark/answers.py``, pure Python) as ``answers.py`` (and
``metrics/aucnorm/aucnorm.py`` as ``aucnorm.py`` where a benchmark reports AUCnorm). It imports
nothing from compsem, so the task folder runs wherever lm-eval runs: lm-eval itself requires
``datasets``, ``evaluate`` and ``numpy``.
"""

from __future__ import annotations

import importlib.util
import logging
import math
from pathlib import Path

import datasets
import numpy as np

HERE = Path(__file__).resolve().parent
POSITIVE = 1  # compsem's binary labels put the positive class (entailment, true) at index 1
log = logging.getLogger(__name__)


def load_export(compsem_config: str, compsem_export: str, compsem_benchmark: str, **metadata):
    """The config's splits from the export: the folder ``--metadata '{"<benchmark>_export":
    "DIR"}'`` names, else ``compsem_export`` taken relative to this task folder (lm-eval passes
    its ``--metadata`` and model arguments here too; only that key is read)."""
    given = metadata.get(f"{compsem_benchmark}_export")
    folder = Path(given).expanduser() if given else HERE / compsem_export
    if not (folder / "README.md").is_file():
        raise FileNotFoundError(
            f"no compsem export at {folder}: keep the export at {compsem_export} relative to "
            f'this task folder, or pass --metadata \'{{"{compsem_benchmark}_export": "DIR"}}\''
        )
    return datasets.load_dataset(str(folder), compsem_config)


def p_positive(log_likelihoods) -> float:
    """The positive answer's probability among the choices (softmax of their log-likelihoods),
    as ``compsem llm`` computes it."""
    row = np.asarray(log_likelihoods, dtype=float)
    shifted = np.exp(row - row.max())
    return float((shifted / shifted.sum())[POSITIVE])


def process_results(doc: dict, results) -> dict:
    """lm-eval's ``acc`` of a multiple-choice row, and (P(positive), gold) for ``aucnorm``."""
    log_likelihoods = [log_likelihood for log_likelihood, _ in results]
    gold = int(doc["label"])
    return {
        "acc": float(int(np.argmax(log_likelihoods)) == gold),
        "aucnorm": (p_positive(log_likelihoods), gold),
    }


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"compsem_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parsed(references, predictions, parser: str, choices) -> tuple[int | None, int]:
    """The label index the benchmark's parser reads in the generated answer, and the gold one
    (lm-eval passes the gold answer's text: the task names ``doc_to_choice``)."""
    answer = _module("answers").parse_answer(parser, predictions[0], list(choices))
    return answer, list(choices).index(references[0])


def acc(references, predictions, parser: str, choices) -> float:
    """1.0 where the parsed answer is the gold label (an unparsable answer counts wrong)."""
    answer, gold = parsed(references, predictions, parser, choices)
    return float(answer == gold)


def unparsable(references, predictions, parser: str, choices) -> float:
    """1.0 where the parser reads no answer in the generation."""
    return float(parsed(references, predictions, parser, choices)[0] is None)


def aucnorm(items) -> float:
    """AUCnorm of P(positive) over the rows (Li et al., 2022), by compsem's aucnorm metric;
    NaN, with a warning, where the rows hold one class only (a curve needs both)."""
    scores, golds = zip(*items, strict=True)
    if len(set(golds)) < 2:
        log.warning("aucnorm: the %d rows evaluated hold one class only; reporting NaN", len(golds))
        return math.nan
    return float(_module("aucnorm").aucnorm_scores(list(scores), list(golds))["aucnorm"])
