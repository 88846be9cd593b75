"""The distribution: a built wheel imports every subpackage and ships its data; style is clean."""

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUBPACKAGES = [
    "compsem",
    "compsem.resources",
    "compsem.builders.plane",
    "compsem.builders.rnpc",
    "compsem.builders.seti",
    "compsem.builders.booqa",
    "compsem.builders.montague",
    "compsem.loading_scripts.corpora",
    "compsem.loading_scripts.plane_release",
    "compsem.loading_scripts.rnpc_release",
    "compsem.loading_scripts.sick_release",
    "compsem.loading_scripts.booqa_corpus",
    "compsem.harness",
    "compsem.metrics",
    "compsem.cards",
    "compsem.cli",
]


def declared_packages() -> dict[str, Path]:
    """pyproject's packages, each with the folder it is built from."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    roots = setuptools["package-dir"]
    folders = {}
    for package in setuptools["packages"]:
        root = max((r for r in roots if package == r or package.startswith(r + ".")), key=len)
        folders[package] = ROOT / roots[root] / package[len(root) :].lstrip(".").replace(".", "/")
    return folders


def test_no_package_folder_shadows_a_hub_id():
    """``load_dataset("compsem/plane")`` run from the repository root reads a folder
    ``compsem/plane`` instead of the Hub repository."""
    from compsem.builders import BENCHMARKS

    shadowing = [name for name in BENCHMARKS if (ROOT / "compsem" / name).exists()]
    assert not shadowing, f"rename compsem/{shadowing[0]}: it shadows the Hub id"


def test_every_package_folder_is_declared_in_pyproject():
    declared = {folder.resolve() for folder in declared_packages().values()}
    folders = {ROOT / "compsem", *(ROOT / root for root in ("builders", "loading_scripts"))}
    folders |= {init.parent for init in (ROOT / "compsem").rglob("__init__.py")}
    for root in ("metrics", "builders"):
        folders |= {init.parent for init in (ROOT / root).rglob("__init__.py")}
    missing = sorted(str(f.relative_to(ROOT)) for f in folders if f.resolve() not in declared)
    assert not missing, f"add these packages to pyproject.toml's packages: {missing}"


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_imports_everything(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    wheel = next(tmp_path.glob("compsem-*.whl"))
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    script = (
        "import importlib, compsem\n"
        f"for name in {SUBPACKAGES + list(declared_packages())!r}: importlib.import_module(name)\n"
        "from compsem.resources.lexicon import load_adjective_lexicon\n"
        "from importlib import resources\n"
        "assert len(load_adjective_lexicon()) >= 300\n"
        "assert (resources.files('compsem.cards') / 'plane.md').is_file()\n"
        "assert 'site-packages' in compsem.__file__, compsem.__file__\n"
    )
    # Dependencies come from this environment's site-packages; compsem only from the wheel.
    env = {"PYTHONPATH": sysconfig.get_paths()["purelib"], "PATH": "/usr/bin:/bin"}
    subprocess.run([python, "-c", script], check=True, cwd=tmp_path, env=env)


def test_ruff_lint_and_format_are_clean():
    for command in (["check", "."], ["format", "--check", "."]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command], cwd=ROOT, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr
