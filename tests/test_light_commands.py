"""``compsem --version``, every command's ``--help``, ``compsem report`` and ``compsem audit`` read
files and print; they run with torch and transformers made unimportable, so a user without the
harness extra (or on a machine where torch takes seconds to import) can use them."""

import argparse
import json
import subprocess
import sys

import pytest
from test_report_page import make_runs

from compsem.builders import BENCHMARKS
from compsem.cli.program import build_parser

# Runs compsem's CLI on each argv of a JSON list in one process, with torch, transformers and
# sentence-transformers unimportable; prints each argv's exit code as JSON.
UNIMPORTABLE = """
import importlib.abc, importlib.machinery, json, sys

class Unimportable(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"torch", "transformers", "sentence_transformers"}:
            return importlib.machinery.ModuleSpec(name, self)
    def create_module(self, spec):
        raise ImportError(f"{spec.name} is unimportable in this test")
    def exec_module(self, module):
        pass

sys.meta_path.insert(0, Unimportable())
from compsem.cli import main
codes = []
for argv in json.loads(sys.argv[1]):
    try:
        codes.append(main(argv))
    except SystemExit as stop:
        codes.append(stop.code)
print(json.dumps(codes))
"""


def run_without_torch(*argvs: list[str]) -> tuple[list, str]:
    result = subprocess.run(
        [sys.executable, "-c", UNIMPORTABLE, json.dumps(argvs)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.strip().splitlines()
    return json.loads(lines[-1]), result.stdout + result.stderr


def every_command(parser: argparse.ArgumentParser, prefix=()) -> list[tuple[str, ...]]:
    """Every command and nested command of the parser, as the words that name it."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((*prefix, name))
                found += every_command(sub, (*prefix, name))
    return found


def test_version_and_every_commands_help_need_no_torch():
    commands = every_command(build_parser())
    assert {"train", "llm", "embed", "report", "audit", "build"} <= {c[0] for c in commands}
    codes, output = run_without_torch(
        ["--version"], *[[*command, "--help"] for command in commands]
    )
    assert codes == [0] * (len(commands) + 1), output[-3000:]
    assert all(f"{name} {spec.version}" in output for name, spec in BENCHMARKS.items())


def test_report_and_audit_need_no_torch(tmp_path):
    runs = make_runs(tmp_path / "runs")
    export = tmp_path / "montague"
    argvs = (
        ["report", str(runs), "--out", str(tmp_path / "page")],
        ["build", "montague", "--out", str(export)],
        ["audit", str(export)],
    )
    codes, output = run_without_torch(*argvs)
    assert codes == [0, 0, 0], output[-3000:]
    assert "Fine-tuning" in (tmp_path / "page" / "report.md").read_text()
    assert (tmp_path / "page" / "index.html").is_file()


@pytest.mark.parametrize("argv", [["--version"]])
def test_version_names_the_package_and_each_benchmark(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("compsem ") and all(name in line for name in BENCHMARKS)
