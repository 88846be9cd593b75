"""compsem deletes only what compsem wrote: --out checks, markers, staging clean-up, permissions."""

import json
import os
import subprocess

import pytest

from compsem.cli import main
from compsem.output_folder import (
    MARKER,
    OutputFolderError,
    atomic_folder,
    check_output_folder,
)
from compsem.ownership import new_token, walk
from compsem.process_guard import OWNER_FILE

KIND = "montague export"


def marked(folder, kind=KIND, configs=("an", "aan")):
    """A folder as compsem writes it: a card and a manifest that lists it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text("old card")
    files, folders = walk(folder)
    manifest = {"kind": kind, "configs": list(configs), "token": new_token(), "files": files}
    (folder / MARKER).write_text(json.dumps({**manifest, "folders": folders}))
    return folder


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda tmp: tmp, "is the working directory"),
        (lambda tmp: tmp.parent, "holds the working directory"),
        (lambda tmp: (tmp / "notes.txt", (tmp / "notes.txt").write_text("mine"))[0], "is a file"),
        (
            lambda tmp: (
                tmp / "thesis",
                (tmp / "thesis").mkdir(),
                (tmp / "thesis" / "ch1.tex").write_text("x"),
            )[0],
            "did not write",
        ),
    ],
    ids=["cwd", "parent-of-cwd", "file", "foreign-folder"],
)
@pytest.mark.parametrize("force", [False, True])
def test_what_compsem_did_not_write_is_refused_even_with_force(
    tmp_path, monkeypatch, make, message, force
):
    monkeypatch.chdir(tmp_path)
    target = make(tmp_path)
    with pytest.raises(OutputFolderError, match=message):
        check_output_folder(target, KIND, force=force)


def test_new_paths_empty_folders_and_own_exports_are_accepted(tmp_path):
    check_output_folder(tmp_path / "new", KIND)
    (tmp_path / "empty").mkdir()
    check_output_folder(tmp_path / "empty", KIND)
    check_output_folder(marked(tmp_path / "old"), KIND, configs=["an", "aan"])


def test_another_kind_or_dropped_configs_need_force(tmp_path):
    rnpc = marked(tmp_path / "rnpc", kind="rnpc export")
    with pytest.raises(OutputFolderError, match="--force"):
        check_output_folder(rnpc, KIND)
    check_output_folder(rnpc, KIND, force=True)
    export = marked(tmp_path / "export")
    with pytest.raises(OutputFolderError, match="would drop; build them too"):
        check_output_folder(export, KIND, configs=["an"])
    check_output_folder(export, KIND, configs=["an"], force=True)


def test_a_failed_write_leaves_the_previous_folder_and_no_staging(tmp_path):
    out = marked(tmp_path / "export")
    with pytest.raises(RuntimeError), atomic_folder(out, {"kind": KIND}) as staging:
        (staging / "README.md").write_text("new card")
        raise RuntimeError("build failed")
    assert (out / "README.md").read_text() == "old card"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export"]


def test_a_write_is_marked_readable_by_others_and_cleans_dead_staging(tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    leftovers = {}
    for name, pid in [("leftover", gone.pid), ("alive", os.getpid()), ("unmarked", gone.pid)]:
        leftovers[name] = tmp_path / f".{name}.partial-{pid}-abc"
        leftovers[name].mkdir()
        if name != "unmarked":
            owner = {"pid": pid, "name": leftovers[name].name, "token": ""}
            (leftovers[name] / OWNER_FILE).write_text(json.dumps(owner))
    old_umask = os.umask(0o022)
    try:
        with atomic_folder(tmp_path / "export", {"kind": KIND}) as staging:
            (staging / "README.md").write_text("card")
    finally:
        os.umask(old_umask)
    out = tmp_path / "export"
    marker = json.loads((out / MARKER).read_text())
    assert marker["kind"] == KIND and marker["folders"] == []
    assert list(marker["files"]) == ["README.md"] and len(marker["token"]) == 32
    assert out.stat().st_mode & 0o777 == 0o755
    # another target's dead staging in the same parent goes; a live one and an unmarked stay
    assert not leftovers["leftover"].exists()
    assert leftovers["alive"].exists() and leftovers["unmarked"].exists()


def test_the_cli_refuses_before_any_work_and_touches_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.txt").write_text("mine")
    for out in [".", str(tmp_path / "keep.txt")]:
        assert main(["build", "montague", "--out", out]) == 2
        assert "choose a new folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["build", "montague", "--out", ""])
    assert exit_.value.code == 2 and "--out: is empty" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_rebuilding_an_export_replaces_it_and_a_subset_keeps_it(tmp_path, capsys):
    out = tmp_path / "montague"
    assert main(["build", "montague", "--out", str(out)]) == 0
    configs = json.loads((out / MARKER).read_text())["configs"]
    assert main(["build", "montague", "--out", str(out)]) == 0
    assert main(["build", "montague", "--out", str(out), "--config", "an"]) == 2
    assert "would drop" in capsys.readouterr().err
    assert json.loads((out / MARKER).read_text())["configs"] == configs
    assert main(["build", "montague", "--out", str(out), "--config", "an", "--force"]) == 0
    assert json.loads((out / MARKER).read_text())["configs"] == ["an"]
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "README.md", "an"]
