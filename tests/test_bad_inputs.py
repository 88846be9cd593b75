"""Every bad input gets one clear error: exit code 2, a message naming the problem and the fix, no
traceback, and nothing around the target changed (sentinel files)."""

import json
import pickle
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.cli import main
from compsem.files.output_folder import MARKER
from compsem.loading_scripts import plane_release
from compsem.loading_scripts.plane_release import ReleaseError, read_original_split
from compsem.metrics.aucnorm.aucnorm import aucnorm_scores
from compsem.metrics.consistency.consistency import consistency_scores, embed
from compsem.metrics.few_shot_curve.few_shot_curve import few_shot_curve
from tests.harness_data import tiny_plane_export

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
    (tmp_path / "nul.txt").write_bytes(b"A former president.\nA red\x00car.\n")
    with open(tmp_path / "one-huge-line.txt", "wb") as handle:  # 65 MiB of zeros, no newline
        handle.truncate(65 * 1024 * 1024)
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
    (tmp_path / "number-text.jsonl").write_text('{"text": 5}\n')
    for name, marker in FORGED_MARKERS.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "thesis.tex").write_text("mine")
        (tmp_path / name / MARKER).write_text(marker)
    for name, (config, path) in EVIL_CARDS.items():
        card = tmp_path / name
        (card / "full").mkdir(parents=True)
        pq.write_table(pa.table({"label": [0, 1]}), card / "full" / "test-00000-of-00001.parquet")
        (card / "README.md").write_text(
            f"---\nconfigs:\n- config_name: {config}\n  data_files:\n  - split: test\n"
            f"    path: {path}\n---\n# A card from a stranger\n"
        )
    (tmp_path / "other").mkdir()
    pq.write_table(pa.table({"secret": ["row"]}), tmp_path / "other" / "test.parquet")
    (tmp_path / "demo-out").mkdir()
    (tmp_path / "demo-out" / "demo.log").write_text("my log")
    (tmp_path / "page-out").mkdir()
    (tmp_path / "page-out" / "index.html").write_text("<p>my page</p>")
    (tmp_path / "runs-out" / "montague-embed-quick").mkdir(parents=True)
    (tmp_path / "runs-out" / "montague-embed-quick" / "mine.txt").write_text("mine")
    truncated = tiny_plane_export(tmp_path / "truncated-export")
    (shard,) = (truncated / "goood_split_1").glob("test-*.parquet")
    shard.write_bytes(shard.read_bytes()[:100])
    return tmp_path


