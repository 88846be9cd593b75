"""compsem deletes and overwrites only what it wrote: one test per case of the data-safety
review (forged markers, user files inside an export, two writers, temporary folders, result
files and logs, card edits, modes, disk full), each with the user's files checked byte for byte."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from compsem.benchmark.card import NOT_AUDITED
from compsem.cli import main
from compsem.files.output_folder import (
    MARKER,
    OutputFolderError,
    atomic_folder,
    check_output_folder,
    remove_dead_staging,
)
from compsem.files.ownership import (
    FILES_MANIFEST,
    claim_file,
    identity,
    record_file,
    remove_listed,
    writer_lock,
)
from compsem.harness.results.files import write_json, write_text
from compsem.pipeline.process_guard import claim_folder, private_tempdir
from compsem.publish.audit import audit_folder
from tests.harness_data import tiny_plane_export
from tests.publish_helpers import copy_export

KIND = "montague export"


def checksums(folder: Path) -> dict:
    """Every path under ``folder`` with the SHA-256 of its bytes and its mode."""
    return {
        str(path.relative_to(folder)): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None,
            path.stat().st_mode,
        )
        for path in sorted(folder.rglob("*"))
    }


@pytest.fixture(scope="module")
def montague(tmp_path_factory) -> Path:
    """A real export of Montague's ``an`` config (seconds), copied by the tests that change it."""
    out = tmp_path_factory.mktemp("exports") / "montague"
    assert main(["build", "montague", "--out", str(out), "--config", "an"]) == 0
    return out


def copy_of(export: Path, tmp_path: Path) -> Path:
    return copy_export(export, tmp_path / "export")


def user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    (folder / "sub").mkdir(parents=True)
    (folder / "thesis.tex").write_text("\\chapter{One}")
    (folder / "sub" / "data.csv").write_text("a,b\n1,2\n")
    return folder


@pytest.mark.parametrize(
    "marker",
    [
        '{"kind": "montague export"}',
        '{"kind": "montague export", "configs": ["an"], "files": {}, "folders": []}',
        "[1, 2]",
        '"a string"',
        '{"kind": "montague export", "configs": 5, "token": "0123456789abcdef0123456789abcdef", '
        '"files": {}, "folders": []}',
        '{"kind": "montague export", "token": "0123456789abcdef0123456789abcdef", '
        '"files": {"../../etc/passwd": [1, 2]}, "folders": []}',
        "{not json",
    ],
    ids=["kind-only", "no-token", "list", "string", "configs-5", "escaping-path", "not-json"],
)
@pytest.mark.parametrize("force", [False, True])
def test_a_forged_or_damaged_marker_is_one_error_and_deletes_nothing(
    tmp_path, capsys, marker, force
):
    folder = user_folder(tmp_path)
    (folder / MARKER).write_text(marker)
    before = checksums(folder)
    argv = ["build", "montague", "--out", str(folder), "--config", "an"]
    assert main(argv + ["--force"] * force) == 2
    err = capsys.readouterr().err
    assert "is not a manifest compsem wrote" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert checksums(folder) == before


def test_a_genuine_marker_copied_into_a_users_folder_protects_its_files(montague, tmp_path, capsys):
    folder = user_folder(tmp_path)
    shutil.copy2(montague / MARKER, folder / MARKER)
    before = checksums(folder)
    for force in ([], ["--force"]):
        code = main(["build", "montague", "--out", str(folder), "--config", "an", *force])
        err = capsys.readouterr().err
        assert code == 2 and "does not carry compsem's signature for this folder" in err
    assert checksums(folder) == before


