"""Measure what each embedded corpus source is worth to PLANE; writes JSON.

``--whole`` (exact): each source is extracted whole with PLANE's own cached extraction (the cache
``compsem build plane`` reads, so a later build of ``embedded`` parses nothing again), timed, and
built into PLANE's pool with the shipped lexicon and the default filters; the JSON it writes
(``builders/plane/corpus/corpus_yield.json``) is the table on PLANE's card. Without ``--whole``, a
sample estimate, as follows.

For each source (WordNet's glosses and the npm sources of ``embedded``), a seeded random sample
of documents of about ``--words`` words is parsed with raw ``nlp.pipe`` (the small English
pipeline, NER and the lemmatizer left out and the arcs' words lemmatized, exactly as PLANE's
extraction runs it) and PLANE's ``amod_pairs`` rule;
the AN pairs go through PLANE's own ``item_pool`` with the shipped lexicon and WordNet
hypernyms, and the distinct intensional phrases are its IT1 rows of class ``O``.

Whole-source figures are extrapolated, not measured. Parse time: linearly in words. Distinct
phrases, two ways: (1) Heaps' law (``V = K W^b``, fitted on nested quarter, half and whole
samples), which overshoots while the sample is far from saturation; (2) a ratio estimate: a
parse-free proxy (distinct "lexicon-O adjective + WordNet noun" bigrams of plain tokens) is
counted on the sample and on the whole source, and the sample's parsed count is scaled by the
proxy's growth, which sees the whole source's repetition. WordNet's glosses, whose full count
the PLANE build reports, check both.

Usage: python perf/corpus_yield.py [--words 150000] [--out perf/results/corpus_yield.json]
       python perf/corpus_yield.py --whole [--tasks 2] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import re
import time
from functools import cache
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
from tqdm.auto import tqdm

from compsem.builders.plane.config import MAX_HYPERNYM_DISTANCE
from compsem.builders.plane.corpus.extraction import (
    DISABLED,
    amod_pairs,
    an_pair_table,
    pipeline_lemmatizer,
)
from compsem.builders.plane.corpus.source_yield import whole_source_yield
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.builders.plane.items.pool import item_pool
from compsem.loading_scripts.corpora import WORDNET_GLOSSES, open_corpus
from compsem.loading_scripts.embedded_corpora import SOURCES
from compsem.pipeline.runner import spacy_pipeline
from compsem.resources.lexicon import load_adjective_lexicon
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id
from compsem.resources.wordnet import wordnet

FRACTIONS = (0.25, 0.5, 1.0)
_WORD = re.compile(r"[A-Za-z]+")


def sample(texts: list[str], words: int, seed: int) -> list[str]:
    """Documents in a seeded random order until about ``words`` words are taken."""
    order = np.random.default_rng(seed).permutation(len(texts))
    chosen, total = [], 0
    for index in order:
        if total >= words:
            break
        chosen.append(texts[index])
        total += len(texts[index].split())
    return chosen


def intensional_phrases(pairs: list[tuple[str, str]], lexicon) -> int:
    """Distinct IT1 items of class O (= distinct intensional AN phrases) in PLANE's pool."""
    counts = {pair: 1 for pair in pairs}
    table = an_pair_table(counts)
    nouns = table["noun"].unique().to_pylist()
    pool = item_pool(
        table, lexicon.classes, hypernym_table(nouns, max(MAX_HYPERNYM_DISTANCE.values()))
    )
    mask = pc.and_(pc.equal(pool["adjective_class"], "O"), pc.equal(pool["inference_type"], 1))
    return int(pc.sum(mask).as_py() or 0)


@cache
def noun_lemma(word: str) -> str | None:
    return wordnet().morphy(word, wordnet().NOUN)


def proxy_pairs(texts: list[str], adjectives: frozenset[str]) -> set[tuple[str, str]]:
    """Distinct (O adjective, noun lemma) bigrams of plain tokens: a parse-free proxy."""
    found = set()
    for text in texts:
        words = _WORD.findall(text.lower())
        for first, second in zip(words, words[1:], strict=False):
            if first in adjectives and (lemma := noun_lemma(second)) is not None:
                found.add((first, lemma))
    return found


def heaps(points: list[tuple[int, int, int]], words: int) -> tuple[float | None, int | None]:
    """Heaps' law fitted to (words, documents, phrases) points and extrapolated to ``words``;
    None where a sample found too few phrases to fit."""
    found = [(w, v) for w, _, v in points if v > 0]
    if len(found) < 2:
        return None, None
    slope, intercept = np.polyfit(np.log([w for w, _ in found]), np.log([v for _, v in found]), 1)
    return round(float(slope), 3), int(np.exp(intercept) * words**slope)


