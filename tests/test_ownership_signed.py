"""Ownership a forger cannot fake (issue 55): every manifest is signed with this user's key for
the folder it governs, paths are resolved once, a replacement finishes or rolls back, and a
killed writer's staging folder and lock are removed wherever they are.

Each case checks the user's files byte for byte (and their modes) before and after, the exit
status 2, one line of error and no traceback."""

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from compsem.cli import main
from compsem.files import signing
from compsem.files.ownership import FILES_MANIFEST, MARKER, new_token, stamp, write_manifest
from compsem.files.writers import registry_folder
from compsem.harness.models.offline import SMOLLM2_FOLDER
from compsem.pipeline.process_guard import OWNER_FILE
from tests.harness_data import tiny_booqa_export, tiny_plane_export
from tests.publish_helpers import copy_export
from tests.test_harness_report import train_result
from tests.test_ownership import checksums
from tests.test_resources import debian_dict

BUILD = ["build", "montague", "--config", "an"]


def run(argv, capsys) -> str:
    """``compsem ARGV``, which must fail with one clear line; that line."""
    try:
        code = main([str(arg) for arg in argv])
    except SystemExit as exit_:
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "error" in line]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture(scope="module")
def montague(tmp_path_factory) -> Path:
    """A real export of Montague's ``an`` config (seconds), copied by the tests that change it."""
    out = tmp_path_factory.mktemp("exports") / "montague"
    assert main([*BUILD, "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("tiny")
    return {
        "plane": tiny_plane_export(root / "plane"),
        "booqa": tiny_booqa_export(root / "booqa"),
    }


def users_file(folder: Path, name: str = "summary.md") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("my own words, not compsem's")
    return folder / name


def forged_export(folder: Path, kind: str, signature: str | None) -> Path:
    """A folder of the user's under a well-formed export manifest that lists the user's file
    with its exact size and time, signed with ``signature`` (None: unsigned)."""
    mine = users_file(folder, "thesis.tex")
    manifest = {"kind": kind, "token": new_token(), "configs": ["an"], "folders": []}
    manifest["files"] = {mine.name: stamp(mine)}
    if signature is not None:
        manifest["signature"] = signature
    (folder / MARKER).write_text(json.dumps(manifest))
    return folder


def forged_files(folder: Path, name: str = "summary.md") -> Path:
    """A folder with the user's ``name`` listed, size and time exact, in a hand-written file
    list carrying a signature of the right form."""
    mine = users_file(folder, name)
    manifest = {"files": {name: stamp(mine)}, "signature": "hmac-sha256:" + "ab" * 32}
    (folder / FILES_MANIFEST).write_text(json.dumps(manifest))
    return folder


# Every command that writes into a results folder: its words ({plane}, {booqa}: tiny exports;
# {runs}: a folder of results; {out}: the folder), and the file it would write there.
HARNESS = "--dataset {plane} --config goood_split_1 --out {out}"
RESULT_COMMANDS = {
    "llm": (f"llm {HARNESS}", "summary.md"),
    "train": (f"train {HARNESS}", "summary.md"),
    "curve": (f"curve {HARNESS}", "summary.md"),
    "zero-shot": (f"zero-shot {HARNESS} --model minilm", "summary.md"),
    "prompt": (
        "prompt --dataset {plane} --config two_shot --model minilm --out {out}",
        "summary.md",
    ),
    "score": ("score --dataset {booqa} --config en --model minilm --out {out}", "summary.md"),
    "report": ("report {runs} --out {out}", "summary.md"),
    "lm-eval-tasks": ("lm-eval-tasks {plane} --out {out}", "plane/x"),
    "audit-json": ("audit {plane} --no-card --json {out}/audit.json", "audit.json"),
    "demo": ("demo --out {out} --benchmarks montague", "demo.log"),
}
SLOW_RESULTS = {"train"}  # loads and tokenises before it checks (seconds)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(name, marks=[pytest.mark.slow] if name in SLOW_RESULTS else [])
        for name in RESULT_COMMANDS
    ],
)
def test_a_forged_file_list_never_lets_a_command_overwrite_the_users_file(
    command, exports, tmp_path, capsys, monkeypatch
):
    from compsem.harness.results.files import write_result

    monkeypatch.chdir(tmp_path)
    write_result(tmp_path / "runs", train_result("goood_split_1", 1, 0.8, {}))
    words, written = RESULT_COMMANDS[command]
    out = tmp_path / "o"
    argv = words.format(out=out, runs=tmp_path / "runs", **exports).split()
    folder = (out / written).parent
    forged_files(folder, Path(written).name)
    before = checksums(folder)
    line = run(argv, capsys)
    assert "not written by compsem here" in line and "choose another" in line
    assert checksums(folder) == before


