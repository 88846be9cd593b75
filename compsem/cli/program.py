"""The `compsem` command line."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from importlib import metadata
from pathlib import Path

from compsem.benchmark.settings import add_setting_arguments, setting_values
from compsem.benchmark.size_floor import size_warnings
from compsem.builders import BENCHMARKS
from compsem.cli import analysis as analysis_cli
from compsem.cli import embed as embed_cli
from compsem.cli import harm as harm_cli
from compsem.cli import harness as harness_cli
from compsem.cli import publish as publish_cli
from compsem.cli.demo import add_baselines_command, add_demo_command, summary_table
from compsem.cli.doctor import format_checks, run_checks
from compsem.cli.metrics import add_cli as add_metrics_commands
from compsem.files import ownership
from compsem.files.environment import EnvironmentProblem, check_environment, describe_os_error
from compsem.files.output_folder import output_path, read_marker
from compsem.files.writers import release_registered
from compsem.pipeline import stop_signals
from compsem.pipeline.process_guard import private_tempdir, remove_private_tempdir
from compsem.pipeline.stop_signals import (
    clean_up_done,
    interrupted,
    note_interrupts,
    stop_status,
    stopped_by,
)
from compsem.publish.export import export_benchmark, export_summary
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL
from compsem.resources.wordnet import install_debian_wordnet
from compsem.text.help_format import HelpFormatter


def cmd_build(args: argparse.Namespace) -> int:
    spec = BENCHMARKS[args.benchmark]
    kwargs = setting_values(args, spec.config_class)
    exports = export_benchmark(spec, args.out, args.config, force=args.force, **kwargs)
    summary = export_summary(exports)
    print(summary_table(args.benchmark, summary))
    print(f"\nWrote {args.out}: load it with load_dataset({str(args.out)!r}, CONFIG)")
    for warning in size_warnings(summary):
        print(f"Too small to rank models: {warning}")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    checks = run_checks(args.spacy_model)
    print(format_checks(checks))
    return 0 if all(check.found for check in checks) else 1


def cmd_setup_wordnet(args: argparse.Namespace) -> int:
    target = install_debian_wordnet(args.source, args.target)
    print(f"WordNet installed for NLTK in {target}")
    return 0


def version_line() -> str:
    """``compsem --version``: the package's version and each benchmark's, as exports record it."""
    benchmarks = ", ".join(f"{name} {spec.version}" for name, spec in BENCHMARKS.items())
    return f"compsem {metadata.version('compsem')} ({benchmarks})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="compsem",
        description="Generate, publish and evaluate compositional-semantics benchmarks.",
        formatter_class=HelpFormatter,
        epilog="examples:\n"
        "  compsem doctor\n"
        "  compsem demo\n"
        "  compsem build plane --out hub/plane --config goood_split_1 goood_split_2\n",
    )
    parser.add_argument("--version", action="version", version=version_line())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    doctor = commands.add_parser(
        "doctor", help="report which resources are installed", formatter_class=HelpFormatter
    )
    doctor.add_argument("--spacy-model", default=DEFAULT_SPACY_MODEL, help="pipeline to check")
    doctor.set_defaults(handler=cmd_doctor)

    setup = commands.add_parser(
        "setup-wordnet",
        formatter_class=HelpFormatter,
        help="make Debian's WordNet 3.0 files readable by NLTK",
    )
    setup.add_argument(
        "--source",
        type=Path,
        default=Path("/usr/share/wordnet"),
        help="folder with WordNet's dict files (data.noun, index.sense …)",
    )
    setup.add_argument(
        "--target",
        type=Path,
        help="default: <python prefix>/share/nltk_data/"
        "corpora/wordnet, where NLTK looks without configuration",
    )
    setup.set_defaults(handler=cmd_setup_wordnet)

    build = commands.add_parser(
        "build",
        formatter_class=HelpFormatter,
        help="generate a benchmark as a hub-ready folder",
        description="Generate every config (or the named ones) of a benchmark into a folder "
        "that load_dataset reads and `compsem push` uploads. `compsem build NAME --help` lists "
        "the inputs of each benchmark.",
    )
    benchmarks = build.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
    for name, spec in BENCHMARKS.items():
        sub = benchmarks.add_parser(name, formatter_class=HelpFormatter, help=spec.title)
        sub.add_argument(
            "--out",
            type=output_path,
            required=True,
            help="a new folder, or a compsem export of this benchmark to replace atomically",
        )
        sub.add_argument(
            "--force",
            action="store_true",
            help="replace --out even if it holds another compsem folder or configs not built now "
            "(never a folder compsem did not write, nor a file of it changed since)",
        )
        sub.add_argument(
            "--config", nargs="+", metavar="NAME", help="configs to build (default: all)"
        )
        add_setting_arguments(sub, spec.config_class)
        sub.set_defaults(handler=cmd_build)

    add_demo_command(commands)
    add_baselines_command(commands)

    publish_cli.add_commands(commands)
    harness_cli.add_commands(commands)
    embed_cli.add_commands(commands)
    harm_cli.add_commands(commands)
    analysis_cli.add_commands(commands)
    add_metrics_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:  # before argparse: its path arguments already need the working directory
        check_environment()
    except EnvironmentProblem as error:
        print(f"compsem: error: {error}", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    if argv is None:  # a real command, not a call from Python: keep its temporary files together
        private_tempdir()
        note_interrupts(cut_short=lambda: cut_short(args))
    try:
        return args.handler(args)
    except Exception as error:
        # A stop signal sent to all the command's processes (timeout, Slurm, a closed terminal)
        # can surface as a helper's error (a lost connection) first: it is still the stop.
        if not interrupted():
            if not isinstance(error, (ValueError, RuntimeError, OSError)):
                raise
            if isinstance(error, OSError) and error.errno is not None:
                error = describe_os_error(error)  # the path and the fix, not "[Errno 13] ..."
            print(f"compsem {args.command}: error: {error}", file=sys.stderr)
            return 2
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP: see note_interrupts
        pass
    clean_up_done()
    # A new line: Ctrl-C usually lands in the middle of a progress bar's line.
    print("\n" + stop_line(args), file=sys.stderr)
    if argv is None:
        end_at_once(stop_status())
    return stop_status()


def end_at_once(status: int) -> None:
    """End a stopped command now that its clean-up is done, without the interpreter's teardown:
    the exit handlers of what it imported (torch, datasets, multiprocess) took 1.4 to 2.4 s
    after the stop line, and a stop is to take effect at once. What those handlers would have
    done is done here or needs no doing: the log is flushed, multiprocessing's own exit handler
    runs (it unlinks the pools' semaphores, which its resource tracker would otherwise report
    as leaked), the temporary folder is removed, and the fork server and its workers end with
    this process (their parent-death signal)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can reach it
            pass
    logging.shutdown()
    for name in ("multiprocess.util", "multiprocessing.util"):
        if name in sys.modules:  # the exit handler that unlinks the pools' semaphores
            sys.modules[name]._exit_function()
    remove_private_tempdir()
    os._exit(status)


