"""Publishing exports to the Hugging Face Hub, and loading them back at a pinned version.

``push`` uploads an export folder (its card and Parquet shards, nothing else, plus the Inspect
view and ``eval.yaml`` that make it a Hub benchmark: ``inspect_view``) as one commit and tags it
``vX.Y.Z``; the tag must match the version the card records, so a tag always names the
content its version promises. ``load`` and ``pull`` download one tag with ``snapshot_download``
and read the local folder with ``load_dataset``: offline, ``load_dataset("org/name",
revision=…)`` ignores the revision, while a downloaded snapshot stays pinned.

    import compsem
    plane = compsem.load("plane", "goood_split_2", version="1.0.0")

The token comes from ``hf auth login`` or ``HF_TOKEN`` (``huggingface_hub.get_token``); it is
passed to the client and never printed, logged or put into an error message.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import datasets
import huggingface_hub
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import constants
from huggingface_hub.errors import (
    HfHubHTTPError,
    IncompleteSnapshotError,
    LocalEntryNotFoundError,
    RevisionNotFoundError,
)

from compsem.benchmark import card as cards
from compsem.builders import BENCHMARKS
from compsem.files.export_reader import read_export, read_export_card
from compsem.files.names import check_name, check_repo_id
from compsem.publish.inspect_view import EVAL_FILE, stage_upload

DEFAULT_ORGANISATION = "compsem"
UPLOADED = ["README.md", EVAL_FILE, "*.parquet", "**/*.parquet"]
# Shards (and an Inspect task list) of an earlier version that this upload does not replace are
# deleted in the same commit, so a config's ``<split>-*.parquet`` pattern never picks up stale
# files and Inspect never reads tasks of configs that are gone.
REPLACED = [EVAL_FILE, "*.parquet", "**/*.parquet"]
_TAG = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")
_REPO_ID = re.compile(r"^[\w.-]+/[\w.-]+$")
_LOGIN_HELP = "run `hf auth login` or set HF_TOKEN to a token with write access"


class PublishError(RuntimeError):
    """A push, pull or load cannot go on: the message says why and what to do."""


@dataclass
class PushResult:
    repo_id: str
    commit: str
    url: str
    tag: str | None
    pr_url: str | None
    inspect_tasks: list[str] = field(default_factory=list)  # configs `inspect eval` runs


def normalise_version(version: str | None) -> str | None:
    """``"1.0.0"`` or ``"v1.0.0"`` → ``"v1.0.0"`` (the tag); None stays None (``main``)."""
    if version is None:
        return None
    tag = version if str(version).startswith("v") else f"v{version}"
    if not _TAG.match(tag):
        raise PublishError(f"Version {version!r} is not semantic (X.Y.Z, e.g. 1.0.0).")
    return tag


def check_export(folder: Path) -> dict:
    """Validate an export folder before upload; returns the card's ``compsem`` block."""
    folder = Path(folder)
    card = read_export(folder).card  # the card, and every data file it names, validated
    cards.check_card(str(card), f"{folder}/README.md")
    metadata = cards.compsem_metadata(card)
    if "version" not in metadata:
        raise PublishError(
            f"{folder}/README.md records no compsem version: rebuild it with `compsem build`."
        )
    script = folder / f"{folder.resolve().name}.py"
    if script.exists():  # datasets 4+ refuses folders holding <folder>.py (a loading script)
        raise PublishError(f"{script} would make the dataset unloadable: remove it.")
    return metadata


def _hub_error(error, repo_id: str) -> PublishError:
    status = getattr(getattr(error, "response", None), "status_code", None)
    if status == 401:
        return PublishError(f"The Hub rejected the token (HTTP 401): {_LOGIN_HELP}.")
    if status == 403:
        return PublishError(
            f"The token may not write to {repo_id} (HTTP 403): use a token with write access to "
            f"its organisation ({_LOGIN_HELP})."
        )
    if status == 404:
        return PublishError(f"{repo_id} was not found on the Hub (HTTP 404).")
    return PublishError(f"The Hub refused the request for {repo_id}: {error}")


