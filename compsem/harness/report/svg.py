"""Plots as standalone SVG text, so a results page carries them inline and needs no network, no
image files and no plotting library: few-shot curves with a band over seeds, precision-recall
curves with the random baseline ξ, bars per class, type × type heatmaps and scatter plots with
least-squares lines."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT = 460, 280
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 30, 36
COLOURS = ("#1f6feb", "#d1495b", "#2a9d8f", "#e9a03b", "#6f42c1", "#6c757d")


def _frame(
    title: str, x_label: str, y_label: str, body: list[str], legend: list[str], height=HEIGHT
) -> str:
    """An SVG with a title, axis labels, the plot body and a legend below it, one line per
    series, so long model names are shown whole."""
    keys = [
        f'<rect x="{LEFT}" y="{height + 6 + 15 * i}" width="10" height="10" '
        f'fill="{COLOURS[i % len(COLOURS)]}"/><text x="{LEFT + 15}" y="{height + 15 + 15 * i}" '
        f'class="legend">{escape(name[:70])}</text>'
        for i, name in enumerate(legend)
    ]
    total = height + 15 * len(legend) + (6 if legend else 0)
    return (
        f'<svg class="plot" role="img" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
        f'height="{total}" viewBox="0 0 {WIDTH} {total}" font-family="sans-serif" '
        f'font-size="11"><title>{escape(title)}</title>'
        f"<style>.legend{{font-size:10px}} .tick{{font-size:9px;fill:#555}}</style>"
        f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-weight="bold">'
        f"{escape(title[:80])}</text>"
        f'<text x="{WIDTH / 2}" y="{height - 8}" text-anchor="middle">{escape(x_label)}</text>'
        f'<text transform="translate(12 {height / 2}) rotate(-90)" text-anchor="middle">'
        f"{escape(y_label)}</text>" + "".join(body) + "".join(keys) + "</svg>"
    )


def _scale(low: float, high: float, start: float, end: float):
    span = (high - low) or 1.0
    return lambda value: start + (value - low) / span * (end - start)


def _axes(x, y, x_ticks: list[tuple[float, str]], y_ticks: list[float]) -> list[str]:
    bottom, top = HEIGHT - BOTTOM, TOP
    parts = [
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" stroke="#333"/>',
        f'<line x1="{LEFT}" y1="{top}" x2="{LEFT}" y2="{bottom}" stroke="#333"/>',
    ]
    for value in y_ticks:
        parts.append(
            f'<line x1="{LEFT}" y1="{y(value):.1f}" x2="{WIDTH - RIGHT}" y2="{y(value):.1f}" '
            f'stroke="#ddd"/><text x="{LEFT - 4}" y="{y(value) + 3:.1f}" text-anchor="end" '
            f'class="tick">{value:g}</text>'
        )
    for value, label in x_ticks:
        parts.append(
            f'<text x="{x(value):.1f}" y="{bottom + 12}" text-anchor="middle" class="tick">'
            f"{escape(label)}</text>"
        )
    return parts


def _points(xs, ys, x, y) -> str:
    return " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in zip(xs, ys, strict=True))


def curves(title: str, series: list[dict], x_label: str, y_label: str) -> str:
    """Few-shot learning curves: each series ``{"name", "shots", "mean", "std"}``, a line with a
    band of ± one standard deviation over seeds. Shots are spaced evenly (grids double)."""
    shots = sorted({k for s in series for k in s["shots"]})
    position = {k: i for i, k in enumerate(shots)}
    x = _scale(0, max(len(shots) - 1, 1), LEFT + 10, WIDTH - RIGHT - 10)
    y = _scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    body = _axes(x, y, [(position[k], str(k)) for k in shots], [0, 0.25, 0.5, 0.75, 1])
    for index, s in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        xs = [position[k] for k in s["shots"]]
        std = [v or 0.0 for v in s["std"]]
        upper = [m + d for m, d in zip(s["mean"], std, strict=True)]
        lower = [m - d for m, d in zip(s["mean"], std, strict=True)]
        band = _points(xs, upper, x, y) + " " + _points(xs[::-1], lower[::-1], x, y)
        body.append(f'<polygon class="band" points="{band}" fill="{colour}" opacity="0.18"/>')
        body.append(
            f'<polyline class="curve" points="{_points(xs, s["mean"], x, y)}" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
    return _frame(title, x_label, y_label, body, [s["name"] for s in series])


def precision_recall(title: str, recall: list, precision: list, baseline: float) -> str:
    """A precision-recall curve and the random baseline precision ξ as a dashed line."""
    x = _scale(0.0, 1.0, LEFT, WIDTH - RIGHT)
    y = _scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    ticks = [0, 0.25, 0.5, 0.75, 1]
    body = _axes(x, y, [(t, f"{t:g}") for t in ticks], ticks)
    body.append(
        f'<polyline class="curve" points="{_points(recall, precision, x, y)}" fill="none" '
        f'stroke="{COLOURS[0]}" stroke-width="2"/>'
    )
    body.append(
        f'<line class="baseline" x1="{x(0)}" y1="{y(baseline):.1f}" x2="{x(1)}" '
        f'y2="{y(baseline):.1f}" stroke="{COLOURS[1]}" stroke-dasharray="5 4"/>'
    )
    return _frame(title, "recall", "precision", body, ["model", f"random ξ = {baseline:.3f}"])


def bars(title: str, groups: list[str], series: list[dict], y_label: str) -> str:
    """Grouped bars: for each group (a class), one bar per series ``{"name", "values"}`` (None
    leaves a gap), with an error whisker where ``"std"`` is given."""
    x = _scale(0, max(len(groups), 1), LEFT + 6, WIDTH - RIGHT)
    y = _scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    slot = (x(1) - x(0)) * 0.8 / max(len(series), 1)
    ticks = [(i + 0.5, group) for i, group in enumerate(groups)]
    body = _axes(x, y, ticks, [0, 0.25, 0.5, 0.75, 1])
    for index, s in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        for i, value in enumerate(s["values"]):
            if value is None:
                continue
            left = x(i) + (x(1) - x(0)) * 0.1 + index * slot
            body.append(
                f'<rect class="bar" x="{left:.1f}" y="{y(value):.1f}" width="{slot - 2:.1f}" '
                f'height="{y(0) - y(value):.1f}" fill="{colour}"><title>{escape(groups[i])}: '
                f"{value:.3f}</title></rect>"
            )
            spread = (s.get("std") or [None] * len(groups))[i]
            if spread:
                middle = left + (slot - 2) / 2
                body.append(
                    f'<line x1="{middle:.1f}" y1="{y(min(1, value + spread)):.1f}" '
                    f'x2="{middle:.1f}" y2="{y(max(0, value - spread)):.1f}" stroke="#222"/>'
                )
    return _frame(title, "", y_label, body, [s["name"] for s in series])


def heatmap(
    title: str,
    rows: list[str],
    columns: list[str],
    cells: dict,
    x_label: str = "second adjective",
    y_label: str = "first adjective",
) -> str:
    """A rows × columns grid of scores in [0, 1] (``cells[(row, column)]``; missing is blank),
    each square shaded from white to blue and labelled with its value."""
    size, top = 40, TOP + 14
    body = []
    for i, row in enumerate(rows):
        body.append(
            f'<text x="{LEFT - 4}" y="{top + size * i + size / 2 + 3:.1f}" text-anchor="end" '
            f'class="tick">{escape(row)}</text>'
        )
        for j, column in enumerate(columns):
            value = cells.get((row, column))
            if value is None:
                continue
            light = int(250 - 190 * value)
            body.append(
                f'<rect class="cell" x="{LEFT + size * j}" y="{top + size * i}" '
                f'width="{size - 2}" height="{size - 2}" fill="rgb({light},{light + 5},255)">'
                f"<title>{escape(row)} × {escape(column)}: {value:.3f}</title></rect>"
                f'<text x="{LEFT + size * j + size / 2 - 1:.1f}" '
                f'y="{top + size * i + size / 2 + 3:.1f}" text-anchor="middle" class="tick" '
                f'style="fill:{"#fff" if value > 0.6 else "#222"}">{value:.2f}</text>'
            )
    for j, column in enumerate(columns):
        body.append(
            f'<text x="{LEFT + size * j + size / 2:.1f}" y="{top - 4}" text-anchor="middle" '
            f'class="tick">{escape(column)}</text>'
        )
    height = top + size * len(rows) + 24
    return _frame(title, x_label, y_label, body, [], height)


def scatter(title: str, series: list[dict], x_label: str, y_label: str) -> str:
    """Points on shares in [0, 1]: each series ``{"name", "x", "y", "fit"}`` a colour, with its
    least-squares line ``fit = (slope, intercept)`` drawn across the points' range (or None)."""
    x = _scale(0.0, 1.0, LEFT, WIDTH - RIGHT)
    y = _scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    ticks = [0, 0.25, 0.5, 0.75, 1]
    body = _axes(x, y, [(t, f"{t:g}") for t in ticks], ticks)
    for index, s in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        for a, b in zip(s["x"], s["y"], strict=True):
            if a is not None and b is not None:
                body.append(
                    f'<circle class="point" cx="{x(a):.1f}" cy="{y(b):.1f}" r="3.5" '
                    f'fill="{colour}"/>'
                )
        xs = [a for a in s["x"] if a is not None]
        if s.get("fit") and xs:
            slope, intercept = s["fit"]
            low, high = min(xs), max(xs)
            body.append(
                f'<line class="fit" x1="{x(low):.1f}" y1="{y(intercept + slope * low):.1f}" '
                f'x2="{x(high):.1f}" y2="{y(intercept + slope * high):.1f}" stroke="{colour}" '
                'stroke-width="1.5"/>'
            )
    return _frame(title, x_label, y_label, body, [s["name"] for s in series])
