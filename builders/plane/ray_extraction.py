"""PLANE's adjective-noun extraction on a Ray cluster; ``compsem build plane --extracted`` builds
from its shards.

Usage (``pip install 'compsem[ray]'``; the work folder and the corpus on a file system every
node reaches)::

    ray start --head                     # on each further node: ray start --address HEAD:6379
    python -m compsem.builders.plane.ray_extraction --corpus wiki/ --work plane-work \\
        --tasks 512 --workers 128 --spacy-model en_core_web_lg
    compsem build plane --extracted plane-work/shards --out hub/plane

It runs the steps of :func:`~compsem.builders.plane.extraction.an_extraction_pipeline` (the
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
from compsem.builders.plane.extraction import an_extraction_pipeline
from compsem.help_format import HelpFormatter
from compsem.loading_scripts.corpora import open_corpus
from compsem.pipeline import run_on_ray
from compsem.settings import add_setting_arguments, bounded

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
    work = Path(args.work)
    steps = an_extraction_pipeline(corpus, work, args.spacy_model, args.max_docs)
    run_on_ray(
        steps,
        work / "logs",
        tasks=args.tasks,
        workers=args.workers,
        cpus_per_task=args.cpus_per_task,
        mem_per_cpu_gb=args.mem_per_cpu_gb,
    )
    return work / "shards"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m compsem.builders.plane.ray_extraction",
        formatter_class=HelpFormatter,
        description="Run PLANE's adjective-noun extraction on a Ray cluster (the one ray.init() "
        "finds, else a local instance); then build from its shards with `compsem build plane "
        "--extracted DIR/shards`.",
    )
    parser.add_argument(
        "--work",
        required=True,
        metavar="DIR",
        help="folder for the shards and the task logs, on a file system every node reaches",
    )
    add_setting_arguments(parser, PlaneConfig, names=EXTRACTION_SETTINGS)
    parser.add_argument(
        "--cpus-per-task", type=bounded(int, 1), default=1, metavar="N", help="Ray CPUs per task"
    )
    parser.add_argument(
        "--mem-per-cpu-gb",
        type=bounded(float, 0.1),
        default=2.0,
        metavar="GB",
        help="Ray memory reserved per CPU",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        shards = extract_on_ray(args)
    except (ImportError, ValueError, RuntimeError, OSError) as error:
        print(f"ray_extraction: error: {error}", file=sys.stderr)
        return 2
    print(f"Wrote {shards}: build with `compsem build plane --extracted {shards} --out DIR`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
