"""The results page of ``compsem report --out DIR``: ``index.md`` and its twin ``index.html``.

Per benchmark: a leaderboard (a line per model and comparable group, mean ± std over seeds, the
runs and rows behind it), the papers' breakdowns (accuracy per grouping field, PLANE's adjective
class × inference type, SETI's compositional vs in-distribution twins, BoOQA's AUCnorm beside
the random baseline ξ and beside what random orders of the same labels score, the Montague
tables), plots as SVG (few-shot curves with a band over
seeds, bars per class, precision-recall curves, heatmaps), and the runs: every number links to
its line there, which links the result file and per-row file of each run and gives the command
that reruns it. The Markdown is the one source: ``page_html`` renders it, SVG inline."""

from __future__ import annotations

import os
import urllib.parse
from collections import defaultdict
from pathlib import Path

from compsem.builders import BENCHMARKS
from compsem.harness.analysis.length import length_parts
from compsem.harness.analysis.page import analysis_parts
from compsem.harness.analysis.recency import recency_parts
from compsem.harness.analysis.reference import reference_parts
from compsem.harness.report import svg
from compsem.harness.report.cells import fmt, fmt_interval, interval_of, markdown_table, mean_std
from compsem.harness.report.harm import aggregate_harm, render_harm
from compsem.harness.report.labels import per_label, render_per_label
from compsem.harness.report.leaderboard import heading, ordered, random_order_aucnorm, table
from compsem.harness.report.tables import aggregate_train, render_unreadable, twin_lines
from compsem.harness.results.comparable import Line, rows_evaluated, rows_text
from compsem.harness.results.files import rows_path
from compsem.harness.results.model import OTHER, Results
from compsem.harness.results.reproduce import command_line
from compsem.text.escape import Markdown, markdown_anchor, markdown_code, markdown_text

CROSS = " × "


class Page:
    """Markdown parts and SVG plots; links are resolved against the page's folder."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.parts: list[str] = []
        self.plots: dict[str, str] = {}
        self.anchors: dict[int, str] = {}
        self.lines: list[tuple[str, str, Line]] = []

    def link(self, file: str) -> str:
        """A link target to ``file`` from the page's folder, percent-encoded."""
        path = Path(os.path.relpath(Path(file).resolve(), self.out.resolve())).as_posix()
        return urllib.parse.quote(path)

    def plot(self, name: str, text: str, caption: str) -> str:
        """Keep a plot, under a file name made safe (names come from result files)."""
        stem = markdown_anchor(name.removesuffix(".svg"))
        name = f"{stem}.svg" if f"{stem}.svg" not in self.plots else f"{stem}-{len(self.plots)}.svg"
        self.plots[name] = text
        return f"![{markdown_text(caption)}](plots/{name})"

    def anchor(self, command: str, line: Line) -> str:
        if id(line) not in self.anchors:
            self.anchors[id(line)] = f"runs-{len(self.anchors) + 1}"
            self.lines.append((self.anchors[id(line)], command, line))
        return self.anchors[id(line)]


def leaderboard(page: Page, lines: list[tuple]) -> None:
    markdown, notes = table(lines, link=page.anchor)
    page.parts += ["### Leaderboard (mean ± std over seeds and resampled splits)", markdown]
    page.parts += list(map(markdown_text, notes))


def _group_means(line: Line, field: str) -> dict:
    groups = [r["scores"].get("by_group", {}).get(field, {}) for r in line.runs]
    values = sorted({value for by_value in groups for value in by_value})
    cells = {}
    for value in values:
        members = [g[value] for g in groups if value in g]
        cells[value] = mean_std(cell["accuracy"] for cell in members)
        cells[value]["interval"] = interval_of(members, "accuracy_ci")
    return cells