def test_user_files_inside_an_export_survive_a_rebuild(montague, tmp_path, capsys):
    out = copy_of(montague, tmp_path)
    (out / "my_notes.md").write_text("notes")
    (out / "my_plots").mkdir()
    (out / "my_plots" / "a.png").write_bytes(b"\x89PNG")
    (out / "an" / "mine.txt").write_text("inside a config folder")
    before = checksums(out)
    argv = ["build", "montague", "--out", str(out), "--config", "an"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "an/mine.txt, my_notes.md, my_plots/" in err and "--force" in err
    assert checksums(out) == before  # refused before any work
    assert main([*argv, "--force"]) == 0
    assert (out / "my_notes.md").read_text() == "notes"
    assert (out / "my_plots" / "a.png").read_bytes() == b"\x89PNG"
    assert (out / "an" / "mine.txt").read_text() == "inside a config folder"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no retired folder


def test_a_changed_card_is_the_users_and_refused_even_with_force(montague, tmp_path, capsys):
    out = copy_of(montague, tmp_path)
    with open(out / "README.md", "a") as card:
        card.write("my edit\n")
    before = checksums(out)
    argv = ["build", "montague", "--out", str(out), "--config", "an"]
    for force in ([], ["--force"]):
        assert main([*argv, *force]) == 2
        err = capsys.readouterr().err
        assert "README.md, which compsem wrote and you changed since" in err
        assert len(err.strip().splitlines()) == 1
        assert checksums(out) == before


def test_a_copied_marker_never_lets_a_build_replace_a_users_file_of_the_same_name(
    montague, tmp_path, capsys
):
    folder = user_folder(tmp_path)
    (folder / "README.md").write_text("# my README")
    shutil.copy2(montague / MARKER, folder / MARKER)
    before = checksums(folder)
    assert main(["build", "montague", "--out", str(folder), "--config", "an", "--force"]) == 2
    assert "not written by compsem here" in capsys.readouterr().err
    assert checksums(folder) == before


def test_remove_listed_removes_only_files_unchanged_since(montague, tmp_path):
    out = copy_of(montague, tmp_path)
    manifest = json.loads((out / MARKER).read_text())
    (out / "README.md").write_text("rewritten by hand")
    remove_listed(out, manifest)
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == ["README.md"]


def test_a_second_writer_fails_at_once_while_the_first_holds_the_lock(tmp_path):
    out = tmp_path / "new"
    with writer_lock(out):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "compsem.cli", "build", "montague", "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert "another compsem process is writing" in done.stderr
        assert "Traceback" not in done.stderr
        assert time.monotonic() - started < 60  # refused before any build
    assert not out.exists()
    assert not (tmp_path / ".new.compsem-lock").exists()


def test_two_real_builds_into_one_new_folder_one_wins_whole(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "compsem.cli", "build", "montague", "--out", str(out)]
    runs = [
        subprocess.Popen([*command, "--config", config], stderr=subprocess.PIPE, text=True)
        for config in ("an", "lexicon")
    ]
    results = [(run.wait(timeout=300), run.stderr.read()) for run in runs]
    winners = [
        config for config, (code, _) in zip(("an", "lexicon"), results, strict=True) if code == 0
    ]
    assert len(winners) == 1, results
    loser = next(err for code, err in results if code != 0)
    assert "another compsem process is writing" in loser or "would drop" in loser, loser
    assert json.loads((out / MARKER).read_text())["configs"] == winners
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, "README.md", winners[0]])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_cleanup_removes_only_folders_carrying_compsems_token(tmp_path, monkeypatch):
    gone = subprocess.Popen(["true"])
    gone.wait()
    notes = tmp_path / "compsem-2024-project-notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("mine")
    fake = tmp_path / f"compsem-{gone.pid}-forged"  # a dead pid, but no token
    fake.mkdir()
    dead = tmp_path / f"compsem-{gone.pid}-abcd"
    dead.mkdir()
    monkeypatch.setattr(os, "getpid", lambda: gone.pid)
    claim_folder(dead)
    monkeypatch.undo()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    mine = private_tempdir()
    assert (notes / "todo.txt").read_text() == "mine" and fake.is_dir()
    assert not dead.exists() and mine.is_dir()
    shutil.rmtree(mine)


def test_result_files_never_replace_a_users_file(tmp_path):
    (tmp_path / "summary.md").write_text("my summary")
    with pytest.raises(OutputFolderError, match="summary.md exists and compsem did not write it"):
        write_text(tmp_path / "summary.md", "compsem's")
    assert (tmp_path / "summary.md").read_text() == "my summary"
    write_json(tmp_path / "result.json", {"a": 1})
    write_json(tmp_path / "result.json", {"a": 2})  # compsem's own: replaced
    assert json.loads((tmp_path / "result.json").read_text()) == {"a": 2}
    (tmp_path / "result.json").write_text("edited by hand")
    with pytest.raises(OutputFolderError, match="or it changed since"):
        write_json(tmp_path / "result.json", {"a": 3})
    assert (tmp_path / "result.json").read_text() == "edited by hand"
    (tmp_path / FILES_MANIFEST).write_text("[broken")
    with pytest.raises(OutputFolderError, match="not a manifest compsem wrote"):
        write_json(tmp_path / "other.json", {})


