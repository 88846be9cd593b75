"""The one results model that ``compsem report``, the results page, the leaderboards and a
command's ``summary.md`` render: result files read once (:func:`read`) and grouped once into
lines of comparable runs (:func:`group_results`), per benchmark and command.

Which runs a line pools is decided here, once: seeds always; the resampled splits of a family
(``goood_split_1`` … ``_5`` as ``goood_split``) for the commands in :data:`FAMILY_POOLED`,
whose numbers are read per regime; every other command keeps each config a line of its own.
``comparable.group`` says what else keeps runs apart (settings, builds, repeats). The renderers
never group runs themselves."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from compsem.harness.models.offline import public_name
from compsem.harness.results.comparable import Line, group
from compsem.harness.results.files import Found, read_result_files

# Commands whose lines pool a family's resampled splits (fine-tuning and the commands reported
# like it); the others report each config apart.
FAMILY_POOLED = frozenset({"train", "llm", "probe-likelihood"})
# Where a run names no benchmark (a result of a dataset compsem did not build).
OTHER = "other"


def family(config: str) -> str:
    """A config's regime: resamples ``goood_split_1`` … ``_5`` pool as ``goood_split``."""
    return re.sub(r"_\d+$", "", config)


def model_name(model: str) -> str:
    """A short name: offline models by their published name, Hub ids as they are, other local
    folders by their last two path parts."""
    published = public_name(model)
    if published:
        return published
    if model.startswith(("/", ".", "~")) or re.match(r"^[A-Za-z]:\\", model):
        return "/".join(Path(model).parts[-2:])
    return model


def model_of(result: dict) -> str:
    return model_name(result["model"])


def config_of(result: dict) -> str:
    return result["dataset"]["config"]


def family_of(result: dict) -> str:
    return family(result["dataset"]["config"])


def benchmark_of(result: dict) -> str:
    return result["dataset"].get("preset") or OTHER


@dataclass(frozen=True)
class Entry:
    """One line of the model: the benchmark and command its runs come from, and the line."""

    benchmark: str
    command: str
    line: Line


@dataclass
class Results(Found):
    """What one walk over result folders found (``results.files.Found``: the results and their
    files, embed reports, analyses, precision-recall curves, what could not be read) and the
    lines of comparable runs, per benchmark and command, in a fixed order."""

    entries: list[Entry] = field(default_factory=list)

    def of_command(self, command: str) -> list[Line]:
        """The lines of one command, every benchmark's, in the model's order."""
        return [entry.line for entry in self.entries if entry.command == command]

    def by_benchmark(self) -> dict[str, list[tuple[str, Line]]]:
        """(command, line) per benchmark."""
        found: dict[str, list[tuple[str, Line]]] = defaultdict(list)
        for entry in self.entries:
            found[entry.benchmark].append((entry.command, entry.line))
        return dict(found)

    def commands(self) -> set[str]:
        return {entry.command for entry in self.entries}

    def runs_of(self, command: str) -> tuple[list[dict], list[str]]:
        """Every run of one command and its file, in the order they were read."""
        pairs = [
            (run, file)
            for run, file in zip(self.results, self.sources, strict=True)
            if run["command"] == command
        ]
        return [run for run, _ in pairs], [file for _, file in pairs]


def group_results(runs: list[dict], files: Sequence[str] | None = None) -> Results:
    """The model of runs already read (a command's own, for its ``summary.md``)."""
    return grouped(Found(list(runs), list(files) if files else [""] * len(runs)))


def grouped(found: Found) -> Results:
    """The model of what a walk found: one ``comparable.group`` per benchmark and command, each
    line labelled against its neighbours there (what a leaderboard and a section show side by
    side)."""
    buckets: dict[tuple[str, str], tuple[list, list]] = defaultdict(lambda: ([], []))
    for run, file in zip(found.results, found.sources, strict=True):
        bucket = buckets[(benchmark_of(run), run["command"])]
        bucket[0].append(run)
        bucket[1].append(file)
    entries = [
        Entry(benchmark, command, line)
        for (benchmark, command), (members, where) in sorted(buckets.items())
        for line in group(members, model_of, pooling(command), where)
    ]
    _name_benchmarks_apart(entries)
    return Results(**vars(found), entries=entries)


def _name_benchmarks_apart(entries: list[Entry]) -> None:
    """A report's section shows one command's lines of every benchmark side by side, keyed by
    label: where two benchmarks' lines share one (a model on a config name both use), each
    names its benchmark."""
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for entry in entries:
        seen[(entry.command, entry.line.label)].add(entry.benchmark)
    for entry in entries:
        if len(seen[(entry.command, entry.line.label)]) > 1:
            entry.line.label += f" · {entry.benchmark}"


def pooling(command: str):
    """What names a line's config for a command: its family where resamples pool."""
    return family_of if command in FAMILY_POOLED else config_of


def read(paths: Sequence[Path]) -> Results:
    """Every result file, embed report and analysis under ``paths``, read once and grouped."""
    return grouped(read_result_files(paths))
