"""A benchmark is one spec in the registry: a sixth one, registered here, builds from the command
line with flags derived from its settings, exports, loads and audits like the five."""

from dataclasses import dataclass

import datasets
import pyarrow as pa
import pytest
from datasets import load_dataset

from compsem.benchmark.audit_checks import CheckResult, label_balance
from compsem.benchmark.builder import TableBuilder
from compsem.benchmark.presets import Preset
from compsem.benchmark.settings import build_setting
from compsem.benchmark.spec import BenchmarkSpec
from compsem.builders import BENCHMARKS, benchmark_spec
from compsem.cli import main

LABELS = ["non_entailment", "entailment"]
TEMPLATE = """---
{{ card_data }}
---

# Parity

{% for export in exports %}- `{{ export.name }}`: {{ export.description }}
{% endfor %}
## Provenance

Built with seed {{ provenance.seed }} from {{ provenance.numbers }} numbers.

### Build settings

{{ settings }}

{{ audit_start }}
{{ not_audited }}
{{ audit_end }}
"""


@dataclass
class ParityConfig(datasets.BuilderConfig):
    regime: str = "all"
    size: int = build_setting(40, "numbers to pair up")
    seed: int = build_setting(0, "offset of the first number")


class Parity(TableBuilder):
    """Does n + 2 have the parity of n? (Always.) Does n + 1? (Never.)"""

    VERSION = datasets.Version("0.1.0")
    BUILDER_CONFIG_CLASS = ParityConfig
    BUILDER_CONFIGS = [ParityConfig(name="all"), ParityConfig(name="odd_only", regime="odd")]
    DEFAULT_CONFIG_NAME = "all"

    def _info(self):
        return datasets.DatasetInfo(
            features=datasets.Features(
                {
                    "id": datasets.Value("string"),
                    "premise": datasets.Value("string"),
                    "hypothesis": datasets.Value("string"),
                    "label": datasets.ClassLabel(names=LABELS),
                }
            )
        )

    def splits(self):
        numbers = range(self.config.seed, self.config.seed + self.config.size)
        if self.config.regime == "odd":
            numbers = [n for n in numbers if n % 2]
        rows = [
            {
                "id": f"{n}-{step}",
                "premise": f"{n} is {'even' if n % 2 == 0 else 'odd'}.",
                "hypothesis": f"{n + step} is {'even' if n % 2 == 0 else 'odd'}.",
                "label": int(step == 2),
            }
            for n in numbers
            for step in (1, 2)
        ]
        table = pa.Table.from_pylist(rows)
        half = len(table) // 2
        return {"train": table.slice(0, half), "test": table.slice(half)}


def same_numbers_nowhere_else(splits):
    """A regime's own promise, as a benchmark package would declare it."""
    shared = set(splits["train"]["premise"].to_pylist()) & set(
        splits["test"]["premise"].to_pylist()
    )
    return CheckResult("premises disjoint", not shared, f"{len(shared)} shared")


@pytest.fixture
def parity(tmp_path, monkeypatch) -> BenchmarkSpec:
    template = tmp_path / "parity.md"
    template.write_text(TEMPLATE)
    spec = BenchmarkSpec(
        name="parity",
        title="Parity, a sixth benchmark registered by a test",
        builder=Parity,
        card_template=template,
        card_metadata={"pretty_name": "Parity", "license": "cc0-1.0"},
        describe_config=lambda config: f"Pairs over {config.regime} numbers.",
        provenance=lambda config: {"seed": config.seed, "numbers": config.size},
        preset=Preset(name="parity", signature=frozenset({"premise", "hypothesis"})),
        audit_checks={"all": [same_numbers_nowhere_else, label_balance()]},
    )
    monkeypatch.setitem(BENCHMARKS, "parity", spec)
    return spec


def test_a_registered_benchmark_builds_exports_loads_and_audits(parity, tmp_path, capsys):
    out = tmp_path / "hub" / "parity"
    assert main(["build", "parity", "--out", str(out), "--size", "24", "--seed", "100"]) == 0
    assert "| all | train | 24 |" in capsys.readouterr().out

    loaded = load_dataset(str(out), "odd_only")
    assert loaded["train"].features["label"].names == LABELS
    assert "101 is odd." in loaded["train"]["premise"]
    card = (out / "README.md").read_text()
    assert "Built with seed 100 from 24 numbers." in card
    assert "| `--size` | `24` | numbers to pair up |" in card
    assert "benchmark: parity" in card

    assert main(["audit", str(out)]) == 0
    report = capsys.readouterr().out
    assert "premises disjoint" in report and "labels balanced" in report
    assert benchmark_spec("parity") is parity


def test_its_flags_come_from_its_settings(parity, capsys):
    with pytest.raises(SystemExit):
        main(["build", "parity", "--help"])
    help_text = capsys.readouterr().out
    assert "--size N" in help_text and "numbers to pair up" in help_text
    assert "--regime" not in help_text  # what a config is, not how it is built


def test_a_broken_promise_of_a_registered_benchmark_fails_its_audit(parity, tmp_path, capsys):
    out = tmp_path / "parity"
    assert main(["build", "parity", "--out", str(out), "--config", "all"]) == 0
    promises = {"all": [lambda splits: CheckResult("never holds", False, "planted")]}
    BENCHMARKS["parity"] = BenchmarkSpec(**{**parity.__dict__, "audit_checks": promises})
    assert main(["audit", str(out)]) != 0
    assert "never holds" in capsys.readouterr().out


