"""The functions compsem's lm-eval tasks name with ``!function utils.…``.

``compsem lm-eval-tasks`` copies this file beside the task YAMLs as ``utils.py``, compsem's answer
parsers (``compsem/benchmark/answers.py``, pure Python) as ``answers.py``,
``compsem/files/bounded_read.py`` as ``bounded_read.py`` (compsem's one reader of a user's files)
and ``metrics/aucnorm/aucnorm.py`` as ``aucnorm.py`` where a benchmark reports AUCnorm.
It imports nothing from compsem, so the task folder runs wherever lm-eval runs: lm-eval itself
requires ``datasets``, ``evaluate`` and ``numpy``.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import math
import os
import stat
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
    bounded = sibling_module("bounded_read")
    try:
        bounded.read_bytes(folder / "README.md", "card")  # a regular file, within the card cap
    except bounded.MissingFile:
        raise FileNotFoundError(
            f"no compsem export at {folder}: keep the export at {compsem_export} relative to "
            f'this task folder, or pass --metadata \'{{"{compsem_benchmark}_export": "DIR"}}\''
        ) from None
    check_data_files(folder, bounded)
    return datasets.load_dataset(str(folder), compsem_config)


@functools.cache
def sibling_module(name: str):
    """The module ``name``.py that ``compsem lm-eval-tasks`` copied beside this file, loaded
    once it is checked to be a regular file (a FIFO there would block the import)."""
    path = HERE / f"{name}.py"
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ValueError(f"{path} is not a regular file; run compsem lm-eval-tasks again.")
    spec = importlib.util.spec_from_file_location(f"compsem_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_data_files(folder: Path, bounded) -> None:
    """Every file ``datasets`` may read from the export (all but hidden ones) is a regular file
    inside ``folder`` once links are resolved, refused before reading otherwise."""
    root = folder.resolve()
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts) or path.is_dir():
            continue
        if not path.resolve().is_relative_to(root):
            raise bounded.UnreadableFile(
                f"{path} points outside the export {folder}; keep every data file inside it."
            )
        bounded.check_file(path, "rows")


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


def parsed(references, predictions, parser: str, choices) -> tuple[int | None, int]:
    """The label index the benchmark's parser reads in the generated answer, and the gold one
    (lm-eval passes the gold answer's text: the task names ``doc_to_choice``)."""
    answer = sibling_module("answers").parse_answer(parser, predictions[0], list(choices))
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
    module = sibling_module("aucnorm")
    return float(module.aucnorm_scores(list(scores), list(golds))["aucnorm"])
