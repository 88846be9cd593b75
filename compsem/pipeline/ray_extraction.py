"""The command line of a benchmark's corpus extraction on a Ray cluster, shared by the builders
that parse a corpus (``python -m compsem.builders.<benchmark>.corpus.ray_extraction``): the extraction
settings of ``compsem build <benchmark>`` with the same flags, a ``--work`` folder, and Ray's
resources per task. Each builder supplies what to run (:func:`run_on_ray` over its pipeline's
steps) and the build command that reads the shards.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from compsem.benchmark.settings import add_setting_arguments, bounded
from compsem.pipeline.runner import run_on_ray
from compsem.text.help_format import HelpFormatter


def ray_parser(benchmark: str, what: str, config_class: type, settings: Sequence[str]):
    """The argument parser of ``python -m compsem.builders.<benchmark>.corpus.ray_extraction``."""
    parser = argparse.ArgumentParser(
        prog=f"python -m compsem.builders.{benchmark}.corpus.ray_extraction",
        formatter_class=HelpFormatter,
        description=f"Run {what} on a Ray cluster (the one ray.init() finds, else a local "
        f"instance); then build from its shards with `compsem build {benchmark} --extracted "
        "DIR/shards`.",
    )
    parser.add_argument(
        "--work",
        required=True,
        metavar="DIR",
        help="folder for the shards and the task logs, on a file system every node reaches",
    )
    add_setting_arguments(parser, config_class, names=settings)
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


def run_steps_on_ray(steps: list, args: argparse.Namespace) -> Path:
    """Run a pipeline's steps with the parsed command line's tasks and resources; returns the
    shards folder, ``<work>/shards``."""
    work = Path(args.work)
    run_on_ray(
        steps,
        work / "logs",
        tasks=args.tasks,
        workers=args.workers,
        cpus_per_task=args.cpus_per_task,
        mem_per_cpu_gb=args.mem_per_cpu_gb,
    )
    return work / "shards"


def ray_main(
    parser: argparse.ArgumentParser,
    extract: Callable[[argparse.Namespace], Path],
    benchmark: str,
    argv: list[str] | None = None,
) -> int:
    """Parse, extract, and say how to build; one clear error (exit status 2) on bad input."""
    args = parser.parse_args(argv)
    try:
        shards = extract(args)
    except (ImportError, ValueError, RuntimeError, OSError) as error:
        print(f"ray_extraction: error: {error}", file=sys.stderr)
        return 2
    print(f"Wrote {shards}: build with `compsem build {benchmark} --extracted {shards} --out DIR`.")
    return 0
