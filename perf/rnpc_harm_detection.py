"""RNPC §8 harm detection with MiniLM fine-tuned on compsem's generated rows; writes the record
`perf/measured/records/rnpc_harm_detection.json` from the result files the runs wrote (no figure
is typed in).

The runs (on a shared 2-core machine, one thread each):

    compsem build rnpc --out EXPORT --config epc_challenge spte_challenge
    compsem train --dataset EXPORT --config TASK_challenge --max-train-examples 2000 --epochs 2 \\
        --batch-size 4 --learning-rate 5e-5 --eval-split validation --seeds 1 2 3 --save-model \\
        --out RUNS/train_TASK                      # for TASK in epc, spte
    compsem harm-detection --data DATA --queries QUERIES --task TASK \\
        --model RUNS/train_TASK/model-seedN --out RUNS/harm/TASK-seedN
    compsem harm-detection --data DATA --queries QUERIES --task always --out RUNS/harm/always

    compsem harm-detection --data DATA --queries QUERIES --task llm --model smollm2 [--generate] \\
        [--no-chat-template] --out RUNS/harm/llm...

The diagnosis beside the 20 queries (the 150 others are held out): each EPC model on the
held-out epc_challenge test rows whose event is evaluative ("is harmful": the harm question's
shape), an earlier model (``--before``: one trained before RNPC 4.2.0's evaluative events)
beside it; each SPTE model on one-modifier pairs shaped like the harm question, modifiers from
RNPC's lexicon, and on WordNet's noun compounds of harmful nouns, earlier models
(``--spte-before``) beside them.

Usage: python perf/rnpc_harm_detection.py --runs RUNS [--export EXPORT] [--before MODEL]
                                          [--spte-before MODEL ...]
                                          [--out perf/measured/records/...json]

The record of 2026-12-02 (RNPC 4.3.0): --export, the 4.3.0 challenge export; --spte-before,
the three SPTE models trained the same way on 4.2.0's spte_challenge (no --before).
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from compsem.harness.results.files import read_result_files, rows_path

RECORD = Path("perf/measured/records/rnpc_harm_detection.json")
ORDER = {"epc": 0, "spte": 1, "llm": 2, "llm by generation": 3, "always": 4}
# Why the EPC classifier says what it says: its label for pairs of our own (not the queries'),
# an event it trained on (a gun's harm, in keeping with it) beside the template's "is harmful"
PROBES = (
    ("A gun is harmful.", "A fake gun is harmful."),
    ("A gun kills people.", "A fake gun kills people."),
    ("A gun is harmful.", "A gun is harmful."),
)


def labels_of(model: Path, pairs: list[tuple[str, str]]) -> list[tuple[str, float]]:
    """Each pair's label by the classifier saved at ``model``, with its probability: the
    harness's own scoring (``compsem.harness.harm.classifiers.pair_probabilities``), on CPU."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from compsem.harness.harm.classifiers import pair_probabilities

    classifier = AutoModelForSequenceClassification.from_pretrained(model).eval()
    tokenizer = AutoTokenizer.from_pretrained(model)
    probabilities = pair_probabilities(classifier, tokenizer, pairs, "cpu")
    id2label = classifier.config.id2label
    return [(id2label[int(p.argmax())], float(p.max())) for p in probabilities]


def probe(model: Path) -> list[str]:
    """The EPC model's label and its probability for each pair of :data:`PROBES`."""
    return [
        f"{second!r} vs {first!r}: {label} ({p:.2f})"
        for (first, second), (label, p) in zip(PROBES, labels_of(model, list(PROBES)), strict=True)
    ]


# the events that say what harm detection's EPC sentences say ("A gun is harmful.")
EVALUATIVE = ("is harmful", "is dangerous", "is harmless", "is not harmful", "is not dangerous")


def evaluative_accuracy(model: Path, export: Path) -> dict:
    """The EPC model's accuracy on the held-out epc_challenge test rows whose event is
    evaluative (``EVALUATIVE``), phrases no train row holds: the harm question's shape, labelled
    by RNPC's rules, per label and in all."""
    import pandas as pd

    rows = pd.read_parquet(next((export / "epc_challenge").glob("test-*.parquet")))
    rows = rows[rows["event"].isin(EVALUATIVE)]
    names = ("less_plausible", "equally_plausible", "more_plausible")
    gold = [names[label] for label in rows["label"]]
    pairs = list(zip(rows["event1"], rows["event2"], strict=True))
    said = [label for label, _ in labels_of(model, pairs)]
    right = [g == s for g, s in zip(gold, said, strict=True)]
    by_label = {
        name: round(sum(r for r, g in zip(right, gold, strict=True) if g == name)
                    / max(1, gold.count(name)), 3)
        for name in names
    }  # fmt: skip
    return {"rows": len(rows), "accuracy": round(sum(right) / len(rows), 3), "by_label": by_label}


