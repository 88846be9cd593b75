"""``compsem inspect-tasks``: every config of an export as two Inspect AI tasks.

One Python file per benchmark, ``<out>/<benchmark>/compsem_<benchmark>.py``, as Inspect task files
are: per config with a test split, ``compsem_<benchmark>_<config>`` (Inspect's ``multiple_choice``
solver and ``choice`` scorer) and ``compsem_<benchmark>_<config>_generate`` (the row asked as
``compsem llm --generate`` asks it, scored by the benchmark's declared parser). The file only
names the export and the configs; the tasks are built by ``compsem.harness.inspect_export.runtime``
from the export's Parquet, so prompts and parsers are declared once. The export is found by its
path relative to the task file (they move together), or by ``-T export=DIR``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from compsem.benchmark.card import compsem_metadata
from compsem.files.export_reader import ExportError, read_export
from compsem.harness.llm.prompts import prompts_for
from compsem.harness.results.files import check_writable, write_text

HEADER = '''"""Inspect AI tasks for a compsem {benchmark} export (EXPORT: its path relative to this
file), written by `compsem inspect-tasks`. Run, e.g.:

    inspect eval {file}@{example} --model hf/local -M model_path=DIR

`-T export=DIR` reads another copy of the export; `-T limit=N` takes the first N test rows.
"""

from pathlib import Path

from inspect_ai import task

from compsem.harness.inspect_export.runtime import choice_task, generate_task

EXPORT = Path(__file__).resolve().parent / {export!r}
'''

TASK = """

@task
def {name}(export: str | None = None, limit: int | None = None):
    return choice_task(export or EXPORT, {config!r}, limit)


@task
def {name}_generate(
    export: str | None = None, limit: int | None = None, system: str | None = None
):
    return generate_task(export or EXPORT, {config!r}, limit, system)\n"""


@dataclass(frozen=True)
class InspectTasks:
    """What ``write_inspect_tasks`` wrote: the benchmark, its task file and task names."""

    benchmark: str
    file: Path
    tasks: list[str]


def _identifier(name: str) -> str:
    task = f"compsem_{name}"
    if not task.isidentifier():
        raise ExportError(
            f"cannot name an Inspect task after {name!r} (not a Python identifier): rename the "
            "config in the export"
        )
    return task


def write_inspect_tasks(export, out: Path, only: list[str] | None = None) -> InspectTasks:
    """Write ``out/<benchmark>/compsem_<benchmark>.py`` with the tasks of every config of
    ``export`` (of those in ``only`` when given) that has a test split and an LLM prompt."""
    folder = Path(export).expanduser()
    if not folder.is_dir():
        raise ExportError(f"no export folder {export}: pass a folder written by compsem build")
    found = read_export(folder)
    benchmark = compsem_metadata(found.card).get("benchmark")
    if not benchmark:
        raise ExportError(f"{found.folder}'s card has no compsem block: pass a compsem export")
    _identifier(benchmark)
    target = Path(out) / benchmark
    task_file = target / f"compsem_{benchmark}.py"
    relative = os.path.relpath(found.folder, target.resolve())
    unknown = sorted(set(only or ()) - set(found.configs))
    if unknown:
        raise ExportError(
            f"{found.folder} has no config {unknown[0]!r}; choose among {', '.join(found.configs)}"
        )
    configs = [
        name
        for name, splits in found.configs.items()
        if "test" in splits and (only is None or name in only)
    ]
    if not configs:
        raise ExportError(f"no config of {found.folder} has a test split to evaluate")
    names = []
    for config in configs:
        columns = pq.read_schema(found.configs[config]["test"][0]).names
        prompts_for(benchmark, columns)  # one clear error for a config without a prompt
        names.append(_identifier(f"{benchmark}_{config}"))
    text = HEADER.format(
        benchmark=benchmark, export=relative, file=task_file.name, example=names[0] + "_generate"
    )
    text += "".join(TASK.format(name=n, config=c) for n, c in zip(names, configs, strict=True))
    check_writable([task_file])
    write_text(task_file, text)
    return InspectTasks(benchmark, task_file, [t for n in names for t in (n, f"{n}_generate")])