def stop_line(args: argparse.Namespace) -> str:
    """The stopped command's last line: what stopped it and what the stop left."""
    return f"compsem {args.command}: {stopped_by()}; {interrupted_outcome(args)}"


def cut_short(args: argparse.Namespace) -> None:
    """A stopped command whose clean-up ran past its deadline (CPython's process pool waiting
    on a worker that is gone): remove the staging folders, locks and temporary folder it made,
    say so and what the stop left, and exit with the stop's status. Called from a timer thread
    while the main thread waits, so it writes with one system call and exits at once."""
    release_registered()
    remove_private_tempdir()
    deadline = stop_signals.STOP_DEADLINE_S
    message = (
        f"\ncompsem {args.command}: the clean-up after the stop took over {deadline:g} s (a "
        "worker process that did not end); compsem removed its staging and temporary folders "
        f"itself.\n{stop_line(args)}\n"
    )
    os.write(sys.stderr.fileno(), message.encode())
    os._exit(stop_status())


def interrupted_outcome(args: argparse.Namespace) -> str:
    """What a stop left behind. Every write is atomic, a file or a folder written whole: an
    export ``--out`` is as it was (or, stopped after its final rename, wholly new); a results
    ``--out``, written file by file, keeps complete the files this run wrote before the stop,
    which are named."""
    out = getattr(args, "out", None)
    if out is None:
        return "nothing was written."
    out = Path(out).absolute()
    written = [path for path in ownership.written_by_this_run() if out in (path, *path.parents)]
    if out in written:
        return f"{out} was written whole before the stop."
    if read_marker(out) is not None:
        return f"the previous contents of {out} are intact."
    if written:
        names = [str(p.relative_to(out)) + ("/" if p.is_dir() else "") for p in written]
        return (
            f"the files it wrote to {out} before the stop are complete and kept: "
            f"{ownership.describe(sorted(names))}."
        )
    return f"nothing was written to {out}."