def breakdowns(page: Page, benchmark: str, lines: list[tuple]) -> None:
    """Accuracy per value of each grouping field (a column per line, and bars), and the cross
    of the first two fields as a matrix per line (PLANE: class × inference type)."""
    fields = defaultdict(list)
    for command, line in lines:
        for field in dict.fromkeys(f for r in line.runs for f in r["scores"].get("by_group", {})):
            fields[field].append((command, line))
    for field, members in fields.items():
        means = [_group_means(line, field) for _, line in members]
        if CROSS in field:
            for (command, line), cells in zip(members, means, strict=True):
                _matrix(page, field, command, line, cells)
            continue
        values = sorted({value for cells in means for value in cells})
        rows = [
            [value]
            + [
                Markdown(
                    f"[{fmt(cells.get(value))}](#{page.anchor(command, line)}) "
                    + fmt_interval((cells.get(value) or {}).get("interval"))
                )
                for (command, line), cells in zip(members, means, strict=True)
            ]
            for value in values
        ]
        header = [field, *(f"{line.label} ({command})" for command, line in members)]
        page.parts += [f"### Accuracy by {markdown_text(field)}", markdown_table(header, rows)]
        page.parts.append("In brackets: the 95% interval of each line's accuracy in the group.")
        if 1 < len(values) <= 12:
            series = [
                {
                    "name": f"{line.label} ({command})",
                    "values": [(cells.get(v) or {}).get("mean") for v in values],
                    "std": [(cells.get(v) or {}).get("std") for v in values],
                }
                for (command, line), cells in list(zip(members, means, strict=True))[:6]
            ]
            title = f"{benchmark}: accuracy by {field}"
            page.parts.append(
                page.plot(
                    f"{benchmark}-bars-{field}.svg",
                    svg.bars(title, values, series, "accuracy"),
                    title,
                )
            )


def _matrix(page: Page, field: str, command: str, line: Line, cells: dict) -> None:
    first, second = field.split(CROSS)
    rows = sorted({key.split(CROSS)[0] for key in cells})
    columns = sorted({key.split(CROSS)[1] for key in cells})
    table = [[row, *(fmt(cells.get(f"{row}{CROSS}{c}")) for c in columns)] for row in rows]
    anchor = page.anchor(command, line)
    page.parts += [
        f"### Accuracy by {markdown_text(first)} × {markdown_text(second)}: "
        f"[{markdown_text(line.label)} ({command})](#{anchor})",
        markdown_table([f"{first} \\ {second}", *columns], table),
    ]
    # The same matrix as a heatmap (PLANE Fig. 1: where each model's transfer fails).
    means = {
        tuple(key.split(CROSS)): cell["mean"]
        for key, cell in cells.items()
        if cell and cell.get("mean") is not None
    }
    title = f"{line.label} ({command}): accuracy by {first} × {second}"
    grid = svg.heatmap(title, rows, columns, means, second, first)
    page.parts.append(page.plot(f"{command}-{line.label}-{first}-{second}.svg", grid, title))


def labels(page: Page, lines: list[tuple]) -> None:
    """Precision, recall and F1 per label of each classification line (RNPC Tables 10-12)."""
    found = [(command, line, per_label(line.runs)) for command, line in lines]
    rows = [
        {
            "label": Markdown(
                f"[{markdown_text(line.label)} ({command})](#{page.anchor(command, line)})"
            ),
            "per_label": cells,
        }
        for command, line, cells in found
        if cells
    ]
    if rows:
        page.parts.append(render_per_label(rows, "###"))


def confusions(page: Page, lines: list[tuple]) -> None:
    """Each zero-shot NLI line's gold label × the model's own label, as shares of each gold
    row, from its newest run (PLANE Fig. 9: which label an NLI model's errors go to)."""
    for command, line in lines:
        newest = max(line.runs, key=lambda run: run["created"])
        matrix = newest["scores"].get("model_label_confusion") if command == "zero-shot" else None
        if not matrix:
            continue
        cells = {}
        for gold, counts in zip(matrix["rows"], matrix["counts"], strict=True):
            for label, count in zip(matrix["columns"], counts, strict=True):
                cells[(gold, label)] = count / sum(counts) if sum(counts) else None
        title = f"{line.label}: gold label × the model's label (share of each gold row)"
        grid = svg.heatmap(title, matrix["rows"], matrix["columns"], cells, "model's label", "gold")
        page.parts.append(page.plot(f"confusion-{line.label}.svg", grid, title))


def prompt_heatmaps(page: Page, lines: list[tuple]) -> None:
    """Each prompting line's F1 by class and template (rows) × hypothesis inference type
    (columns), averaged over verbalisers, premise orders and runs (PLANE Figs. 5 and 6); where
    the config has several verbalisers, one more panel per verbaliser (Fig. 6's panels), so a
    template that works with one verbaliser and fails with another shows."""
    for command, line in lines:
        found = [cell for run in line.runs for cell in run["scores"].get("cells") or []]
        if command != "prompt" or not found:
            continue
        verbalisers = sorted({str(cell["verbaliser"]) for cell in found if "verbaliser" in cell})
        panels = [(None, found)]
        if len(verbalisers) > 1:
            panels += [
                (name, [cell for cell in found if str(cell.get("verbaliser")) == name])
                for name in verbalisers
            ]
        for verbaliser, chosen in panels:
            title = f"{line.label}: F1 by class · template × inference type"
            if verbaliser is not None:
                title += f", verbaliser {verbaliser}"
            name = f"prompt-{line.label}{'' if verbaliser is None else '-' + verbaliser}.svg"
            page.parts.append(page.plot(name, class_template_grid(title, chosen), title))


