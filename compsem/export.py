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

Optional, each with a fallback, so a module without them still exports and audits:

- ``CHANGELOG``: ``{version: change}``; the card renders it as ``changelog`` (newest first), and
  a version without an entry shows as such. Without it, ``changelog`` is empty.
- a ``regime`` attribute on each ``BuilderConfig``: groups configs into the card's regime
  sections (``regimes``) and picks the audit's checks. Without it, a config is its own regime.
- ``AUDIT_CHECKS``: ``{regime: [check, …]}`` (``"*"`` for any other regime), each check a
  callable ``(splits: dict[str, pyarrow.Table]) -> compsem.audit_checks.CheckResult`` for a
  promise of that regime (see ``compsem/audit_checks.py`` for ready-made ones such as
  ``vocabulary_disjoint`` and ``atoms_in_train``). Without it: only the generic checks
  (duplicates within and across splits, label distribution, hypothesis-only artefacts).
- ``AUDIT_INPUT_FIELDS`` (the columns that make a row's model input, for duplicate checks) and
  ``AUDIT_HYPOTHESIS_FIELD`` (the column a hypothesis-only probe reads). Without them:
  ``premise`` + ``hypothesis``, else the first of ``sentence``, ``prompt``, ``text``; and
  ``hypothesis`` when present.
- ``ORIGINAL_CONFIGS`` whose builder takes ``original_release=DIR``: lets ``compsem audit DIR
  --original NAME`` audit a published release as read by ``loading_scripts/``.
- ``export_files(config, provenance)``: ``{file name: text}`` written at the top of the export
  beside the card (RNPC: ``rule_agreement.json``). Without it: none.
- ``demo_kwargs()``: builder keyword arguments for ``compsem demo`` that change how fast the
  build runs but not what it holds (PLANE: parallel extraction). Without it: none.

Every template is rendered with ``card_data``, ``exports``, ``provenance``, ``citation`` (the
paper's BibTeX), ``version``, ``module``, ``regimes`` (``{regime: [config names]}``),
``fingerprints`` (``{config: content fingerprint}``), ``changelog``, ``compsem_bibtex`` and
``audit_start`` / ``audit_end`` / ``not_audited`` (the markers ``compsem audit`` writes between).
Each split's statistics also hold its content ``fingerprint`` (``compsem/versioning.py``).
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

from compsem import card as cards
from compsem.versioning import config_fingerprint, dataset_fingerprint

BENCHMARKS = {
    "plane": "compsem.builders.plane.builder",
    "rnpc": "compsem.builders.rnpc.builder",
    "seti": "compsem.builders.seti.builder",
    "booqa": "compsem.builders.booqa.builder",
    "montague": "compsem.builders.montague.builder",
}
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
            counts = Counter(table[name].to_pylist()).items()
            statistics[name] = dict(sorted(counts, key=lambda item: (item[0] is None, item[0])))
    for name in module.VOCABULARY_FIELDS:
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


def benchmark_name(module) -> str:
    """The name under which ``module`` is registered in ``BENCHMARKS``."""
    for name, path in BENCHMARKS.items():
        if path == module.__name__:
            return name
    return module.__name__.rsplit(".", 1)[-1]


def config_regimes(module, names: list[str]) -> dict[str, list[str]]:
    """``{regime: [config names]}`` in export order; a config without ``regime`` is its own."""
    configs = module.BUILDER.builder_configs
    regimes: dict[str, list[str]] = {}
    for name in names:
        regime = getattr(configs.get(name), "regime", None) or name
        regimes.setdefault(regime, []).append(name)
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


def card_data(module, exports: list[ConfigExport]) -> DatasetCardData:
    largest = max((sum(s["rows"] for s in e.statistics.values()) for e in exports), default=0)
    metadata = {"size_categories": [cards.size_category(largest)], **module.CARD_METADATA}
    metadata[cards.METADATA_KEY] = {
        "benchmark": benchmark_name(module),
        "version": str(module.BUILDER.VERSION),
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
                **({"default": True} if export.name == module.BUILDER.DEFAULT_CONFIG_NAME else {}),
            }
            for export in exports
        }
    ).to_dataset_card_data(data)
    DatasetInfosDict({export.name: export.info for export in exports}).to_dataset_card_data(data)
    return data


def render_card(module, exports: list[ConfigExport], provenance: dict) -> str:
    """The README.md of an export: the benchmark's template rendered with its metadata. The size
    category counts the largest config, as PLANE-like exports hold subsets of one item pool."""
    template = Path(str(importlib.resources.files("compsem.cards") / module.CARD_TEMPLATE))
    version = str(module.BUILDER.VERSION)
    card = DatasetCard.from_template(
        card_data(module, exports),
        template_path=str(template),
        exports=exports,
        provenance=provenance,
        citation=exports[0].info.citation.strip(),
        version=version,
        module=module,
        regimes=config_regimes(module, [export.name for export in exports]),
        fingerprints=card_fingerprints(exports),
        changelog=cards.render_changelog(getattr(module, "CHANGELOG", None), version),
        compsem_bibtex=cards.compsem_bibtex(version),
        audit_start=cards.AUDIT_START,
        audit_end=cards.AUDIT_END,
        not_audited=cards.NOT_AUDITED,
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
        export_files = getattr(module, "export_files", lambda config, provenance: {})
        for file_name, text in export_files(builder.config, provenance).items():
            (staging / file_name).write_text(text)
        (staging / "README.md").write_text(render_card(module, exports, provenance))
    return exports
