"""One config of a benchmark, from a Hub id or a local export folder, with its provenance."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import datasets
from datasets.data_files import EmptyDatasetError
from datasets.exceptions import DatasetGenerationError
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, hf_hub_download, is_offline_mode

from compsem.benchmark.card import compsem_metadata
from compsem.benchmark.presets import Preset
from compsem.files.bounded_read import read_text
from compsem.files.export_reader import (
    check_folder_files,
    read_export,
    read_export_card,
    view_names,
)
from compsem.files.fingerprint import file_fingerprint, fingerprint
from compsem.files.names import check_repo_id
from compsem.harness.data.presets import get_preset
from compsem.harness.data.schema import Schema, infer_schema

_HUB_REVISION = re.compile(r"@([0-9a-f]{40})/")


@dataclass
class Benchmark:
    """A loaded config: its splits, schema and preset, and what identifies the data."""

    path: str
    config: str
    splits: datasets.DatasetDict
    schema: Schema
    preset: Preset
    revision: str | None
    fingerprint: str
    card: dict

    def split(self, name: str, purpose: str = "evaluation") -> datasets.Dataset:
        """The named split, or an error listing those the config has."""
        if name not in self.splits:
            raise ValueError(
                f"config {self.config!r} of {self.path} has no {name!r} split for {purpose} "
                f"(it has {', '.join(self.splits)}); pick another config or split"
            )
        return self.splits[name]

    def train_split(self) -> datasets.Dataset:
        if "train" not in self.splits:
            raise ValueError(
                f"config {self.config!r} of {self.path} has no train split (it has "
                f"{', '.join(self.splits)}): fine-tune on a config with training data, or "
                "evaluate this one without training (zero-shot, prompt, score)"
            )
        return self.splits["train"]

    @property
    def benchmark(self) -> str:
        """The card's ``compsem`` benchmark, else the one the preset's signature columns name."""
        return self.card.get("benchmark") or self.preset.name

    def provenance(self, split: str | None = None) -> dict:
        return {
            "path": self.path,
            "config": self.config,
            "split": split,
            "revision": self.revision,
            "fingerprint": self.fingerprint,
            "version": self.card.get("version"),
            "card_fingerprint": (self.card.get("fingerprints") or {}).get(self.config),
            "preset": self.preset.name,
        }


def _resolve_path(dataset: str) -> str:
    """A local folder as an absolute path; anything else is taken as a Hub id."""
    path = Path(dataset).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ValueError(f"--dataset {dataset} is a file; pass an export folder or a Hub id")
        return str(path.resolve())
    looks_local = dataset.startswith((".", "/", "~")) or dataset.count("/") > 1
    if looks_local:
        # datasets would silently try this as a Hub id and fail with an unrelated message.
        raise ValueError(f"no folder {dataset}: pass an export folder that exists, or a Hub id")
    return check_repo_id(dataset, "--dataset (no such folder, nor a Hub id)")


def _check_config(path: str, config: str, revision: str | None) -> None:
    try:
        names = datasets.get_dataset_config_names(path, revision=revision)
    except ConnectionError as error:
        # datasets falls back to its cache before raising this, as load_dataset_builder would
        # after the same retries: say what to do now, not after a second round of them
        raise ValueError(_unreachable(path, error)) from None
    except Exception:  # noqa: BLE001 — let load_dataset_builder report anything else
        return
    if config not in names:
        raise ValueError(f"unknown config {config!r} of {path}; available: {', '.join(names)}")


def check_local_export(path: str, config: str) -> None:
    """Validate the card of a local export folder before ``datasets`` reads anything of it
    (:mod:`compsem.files.export_reader`): names, data files confined and regular, none missing.
    A folder without a card is read as ``datasets`` infers it, its files checked alike."""
    card = Path(path) / "README.md"
    if not Path(path).is_dir():
        return
    if not (card.exists() or card.is_symlink()):
        check_folder_files(path)
        return
    export = read_export(path, only=[config])
    if export.card.data.to_dict().get("configs") and config not in export.configs:
        views = view_names(export.card)
        names = [
            n for n in MetadataConfigs.from_dataset_card_data(export.card.data) if n not in views
        ]
        what = "an Inspect view (rows for `inspect eval`), not a config" if config in views else ""
        raise ValueError(
            f"unknown config {config!r} of {path}{f' ({what})' if what else ''}; available: "
            f"{', '.join(names)}"
        )


def data_fingerprint(data_files: dict) -> tuple[str, str | None]:
    """A content hash of local Parquet files, or the Hub commit the files were resolved at."""
    files = sorted(str(f) for split_files in data_files.values() for f in split_files)
    revisions = {m.group(1) for f in files if (m := _HUB_REVISION.search(f))}
    if revisions:
        return fingerprint(*files), revisions.pop() if len(revisions) == 1 else None
    return fingerprint(*(file_fingerprint(Path(f)) for f in files)), None


def card_metadata(path: str, revision: str | None) -> dict:
    """The card's ``compsem`` block (benchmark, version, content fingerprints), or {}: from the
    export folder, or the Hub card when it is reachable or cached."""
    try:
        if Path(path).is_dir():
            card = read_export_card(path)
        else:
            readme = hf_hub_download(path, "README.md", repo_type="dataset", revision=revision)
            card = DatasetCard(read_text(readme, "card"))
    except Exception:  # noqa: BLE001 — a dataset without a compsem card is still a dataset
        return {}
    return compsem_metadata(card)


@dataclass
class LoadedConfig:
    """One config of a dataset as ``datasets`` loads it, with what identifies the data."""

    path: str
    config: str
    splits: datasets.DatasetDict
    revision: str | None
    fingerprint: str
    card: dict


def load_config(dataset: str, config: str, revision: str | None = None) -> LoadedConfig:
    """Load ``config`` of ``dataset`` (Hub id or export folder) through ``datasets``, with its
    content fingerprint and the card's ``compsem`` block."""
    path = _resolve_path(dataset)
    check_local_export(path, config)
    _check_config(path, config, revision)
    try:
        builder = datasets.load_dataset_builder(path, config, revision=revision)
    except EmptyDatasetError:
        raise ValueError(
            f"{path} holds no dataset files: pass an export folder (compsem build NAME --out DIR) "
            "or a Hub id"
        ) from None
    except ValueError as error:
        if "not found" in str(error):
            raise ValueError(f"unknown config {config!r} of {path}: {error}") from None
        raise
    except ConnectionError as error:  # the Hub did not answer, and nothing of it is cached
        raise ValueError(_unreachable(path, error)) from None
    content, resolved = data_fingerprint(builder.config.data_files or {})
    try:
        builder.download_and_prepare()
    except DatasetGenerationError as error:  # a truncated or damaged Parquet shard
        cause = error.__cause__ or error
        raise ValueError(
            f"{path}: a data file of config {config!r} cannot be read ({str(cause)[:200]}); "
            "rebuild the export (compsem build) or download it again."
        ) from None
    return LoadedConfig(
        path=path,
        config=config,
        splits=builder.as_dataset(),
        revision=resolved or revision,
        fingerprint=content,
        card=card_metadata(path, revision),
    )


