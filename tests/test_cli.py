"""The command line: readable help, doctor's report, and errors without tracebacks."""

import subprocess
import sys

from compsem.cli import main
from compsem.cli.doctor import run_checks

COMPSEM = [sys.executable, "-m", "compsem.cli"]


def test_help_lists_every_command():
    result = subprocess.run([*COMPSEM, "--help"], capture_output=True, text=True, check=True)
    for command in (
        "doctor",
        "setup-wordnet",
        "build",
        "demo",
        "baselines",
        "push",
        "pull",
        "audit",
        "embed",
        "metrics",
        "train",
        "curve",
        "zero-shot",
        "prompt",
        "score",
        "report",
        "llm",
        "harm-detection",
        "lm-eval-tasks",
        "inspect-tasks",
        "model-path",
        "setup-smollm2",
        "rescore",
    ):
        assert command in result.stdout


def test_build_help_documents_the_inputs():
    result = subprocess.run(
        [*COMPSEM, "build", "plane", "--help"], capture_output=True, text=True, check=True
    )
    for flag in (
        "--out",
        "--corpus",
        "--lexicon",
        "--spacy-model",
        "--seed",
        "--max-docs",
        "--config",
        "--original-release",
    ):
        assert flag in result.stdout
    text = " ".join(result.stdout.split())  # unwrapped
    # a default is shown once, readably: not after a help that states it, not as a float's repr
    assert "default: one per available core)" in text and "core) (default:" not in text
    assert "(default: 0.166667)" in text and "0.16666666" not in text


def test_doctor_reports_every_resource_found(capsys):
    assert main(["doctor"]) == 0
    report = capsys.readouterr().out
    for resource in ("WordNet", "spaCy pipeline", "offline transformer", "offline causal LM"):
        assert resource in report
    assert "3.0" in report and "MISSING" not in report


def test_doctor_names_the_fix_for_a_missing_pipeline(capsys):
    assert main(["doctor", "--spacy-model", "en_core_web_zz"]) == 1
    report = capsys.readouterr().out
    assert "MISSING" in report and "python -m spacy download en_core_web_zz" in report
    assert [check.found for check in run_checks("en_core_web_zz")] == [True, False, True, True]


def test_bad_input_is_one_line_on_stderr(tmp_path, capsys):
    assert main(["build", "plane", "--out", str(tmp_path / "x"), "--config", "nope"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("compsem build: error: Unknown config(s) 'nope'")
    assert "Traceback" not in error