def measure(name: str, texts: list[str], words: int, nlp, lexicon) -> dict:
    """Parse a sample of ``texts``; phrase counts on nested prefixes for the Heaps fit."""
    chosen = sample(texts, words, seed=42)
    start = time.perf_counter()
    lemmatizer = pipeline_lemmatizer()
    per_doc = [list(amod_pairs(doc, lemmatizer)) for doc in nlp.pipe(chosen, batch_size=64)]
    seconds = time.perf_counter() - start
    sizes = np.cumsum([len(t.split()) for t in chosen])
    points = []
    for fraction in FRACTIONS:
        n = max(1, int(round(fraction * len(chosen))))
        pairs = [pair for doc in per_doc[:n] for pair in doc]
        points.append((int(sizes[n - 1]), n, intensional_phrases(pairs, lexicon)))
    return {
        "source": name,
        "documents": len(texts),
        "sample_documents": len(chosen),
        "sample_words": int(sizes[-1]),
        "sample_seconds": round(seconds, 1),
        "docs_per_second": round(len(chosen) / seconds, 1),
        "words_per_second": round(int(sizes[-1]) / seconds),
        "sample_intensional_phrases": points[-1][2],
        "intensional_phrases_per_1000_docs": round(1000 * points[-1][2] / len(chosen), 1),
        **extrapolate(points, chosen, texts, lexicon, seconds),
    }


def extrapolate(points: list, chosen: list[str], texts: list[str], lexicon, seconds: float) -> dict:
    """Whole-source estimates from the sample: Heaps' law, the proxy ratio, parse time."""
    words = sum(len(t.split()) for t in texts)
    slope, heaps_estimate = heaps(points, words)
    adjectives = frozenset(a for a, c in lexicon.classes.items() if c == "O")
    proxy_sample = len(proxy_pairs(chosen, adjectives))
    proxy_whole = len(proxy_pairs(texts, adjectives))
    ratio = points[-1][2] * proxy_whole / max(proxy_sample, 1)
    parse_seconds = words * seconds / points[-1][0]
    return {
        "words": words,
        "heaps_points": points,
        "heaps_exponent": slope,
        "heaps_intensional_phrases": heaps_estimate,
        "proxy_bigrams_sample": proxy_sample,
        "proxy_bigrams_whole": proxy_whole,
        "ratio_intensional_phrases": round(ratio),
        "extrapolated_parse_seconds_one_process": round(parse_seconds),
        # what a source pays for its parse: intensional phrases per second of parsing
        "ratio_phrases_per_parse_second": round(ratio / parse_seconds, 2),
    }


def together(results: list[dict], proxies: list[set]) -> dict:
    """All sources at once: phrases shared between sources count once, so the sum of the
    per-source estimates is scaled by the proxy's union over its sum."""
    union, total = len(set().union(*proxies)), sum(len(p) for p in proxies)
    estimate = sum(r["ratio_intensional_phrases"] for r in results) * union / max(total, 1)
    return {
        "sources": [r["source"] for r in results],
        "proxy_bigrams_union": union,
        "proxy_bigrams_sum": total,
        "ratio_intensional_phrases": round(estimate),
        "extrapolated_parse_seconds_one_process": sum(
            r["extrapolated_parse_seconds_one_process"] for r in results
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=150_000, help="words parsed per source")
    parser.add_argument("--out", default="perf/results/corpus_yield.json")
    parser.add_argument("--sources", nargs="*", default=[WORDNET_GLOSSES, *SOURCES])
    parser.add_argument("--whole", action="store_true", help="parse every source whole (exact)")
    parser.add_argument("--tasks", type=int, default=2, help="datatrove tasks (--whole)")
    parser.add_argument("--workers", type=int, default=2, help="parallel workers (--whole)")
    args = parser.parse_args()
    if args.whole:
        out = whole_source_yield(args.sources, args.tasks, args.workers)
        print(f"wrote {out}")
        return
    nlp = spacy_pipeline(DEFAULT_SPACY_MODEL, DISABLED)
    lexicon = load_adjective_lexicon()
    adjectives = frozenset(a for a, c in lexicon.classes.items() if c == "O")
    results, proxies = [], []
    for name in tqdm(args.sources, desc="Sources"):
        texts = list(open_corpus(name).documents())
        results.append(measure(name, texts, args.words, nlp, lexicon))
        proxies.append(proxy_pairs(texts, adjectives))
        print(json.dumps(results[-1]))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "spacy_pipeline": pipeline_id(nlp),
        "words_per_source": args.words,
        "sources": results,
        "together": together(results, proxies),
    }
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
