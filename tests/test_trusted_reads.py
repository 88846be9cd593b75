"""Every reader trusts nothing a user's disk says (issue 55, the reading side).

One reader validates an export's card for every command (names, data files confined after
resolving links, special files refused, missing files named); templates render sandboxed; every
file compsem reads is a regular file, capped in size and JSON nesting, read in chunks; the
surroundings (working directory, cache folders) and inputs that cannot be honoured are refused
with one line. Each case: exit 2, one error line naming the problem and the fix, no traceback,
nothing around it changed, and never a hang (a FIFO is given where a file is expected).
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import compsem
from compsem.benchmark.prompts import render
from compsem.cli import main
from compsem.files import bounded_read
from compsem.files.bounded_read import UnreadableFile, read_json, read_json_lines
from compsem.harness.models.device import resolve
from compsem.harness.report.run import run_report
from compsem.harness.results.files import make_result, rows_path, write_result
from tests.harness_data import tiny_booqa_export, tiny_plane_export

ROOT = Path(__file__).resolve().parents[1]
CARD = "---\nconfigs:\n- config_name: full\n  data_files:\n  - split: test\n    path: {path}\n---\n"


def _card_export(folder: Path, path: str = "full/test-*.parquet") -> Path:
    (folder / "full").mkdir(parents=True)
    pq.write_table(pa.table({"label": [0, 1]}), folder / "full" / "test-00000-of-00001.parquet")
    (folder / "README.md").write_text(CARD.format(path=path))
    return folder


def _escape_dotdot(area: Path) -> Path:
    return _card_export(area / "dotdot", "../other/*.parquet")


def _escape_symlink(area: Path) -> Path:
    folder = _card_export(area / "symlink")
    shard = folder / "full" / "test-00000-of-00001.parquet"
    shard.unlink()
    shard.symlink_to(area / "other" / "test.parquet")
    return folder


def _data_fifo(area: Path) -> Path:
    folder = _card_export(area / "fifo-data")
    shard = folder / "full" / "test-00000-of-00001.parquet"
    shard.unlink()
    os.mkfifo(shard)
    return folder


def _card_fifo(area: Path) -> Path:
    folder = _card_export(area / "fifo-card")
    (folder / "README.md").unlink()
    os.mkfifo(folder / "README.md")
    return folder


def _card_link_outside(area: Path) -> Path:
    folder = _card_export(area / "card-link")
    (area / "stranger.md").write_text(CARD.format(path="full/test-*.parquet"))
    (folder / "README.md").unlink()
    (folder / "README.md").symlink_to(area / "stranger.md")
    return folder


def _card_huge(area: Path) -> Path:
    folder = _card_export(area / "card-huge")
    with open(folder / "README.md", "r+b") as card:  # sparse: no disk, no time
        card.truncate(bounded_read.CAPS["card"] + 1)
    return folder


def _files_missing(area: Path) -> Path:
    folder = _card_export(area / "missing")
    (folder / "full" / "test-00000-of-00001.parquet").unlink()
    return folder


# The bad exports, and the words each refusal must hold (the problem, then the fix).
EXPORTS = {
    "dotdot": (_escape_dotdot, ["is not a path inside", "rebuild the export"]),
    "symlink": (_escape_symlink, ["outside", "rebuild the export"]),
    "fifo-data": (_data_fifo, ["not a regular file", "rebuild the export"]),
    "fifo-card": (_card_fifo, ["a FIFO (named pipe), not a regular file", "pass one"]),
    "card-link": (_card_link_outside, ["outside", "rebuild the export"]),
    "card-huge": (_card_huge, ["MiB, above the 16 MiB", "pass the file compsem wrote"]),
    "missing": (_files_missing, ["no such file is in", "rebuild the export"]),
}
# Every command that reads an export, as its command line (None: the Python API).
READERS = {
    "load": None,
    "llm": ["llm", "--dataset", "{export}", "--config", "full", "--out", "r"],
    "train": ["train", "--dataset", "{export}", "--config", "full", "--out", "r"],
    "zero-shot": [
        "zero-shot",
        "--dataset",
        "{export}",
        "--config",
        "full",
        "--model",
        "m",
        "--out",
        "r",
    ],
    "audit": ["audit", "{export}", "--benchmark", "plane"],
    "lm-eval-tasks": ["lm-eval-tasks", "{export}", "--out", "tasks"],
    "push": ["push", "{export}", "--repo-id", "org/name"],
}
# Each reader meets each escape; the special and oversized cards once each, by two readers.
MATRIX = [(reader, export) for reader in READERS for export in ("dotdot", "symlink", "fifo-data")]
MATRIX += [
    ("train", "fifo-card"),
    ("audit", "fifo-card"),
    ("llm", "card-link"),
    ("load", "card-link"),
    ("lm-eval-tasks", "card-huge"),
    ("push", "card-huge"),
    ("train", "missing"),
    ("load", "missing"),
]


@pytest.fixture
def area(tmp_path, monkeypatch):
    """A working folder with a user's files and a file outside every export."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("my notes")
    (tmp_path / "other").mkdir()
    pq.write_table(pa.table({"secret": ["row"]}), tmp_path / "other" / "test.parquet")
    return tmp_path