def test_demo_never_truncates_a_users_log(tmp_path, capsys):
    out = tmp_path / "demo"
    out.mkdir()
    (out / "demo.log").write_text("my log")
    assert main(["demo", "--out", str(out), "--benchmarks", "montague"]) == 2
    assert "demo.log exists and compsem did not write it" in capsys.readouterr().err
    assert (out / "demo.log").read_text() == "my log"
    assert sorted(p.name for p in out.iterdir()) == ["demo.log"]


def test_audit_writes_only_into_the_card_of_an_export_compsem_wrote(montague, tmp_path, capsys):
    hand = tiny_plane_export(tmp_path / "hand")
    card = hand / "README.md"
    card.chmod(0o444)
    before = checksums(hand)
    code = main(["audit", str(hand), "--benchmark", "plane", "--no-hypothesis-only"])
    assert code in (0, 1)
    assert "was left as it is" in capsys.readouterr().err
    assert checksums(hand) == before and card.stat().st_mode & 0o777 == 0o444
    out = copy_of(montague, tmp_path)
    assert NOT_AUDITED in (out / "README.md").read_text()
    (out / "README.md").chmod(0o444)
    report = audit_folder(out, hypothesis_only=False)
    assert report.card_note is None
    assert NOT_AUDITED not in (out / "README.md").read_text()
    assert (out / "README.md").stat().st_mode & 0o777 == 0o444
    # the audit keeps the card compsem's: a rebuild still replaces the export
    assert main(["build", "montague", "--out", str(out), "--config", "an"]) == 0


def test_audit_json_never_replaces_a_users_file(montague, tmp_path, capsys):
    (tmp_path / "report.json").write_text("mine")
    argv = ["audit", str(montague), "--no-hypothesis-only", "--no-card"]
    assert main([*argv, "--json", str(tmp_path / "report.json")]) == 2
    assert "compsem did not write it" in capsys.readouterr().err
    assert (tmp_path / "report.json").read_text() == "mine"


def test_a_private_out_keeps_its_mode_and_a_new_one_follows_the_umask(montague, tmp_path):
    out = copy_of(montague, tmp_path)
    out.chmod(0o700)
    assert main(["build", "montague", "--out", str(out), "--config", "an"]) == 0
    assert out.stat().st_mode & 0o777 == 0o700
    umask = os.umask(0o027)
    try:
        with atomic_folder(tmp_path / "fresh", {"kind": KIND}) as staging:
            (staging / "a.txt").write_text("a")
    finally:
        os.umask(umask)
    assert (tmp_path / "fresh").stat().st_mode & 0o777 == 0o750


def test_a_long_out_name_gets_short_staging_and_lock_names(tmp_path):
    out = tmp_path / ("x" * 250)
    with atomic_folder(out, {"kind": KIND}) as staging:
        assert len(staging.name) < 255
        (staging / "a.txt").write_text("a")
    assert (out / "a.txt").read_text() == "a"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


