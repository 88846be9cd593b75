"""Corpus processing on datatrove: readers, one spaCy pipeline per worker, sharded Parquet output.

A corpus extraction is a datatrove pipeline of three parts, so it runs unchanged on one machine or
a cluster:

1. readers that turn input files into ``Document`` objects, sharded by file across tasks
   (:class:`JsonlLinesReader` for JSONL, datatrove's ``ParquetReader`` and
   ``HuggingFaceDatasetReader`` for Parquet and ``datasets`` folders);
2. :class:`SpacyAnnotator`, which loads one spaCy pipeline per worker process, parses the
   documents in batches and stores what a pure ``annotate(doc)`` function returns in each
   document's metadata;
3. :func:`parquet_shards`, datatrove's ``ParquetWriter`` with an explicit schema, one file per
   task (``<folder>/000_<rank>.parquet``).

:func:`run_locally` runs such a pipeline with datatrove's ``LocalPipelineExecutor``; a task that
finished is marked complete in ``logging_dir`` and skipped when the run is repeated, so a killed
run resumes where it stopped. To scale out, hand the same steps to datatrove's
``SlurmPipelineExecutor`` or ``RayPipelineExecutor`` (see the BoOQA card for a worked command),
then point the builder at the output folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.base import PipelineStep
from datatrove.pipeline.readers.base import BaseDiskReader
from datatrove.pipeline.writers import ParquetWriter
from datatrove.utils.logging import logger

from compsem.loading_scripts.corpora import CorpusError
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, load_pipeline

SHARD_PATTERN = "*.parquet"


class PipelineIncompleteError(RuntimeError):
    """Some tasks of a pipeline run did not finish: running it again resumes them."""


def spacy_pipeline(name: str = DEFAULT_SPACY_MODEL, disable: tuple[str, ...] = ()):
    """A spaCy pipeline with a parser (NER kept unless disabled: BoOQA types its arguments)."""
    return load_pipeline(name, tuple(disable))


class JsonlLinesReader(BaseDiskReader):
    """datatrove's disk reader for JSON Lines, strict about malformed lines.

    datatrove's own ``JsonlReader`` skips a line it cannot decode with a warning (and needs
    ``orjson``); a benchmark built from a silently shortened corpus is wrong, so here a bad line is
    a :class:`CorpusError` naming the file and line. Everything else (sharding files by task,
    compression, adapters, ``limit``) is datatrove's.
    """

    name = "🐿 Jsonl (strict)"

    def read_file(self, filepath: str):
        with self.data_folder.open(filepath, "rt", compression="infer") as handle:
            for index, line in enumerate(handle):
                if not line.strip():
                    continue
                with self.track_time():
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as error:
                        raise CorpusError(
                            f"{self.data_folder.resolve_paths(filepath)}, line {index + 1}: not "
                            f"valid JSON ({error.msg}); write one JSON object per line."
                        ) from None
                    if not isinstance(record, dict):
                        raise CorpusError(
                            f"{self.data_folder.resolve_paths(filepath)}, line {index + 1}: not a "
                            "JSON object; write one object per line."
                        )
                    document = self.get_document_from_dict(record, filepath, index)
                if document:
                    yield document


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
        nlp = spacy_pipeline(self.spacy_model, self.disable)
        pairs = ((document.text, document) for document in data)
        for doc, document in nlp.pipe(pairs, as_tuples=True, batch_size=self.batch_size):
            with self.track_time():
                document.metadata.update(self.annotate(doc))
            self.stat_update("documents")
            yield document


def parquet_shards(folder: str | Path, schema, adapter: Callable) -> ParquetWriter:
    """datatrove's ParquetWriter: one file per task, rows made by ``adapter(self, document)``."""
    return ParquetWriter(
        str(folder), output_filename="${rank}.parquet", schema=schema, adapter=adapter
    )


class LocalExecutor(LocalPipelineExecutor):
    """datatrove's local executor; ``quiet`` keeps the tasks' logs in their files under
    ``logging_dir/logs`` and the executor's own progress and statistics off the console (a
    failing task still raises)."""

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
    if tasks < 1 or workers < 1:
        raise ValueError(f"tasks and workers must be at least 1, got {tasks} and {workers}.")
    executor = LocalExecutor(
        pipeline,
        tasks=tasks,
        workers=min(workers, tasks),
        logging_dir=str(logging_dir),
        skip_completed=True,
        quiet=quiet,
    )
    executor.run()
    incomplete = executor.get_incomplete_ranks()
    if incomplete:
        raise PipelineIncompleteError(
            f"{len(incomplete)} of {tasks} tasks did not complete (ranks {incomplete[:10]}); see "
            f"the task logs in {logging_dir}/logs and run the build again to resume them."
        )


def shard_files(folder: str | Path) -> list[Path]:
    """The Parquet shards a pipeline wrote, in a fixed order."""
    return sorted(Path(folder).rglob(SHARD_PATTERN))
