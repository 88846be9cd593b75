"""How many BoOQA bundles a corpus gives as the Appendix D thresholds fall; writes JSON.

For each kind of starring argument pair (both named entities, at least one, any nouns) and each
(starring-pair threshold, felicitous-predicate threshold) on the grid, from the paper's own (15
articles and 15 predicates per pair in a 3-day window; 30 argument pairs per predicate) down:
the starring pairs, felicitous predicates, positives, positives with at least one negative (the
most bundles sampling could give), and the ``en`` dev + test bundles actually sampled (with
their windows), at the reuters preset's other settings and no cap on bundles per split, and the rows of
``h_only``'s train split. Each point is measured with arguments linked to entities (the default)
and without (surface forms). The corpus is parsed once (the content-keyed cache, one task per
core as ``compsem build`` parses it); every grid point reuses that parse.

Usage: python perf/booqa_thresholds.py [--corpus reuters_21578] [--arguments KIND ...]
[--out FILE.json] [--card]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq

from compsem.builders.booqa import examples
from compsem.builders.booqa.config import EN_FEATURES, TYPED_ARGUMENTS, BooqaConfig, resolved
from compsem.builders.booqa.corpus.extraction import EXTRACTION_REVISION
from compsem.builders.booqa.sampling.population import (
    ThresholdError,
    corpus_population,
    population_summary,
)
from compsem.builders.booqa.splits import en_splits, h_only_splits
from compsem.pipeline.runner import shard_files

# (articles = predicates per starring pair, argument pairs per felicitous predicate)
GRID = [
    (15, 30),
    (10, 30),
    (10, 10),
    (7, 10),
    (5, 30),
    (5, 10),
    (5, 5),
    (4, 10),
    (4, 5),
    (3, 10),
    (3, 5),
    (2, 5),
]


def grid_point(source: dict, arguments: str, linked: bool, pair: int, predicate: int) -> dict:
    s = resolved(
        BooqaConfig(
            name="en",
            **source,
            arguments=arguments,
            link_arguments=linked,
            preset="reuters",
            min_articles=pair,
            min_predicates=pair,
            min_pairs=predicate,
            positives_per_split=10**9,  # no cap: every bundle sampling can form
        )
    )
    point = {
        "arguments": arguments,
        "linked": linked,
        "min_articles": pair,
        "min_predicates": pair,
        "min_pairs": predicate,
    }
    start = time.perf_counter()
    try:
        _, population = corpus_population(s)
        summary = population_summary(population)
        splits = en_splits(s, EN_FEATURES.arrow_schema)
    except ThresholdError as error:
        return {**point, "bundles": 0, "limit": str(error)}
    positives = {
        split: table.filter(pc.equal(table["label"], 1)) for split, table in splits.items()
    }
    return {
        **point,
        "starring_pairs": summary["starring_pairs"],
        "felicitous_predicates": summary["felicitous_predicates"],
        "positives": summary["positives"],
        "positives_with_negatives": summary["positives_with_negatives"],
        "bundles": sum(len(table) for table in positives.values()),
        "bundles_by_split": {split: len(table) for split, table in positives.items()},
        "windows": len({w for table in positives.values() for w in table["window"].to_pylist()}),
        "h_only_train": len(h_only_splits(s, EN_FEATURES.arrow_schema)["train"]),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="reuters_21578")
    parser.add_argument(
        "--extracted",
        metavar="DIR",
        help="the shards of an extraction of the corpus (instead of parsing it again)",
    )
    parser.add_argument("--out", type=Path, default=Path("perf/results/booqa_thresholds.json"))
    parser.add_argument(
        "--card", action="store_true", help="also write the table the BoOQA card shows"
    )
    parser.add_argument(
        "--arguments",
        nargs="+",
        choices=list(TYPED_ARGUMENTS),
        default=list(TYPED_ARGUMENTS),
        help="which kinds of argument pairs to sweep",
    )
    args = parser.parse_args()
    source = {"extracted": args.extracted} if args.extracted else {"corpus": args.corpus}
    rows = []
    for arguments in args.arguments:
        for linked in (True, False):
            for pair, predicate in GRID:
                rows.append(grid_point(source, arguments, linked, pair, predicate))
                print(json.dumps(rows[-1]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    measured = {"corpus": args.corpus, "extraction_revision": EXTRACTION_REVISION}
    if args.extracted:
        revision = pq.read_schema(shard_files(args.extracted)[0]).metadata
        measured["extraction_revision"] = int(revision[b"compsem.extraction_revision"])
    text = json.dumps({**measured, "grid": rows}, indent=2) + "\n"
    args.out.write_text(text)
    if args.card:
        (Path(examples.__file__).parent / examples.SWEEP_FILE).write_text(text)


if __name__ == "__main__":
    main()
