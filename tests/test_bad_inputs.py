"""Every bad input gets one clear error: exit code 2, a message naming the problem and the fix, no
traceback, and nothing around the target changed (sentinel files)."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.cli import main
from compsem.metrics.aucnorm.aucnorm import aucnorm_scores
from compsem.metrics.consistency.consistency import embed
from compsem.metrics.few_shot_curve.few_shot_curve import few_shot_curve

TINY = "A former president met a possible candidate.\n"


@pytest.fixture
def area(tmp_path, monkeypatch):
    """A user's working folder with files compsem must leave alone, and the inputs the cases
    point at (``{area}`` in a case's arguments)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("my notes")
    (tmp_path / "thesis").mkdir()
    (tmp_path / "thesis" / "chapter1.tex").write_text("\\chapter{One}")
    (tmp_path / "empty-corpus").mkdir()
    (tmp_path / "tiny.txt").write_text(TINY)
    (tmp_path / "latin1.txt").write_bytes("A former caf\xe9 owner.\n".encode("latin-1"))
    (tmp_path / "table.csv").write_text("text\nA red car.\n")
    (tmp_path / "truncated.parquet").write_bytes(b"PAR1\x00\x01\x02")
    (tmp_path / "bad-class.tsv").write_text("red\tX\n")
    (tmp_path / "twice.tsv").write_text("red\tI\nred\tI\n")
    (tmp_path / "latin1.tsv").write_bytes("caf\xe9\tI\n".encode("latin-1"))
    no_card = tmp_path / "no-card" / "full"
    no_card.mkdir(parents=True)
    pq.write_table(pa.table({"label": [0, 1]}), no_card / "train-00000-of-00001.parquet")
    corrupt = tmp_path / "corrupt"
    (corrupt / "full").mkdir(parents=True)
    (corrupt / "full" / "train-00000-of-00001.parquet").write_bytes(b"PAR1 not really PAR1")
    return tmp_path


def snapshot(folder):
    return {
        str(path.relative_to(folder)): path.read_bytes() if path.is_file() else None
        for path in sorted(folder.rglob("*"))
    }


# (arguments, fragments the message must hold: the problem, then the fix)
CASES = {
    # compsem build: where it writes
    "out-empty": (["build", "montague", "--out", ""], ["--out: is empty", "name a new folder"]),
    "out-dot": (["build", "plane", "--out", "."], ["working directory", "choose a new folder"]),
    "out-parent": (
        ["build", "plane", "--out", ".."],
        ["holds the working directory", "new folder"],
    ),
    "out-file": (["build", "seti", "--out", "notes.txt"], ["is a file", "choose a new folder"]),
    "out-foreign": (["build", "rnpc", "--out", "thesis"], ["did not write", "choose a new folder"]),
    "out-foreign-force": (
        ["build", "rnpc", "--out", "thesis", "--force"],
        ["did not write", "choose a new folder"],
    ),
    "demo-out-file": (
        ["demo", "--out", "notes.txt/x"],
        ["notes.txt, which is a file", "choose a new folder"],
    ),
    # compsem build: settings
    "max-docs-zero": (
        ["build", "plane", "--out", "o", "--max-docs", "0"],
        ["--max-docs", "1 or more"],
    ),
    "max-docs-negative": (
        ["build", "plane", "--out", "o", "--max-docs", "-3"],
        ["-3 is out of range", "1 or more"],
    ),
    "seed-negative": (["build", "rnpc", "--out", "o", "--seed", "-5"], ["--seed", "0 or more"]),
    "seed-text": (["build", "seti", "--out", "o", "--seed", "x"], ["--seed", "invalid int value"]),
    "fraction-above-one": (
        ["build", "plane", "--out", "o", "--test-fraction", "1.5"],
        ["--test-fraction", "from 0.0 to 1.0"],
    ),
    "tasks-zero": (["build", "plane", "--out", "o", "--tasks", "0"], ["--tasks", "1 or more"]),
    "workers-zero": (
        ["build", "booqa", "--out", "o", "--workers", "0"],
        ["--workers", "1 or more"],
    ),
    "rnpc-size-zero": (["build", "rnpc", "--out", "o", "--size", "0"], ["--size", "1 or more"]),
    "seti-sentences-zero": (
        ["build", "seti", "--out", "o", "--sentences", "0"],
        ["--sentences", "1 or more"],
    ),
    "unknown-config": (
        ["build", "plane", "--out", "o", "--config", "goood_split_9"],
        ["Unknown config(s) 'goood_split_9'", "available"],
    ),
    "unknown-benchmark": (["build", "plain", "--out", "o"], ["invalid choice: 'plain'", "choose"]),
    # compsem build: inputs
    "corpus-missing": (
        ["build", "plane", "--out", "o", "--corpus", "nope.txt"],
        ["'nope.txt' not found", "no such file"],
    ),
    "corpus-empty-folder": (
        ["build", "plane", "--out", "o", "--corpus", "empty-corpus"],
        ["holds no", ".txt"],
    ),
    "corpus-csv": (
        ["build", "plane", "--out", "o", "--corpus", "table.csv"],
        ["Cannot read corpus 'table.csv'", "a .txt/.jsonl/.parquet file"],
    ),
    "corpus-truncated-parquet": (
        ["build", "plane", "--out", "o", "--corpus", "truncated.parquet"],
        ["truncated.parquet is not a readable Parquet file", "write it again"],
    ),
    "corpus-not-utf8": (
        ["build", "plane", "--out", "o", "--corpus", "latin1.txt"],
        ["latin1.txt, line 1: byte 0xe9 is not UTF-8", "convert the file to UTF-8"],
    ),
    "lexicon-missing": (
        ["build", "plane", "--out", "o", "--corpus", "tiny.txt", "--lexicon", "nope.tsv"],
        ["nope.tsv does not exist", "pass a TSV file"],
    ),
    "lexicon-bad-class": (
        ["build", "plane", "--out", "o", "--corpus", "tiny.txt", "--lexicon", "bad-class.tsv"],
        ["line 1: unknown class 'X'", "use one of I"],
    ),
    "lexicon-twice": (
        ["build", "plane", "--out", "o", "--corpus", "tiny.txt", "--lexicon", "twice.tsv"],
        ["line 2: 'red' is listed again", "keep one line per adjective"],
    ),
    "lexicon-not-utf8": (
        ["build", "plane", "--out", "o", "--corpus", "tiny.txt", "--lexicon", "latin1.tsv"],
        ["line 1: byte 0xe9 is not UTF-8", "save the file as UTF-8"],
    ),
    "montague-lexicon-missing": (
        ["build", "montague", "--out", "o", "--lexicon", "nope.tsv"],
        ["does not exist", "pass a"],
    ),
    # compsem audit
    "audit-missing": (["audit", "nope"], ["nope is not a folder", "pass an export folder"]),
    "audit-empty": (["audit", "empty-corpus"], ["holds no Parquet configs", "compsem build"]),
    "audit-no-card": (["audit", "no-card"], ["Cannot tell which benchmark", "--benchmark NAME"]),
    "audit-corrupt-parquet": (
        ["audit", "corrupt", "--benchmark", "plane"],
        ["train-00000-of-00001.parquet is not a readable Parquet file", "rebuild the export"],
    ),
    # compsem push (refused before any network)
    "push-missing": (["push", "nope", "--repo-id", "me/plane"], ["nope", "compsem build"]),
    "push-not-export": (["push", "thesis", "--repo-id", "me/plane"], ["thesis", "compsem build"]),
    # harness
    "train-model-missing": (
        ["train", "--dataset", "thesis", "--config", "full", "--out", "runs", "--model", "./nope"],
        ["model './nope' not found", "Give a model folder"],
    ),
    "train-out-file": (
        ["train", "--dataset", "thesis", "--config", "full", "--out", "notes.txt"],
        ["notes.txt is a file", "name a new or existing folder"],
    ),
    "llm-model-missing": (
        ["llm", "--dataset", "thesis", "--config", "full", "--out", "runs", "--model", "/no/model"],
        ["model '/no/model' not found", "Give a model folder"],
    ),
    "lm-eval-tasks-out-file": (
        ["lm-eval-tasks", "thesis", "--out", "notes.txt"],
        ["notes.txt is a file", "name a new or existing folder"],
    ),
    "embed-out-cwd": (
        ["embed", "--dataset", "thesis", "--out", "."],
        ["working directory", "choose a new folder"],
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_command_lines_get_one_clear_error_and_touch_nothing(name, area, capsys):
    arguments, fragments = CASES[name]
    before = snapshot(area)
    try:
        code = main(arguments)
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    stderr = capsys.readouterr().err
    assert code == 2, stderr
    assert "Traceback" not in stderr
    for fragment in fragments:
        assert fragment in stderr, stderr
    assert len([line for line in stderr.splitlines() if "error" in line]) == 1, stderr
    assert snapshot(area) == before


METRIC_CASES = {
    "curve-empty": (lambda: few_shot_curve([], []), "are empty"),
    "curve-huge-shots": (
        lambda: few_shot_curve([10**20, 1], [0.5, 0.6]),
        "whole numbers from 0 to 2\\*\\*53",
    ),
    "curve-negative-shots": (lambda: few_shot_curve([-1, 1], [0.5, 0.6]), "whole numbers"),
    "curve-percent-scores": (lambda: few_shot_curve([0, 1], [50, 60]), "score_range=\\(0, 100\\)"),
    "consistency-string-vectors": (
        lambda: embed(["red car", "car"], embeddings={"red car": "abc", "car": [1.0]}),
        "'red car' is 'abc', not a vector of numbers",
    ),
    "aucnorm-length-mismatch": (lambda: aucnorm_scores([0.5], [0, 1]), "length"),
}


@pytest.mark.parametrize("name", list(METRIC_CASES))
def test_bad_metric_inputs_raise_one_clear_value_error(name):
    call, message = METRIC_CASES[name]
    with pytest.raises(ValueError, match=message):
        call()


def test_the_table_holds_at_least_forty_cases():
    assert len(CASES) + len(METRIC_CASES) >= 40
    assert json.dumps(sorted(CASES))  # names are plain strings, usable as test ids
