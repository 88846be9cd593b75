"""Push, pull and pinned loading. No Hub is reachable: the push runs against a patched ``HfApi``
and the exact folder it would upload is loaded through ``load_dataset``; downloads run the real
``snapshot_download`` offline against a Hub cache laid out as a download leaves it."""

import shutil
from pathlib import Path
from unittest import mock

import httpx2
import huggingface_hub
import pytest
from datasets import ClassLabel, load_dataset
from huggingface_hub import DatasetCard, constants
from huggingface_hub.errors import HfHubHTTPError
from huggingface_hub.utils import filter_repo_objects

from compsem.builders.plane.builder import Plane
from compsem.builders.plane.config import LABEL_NAMES
from compsem.publish import hub
from compsem.publish.hub import PublishError
from tests.conftest import read_config
from tests.publish_helpers import run_cli

pytestmark = pytest.mark.slow  # every test here reads the session's PLANE export
SECRET = "hf_compsemTestTokenThatMustNeverBePrinted"
VERSION = str(Plane.VERSION)
TAG = f"v{VERSION}"
COMMIT = "c0ffee" + "0" * 34


def http_error(status: int) -> HfHubHTTPError:
    request = httpx2.Request("GET", "https://huggingface.co/api/whoami-v2")
    return HfHubHTTPError(
        f"{status} Client Error", response=httpx2.Response(status, request=request)
    )


@pytest.fixture
def hub_api(monkeypatch, tmp_path):
    """A patched Hub: ``HfApi`` records its calls; the card validation endpoint is patched."""
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    api = mock.MagicMock(name="HfApi()")
    api.list_repo_refs.return_value = mock.Mock(tags=[])
    api.upload_folder.return_value = huggingface_hub.CommitInfo(
        commit_url=f"https://huggingface.co/datasets/org/plane/commit/{COMMIT}",
        commit_message="",
        commit_description="",
        oid=COMMIT,
    )
    api.uploaded = tmp_path / "uploaded"  # the staged folder, kept as the upload saw it

    def upload_folder(**kwargs):
        shutil.copytree(kwargs["folder_path"], api.uploaded)
        return api.upload_folder.return_value

    api.upload_folder.side_effect = upload_folder
    factory = mock.MagicMock(name="HfApi", return_value=api)
    monkeypatch.setattr(huggingface_hub, "HfApi", factory)
    validate = mock.MagicMock(name="DatasetCard.validate")
    monkeypatch.setattr(DatasetCard, "validate", validate)
    api.factory, api.validate = factory, validate
    return api


def test_push_creates_the_repo_uploads_one_commit_and_tags_it(
    plane_export, hub_api, capsys, caplog
):
    assert run_cli(["push", str(plane_export), "--repo-id", "org/plane", "--tag", TAG]) == 0
    hub_api.factory.assert_called_once_with(token=SECRET)
    hub_api.whoami.assert_called_once()
    hub_api.validate.assert_called_once_with(repo_type="dataset")
    hub_api.create_repo.assert_called_once_with(
        "org/plane", repo_type="dataset", private=False, exist_ok=True
    )
    hub_api.upload_folder.assert_called_once()
    hub_api.create_commit.assert_not_called()
    hub_api.upload_large_folder.assert_not_called()
    upload = hub_api.upload_folder.call_args.kwargs
    assert upload["repo_id"] == "org/plane" and upload["repo_type"] == "dataset"
    assert upload["revision"] is None and not Path(upload["folder_path"]).exists()  # staged
    exported = {p.relative_to(plane_export) for p in plane_export.rglob("*.parquet")}
    staged = {p.relative_to(hub_api.uploaded) for p in hub_api.uploaded.rglob("*.parquet")}
    assert exported < staged and all(p.parts[0] == "inspect" for p in staged - exported)
    assert upload["delete_patterns"] and not upload["create_pr"]
    hub_api.create_tag.assert_called_once_with(
        "org/plane", tag=TAG, revision=COMMIT, repo_type="dataset", tag_message=f"plane {VERSION}"
    )
    hub_api.create_branch.assert_not_called()
    output = capsys.readouterr()
    assert "in one commit" in output.out and f"version={VERSION!r}" in output.out
    assert SECRET not in output.out + output.err + caplog.text