def test_a_swallowed_ctrl_c_stops_the_final_rename(montague, tmp_path, monkeypatch):
    out = copy_of(montague, tmp_path)
    before = checksums(out)
    monkeypatch.setattr("compsem.files.output_folder.interrupted", lambda: True)
    with pytest.raises(KeyboardInterrupt), atomic_folder(out, {"kind": KIND}) as staging:
        (staging / "README.md").write_text("new")  # the build "went on" after Ctrl-C
    assert checksums(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export"]


def test_a_full_disk_is_one_error_and_leaves_the_export(montague, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        out = copy_of(montague, disk) if _fits(montague) else disk / "export"
        before = checksums(disk)
        with pytest.raises(OutputFolderError, match="is full; free some space"):
            with atomic_folder(out, {"kind": KIND}) as staging:
                (staging / "big.bin").write_bytes(b"\0" * 2 * 2**20)
        assert checksums(disk) == before
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def _fits(export: Path) -> bool:
    return sum(p.stat().st_size for p in export.rglob("*") if p.is_file()) < 600_000


def test_claim_file_refuses_a_symlink_planted_at_its_name(tmp_path):
    (tmp_path / "target.txt").write_text("elsewhere")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "summary.md").symlink_to(tmp_path / "target.txt")
    with pytest.raises(OutputFolderError, match="compsem did not write it"):
        claim_file(tmp_path / "out" / "summary.md", lambda p: p.write_text("x"))
    assert (tmp_path / "target.txt").read_text() == "elsewhere"


def test_stale_lock_files_of_killed_runs_go_and_others_stay(tmp_path):
    with writer_lock(tmp_path / "held"):
        stale = tmp_path / ".killed.compsem-lock"
        stale.write_text('{"compsem_lock": 1}')  # what a killed run leaves
        users = tmp_path / ".mine.compsem-lock"
        users.write_text("a user's file that happens to have the name")
        remove_dead_staging(tmp_path / "any")
        assert not stale.exists() and users.exists()
        assert (tmp_path / ".held.compsem-lock").exists()  # held: left to its writer
    assert sorted(p.name for p in tmp_path.iterdir()) == [".mine.compsem-lock"]


def test_the_lock_never_writes_through_a_link_nor_over_a_users_file(tmp_path):
    elsewhere = tmp_path / "precious.txt"
    elsewhere.write_text("precious")
    (tmp_path / ".linked.compsem-lock").symlink_to(elsewhere)
    (tmp_path / ".mine.compsem-lock").write_text("my notes")
    (tmp_path / ".folder.compsem-lock").mkdir()
    for name in ("linked", "mine", "folder"):
        with pytest.raises(OutputFolderError, match="is not a lock compsem wrote"):
            with writer_lock(tmp_path / name):
                pytest.fail("the block must not run")
    assert elsewhere.read_text() == "precious"
    assert (tmp_path / ".mine.compsem-lock").read_text() == "my notes"
    assert (tmp_path / ".linked.compsem-lock").is_symlink()
    assert (tmp_path / ".folder.compsem-lock").is_dir()
    (tmp_path / ".killed.compsem-lock").write_text("")  # a run killed between create and write
    with writer_lock(tmp_path / "killed"):
        pass
    assert not (tmp_path / ".killed.compsem-lock").exists()


def test_a_log_put_in_place_of_compsems_during_a_run_is_never_claimed(tmp_path):
    log = tmp_path / "run.log"
    claimed = identity(claim_file(log, lambda partial: partial.write_text("")))
    log.unlink()
    log.write_text("the user's own log")
    record_file(log, claimed)
    with pytest.raises(OutputFolderError, match="compsem did not write it"):
        claim_file(log, lambda partial: partial.write_text(""))
    assert log.read_text() == "the user's own log"


def test_an_unreadable_marker_is_named_as_unreadable(montague, tmp_path, monkeypatch):
    out = copy_of(montague, tmp_path)

    opened = os.open

    def refuse(path, *args, **kwargs):  # as a marker without read permission answers
        if Path(path).name == MARKER:
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(OutputFolderError, match="cannot be read .permission denied.*make it"):
        check_output_folder(out, KIND)


def test_a_file_added_during_the_build_is_kept_and_the_export_left(montague, tmp_path):
    out = copy_of(montague, tmp_path)
    with pytest.raises(OutputFolderError, match="changed in .* during the build"):
        with atomic_folder(out, {"kind": KIND}) as staging:
            (staging / "README.md").write_text("new")
            (out / "late.txt").write_text("written while compsem built")
    assert (out / "late.txt").read_text() == "written while compsem built"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export"]


# Each harness command with what it needs to start, and a file it writes into --out.
COMMANDS = {
    "train": ("training.finetune", "run_train", {"seeds": [1, 2]}, "train-c-seed2.rows.jsonl"),
    "curve": ("training.finetune", "run_curve", {}, "curve-c.png"),
    "zero-shot": ("probing.commands", "run_zero_shot", {"model": "m"}, "zero-shot-c.json"),
    "prompt": ("probing.commands", "run_prompt", {"model": "m"}, "prompt-c.rows.jsonl"),
    "score": ("probing.score", "run_score", {"model": "m"}, "score-c-pr-curve.json"),
    "llm": ("llm.run", "run_llm", {"seed": 3}, "llm-c-seed3.json"),
}


def never_loaded(monkeypatch, module: str) -> list:
    """Make loading the data (the first expensive step) of ``module``'s commands a failure."""
    loaded = []

    def load(*args, **kwargs):
        loaded.append(args)
        raise AssertionError("the data was loaded before the targets were checked")

    monkeypatch.setattr(f"compsem.harness.{module}.load_benchmark", load)
    return loaded


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("target", ["result", "summary.md"])
def test_harness_commands_refuse_a_users_file_before_any_work(
    tmp_path, monkeypatch, command, target
):
    import importlib

    module, function, options, result = COMMANDS[command]
    run = getattr(importlib.import_module(f"compsem.harness.{module}"), function)
    loaded = never_loaded(monkeypatch, module)
    name = result if target == "result" else target
    (tmp_path / name).write_text("mine")
    before = checksums(tmp_path)
    with pytest.raises(OutputFolderError, match=f"{name} exists and compsem did not write it"):
        run(dataset="d", config="c", out=tmp_path, **options)
    assert not loaded and checksums(tmp_path) == before


@pytest.mark.parametrize("kind", ["folder", "file"])
def test_train_save_model_never_writes_into_a_users_folder_or_over_a_file(
    tmp_path, monkeypatch, kind
):
    from compsem.harness.training.finetune import run_train

    loaded = never_loaded(monkeypatch, "training.finetune")
    if kind == "folder":
        (tmp_path / "model-seed2").mkdir()
        (tmp_path / "model-seed2" / "config.json").write_text('{"my": 1}')
        message = "model-seed2 is a folder compsem did not write"
    else:
        (tmp_path / "model-seed2").write_text("not a folder")
        message = "model-seed2 is a file, not a folder"
    before = checksums(tmp_path)
    with pytest.raises(OutputFolderError, match=f"fine-tuned model model-seed2: .*{message}"):
        run_train("d", "c", tmp_path, seeds=[1, 2], save_model=True)
    assert not loaded and checksums(tmp_path) == before
    with pytest.raises(AssertionError, match="the data was loaded"):  # no model, no check
        run_train("d", "c", tmp_path, seeds=[1, 2])


def test_report_checks_every_page_file_before_writing_any(tmp_path):
    from compsem.harness.models.device import resolve
    from compsem.harness.report.run import run_report
    from compsem.harness.results.files import make_result, write_result

    dataset = {"path": "hub/plane", "config": "goood_split_1", "split": "test"}
    dataset |= {"revision": None, "fingerprint": "abc"}
    scores = {"n": 10, "accuracy": 0.8, "macro_f1": 0.7, "by_group": {}}
    write_result(
        tmp_path / "runs", make_result("train", "m", dataset, 1, {}, scores, resolve("cpu"))
    )
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("my page")
    with pytest.raises(OutputFolderError, match="index.html exists and compsem did not write"):
        run_report([tmp_path / "runs"], out)
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]
    (out / "index.html").unlink()
    run_report([tmp_path / "runs"], out)  # the check passes where nothing is in the way
    assert {"report.md", "report.json", "index.md", "index.html"} <= {p.name for p in out.iterdir()}


