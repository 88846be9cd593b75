"""``compsem probe-edges``: RNPC §7's edge probing of modifier semantic category (Fig. 4;
Appendix E.3, after Tenney et al. 2019).

Each modifier of a phrase ``Det M1 M2 N`` is one item: its representation is the mean of its
subword pieces' hidden states, frozen, at the last layer (the paper's) or the layers asked; its label is
its category (intersective, subsective, privative). The modifier words are split, per category
and seeded, into train (60%), validation (20%) and test (20%): no word of test is seen in
training, in either position. A linear probe (scikit-learn's ``SGDClassifier`` on standardised
features) is fitted for every distinct setting of Appendix E.3's grid on train, the setting with
the best validation accuracy refitted on train and validation, and scored on test. Several models
(pretrained, then fine-tuned) are probed on the same items and split: the before/after of Fig. 4.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from compsem.harness.models.device import resolve
from compsem.harness.probing.figures import edges_markdown, rerun_command
from compsem.harness.probing.phrases import (
    in_batches,
    load_encoder,
    model_label,
    open_probe,
    read_phrases,
    write_analysis,
)
from compsem.harness.results.files import write_text

COMMAND = "probe-edges"
# Appendix E.3's search range, as listed ("log" is scikit-learn's "log_loss" since 1.3; n_jobs
# only sets threads and is ``--jobs``).
GRID = {
    "loss": ["hinge", "log_loss", "modified_huber", "squared_hinge", "perceptron"],
    "warm_start": [True, False],
    "penalty": ["l2", "l1", "elasticnet"],
    "alpha": [0.0001, 0.001, 0.01, 0.1],
    "max_iter": [500, 1000, 2000],
    "random_state": [0],
    "eta0": [0.1, 0.01, 0.001, 0.0001],
    "learning_rate": ["optimal", "invscaling", "adaptive"],
}
SHARES = (0.6, 0.2, 0.2)  # train, validation, test: of each category's modifier words
SPLITS = ("train", "validation", "test")


def candidates(grid: dict = GRID) -> list[dict]:
    """The grid's distinct probes: each is fitted once on a fresh estimator, so ``warm_start``
    changes nothing, and ``eta0`` is unused by the ``optimal`` schedule; a setting that differs
    only there is fitted once (1,620 of the 4,320 combinations)."""
    from sklearn.model_selection import ParameterGrid  # deferred: scikit-learn is heavy

    seen, distinct = set(), []
    for params in ParameterGrid(grid):
        key = {k: v for k, v in params.items() if k != "warm_start"}
        if key["learning_rate"] == "optimal":
            key["eta0"] = None
        if (frozen := tuple(sorted(key.items()))) not in seen:
            seen.add(frozen)
            distinct.append(params)
    return distinct


@dataclass(frozen=True)
class Item:
    phrase: int  # index of its phrase
    position: int  # 0: M1, 1: M2
    word: str
    category: str


def modifier_split(items: list[Item], categories, seed: int) -> list[str]:
    """Each item's split: the words of each category shuffled (seeded) and cut by SHARES, so
    a word's items all fall in one split."""
    rng = np.random.default_rng(seed)
    split_of = {}
    for category in categories:
        words = sorted({i.word for i in items if i.category == category} - set(split_of))
        words = [words[j] for j in rng.permutation(len(words))]
        cut = np.cumsum([round(share * len(words)) for share in SHARES[:2]])
        for j, word in enumerate(words):
            split_of[word] = SPLITS[int(np.searchsorted(cut, j, side="right"))]
    splits = [split_of[i.word] for i in items]
    missing = [
        (s, c)
        for s in SPLITS
        for c in categories
        if (s, c) not in set(zip(splits, [i.category for i in items], strict=True))
    ]
    if missing:
        raise ValueError(
            f"too few modifier words to keep train, validation and test apart in every category "
            f"(none of {missing[0][1]} in {missing[0][0]}): probe more phrases (--max-phrases) "
            "or a larger config"
        )
    return splits


def features(encoder, phrases, items: list[Item], batch_size: int) -> np.ndarray:
    """(layers + 1, items, width): each item's mean over its pieces, per layer."""
    by_phrase = [[] for _ in phrases]
    for index, item in enumerate(items):
        by_phrase[item.phrase].append((index, item.position))
    out = None
    for start, batch in zip(
        range(0, len(phrases), batch_size), in_batches(phrases, batch_size), strict=True
    ):
        for offset, (hidden, _, found) in enumerate(encoder.encode(batch)):
            if out is None:
                out = np.zeros((hidden.shape[0], len(items), hidden.shape[2]), dtype=np.float32)
            for index, position in by_phrase[start + offset]:
                out[:, index] = hidden[:, found[position]].mean(axis=1)
    return out


def fit_probe(params: dict, x: np.ndarray, y: np.ndarray, jobs: int):
    from sklearn.exceptions import ConvergenceWarning  # deferred: scikit-learn is heavy
    from sklearn.linear_model import SGDClassifier

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # max_iter is a searched setting
        return SGDClassifier(**params, n_jobs=jobs).fit(x, y)


def standardised(fit_on: np.ndarray, *others: np.ndarray) -> list[np.ndarray]:
    """Features scaled by the mean and deviation of ``fit_on`` (SGD is sensitive to scale)."""
    mean, std = fit_on.mean(axis=0), fit_on.std(axis=0)
    std[std == 0] = 1.0
    return [(x - mean) / std for x in (fit_on, *others)]