def test_the_exact_uploaded_folder_loads_every_config(plane_export, hub_api, tmp_path):
    hub.push(plane_export, "org/plane", TAG)
    upload = hub_api.upload_folder.call_args.kwargs
    root = hub_api.uploaded
    local = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    uploaded = list(
        filter_repo_objects(
            local,
            allow_patterns=upload.get("allow_patterns"),
            ignore_patterns=upload.get("ignore_patterns"),
        )
    )
    assert "README.md" in uploaded and "eval.yaml" in uploaded
    assert all(p in ("README.md", "eval.yaml") or p.endswith(".parquet") for p in uploaded)
    repo = tmp_path / "plane"
    for path in uploaded:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / path, repo / path)
    card = DatasetCard.load(repo / "README.md")
    sizes = {
        info["config_name"]: {s["name"]: s["num_examples"] for s in info["splits"]}
        for info in card.data.dataset_info
    }
    views = {name for name in sizes if name.startswith("inspect_")}  # Inspect's rows
    assert views and all(name.removeprefix("inspect_") in sizes for name in views)
    assert sorted(set(sizes) - views) == sorted(
        p.name for p in plane_export.iterdir() if p.is_dir()
    )
    for config, expected in sizes.items():
        dataset = load_dataset(str(repo), config)
        assert {split: len(rows) for split, rows in dataset.items()} == expected
        assert next(iter(dataset.values())).features["label"] == ClassLabel(names=LABEL_NAMES)