def test_lm_eval_tasks_checks_every_file_before_writing_any(tmp_path, capsys):
    from tests.harness_data import tiny_booqa_export

    export = tiny_booqa_export(tmp_path / "booqa")
    target = tmp_path / "tasks" / "booqa"
    target.mkdir(parents=True)
    (target / "README.md").write_text("my notes")
    assert main(["lm-eval-tasks", str(export), "--out", str(tmp_path / "tasks")]) == 2
    assert "README.md exists and compsem did not write it" in capsys.readouterr().err
    assert sorted(p.name for p in target.iterdir()) == ["README.md"]


def test_audit_json_is_checked_before_the_audit_and_named_as_json(tmp_path, monkeypatch, capsys):
    def audit(*args, **kwargs):
        raise AssertionError("the audit ran before --json was checked")

    monkeypatch.setattr("compsem.cli.publish.audit_folder", audit)
    (tmp_path / "report.json").write_text("mine")
    assert main(["audit", str(tmp_path), "--json", str(tmp_path / "report.json")]) == 2
    error = capsys.readouterr().err
    assert "report.json exists and compsem did not write it" in error
    assert "choose another --json" in error and "--out" not in error
    assert main(["audit", str(tmp_path), "--json", str(tmp_path / "report.json" / "a.json")]) == 2
    assert "lies inside" in capsys.readouterr().err
    assert (tmp_path / "report.json").read_text() == "mine"
