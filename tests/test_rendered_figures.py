"""Every measured figure of README.md and docs/ is rendered from its record, never typed."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_renderer():
    spec = importlib.util.spec_from_file_location(
        "render_measured", ROOT / "scripts" / "render_measured.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


render_measured = _load_renderer()


def test_every_block_is_as_its_record_renders_it():
    stale = render_measured.check(ROOT)
    assert not stale, "run `python scripts/render_measured.py`; out of date: " + ", ".join(stale)


def test_every_record_has_the_required_fields():
    for path in sorted((ROOT / render_measured.RECORDS).glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        for field in render_measured.REQUIRED:
            assert field in record, f"{path.name} lacks {field}"
        assert "template" in record or "renderer" in record, path.name


def test_every_record_is_quoted_somewhere():
    names = {path.stem for path in (ROOT / render_measured.RECORDS).glob("*.json")}
    quoted = set()
    for path in render_measured.markdown_files(ROOT):
        for match in render_measured.BLOCK.finditer(path.read_text(encoding="utf-8")):
            quoted.add(match["name"].partition(":")[0])
    # The records a table of records renders row by row count as quoted.
    for name in list(quoted):
        record = json.loads((ROOT / render_measured.RECORDS / f"{name}.json").read_text("utf-8"))
        if record.get("renderer") == "rows":
            quoted.update(row["record"] for row in record["figures"]["rows"])
    assert names <= quoted, f"records no block quotes: {sorted(names - quoted)}"


def test_readme_is_a_front_page_of_at_most_200_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines"


def test_readme_keeps_the_newcomers_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "bash scripts/setup.sh && .venv/bin/compsem demo\n" in readme
    assert ".venv/bin/python -m pytest -n 2 --dist loadfile\n" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().endswith(".venv/bin/python -m pytest -n 2 --dist loadfile")  # the same


@pytest.fixture
def tmp_repo(tmp_path):
    """A repository of one README and one record, to render without touching the real ones."""
    (tmp_path / render_measured.RECORDS).mkdir(parents=True)
    (tmp_path / "README.md").write_text("# x\n\n<!-- measured:t -->\n<!-- /measured:t -->\n")
    return tmp_path


def _write_record(root: Path, **changes) -> None:
    record = {
        "command": "python perf/x.py",
        "machine": "2 CPU cores, AMD EPYC",
        "date": "2026-11-29",
        "versions": {"plane": render_measured.BENCHMARKS["plane"].version},
        "figures": {"seconds": 1976},
        "template": "took {seconds:duration} on {machine}",
        **changes,
    }
    path = root / render_measured.RECORDS / "t.json"
    path.write_text(json.dumps(record))


def test_a_record_of_an_older_version_is_labelled_stale(tmp_repo):
    _write_record(tmp_repo, versions={"plane": "0.0.1"})
    render_measured.render(tmp_repo)
    readme = (tmp_repo / "README.md").read_text()
    current = render_measured.BENCHMARKS["plane"].version
    assert "took 32 min 56 s on 2 CPU cores, AMD EPYC" in readme
    assert f"Measured on PLANE 0.0.1; the current version is {current}." in readme


def test_a_record_of_the_current_version_is_not_labelled(tmp_repo):
    _write_record(tmp_repo)
    render_measured.render(tmp_repo)
    assert "current version" not in (tmp_repo / "README.md").read_text()
    assert render_measured.check(tmp_repo) == []


def test_check_names_a_block_edited_by_hand(tmp_repo):
    _write_record(tmp_repo)
    render_measured.render(tmp_repo)
    readme = tmp_repo / "README.md"
    readme.write_text(readme.read_text().replace("32 min 56 s", "30 min"))
    assert render_measured.check(tmp_repo) == ["README.md: t"]


def test_a_record_without_its_machine_is_refused(tmp_repo):
    _write_record(tmp_repo)
    path = tmp_repo / render_measured.RECORDS / "t.json"
    record = json.loads(path.read_text())
    del record["machine"]
    path.write_text(json.dumps(record))
    with pytest.raises(render_measured.RecordError, match="lacks machine"):
        render_measured.check(tmp_repo)


def test_a_block_without_a_record_is_refused(tmp_repo):
    (tmp_repo / "README.md").write_text("<!-- measured:none -->\n<!-- /measured:none -->\n")
    with pytest.raises(render_measured.RecordError, match="has no record"):
        render_measured.check(tmp_repo)


def test_the_renderer_imports_no_torch():
    script = ROOT / "scripts" / "render_measured.py"
    code = (
        "import runpy, sys; runpy.run_path(sys.argv[1]); "
        "heavy = {'torch', 'transformers', 'spacy'} & set(sys.modules); print(sorted(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(script)], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
