"""Hub-ready export: every config of a benchmark as Parquet shards plus a README.md card.

The folder is what ``compsem push`` uploads and what ``load_dataset(folder, config)`` reads:
``<config>/<split>-0000i-of-0000n.parquet`` and a card whose YAML holds ``configs:`` (data
files per split) and ``dataset_info`` (features with ClassLabel names, exact split sizes).
Exports are atomic and replace only compsem's own folders (:mod:`compsem.files.output_folder`): everything
is written to a hidden sibling folder that replaces the target only once complete, so an
interrupted or failed build leaves the previous export intact.

A benchmark is a :class:`compsem.benchmark.spec.BenchmarkSpec` registered in ``compsem.builders.BENCHMARKS``.

Every template is rendered with ``card_data``, ``exports``, ``provenance``, ``settings`` (the
build settings of ``compsem.benchmark.settings.settings_table``), ``citation`` (the paper's BibTeX),
``version``, ``spec``, the spec's ``card_context``, ``regimes`` (``{regime: [config names]}``),
``fingerprints`` (``{config: content fingerprint}``), ``changelog``, ``compsem_bibtex`` and
``audit_start`` / ``audit_end`` / ``not_audited`` (the markers ``compsem audit`` writes between)
and ``row_order`` (how rows are ordered, :mod:`compsem.benchmark.grouping`).
Each split's statistics also hold its content ``fingerprint`` (``compsem/publish/versioning.py``).
"""

from __future__ import annotations

import math
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import datasets
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

from compsem.benchmark import card as cards
from compsem.benchmark.grouping import ROW_ORDER_NOTE
from compsem.benchmark.settings import settings_table
from compsem.benchmark.size_floor import size_warnings
from compsem.benchmark.spec import BenchmarkSpec
from compsem.builders import benchmark_spec
from compsem.files.content_fingerprint import config_fingerprint, dataset_fingerprint
from compsem.files.output_folder import atomic_folder, check_output_folder, read_marker
from compsem.files.ownership import foreign_paths
from compsem.publish.export_key import build_key

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


def check_config_names(builder_cls, names: list[str]) -> None:
    known = [config.name for config in builder_cls.BUILDER_CONFIGS]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ExportError(
            f"Unknown config(s) {', '.join(map(repr, unknown))}; available: {', '.join(known)}."
        )


def split_statistics(dataset: datasets.Dataset, spec: BenchmarkSpec) -> dict:
    """Rows, label balance, the distribution of each of the benchmark's ``statistics_fields``
    and the number of distinct values of each of its ``vocabulary_fields`` in one split."""
    table = dataset.data.table
    label_names = dataset.features["label"].names
    labels = Counter(table["label"].to_pylist())
    statistics = {
        "rows": len(dataset),
        "labels": {label_names[index]: labels.get(index, 0) for index in range(len(label_names))},
    }
    for name in spec.statistics_fields:
        if name in table.column_names:
            counts = Counter(table[name].to_pylist()).items()
            statistics[name] = dict(sorted(counts, key=lambda item: (item[0] is None, item[0])))
    for name in spec.vocabulary_fields:
        if name in table.column_names:
            statistics[f"distinct_{name}s"] = len(table[name].drop_null().unique())
    statistics["fingerprint"] = dataset_fingerprint(dataset)
    return statistics


def write_parquet_shards(dataset: datasets.Dataset, folder: Path, split: str) -> list[Path]:
    shards = max(1, math.ceil(len(dataset) / MAX_SHARD_ROWS))
    paths = []
    for index in range(shards):
        path = folder / f"{split}-{index:05d}-of-{shards:05d}.parquet"
        dataset.shard(shards, index, contiguous=True).to_parquet(str(path))
        paths.append(path)
    return paths


def record_sizes(info: datasets.DatasetInfo) -> None:
    """The card's sizes are those of the Parquet files it ships, which depend only on the rows:
    the Arrow cache's own byte counts differ between a cold and a warm build of the same data."""
    info.dataset_size = sum(split.num_bytes for split in info.splits.values())
    info.download_size = info.dataset_size
    info.size_in_bytes = info.dataset_size
    info.download_checksums = None


def config_regimes(spec: BenchmarkSpec, names: list[str]) -> dict[str, list[str]]:
    """``{regime: [config names]}`` in export order; a config without ``regime`` is its own."""
    regimes: dict[str, list[str]] = {}
    for name in names:
        regimes.setdefault(spec.config_regime(name) or name, []).append(name)
    return regimes


def card_fingerprints(exports: list[ConfigExport]) -> dict[str, str]:
    """``{config: content fingerprint}`` from the split fingerprints the statistics hold."""
    return {
        export.name: config_fingerprint(
            {split: stats["fingerprint"] for split, stats in export.statistics.items()}
        )
        for export in exports
        if all("fingerprint" in stats for stats in export.statistics.values())
    }


