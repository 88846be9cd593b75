"""The split auditor: does each config keep what its split regime promises?

For every config of an export folder (or of an original release read through
``loading_scripts/``), the auditor runs the checks its regime promises (the benchmark spec's
``audit_checks``, see ``compsem/benchmark/audit_checks.py``), the checks every regime promises (no
duplicate within or across splits), reports the label distribution, and measures
hypothesis-only artefacts (``compsem/benchmark/hypothesis_only.py``). A broken promise makes
``compsem audit`` exit non-zero; the report goes to stdout, optionally to JSON, and into the
card's audit section.

    from compsem.publish.audit import audit_folder
    report = audit_folder("hub/plane")
    report.ok, report.broken()
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import datasets
import pyarrow as pa
from tqdm.auto import tqdm

from compsem.benchmark import audit_checks as checks
from compsem.benchmark import card as cards
from compsem.benchmark.audit_checks import CheckResult
from compsem.benchmark.hypothesis_only import ProbeResult, probe
from compsem.benchmark.spec import BenchmarkSpec
from compsem.builders import BENCHMARKS, benchmark_spec
from compsem.files.content_fingerprint import read_parquet, read_split_tables
from compsem.files.export_reader import read_export as read_card_files
from compsem.publish.audit_report import (
    AuditReport,
    ConfigAudit,
    format_number,
    write_audit_section,
)
from compsem.publish.export import export_benchmark

# How far the hypothesis-only probe's accuracy on validation may lie from its accuracy on test
# where validation is promised to be drawn the way test is: a validation that shares train's
# vocabulary gives the probe away (PLANE 2.1.0's One-IT validation: 0.999 against test's 0.50).
VALIDATION_PROBE_GAP = 0.10


class AuditError(ValueError):
    """The folder cannot be audited: the message says why and what to do."""


def detect_benchmark(card) -> str | None:
    """The benchmark named in the card's ``compsem`` block. Config names alone do not say it
    (``full`` is a config of several benchmarks, or of anyone's dataset): without a card the
    user names the benchmark."""
    named = cards.compsem_metadata(card).get("benchmark") if card is not None else None
    return named if named in BENCHMARKS else None


def read_export(folder: Path) -> dict[str, dict[str, pa.Table]]:
    """``{config: {split: table}}`` from the card's ``configs`` (data files per split), or from
    ``<config>/<split>-*.parquet`` folders where there is no card."""
    folder = Path(folder)
    if not folder.is_dir():
        raise AuditError(f"{folder} is not a folder: pass an export folder (compsem build --out).")
    configs: dict[str, dict[str, pa.Table]] = {}
    if (folder / "README.md").exists() or (folder / "README.md").is_symlink():
        try:
            export = read_card_files(folder)
        except ValueError as error:
            raise AuditError(str(error)) from None
        for name, splits in export.configs.items():
            configs[name] = {
                split: pa.concat_tables(read_parquet(p) for p in paths)
                for split, paths in splits.items()
            }
    else:
        for path in sorted(
            p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")
        ):
            splits = read_split_tables(folder, path.name)
            if splits:
                configs[path.name] = splits
    if not configs:
        raise AuditError(f"{folder} holds no Parquet configs: point at a `compsem build` folder.")
    return configs


def audit_config(
    name: str,
    splits: dict[str, pa.Table],
    spec: BenchmarkSpec | None = None,
    hypothesis_only: bool = True,
    max_hypothesis_only_aucnorm: float | None = None,
) -> ConfigAudit:
    """Run one config's checks: its regime's promises (where the benchmark is known), then the
    generic ones."""
    regime = spec.config_regime(name) if spec else None
    input_fields = spec.audit_input_fields if spec else None
    audit = ConfigAudit(name, regime, {split: t.num_rows for split, t in splits.items()})
    label_names = None
    first = next(iter(splits.values()))
    if first.schema.metadata and b"huggingface" in first.schema.metadata:
        label = datasets.Features.from_arrow_schema(first.schema).get("label")
        label_names = getattr(label, "names", None)
    generic = [
        checks.no_duplicates_within(input_fields),
        checks.no_duplicates_across(input_fields),
        checks.single_label_splits(label_names),
    ]
    promised = spec.regime_checks(regime) if spec else []
    for check in [*promised, *generic]:
        audit.checks.append(check(splits))
    if not any(c.name == "labels balanced" and c.passed is not None for c in audit.checks):
        audit.checks.append(checks.label_distribution(names=label_names)(splits))
    if hypothesis_only:
        fields = spec.audit_hypothesis_fields if spec else ("hypothesis",)
        audit.probe_field = next((f for f in fields if f in first.column_names), fields[0])
        audit.probes = probe(splits, audit.probe_field)
        promised = spec is not None and regime in spec.audit_validation_as_test
        gap = validation_like_test(audit.probes, promised)
        if gap is not None:
            audit.checks.append(gap)
        if max_hypothesis_only_aucnorm is not None:
            audit.checks.append(_probe_ceiling(audit.probes, max_hypothesis_only_aucnorm))
    return audit


def validation_like_test(probes: list[ProbeResult], promised: bool) -> CheckResult | None:
    """Whether the hypothesis-only probe scores validation like test (accuracy within
    :data:`VALIDATION_PROBE_GAP`): a validation the probe finds easier than test selects models
    for what test does not measure. None where either split has no probe accuracy."""
    scored = {p.evaluated_on: p for p in probes if p.accuracy is not None}
    if "validation" not in scored or "test" not in scored:
        return None
    validation, test = scored["validation"], scored["test"]
    gap = abs(validation.accuracy - test.accuracy)
    detail = (
        f"accuracy validation {validation.accuracy:.3f}, test {test.accuracy:.3f} "
        f"(gap {gap:.3f}); AUCnorm validation {format_number(validation.aucnorm)}, "
        f"test {format_number(test.aucnorm)}"
    )
    return CheckResult(
        f"validation's hypothesis-only accuracy within {VALIDATION_PROBE_GAP:g} of test's",
        gap <= VALIDATION_PROBE_GAP + 1e-9,
        detail,
        promised=promised,
        numbers={"validation": validation.accuracy, "test": test.accuracy, "gap": gap},
    )


def _probe_ceiling(probes: list[ProbeResult], ceiling: float) -> CheckResult:
    name = f"hypothesis-only AUCnorm ≤ {ceiling:g}"
    scored = [p for p in probes if p.aucnorm is not None]
    if not scored:
        return CheckResult(name, None, "no hypothesis-only AUCnorm to compare")
    worst = max(scored, key=lambda p: p.aucnorm)
    detail = f"highest {worst.aucnorm:.3f} on {worst.evaluated_on}"
    return CheckResult(name, worst.aucnorm <= ceiling, detail)


def audit_tables(
    configs: dict[str, dict[str, pa.Table]],
    source: str,
    benchmark: str | None = None,
    version: str | None = None,
    hypothesis_only: bool = True,
    max_hypothesis_only_aucnorm: float | None = None,
) -> AuditReport:
    spec = benchmark_spec(benchmark) if benchmark else None
    report = AuditReport(source, benchmark, version, [])
    for name, splits in tqdm(configs.items(), desc="Auditing configs", unit="config"):
        report.configs.append(
            audit_config(name, splits, spec, hypothesis_only, max_hypothesis_only_aucnorm)
        )
    return report


def audit_folder(
    folder: str | Path,
    benchmark: str | None = None,
    configs: list[str] | None = None,
    hypothesis_only: bool = True,
    max_hypothesis_only_aucnorm: float | None = None,
    write_card: bool = True,
) -> AuditReport:
    """Audit an export folder; with ``write_card``, put the report into its README.md."""
    folder = Path(folder)
    tables = read_export(folder)
    if configs:
        unknown = sorted(set(configs) - set(tables))
        if unknown:
            raise AuditError(f"{folder} has no config(s) {unknown}; it has {sorted(tables)}.")
        tables = {name: tables[name] for name in configs}
    card = cards.read_card(folder) if (folder / "README.md").is_file() else None
    benchmark = benchmark or detect_benchmark(card)
    if benchmark is None:
        raise AuditError(
            f"Cannot tell which benchmark {folder} holds: it has no compsem card (README.md) and "
            f"its configs {sorted(tables)} name none; pass --benchmark NAME "
            f"(one of {', '.join(BENCHMARKS)})."
        )
    version = cards.compsem_metadata(card).get("version") if card is not None else None
    report = audit_tables(
        tables, str(folder), benchmark, version, hypothesis_only, max_hypothesis_only_aucnorm
    )
    if write_card and card is not None:
        report.card_note = write_audit_section(folder, report)
    return report


def audit_release(
    benchmark: str,
    release: str | Path,
    configs: list[str] | None = None,
    hypothesis_only: bool = True,
    max_hypothesis_only_aucnorm: float | None = None,
) -> AuditReport:
    """Audit a benchmark's original release, read by its builder's ``original_release`` input
    (the readers in ``loading_scripts/``), config by config as our schema."""
    originals = benchmark_spec(benchmark).original_configs
    if not originals:
        raise AuditError(f"{benchmark} has no reader for its original release.")
    names = configs or originals
    unknown = sorted(set(names) - set(originals))
    if unknown:
        raise AuditError(f"{unknown} are not original {benchmark} configs; use {originals}.")
    with tempfile.TemporaryDirectory(prefix="compsem-audit-") as scratch:
        out = Path(scratch) / benchmark
        export_benchmark(benchmark, out, names, original_release=str(release))
        tables = read_export(out)
    return audit_tables(
        tables,
        f"{benchmark} original release ({release})",
        benchmark,
        "original release",
        hypothesis_only,
        max_hypothesis_only_aucnorm,
    )