def _unreachable(path: str, error: ConnectionError) -> str:
    """What to do when ``path`` is no folder here and the Hub cannot give it."""
    if is_offline_mode():
        return (
            f"{path} is no folder here, and HF_HUB_OFFLINE is set while the local cache holds "
            "no copy of it: unset HF_HUB_OFFLINE to download it, or pass an export folder "
            "(compsem build NAME --out DIR)."
        )
    return (
        f"{path} is no folder here, and the Hub did not answer ({error}): connect to the "
        "internet, or pass an export folder (compsem build NAME --out DIR). On a machine "
        "without internet, set HF_HUB_OFFLINE=1: Hub ids then come from the local cache at "
        "once, where each command otherwise retries for half a minute first."
    )


def load_benchmark(
    dataset: str,
    config: str,
    revision: str | None = None,
    preset: str = "auto",
    input_form: str | None = None,
) -> Benchmark:
    """Load ``config`` of ``dataset`` (Hub id or export folder) through ``datasets``."""
    loaded = load_config(dataset, config, revision)
    features = next(iter(loaded.splits.values())).features
    chosen = get_preset(preset, features)
    return Benchmark(
        path=loaded.path,
        config=config,
        splits=loaded.splits,
        schema=_schema(features, config, input_form, preset, chosen),
        preset=chosen,
        revision=loaded.revision,
        fingerprint=loaded.fingerprint,
        card=loaded.card,
    )


def _schema(features, config: str, input_form: str | None, preset: str, chosen) -> Schema:
    """The config's schema; where the input form came from the preset rather than ``--input``,
    a mismatch names ``--preset`` (the flag the user passed), not ``--input``."""
    if input_form:
        return infer_schema(features, input_form)
    try:
        return infer_schema(features, chosen.input_form)
    except ValueError:
        columns = {"single": "a sentence column", "pair": "premise/hypothesis or event1/event2"}
        if chosen.input_form not in columns:
            raise
        raise ValueError(
            f"--preset {preset} ({chosen.name}'s settings) reads {chosen.input_form} input, "
            f"{columns[chosen.input_form]}, but config {config!r} has "
            f"{', '.join(features)}: use --preset auto (the preset of the config's own "
            "benchmark), or pass --input single|pair"
        ) from None