def card_data(spec: BenchmarkSpec, exports: list[ConfigExport]) -> DatasetCardData:
    largest = max((sum(s["rows"] for s in e.statistics.values()) for e in exports), default=0)
    metadata = {"size_categories": [cards.size_category(largest)], **spec.card_metadata}
    metadata[cards.METADATA_KEY] = {
        "benchmark": spec.name,
        "version": spec.version,
        "fingerprints": card_fingerprints(exports),
    }
    data = DatasetCardData(**metadata)
    MetadataConfigs(
        {
            export.name: {
                "data_files": [
                    {"split": split, "path": f"{export.name}/{split}-*.parquet"}
                    for split in export.statistics
                ],
                **({"default": True} if export.name == spec.builder.DEFAULT_CONFIG_NAME else {}),
            }
            for export in exports
        }
    ).to_dataset_card_data(data)
    DatasetInfosDict({export.name: export.info for export in exports}).to_dataset_card_data(data)
    return data


def render_card(
    spec: BenchmarkSpec,
    exports: list[ConfigExport],
    config: datasets.BuilderConfig,
    provenance: dict,
) -> str:
    """The README.md of an export: the benchmark's template rendered with its metadata and the
    provenance and settings of ``config``. The size category counts the largest config, as
    PLANE-like exports hold subsets of one item pool."""
    card = DatasetCard.from_template(
        card_data(spec, exports),
        template_path=str(spec.card_template),
        exports=exports,
        provenance=provenance,
        settings=settings_table(config),
        citation=exports[0].info.citation.strip(),
        version=spec.version,
        spec=spec,
        regimes=config_regimes(spec, [export.name for export in exports]),
        fingerprints=card_fingerprints(exports),
        changelog=cards.render_changelog(spec.changelog, spec.version),
        compsem_bibtex=cards.compsem_bibtex(spec.version),
        audit_start=cards.AUDIT_START,
        audit_end=cards.AUDIT_END,
        not_audited=cards.NOT_AUDITED,
        row_order=ROW_ORDER_NOTE,
        size_warnings=size_warnings(export_summary(exports)),
        **spec.card_context,
    )
    return str(card)


def export_kind(spec: BenchmarkSpec) -> str:
    return f"{spec.name} export"


def export_benchmark(
    benchmark: str | BenchmarkSpec,
    out: Path,
    config_names: list[str] | None = None,
    force: bool = False,
    **config_kwargs,
) -> list[ConfigExport]:
    """Build the named configs of a benchmark (its spec, or its registered name) and write
    them, with a card, to ``out`` (a new path or a compsem export: see
    :func:`compsem.files.output_folder.check_output_folder` for what ``force`` allows)."""
    spec = benchmark if isinstance(benchmark, BenchmarkSpec) else benchmark_spec(benchmark)
    config_names = config_names or spec.default_config_names(config_kwargs)
    check_config_names(spec.builder, config_names)
    kind = export_kind(spec)
    check_output_folder(out, kind, force=force, configs=config_names)
    marker = {"kind": kind, "version": spec.version, "configs": config_names}
    marker["build_key"] = build_key(spec, config_names, config_kwargs)
    exports = []
    with atomic_folder(out, marker, force=force, configs=config_names) as staging:
        builders = [
            spec.builder(config_name=name, cache_dir=str(staging / ".arrow"), **config_kwargs)
            for name in config_names
        ]
        spec.prepare([builder.config for builder in builders])
        for config_name, builder in zip(config_names, builders, strict=True):
            builder.download_and_prepare(download_mode=datasets.DownloadMode.FORCE_REDOWNLOAD)
            dataset_dict = builder.as_dataset()
            export = ConfigExport(config_name, spec.describe_config(builder.config), builder.info)
            for split, dataset in dataset_dict.items():
                (staging / config_name).mkdir(exist_ok=True)
                paths = write_parquet_shards(dataset, staging / config_name, split)
                export.statistics[split] = split_statistics(dataset, spec)
                export.info.splits[split].num_bytes = sum(path.stat().st_size for path in paths)
            record_sizes(export.info)
            exports.append(export)
            del dataset_dict
        shutil.rmtree(staging / ".arrow")
        provenance = spec.provenance(builder.config)
        for name, text in spec.export_files(builder.config, provenance).items():
            (staging / name).write_text(text)
        (staging / "README.md").write_text(render_card(spec, exports, builder.config, provenance))
        marker["summary"] = export_summary(exports)
    return exports


def export_summary(exports: list[ConfigExport]) -> list[dict]:
    """One row per config and split, in export order: ``config``, ``split``, ``rows`` and
    ``labels`` (``[name, count]`` pairs in label order); what ``compsem demo`` prints."""
    return [
        {
            "config": export.name,
            "split": split,
            "rows": statistics["rows"],
            "labels": [[name, count] for name, count in statistics["labels"].items()],
        }
        for export in exports
        for split, statistics in export.statistics.items()
    ]


def kept_summary(benchmark: str | BenchmarkSpec, out: Path, **config_kwargs) -> list | None:
    """The summary of the export in ``out`` when building all configs of ``benchmark`` with
    these settings now would write the same (:mod:`compsem.publish.export_key`) and its files are as
    written; otherwise None."""
    spec = benchmark if isinstance(benchmark, BenchmarkSpec) else benchmark_spec(benchmark)
    marker = read_marker(out)
    if marker is None or marker["kind"] != export_kind(spec) or foreign_paths(out, marker):
        return None
    current = build_key(spec, spec.default_config_names(config_kwargs), config_kwargs)
    if marker.get("build_key") != current:
        return None
    return marker.get("summary")