@pytest.mark.parametrize("signature", [None, "hmac-sha256:" + "0" * 64], ids=["unsigned", "fake"])
@pytest.mark.parametrize(
    "command",
    ["build", "build-force", "embed", "baselines", "train-save-model", "setup-smollm2-force"],
)
def test_a_forged_export_manifest_never_lets_a_command_delete_the_users_file(
    command, signature, exports, tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "cache"))
    target = tmp_path / "mine"
    argv = {
        "build": [*BUILD, "--out", target],
        "build-force": [*BUILD, "--out", target, "--force"],
        "embed": ["embed", "--dataset", exports["plane"], "--out", target],
        "baselines": ["baselines", "--quick", "--benchmarks", "montague", "--out", tmp_path / "o"],
        "train-save-model": ["train", "--dataset", exports["plane"], "--config", "goood_split_1"]
        + ["--out", tmp_path / "o", "--save-model"],
        "setup-smollm2-force": ["setup-smollm2", "--force"],
    }[command]
    kind, target = {
        "baselines": ("compsem baseline run", tmp_path / "o" / "montague-embed-quick"),
        "train-save-model": ("fine-tuned model", tmp_path / "o" / "model-seed1"),
        "setup-smollm2-force": ("x", tmp_path / "cache" / "models" / SMOLLM2_FOLDER),
    }.get(command, ("montague export", target))
    forged_export(target, kind, signature)
    before = checksums(target)
    line = run(argv, capsys)
    assert "not written by compsem here" in line, line
    assert ("is unsigned" in line) == (signature is None)
    assert checksums(target) == before


def test_setup_wordnet_refuses_a_forged_file_list(tmp_path, capsys):
    source = debian_dict(tmp_path / "dict")
    target = forged_files(tmp_path / "wn", "data.noun")
    before = checksums(target)
    line = run(["setup-wordnet", "--source", source, "--target", target], capsys)
    assert "not written by compsem here" in line
    assert checksums(target) == before


