"""PLANE's adjective-noun extraction on a Ray cluster; ``compsem build plane --extracted`` builds
from its shards.

Usage (``pip install 'compsem[ray]'``; the work folder and the corpus on a file system every
node reaches)::

    ray start --head                     # on each further node: ray start --address HEAD:6379
    python -m compsem.builders.plane.corpus.ray_extraction --corpus wiki/ --work plane-work \\
        --tasks 512 --workers 128 --spacy-model en_core_web_lg
    compsem build plane --extracted plane-work/shards --out hub/plane

It runs the steps of :func:`~compsem.builders.plane.corpus.extraction.an_extraction_pipeline` (the
ones ``compsem build plane --corpus`` runs locally) on datatrove's ``RayPipelineExecutor``, on the
cluster ``ray.init()`` finds (``$RAY_ADDRESS``, else the one ``ray start`` made on this machine,
else a new local instance that it stops afterwards). Finished tasks are recorded in
``<work>/logs``: run the same command again to resume a stopped run. The shards hold the same
pairs, and so give the same counts, as the local executor's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.corpus.extraction import an_extraction_pipeline
from compsem.loading_scripts.corpora import open_corpus
from compsem.pipeline.ray_extraction import ray_main, ray_parser, run_steps_on_ray

# The settings of `compsem build plane` that the extraction reads, with the same flags.
EXTRACTION_SETTINGS = (
    "corpus",
    "text_column",
    "split",
    "spacy_model",
    "max_docs",
    "tasks",
    "workers",
)


def extract_on_ray(args: argparse.Namespace) -> Path:
    """Run the extraction the parsed command line describes; returns the shards folder."""
    corpus = open_corpus(args.corpus, args.text_column, args.split)
    steps = an_extraction_pipeline(corpus, Path(args.work), args.spacy_model, args.max_docs)
    return run_steps_on_ray(steps, args)


def build_parser() -> argparse.ArgumentParser:
    return ray_parser(
        "plane", "PLANE's adjective-noun extraction", PlaneConfig, EXTRACTION_SETTINGS
    )


def main(argv: list[str] | None = None) -> int:
    return ray_main(build_parser(), extract_on_ray, "plane", argv)


if __name__ == "__main__":
    sys.exit(main())
