"""The metric modules load through evaluate offline: from a path, by bare name after install, and
from the exact folder pushed to a Hub Space; their documented examples run as written."""

import argparse
import doctest
import importlib
import inspect
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import evaluate
import huggingface_hub
import pytest
import yaml

from compsem import metrics
from compsem.cli.metrics import add_cli

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["aucnorm", "consistency", "few_shot_curve"]
PURE = {
    "aucnorm": (
        "aucnorm_scores",
        {"predictions": [0.9, 0.8, 0.8, 0.2], "references": [1, 0, 1, 0]},
    ),
    "consistency": (
        "consistency_scores",
        {
            "phrases": ["red dog", "fake dog"],
            "words": [["red", "dog"], ["fake", "dog"]],
            "types": [["S-I", "noun"], ["NS-Pr", "noun"]],
            "embeddings": {
                "red": [1.0, 0.0],
                "fake": [0.0, 1.0],
                "dog": [1.0, 1.0],
                "red dog": [1.0, 0.4],
                "fake dog": [0.3, 1.0],
            },
        },
    ),
    "few_shot_curve": ("few_shot_curve", {"shots": [0, 8, 8, 64], "scores": [0.4, 0.6, 0.7, 0.9]}),
}


def expected(name: str) -> dict:
    function, kwargs = PURE[name]
    module = importlib.import_module(f"compsem.metrics.{name}.{name}")
    return getattr(module, function)(**kwargs)


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_load_from_the_folder_path_works_offline(name):
    assert os.environ["HF_EVALUATE_OFFLINE"] == "1"
    module = evaluate.load(str(ROOT / "metrics" / name), keep_in_memory=True)
    assert module.name == name
    assert module.compute(**PURE[name][1]) == expected(name)


@pytest.mark.parametrize("name", NAMES)
def test_compsem_metrics_load_is_evaluate_load_on_the_installed_folder(name):
    assert metrics.module_folder(name) == ROOT / "metrics" / name
    assert metrics.load(name, keep_in_memory=True).compute(**PURE[name][1]) == expected(name)


def test_unknown_metric_names_are_refused():
    with pytest.raises(ValueError, match=r"unknown metrics \['accuracy'\]: choose from"):
        metrics.load("accuracy")
    with pytest.raises(ValueError, match="unknown metrics"):
        metrics.install(["aucnorm", "bleu"])


def run_examples(text: str, name: str) -> int:
    """Run the `>>>` examples of `text` with `evaluate.load(name)` resolving to our module."""

    def load(requested, **kwargs):
        assert requested == name
        return evaluate.load(str(ROOT / "metrics" / name), keep_in_memory=True)

    text = re.sub(r"^```.*$", "", text, flags=re.MULTILINE)  # a fence ends the expected output
    test = doctest.DocTestParser().get_doctest(
        text, {"evaluate": types.SimpleNamespace(load=load)}, name, None, 0
    )
    output = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    return len(test.examples)


@pytest.mark.parametrize("name", NAMES)
def test_the_examples_in_the_docstring_and_the_card_run_as_written(name):
    module = importlib.import_module(f"compsem.metrics.{name}.{name}")
    assert run_examples(module._KWARGS_DESCRIPTION, name) >= 3
    assert run_examples((ROOT / "metrics" / name / "README.md").read_text(), name) >= 3


@pytest.mark.parametrize("name", NAMES)
def test_each_card_has_the_sections_and_space_metadata(name):
    text = (ROOT / "metrics" / name / "README.md").read_text()
    header = yaml.safe_load(text.split("---")[1])
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py"
    assert {"evaluate", "metric"} <= set(header["tags"])
    for section in ("## Metric Description", "### Inputs", "### Output Values", "### Examples"):
        assert section in text, section
    assert "## Limitations and Bias" in text and "```bibtex\n@inproceedings{" in text


@pytest.mark.parametrize("name", NAMES)
def test_scripts_are_self_contained_with_one_import_per_line(name):
    source = (ROOT / "metrics" / name / f"{name}.py").read_text()
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports and not any("compsem" in line for line in imports)
    assert not any(line.startswith("import ") and "," in line for line in imports)


SUBPROCESS_LOAD = """
import json, sys
import evaluate
results = {}
for name, kwargs in json.loads(sys.argv[1]).items():
    try:
        module = evaluate.load(name)  # a bare name, as for evaluate's own metrics
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        sys.exit(3)
    results[name] = module.compute(**kwargs)
print(json.dumps(results))
"""


def load_by_bare_name(tmp_path: Path, names) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "XDG_CACHE"))}
    env.update(
        HF_HOME=str(tmp_path / "hf"),
        HF_EVALUATE_OFFLINE="1",
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
    )
    inputs = json.dumps({name: PURE[name][1] for name in names})
    return subprocess.run(
        [sys.executable, "-c", SUBPROCESS_LOAD, inputs],
        cwd=tmp_path,  # no metric folder here: only evaluate's module cache can resolve the name
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="compsem")
    add_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_install_lets_evaluate_load_a_bare_name_offline(tmp_path):
    before = load_by_bare_name(tmp_path, ["aucnorm"])
    assert before.returncode == 3, before.stderr
    modules = tmp_path / "hf" / "modules"  # evaluate's HF_MODULES_CACHE under that HF_HOME
    # An older install of another version must not shadow the new one.
    stale = modules / "evaluate_modules" / "metrics" / "evaluate-metric--aucnorm" / ("0" * 64)
    stale.mkdir(parents=True)
    (stale / "aucnorm.py").write_text("raise RuntimeError('stale module loaded')\n")
    os.utime(stale / "aucnorm.py", (1_000_000_000, 1_000_000_000))
    assert cli("metrics", "install", "--modules-cache", str(modules)) == 0
    after = load_by_bare_name(tmp_path, NAMES)
    assert after.returncode == 0, after.stderr
    results = json.loads(after.stdout)
    for name in NAMES:
        assert results[name] == json.loads(json.dumps(expected(name))), name