def _unreachable(error: Exception) -> bool:
    """A network failure of the HTTP client (no connection, timeout), whatever its package."""
    return type(error).__module__.split(".")[0].startswith(("httpx", "httpcore", "requests"))


def _token() -> str:
    if constants.HF_HUB_OFFLINE:
        raise PublishError("HF_HUB_OFFLINE is set: unset it to push to the Hub.")
    token = huggingface_hub.get_token()
    if not token:
        raise PublishError(f"No Hugging Face token found: {_LOGIN_HELP}.")
    return token


def push(
    folder: str | os.PathLike,
    repo_id: str,
    tag: str | None = None,
    revision: str | None = None,
    private: bool = False,
    create_pr: bool = False,
) -> PushResult:
    """Upload an export folder to the dataset repo ``repo_id`` in one commit, then tag it."""
    folder = Path(folder)
    if not _REPO_ID.match(repo_id):
        raise PublishError(f"--repo-id must be ORG/NAME, got {repo_id!r}.")
    check_repo_id(repo_id, "--repo-id")
    metadata = check_export(folder)
    version = str(metadata["version"])
    tag = normalise_version(tag)
    if tag is not None and tag != normalise_version(version):
        raise PublishError(
            f"Tag {tag} does not match version {version} recorded in {folder}/README.md: tag "
            f"it v{version}, or bump VERSION and rebuild."
        )
    api = huggingface_hub.HfApi(token=_token())
    try:
        api.whoami()
        try:
            read_export_card(folder).validate(repo_type="dataset")
        except ValueError as error:  # the Hub's card validation answers 400 with its reasons
            raise PublishError(f"The Hub rejected {folder}/README.md: {error}") from None
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        if tag is not None:
            existing = {ref.name for ref in api.list_repo_refs(repo_id, repo_type="dataset").tags}
            if tag in existing:
                raise PublishError(
                    f"{repo_id} already has tag {tag}: published versions are immutable; bump "
                    "VERSION, rebuild and push the new version."
                )
        if revision not in (None, "main"):
            api.create_branch(repo_id, branch=revision, repo_type="dataset", exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="compsem-push-") as staging:
            tasks = stage_upload(read_export(folder), Path(staging), repo_id)
            check_export(Path(staging))  # what goes up is a valid export too
            commit = api.upload_folder(
                repo_id=repo_id,
                repo_type="dataset",
                folder_path=staging,
                revision=revision,
                create_pr=create_pr,
                allow_patterns=UPLOADED,
                delete_patterns=REPLACED,
                commit_message=f"{metadata.get('benchmark', 'dataset')} {version} (compsem)",
                commit_description="Generated by `compsem build`; see the card for provenance"
                + (f"; `inspect eval hf/{repo_id}` runs {len(tasks)} task(s)." if tasks else "."),
            )
        if tag is not None:
            api.create_tag(
                repo_id,
                tag=tag,
                revision=commit.oid,
                repo_type="dataset",
                tag_message=f"{metadata.get('benchmark', 'dataset')} {version}",
            )
    except HfHubHTTPError as error:
        raise _hub_error(error, repo_id) from None
    except Exception as error:
        if _unreachable(error):
            raise PublishError(f"Cannot reach the Hub ({type(error).__name__}): {error}") from None
        raise
    return PushResult(repo_id, commit.oid, commit.commit_url, tag, commit.pr_url, tasks)


def resolve_repo(name_or_repo: str) -> str:
    """``plane`` → ``compsem/plane``; ``org/name`` stays as it is."""
    if "/" in name_or_repo:
        return check_repo_id(name_or_repo)
    if name_or_repo not in BENCHMARKS:
        raise PublishError(
            f"{name_or_repo!r} is neither ORG/NAME, a local folder, nor a benchmark "
            f"({', '.join(BENCHMARKS)})."
        )
    return f"{DEFAULT_ORGANISATION}/{name_or_repo}"