def test_the_pushed_dataset_is_a_hub_benchmark_inspect_runs(
    plane_export, hub_api, tmp_path, monkeypatch, capsys, smollm2
):
    """Issue 52: ``inspect eval hf/ORG/NAME`` reads the repo's ``eval.yaml`` and the configs it
    names. Inspect's own loader runs here on the uploaded folder (the download and the dataset
    read are served from it: no Hub is reachable), and ``inspect_ai.eval`` runs its tasks."""
    import inspect_ai
    from inspect_ai._eval.task import hf as inspect_hf

    from compsem.files.export_reader import read_export
    from compsem.harness.lm_eval_export.tasks import write_tasks

    assert run_cli(["push", str(plane_export), "--repo-id", "org/plane", "--tag", TAG]) == 0
    assert "`inspect eval hf/org/plane --model MODEL` runs" in capsys.readouterr().out
    repo = hub_api.uploaded
    read = inspect_hf.hf_dataset
    monkeypatch.setattr(
        huggingface_hub, "hf_hub_download", lambda repo_id, filename, **_: str(repo / filename)
    )
    monkeypatch.setattr(
        inspect_hf, "hf_dataset", lambda path, revision, **kw: read(path=str(repo), **kw)
    )
    tasks = {
        task.name.rsplit("/", 1)[1]: task for task in inspect_hf.task_create_from_hf("hf/org/plane")
    }
    export = read_export(plane_export)
    asked = {
        c
        for c, files in export.configs.items()
        if "test" in files and c.startswith(("goood", "one_it", "in_distribution"))
    }
    assert asked <= set(tasks) and "two_shot" not in tasks  # clozes only: no question to ask
    rows = load_dataset(str(plane_export), "goood_split_1", split="test")
    sample = tasks["goood_split_1"].dataset[0]
    assert (
        sample.input
        == f"{rows[0]['sentence']}\nQuestion: Is this statement true or false?\nAnswer:"
    )
    assert sample.choices == ["false", "true"] and sample.target == "AB"[rows[0]["label"]]
    assert len(tasks["goood_split_1"].dataset) == len(rows)  # the whole test split, in order
    logs = inspect_ai.eval(
        [tasks["goood_split_1"]], model="hf/local",
        model_args={"model_path": smollm2, "device": "cpu"}, limit=3, max_tokens=8,
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert logs[0].status == "success", logs[0].error
    assert len(logs[0].samples) == 3
    assert logs[0].results.scores[0].name == "choice"
    # pulled back, the views are no configs of the benchmark: no lm-eval task, no audit
    pulled = read_export(repo)
    assert set(pulled.configs) == set(export.configs) and set(pulled.views) == {
        f"inspect_{c}" for c in tasks
    }
    written = write_tasks(str(repo), tmp_path / "lm_eval")
    assert not any("inspect" in task for task in written.tasks)


def test_a_branch_a_pull_request_and_a_private_repo_pass_through(plane_export, hub_api, capsys):
    hub_api.upload_folder.return_value.pr_url = (
        "https://huggingface.co/datasets/org/plane/discussions/1"
    )
    argv = ["push", str(plane_export), "--repo-id", "org/plane", "--revision", "dev"]
    assert run_cli([*argv, "--private", "--create-pr"]) == 0
    hub_api.create_repo.assert_called_once_with(
        "org/plane", repo_type="dataset", private=True, exist_ok=True
    )
    hub_api.create_branch.assert_called_once_with(
        "org/plane", branch="dev", repo_type="dataset", exist_ok=True
    )
    upload = hub_api.upload_folder.call_args.kwargs
    assert upload["revision"] == "dev" and upload["create_pr"] is True
    hub_api.create_tag.assert_not_called()
    assert "discussions/1" in capsys.readouterr().out


def test_a_tag_other_than_the_card_version_is_refused_before_any_upload(plane_export, hub_api):
    with pytest.raises(PublishError, match=f"does not match version {VERSION}"):
        hub.push(plane_export, "org/plane", "v9.9.9")
    hub_api.upload_folder.assert_not_called()


def test_an_existing_tag_is_refused_before_any_upload(plane_export, hub_api):
    hub_api.list_repo_refs.return_value = mock.Mock(tags=[mock.Mock(name="tag")])
    hub_api.list_repo_refs.return_value.tags[0].name = TAG
    with pytest.raises(PublishError, match="already has tag .* versions are immutable"):
        hub.push(plane_export, "org/plane", TAG)
    hub_api.upload_folder.assert_not_called()


def test_a_missing_token_gets_a_clear_message(plane_export, hub_api, monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    monkeypatch.delenv("HF_OIDC_RESOURCE", raising=False)
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(tmp_path / "no-token"))
    assert run_cli(["push", str(plane_export), "--repo-id", "org/plane"]) == 2
    error = capsys.readouterr().err
    assert "No Hugging Face token found" in error and "hf auth login" in error
    assert "HF_TOKEN" in error and "Traceback" not in error
    hub_api.factory.assert_not_called()


@pytest.mark.parametrize(
    "failing, status, message",
    [
        ("whoami", 401, "The Hub rejected the token (HTTP 401)"),
        ("create_repo", 403, "may not write to org/plane (HTTP 403)"),
        ("upload_folder", 401, "The Hub rejected the token (HTTP 401)"),
    ],
)
def test_a_rejected_token_is_named_and_never_printed(
    plane_export, hub_api, capsys, caplog, failing, status, message
):
    getattr(hub_api, failing).side_effect = http_error(status)
    assert run_cli(["push", str(plane_export), "--repo-id", "org/plane", "--tag", TAG]) == 2
    output = capsys.readouterr()
    assert message in output.err and "Traceback" not in output.err
    assert SECRET not in output.out + output.err + caplog.text
    hub_api.create_tag.assert_not_called()


def test_an_unreachable_hub_is_named(plane_export, hub_api):
    hub_api.whoami.side_effect = httpx2.ConnectError("connection refused")
    with pytest.raises(PublishError, match="Cannot reach the Hub .ConnectError"):
        hub.push(plane_export, "org/plane")


def test_a_tag_without_its_v_is_normalised(plane_export, hub_api):
    hub.push(plane_export, "org/plane", VERSION)
    assert hub_api.create_tag.call_args.kwargs["tag"] == TAG


def test_a_card_the_hub_rejects_is_reported(plane_export, hub_api):
    hub_api.validate.side_effect = ValueError('- Error: "license" must be one of [...]')
    with pytest.raises(PublishError, match='The Hub rejected .*README.md: .*"license"'):
        hub.push(plane_export, "org/plane")
    hub_api.upload_folder.assert_not_called()


def test_pushing_offline_or_without_a_card_fails_clearly(plane_export, tmp_path, monkeypatch):
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(PublishError, match="HF_HUB_OFFLINE is set"):
        hub.push(plane_export, "org/plane")
    with pytest.raises(ValueError, match="has no README.md card"):
        hub.push(tmp_path, "org/plane")
    with pytest.raises(PublishError, match="must be ORG/NAME"):
        hub.push(plane_export, "plane")


# Downloads: the Hub cache as `snapshot_download` leaves it, read offline by the real client.


def plant_snapshot(cache: Path, repo_id: str, tag: str, source: Path, configs=None) -> Path:
    repo = cache / f"datasets--{repo_id.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    (repo / "refs" / tag).write_text(COMMIT)
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / "README.md", snapshot / "README.md")
    for config in configs or [p.name for p in source.iterdir() if p.is_dir()]:
        shutil.copytree(source / config, snapshot / config)
    return snapshot


def test_load_reads_the_pinned_version_offline(plane_export, tmp_path):
    plant_snapshot(tmp_path, "compsem/plane", TAG, plane_export)
    dataset = hub.load("plane", "goood_split_2", version=VERSION, cache_dir=tmp_path)
    for split, frame in read_config(plane_export, "goood_split_2").items():
        assert dataset[split]["id"] == list(frame.id)
    test = hub.load("compsem/plane", "goood_split_2", TAG, split="test", cache_dir=tmp_path)
    assert len(test) == len(dataset["test"])


