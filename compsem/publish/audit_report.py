"""An audit's report: each config's checks and hypothesis-only probes, as JSON and as the Markdown
section the card shows (a table per config, each check's result, what a failed unpromised line
means), written between the card's audit markers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from compsem.benchmark import card as cards
from compsem.benchmark.audit_checks import CheckResult
from compsem.benchmark.hypothesis_only import ProbeResult
from compsem.benchmark.size_floor import size_warnings
from compsem.files.output_folder import read_marker
from compsem.files.ownership import restamp, stamp, writer_lock


@dataclass
class ConfigAudit:
    """The audit of one config."""

    config: str
    regime: str | None
    rows: dict[str, int]
    checks: list[CheckResult] = field(default_factory=list)
    probes: list[ProbeResult] = field(default_factory=list)
    probe_field: str | None = None  # the column the hypothesis-only probe read

    @property
    def broken(self) -> list[CheckResult]:
        return [check for check in self.checks if check.broken]


@dataclass
class AuditReport:
    """Every config's audit, with what was audited."""

    source: str
    benchmark: str | None
    version: str | None
    configs: list[ConfigAudit]
    card_note: str | None = None  # why the card was left as it was, where it was

    @property
    def ok(self) -> bool:
        return not self.broken()

    def broken(self) -> list[tuple[str, CheckResult]]:
        return [(audit.config, check) for audit in self.configs for check in audit.broken]

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "benchmark": self.benchmark,
            "version": self.version,
            "ok": self.ok,
            "configs": [
                {**asdict(audit), "broken": [check.name for check in audit.broken]}
                for audit in self.configs
            ],
        }

    def to_markdown(self) -> str:
        return render_markdown(self)


def _result(check: CheckResult) -> str:
    if check.passed is None:
        return "info"
    if check.passed:
        return "pass"
    return "**BROKEN**" if check.promised else "fail"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def format_number(value: float | None, percent: bool = False) -> str:
    """A share or score as the report prints it: three decimals, a percentage, or – for none."""
    if value is None:
        return "–"
    return f"{100 * value:.1f}%" if percent else f"{value:.3f}"


def _failed_unpromised(report: AuditReport) -> str:
    """``; N informational check(s) fail (not promised): name (configs); …`` for the checks
    that failed without being promised (none breaks the audit), or nothing where none did."""
    failed: dict[str, list[str]] = {}
    for audit in report.configs:
        for check in audit.checks:
            if check.passed is False and not check.promised:
                failed.setdefault(check.name, []).append(audit.config)
    if not failed:
        return ""
    count = sum(len(configs) for configs in failed.values())
    named = "; ".join(f"{name} ({', '.join(configs)})" for name, configs in failed.items())
    return f"; **{count} informational check(s) fail** (not promised): {named}"


def render_markdown(report: AuditReport) -> str:
    """The report as Markdown: a summary, every check per config, the hypothesis-only table."""
    broken = report.broken()
    what = report.benchmark or "this dataset"
    if report.version:
        what += f" {report.version}"
    too_small = size_warnings(
        {"config": audit.config, "split": split, "rows": rows}
        for audit in report.configs
        for split, rows in audit.rows.items()
    )
    lines = [
        f"`compsem audit` checked {len(report.configs)} config(s) of {what}: "
        + (
            "every promise holds"
            if not broken
            else f"**{len(broken)} broken promise(s)** in "
            f"{', '.join(sorted({config for config, _ in broken}))}"
        )
        + _failed_unpromised(report)
        + ".",
        *(f"\n**Too small to rank models**: {warning}" for warning in too_small),
        "",
        "| config | regime | check | result | detail |",
        "|---|---|---|---|---|",
    ]
    for audit in report.configs:
        for check in audit.checks:
            lines.append(
                f"| {audit.config} | {audit.regime or '–'} | {check.name} | {_result(check)} "
                f"| {_cell(check.detail)} |"
            )
    probes = [(audit, p) for audit in report.configs for p in audit.probes]
    fields = list(dict.fromkeys(audit.probe_field for audit, _ in probes))
    if probes:
        lines += [
            "",
            "Hypothesis-only artefacts: a bag-of-words logistic regression on "
            f"{' or '.join(f'`{f}`' for f in fields)} alone (without the rest of the input), "
            "as the BoOQA paper uses hypothesis-only models. Accuracy near the majority "
            "baseline (always the training set's commonest label) and AUCnorm near 0 mean the "
            "hypothesis alone gives little away. No AUCnorm where the probe scores every row "
            "alike (tied: none of the words it learned occurs there) or the split has one label.",
            "",
            "| config | trained on | evaluated on | rows | accuracy | majority | AUCnorm |",
            "|---|---|---|---:|---:|---:|---:|",
        ]
        for audit, p in probes:
            config = audit.config + (f" (`{audit.probe_field}`)" if len(fields) > 1 else "")
            lines.append(
                f"| {config} | {p.trained_on} ({p.train_rows}) | {p.evaluated_on} | {p.rows} "
                f"| {format_number(p.accuracy, True)} | {format_number(p.majority_accuracy, True)} "
                f"| {format_number(p.aucnorm)}{f' ({p.note})' if p.note else ''} |"
            )
    return "\n".join(lines)


def write_audit_section(folder: Path, report: AuditReport) -> str | None:
    """Replace the audit section of ``folder``'s card with ``report`` (atomically, keeping the
    card's permissions) when compsem wrote the export and its card is as compsem left it; else
    leave the card alone and return why."""
    folder = Path(folder)
    path = folder / "README.md"
    with writer_lock(folder):
        marker = read_marker(folder)
        if marker is None or path.is_symlink() or marker["files"].get("README.md") != stamp(path):
            return (
                f"{path} was left as it is: compsem writes the audit only into the card of an "
                "export it wrote, unchanged since; the report is printed above (--json FILE "
                "writes it to a file)."
            )
        text = cards.replace_audit_section(
            path.read_text(encoding="utf-8"), render_markdown(report)
        )
        cards.write_text_atomically(path, text)
        restamp(folder, "README.md")
    return None