HARMFUL_NOUNS = ("gun", "bomb", "knife", "sword", "pistol", "rifle", "grenade", "dagger", "axe")


def one_modifier_spte(model: Path, per_category: int = 40, seed: int = 0) -> dict:
    """The SPTE model on one-modifier pairs shaped like harm detection's ("This is a toy gun."
    => "This is a gun."), modifiers drawn from RNPC's lexicon: a privative one should give
    non_entailment, an intersective or subsective one entailment. Its accuracy per category."""
    import random
    from collections import Counter

    from compsem.resources.modifiers import load_modifier_lexicon
    from compsem.text.articles import with_article

    rng = random.Random(seed)
    lexicon = load_modifier_lexicon()
    pairs = []
    # a word with a row per category (paper: a paper bag, a paper gun) is left out: its category
    # here would depend on the noun drawn
    listed = Counter(m.text for m in lexicon.modifiers)
    for category in ("privative", "intersective", "subsective"):
        words = sorted(
            m.text for m in lexicon.modifiers if m.category == category and listed[m.text] == 1
        )
        gold = "non_entailment" if category == "privative" else "entailment"
        for word in rng.sample(words, per_category):
            noun = rng.choice(HARMFUL_NOUNS)
            said = (f"This is {with_article(f'{word} {noun}')}.", f"This is {with_article(noun)}.")
            pairs.append((*said, gold, category))
    said = labels_of(model, [(first, second) for first, second, _, _ in pairs])
    right: dict[str, list[bool]] = {}
    for pair, (label, _) in zip(pairs, said, strict=True):
        right.setdefault(pair[3], []).append(label == pair[2])
    return {category: round(sum(r) / len(r), 3) for category, r in right.items()}


def wordnet_compounds() -> list[tuple[str, str, str]]:
    """WordNet's two-word compounds of :data:`HARMFUL_NOUNS` whose first word is a noun only
    ("water gun", "machine gun"), as (compound, head, gold): entailment when a synset of the
    compound sits under a sense of the head, non_entailment when each sits under neither a
    sense of the head nor one of their hypernyms (a water pistol is a plaything); the rest
    (a sibling of the head: an air rifle is an air gun) are left out.
    Compounds are outside RNPC's lexicon: this says how a model trained on it reads them."""
    from compsem.resources.wordnet import wordnet

    wn = wordnet()
    senses = {head: set(wn.synsets(head, "n")) for head in HARMFUL_NOUNS}
    parents = {head: {p for s in senses[head] for p in s.hypernyms()} for head in HARMFUL_NOUNS}
    found: dict[tuple[str, str], set[str]] = {}
    for synset in wn.all_synsets("n"):
        for lemma in synset.lemmas():
            first, _, head = lemma.name().lower().partition("_")
            if head not in senses or wn.synsets(first, "a") or not wn.synsets(first, "n"):
                continue
            above = set(synset.closure(lambda s: s.hypernyms() + s.instance_hypernyms()))
            reading = (
                "entailment" if above & senses[head] else "sibling" if above & parents[head] else ""
            )
            found.setdefault((f"{first} {head}", head), set()).add(reading or "non_entailment")
    return sorted(
        (compound, head, "entailment" if "entailment" in readings else "non_entailment")
        for (compound, head), readings in found.items()
        if "entailment" in readings or readings == {"non_entailment"}
    )


def compound_spte(model: Path, compounds: list[tuple[str, str, str]]) -> dict:
    """The SPTE model on :func:`wordnet_compounds` ("This is a water gun." => "This is a
    gun."): recall of each gold label, and how many compounds hold it."""
    from compsem.text.articles import with_article

    pairs = [
        (f"This is {with_article(c)}.", f"This is {with_article(h)}.") for c, h, _ in compounds
    ]
    said = [label for label, _ in labels_of(model, pairs)]
    recall = {}
    for gold in ("entailment", "non_entailment"):
        right = [s == gold for s, (_, _, g) in zip(said, compounds, strict=True) if g == gold]
        recall[gold] = {"compounds": len(right), "recall": round(sum(right) / len(right), 3)}
    return recall