def probe_layer(x: np.ndarray, y: np.ndarray, splits: np.ndarray, grid: list, jobs: int):
    """The grid searched on validation, the best refitted on train + validation: its scores on
    test and its predictions there."""
    from sklearn.metrics import f1_score  # deferred: scikit-learn is heavy

    train, valid, test = (splits == s for s in SPLITS)
    x_train, x_valid = standardised(x[train], x[valid])
    scored = [
        (fit_probe(p, x_train, y[train], jobs).score(x_valid, y[valid]), i)
        for i, p in enumerate(grid)
    ]
    best_score, best = max(scored, key=lambda pair: (pair[0], -pair[1]))  # first of ties
    seen = train | valid
    x_seen, x_test = standardised(x[seen], x[test])
    predictions = fit_probe(grid[best], x_seen, y[seen], jobs).predict(x_test)
    by_category = {
        int(c): float(np.mean(predictions[y[test] == c] == c)) for c in np.unique(y[test])
    }
    scores = {
        "accuracy": float(np.mean(predictions == y[test])),
        "macro_f1": float(f1_score(y[test], predictions, average="macro")),
        "validation_accuracy": float(best_score),
        "best": dict(grid[best]),
    }
    return scores, by_category, predictions


def run_probe_edges(
    dataset: str,
    config: str,
    out: Path,
    models: list[str],
    split: str = "test",
    revision: str | None = None,
    max_phrases: int | None = 2000,
    layers: list[int] | None = None,
    seed: int = 0,
    grid: dict = GRID,
    jobs: int = 1,
    batch_size: int = 64,
    device: str = "auto",
    precision: str = "auto",
) -> dict:
    """Probe each of ``models`` on the modifiers of ``config``'s phrases at ``layers`` (0: the
    embeddings; default: the last, the paper's) with every distinct setting of ``grid`` (default
    Appendix E.3's; a smaller one of its values makes a quick check); write the analysis."""
    name, bench, probes = open_probe(COMMAND, dataset, config, revision, out)
    phrases, skipped = read_phrases(bench.split(split), probes, max_phrases)
    items = [
        Item(p, position, phrase.words[position], phrase.categories[position])
        for p, phrase in enumerate(phrases)
        for position in range(len(probes.modifiers))
        if phrase.categories[position] in probes.categories
    ]
    splits = np.array(modifier_split(items, probes.categories, seed))
    y = np.array([probes.categories.index(i.category) for i in items])
    settings, placement = candidates(grid), resolve(device, precision)
    encoders = [load_encoder(model, placement) for model in models]  # every one, before work
    results, predictions, start = [], {}, time.perf_counter()
    for encoder in encoders:
        x = features(encoder, phrases, items, batch_size)
        chosen = sorted({layer % x.shape[0] for layer in layers or [-1]})
        per_layer = []
        for layer in chosen:
            scores, by_category, guessed = probe_layer(x[layer], y, splits, settings, jobs)
            names = {probes.categories[c]: v for c, v in by_category.items()}
            per_layer.append({"layer": layer, **scores, "by_category": names})
        predictions[model_label(encoder.name)] = guessed  # the last layer probed
        results.append(
            {
                "model": model_label(encoder.name),
                "layers": per_layer,
                "untrained_weights": encoder.untrained,
                **{k: per_layer[-1][k] for k in ("accuracy", "macro_f1", "by_category")},
                "layer": per_layer[-1]["layer"],
            }
        )
    test = splits == "test"
    majority = Counter(y[~test]).most_common(1)[0][0]
    counts = {s: int(np.sum(splits == s)) for s in SPLITS}
    words = {s: len({i.word for i, t in zip(items, splits, strict=True) if t == s}) for s in SPLITS}
    payload = {
        "analysis": COMMAND,
        "benchmark": bench.benchmark,
        "command": rerun_command(
            COMMAND,
            dataset,
            config,
            models,
            out,
            split=split,
            max_phrases=max_phrases,
            layers=layers,
            seed=seed,
        ),
        "dataset": bench.provenance(split),
        "settings": {
            "phrases": len(phrases),
            "phrases_not_read": skipped,
            "max_phrases": max_phrases,
            "representation": "mean of the modifier's subword pieces, frozen",
            "split": "modifier words apart, per category: "
            + ", ".join(f"{s} {v:.0%}" for s, v in zip(SPLITS, SHARES, strict=True)),
            "seed": seed,
            "grid": {k: list(v) for k, v in grid.items()},
            "grid_fitted": len(settings),
            "selection": "validation accuracy; refitted on train + validation",
            "jobs": jobs,
        },
        "categories": list(probes.categories),
        "items": counts,
        "modifier_words": words,
        "modifier_split": {
            s: sorted({i.word for i, t in zip(items, splits, strict=True) if t == s})
            for s in SPLITS
        },
        "test_categories": {
            probes.categories[c]: int(n) for c, n in sorted(Counter(y[test]).items())
        },
        "majority": {
            "category": probes.categories[majority],
            "accuracy": float(np.mean(y[test] == majority)),
        },
        "models": results,
        "timing": {"seconds": time.perf_counter() - start},
        "source": probes.source,
    }
    rows = (
        {
            "id": phrases[item.phrase].id,
            "phrase": phrases[item.phrase].phrase,
            "position": ("M1", "M2")[item.position],
            "modifier": item.word,
            "label": item.category,
            "predictions": {m: probes.categories[int(p[k])] for m, p in predictions.items()},
        }
        for k, item in enumerate(i for i, t in zip(items, splits, strict=True) if t == "test")
    )
    write_analysis(out, name, payload, rows, placement)
    write_text(Path(out) / "summary.md", edges_markdown(payload))
    return payload
