"""``compsem demo`` and ``compsem baselines``: every benchmark built on the embedded defaults (or kept
when up to date), its summary table, and the offline reference runs with their results page."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import datasets
from datatrove.utils.logging import logger as datatrove_logger

from compsem.benchmark.settings import bounded
from compsem.builders import BENCHMARKS
from compsem.files.output_folder import check_output_folder, output_path, results_folder
from compsem.files.ownership import claim_file, file_in_the_way, identity, record_file
from compsem.harness.baselines.declared import selected
from compsem.harness.models.device import busy_cpu_hint
from compsem.publish.export import export_benchmark, export_kind, export_summary, kept_summary
from compsem.text.help_format import HelpFormatter

DEMO_OUT = Path("compsem-demo")


def summary_table(benchmark: str, summary: list[dict]) -> str:
    """A Markdown table of configs, splits, rows and label balance (``export_summary``'s rows)."""
    lines = [
        f"| {benchmark} config | split | rows | label balance |",
        "|---|---|---:|---|",
    ]
    for row in summary:
        shares = {name: 100 * count / max(row["rows"], 1) for name, count in row["labels"]}
        if len(shares) <= 3:
            balance = ", ".join(f"{name} {share:.1f}%" for name, share in shares.items())
        else:  # e.g. Montague's type pairs: one label per table column
            balance = (
                f"{len(shares)} labels, {min(shares.values()):.1f}–{max(shares.values()):.1f}% each"
            )
        lines.append(f"| {row['config']} | {row['split']} | {row['rows']:,} | {balance} |")
    return "\n".join(lines)


def cmd_demo(args: argparse.Namespace) -> int:
    runs = selected(quick=True, benchmarks=args.benchmarks)
    check_baseline_targets(args.benchmarks, args.out, runs, args.out / "baselines", quick=True)
    log = args.out / "demo.log"
    with library_log(log):
        return run_demo(args, runs, log)


def demo_phases(names: list[str]) -> list[list[str]]:
    """The benchmarks in two phases, each built then evaluated: those whose build parses no
    corpus first (seconds), so their tables and leaderboards come in the first minutes, then
    those that parse one (minutes on a first run)."""
    phases = [
        [name for name in names if not BENCHMARKS[name].parses_corpus],
        [name for name in names if BENCHMARKS[name].parses_corpus],
    ]
    return [phase for phase in phases if phase]


def first_run_note(names: list[str]) -> str:
    """What a first run costs: the corpus-parsing builds, with the demo's measured first run
    where this checkout holds its record (``perf/measured/records/demo.json``)."""
    parsing = [
        BENCHMARKS[name].title.split(",")[0] for name in names if BENCHMARKS[name].parses_corpus
    ]
    if not parsing:
        return "Every build here is seconds long."
    note = (
        f"A first run parses the corpora of {' and '.join(parsing)} (cached by content: later "
        "runs reuse them and take seconds); the other benchmarks are built and evaluated first."
    )
    record = Path(__file__).resolve().parents[2] / "perf" / "measured" / "records" / "demo.json"
    if record.is_file():
        measured = json.loads(record.read_text())
        minutes = measured["figures"]["first_run_s"] / 60
        note += (
            f" The whole first run took {minutes:.0f} min on {measured['machine']} "
            f"({measured['date']}, every benchmark)."
        )
    return note


def run_demo(args: argparse.Namespace, runs: list, log: Path) -> int:
    started = time.perf_counter()
    print(first_run_note(args.benchmarks), flush=True)
    exports = {name: args.out / name for name in args.benchmarks}
    done: list = []
    for phase in demo_phases(args.benchmarks):
        for name in phase:
            out = args.out / name
            spec = BENCHMARKS[name]
            summary = build_or_keep(name, out)
            print(f"\n## {spec.title}\n")
            print(summary_table(name, summary))
            example = spec.builder.DEFAULT_CONFIG_NAME
            print(f"\nExported to {out}/ — load_dataset({str(out)!r}, {example!r})", flush=True)
        print(f"\n## Reference baselines on {', '.join(phase)} (compsem baselines --quick)\n")
        phase_runs = [run for run in runs if run.benchmark in phase]
        out = args.out / "baselines"
        baseline_runs().run_baselines(phase_runs, exports, out, quick=True, earlier=done)
        done += phase_runs
    total = time.perf_counter() - started
    print(f"\nDemo done in {total / 60:.1f} min; exports in {args.out}/, library logs in {log}")
    return 0


def exports_folder(text: str) -> Path:
    """A ``--exports`` argument: a folder (new or existing) holding one export per benchmark;
    refused when it, or a folder it would lie in, is a file."""
    path = output_path(text)
    where = file_in_the_way(path)
    if where:
        raise argparse.ArgumentTypeError(
            f"{path} {where}; the exports go in a folder, one per benchmark: name a new or "
            "existing folder (default: the demo's)"
        )
    return path


def baseline_runs():
    """The baselines' runner, imported when a command runs them: it imports torch and
    transformers, which would add seconds to every ``compsem`` command, ``--help`` included."""
    from compsem.harness.baselines import runs as baseline_runs  # imports torch and transformers

    return baseline_runs


def check_baseline_targets(
    names: list[str], exports: Path, runs: list, out: Path, quick: bool
) -> None:
    """One clear error before any work: every export folder (``exports/NAME``), run folder and
    page file the demo or ``compsem baselines`` would write. Then, as the runs are long, a hint
    where other jobs keep the CPU busy (``busy_cpu_hint``)."""
    for name in names:
        check_output_folder(exports / name, export_kind(BENCHMARKS[name]))
    baseline_runs().check_targets(runs, out, quick)
    hint = busy_cpu_hint()
    if hint:
        print(hint, file=sys.stderr)


@contextmanager
def library_log(log: Path):
    """Claim ``log`` (never a file compsem did not write), send library chatter to it while the
    command runs, and record it in its folder's list of compsem's files."""
    claimed = identity(claim_file(log, lambda partial: partial.write_text("")))
    try:
        quiet_libraries(log)
        yield
    finally:
        record_file(log, claimed)


def build_or_keep(name: str, out: Path) -> list[dict]:
    """Build benchmark ``name`` on the embedded defaults into ``out``, or keep the export there
    if it was built from the same code, packages and settings (and is untouched since); the
    summary of its configs and splits."""
    spec = BENCHMARKS[name]
    settings = spec.demo_settings()
    summary = kept_summary(spec, out, **settings)
    if summary is None:
        with timed(f"build {name}"):
            summary = export_summary(export_benchmark(spec, out, **settings))
    else:
        print(f"[build {name}: {out}/ is up to date (same code, packages and settings): kept]")
    return summary


def cmd_baselines(args: argparse.Namespace) -> int:
    runs = selected(args.quick, args.benchmarks)
    names = [name for name in BENCHMARKS if any(run.benchmark == name for run in runs)]
    check_baseline_targets(names, args.exports, runs, args.out, args.quick)
    with library_log(args.out / "baselines.log"):
        for name in names:
            build_or_keep(name, args.exports / name)
        exports = {name: args.exports / name for name in names}
        baseline_runs().run_baselines(runs, exports, args.out, args.quick, args.max_rows)
    return 0


@contextmanager
def timed(step: str):
    """Print a step's wall time once it ends."""
    started = time.perf_counter()
    yield
    print(f"[{step}: {time.perf_counter() - started:.0f} s]")


def quiet_libraries(log: Path) -> None:
    """Library chatter (datasets' per-split bars and notices, transformers' and datatrove's
    logs) goes to ``log``; compsem's own tables and one bar per long step stay on the console."""
    import transformers  # deferred: seconds to import, and `compsem --help` needs none of it

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    handler = logging.FileHandler(log, mode="a")  # emptied when claimed
    for name in ("datasets", "transformers", "evaluate", "sentence_transformers"):
        logging.getLogger(name).addHandler(handler)
    datatrove_logger.remove()
    datatrove_logger.add(log, level="INFO")


def add_baselines_command(commands) -> None:
    baselines = commands.add_parser(
        "baselines",
        formatter_class=HelpFormatter,
        help="reference runs of the offline models on every benchmark, and their results page",
        description="Run the offline reference models on each benchmark's headline configs at "
        "its paper's preset, through the harness commands: all-MiniLM-L6-v2 fine-tuned where "
        "the paper fine-tunes (PLANE GOoD and One-IT, RNPC, SETI with its in-distribution "
        "twins; 3 seeds), SmolLM2-135M-Instruct zero- and 3-shot by log-likelihood, BoOQA "
        "ranked by MiniLM's cosine and by SmolLM2 (AUCnorm beside the random baseline ξ), and "
        "MiniLM and GloVe on Montague's consistency tests. Then write the results page "
        "(OUT/index.html and its Markdown twin index.md), each number linked to its result "
        "file, per-row file and the command that reruns it. The exports are built on the "
        "embedded defaults into --exports, or kept there when up to date, as `compsem demo` "
        "does. A run whose folder under OUT already holds it with the same settings and "
        "export is skipped, so an interrupted invocation resumes where it stopped. The "
        "README gives the wall times measured on 2 CPU cores.",
        epilog="examples:\n  compsem baselines --out runs/baselines\n"
        "  compsem baselines --quick --benchmarks plane rnpc --out runs/quick\n",
    )
    baselines.add_argument(
        "--out",
        type=results_folder,
        default=Path("runs/baselines"),
        help="folder for a folder per run, the results page and baselines.log",
    )
    baselines.add_argument(
        "--exports",
        type=exports_folder,
        default=DEMO_OUT,
        help="folder of the benchmark exports, one per benchmark (the demo's)",
    )
    baselines.add_argument(
        "--quick",
        action="store_true",
        help="the quick set: fewer configs, one seed, fewer rows (what the demo runs)",
    )
    baselines.add_argument(
        "--benchmarks",
        nargs="+",
        choices=list(BENCHMARKS),
        metavar="NAME",
        help=f"only these benchmarks' runs, of {', '.join(BENCHMARKS)} (default: all)",
    )
    # Tests: every row count each run takes (train, evaluation, --limit) capped at N.
    baselines.add_argument("--max-rows", type=bounded(int, 1), help=argparse.SUPPRESS)
    baselines.set_defaults(handler=cmd_baselines)


def add_demo_command(commands) -> None:
    demo = commands.add_parser(
        "demo",
        formatter_class=HelpFormatter,
        help="build every benchmark on the embedded defaults and summarise",
        description="Build every benchmark on the embedded defaults, print a summary table "
        "per benchmark, and run the quick reference baselines (`compsem baselines --quick`: "
        "MiniLM fine-tuned at each paper's preset, SmolLM2 zero-shot, BoOQA's AUCnorm, "
        "Montague's tables) into OUT/baselines, printing their leaderboards and where their "
        "results page is: first for the benchmarks whose builds take seconds, then for those "
        "whose builds parse a corpus (minutes on a first run, cached after). A "
        "second run keeps each export built from the same code, packages and settings (and "
        "untouched since) instead of building it again, and each baseline run done with the "
        "same settings on the same export; `compsem build` always builds.",
    )
    demo.add_argument(
        "--out",
        type=output_path,
        default=DEMO_OUT,
        help="folder for the exports (one per benchmark) and the baselines",
    )
    demo.add_argument(
        "--benchmarks",
        nargs="+",
        choices=list(BENCHMARKS),
        default=list(BENCHMARKS),
        metavar="NAME",
        help=f"benchmarks to build, of {', '.join(BENCHMARKS)}",
    )
    demo.set_defaults(handler=cmd_demo)