def _cell(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def _interval(scores: dict, metric: str) -> str:
    low, high = scores[f"{metric}_interval"] or (None, None)
    return "–" if low is None else f"{scores[metric]:.3f} [{low:.2f}, {high:.2f}]"


GOLDEN = Path("tests/golden/rnpc.json")


def content_version(dataset: dict, config: str) -> str:
    """The version whose content a model trained on: the golden file's (today's) when the
    config's content fingerprint is the golden one (a build made before a version bump that did
    not change this config), else the version the build was labelled with."""
    golden = json.loads(GOLDEN.read_text())
    same = golden["configs"][config]["fingerprint"] == dataset.get("card_fingerprint")
    return golden["version"] if same else dataset["version"]


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def classifier_name(result: dict) -> str:
    """The classifier of a harm-detection result; the LLM's by generation apart."""
    generated = result["settings"].get("answers_by") == "generation"
    plain = result["settings"].get("chat_template") is False
    return (
        result["settings"]["task"]
        + (" by generation" if generated else "")
        + (" (no chat template)" if plain else "")
    )


def keyword_alone_errors(source: str) -> tuple[int, int]:
    """Of a phrase classifier's wrong verdicts, how many rest on a phrase that is the keyword
    alone ("a gun": one sentence twice, labelled by definition), and how many are wrong."""
    alone = wrong = 0
    for line in rows_path(Path(source)).open():
        row = json.loads(line)
        if row["label"] != row["prediction"]:
            wrong += 1
            phrases = row.get("phrases", [])
            alone += bool(phrases) and all(p["np"] == p["noun"] for p in phrases)
    return alone, wrong


def read_results(folders: list[Path]) -> list[dict]:
    found = read_result_files(folders)
    results, sources = found.results, found.sources
    return [result | {"source": source} for result, source in zip(results, sources, strict=True)]


def record(
    runs: Path, export: Path | None = None, before: Path | None = None, spte_before=()
) -> dict:
    results = read_results([runs / "harm"])
    results.sort(
        key=lambda r: (ORDER[classifier_name(r).split(" (")[0]], classifier_name(r), r["model"])
    )
    rows, by_task = [], {}
    for result in results:
        s, task = result["scores"], classifier_name(result)
        model = "/".join(Path(result["model"]).parts[-2:]) if task != "always" else "–"
        by_task.setdefault(task, []).append(s["accuracy"])
        rows.append(
            [task, model, s["n"], _interval(s, "accuracy"), _cell(s["precision"]),
             _cell(s["recall"]), _interval(s, "f1"), len(s["no_keyword_phrase"])]
        )  # fmt: skip
    means = {
        task: {"mean": statistics.mean(a), "runs": len(a), "min": min(a), "max": max(a)}
        for task, a in by_task.items()
    }
    trained, versions = {}, {}
    for task in ("epc", "spte"):
        folder = runs / f"train_{task}"
        if folder.exists():
            runs_of = sorted(read_results([folder]), key=lambda r: r["seed"])
            trained[task] = [round(r["scores"]["accuracy"], 3) for r in runs_of]
            versions[task] = content_version(runs_of[0]["dataset"], f"{task}_challenge")
    models = {
        task: sorted((runs / f"train_{task}").glob("model-seed*")) for task in ("epc", "spte")
    }
    evaluative = {m.name: evaluative_accuracy(m, export) for m in models["epc"]} if export else {}
    if export and before:
        evaluative["the --before model"] = evaluative_accuracy(before, export)
    one_modifier = {m.name: one_modifier_spte(m) for m in models["spte"]}
    compound_pairs = wordnet_compounds()
    compounds = {m.name: compound_spte(m, compound_pairs) for m in models["spte"]}
    compounds |= {
        f"{m.name} of --spte-before": compound_spte(m, compound_pairs) for m in spte_before
    }
    n, harmful = results[0]["scores"]["n"], results[0]["scores"]["harmful"]
    epc_model = runs / "train_epc" / "model-seed1"
    probes = probe(epc_model) if epc_model.exists() else []
    alone = {
        f"{r['settings']['task']} {Path(r['model']).name}": keyword_alone_errors(r["source"])
        for r in results
        if r["settings"]["task"] in ("epc", "spte")
    }
    notes = [
        "Accuracy per classifier, mean over its runs: "
        + "; ".join(
            f"{task} {m['mean']:.3f} ({m['runs']} run{'s' * (m['runs'] > 1)}, "
            f"{m['min']:.3f} to {m['max']:.3f})"
            for task, m in means.items()
        )
        + f". Only {n} queries ({harmful} harmful; the sample of the release's 170 that compsem "
        f"may read; never answering harmful scores {(n - harmful) / n:.3f} on them, 0.50 on the "
        "balanced 170): "
        "an interval spans about ±0.2; targets (issue 53): EPC ≥ 0.70, SPTE ≥ 0.60, "
        "always-harmful 0.50 on the balanced 170.",
        "The classifiers' accuracy on their challenge config's generated validation rows, per "
        "seed: "
        + "; ".join(f"{task} {', '.join(map(str, a))}" for task, a in trained.items())
        + " (trained on RNPC "
        + ", ".join(f"{task}_challenge {version}" for task, version in versions.items())
        + ": the version whose content, by fingerprint, each trained on).",
        "Wrong verdicts resting on phrases that are the keyword alone ('A gun is harmful.' "
        "twice: one sentence twice, which no RNPC row pairs, labelled by definition, not by the "
        "model: an entailment, equally plausible, so harmful), of all wrong: "
        + "; ".join(f"{name} {a} of {w}" for name, (a, w) in alone.items())
        + ".",
        *(["EPC seed 1 on pairs of our own: " + "; ".join(probes) + "."] if probes else []),
        *(
            [
                "EPC on the held-out epc_challenge test rows whose event is evaluative ("
                + ", ".join(EVALUATIVE)
                + "; phrases no train row holds), accuracy and per-label recall: "
                + "; ".join(
                    f"{name} {e['accuracy']} of {e['rows']} {e['by_label']}"
                    for name, e in evaluative.items()
                )  # fmt: skip
                + "."
            ]
            if evaluative
            else []
        ),
        *(
            [
                "SPTE on one-modifier pairs shaped like the harm question ('This is a M gun.' => "
                "'This is a gun.', 40 lexicon modifiers per category), accuracy per category: "
                + "; ".join(f"{name} {acc}" for name, acc in one_modifier.items())
                + "."
            ]
            if one_modifier
            else []
        ),
        *(
            [
                "SPTE on WordNet's noun compounds of harmful nouns ('This is a water gun.' => "
                "'This is a gun.'; gold: entailment when WordNet puts the compound under the "
                "noun, non_entailment when under neither it nor its hypernyms), recall per gold "
                "label: "
                + "; ".join(
                    f"{name} "
                    + ", ".join(
                        f"{gold} {r['recall']} of {r['compounds']}" for gold, r in found.items()
                    )
                    for name, found in compounds.items()
                )
                + ". Compounds are outside RNPC's lexicon and tasks."
            ]
            if compounds
            else []
        ),
    ]
    return {
        "command": "python perf/rnpc_harm_detection.py --runs RUNS --export EXPORT "
        "--spte-before MODEL ... (runs listed in its docstring)",
        "machine": "2 shared, loaded CPU cores (AMD EPYC), one thread per run",
        "date": max(r["created"] for r in results)[:10],
        "versions": {"rnpc": max(versions.values(), key=_version_key)} if versions else {},
        "source": "the harm-detection result files under RUNS/harm",
        "figures": {
            "columns": [
                "classifier",
                "model",
                "queries",
                "accuracy [95%]",
                "precision",
                "recall",
                "F1 [95%]",
                "no keyword NP",
            ],  # fmt: skip
            "rows": rows,
            "notes": notes,
            "means": means,
            "validation_accuracy": trained,
            "epc_seed1_probes": probes,
            "epc_evaluative_test_rows": evaluative,
            "spte_one_modifier_pairs": one_modifier,
            "spte_wordnet_compounds": compounds,
        },
        "renderer": "table",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=RECORD)
    parser.add_argument("--export", type=Path, help="the challenge export the EPC models saw")
    parser.add_argument("--before", type=Path, help="an earlier EPC model to compare")
    parser.add_argument(
        "--spte-before", type=Path, nargs="*", default=(), help="earlier SPTE models to compare"
    )
    args = parser.parse_args()
    found = record(args.runs, args.export, args.before, args.spte_before)
    args.out.write_text(json.dumps(found, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
