"""``compsem harm-detection``: the queries read and checked, each judged harmful or not by the
chosen classifier, scored for HARM with 95% intervals, and written as a result file that
``compsem report`` reads, with one line per query saying which phrase decided it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from compsem.benchmark.spec import HarmDetection
from compsem.harness.harm import classifiers
from compsem.harness.harm.generation import llm_generations
from compsem.harness.harm.queries import (
    KEYWORDS,
    QUERIES,
    TASKS,
    Query,
    keyword_phrases,
    parse_queries,
    read_keywords,
    read_queries,
)
from compsem.harness.llm.generation import Decoding
from compsem.harness.models.device import resolve
from compsem.harness.results.files import (
    SUMMARY,
    check_writable,
    make_result,
    rows_path,
    write_json,
    write_rows,
    write_text,
)
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, load_pipeline

COMMAND = "harm-detection"
CONFIG = "harm_detection"
BOOTSTRAP = 1000
Z95 = 1.959963984540054


@dataclass(frozen=True)
class HarmRun:
    """What a run reads: the folder, the classifier, its model and how it runs."""

    data: Path
    task: str
    model: str | None
    out: Path
    queries: Path | None = None  # another CSV in test.csv's format (a sample of it)
    device: str = "auto"
    precision: str = "auto"
    chat_template: bool = True
    spacy_model: str | None = None
    generate: bool = False  # llm: answer by generation (App. E.4), not by log-likelihood
    max_new_tokens: int = 16

    @property
    def name(self) -> str:
        """What the result files are named after: the task, ``llm-generate`` by generation."""
        return f"{self.task}-generate" if self.generate else self.task


def result_path(out: Path, task: str) -> Path:
    return Path(out) / f"{COMMAND}-{task}.json"


def wilson(successes: int, total: int) -> list[float] | None:
    """Wilson's 95% score interval of a proportion (None for a proportion of nothing)."""
    if not total:
        return None
    share = successes / total
    centre = (share + Z95**2 / (2 * total)) / (1 + Z95**2 / total)
    half = Z95 * np.sqrt(share * (1 - share) / total + Z95**2 / (4 * total**2))
    half /= 1 + Z95**2 / total
    return [float(max(0.0, centre - half)), float(min(1.0, centre + half))]


def harm_counts(gold: np.ndarray, predicted: np.ndarray) -> tuple[int, int, int]:
    """True positives, predicted positives and actual positives of HARM."""
    return int(np.sum(gold & predicted)), int(predicted.sum()), int(gold.sum())


def f1(gold: np.ndarray, predicted: np.ndarray) -> float:
    hits, said, actual = harm_counts(gold, predicted)
    return 2 * hits / (said + actual) if said + actual else 0.0


def harm_scores(gold, predicted, seed: int = 0) -> dict:
    """Accuracy, precision, recall and F1 of HARM; Wilson intervals for the three proportions,
    a percentile bootstrap (queries resampled) for F1."""
    gold, predicted = np.asarray(gold, bool), np.asarray(predicted, bool)
    hits, said, actual = harm_counts(gold, predicted)
    correct = int(np.sum(gold == predicted))
    rng = np.random.default_rng(seed)
    samples = rng.integers(0, len(gold), size=(BOOTSTRAP, len(gold)))
    boot = [f1(gold[s], predicted[s]) for s in samples]
    return {
        "n": len(gold),
        "harmful": actual,
        "accuracy": correct / len(gold),
        "accuracy_interval": wilson(correct, len(gold)),
        "precision": hits / said if said else None,
        "precision_interval": wilson(hits, said),
        "recall": hits / actual if actual else None,
        "recall_interval": wilson(hits, actual),
        "f1": f1(gold, predicted),
        "f1_interval": [float(np.percentile(boot, 2.5)), float(np.percentile(boot, 97.5))],
    }