def test_a_local_export_folder_loads_without_the_hub(plane_export):
    dataset = hub.load(str(plane_export), "one_it_split_1")
    assert set(dataset) == {"train", "validation", "test"}


def test_a_local_export_of_another_version_is_refused_naming_both(plane_export):
    with pytest.raises(PublishError, match=rf"holds version {VERSION}, not v9\.9\.9"):
        hub.load(str(plane_export), "one_it_split_1", version="v9.9.9")
    assert len(hub.load(str(plane_export), "one_it_split_1", version=VERSION, split="test"))


def test_a_version_never_downloaded_offline_says_to_pull_it_online(plane_export, tmp_path):
    plant_snapshot(tmp_path, "compsem/plane", TAG, plane_export)
    with pytest.raises(PublishError, match=r"v1\.9\.0 is not in the local cache.*compsem pull"):
        hub.load("plane", "goood_split_2", version="1.9.0", cache_dir=tmp_path)


def test_an_incomplete_download_is_not_loaded_offline(plane_export, tmp_path):
    from huggingface_hub._tree_cache import TreeCacheEntry, write_tree_cache

    plant_snapshot(tmp_path, "compsem/plane", TAG, plane_export, configs=["full"])
    listing = {
        p.relative_to(plane_export).as_posix(): TreeCacheEntry(size=p.stat().st_size, blob_id="0")
        for p in plane_export.rglob("*")
        if p.is_file()
    }
    write_tree_cache(str(tmp_path / "datasets--compsem--plane"), COMMIT, listing)
    with pytest.raises(PublishError, match="not in the local cache"):
        hub.load("plane", "goood_split_2", version=VERSION, cache_dir=tmp_path)


def test_a_tag_whose_card_records_another_version_is_refused(plane_export, tmp_path):
    plant_snapshot(tmp_path, "compsem/plane", "v7.0.0", plane_export)
    with pytest.raises(PublishError, match=f"holds version {VERSION}, not v7.0.0"):
        hub.load("plane", "goood_split_2", version="7.0.0", cache_dir=tmp_path)


def test_pull_asks_for_the_tag_the_card_and_the_configs(
    plane_export, tmp_path, monkeypatch, capsys
):
    calls = []

    def snapshot_download(repo_id, *, repo_type, revision, allow_patterns, **kwargs):
        calls.append((repo_id, repo_type, revision, allow_patterns))
        folder = tmp_path / "download"
        files = [p.relative_to(plane_export).as_posix() for p in plane_export.rglob("*")]
        for path in filter_repo_objects(files, allow_patterns=allow_patterns):
            if (plane_export / path).is_file():
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(plane_export / path, folder / path)
        return str(folder)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    argv = ["pull", "my-org/plane", "--version", VERSION, "--config", "two_shot"]
    assert run_cli(argv) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "download")
    assert calls == [
        ("my-org/plane", "dataset", TAG, ["README.md"]),
        # load_dataset infers the format from the card's first config, so that comes too
        ("my-org/plane", "dataset", TAG, ["README.md", "two_shot/*", "full/*"]),
    ]
    assert len(load_dataset(str(tmp_path / "download"), "two_shot")["test"]) > 0
    assert run_cli(["pull", "my-org/plane", "--config", "goood_split_9"]) == 2
    assert "has no config(s) ['goood_split_9']" in capsys.readouterr().err


def test_pull_writes_only_into_a_new_or_empty_folder(tmp_path, monkeypatch, capsys):
    def snapshot_download(*args, **kwargs):
        raise AssertionError("nothing may be downloaded into a user's folder")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "README.md").write_text("my notes")
    assert run_cli(["pull", "my-org/plane", "--out", str(folder)]) == 2
    assert "already exists and is not empty" in capsys.readouterr().err
    assert (folder / "README.md").read_text() == "my notes"
    assert [p.name for p in folder.iterdir()] == ["README.md"]
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    assert run_cli(["pull", "my-org/plane", "--out", str(notes)]) == 2
    assert notes.read_text() == "mine"


def test_names_and_versions_are_checked():
    assert hub.resolve_repo("plane") == "compsem/plane"
    assert hub.normalise_version("1.0.0") == hub.normalise_version("v1.0.0") == "v1.0.0"
    with pytest.raises(PublishError, match="neither ORG/NAME"):
        hub.resolve_repo("plain")
    with pytest.raises(PublishError, match="not semantic"):
        hub.normalise_version("latest")
