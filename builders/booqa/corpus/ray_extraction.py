"""BoOQA's relation extraction (with argument linking) on a Ray cluster; ``compsem build booqa
--extracted`` builds from its shards.

Usage (``pip install 'compsem[ray]'``; the work folder and the corpus on a file system every
node reaches), for a news corpus on the Hub (NewsCrawl-like: one row per dated article)::

    ray start --head                     # on each further node: ray start --address HEAD:6379
    python -m compsem.builders.booqa.corpus.ray_extraction \\
        --corpus hf://datasets/OWNER/NAME@REVISION --text-column text --date-column date \\
        --work booqa-work --tasks 512 --workers 128 --spacy-model en_core_web_lg
    compsem build booqa --extracted booqa-work/shards --preset paper --out hub/booqa

It runs the steps of :func:`~compsem.builders.booqa.corpus.extraction.extraction_pipeline` (the ones
``compsem build booqa --corpus`` runs locally) on datatrove's ``RayPipelineExecutor``, on the
cluster ``ray.init()`` finds (``$RAY_ADDRESS``, else the one ``ray start`` made on this machine,
else a new local instance that it stops afterwards). Finished tasks are recorded in
``<work>/logs``: run the same command again to resume a stopped run. The shards hold the same
triples, and so give the same benchmark, as the local executor's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compsem.builders.booqa.config import BooqaConfig
from compsem.builders.booqa.corpus.extraction import extraction_pipeline
from compsem.loading_scripts.booqa_corpus import open_news_corpus
from compsem.pipeline.ray_extraction import ray_main, ray_parser, run_steps_on_ray

# The settings of `compsem build booqa` that the extraction reads, with the same flags.
EXTRACTION_SETTINGS = (
    "corpus",
    "text_column",
    "date_column",
    "split",
    "spacy_model",
    "tasks",
    "workers",
)


def extract_on_ray(args: argparse.Namespace) -> Path:
    """Run the extraction the parsed command line describes; returns the shards folder."""
    corpus = open_news_corpus(args.corpus, args.text_column, args.date_column, args.split)
    return run_steps_on_ray(extraction_pipeline(corpus, Path(args.work), args.spacy_model), args)


def build_parser() -> argparse.ArgumentParser:
    return ray_parser(
        "booqa", "BoOQA's relation extraction and linking", BooqaConfig, EXTRACTION_SETTINGS
    )


def main(argv: list[str] | None = None) -> int:
    return ray_main(build_parser(), extract_on_ray, "booqa", argv)


if __name__ == "__main__":
    sys.exit(main())