def test_install_defaults_to_evaluates_modules_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(evaluate.config, "HF_MODULES_CACHE", tmp_path)
    [script] = metrics.install(["few_shot_curve"])
    assert script.parent.parent == (
        tmp_path / "evaluate_modules" / "metrics" / "evaluate-metric--few_shot_curve"
    )
    assert len(script.parent.name) == 64
    assert (
        script.read_bytes()
        == (ROOT / "metrics" / "few_shot_curve" / "few_shot_curve.py").read_bytes()
    )
    assert (script.parent / "README.md").is_file()


REAL_HF_API = huggingface_hub.HfApi


class FakeHfApi:
    """Records what `push` asks of the Hub and keeps a copy of each uploaded folder. Every call
    must fit the real `HfApi` method's signature."""

    uploads: Path
    calls: list

    def __init__(self, *args, **kwargs):
        inspect.signature(REAL_HF_API.__init__).bind(self, *args, **kwargs)

    def create_repo(self, *args, **kwargs):
        bound = inspect.signature(REAL_HF_API.create_repo).bind(self, *args, **kwargs)
        repo_id = bound.arguments["repo_id"]
        FakeHfApi.calls.append(
            (
                "create_repo",
                repo_id,
                {k: v for k, v in bound.arguments.items() if k not in ("self", "repo_id")},
            )
        )
        return f"https://huggingface.co/spaces/{repo_id}"

    def upload_folder(self, *args, **kwargs):
        bound = inspect.signature(REAL_HF_API.upload_folder).bind(self, *args, **kwargs)
        arguments = {k: v for k, v in bound.arguments.items() if k != "self"}
        repo_id, folder = arguments.pop("repo_id"), arguments.pop("folder_path")
        FakeHfApi.calls.append(("upload_folder", repo_id, arguments))
        shutil.copytree(folder, FakeHfApi.uploads / repo_id)


@pytest.fixture
def fake_hub(tmp_path, monkeypatch):
    FakeHfApi.uploads, FakeHfApi.calls = tmp_path / "uploads", []
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeHfApi)
    return FakeHfApi


def test_push_publishes_each_metric_as_a_gradio_space_that_loads(fake_hub, monkeypatch):
    urls = metrics.push("compsem-org")
    assert urls == [f"https://huggingface.co/spaces/compsem-org/{name}" for name in NAMES]
    for name in NAMES:
        repo_id = f"compsem-org/{name}"
        create = ("create_repo", repo_id, {"repo_type": "space", "space_sdk": "gradio", "private": False, "exist_ok": True})  # fmt: skip
        assert create in fake_hub.calls
        [upload] = [call for call in fake_hub.calls if call[:2] == ("upload_folder", repo_id)]
        assert upload[2]["repo_type"] == "space"
        folder = fake_hub.uploads / repo_id
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            [f"{name}.py", "README.md", "app.py", "requirements.txt"]
        )
        assert (folder / f"{name}.py").read_bytes() == (
            ROOT / "metrics" / name / f"{name}.py"
        ).read_bytes()
        assert "evaluate" in (folder / "requirements.txt").read_text()
        # The exact uploaded folder loads through evaluate and computes the same numbers ...
        module = evaluate.load(str(folder), keep_in_memory=True)
        assert module.compute(**PURE[name][1]) == expected(name)
        # ... and its app.py builds the widget from the script beside it.
        widgets = []
        monkeypatch.setattr(evaluate.utils, "launch_gradio_widget", widgets.append)
        runpy.run_path(str(folder / "app.py"))
        assert [widget.name for widget in widgets] == [name]


def test_push_command_takes_a_namespace_and_names(fake_hub, capsys):
    assert cli("metrics", "push", "--namespace", "someone", "--private", "aucnorm") == 0
    assert [call[:2] for call in fake_hub.calls] == [
        ("create_repo", "someone/aucnorm"),
        ("upload_folder", "someone/aucnorm"),
    ]
    assert fake_hub.calls[0][2]["private"] is True
    assert "https://huggingface.co/spaces/someone/aucnorm" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli("metrics", "push")  # --namespace is required
    with pytest.raises(ValueError, match="namespace must be a Hub user"):
        metrics.push("org/name")


def test_metrics_command_help_shows_defaults_and_examples():
    parser = argparse.ArgumentParser(prog="compsem")
    command = add_cli(parser.add_subparsers(dest="command"))
    assert "compsem metrics push --namespace my-org" in command.format_help()
    assert isinstance(command.formatter_class, type)
    assert issubclass(command.formatter_class, argparse.ArgumentDefaultsHelpFormatter)
    assert issubclass(command.formatter_class, argparse.RawDescriptionHelpFormatter)


@pytest.mark.slow
def test_the_wheel_ships_each_script_and_card_and_they_load(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    wheel = next(tmp_path.glob("compsem-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "unpacked")
    for name in NAMES:
        folder = tmp_path / "unpacked" / "compsem" / "metrics" / name
        assert (folder / "README.md").is_file()
        module = evaluate.load(str(folder), keep_in_memory=True)
        assert module.compute(**PURE[name][1]) == expected(name)