def test_a_sixth_benchmarks_report_sections_come_from_its_spec(parity, tmp_path, monkeypatch):
    """Its heading, its AUCnorm table named after its paper's table, and the tables and grids of
    its embedding reports reach the results page with no harness change."""
    from dataclasses import replace

    from compsem.benchmark.spec import EmbeddingTests, Heatmap
    from compsem.harness.models.device import resolve
    from compsem.harness.report.run import run_report
    from compsem.harness.results.files import make_result, write_json, write_result

    tests = EmbeddingTests(
        phrase_configs={"numbers": {"pairs": "all"}},
        report_kind="parity embedding report",
        write_report=lambda report, out, command, force=False: [],
        tables=lambda report, level: (
            f"{level} Parity table\n\n| n | score |\n|---|---:|\n| 2 | 0.9 |"
        ),
        demo_table=lambda report: "",
        heatmaps=lambda report: [Heatmap("parity grid", ("odd", "even"), ("odd",), {})],
        lexicon=lambda read, vocabulary: [],
    )
    spec = replace(
        parity,
        short_title="Parity: numbers that pair",
        paper_tables={"aucnorm": "Parity Table 1"},
        aucnorm=True,
        embedding=tests,
    )
    monkeypatch.setitem(BENCHMARKS, "parity", spec)
    dataset = {"path": "exports/parity", "config": "all", "split": "test", "revision": None}
    dataset |= {"fingerprint": "f" * 16, "version": "0.1.0", "preset": "parity"}
    scores = {"accuracy": 0.9, "macro_f1": 0.9, "aucnorm": 0.4, "baseline_precision": 0.5}
    scores |= {"auc_xi": 0.6, "auc_50": 0.3}
    settings = {"method": "cosine", "max_length": 64, "max_eval_examples": None}
    result = make_result("score", "m", dataset, None, settings, scores, resolve("cpu"))
    write_result(tmp_path / "runs", result)
    embed = {"benchmark": "parity", "version": "0.1.0", "models": [{"label": "m", "results": {}}]}
    write_json(tmp_path / "runs" / "embed" / "results.json", {**embed, "command": "compsem embed"})
    run_report([tmp_path / "runs"], tmp_path / "page")
    page = (tmp_path / "page" / "index.md").read_text()
    assert "## Parity: numbers that pair" in page
    assert "### AUCnorm and the random baseline ξ (Parity Table 1)" in page
    assert "#### Parity table" in page and "parity grid" in page
    assert (tmp_path / "page" / "plots" / "parity-1.svg").is_file()


def test_a_sixth_benchmarks_paper_results_stand_beside_its_runs_not_among_them(
    parity, tmp_path, monkeypatch
):
    """Numbers its spec declares as its paper's reach the page and the printed leaderboards as
    reference lines, beside compsem's line on the same config and metric, with no harness change,
    and leave compsem's leaderboard as it was."""
    from dataclasses import replace

    from compsem.benchmark.spec import PaperResult
    from compsem.harness.models.device import resolve
    from compsem.harness.report.leaderboard import leaderboards
    from compsem.harness.report.run import run_report
    from compsem.harness.results.files import make_result, write_result
    from compsem.harness.results.model import group_results

    declared = (
        PaperResult("Table 3", "ParityNet", ("all",), "accuracy", 97.5, 1.5, "std", scale=100),
        PaperResult("Table 4", "ParityNet", ("odd_only",), "accuracy", 0.5),
    )
    dataset = {"path": "exports/parity", "config": "all", "split": "test", "revision": None}
    dataset |= {"fingerprint": "f" * 16, "version": "0.1.0", "preset": "parity"}
    settings = {"epochs": 1.0, "max_length": 12, "max_eval_examples": None}
    results = [
        make_result("train", "m", dataset, seed, settings, {"accuracy": a}, resolve("cpu"))
        for seed, a in ((1, 0.8), (2, 0.6))
    ]
    files = [str(write_result(tmp_path / "runs" / str(i), r)) for i, r in enumerate(results)]
    run_report([tmp_path / "runs"], tmp_path / "before")
    before = (tmp_path / "before" / "index.md").read_text()
    monkeypatch.setitem(BENCHMARKS, "parity", replace(parity, paper_results=declared))
    run_report([tmp_path / "runs"], tmp_path / "page")
    page = (tmp_path / "page" / "index.md").read_text()
    reference = page.split("### Reported in the paper, not rerun", 1)[1].split("\n\n")[1]
    rows = reference.splitlines()[2:]
    assert rows[0].startswith("| Table 3 | ParityNet | all | accuracy | 97.5 ± 1.5 % (std) |")
    assert "m train: [0.700 ± 0.141](#runs-" in rows[0]
    assert rows[1].endswith("| 0.5 | – |")  # no compsem run on odd_only
    leaderboard = before.split("### Leaderboard", 1)[1].split("\n\n")[1]
    assert leaderboard in page and "ParityNet" not in leaderboard  # not mixed in or ranked
    assert "ParityNet" not in before
    printed = leaderboards(group_results(results, files))
    assert "#### Reported in the paper, not rerun" in printed and "m train: 0.700" in printed