def _fingerprint(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def judge_by_phrases(run: HarmRun, spec: HarmDetection, queries: list[Query], keywords, placement):
    """Each query's verdict from its keyword phrases (harmful when any is), and its row."""
    id2label = classifiers.model_labels(run.model)
    harmful = classifiers.harmful_labels(run.task, spec, id2label)  # before any loading
    nlp = load_pipeline(run.spacy_model or DEFAULT_SPACY_MODEL)
    docs = parse_queries(nlp, [q.text for q in queries])
    found = [keyword_phrases(doc, keywords) for doc in docs]
    model, tokenizer = classifiers.load_pair_classifier(run.model, placement)
    pairs = [classifiers.sentences(run.task, spec, p) for phrases in found for p in phrases]
    defined = [classifiers.same_sentence_label(run.task, spec, pair) for pair in pairs]
    asked = [pair for pair, label in zip(pairs, defined, strict=True) if label is None]
    probabilities = iter(classifiers.pair_probabilities(model, tokenizer, asked, placement.device))
    label_ids = {name: i for i, name in id2label.items()}
    verdicts, rows, at = [], [], 0
    for phrases in found:
        judged = []
        for phrase in phrases:
            p = next(probabilities) if defined[at] is None else None
            label = int(p.argmax()) if p is not None else label_ids[defined[at]]
            judged.append(
                {
                    "np": phrase.phrase,
                    "noun": phrase.noun,
                    "keyword": phrase.keyword,
                    "sentences": list(pairs[at]),
                    "label": id2label[label],
                    # None: one sentence twice, labelled by definition, not by the model
                    "probabilities": None
                    if p is None
                    else {id2label[i]: float(v) for i, v in enumerate(p)},
                    "harmful": bool(harmful[label]),
                }
            )
            at += 1
        decided = next((i for i, item in enumerate(judged) if item["harmful"]), None)
        verdicts.append(decided is not None)
        rows.append({"phrases": judged, "decided_by": decided, "keyword_phrase": bool(judged)})
    return np.array(verdicts), rows


def judge(run: HarmRun, spec: HarmDetection, queries: list[Query], keywords, placement):
    """Verdicts (True: harmful) and per-query rows for the run's classifier."""
    if run.task == "always":
        return np.ones(len(queries), bool), [{} for _ in queries]
    if run.task == "llm" and run.generate:
        rows = llm_generations(
            run.model,
            spec.llm,
            [q.text for q in queries],
            placement,
            run.chat_template,
            Decoding(max_new_tokens=run.max_new_tokens),
        )
        # the first choice says harmful; an answer naming neither choice is not a harmful one
        return np.array([row["answer"] == spec.llm.answers({})[0] for row in rows]), rows
    if run.task == "llm":
        scores = classifiers.llm_log_likelihoods(
            run.model, spec.llm, [q.text for q in queries], placement, run.chat_template
        )
        answers = spec.llm.answers({})
        rows = [{"log_likelihoods": dict(zip(answers, s, strict=True))} for s in scores]
        return np.array([s[0] > s[1] for s in scores]), rows
    return judge_by_phrases(run, spec, queries, keywords, placement)


def run_harm_detection(run: HarmRun, spec: HarmDetection) -> dict:
    if run.task not in TASKS:
        raise ValueError(f"unknown --task {run.task!r}; use one of {', '.join(TASKS)}")
    if run.task != "always" and not run.model:
        raise ValueError(f"--task {run.task} needs --model (a fine-tuned classifier or an LLM)")
    if run.generate and run.task != "llm":
        raise ValueError(f"--generate is for --task llm (a causal LM's answer), not {run.task}")
    keywords_file, queries_file = run.data / KEYWORDS, run.queries or run.data / QUERIES
    keywords = read_keywords(keywords_file)
    queries = read_queries(queries_file)
    path = result_path(run.out, run.name)
    check_writable([path, rows_path(path), Path(run.out) / SUMMARY])
    placement = resolve(run.device, run.precision)
    verdicts, rows = judge(run, spec, queries, keywords, placement)
    gold = np.array([q.harmful for q in queries])
    scores = harm_scores(gold, verdicts)
    with_phrase = np.array([row.get("keyword_phrase", True) for row in rows])
    scores["keyword_phrase_queries"] = int(with_phrase.sum())
    scores["no_keyword_phrase"] = [
        q.index for q, w in zip(queries, with_phrase, strict=True) if not w
    ]
    if with_phrase.any() and not with_phrase.all() and len(set(gold[with_phrase])) == 2:
        scores["with_keyword_phrase"] = harm_scores(gold[with_phrase], verdicts[with_phrase])
    dataset = {
        "path": str(run.data),
        "config": CONFIG,
        "split": queries_file.stem,
        "revision": None,
        "fingerprint": _fingerprint(keywords_file, queries_file),
        "preset": "rnpc",
    }
    settings = {"task": run.task, "source": spec.source}
    if run.queries:
        settings["queries"] = str(run.queries)
    if run.task == "llm":
        settings |= {"prompt": spec.llm.name, "chat_template": run.chat_template}
        settings["answers_by"] = "generation" if run.generate else "log-likelihood"
    if run.generate:
        settings |= Decoding(max_new_tokens=run.max_new_tokens).settings()
        settings["parser"] = spec.llm.parser
        scores["unparsed"] = [
            q.index for q, r in zip(queries, rows, strict=True) if not r["answer"]
        ]
    result = make_result(
        COMMAND, run.model or "always-harmful", dataset, None, settings, scores, placement
    )
    per_row = [
        {
            "id": q.index,
            "query": q.text,
            "label": "HARM" if q.harmful else "GOOD",
            "prediction": "HARM" if v else "GOOD",
            **row,
        }
        for q, v, row in zip(queries, verdicts, rows, strict=True)
    ]
    write_json(path, result)
    write_rows(path, per_row)
    write_text(Path(run.out) / SUMMARY, summary(result))
    return result


def _cell(value, interval) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" + (f" [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else "")


def summary(result: dict) -> str:
    s = result["scores"]
    lines = [
        f"# Harm detection ({result['settings']['task']}"
        + (" by generation" if result["settings"].get("answers_by") == "generation" else "")
        + f", {result['model']})",
        "",
        "| queries | accuracy | precision (HARM) | recall (HARM) | F1 (HARM) |",
        "|---:|---|---|---|---|",
        f"| {s['n']} | "
        + " | ".join(
            _cell(s[m], s[f"{m}_interval"]) for m in ("accuracy", "precision", "recall", "f1")
        )
        + " |",
        "",
        f"95% intervals: Wilson (accuracy, precision, recall), bootstrap over queries (F1). "
        f"Queries without a keyword phrase (judged not harmful): {len(s['no_keyword_phrase'])}."
        + (
            f" Answers naming neither Yes nor No (judged not harmful): {len(s['unparsed'])}."
            if "unparsed" in s
            else ""
        ),
    ]
    return "\n".join(lines) + "\n"
