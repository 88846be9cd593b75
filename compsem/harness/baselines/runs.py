"""Running ``compsem baselines``: each declared run (``baselines.BASELINES``) through the harness
command it names, into its own folder under ``--out``, then the results page over them.

A run's folder is written whole or not at all (:func:`compsem.files.output_folder.atomic_folder`): its
manifest records what the run was (command, configs, settings, and the content fingerprints of
the configs it read), so a second invocation keeps every folder whose record matches and reruns the rest; an
interrupted run leaves no folder, and the next invocation starts it again."""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from compsem.benchmark.spec import Baseline
from compsem.builders import BENCHMARKS
from compsem.files.output_folder import Wording, atomic_folder, read_marker
from compsem.harness.data.benchmark import card_metadata
from compsem.harness.embed.report import command_line
from compsem.harness.embed.run import run_embed
from compsem.harness.models.offline import model_path
from compsem.harness.report.leaderboard import leaderboards
from compsem.harness.report.run import run_report
from compsem.harness.results.files import check_writable
from compsem.harness.results.model import read

RUN_KIND = "compsem baseline run"
PAGE_FILES = ("report.md", "report.json", "index.md", "index.html")


# The harness function of each command that takes one config: ``(module, function)``.
PER_CONFIG = {
    "train": ("training.finetune", "run_train"),
    "curve": ("training.finetune", "run_curve"),
    "llm": ("llm.run", "run_llm"),
    "score": ("probing.score", "run_score"),
}


def execute(command: str, dataset: str, configs: list[str], out: Path, options: dict) -> None:
    """One run: the harness command on each config (``embed``: on the phrase sets at once)."""
    if command == "embed":
        _embed(dataset, configs, out, options)
        return
    module, function = PER_CONFIG[command]
    # Imported here: the harness commands import torch and transformers (seconds).
    run = getattr(importlib.import_module(f"compsem.harness.{module}"), function)
    for config in configs:
        run(dataset, config, out, **options)


def _embed(dataset, phrase_sets, out, options):
    models = list(options["models"])
    report = run_embed(models, dataset, phrase_sets=list(phrase_sets))
    command = command_line(dataset, models, phrase_sets=phrase_sets)
    BENCHMARKS[report["benchmark"]].embedding.write_report(report, out / "report", command)


def check_targets(runs: Sequence[Baseline], out: Path, quick: bool) -> None:
    """One clear error, before any work, for a run folder or page file compsem may not write
    or a model that is not set up."""
    folders = {folder_of(run, out, quick): RUN_KIND for run in runs}
    check_writable([Path(out) / name for name in PAGE_FILES], folders)
    for run in runs:
        if run.command == "llm":
            model_path(run.options["model"])  # SmolLM2 not converted yet: how to set it up


def folder_of(run: Baseline, out: Path, quick: bool) -> Path:
    return Path(out) / (run.name + ("-quick" if quick else ""))


def record_of(run: Baseline, export: Path, quick: bool, max_rows: int | None) -> dict:
    """What a run folder's manifest records: the run, its settings in this set, and the
    content fingerprint of each config it read, from the export's card (a rebuild that
    changes the rows changes them; one that writes the same rows does not)."""
    configs, options = run.settings(quick, max_rows)
    card = card_metadata(str(export), None)
    record = {
        "command": run.command,
        "dataset": str(export),
        "version": card.get("version"),
        "content": {config: (card.get("fingerprints") or {}).get(config) for config in configs},
        "configs": configs,
        "options": options,
    }
    return json.loads(json.dumps(record))  # as the manifest reads back: lists, not tuples


def run_baselines(
    runs: Sequence[Baseline],
    exports: Mapping[str, Path],
    out: Path,
    quick: bool = False,
    max_rows: int | None = None,
    earlier: Sequence[Baseline] = (),
) -> list[Path]:
    """Run (or keep) each of ``runs`` on the benchmarks' ``exports`` and write the results page
    into ``out``, over ``earlier`` runs of this invocation too (the demo's first phase); prints
    the leaderboards of ``runs``; returns their folders."""
    check_targets(runs, out, quick)
    planned = [
        (run, folder_of(run, out, quick), record_of(run, exports[run.benchmark], quick, max_rows))
        for run in runs
    ]
    started = time.perf_counter()
    for index, (run, folder, record) in enumerate(planned, 1):
        kept = read_marker(folder) if folder.is_dir() else None
        if kept and kept.get("kind") == RUN_KIND and kept.get("baseline") == record:
            print(
                f"[{index}/{len(planned)} {run.name}: skipped, {folder}/ holds it with the same "
                f"settings and export (ran in {kept.get('seconds', 0):.0f} s)]"
            )
            continue
        print(f"[{index}/{len(planned)} {run.name}: {describe(record)}]", flush=True)
        marker = {"kind": RUN_KIND, "baseline": record}
        begun = time.perf_counter()
        with atomic_folder(folder, marker, wording=Wording(name=str(folder))) as staging:
            execute(run.command, record["dataset"], record["configs"], staging, record["options"])
            marker["seconds"] = round(time.perf_counter() - begun, 1)
        print(f"[{run.name}: {marker['seconds']:.0f} s]", flush=True)
    folders = [folder for _, folder, _ in planned]
    run_report([folder_of(run, out, quick) for run in earlier] + folders, out)
    results = read(folders)
    print("\n" + leaderboards(results))
    for _, report in results.embeds:
        models = ", ".join(model["label"] for model in report["models"])
        spec = BENCHMARKS[report["benchmark"]]
        print(f"\n### {spec.heading}: {models}\n")
        print(spec.embedding.tables(report, "####"))
    print(
        f"\nBaselines done in {(time.perf_counter() - started) / 60:.1f} min; results page "
        f"{Path(out) / 'index.html'} (Markdown twin index.md)"
    )
    return folders


def describe(record: dict) -> str:
    settings = ", ".join(
        f"{name} {' '.join(map(str, value)) if isinstance(value, list) else value}"
        for name, value in record["options"].items()
    )
    return f"{record['command']} on {', '.join(record['configs'])} ({settings})"
