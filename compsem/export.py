"""Hub-ready export: every config of a benchmark as Parquet shards plus a README.md card.

The folder is what ``compsem push`` uploads and what ``load_dataset(folder, config)`` reads:
``<config>/<split>-0000i-of-0000n.parquet`` and a card whose YAML holds ``configs:`` (data
files per split) and ``dataset_info`` (features with ClassLabel names, exact split sizes).
Exports are atomic: everything is written to a hidden sibling folder that replaces the target
only once complete, so an interrupted or failed build leaves the previous export intact.

A benchmark is a module of ``compsem.builders`` named in ``BENCHMARKS`` that provides:
``BUILDER`` (a ``datasets`` builder class), ``CARD_TEMPLATE`` and ``CARD_METADATA``,
``default_config_names(kwargs)``, ``config_description(config)``, ``provenance(config)``,
``STATISTICS_FIELDS`` and ``VOCABULARY_FIELDS`` (what the card's tables count), ``DEMO_TITLE``,
and ``add_build_arguments(parser)`` / ``build_kwargs(args)`` for ``compsem build NAME``.
"""

from __future__ import annotations

import importlib
import math
import os
import shutil
import tempfile
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import datasets
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

BENCHMARKS = {"plane": "compsem.builders.plane"}
MAX_SHARD_ROWS = 500_000


class ExportError(RuntimeError):
    """The export cannot be written: the message says why and what to do."""


@dataclass
class ConfigExport:
    """What the card needs to know of one exported config."""

    name: str
    description: str
    info: datasets.DatasetInfo
    statistics: dict[str, dict] = field(default_factory=dict)


def benchmark_module(name: str):
    if name not in BENCHMARKS:
        raise ExportError(f"Unknown benchmark {name!r}; choose one of {sorted(BENCHMARKS)}.")
    return importlib.import_module(BENCHMARKS[name])


def check_config_names(builder_cls, names: list[str]) -> None:
    known = [config.name for config in builder_cls.BUILDER_CONFIGS]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ExportError(
            f"Unknown config(s) {', '.join(map(repr, unknown))}; available: {', '.join(known)}."
        )


def split_statistics(dataset: datasets.Dataset, module) -> dict:
    """Rows, label balance, the distribution of each of the benchmark's ``STATISTICS_FIELDS``
    and the number of distinct values of each of its ``VOCABULARY_FIELDS`` in one split."""
    table = dataset.data.table
    label_names = dataset.features["label"].names
    labels = Counter(table["label"].to_pylist())
    statistics = {
        "rows": len(dataset),
        "labels": {label_names[index]: labels.get(index, 0) for index in range(len(label_names))},
    }
    for name in module.STATISTICS_FIELDS:
        if name in table.column_names:
            statistics[name] = dict(sorted(Counter(table[name].to_pylist()).items()))
    for name in module.VOCABULARY_FIELDS:
        if name in table.column_names:
            statistics[f"distinct_{name}s"] = len(table[name].drop_null().unique())
    return statistics


def write_parquet_shards(dataset: datasets.Dataset, folder: Path, split: str) -> list[Path]:
    shards = max(1, math.ceil(len(dataset) / MAX_SHARD_ROWS))
    paths = []
    for index in range(shards):
        path = folder / f"{split}-{index:05d}-of-{shards:05d}.parquet"
        dataset.shard(shards, index, contiguous=True).to_parquet(str(path))
        paths.append(path)
    return paths


def card_data(module, exports: list[ConfigExport]) -> DatasetCardData:
    data = DatasetCardData(**module.CARD_METADATA)
    MetadataConfigs(
        {
            export.name: {
                "data_files": [
                    {"split": split, "path": f"{export.name}/{split}-*.parquet"}
                    for split in export.statistics
                ],
                **({"default": True} if export.name == module.BUILDER.DEFAULT_CONFIG_NAME else {}),
            }
            for export in exports
        }
    ).to_dataset_card_data(data)
    DatasetInfosDict({export.name: export.info for export in exports}).to_dataset_card_data(data)
    return data


def render_card(module, exports: list[ConfigExport], provenance: dict) -> str:
    template = Path(str(importlib.resources.files("compsem.cards") / module.CARD_TEMPLATE))
    card = DatasetCard.from_template(
        card_data(module, exports),
        template_path=str(template),
        exports=exports,
        provenance=provenance,
        citation=exports[0].info.citation.strip(),
        version=str(module.BUILDER.VERSION),
    )
    return str(card)


@contextmanager
def atomic_folder(out: Path):
    """Yield a fresh sibling folder; on success it replaces ``out``, on failure it vanishes."""
    out = Path(out).resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    except OSError as error:
        raise ExportError(
            f"Cannot write to {out.parent} ({error.strerror}); choose an --out folder you can "
            "write to."
        ) from None
    try:
        yield staging
        if out.exists():
            retired = out.with_name(f".{out.name}.old-{os.getpid()}")
            os.replace(out, retired)
            os.replace(staging, out)
            shutil.rmtree(retired)
        else:
            os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def export_benchmark(
    name: str, out: Path, config_names: list[str] | None = None, **config_kwargs
) -> list[ConfigExport]:
    """Build the named configs of a benchmark and write them, with a card, to ``out``."""
    module = benchmark_module(name)
    builder_cls = module.BUILDER
    config_names = config_names or module.default_config_names(config_kwargs)
    check_config_names(builder_cls, config_names)
    exports = []
    with atomic_folder(out) as staging:
        for config_name in config_names:
            builder = builder_cls(
                config_name=config_name, cache_dir=str(staging / ".arrow"), **config_kwargs
            )
            builder.download_and_prepare(download_mode=datasets.DownloadMode.FORCE_REDOWNLOAD)
            dataset_dict = builder.as_dataset()
            export = ConfigExport(
                config_name, module.config_description(builder.config), builder.info
            )
            for split, dataset in dataset_dict.items():
                (staging / config_name).mkdir(exist_ok=True)
                write_parquet_shards(dataset, staging / config_name, split)
                export.statistics[split] = split_statistics(dataset, module)
            exports.append(export)
            del dataset_dict
        shutil.rmtree(staging / ".arrow")
        provenance = module.provenance(builder.config)
        (staging / "README.md").write_text(render_card(module, exports, provenance))
    return exports