def class_template_grid(title: str, cells: list[dict]) -> str:
    """The heatmap of ``cells``' weighted F1 by class · template × inference type, each square
    the mean of the cells that fall in it (over verbalisers, premise orders and runs)."""
    grouped = defaultdict(list)
    for cell in cells:
        row = f"{cell.get('adjective_class')} {str(cell.get('template'))[:3]}"  # "I int"
        grouped[(row, str(cell.get("inference_type")))].append(cell["weighted_f1"])
    means = {key: sum(values) / len(values) for key, values in grouped.items()}
    rows = sorted({row for row, _ in means})
    columns = sorted({column for _, column in means})
    return svg.heatmap(title, rows, columns, means, "inference type", "class, template")


def twins(page: Page, lines: list[tuple]) -> None:
    """SETI Figure 1: compositional generalisation beside the in-distribution twin."""
    trained = [line for command, line in lines if command == "train"]
    pairs = twin_lines(aggregate_train(trained)["settings"]) if trained else []
    if pairs:
        page.parts += [
            "### Compositional generalisation vs in-distribution (accuracy, SETI Figure 1)",
            markdown_table(
                ["model", "setting", "compositional", "in-distribution"],
                [[m, s, fmt(a), fmt(b)] for m, s, a, b in pairs],
                2,
            ),
        ]


def curves(page: Page, benchmark: str, lines: list[tuple]) -> None:
    """A plot per config of the few-shot curves run on it, a line per model; a config its
    benchmark's spec draws in another's plot (``curve_panels``: RNPC's human inoculation rows
    beside the generated task's) joins that plot, each line named by its config too."""
    spec = BENCHMARKS.get(benchmark)
    panels = spec.curve_panels if spec else {}
    by_panel = defaultdict(list)
    for command, line in lines:
        if command == "curve":
            by_panel[panels.get(line.config, line.config)].append(line)
    for panel, members in by_panel.items():
        configs = sorted({line.config for line in members})
        series = []
        for line in members:
            summary = max(line.runs, key=lambda r: r["created"])["scores"]["curve"]
            name = line.model if len(configs) == 1 else f"{line.model} · {line.config}"
            series.append({"name": name, **{k: summary[k] for k in ("shots", "mean", "std")}})
        metric = members[0].runs[0]["settings"].get("metric", "accuracy")
        shown = panel if configs == [panel] else ", ".join(configs)
        title = f"{benchmark} {shown}: few-shot curve, ± std over seeds"
        page.parts.append(
            page.plot(
                f"{benchmark}-curve-{panel}.svg", svg.curves(title, series, "shots", metric), title
            )
        )


def aucnorm_table(page: Page, benchmark: str, lines: list[tuple], pr_curves: dict) -> None:
    """AUCnorm beside ξ and beside what random orders of the same labels score, and a
    precision-recall curve per scoring run (BoOQA's Table 5; ``pr_curves`` by result file), for
    a benchmark whose spec says its paper scores rankings by AUCnorm."""
    rows, plots = [], []
    for command, line in lines:
        for result, file in zip(line.runs, line.files, strict=True):
            if "aucnorm" not in result["scores"]:
                continue
            xi = result["scores"].get("baseline_precision")
            method = result["settings"].get("method", "log-likelihood")
            if result["settings"].get("graph_matching"):  # Figure 6: a curve per matching
                method += f" ({result['settings']['graph_matching']} matching)"
            total = rows_evaluated(result)
            chance = (
                random_order_aucnorm(round(xi * total), total) if xi is not None and total else None
            )
            rows.append(
                [line.model, command, line.config, method]
                + [Markdown(f"[{result['scores']['aucnorm']:.3f}](#{page.anchor(command, line)})")]
                + [fmt_interval(interval_of([result["scores"]], "aucnorm_ci"))]
                + ["–" if chance is None else f"{chance:.3f}"]
                + ["–" if xi is None else f"{xi:.3f}", rows_text(line.rows)]
            )
            points = pr_curves.get(file)  # read with the results, checked there
            if points and xi is not None:
                recall, precision = points["recall"], points["precision"]
                title = f"{line.model} · {method} · {line.config}: precision-recall"
                name = f"{benchmark}-pr-{len(page.plots) + 1}.svg"
                text = svg.precision_recall(title, recall, precision, xi)
                plots.append(page.plot(name, text, title))
    if rows:
        header = ["model", "command", "config", "method", "AUCnorm", "AUCnorm 95% CI"]
        header += ["AUCnorm chance", "ξ"]
        table = BENCHMARKS[benchmark].paper_tables.get("aucnorm")
        page.parts += ["### AUCnorm and the random baseline ξ" + (f" ({table})" if table else "")]
        page.parts += [
            markdown_table([*header, "n rows"], rows, 4),
            "ξ is the precision of a random ranking (the share of true hypotheses), the dashed "
            "line of each precision-recall plot; AUCnorm is already the share of the area above "
            "ξ that a model's curve covers, so read it against AUCnorm chance (the mean AUCnorm "
            "of random orders of the same labels), not against ξ.",
            *plots,
        ]