def _snapshot(repo_id: str, revision: str | None, patterns: list[str] | None, **kwargs) -> Path:
    where = f"{repo_id} at {revision or 'main'}"
    try:
        return Path(
            huggingface_hub.snapshot_download(
                repo_id,
                repo_type="dataset",
                revision=revision,
                allow_patterns=patterns,
                **kwargs,
            )
        )
    except RevisionNotFoundError:
        raise PublishError(
            f"{repo_id} has no version {revision}: see its tags on the Hub."
        ) from None
    except (LocalEntryNotFoundError, IncompleteSnapshotError):
        version = f" --version {revision.removeprefix('v')}" if revision else ""
        raise PublishError(
            f"{where} is not in the local cache and the Hub cannot be reached: run "
            f"`compsem pull {repo_id}{version}` once online."
        ) from None
    except HfHubHTTPError as error:
        raise _hub_error(error, repo_id) from None


def check_pull_folder(local_dir: str | os.PathLike | None) -> None:
    """``snapshot_download`` into a folder overwrites files of the same names there, so a pull
    writes only into a new or empty folder: one clear error, before any download, otherwise."""
    if local_dir is None:
        return
    folder = Path(local_dir)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise PublishError(
            f"--out {folder} already exists and is not empty: a pull writes only into a new or "
            "empty folder (it would replace files of the same names there); choose a new folder."
        )


def pull(
    name_or_repo: str,
    version: str | None = None,
    configs: list[str] | None = None,
    local_dir: str | os.PathLike | None = None,
    cache_dir: str | os.PathLike | None = None,
) -> Path:
    """Download one version (a tag; ``main`` without one) of a dataset repo and return the local
    folder: all of it, or the card and the named configs. Offline it returns the cached snapshot
    of that tag, or fails clearly if it was never downloaded."""
    repo_id, revision = resolve_repo(name_or_repo), normalise_version(version)
    check_pull_folder(local_dir)
    kwargs = {"local_dir": local_dir, "cache_dir": cache_dir}
    patterns = None
    if configs:
        card = cards.read_card(_snapshot(repo_id, revision, ["README.md"], **kwargs))
        listed = list(MetadataConfigs.from_dataset_card_data(card.data))
        for name in listed:
            check_name(name, "config", f"the card of {repo_id}")
        unknown = [config for config in configs if config not in listed]
        if unknown:
            raise PublishError(f"{repo_id} has no config(s) {unknown}; it has {listed}.")
        # load_dataset infers the file format from the card's first config: fetch it too.
        wanted = dict.fromkeys([*configs, listed[0]])
        patterns = ["README.md", *(f"{config}/*" for config in wanted)]
    folder = _snapshot(repo_id, revision, patterns, **kwargs)
    recorded = cards.compsem_metadata(cards.read_card(folder)).get("version")
    if revision and recorded and normalise_version(str(recorded)) != revision:
        raise PublishError(
            f"{repo_id} at {revision} holds version {recorded}, not {revision}: the tag is wrong."
        )
    return folder


def check_local_version(folder: Path, version: str | None) -> None:
    """A local export holds one version: asking for another is an error, not a silent load."""
    wanted = normalise_version(version)
    if wanted is None:
        return
    recorded = cards.compsem_metadata(cards.read_card(folder)).get("version")
    if recorded is None or normalise_version(str(recorded)) != wanted:
        raise PublishError(
            f"{folder} holds version {recorded or '(none recorded)'}, not {wanted}: load it "
            f"without version=, or pass the export of {wanted}"
        )


def load(
    name_or_repo: str,
    config: str | None = None,
    version: str | None = None,
    split: str | None = None,
    cache_dir: str | os.PathLike | None = None,
    **load_kwargs,
):
    """``load_dataset`` on a pinned download of ``name_or_repo`` (``plane``, ``org/name`` or a
    local export folder); ``version`` is ``"1.0.0"`` (the tag ``v1.0.0``), None for ``main``."""
    if Path(name_or_repo).is_dir():
        folder = Path(name_or_repo)
        check_local_version(folder, version)
    else:
        folder = pull(name_or_repo, version, [config] if config else None, cache_dir=cache_dir)
    read_export(folder, only=[config] if config else None)  # names, files confined and regular
    return datasets.load_dataset(str(folder), config, split=split, **load_kwargs)
