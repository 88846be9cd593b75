"""``compsem report --out DIR``'s results page: index.md and index.html built from a results
folder of every command and benchmark, rendered offline in headless Chromium; its DOM holds the
table rows the folder implies and every plot, and its screenshot is a page, not a blank."""

import html
import itertools
import json
import shutil
import subprocess
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

from compsem.builders.montague.lexicon import ADJECTIVE_TYPES
from compsem.files.ownership import FILES_MANIFEST
from compsem.harness.models.device import resolve
from compsem.harness.report.run import run_report
from compsem.harness.results import files, model
from compsem.harness.results.files import make_result, write_json, write_result, write_rows
from compsem.harness.results.reproduce import command_line

CPU = resolve("cpu")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CLASSES, TYPES = ("I", "O", "S"), ("1", "2", "3")


def dataset(benchmark: str, config: str) -> dict:
    return {
        "path": f"exports/{benchmark}",
        "config": config,
        "split": "test",
        "revision": None,
        "fingerprint": "f" * 16,
        "version": "1.0.0",
        "preset": benchmark,
    }


def scores_of(rng, n: int, fields: dict) -> tuple[dict, list[dict]]:
    """Scores as the harness computes them, from per-row outputs drawn at random."""
    from compsem.harness.results.scores import grouped_scores

    labels = rng.integers(0, 2, n)
    predictions = np.where(rng.random(n) < 0.75, labels, 1 - labels)
    groups = {
        field: [values[(i // 3**depth) % len(values)] for i in range(n)]
        for depth, (field, values) in enumerate(fields.items())
    }
    if len(groups) >= 2:
        first, second = list(groups)[:2]
        groups[f"{first} × {second}"] = [
            f"{a} × {b}" for a, b in zip(groups[first], groups[second], strict=True)
        ]
    scores = grouped_scores(labels, predictions, ["non_entailment", "entailment"], groups)
    rows = [
        {"id": f"r{i}", "label": int(gold), "prediction": int(guess)}
        for i, (gold, guess) in enumerate(zip(labels, predictions, strict=True))
    ]
    return scores, rows


def write_run(folder: Path, result: dict, rows: list[dict]) -> Path:
    path = write_result(folder, result)
    write_rows(path, rows)
    return path


def train(rng, folder, benchmark, config, seed, fields, n=120, **settings):
    scores, rows = scores_of(rng, n, fields)
    settings = {
        "epochs": 1.0,
        "batch_size": 8,
        "learning_rate": 2e-5,
        "max_length": 12,
        "train_examples": 400,
        "eval_examples": n,
        "max_eval_examples": None,
        "inputs": ["sentence"],
        **settings,
    }
    result = make_result(
        "train", "bert-base-cased", dataset(benchmark, config), seed, settings, scores, CPU
    )
    return write_run(folder, result, rows)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    return make_runs(tmp_path_factory.mktemp("runs"))


def make_runs(root: Path) -> Path:
    """A results folder as five benchmarks' runs leave it: fine-tuning over seeds and resampled
    splits, a capped run, an LLM, a few-shot curve, BoOQA scoring and a Montague embed report."""
    rng = np.random.default_rng(0)
    plane_fields = {"adjective_class": CLASSES, "inference_type": TYPES}
    for config, seed in itertools.product(("goood_split_1", "goood_split_2"), (1, 2, 3)):
        train(rng, root / "plane" / config, "plane", config, seed, plane_fields)
    train(
        rng,
        root / "plane-capped",
        "plane",
        "goood_split_1",
        1,
        plane_fields,
        n=40,
        max_eval_examples=40,
    )
    scores, rows = scores_of(rng, 20, plane_fields)
    llm_settings = {
        "limit": 20,
        "eval_examples": 20,
        "shots": 0,
        "prompt": "plane",
        "chat_template": True,
    }
    llm = make_result(
        "llm", "smollm2", dataset("plane", "goood_split_1"), 1, llm_settings, scores, CPU
    )
    write_run(root / "llm", llm, rows)
    for seed in (1, 2):
        train(
            rng, root / "rnpc", "rnpc", "spte", seed, {"combo": ("int-int", "int-sub", "sub-priv")}
        )
    for config in ("task2_nontrivial", "task2_nontrivial_in_distribution"):
        train(rng, root / "seti", "seti", config, 1, {"setting": ("2",)})
    curve = {
        "shots": [0, 10, 50],
        "mean": [0.5, 0.62, 0.8],
        "std": [0.0, 0.05, 0.03],
        "count": [3, 3, 3],
        "aulc": 0.66,
        "aulc_std": 0.02,
        "runs": 3,
    }
    curve_settings = {
        "metric": "accuracy",
        "shots": [0, 10, 50],
        "seeds": [1, 2, 3],
        "pool_split": "few_shot",
        "base_split": None,
        "epochs": 10.0,
        "eval_examples": 300,
        "max_eval_examples": None,
    }
    result = make_result(
        "curve",
        "roberta-large-mnli",
        dataset("rnpc", "spte"),
        None,
        curve_settings,
        {"points": [], "curve": curve},
        CPU,
    )
    write_run(root / "curve", result, [])
    booqa_scores = {"aucnorm": 0.159, "auc_xi": 0.5, "auc_50": 0.2, "baseline_precision": 0.4}
    score_settings = {
        "method": "cosine",
        "max_evidence": 3200,
        "max_length": 128,
        "hypotheses": 50,
        "max_eval_examples": None,
    }
    result = make_result(
        "score",
        "bert-base-uncased",
        dataset("booqa", "en"),
        None,
        score_settings,
        booqa_scores,
        CPU,
    )
    path = write_run(root / "booqa", result, [{"id": "h1", "label": 1, "score": 0.9}])
    write_json(
        path.with_name(path.stem + "-pr-curve.json"),
        {"recall": [0, 0.5, 1], "precision": [1, 0.7, 0.4], "thresholds": [0.9, 0.2]},
    )
    write_json(root / "montague" / "results.json", embed_report())
    (root / "montague" / "results.rows.jsonl").write_text('{"id": "red car"}\n')
    return root


def embed_report() -> dict:
    """A ``compsem embed`` report in the shape ``run_embed`` returns."""
    single = {t: {"score": 0.5 + 0.1 * i, "count": 10} for i, t in enumerate(ADJECTIVE_TYPES)}
    pairs = {
        f"{a}, {b}": {"score": 0.3, "count": 4} for a in ADJECTIVE_TYPES for b in ADJECTIVE_TYPES
    }
    results = {
        "an": {
            "intersectivity": {"score": 0.6, "count": 50, "by_type": single},
            "non_subsectivity": {"score": 0.4, "count": 50, "by_type": single},
            "pair_intersectivity": {"score": 0.3, "count": 100, "by_type": pairs},
        },
        "aan": {"intersectivity": {"score": 0.7, "count": 100, "by_type": pairs}},
    }
    return {
        "benchmark": "montague",
        "version": "1.0.0",
        "models": [{"label": "MiniLM", "results": results}],
        "phrase_sets": {"an": 50, "aan": 100},
        "command": "compsem embed --dataset exports/montague --model minilm --out DIR",
    }


def plot_files(page: Path) -> list[Path]:
    """The plots the page embeds (the folder also holds compsem's list of the files it wrote)."""
    return sorted((page / "plots").glob("*.svg"))


@pytest.fixture(scope="module")
def page(runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    run_report([runs], out)
    return out


def test_the_page_and_its_markdown_twin_are_written_with_their_plots(page):
    markdown = (page / "index.md").read_text()
    html = (page / "index.html").read_text()
    for heading in ("## PLANE", "## RNPC", "## SETI", "## BoOQA", "## Montague", "## Runs"):
        assert heading in markdown
    assert plot_files(page)
    # Lines of different commands sit in one leaderboard: each says which rows it scored.
    assert "| llm | goood_split_1 | rows first 20 | 1 | 20 |" in markdown
    assert "| train | goood_split_1 | rows 40 shuffled | 1 | 40 |" in markdown
    assert "| train | goood_split (2 splits) | rows all | 6 | 120 |" in markdown
    for name in (p.name for p in plot_files(page)):
        assert f"(plots/{name})" in markdown
    assert html.count('<svg class="plot"') == len(plot_files(page))


def test_the_report_reads_each_file_once_and_renders_one_grouping(runs, tmp_path, monkeypatch):
    """One results model: every JSON file is read once (results, embed reports, analyses and
    precision-recall curves alike) and the runs are grouped once; the tables, the page and the
    leaderboards render those lines."""
    reads, groupings = Counter(), []
    read_json, group = files.read_json, model.group

    def counted_read(path, *args, **kwargs):
        reads[str(path)] += 1
        return read_json(path, *args, **kwargs)

    def counted_group(runs, *args, **kwargs):
        groupings.append({(run["dataset"]["preset"], run["command"]) for run in runs})
        return group(runs, *args, **kwargs)

    monkeypatch.setattr(files, "read_json", counted_read)
    monkeypatch.setattr(model, "group", counted_group)
    run_report([runs], tmp_path / "page")
    assert reads and max(reads.values()) == 1, reads.most_common(3)
    assert any(name.endswith("-pr-curve.json") for name in reads)
    # one grouping per benchmark and command, none by a renderer
    assert all(len(bucket) == 1 for bucket in groupings)
    assert len(groupings) == len({key for bucket in groupings for key in bucket}) > 4


def test_montague_reports_end_with_the_test_across_adjective_types(page):
    """Five types of 10 phrases holding at 0.5 … 0.9 (rate 0.7): χ² = 10 · (1/7 + 1/3) = 100/21
    on 4 degrees of freedom, p = 0.313."""
    markdown = (page / "index.md").read_text()
    assert "#### Do adjective types differ? (chi-square test of homogeneity)" in markdown
    assert (
        "| MiniLM | non-subsectivity (eq. 7), AN, by type | 50 | 5 | 4.8 | 4 | 0.313 |" in markdown
    )


def test_the_page_needs_no_network(page):
    html = (page / "index.html").read_text()
    for reference in ("http://", "https://", "//cdn", "<link", "src="):
        assert reference not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_every_run_is_linked_with_its_per_row_file_and_the_command_that_reruns_it(page, runs):
    markdown = (page / "index.md").read_text()
    for result_file in runs.rglob("*.json"):
        if result_file.name.endswith("-pr-curve.json") or result_file.name == FILES_MANIFEST:
            continue
        link = Path("..") / result_file.relative_to(runs.parent)
        assert f"]({link.as_posix()})" in markdown, result_file
        assert (page / link).resolve() == result_file.resolve()
    rows = sorted(runs.rglob("*.rows.jsonl"))
    assert all(
        f"]({(Path('..') / r.relative_to(runs.parent)).as_posix()})" in markdown for r in rows
    )
    assert "`compsem train --dataset exports/plane --config goood_split_1 --model" in markdown


def test_a_command_line_reruns_what_the_result_records(runs):
    (capped,) = (p for p in (runs / "plane-capped").glob("*.json") if p.name != FILES_MANIFEST)
    line = command_line(json.loads(capped.read_text()), "runs/plane-capped/x.json")
    assert line.startswith("compsem train --dataset exports/plane --config goood_split_1")
    for part in (
        "--seeds 1",
        "--max-eval-examples 40",
        "--max-train-examples 400",
        "--epochs 1",
        "--learning-rate 2e-05",
        "--input single",
        "--precision fp32",
        "--out runs/plane-capped",
    ):
        assert part in line


def expected_leaderboard_rows(runs: Path) -> dict[str, int]:
    """Per benchmark, the leaderboard lines the folder implies, counted from the result files
    alone: one per command, model, config (fine-tuning and LLM runs pool resampled splits) and
    rows cap; seeds and resamples share a line."""
    lines = defaultdict(set)
    for file in runs.rglob("*.json"):
        result = json.loads(file.read_text())
        if "compsem_result" not in result:
            continue
        command, config = result["command"], result["dataset"]["config"]
        if command in ("train", "llm"):
            config = config.rsplit("_", 1)[0] if config[-1].isdigit() else config
        settings = result["settings"]
        cap = (settings.get("max_eval_examples"), settings.get("limit"))
        lines[result["dataset"]["preset"]].add((command, result["model"], config, cap))
    return {benchmark: len(keys) for benchmark, keys in lines.items()}


def dump_dom(html: Path) -> str:
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", html.as_uri()]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return finished.stdout


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (apt-get install chromium; scripts/setup.sh does)",
)
def test_chromium_renders_every_table_row_and_plot_offline(page, runs, tmp_path):
    from lxml import html as lxml_html

    dom = lxml_html.fromstring(dump_dom(page / "index.html"))
    sections = {}
    for heading in dom.xpath("//h2"):
        sections[heading.text_content()] = heading
    expected = expected_leaderboard_rows(runs)
    assert expected == {"plane": 3, "rnpc": 2, "seti": 2, "booqa": 1}  # the fixture's design
    for benchmark, lines in expected.items():
        (table,) = dom.xpath(
            f"//a[@id='{benchmark}']/following::h3[starts-with(., 'Leaderboard')][1]/following::table[1]"
        )
        assert len(table.xpath("./tbody/tr")) == lines, benchmark
    # the papers' own numbers, each benchmark's declared ones, beside its leaderboard
    for benchmark, declared in (("plane", 2), ("rnpc", 5), ("booqa", 7), ("montague", 15)):
        (table,) = dom.xpath(
            f"//a[@id='{benchmark}']/following::h3[starts-with(., 'Reported in the paper')][1]"
            "/following::table[1]"
        )
        assert len(table.xpath("./tbody/tr")) == declared, benchmark
    matrices = dom.xpath(
        "//h3[contains(., 'adjective_class × inference_type')]/following::table[1]"
    )
    assert matrices and all(len(t.xpath("./tbody/tr")) == len(CLASSES) for t in matrices)
    heatmaps = [p for p in plot_files(page) if "adjective_class-inference_type" in str(p)]
    assert len(heatmaps) == len(matrices)  # each matrix drawn too (PLANE Fig. 1)
    plots = dom.xpath("//*[local-name()='svg' and @class='plot']")
    assert len(plots) == len(plot_files(page))
    assert dom.xpath("//*[local-name()='polygon' and @class='band']")  # the curve's std band
    assert dom.xpath("//*[local-name()='line' and @class='baseline']")  # BoOQA's ξ
    assert len(dom.xpath("//*[local-name()='rect' and @class='cell']")) >= 25  # heatmaps
    assert dom.xpath("//*[local-name()='rect' and @class='bar']")  # per-class bars
    montague = dom.xpath("//h4[starts-with(., 'Table ')]")
    assert [h.text_content().split(":")[0] for h in montague] == [
        f"Table {n}" for n in (2, 3, 4, 5)
    ]
    # the chi-square test across adjective types: AN intersectivity, non-subsectivity, AAN
    (differ,) = dom.xpath("//h4[starts-with(., 'Do adjective types differ')]/following::table[1]")
    assert len(differ.xpath("./tbody/tr")) == 3


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (apt-get install chromium; scripts/setup.sh does)",
)
def test_the_screenshot_is_a_page_not_a_blank(page, tmp_path):
    from PIL import Image

    shot = tmp_path / "page.png"
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    command += [f"--screenshot={shot}", "--window-size=1280,2400", (page / "index.html").as_uri()]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert finished.returncode == 0 and shot.is_file(), finished.stderr[-2000:]
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 2400)
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200  # text, tables and plots, not one colour
    (most, _), total = max(colours), image.size[0] * image.size[1]
    assert most / total < 0.9


def test_a_model_giving_one_answer_is_flagged_beside_the_majority_baseline(tmp_path):
    """A constant predictor's accuracy is the share of its answer: the leaderboard flags it, shows
    what always answering the majority label scores, and says the rows are below the floor."""
    labels = [1] * 30 + [0] * 10
    rows = [{"id": f"r{i}", "label": gold, "prediction": 1} for i, gold in enumerate(labels)]
    scores = grouped_scores_of(labels, [1] * len(labels))
    settings = {"limit": 40, "eval_examples": 40, "shots": 0, "prompt": "plane"}
    result = make_result(
        "llm", "smollm2", dataset("plane", "goood_split_1"), 1, settings, scores, CPU
    )
    write_run(tmp_path / "runs" / "constant", result, rows)
    run_report([tmp_path / "runs"], tmp_path / "page")
    markdown = (tmp_path / "page" / "index.md").read_text()
    (line,) = [row for row in markdown.splitlines() if "| llm | goood_split_1 |" in row]
    assert line.startswith("| ⚠ HuggingFaceTB/SmolLM2-135M-Instruct |")
    assert line.endswith("| 0.750 |")  # always "entailment": 30 of 40 rows
    assert "one answer to 100%" in markdown
    assert (
        "Below the size floor of 1,000 rows" in markdown and "first 40 (±15.5 points)" in markdown
    )


def grouped_scores_of(labels, predictions) -> dict:
    from compsem.harness.results.scores import grouped_scores

    return grouped_scores(labels, predictions, ["non_entailment", "entailment"], {})


def leaderboard_lines(markdown: str, benchmark_title: str) -> list[str]:
    section = markdown.split(f"## {benchmark_title}", 1)[1].split("\n## ", 1)[0]
    table = section.split("### Leaderboard", 1)[1].split("\n\n")[1]
    return table.splitlines()


def booqa_score_run(folder: Path, scores: list[float], labels: list[int], max_length: int):
    from compsem.harness.results.scores import aucnorm_interval
    from compsem.metrics.aucnorm.aucnorm import aucnorm_scores

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # all scores tied
        metric = aucnorm_scores(scores, labels)
    metric.update(aucnorm_interval(np.array(scores), np.array(labels) == 1, None))
    settings = {
        "method": "cosine",
        "max_evidence": 3200,
        "max_length": max_length,
        "hypotheses": len(labels),
        "max_eval_examples": None,
    }
    result = make_result("score", "minilm", dataset("booqa", "en"), None, settings, metric, CPU)
    rows = [
        {"id": f"h{i}", "label": gold, "score": score, "evidence": 1}
        for i, (gold, score) in enumerate(zip(labels, scores, strict=True))
    ]
    return write_run(folder, result, rows)


def test_a_constant_scorer_is_flagged_and_ranks_below_a_real_one_beside_chance(tmp_path):
    """BoOQA scoring: the constant scorer (every score tied) gets AUCnorm 0, below the real
    ranking, is flagged, and each line shows its majority and what random orders score."""
    labels = [1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0]  # 8 of 19, ξ 0.421
    real = [0.9, 0.2, 0.8, 0.3, 0.4, 0.1, 0.7, 0.6, 0.05, 0.65, 0.15, 0.5, 0.25, 0.35, 0.55]
    real += [0.45, 0.75, 0.12, 0.22]
    booqa_score_run(tmp_path / "runs" / "real", real, labels, 128)
    booqa_score_run(tmp_path / "runs" / "constant", [1.0] * 19, labels, 2)
    run_report([tmp_path / "runs"], tmp_path / "page")
    markdown = (tmp_path / "page" / "index.md").read_text()
    header, _, *lines = leaderboard_lines(markdown, "BoOQA")
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    assert columns[6:] == ["AUCnorm", "AUCnorm 95% CI", "AUCnorm chance", "AUC50%", "majority"]
    cells = {
        line.split("|")[4].strip(): [c.strip() for c in line.strip("|").split("|")]
        for line in lines
    }
    constant, ranked = cells["rows all, max_length 2"], cells["rows all, max_length 128"]
    assert constant[0].startswith("⚠ ") and not ranked[0].startswith("⚠")
    assert constant[6].startswith("[0.000]")
    assert float(ranked[6][1:6]) > float(ranked[8]) > 0.1  # above chance, which is not 0 here
    assert constant[8] == ranked[8]  # the same labels: the same chance
    assert constant[7] == "[0.000, 0.000]"  # tied scores: every resample ranks nothing
    low, high = map(float, ranked[7].strip("[]").split(", "))
    assert low <= float(ranked[6][1:6]) <= high
    assert constant[-1] == ranked[-1] == "0.579"  # 11 of 19 rows are false
    assert "one score on 100%" in markdown and "AUCnorm chance: the mean AUCnorm" in markdown
    table5 = markdown.split("### AUCnorm and the random baseline ξ", 1)[1]
    assert "| AUCnorm | AUCnorm 95% CI | AUCnorm chance | ξ | n rows |" in table5
    assert f"| {constant[7]} | {constant[8]} | 0.421 | 19 |" in table5
    assert "not against ξ" in table5


def test_a_curve_on_the_human_rows_is_drawn_beside_the_generated_tasks(tmp_path):
    """RNPC §6: the release's inoculation_spte curve joins the generated spte curve's plot
    (RNPC's spec declares it), each line named by its config; a plot of one config is as before."""
    settings = {"metric": "accuracy", "shots": [0, 10, 50], "seeds": [1], "epochs": 3.0}
    settings |= {"pool_split": "few_shot", "base_split": None, "max_eval_examples": None}
    for config, mean in (("spte", [0.5, 0.6, 0.7]), ("inoculation_spte", [0.5, 0.55, 0.8])):
        curve = {"shots": [0, 10, 50], "mean": mean, "std": [0.0] * 3, "count": [1] * 3}
        scores = {"points": [], "curve": {**curve, "aulc": 0.6, "aulc_std": None, "runs": 1}}
        result = make_result(
            "curve", "minilm", dataset("rnpc", config), None, settings, scores, CPU
        )
        write_run(tmp_path / "runs" / config, result, [])
    curve = {"shots": [0, 10], "mean": [0.5, 0.9], "std": [0.0] * 2, "count": [1] * 2}
    scores = {"points": [], "curve": {**curve, "aulc": 0.7, "aulc_std": None, "runs": 1}}
    seti = make_result(
        "curve", "minilm", dataset("seti", "task1_trivial"), None, settings, scores, CPU
    )
    write_run(tmp_path / "runs" / "seti", seti, [])
    run_report([tmp_path / "runs"], tmp_path / "page")
    plots = {path.name: path.read_text() for path in plot_files(tmp_path / "page")}
    rnpc = [name for name in plots if name.startswith("rnpc-curve")]
    assert rnpc == ["rnpc-curve-spte.svg"]  # one plot for both
    text = plots["rnpc-curve-spte.svg"]
    assert "inoculation_spte, spte: few-shot curve" in text
    assert "MiniLM-L6-v2 · inoculation_spte" in text and "MiniLM-L6-v2 · spte" in text
    assert "seti task1_trivial: few-shot curve" in plots["seti-curve-task1_trivial.svg"]


def test_a_curve_collapsed_on_a_one_label_split_is_flagged_at_its_shots(tmp_path):
    """SETI task2_nontrivial's test split holds one label: a curve that answers it everywhere
    past 0 shots scores 1.000 there; the line is flagged, names the shots, shows the majority
    and says that accuracy on one label cannot rank models."""
    shots = [0, 16, 64]
    rows = [
        {"shots": k, "seed": 1, "id": f"r{i}", "label": 0, "prediction": int(k == 0 and i % 3)}
        for k in shots
        for i in range(300)
    ]
    summary = {"shots": shots, "mean": [0.33, 1.0, 1.0], "std": [0.0] * 3, "count": [1] * 3}
    settings = {
        "metric": "accuracy",
        "shots": shots,
        "seeds": [1],
        "pool_split": "few_shot",
        "base_split": None,
        "epochs": 3.0,
        "eval_examples": 300,
        "max_eval_examples": 300,
    }
    scores = {"points": [], "curve": {**summary, "aulc": 0.961, "aulc_std": None, "runs": 1}}
    result = make_result(
        "curve", "minilm", dataset("seti", "task2_nontrivial"), None, settings, scores, CPU
    )
    write_run(tmp_path / "runs" / "curve", result, rows)
    run_report([tmp_path / "runs"], tmp_path / "page")
    markdown = (tmp_path / "page" / "index.md").read_text()
    (line,) = leaderboard_lines(markdown, "SETI")[2:]
    assert line.startswith("| ⚠ sentence-transformers/all-MiniLM-L6-v2 | curve |")
    assert line.endswith("| 1.000 (one label) |")
    assert "one answer to 100% at 16, 64 shots" in markdown
    assert "One label only in the rows scored" in markdown and "(label 0)" in markdown


def test_a_classifier_on_a_one_label_split_says_so_and_a_balanced_one_does_not(tmp_path):
    rng = np.random.default_rng(0)
    for name, labels in (("one", [1] * 50), ("two", [0, 1] * 25)):
        predictions = [int(x) for x in rng.integers(0, 2, 50)]
        scores = grouped_scores_of(labels, predictions)
        rows = [
            {"id": f"r{i}", "label": gold, "prediction": guess}
            for i, (gold, guess) in enumerate(zip(labels, predictions, strict=True))
        ]
        settings = {"limit": 50, "eval_examples": 50, "shots": 0, "prompt": name}
        result = make_result("llm", "smollm2", dataset("plane", name), 1, settings, scores, CPU)
        write_run(tmp_path / "runs" / name, result, rows)
    run_report([tmp_path / "runs"], tmp_path / "page")
    markdown = (tmp_path / "page" / "index.md").read_text()
    lines = leaderboard_lines(markdown, "PLANE")[2:]
    (one,) = [line for line in lines if "| llm | one |" in line]
    (two,) = [line for line in lines if "| llm | two |" in line]
    assert one.endswith("| 1.000 (one label) |") and not one.startswith("| ⚠")
    assert two.endswith("| 0.500 |")


def test_random_order_aucnorm_is_what_random_rankings_score():
    from compsem.harness.report.leaderboard import random_order_aucnorm

    assert random_order_aucnorm(8, 19) == pytest.approx(0.156, abs=0.01)
    assert 0 < random_order_aucnorm(300, 1000) < 0.03
    assert random_order_aucnorm(0, 19) is None and random_order_aucnorm(19, 19) is None


def test_a_zero_shot_nli_run_gets_its_confusion_heatmap(tmp_path):
    """PLANE Fig. 9: gold label × the NLI model's own label, shares of each gold row."""
    rng = np.random.default_rng(3)
    scores, rows = scores_of(rng, 40, {"adjective_class": CLASSES})
    scores["model_label_confusion"] = {
        "rows": ["non_entailment", "entailment"],
        "columns": ["CONTRADICTION", "NEUTRAL", "ENTAILMENT"],
        "counts": [[6, 10, 4], [0, 5, 15]],
    }
    settings = {"label_mapping": {}, "inputs": ["premise", "hypothesis"], "eval_examples": 40}
    result = make_result(
        "zero-shot",
        "roberta-large-mnli",
        dataset("plane", "two_shot_pairs"),
        None,
        settings,
        scores,
        CPU,
    )
    write_run(tmp_path / "runs", result, rows)
    run_report([tmp_path / "runs"], tmp_path / "page")
    (plot,) = (tmp_path / "page" / "plots").glob("confusion-*.svg")
    text = plot.read_text()
    assert text.count('class="cell"') == 6 and html.escape("model's label") in text
    assert "non_entailment × NEUTRAL: 0.500" in text and "entailment × ENTAILMENT: 0.750" in text
    assert f"plots/{plot.name}" in (tmp_path / "page" / "index.md").read_text()


def test_a_prompting_run_gets_its_class_template_by_inference_type_heatmap(tmp_path):
    """PLANE Figs. 5-6: F1 per class and template × inference type, over verbalisers."""
    rng = np.random.default_rng(4)
    scores, rows = scores_of(rng, 36, {"adjective_class": CLASSES})
    scores["cells"] = [
        {
            "adjective_class": klass,
            "template": template,
            "verbaliser": verbaliser,
            "inference_type": it,
            "n": 2,
            "weighted_f1": f1,
            "accuracy": f1,
        }
        for klass in CLASSES
        for template in ("internal", "external")
        for it in (1, 2, 3)
        for verbaliser, f1 in (("GP", 0.2), ("TF", 0.6))
    ]
    # Table 4's cells, as the prompt command writes them (mean ± std over template × verbaliser).
    cell = {"mean": 0.4, "std": 0.2, "n": 4}
    scores["per_class"] = {key: cell for key in (*CLASSES, "Average")}
    settings = {"batch_size": 32, "max_length": 128, "eval_examples": 36}
    result = make_result(
        "prompt", "bert-base-cased", dataset("plane", "two_shot"), None, settings, scores, CPU
    )
    write_run(tmp_path / "runs", result, rows)
    run_report([tmp_path / "runs"], tmp_path / "page")
    plots = {p.name: p.read_text() for p in (tmp_path / "page" / "plots").glob("prompt-*.svg")}
    (averaged,) = [text for name, text in plots.items() if not name.endswith(("GP.svg", "TF.svg"))]
    assert averaged.count('class="cell"') == 3 * 2 * 3  # class × template rows, a column per IT
    assert "S int × 2: 0.400" in averaged  # the mean over the two verbalisers
    panels = {name: text for name, text in plots.items() if name.endswith(("GP.svg", "TF.svg"))}
    assert len(panels) == 2  # Fig. 6: a panel per verbaliser
    for verbaliser, f1 in (("GP", "0.200"), ("TF", "0.600")):
        (text,) = [text for name, text in panels.items() if name.endswith(f"{verbaliser}.svg")]
        assert text.count('class="cell"') == 3 * 2 * 3 and f"S int × 2: {f1}" in text
        assert f"verbaliser {verbaliser}" in text
    index = (tmp_path / "page" / "index.md").read_text()
    assert all(f"plots/{name}" in index for name in plots)