def embeddings(page: Page, benchmark: str, embeds: list[tuple[str, dict]]) -> None:
    """Each embedding report of a benchmark: its tables and heatmaps, as the benchmark's spec
    declares them (Montague: Carvalho et al., Tables 2-5, and type × type grids)."""
    tests = BENCHMARKS[benchmark].embedding
    for file, report in embeds:
        models = ", ".join(m["label"] for m in report["models"])
        page.parts += [
            f"### {markdown_text(models)}: [{markdown_text(Path(file).name)}]({page.link(file)}) "
            f"· [per phrase]({page.link(str(rows_path(file)))})",
            f"Rerun: {markdown_code(report.get('command', ''))}",
            tests.tables(report, "####").strip(),
        ]
        for grid in tests.heatmaps(report):
            name = f"{benchmark}-{len(page.plots) + 1}.svg"
            text = svg.heatmap(grid.title, list(grid.rows), list(grid.columns), grid.cells)
            page.parts.append(page.plot(name, text, grid.title))


def runs_section(page: Page) -> None:
    """Each line's runs: seed, result file, per-row file and the command that reruns it."""
    page.parts.append("## Runs")
    for anchor, command, line in page.lines:
        items = []
        for result, file in zip(line.runs, line.files, strict=True):
            seed = "" if result["seed"] is None else f"seed {result['seed']}: "
            rows = rows_path(file)
            per_row = f" · [per row]({page.link(str(rows))})" if rows.is_file() else ""
            items.append(
                f"- {seed}[{markdown_text(Path(file).name)}]({page.link(file)}){per_row} · "
                f"{markdown_code(command_line(result, file))}"
            )
        label = f"**{markdown_text(line.label)}** ({command})"
        page.parts += [f'<a id="{anchor}"></a>{label}', "\n".join(items)]


def build(results: Results, out: Path) -> tuple[str, dict[str, str]]:
    """The page's Markdown and its SVG plots by file name, rendered from the results model;
    the analyses of saved runs are shown in their benchmarks' sections."""
    page = Page(out)
    benchmarks = results.by_benchmark()
    for report in [report for _, report in results.embeds] + results.analyses:
        benchmarks.setdefault(report.get("benchmark") or OTHER, [])
    names = ordered(benchmarks)
    page.parts += [
        "# compsem results",
        f"{len(results.results) + len(results.embeds)} result files; benchmarks: "
        + ", ".join(f"[{markdown_text(name)}](#{markdown_anchor(name)})" for name in names)
        + ". Lines pool seeds and resampled splits only; runs that differ in any evaluation "
        "setting are separate lines (settings column). Every number links to its runs below.",
    ]
    for name in names:
        lines = benchmarks[name]
        page.parts.append(
            f'<a id="{markdown_anchor(name)}"></a>\n\n## {markdown_text(heading(name))}'
        )
        if lines:
            leaderboard(page, lines)
        embeds = [e for e in results.embeds if e[1].get("benchmark") == name]
        page.parts += reference_parts(name, lines, embeds, page.anchor)
        twins(page, lines)
        spec = BENCHMARKS.get(name)
        if spec and spec.aucnorm:
            aucnorm_table(page, name, lines, results.pr_curves)
        breakdowns(page, name, lines)
        labels(page, lines)
        confusions(page, lines)
        prompt_heatmaps(page, lines)
        page.parts += recency_parts(lines, page.plot)
        page.parts += length_parts(lines, page.plot)
        curves(page, name, lines)
        analyses = [a for a in results.analyses if a.get("benchmark") == name]
        page.parts += analysis_parts(analyses, page.plot)
        harm = [line for command, line in lines if command == "harm-detection"]
        if harm:
            runs = [run for line in harm for run in line.runs]
            files = [file for line in harm for file in line.files]
            page.parts.append(render_harm(aggregate_harm(runs, files), "###"))
        if spec and spec.embedding:
            embeddings(page, name, embeds)
    if results.unreadable:
        page.parts.append(render_unreadable(results.unreadable))
    runs_section(page)
    return "\n\n".join(page.parts) + "\n", page.plots
