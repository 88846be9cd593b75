"""``compsem probe-likelihood``: RNPC's Appendix C, pretrained LMs probed by likelihood alone.

Entailment configs (premise/hypothesis, an ``entailment`` label): the hypothesis is written as
"necessarily" and "not necessarily" true; the model predicts entailment when the first is more
likely given the premise (MPTE: both premises). Plausibility configs (event1/event2, labels less
/ equally / more plausible): each event's unconditional likelihood; "equally" when they differ by
less than a threshold θ, chosen on the config's train split only (the accuracy-maximising
difference; the smallest where several tie), else the more likely event decides. Causal LMs are
scored left to right, masked LMs by pseudo-log-likelihood. The benchmark's sanity pairs (two
sentences, the one a model that reads "necessarily" should find more likely) are scored first.
"""

from __future__ import annotations

import csv
import time
import warnings
from pathlib import Path

import numpy as np

from compsem.builders import BENCHMARKS
from compsem.files.bounded_read import read_text
from compsem.harness.data.benchmark import Benchmark, load_benchmark
from compsem.harness.data.sampling import cap, groups_of
from compsem.harness.models.device import resolve
from compsem.harness.models.loading import load_for_inference, memory_guard
from compsem.harness.probing.likelihood import CausalScorer, MaskedScorer, necessity_statements
from compsem.harness.report.summary import summarise
from compsem.harness.results.files import (
    check_writable,
    make_result,
    result_files,
    row_ids,
    write_result,
    write_rows,
)
from compsem.harness.results.scores import grouped_scores

COMMAND = "probe-likelihood"


def task_kind(bench: Benchmark) -> str:
    """``entailment`` or ``plausibility``, from the config's columns and label names."""
    columns = set(next(iter(bench.splits.values())).column_names)
    names = bench.schema.label_names
    if {"premise", "hypothesis"} <= columns and "entailment" in names and len(names) == 2:
        return "entailment"
    if {"event1", "event2"} <= columns and len(names) == 3 and _plausibility_labels(names):
        return "plausibility"
    raise ValueError(
        f"config {bench.config!r} is neither an entailment config (premise, hypothesis, labels "
        "entailment/non_entailment) nor a plausibility one (event1, event2, labels less/"
        "equally/more plausible); likelihood probing reads RNPC's spte, mpte and epc"
    )


def _plausibility_labels(names) -> dict[str, int] | None:
    found = {
        key: next((i for i, name in enumerate(names) if name.startswith(key)), None)
        for key in ("less", "equally", "more")
    }
    return None if None in found.values() else found


def load_scorer(model: str, placement, batch_size: int, max_length: int):
    """A causal scorer where the model is a causal LM, else a masked one; warns (as ``prompt``
    does) when a masked LM's head is untrained."""
    from transformers import (  # transformers takes seconds to import: only model commands pay
        AutoConfig,
        AutoModelForCausalLM,
        AutoModelForMaskedLM,
        AutoTokenizer,
    )

    try:
        config = AutoConfig.from_pretrained(model)
        tokenizer = AutoTokenizer.from_pretrained(model)
    except (OSError, ValueError) as error:
        raise OSError(f"cannot load {model!r}: {str(error).splitlines()[0]}") from None
    architectures = config.architectures or []
    causal = any(a.endswith(("ForCausalLM", "LMHeadModel")) for a in architectures)
    auto_class = AutoModelForCausalLM if causal else AutoModelForMaskedLM
    loaded, info = load_for_inference(model, auto_class, placement)
    if info["missing_keys"]:
        warnings.warn(
            f"{model} has untrained weights ({sorted(info['missing_keys'])[0]} …); its "
            "likelihoods are not meaningful",
            stacklevel=2,
        )
    scorer = CausalScorer if causal else MaskedScorer
    return scorer(loaded, tokenizer, placement.device, batch_size, max_length), info


def choose_theta(differences: np.ndarray, references: np.ndarray, labels: dict) -> float:
    """The θ that maximises accuracy on ``differences`` (Event 2's log-likelihood minus Event
    1's) and their labels; the smallest of those that tie."""
    candidates = np.unique(np.concatenate([[0.0], np.abs(differences) + 1e-9]))
    accuracy = [
        np.mean(plausibility_predictions(differences, theta, labels) == references)
        for theta in candidates
    ]
    return float(candidates[int(np.argmax(accuracy))])


def plausibility_predictions(differences: np.ndarray, theta: float, labels: dict) -> np.ndarray:
    return np.where(
        np.abs(differences) < theta,
        labels["equally"],
        np.where(differences > 0, labels["more"], labels["less"]),
    )


