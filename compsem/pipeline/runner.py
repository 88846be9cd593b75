"""Corpus processing on datatrove: readers, one spaCy pipeline per worker, sharded Parquet output.

A corpus extraction is a datatrove pipeline of three parts, so it runs unchanged on one machine or
a cluster:

1. readers that turn input files into ``Document`` objects, sharded by file across tasks
   (:mod:`compsem.pipeline.corpus_readers`: plain text, JSON Lines, Parquet and ``datasets`` folders),
   optionally cut to each task's first documents by :class:`FirstDocuments`;
2. :class:`SpacyAnnotator`, which loads one spaCy pipeline per worker process, parses the
   documents in batches and stores what a pure ``annotate(doc)`` function returns in each
   document's metadata;
3. :func:`parquet_shards`, datatrove's ``ParquetWriter`` with an explicit schema, one file per
   task (``<folder>/000_<rank>.parquet``).

:func:`run_locally` runs such a pipeline with datatrove's ``LocalPipelineExecutor``, and
:func:`run_on_ray` with its ``RayPipelineExecutor`` on a Ray cluster (or a local Ray instance);
a task that finished is marked complete in ``logging_dir`` and skipped when the run is repeated,
so a killed run resumes where it stopped. To scale out, run the steps on Ray (or hand them to
datatrove's ``SlurmPipelineExecutor``), then point the builder at the output folder (the PLANE
and BoOQA cards give the commands).
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import datasets
import multiprocess
import pyarrow as pa
import pyarrow.parquet as pq
from datatrove.executor import LocalPipelineExecutor, RayPipelineExecutor
from datatrove.pipeline.base import PipelineStep
from datatrove.pipeline.writers import ParquetWriter
from datatrove.utils.logging import logger

from compsem.benchmark.settings import build_setting
from compsem.files.fingerprint import cache_root
from compsem.pipeline.process_guard import die_with_parent, exit_with_command, guard_forked_children
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, load_pipeline

SHARD_PATTERN = "*.parquet"


class CorpusError(ValueError):
    """A corpus cannot be read: the message names the file (and line) and what to do."""


class PipelineIncompleteError(RuntimeError):
    """Some tasks of a pipeline run did not finish: running it again resumes them."""


def spacy_pipeline(name: str = DEFAULT_SPACY_MODEL, disable: tuple[str, ...] = ()):
    """A spaCy pipeline with a parser (NER kept unless disabled: BoOQA types its arguments)."""
    return load_pipeline(name, tuple(disable))


class FirstDocuments(PipelineStep):
    """Pass on only the first ``limit`` documents of each task (a quick look at a corpus)."""

    name = "✂️ First documents"
    type = "✂️ - LIMIT"

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def run(self, data, rank: int = 0, world_size: int = 1):
        yield from islice(data, self.limit)


class SpacyAnnotator(PipelineStep):
    """Parse documents with one spaCy pipeline per worker; ``annotate(doc)`` fills metadata.

    Args:
        annotate: a picklable function from a spaCy ``Doc`` to a dict merged into the
            document's metadata (for BoOQA ``{"triples": [...], "sentences": n}``).
        spacy_model: an installed spaCy pipeline with a parser.
        disable: pipeline components to leave out (PLANE's AN extraction needs no ``ner``).
        batch_size: documents per ``nlp.pipe`` batch.
    """

    name = "🔎 spaCy annotator"
    type = "🔎 - EXTRACTOR"

    def __init__(
        self,
        annotate: Callable[[object], dict],
        spacy_model: str = DEFAULT_SPACY_MODEL,
        disable: Sequence[str] = (),
        batch_size: int = 256,
    ):
        super().__init__()
        self.annotate = annotate
        self.spacy_model = spacy_model
        self.disable = tuple(disable)
        self.batch_size = batch_size

    def run(self, data, rank: int = 0, world_size: int = 1):
        if multiprocess.parent_process() is not None:  # a pool worker, not the command itself
            die_with_parent()
            exit_with_command()
        nlp = spacy_pipeline(self.spacy_model, self.disable)
        pairs = ((document.text, document) for document in self.parseable(data, nlp.max_length))
        for doc, document in nlp.pipe(pairs, as_tuples=True, batch_size=self.batch_size):
            with self.track_time():
                document.metadata.update(self.annotate(doc))
            self.stat_update("documents")
            yield document

    def parseable(self, data, max_length: int):
        """The documents spaCy can parse: one longer than its ``max_length`` (a whole book on
        one line, say) would stop the run with error E088 and needs memory in proportion, so it
        is skipped, logged and counted (``skipped_too_long`` in the run's stats)."""
        for document in data:
            if len(document.text) > max_length:
                logger.warning(
                    f"Skipped document {document.id}: {len(document.text):,} characters, over "
                    f"spaCy's limit of {max_length:,}; split it into paragraphs to include it."
                )
                self.stat_update("skipped_too_long")
                continue
            yield document


def parquet_shards(folder: str | Path, schema, adapter: Callable) -> ParquetWriter:
    """datatrove's ParquetWriter: one file per task, rows made by ``adapter(self, document)``."""
    return ParquetWriter(
        str(folder), output_filename="${rank}.parquet", schema=schema, adapter=adapter
    )


class LocalExecutor(LocalPipelineExecutor):
    """datatrove's local executor; ``quiet`` keeps the tasks' logs in their files under
    ``logging_dir/logs`` and the executor's own progress, statistics and tracebacks off the
    console (a failing task still raises, and the command reports its error)."""

    def __init__(self, *args, quiet: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.quiet = quiet

    def run(self):
        if not self.quiet:
            return super().run()
        logger.disable("datatrove.executor")
        try:
            return super().run()
        finally:
            logger.enable("datatrove.executor")

    def _run_for_rank(self, rank: int, local_rank: int = 0, node_rank: int = -1):
        if self.quiet:
            # In a worker process too (``run`` disables them in this one only): a failing task
            # would print datatrove's traceback, with every local variable, before the error
            # it raises reaches the command, which names what is wrong. ``run`` re-enables them.
            logger.disable("datatrove.executor")
        # datatrove prints a task's INFO logs only for local rank 0; the rank is used for
        # nothing else.
        return super()._run_for_rank(rank, max(local_rank, int(self.quiet)), node_rank)


def run_locally(
    pipeline: list,
    logging_dir: str | Path,
    tasks: int = 1,
    workers: int = 1,
    quiet: bool = True,
) -> None:
    """Run ``pipeline`` as ``tasks`` datatrove tasks, ``workers`` at a time, resuming a killed run.

    Tasks already marked complete in ``logging_dir`` are skipped; raises
    :class:`PipelineIncompleteError` if any task is still incomplete afterwards.
    """
    options = run_options(tasks, workers, logging_dir)
    guard_forked_children()
    executor = LocalExecutor(pipeline, **options, quiet=quiet)
    executor.run()
    check_complete(executor, logging_dir, "run the build again to resume them")


def run_on_ray(
    pipeline: list,
    logging_dir: str | Path,
    tasks: int = 1,
    workers: int = 1,
    cpus_per_task: int = 1,
    mem_per_cpu_gb: float = 2,
) -> None:
    """Run ``pipeline`` as ``tasks`` datatrove tasks on Ray, ``workers`` at a time, resuming a
    killed run (as :func:`run_locally` does).

    Uses the Ray instance this process is connected to (``ray.init``), or connects as
    ``ray.init()`` does (to ``$RAY_ADDRESS``, else to the cluster ``ray start`` made on this
    machine, else a new local instance) and disconnects afterwards. ``logging_dir``, the
    pipeline's output and its inputs must be on a file system every node reaches. Raises
    :class:`PipelineIncompleteError` if a task did not complete.
    """
    options = run_options(tasks, workers, logging_dir)
    try:
        import ray  # an optional extra (compsem[ray]) that takes seconds to import
    except ImportError:
        raise ImportError(
            "Running on Ray needs the ray package: pip install 'compsem[ray]'."
        ) from None
    connected = ray.is_initialized()
    if not connected:
        ray.init()
    try:
        executor = RayPipelineExecutor(
            pipeline, **options, cpus_per_task=cpus_per_task, mem_per_cpu_gb=mem_per_cpu_gb
        )
        executor.run()
    finally:
        if not connected:
            ray.shutdown()
    check_complete(executor, logging_dir, "run the same command again to resume them")


def run_options(tasks: int, workers: int, logging_dir: str | Path) -> dict:
    """The arguments every executor here takes: ``tasks`` and ``workers`` (checked), the log
    folder, and skipping the tasks a previous run completed."""
    if tasks < 1 or workers < 1:
        raise ValueError(f"tasks and workers must be at least 1, got {tasks} and {workers}.")
    return {
        "tasks": tasks,
        "workers": min(workers, tasks),
        "logging_dir": str(logging_dir),
        "skip_completed": True,
    }


def check_complete(executor, logging_dir: str | Path, resume: str) -> None:
    """Raise :class:`PipelineIncompleteError` if a task of ``executor``'s run is incomplete."""
    incomplete = executor.get_incomplete_ranks()
    if incomplete:
        raise PipelineIncompleteError(
            f"{len(incomplete)} of {executor.world_size} tasks did not complete (ranks "
            f"{incomplete[:10]}); see the task logs in {logging_dir}/logs and {resume}."
        )


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, which a
    container or ``taskset`` narrows, else the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# Parsing is the cost of a build and its output does not depend on the number of tasks, so a
# build uses every core it has unless told otherwise.
AVAILABLE_CORES = available_cores()


@dataclass
class PipelineConfig(datasets.BuilderConfig):
    """The settings of a builder that parses its corpus on this runner (a ``BuilderConfig`` base
    for the benchmark's own config class)."""

    extracted: str | None = build_setting(
        None,
        "instead of --corpus, the shards folder of an extraction run elsewhere (datatrove on "
        "Slurm or Ray)",
        metavar="DIR",
    )
    spacy_model: str = build_setting(
        DEFAULT_SPACY_MODEL, "an installed spaCy pipeline with a parser (e.g. en_core_web_lg)"
    )
    tasks: int = build_setting(
        AVAILABLE_CORES,
        "datatrove tasks (the corpus is sharded by file; default: one per available core)",
        minimum=1,
    )
    workers: int = build_setting(
        AVAILABLE_CORES,
        "worker processes run at once (datatrove's tasks, and a build's parallel steps; "
        "default: one per available core)",
        minimum=1,
    )
    split: str = build_setting("train", "the split of a hf://datasets/ corpus to read")


def run_in_cache(
    step: str, key: str, make_steps: Callable[[Path], list], tasks: int = 1, workers: int = 1
) -> Path:
    """Run (or resume, or reuse) the pipeline ``make_steps(work)`` in the work folder
    ``<cache>/<step>/<key>``; returns the folder of its shards, ``work/shards``."""
    work = cache_root() / step / key
    with exclusive(work.with_name(f"{key}.lock")):
        run_locally(make_steps(work), work / "logs", tasks=tasks, workers=workers)
    return work / "shards"


@contextmanager
def exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` for the block.

    Two builds of the same corpus share one content-keyed work folder; run at once, both would
    write the same task's shard and leave a corrupt Parquet file marked complete. The second
    waits instead, then finds every task complete and reuses the first one's shards. The kernel
    drops the lock when its holder dies, so a killed build never blocks the next.
    """
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.warning(
                f"Waiting for another build that is parsing the same corpus ({lock_path})."
            )
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def shard_files(folder: str | Path) -> list[Path]:
    """The Parquet shards a pipeline wrote, in a fixed order."""
    return sorted(Path(folder).rglob(SHARD_PATTERN))


def unfinished_tasks(folder: Path) -> str | None:
    """Which tasks of the datatrove run that wrote the shards ``folder`` are not complete, if it
    left its logs beside it (``<work>/logs``, as :func:`run_in_cache` lays out)."""
    logs = Path(folder).parent / "logs"
    if not (logs / "executor.json").is_file():
        return None
    world_size = json.loads((logs / "executor.json").read_text()).get("world_size")
    done = {p.name for p in (logs / "completions").glob("*")} if world_size else set()
    missing = [rank for rank in range(world_size or 0) if f"{rank:05d}" not in done]
    return f"{len(missing)} of {world_size} tasks (ranks {missing[:10]})" if missing else None


def shard_parser(files: Sequence[Path]) -> str:
    """The spaCy pipeline that wrote a run's shards, from their schema metadata."""
    metadata = pq.read_schema(files[0]).metadata or {}
    return metadata.get(b"compsem.parser", b"unknown").decode()


def check_extracted(folder: str | Path, error: type[Exception]) -> Path:
    """``--extracted``, the user's shards folder, when it is a folder (a missing one would
    otherwise read as an extraction that found no documents)."""
    if not Path(folder).is_dir():
        raise error(
            f"--extracted {folder} is not a folder; pass the `shards` folder of an extraction run."
        )
    return Path(folder)


def check_shards(
    folder: str | Path, schema: pa.Schema, error: type[Exception], producer: str, empty: str
) -> list[Path]:
    """The shards of a finished run of ``producer`` in ``folder``, checked against ``schema``;
    otherwise ``error`` says what is wrong (``empty``: what to do when they hold no rows)."""
    unfinished = unfinished_tasks(Path(folder))
    if unfinished:
        raise error(
            f"The extraction that wrote {folder} is not finished: {unfinished} did not "
            "complete. Run its executor again to resume them, then build."
        )
    files = shard_files(folder)
    for path in files:
        found = pq.read_schema(path)
        if not schema.remove_metadata().equals(found.remove_metadata()):
            raise error(
                f"{path} is not a shard of {producer} (columns {found.names}); pass the "
                f"`shards` folder that {producer} writes."
            )
    if sum(pq.ParquetFile(path).metadata.num_rows for path in files) == 0:
        raise error(f"{empty} (the extraction in {folder} holds no rows).")
    return files