FORGED_MARKERS = {
    "forged-kind-only": '{"kind": "montague export"}',
    "forged-list": "[1, 2]",
    "forged-string": '"montague export"',
    "forged-configs-5": '{"kind": "montague export", "configs": 5, "files": {}, "folders": [], '
    '"token": "0123456789abcdef0123456789abcdef"}',
    "forged-not-json": "{",
}
EVIL_CARDS = {
    "card-config-traversal": ("x/../../../../escaped", "full/test-*.parquet"),
    "card-config-dotdot": ('".."', "full/test-*.parquet"),
    "card-files-outside": ("full", "../other/*.parquet"),
    "card-files-absolute": ("full", "/etc/*"),
}


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
    "fractions-leave-no-train": (
        ["build", "plane", "--out", "o", "--validation-fraction", "0.9"],
        ["test_fraction and validation_fraction", "sum to less than 1"],
    ),
    "label-share-above-half": (
        ["build", "plane", "--out", "o", "--min-label-share", "0.7"],
        ["min_label_share must be at most 0.5"],
    ),
    "seti-shares-leave-no-train": (
        ["build", "seti", "--out", "o", "--test-share", "0.6", "--few-shot-share", "0.5"],
        ["test_share + few_shot_share below 1"],
    ),
    "tasks-zero": (["build", "plane", "--out", "o", "--tasks", "0"], ["--tasks", "1 or more"]),
    "workers-zero": (
        ["build", "booqa", "--out", "o", "--workers", "0"],
        ["--workers", "1 or more"],
    ),
    "rnpc-size-zero": (["build", "rnpc", "--out", "o", "--size", "0"], ["--size", "1 or more"]),
    "rnpc-size-huge": (
        ["build", "rnpc", "--out", "o", "--size", "100000000000"],
        ["size 100000000000 is above 100,000 items", "use --size 100000 or less"],
    ),
    "booqa-h-only-size-huge": (
        ["build", "booqa", "--out", "o", "--preset", "tiny", "--h-only-sizes", "1000000000", "5"],
        ["asks for 1,000,000,005 rows", "sum to at most 60"],
    ),
    "booqa-h-only-size-zero": (
        ["build", "booqa", "--out", "o", "--h-only-sizes", "10", "0", "--config", "h_only"],
        ["--h-only-sizes must be two sizes of 1 or more", "pass --h-only-sizes TRAIN DEV2"],
    ),
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
    "corpus-nul-byte": (  # issue 55: refused, never written into an export or dropped
        ["build", "plane", "--out", "o", "--corpus", "nul.txt"],
        ["nul.txt, line 2: the text holds a NUL byte", "save the file as UTF-8"],
    ),
    "corpus-huge-line": (  # read line by line with a cap, never whole
        ["build", "plane", "--out", "o", "--corpus", "one-huge-line.txt"],
        ["one-huge-line.txt, line 1: longer than 64 MiB", "one document per line"],
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
    # where compsem writes: markers that are not a manifest compsem wrote
    **{
        f"out-{name}{'-force' * force}": (
            ["build", "montague", "--out", name, *(["--force"] * force)],
            ["is not a manifest compsem wrote", "choose another --out"],
        )
        for name in FORGED_MARKERS
        for force in (False, True)
    },
    "embed-out-forged": (
        ["embed", "--dataset", "thesis", "--out", "forged-list"],
        ["is not a manifest compsem wrote", "choose another --out"],
    ),
    "demo-log-not-compsems": (
        ["demo", "--out", "demo-out", "--benchmarks", "montague"],
        ["demo.log exists and compsem did not write it", "move it away"],
    ),
    # compsem baselines: every run folder, page file and export checked before any work
    "baselines-out-file": (
        ["baselines", "--quick", "--benchmarks", "montague", "--out", "notes.txt"],
        ["notes.txt is a file", "name a new or existing folder"],
    ),
    "baselines-exports-file": (
        ["baselines", "--quick", "--benchmarks", "montague", "--exports", "notes.txt"],
        ["--exports: notes.txt is a file", "name a new or existing folder"],
    ),
    "baselines-exports-inside-file": (
        ["baselines", "--exports", "notes.txt/exports", "--out", "r"],
        ["--exports: notes.txt/exports lies inside notes.txt", "name a new or existing folder"],
    ),
    "baselines-run-folder-not-compsems": (
        ["baselines", "--quick", "--benchmarks", "montague", "--out", "runs-out"],
        ["montague-embed-quick is a folder compsem did not write", "choose a new folder"],
    ),
    "baselines-page-not-compsems": (
        ["baselines", "--quick", "--benchmarks", "montague", "--out", "page-out"],
        ["index.html exists and compsem did not write it", "move it away"],
    ),
    # cards from strangers cannot steer writes or reads
    "lm-eval-config-traversal": (
        ["lm-eval-tasks", "card-config-traversal", "--out", "tasks"],
        ["cannot be a config name", "fix the card"],
    ),
    "lm-eval-config-dotdot": (
        ["lm-eval-tasks", "card-config-dotdot", "--out", "tasks"],
        ["cannot be a config name", "fix the card"],
    ),
    "lm-eval-files-outside": (
        ["lm-eval-tasks", "card-files-outside", "--out", "tasks"],
        ["is not a path inside", "rebuild the export"],
    ),
    "lm-eval-files-absolute": (
        ["lm-eval-tasks", "card-files-absolute", "--out", "tasks"],
        ["is not a path inside", "rebuild the export"],
    ),
    "inspect-tasks-out-file": (
        ["inspect-tasks", "thesis", "--out", "notes.txt"],
        ["notes.txt is a file", "name a new or existing folder"],
    ),
    "inspect-tasks-config-traversal": (
        ["inspect-tasks", "card-config-traversal", "--out", "tasks"],
        ["cannot be a config name", "fix the card"],
    ),
    "inspect-tasks-files-outside": (
        ["inspect-tasks", "card-files-outside", "--out", "tasks"],
        ["is not a path inside", "rebuild the export"],
    ),
    "audit-files-outside": (
        ["audit", "card-files-outside", "--benchmark", "plane"],
        ["is not a path inside", "rebuild the export"],
    ),
    "audit-config-traversal": (
        ["audit", "card-config-traversal", "--benchmark", "plane"],
        ["cannot be a config name", "fix the card"],
    ),
    "lm-eval-hub-id-bad": (
        ["lm-eval-tasks", "bad id!", "--out", "tasks"],
        ["is not a valid export folder or Hub id", "ORG/NAME"],
    ),
    "train-hub-id-bad": (
        ["train", "--dataset", "no such:id", "--config", "x", "--out", "runs"],
        ["is not a valid --dataset", "ORG/NAME"],
    ),
    "pull-hub-id-traversal": (["pull", "../../etc"], ["is not a valid Hub id", "ORG/NAME"]),
    # numbers
    "train-epochs-nan": (
        ["train", "--dataset", "thesis", "--config", "full", "--out", "runs", "--epochs", "nan"],
        ["--epochs: nan is not a number", "give a number 0.01 or more"],
    ),
    "train-epochs-inf": (
        ["train", "--dataset", "thesis", "--config", "full", "--out", "runs", "--epochs", "inf"],
        ["--epochs: inf is not a number", "give a number"],
    ),
    "train-max-length-zero": (
        ["train", "--dataset", "thesis", "--config", "f", "--out", "r", "--max-length", "0"],
        ["--max-length: 0 is out of range", "1 or more"],
    ),
    "train-max-length-twice": (
        ["train", "--dataset", "t", "--config", "f", "--out", "r", "--max-length", "8", "6", "8"],
        ["--max-length 8 is given twice", "give each length once (--max-length 6 8)"],
    ),
    "curve-max-length-several": (
        ["curve", "--dataset", "thesis", "--config", "f", "--out", "r", "--max-length", "6", "8"],
        ["unrecognized arguments: 8"],
    ),
    "train-learning-rate-nan": (
        ["train", "--dataset", "t", "--config", "f", "--out", "r", "--learning-rate", "nan"],
        ["--learning-rate: nan is not a number", "give a number"],
    ),
    "llm-batch-size-zero": (
        ["llm", "--dataset", "thesis", "--config", "full", "--out", "r", "--batch-size", "0"],
        ["--batch-size: 0 is out of range", "1 or more"],
    ),
    "llm-limit-negative": (
        ["llm", "--dataset", "thesis", "--config", "full", "--out", "r", "--limit", "-4"],
        ["--limit: -4 is out of range", "1 or more"],
    ),
    "audit-aucnorm-nan": (
        ["audit", "thesis", "--max-hypothesis-only-aucnorm", "nan"],
        ["nan is not a number", "from -1.0 to 1.0"],
    ),
    "audit-aucnorm-above-one": (
        ["audit", "thesis", "--max-hypothesis-only-aucnorm", "2"],
        ["2 is out of range", "from -1.0 to 1.0"],
    ),
    # inputs that are not what they seem
    "lexicon-dev-zero": (
        ["build", "plane", "--out", "o", "--corpus", "tiny.txt", "--lexicon", "/dev/zero"],
        ["/dev/zero is not a regular file", "pass a TSV file"],
    ),
    "montague-lexicon-folder": (
        ["build", "montague", "--out", "o", "--lexicon", "thesis"],
        ["thesis is not a regular file", "pass a"],
    ),
    "extracted-missing": (
        ["build", "plane", "--out", "o", "--extracted", "nope"],
        ["--extracted nope is not a folder", "pass the `shards` folder"],
    ),
    "corpus-text-not-a-string": (
        ["build", "plane", "--out", "o", "--corpus", "number-text.jsonl"],
        ["field 'text' holds a int, not text", "--text-column"],
    ),
    "train-truncated-shard": (
        ["train", "--dataset", "truncated-export", "--config", "goood_split_1", "--out", "r"],
        ["cannot be read", "rebuild the export"],
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


@pytest.mark.parametrize("offline", [False, True], ids=["hub-silent", "hf-hub-offline"])
def test_a_hub_id_the_hub_cannot_give_says_what_to_do(area, capsys, monkeypatch, offline):
    """A Hub id on a machine that cannot reach the Hub: one error that names the folder to pass
    instead and HF_HUB_OFFLINE (which skips datasets' retries), or, when it is set, says
    that the cache lacks the dataset. The Hub is stood in by datasets' own error."""
    from compsem.harness.data import benchmark as data

    def unreachable(path, *args, **kwargs):
        raise ConnectionError(f"Couldn't reach '{path}' on the Hub (LocalEntryNotFoundError)")

    monkeypatch.setattr(data.datasets, "load_dataset_builder", unreachable)
    monkeypatch.setattr(data.datasets, "get_dataset_config_names", unreachable)
    monkeypatch.setattr(data, "is_offline_mode", lambda: offline)
    code = main(["train", "--dataset", "someorg/bench", "--config", "spte", "--out", "r"])
    stderr = capsys.readouterr().err
    assert code == 2 and "Traceback" not in stderr, stderr
    assert "someorg/bench is no folder here" in stderr and "compsem build NAME --out DIR" in stderr
    if offline:
        assert "unset HF_HUB_OFFLINE" in stderr and "cache holds no copy" in stderr
    else:
        assert "set HF_HUB_OFFLINE=1" in stderr and "Couldn't reach" in stderr
    assert not (area / "r").exists()


def test_a_bad_plane_lexicon_is_refused_before_the_corpus_is_parsed(area, capsys, monkeypatch):
    """The lexicon was read only after the corpus was parsed (minutes on the embedded one)."""
    from compsem.builders.plane.corpus import extraction

    def parse(*args, **kwargs):
        raise AssertionError("the corpus was parsed before the lexicon was read")

    monkeypatch.setattr(extraction, "run_in_cache", parse)
    assert main(["build", "plane", "--out", "o", "--lexicon", "bad-class.tsv"]) == 2
    assert "line 1: unknown class 'X'" in capsys.readouterr().err


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
    "aucnorm-overflow": (lambda: aucnorm_scores([10**400, 0.5], [0, 1]), "must be numbers"),
    "curve-overflow": (lambda: few_shot_curve([0, 10**400], [0.5, 0.6]), "must be numbers"),
    "curve-runs-generator": (
        lambda: few_shot_curve([0, 1], [0.5, 0.6], runs=(r for r in "ab")),
        "runs must be a list",
    ),
    "consistency-tests-misspelt-string": (
        lambda: consistency_scores([], [], [], embeddings={}, tests="intersectivty"),
        r"unknown tests \['intersectivty'\]",
    ),
}


@pytest.mark.parametrize("name", list(METRIC_CASES))
def test_bad_metric_inputs_raise_one_clear_value_error(name):
    call, message = METRIC_CASES[name]
    with pytest.raises(ValueError, match=message):
        call()


def test_the_table_holds_at_least_sixty_cases():
    assert len(CASES) + len(METRIC_CASES) + len(RELEASE_CASES) >= 60
    assert json.dumps(sorted(CASES))  # names are plain strings, usable as test ids


def shared_nested_list(depth: int = 40) -> bytes:
    """A few hundred bytes of pickle that print as 2**depth lists: each level holds the one
    below twice (pickle's memo shares it)."""
    row = []
    for _ in range(depth):
        row = [row, row]
    return pickle.dumps([["A red car is a car", 1, "I", "red", "car", row]])


RELEASE_CASES = {
    "shared-nested-list": (shared_nested_list(), "a field is a list, not a string or number"),
    "list-of-numbers": (pickle.dumps([1, 2, 3]), r"row 0: expected \[text, label"),
    "short-row": (pickle.dumps([["A red car is a car", 1]]), "got a 2 fields"),
    "dict-field": (
        pickle.dumps([["A red car is a car", 1, "I", "red", "car", {"a": 1}]]),
        "a field is a dict",
    ),
    "not-a-list": (pickle.dumps({"rows": []}), "holds a dict, not a list of rows"),
    "truncated": (pickle.dumps([["a"] * 6])[:-3], "truncated"),
    "code": (pickle.dumps([print]), "compsem reads only lists"),
}


@pytest.mark.parametrize("name", list(RELEASE_CASES))
def test_bad_plane_releases_are_one_short_error_quickly(name, tmp_path):
    data, message = RELEASE_CASES[name]
    (tmp_path / "OOV_Train_1.pkl").write_bytes(data)
    (tmp_path / "OOV_test_1.pkl").write_bytes(pickle.dumps([]))
    started = time.monotonic()
    with pytest.raises(ReleaseError, match=message) as error:
        read_original_split(tmp_path, "original_goood", 1)
    assert time.monotonic() - started < 5 and len(str(error.value)) < 400


def test_an_oversized_release_file_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(plane_release, "MAX_BYTES", 10)
    (tmp_path / "OOV_Train_1.pkl").write_bytes(pickle.dumps([["a"] * 6]))
    with pytest.raises(ReleaseError, match="far more than a PLANE release file"):
        read_original_split(tmp_path, "original_goood", 1)


def test_a_max_length_without_room_for_the_question_is_refused():
    from transformers import AutoTokenizer  # deferred: seconds to import

    from compsem.harness.llm.loglikelihood import Request, plan
    from compsem.harness.models.offline import model_path

    tokenizer = AutoTokenizer.from_pretrained(model_path("minilm"))
    requests = [Request("Is a red car a car? Answer:", (" yes", " no"))]
    assert plan(requests, tokenizer, 64)
    with pytest.raises(ValueError, match="--max-length 1 leaves no room for the question"):
        plan(requests, tokenizer, 1)


def test_a_max_length_that_cuts_prompts_is_counted_and_one_that_cuts_all_refused():
    from transformers import AutoTokenizer  # deferred: seconds to import

    from compsem.harness.llm.loglikelihood import Request, plan
    from compsem.harness.models.offline import model_path

    tokenizer = AutoTokenizer.from_pretrained(model_path("minilm"))
    short = Request("Is a car a car? Answer:", (" yes", " no"))
    long = Request("Is a red car that a former president drove a car? Answer:", (" yes", " no"))
    cut: list[int] = []
    assert plan([short, long], tokenizer, 64, cut) and cut == []
    needed = len(tokenizer.encode(short.context)) + 1
    plan([short, long], tokenizer, needed, cut)
    assert cut == [1]
    with pytest.raises(ValueError, match="--max-length 5 cuts the prompt of every row"):
        plan([short, long], tokenizer, 5)


def test_a_preset_whose_input_the_config_lacks_is_named_not_input():
    import datasets

    from compsem.harness.data.benchmark import _schema
    from compsem.harness.data.presets import get_preset

    features = datasets.Features(
        {
            "event1": datasets.Value("string"),
            "event2": datasets.Value("string"),
            "label": datasets.ClassLabel(names=["no", "yes"]),
        }
    )
    with pytest.raises(ValueError, match=r"--preset plane .*reads single input.*--preset auto"):
        _schema(features, "epc", None, "plane", get_preset("plane", features))


def test_h_only_sizes_dev_cannot_give_are_refused_not_scaled():
    """Issue 55: sizes a user asks for are made or refused (naming the most dev gives); only the
    preset's own sizes scale down with dev, as the card's reason for them says."""
    from compsem.builders.booqa.config import BooqaConfig, resolved
    from compsem.builders.booqa.sampling.population import ThresholdError
    from compsem.builders.booqa.splits import check_h_only_room

    asked = resolved(BooqaConfig(name="h_only", preset="tiny", h_only_sizes=(30, 20)))
    with pytest.raises(ThresholdError, match="asks for 50 rows .* sum to at most 40"):
        check_h_only_room(asked, 40)
    # more than any dev of the preset could hold: refused before the corpus is parsed
    with pytest.raises(ValueError, match=r"asks for 1,000,000,005 rows .* at most 60 \(at most 20"):
        resolved(BooqaConfig(name="h_only", preset="tiny", h_only_sizes=(10**9, 5)))
    check_h_only_room(resolved(BooqaConfig(name="h_only", preset="tiny")), 10)
    check_h_only_room(
        resolved(BooqaConfig(name="h_only", preset="tiny", h_only_sizes=(20, 10))), 40
    )