def read_sanity_pairs(path: Path) -> list[tuple[str, str, str]]:
    """(sentence a, sentence b, the one expected more likely: ``a`` or ``b``) per line."""
    lines = read_text(path, "lexicon").splitlines()  # a regular file, bounded
    return [
        (row["sentence_a"], row["sentence_b"], row["more_likely"])
        for row in csv.DictReader(lines, delimiter="\t")
    ]


def sanity_check(scorer, pairs) -> dict:
    scores = scorer.score([("", text) for a, b, _ in pairs for text in (a, b)], progress=False)
    a, b = scores[0::2], scores[1::2]
    right = [(x > y) == (gold == "a") for x, y, (_, _, gold) in zip(a, b, pairs, strict=True)]
    return {"n": len(pairs), "accuracy": float(np.mean(right))}


def run_probe_likelihood(
    dataset: str,
    config: str,
    out: Path,
    model: str,
    split: str = "test",
    revision: str | None = None,
    max_eval_examples: int | None = None,
    max_train_examples: int | None = None,
    theta: float | None = None,
    batch_size: int = 32,
    max_length: int = 256,
    device: str = "auto",
    precision: str = "auto",
) -> dict:
    """Probe ``model`` on ``config`` by likelihood (Appendix C) and write its result."""
    check_writable(result_files(out, COMMAND, config))
    bench = load_benchmark(dataset, config, revision)
    kind = task_kind(bench)
    test = cap(bench.split(split), max_eval_examples, "--max-eval-examples")
    labels = _plausibility_labels(bench.schema.label_names) if kind == "plausibility" else None
    if kind == "plausibility" and theta is None and "train" not in bench.splits:
        raise ValueError(
            f"config {config!r} has no train split to choose θ on; give it with --theta"
        )
    theta_from = None if kind == "entailment" else ("--theta" if theta is not None else "train")
    placement = resolve(device, precision)
    scorer, info = load_scorer(model, placement, batch_size, max_length)
    benchmark = bench.card.get("benchmark")
    declared = BENCHMARKS[benchmark].likelihood_sanity if benchmark in BENCHMARKS else None
    start = time.perf_counter()
    with memory_guard(model, placement, batch_size, max_length):
        sanity = sanity_check(scorer, read_sanity_pairs(declared)) if declared else None
        if kind == "entailment":
            statements = [necessity_statements(h) for h in test["hypothesis"]]
            pairs = [
                (p, s) for p, both in zip(test["premise"], statements, strict=True) for s in both
            ]
            scored = scorer.score(pairs).reshape(-1, 2)
            entail = bench.schema.label_names.index("entailment")
            predictions = np.where(scored[:, 0] > scored[:, 1], entail, 1 - entail)
        else:
            scored = event_scores(scorer, test)
            if theta is None:
                train = cap(bench.splits["train"], max_train_examples, "--max-train-examples")
                train_scored = event_scores(scorer, train)
                differences = train_scored[:, 1] - train_scored[:, 0]
                theta = choose_theta(differences, np.asarray(train["label"]), labels)
            predictions = plausibility_predictions(scored[:, 1] - scored[:, 0], theta, labels)
    seconds = time.perf_counter() - start
    references = np.asarray(test["label"])
    scores = grouped_scores(
        references, predictions, bench.schema.label_names, groups_of(test, bench)
    )
    scores["sanity"] = sanity
    if kind == "plausibility":
        scores["theta"] = theta
    settings = {
        "scorer": scorer.kind,
        "task": kind,
        "theta_from": theta_from,
        "max_train_examples": max_train_examples,
        "batch_size": batch_size,
        "max_length": max_length,
        "eval_examples": len(test),
        "max_eval_examples": max_eval_examples,
        "untrained_weights": sorted(info["missing_keys"]),
    }
    result = make_result(
        COMMAND,
        model,
        bench.provenance(split),
        None,
        settings,
        scores,
        placement,
        {"eval_seconds": seconds, "eval_examples_per_second": len(test) / seconds},
    )
    write_rows(
        write_result(out, result),
        (
            {
                "id": i,
                "label": int(gold),
                "prediction": int(guess),
                "log_likelihoods": pair.tolist(),
            }
            for i, gold, guess, pair in zip(
                row_ids(test), references, predictions, scored, strict=True
            )
        ),
    )
    summarise(out, [result], f"compsem probe-likelihood · {config}")
    return result


def event_scores(scorer, rows) -> np.ndarray:
    """Each row's (Event 1, Event 2) unconditional log-likelihoods."""
    texts = [
        ("", event) for pair in zip(rows["event1"], rows["event2"], strict=True) for event in pair
    ]
    return scorer.score(texts).reshape(-1, 2)
