"""``compsem baselines`` for real on RNPC's quick set, with every row count capped: the real
export, MiniLM and SmolLM2 through the harness commands' code, the results page over the runs;
then a second invocation keeps every run and writes the page again."""

import json
from pathlib import Path

import pytest

from compsem.cli import main
from compsem.harness.baselines.declared import all_baselines, selected
from compsem.harness.results.reproduce import command_line

pytestmark = pytest.mark.slow
MAX_ROWS = 24


@pytest.fixture(scope="module")
def baselines(tmp_path_factory, one_thread, smollm2):
    root = tmp_path_factory.mktemp("baselines")
    argv = ["baselines", "--quick", "--benchmarks", "rnpc", "--max-rows", str(MAX_ROWS)]
    argv += ["--exports", str(root / "exports"), "--out", str(root / "out")]
    return root, argv


@pytest.fixture(scope="module")
def first(baselines):
    root, argv = baselines
    return root, main(argv)


def result_files(out: Path) -> list[Path]:
    return sorted(
        path
        for path in out.glob("*/*.json")
        if not path.name.startswith(".") and "compsem_result" in path.read_text()
    )


def test_the_quick_set_is_a_declared_subset_of_the_runs():
    quick = selected(quick=True)
    names = [run.name for run in quick]
    assert names and set(names) < {run.name for run in all_baselines()}
    assert {run.benchmark for run in quick} == {run.benchmark for run in all_baselines()}
    for run in quick:  # one seed, and never more rows than the full run
        configs, options = run.settings(quick=True)
        full_configs, full = run.settings(quick=False)
        assert set(configs) <= set(full_configs)
        assert len(options.get("seeds", (1,))) == 1
        for cap in ("limit", "max_eval_examples", "max_train_examples"):
            if full.get(cap):
                assert options[cap] <= full[cap]


def test_each_run_writes_results_and_rows_and_the_page_lists_them(first):
    root, code = first
    assert code == 0
    out = root / "out"
    files = result_files(out)
    runs = selected(quick=True, benchmarks=["rnpc"])
    assert {path.parent.name for path in files} == {f"{run.name}-quick" for run in runs}
    page = (out / "index.md").read_text()
    (section,) = [part for part in page.split("\n## ") if part.startswith("RNPC")]
    leaderboard = section.split("### Leaderboard")[1].split("\n\n")[1].splitlines()[2:]
    assert len(leaderboard) == len(files)  # one line per run: one config, one seed each
    for path in files:
        result = json.loads(path.read_text())
        assert result["dataset"]["path"] == str(root / "exports" / "rnpc")
        assert result["settings"]["eval_examples"] == MAX_ROWS
        rows = path.with_suffix(".rows.jsonl").read_text().splitlines()
        assert len(rows) == MAX_ROWS
        link = path.relative_to(out).as_posix()
        assert f"]({link})" in page and f"]({link.replace('.json', '.rows.jsonl')})" in page
        assert f"`{command_line(result, str(path))}`" in page
        (line,) = [row for row in leaderboard if f"| {result['command']} |" in row]
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert cells[4:6] == ["1", str(MAX_ROWS)]  # runs, n rows
        assert f"[{result['scores']['accuracy']:.3f}](#runs-" in line
    assert "Below the size floor of 1,000 rows" in section  # 24 rows cannot rank models
    assert (out / "index.html").is_file()


def test_a_second_invocation_keeps_every_run(first, baselines, capsys):
    root, argv = baselines
    out = root / "out"
    before = {path: path.stat().st_mtime_ns for path in result_files(out)}
    capsys.readouterr()
    assert main(argv) == 0
    console = capsys.readouterr().out
    assert console.count("skipped,") == len(before)
    assert "is up to date" in console  # the export is kept, as the demo keeps it
    assert {path: path.stat().st_mtime_ns for path in result_files(out)} == before
    assert "### RNPC" in console and "| train | spte |" in console  # the leaderboard
    assert "train_runtime" not in console  # the Trainer's metrics dict stays off the console