@pytest.fixture
def deadline():
    """A read that blocks (a FIFO opened without O_NONBLOCK) fails the test, not the suite."""

    def expire(signum, frame):
        raise TimeoutError("the command blocked for 90 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(90)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def snapshot(folder: Path) -> dict:
    return {
        str(path.relative_to(folder)): path.read_bytes() if path.is_file() else path.is_dir()
        for path in sorted(folder.rglob("*"))
        if path.is_file() or path.is_dir()
    }


def refused(argv, capsys) -> str:
    """Run ``compsem ARGV`` in-process: exit 2, one error line and no traceback; its stderr."""
    try:
        code = main([str(arg) for arg in argv])
    except SystemExit as exit_:
        code = exit_.code
    stderr = capsys.readouterr().err
    assert code == 2, stderr
    assert "Traceback" not in stderr
    assert len([line for line in stderr.splitlines() if "error" in line]) == 1, stderr
    return stderr


@pytest.mark.parametrize(("reader", "export"), MATRIX, ids=[f"{r}-{e}" for r, e in MATRIX])
def test_every_reader_refuses_a_card_it_cannot_trust(reader, export, area, capsys, deadline):
    make, fragments = EXPORTS[export]
    folder = make(area)
    before = snapshot(area)
    if READERS[reader] is None:
        with pytest.raises(ValueError) as error:
            compsem.load(str(folder), "full")
        message = str(error.value)
        assert "\n" not in message.strip()
    else:
        argv = [arg.replace("{export}", str(folder)) for arg in READERS[reader]]
        message = refused(argv, capsys)
    for fragment in fragments:
        assert fragment in message, message
    assert snapshot(area) == before


def test_a_good_export_still_loads_through_every_reader(tmp_path):
    folder = tiny_plane_export(tmp_path / "good")
    assert len(compsem.load(str(folder), "goood_split_1", split="test")) > 0
    assert main(["lm-eval-tasks", str(folder), "--out", str(tmp_path / "tasks")]) == 0


# Templates: the row's fields and Jinja's filters, never Python's internals.
ATTACKS = {
    "class": "{{ premise.__class__ }}",
    "globals": "{{ lipsum.__globals__['os'].popen('touch pwned').read() }}",
    "subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "self": "{{ self.__init__.__globals__ }}",
    "mutate": "{{ [].append(1) }}",
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_a_template_cannot_reach_python(name, area):
    with pytest.raises(ValueError, match="reaches beyond the row's fields") as error:
        render(ATTACKS[name], {"premise": "A dog barks."})
    assert "remove that expression" in str(error.value)
    assert not (area / "pwned").exists()


# The second probe's templates: each one line that names the fix, at once (no hang, no traceback).
BAD_TEMPLATES = {
    "huge-repeat": ("{{ 'x' * 10**10 }}", "a repetition longer than"),
    "huge-power": ("{{ 7 ** 100000000 }}", "a power of more than"),
    "huge-range": ("{% for i in range(10**9) %}x{% endfor %}", "remove that expression"),
    "include": ("{% include '/etc/passwd' %}", "put the text it needs in the template"),
    "import": ("{% import 'os' as os %}{{ os }}", "put the text it needs in the template"),
    "syntax": ("{{ premise ", "(line 1); fix that line"),
    "unknown-field": ("{{ no_such_field }}", "use the rows' fields: premise"),
}


@pytest.mark.parametrize("name", list(BAD_TEMPLATES))
def test_a_bad_template_is_one_error_naming_the_fix(name, deadline):
    template, words = BAD_TEMPLATES[name]
    started = time.monotonic()
    with pytest.raises(ValueError, match="the prompt template") as error:
        render(template, {"premise": "A dog barks."})
    assert words in str(error.value) and "root:" not in str(error.value)
    assert time.monotonic() - started < 5


def test_a_template_still_renders_fields_and_filters():
    text = "{{ premise }} {{ hypothesis | regex_replace('dog', 'cat') | upper }}"
    assert render(text, {"premise": "p", "hypothesis": "a dog"}) == "p A CAT"


@pytest.fixture(scope="module")
def plane(tmp_path_factory) -> Path:
    return tiny_plane_export(tmp_path_factory.mktemp("plane") / "plane")


@pytest.mark.parametrize("kind", ["attack", "fifo", "huge"])
def test_llm_refuses_a_bad_template_before_loading_a_model(kind, plane, area, capsys, deadline):
    template = area / "question.jinja"
    if kind == "attack":
        template.write_text(ATTACKS["globals"])
    elif kind == "fifo":
        os.mkfifo(template)
    else:
        with open(template, "wb") as handle:
            handle.truncate(bounded_read.CAPS["template"] + 1)
    before = snapshot(area)
    argv = ["llm", "--dataset", plane, "--config", "goood_split_1", "--out", "r"]
    stderr = refused([*argv, "--model", "no-such-model", "--template", template], capsys)
    expected = {
        "attack": "reaches beyond the row's fields",
        "fifo": "a FIFO (named pipe), not a regular file",
        "huge": "above the 1 MiB compsem reads as a template",
    }
    assert expected[kind] in stderr
    assert snapshot(area) == before and not (area / "pwned").exists()


# Issue 55's second probe: inputs that were read unbounded (a FIFO blocked, a huge file was read
# whole) or whose error named no fix. (command line, the file made bad, how, what the error says)
HARM = "harm-detection --data {area}/harm --task always --out {area}/r"
PROBED = {
    "chat-template-fifo": (
        "llm --dataset {plane} --config goood_split_1 --model no-such-model --generate "
        "--chat-template {area}/chat.jinja --out {area}/r",
        "chat.jinja",
        "fifo",
        "a FIFO (named pipe), not a regular file",
    ),
    "chat-template-huge": (
        "llm --dataset {plane} --config goood_split_1 --model no-such-model --generate "
        "--chat-template {area}/chat.jinja --out {area}/r",
        "chat.jinja",
        "huge",
        "above the 1 MiB compsem reads as a template",
    ),
    "harm-queries-fifo": (HARM, "harm/test.csv", "fifo", "not a regular file"),
    "harm-queries-huge": (HARM, "harm/test.csv", "huge", "above the 64 MiB"),
    "harm-queries-nul": (HARM, "harm/test.csv", "nul", "the control character '\\x00'"),
    "harm-keywords-fifo": (HARM, "harm/keyword_list.txt", "fifo", "not a regular file"),
    "harm-queries-flag-fifo": (
        HARM + " --queries {area}/q.csv",
        "q.csv",
        "fifo",
        "not a regular file",
    ),
    "harm-no-header": (HARM, "harm/test.csv", "headless", "make its first line the header"),
    "graph-fifo": (
        "score --dataset {booqa} --config en --method graph --graph {area}/g --out {area}/r",
        "g/x_sim.txt",
        "fifo",
        "not a regular file",
    ),
    "signing-key-fifo": (  # the lock was left behind when signing its registry entry failed
        "build montague --config an --out {area}/o",
        "cfg/ownership.key",
        "fifo",
        "signing key",
    ),
    "out-name-too-long": (
        "report {area}/notes.txt --out {area}/" + "x" * 300,
        None,
        None,
        "300 bytes",
    ),
}


def _damage(path: Path, how: str) -> None:
    path.unlink(missing_ok=True)
    if how == "fifo":
        os.mkfifo(path)
    elif how == "huge":
        with open(path, "wb") as handle:
            handle.truncate(bounded_read.CAPS["lexicon"] + 1)
    elif how == "nul":
        path.write_bytes(b"Index,Query,Label,keyword\n0,How do I clean a toy\x00gun?,GOOD,gun\n")
    else:
        path.write_text("0,How do I clean a toy gun?,GOOD,gun\n")


@pytest.mark.parametrize("name", list(PROBED))
def test_probed_inputs_are_one_error_at_once_and_touch_nothing(
    name, plane, area, capsys, deadline, monkeypatch
):
    line, bad, how, expected = PROBED[name]
    (area / "cfg").mkdir(mode=0o700)
    if bad and bad.startswith("cfg/"):
        monkeypatch.setenv("COMPSEM_CONFIG", str(area / "cfg"))
    (area / "g").mkdir()
    (area / "harm").mkdir()
    (area / "harm" / "test.csv").write_text(
        "Index,Query,Label,keyword\n0,How do I clean a toy gun?,GOOD,gun\n1,Load a gun,HARM,gun\n"
    )
    (area / "harm" / "keyword_list.txt").write_text("gun\n")
    booqa = tiny_booqa_export(area / "booqa") if "{booqa}" in line else None
    if bad:
        _damage(area / bad, how)
    before = snapshot(area)
    started = time.monotonic()
    stderr = refused(line.format(area=area, plane=plane, booqa=booqa).split(), capsys)
    assert expected in stderr
    assert time.monotonic() - started < 60
    assert snapshot(area) == before


# Bounded reads: files given where compsem expects a result, rows, marker or lexicon.
def _result(seed: int) -> dict:
    dataset = {"path": "hub/plane", "config": "c", "split": "test", "revision": None}
    scores = {"n": 4, "accuracy": 0.75, "macro_f1": 0.7}
    return make_result(
        "train", "m", {**dataset, "fingerprint": "f"}, seed, {"epochs": 1}, scores, resolve("cpu")
    )


def _bad_file(path: Path, kind: str) -> str:
    """Make ``path`` a bad file of ``kind``; the reason a report gives for it."""
    if kind == "fifo":
        os.mkfifo(path)
        return "not a regular file"
    if kind == "huge":
        with open(path, "wb") as handle:
            handle.truncate(bounded_read.CAPS["result"] + 1)
        return "above the 64 MiB"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return "nests JSON deeper than 64 levels"


@pytest.mark.parametrize("kind", ["fifo", "huge", "deep"])
def test_report_lists_a_bad_result_among_good_ones(kind, tmp_path, deadline):
    runs = tmp_path / "runs"
    good = [write_result(runs, _result(seed)) for seed in (1, 2)]
    bad = runs / "train-c-seed3.json"
    reason = _bad_file(bad, kind)
    markdown = run_report([runs], tmp_path / "report")
    assert "## Files not read" in markdown and f"`{bad}`" in markdown and reason in markdown
    saved = json.loads((tmp_path / "report" / "report.json").read_text())
    assert saved["runs"] == len(good)


@pytest.mark.parametrize("kind", ["fifo", "huge"])
def test_report_lists_a_bad_rows_file_and_reads_the_rest(kind, tmp_path, deadline):
    runs = tmp_path / "runs"
    result = write_result(runs, _result(1))
    rows = rows_path(result)
    if kind == "fifo":
        os.mkfifo(rows)
    else:
        with open(rows, "wb") as handle:
            handle.truncate(bounded_read.CAPS["rows"] + 1)
    markdown = run_report([runs], tmp_path / "report")
    assert "## Files not read" in markdown and f"`{rows}`" in markdown


@pytest.mark.parametrize("kind", ["fifo", "deep"])
def test_a_bad_result_named_directly_is_one_error(kind, area, capsys, deadline):
    bad = area / "result.json"
    reason = _bad_file(bad, kind)
    assert reason in refused(["report", bad], capsys)


def test_a_fifo_where_an_export_marker_is_expected_is_refused_at_once(area, capsys, deadline):
    (area / "export").mkdir()
    os.mkfifo(area / "export" / ".compsem-export.json")
    stderr = refused(["build", "montague", "--out", "export"], capsys)
    assert "not a regular file" in stderr and "choose another --out" in stderr


def test_rows_are_read_line_by_line_and_bad_lines_named(tmp_path):
    rows = tmp_path / "r.rows.jsonl"
    rows.write_text('{"label": 1}\n\n{"label": 0}\n')
    assert list(read_json_lines(rows)) == [{"label": 1}, {"label": 0}]
    rows.write_text('{"label": 1}\n{"label": \n')
    with pytest.raises(UnreadableFile, match="r.rows.jsonl, line 2 is not valid JSON"):
        list(read_json_lines(rows))


def test_json_nesting_within_the_cap_reads(tmp_path):
    ok = tmp_path / "ok.json"
    ok.write_text("[" * 64 + "]" * 64 + "\n")
    assert read_json(ok, "config") is not None
    ok.write_text(json.dumps({"a": "[[[[[[" * 50}))  # brackets inside strings do not count
    assert read_json(ok, "config") == {"a": "[[[[[[" * 50}


# Lexicons: a control character in a word is refused, never written into an export.
@pytest.mark.parametrize("character", ["\x00", "\x1b", "\x7f"])
def test_a_control_character_in_a_lexicon_word_is_refused(character, area, capsys):
    (area / "lexicon.tsv").write_text(f"red\tI\nfa{character}ke\tO\n")
    stderr = refused(["build", "plane", "--out", "o", "--lexicon", "lexicon.tsv"], capsys)
    assert "lexicon.tsv, line 2: the control character" in stderr
    assert "'fa'" in stderr and "remove it from the file" in stderr
    assert not (area / "o").exists()


def test_a_fifo_lexicon_is_refused_without_blocking(area, capsys, deadline):
    os.mkfifo(area / "lexicon.tsv")
    stderr = refused(["build", "plane", "--out", "o", "--lexicon", "lexicon.tsv"], capsys)
    assert "not a regular file" in stderr


# Surroundings: each problem one line before any work.
@pytest.mark.parametrize(
    ("variable", "value", "fragment"),
    [
        ("COMPSEM_CACHE", "notes.txt", "COMPSEM_CACHE=notes.txt is a file, not a folder"),
        ("HF_HOME", "notes.txt/hub", "lies under notes.txt, which is a file"),
        ("HF_DATASETS_CACHE", "", "HF_DATASETS_CACHE is set but empty"),
        # writable by access() for root, yet nothing can be made there (the second probe)
        ("COMPSEM_CACHE", "/proc/compsem-cache", "cannot be written"),
        ("HF_HOME", "/proc/compsem-hf", "cannot be written"),
    ],
)
def test_a_bad_cache_variable_is_one_line(variable, value, fragment, area, capsys, monkeypatch):
    monkeypatch.setenv(variable, value)
    before = snapshot(area)
    stderr = refused(["build", "montague", "--out", "o"], capsys)
    assert fragment in stderr and f"point {variable} at a folder" in stderr
    assert snapshot(area) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_cache_folder_without_write_access_is_one_line(area, capsys, monkeypatch):
    (area / "locked").mkdir(mode=0o500)
    monkeypatch.setenv("COMPSEM_CACHE", str(area / "locked" / "cache"))
    assert "is not writable by you" in refused(["build", "montague", "--out", "o"], capsys)


def test_a_deleted_working_directory_is_one_line(tmp_path, capsys, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    stderr = refused(["build", "montague", "--out", "o"], capsys)
    assert "the working directory no longer exists" in stderr and "cd into" in stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root enters any folder")
def test_a_folder_without_the_exec_bit_is_named_with_the_fix(area, capsys):
    folder = _card_export(area / "locked" / "export")
    (area / "locked").chmod(0o600)
    try:
        stderr = refused(["audit", folder, "--benchmark", "plane"], capsys)
    finally:
        (area / "locked").chmod(0o700)
    assert "permission denied" in stderr and "chmod u+" in stderr


def test_a_folder_where_the_card_should_be_is_named(area, capsys):
    (area / "export").mkdir()
    (area / "export" / "README.md").mkdir()  # a folder where the card should be
    stderr = refused(["audit", "export", "--benchmark", "plane"], capsys)
    assert "README.md is a folder, not a regular file" in stderr


# Sizes a generator cannot make are refused before the expensive work, with what it can make.
def test_a_seti_size_above_what_the_lexicon_licenses_is_refused(area, capsys):
    stderr = refused(["build", "seti", "--out", "o", "--sentences", "100000000"], capsys)
    assert "--sentences 100,000,000 is more than the" in stderr
    assert "distinct source sentences the lexicon" in stderr and "or less" in stderr
    assert not (area / "o").exists()


@pytest.mark.slow
def test_sigterm_during_a_long_read_ends_the_command_within_two_seconds(tmp_path):
    """A lexicon of 60 MiB takes seconds to read and check; SIGTERM ends it at once."""
    lexicon = tmp_path / "big.tsv"
    lines = "".join(f"word{index}\tI\n" for index in range(4_000_000))
    lexicon.write_text(lines)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    command = [sys.executable, "-m", "compsem.cli", "build", "plane", "--out", "o"]
    process = subprocess.Popen(
        [*command, "--lexicon", str(lexicon)],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(6)  # imports, then the read and the parse of the lexicon
    assert process.poll() is None, process.stderr.read()
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the command ran on for more than 2 s after SIGTERM")
    assert time.monotonic() - sent < 2
    stderr = process.stderr.read()
    # 143 once compsem's handlers are in place; killed by the signal itself before that
    assert process.returncode in (143, -signal.SIGTERM), stderr
    assert "Traceback" not in stderr
    assert not (tmp_path / "o").exists()


def test_the_documented_caps_are_the_caps_read_with():
    text = " ".join((ROOT / "docs" / "reliability.md").read_text().split())
    for kind, cap in bounded_read.CAPS.items():
        assert f"{kind} {cap // bounded_read.MIB} MiB" in text, kind
    assert f"deeper than {bounded_read.MAX_JSON_DEPTH} levels" in text