def test_audit_writes_no_card_of_an_export_whose_manifest_was_copied(montague, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(montague, copy)
    before = checksums(copy)
    assert main(["audit", str(copy)]) in (0, 1)
    assert "was left as it is" in capsys.readouterr().err
    assert checksums(copy) == before


@pytest.mark.parametrize("change", ["altered", "copied", "unsigned", "foreign-key"])
def test_a_manifest_not_signed_here_for_this_folder_is_refused_and_deletes_nothing(
    change, montague, tmp_path, capsys, monkeypatch
):
    out = copy_export(montague, tmp_path / "export")
    manifest = json.loads((out / MARKER).read_text())
    (out / "thesis.tex").write_text("mine")
    manifest["files"]["thesis.tex"] = stamp(out / "thesis.tex")  # the forger's addition
    if change == "altered":
        (out / MARKER).write_text(json.dumps({**manifest, "signature": manifest["signature"]}))
    elif change == "copied":  # signed for another folder
        signing.sign(manifest, tmp_path / "elsewhere")
        (out / MARKER).write_text(json.dumps(manifest))
    elif change == "unsigned":
        del manifest["signature"]
        (out / MARKER).write_text(json.dumps(manifest))
    else:  # signed, for this very folder, with another user's key
        monkeypatch.setenv("COMPSEM_CONFIG", str(tmp_path / "other-user"))
        write_manifest(out, manifest)
        monkeypatch.undo()
    before = checksums(out)
    for force in ([], ["--force"]):
        line = run([*BUILD, "--out", out, *force], capsys)
        assert "not written by compsem here" in line
        assert ("unsigned" in line) == (change == "unsigned")
    assert checksums(out) == before


def test_a_moved_export_stays_loadable_but_is_not_owned(montague, tmp_path, capsys):
    import compsem

    moved = tmp_path / "moved"
    shutil.copytree(montague, moved)
    assert len(compsem.load(str(moved), "an", split="test")) > 0
    before = checksums(moved)
    line = run([*BUILD, "--out", moved], capsys)
    assert "copied from another folder or machine" in line and "choose another --out" in line
    assert checksums(moved) == before


@pytest.mark.parametrize("problem", ["group-readable", "symlink", "folder", "damaged"])
def test_a_key_file_that_is_not_private_or_not_a_key_is_refused(
    problem, montague, tmp_path, capsys, monkeypatch
):
    config = tmp_path / "config"
    config.mkdir()
    key = config / signing.KEY_NAME
    if problem == "group-readable":
        key.write_text("ab" * 32 + "\n")
        key.chmod(0o640)
    elif problem == "symlink":
        (tmp_path / "real-key").write_text("ab" * 32 + "\n")
        key.symlink_to(tmp_path / "real-key")
    elif problem == "folder":
        key.mkdir()
    else:
        key.write_text("not a key\n")
        key.chmod(0o600)
    out = copy_export(montague, tmp_path / "export")
    monkeypatch.setenv("COMPSEM_CONFIG", str(config))
    before = checksums(tmp_path)
    line = run([*BUILD, "--out", out], capsys)
    assert "signing key" in line and str(key) in line
    fix = {"group-readable": "chmod 600", "damaged": "delete it"}.get(problem, "remove it")
    assert fix in line
    assert checksums(tmp_path) == before


def test_the_key_is_made_on_first_use_private_to_its_user(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPSEM_CONFIG", str(tmp_path / "fresh" / "compsem"))
    payload = signing.sign({"files": {}}, tmp_path)
    key = tmp_path / "fresh" / "compsem" / signing.KEY_NAME
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert signing.verdict(payload, tmp_path) is None
    assert signing.verdict(payload, tmp_path / "other") == "forged"


@pytest.mark.parametrize("spelling", ["through-itself", "inner-dotdot", "symlinked-parent"])
def test_an_out_spelled_through_the_export_or_a_linked_parent_replaces_it_whole(
    spelling, montague, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    out = copy_export(montague, tmp_path / "hub" / "montague")
    (tmp_path / "link").symlink_to(tmp_path / "hub")
    old_token = json.loads((out / MARKER).read_text())["token"]
    given = {
        "through-itself": "hub/montague/../montague",
        "inner-dotdot": "hub/montague/an/..",
        "symlinked-parent": "link/montague",
    }[spelling]
    assert main([*BUILD, "--out", given]) == 0
    assert json.loads((out / MARKER).read_text())["token"] != old_token
    assert sorted(p.name for p in (tmp_path / "hub").iterdir()) == ["montague"]  # nothing aside
    assert main([*BUILD, "--out", "hub/montague"]) == 0  # still compsem's, where it is


@pytest.mark.parametrize("spelling", ["symlink-to-it", "inside-it"])
def test_an_out_that_is_a_link_to_the_export_or_inside_it_is_refused(
    spelling, montague, tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    out = copy_export(montague, tmp_path / "hub" / "montague")
    (tmp_path / "link").symlink_to(out)
    before = checksums(tmp_path)
    given = {"symlink-to-it": "link", "inside-it": "hub/montague/an/new"}[spelling]
    line = run([*BUILD, "--out", given], capsys)
    assert {"symlink-to-it": "symbolic link", "inside-it": "lies inside"}[spelling] in line
    assert checksums(tmp_path) == before


@pytest.fixture
def unremovable(montague, tmp_path):
    """An export one of whose files compsem cannot remove: immutable (as root, who may remove
    anything else), or in a read-only folder (as anyone else)."""
    out = copy_export(montague, tmp_path / "export")
    victim = next((out / "an").glob("*.parquet"))
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(victim)], capture_output=True)
        if done.returncode != 0:
            pytest.skip("chattr +i is not available on this file system")
        yield out
        subprocess.run(["chattr", "-i", str(victim)], check=True)
    else:
        (out / "an").chmod(0o555)
        yield out
        (out / "an").chmod(0o755)


@pytest.mark.parametrize("force", [False, True])
def test_an_unremovable_old_file_leaves_everything_as_it_was(unremovable, force, tmp_path, capsys):
    out = unremovable
    if force:
        (out / "notes.md").write_text("mine")
    before = checksums(tmp_path)
    line = run([*BUILD, "--out", out, *(["--force"] * force)], capsys)
    assert "cannot remove" in line and "is as it was" in line
    assert checksums(tmp_path) == before  # no staging, retired folder or lock left either


def test_a_failed_move_in_the_swap_is_rolled_back(montague, tmp_path, capsys, monkeypatch):
    from compsem.files import replace

    out = copy_export(montague, tmp_path / "export")
    (out / "notes.md").write_text("mine")
    before = checksums(tmp_path)

    def failing(source, target):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(replace, "move", failing)  # the move of notes.md into the new one
    line = run([*BUILD, "--out", out, "--force"], capsys)
    assert "Cannot put the new folder in place" in line and "is as it was" in line
    assert checksums(tmp_path) == before


KILLED_WRITER = """
import sys, time
from compsem.files.ownership import claim_file
from compsem.files.output_folder import atomic_folder
claim_file(sys.argv[2], lambda partial: partial.write_text("x"))
with atomic_folder(sys.argv[1], {"kind": "montague export"}) as staging:
    print(staging, flush=True)
    time.sleep(300)
"""


def test_a_killed_builds_staging_and_lock_go_with_the_next_build_in_another_parent(
    montague, tmp_path
):
    here = tmp_path / "a"
    here.mkdir()
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(here / "export"), str(here / "r" / "x.json")],
        stdout=subprocess.PIPE,
        text=True,
    )
    staging = Path(writer.stdout.readline().strip())
    lock = here / ".export.compsem-lock"
    assert (staging / OWNER_FILE).is_file() and lock.is_file()
    writer.kill()
    writer.wait()
    mine = users_file(tmp_path / "user-staging", OWNER_FILE)  # not compsem's: never listed
    entries = sorted(registry_folder().glob(f"{writer.pid}-*.json"))
    assert len(entries) == 2  # its lock and its staging folder
    assert main([*BUILD, "--out", str(tmp_path / "b" / "export")]) == 0
    assert not staging.exists() and not lock.exists()
    assert sorted(p.name for p in here.iterdir()) == ["r"]
    assert (here / "r" / "x.json").read_text() == "x"
    assert not any(path.exists() for path in entries)
    assert mine.read_text() == "my own words, not compsem's"


def test_an_unsigned_registry_entry_removes_nothing(montague, tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    folder = tmp_path / "precious"
    users_file(folder, "data.csv")
    owner = {"pid": gone.pid, "name": folder.name, "token": ""}
    (folder / OWNER_FILE).write_text(json.dumps(owner))  # looks like a dead run's staging
    entry = registry_folder() / f"{gone.pid}-forged.json"
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(json.dumps({"kind": "staging", "path": str(folder), "pid": gone.pid}))
    before = checksums(folder)
    assert main([*BUILD, "--out", str(tmp_path / "export")]) == 0
    assert checksums(folder) == before
    entry.unlink()
