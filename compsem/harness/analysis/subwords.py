"""The subword analysis of PLANE §6.1–6.2 (Figs. 2 and 3): for each evaluated config and each
group of items (PLANE: the adjective's class), the share of items in which the model's tokenizer
splits at least one word into subword pieces, and the accuracy on the items with and without
such a word; across configs, a least-squares line of accuracy on that share per group, as the
paper's figures draw; and how many of the modifier's pieces the other words' pieces also use (the
overlap the paper reads the figures with).

It reads a run's per-row file and the rows of the config it evaluated, so any tokenizer and any
result of ``train`` (or a ``curve``'s largest size) can be analysed after the run."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from compsem.text.escape import markdown_text

Tokenize = Callable[[str], list[str]]


@dataclass(frozen=True)
class Item:
    """One evaluated row: its group, its words by column, and whether the model was right."""

    group: str
    words: Mapping[str, str | None]
    correct: bool


def word_pieces(tokenize: Tokenize, text: str | None) -> list[tuple[str, ...]]:
    """The pieces of each whitespace-separated word of ``text`` (none for a missing value),
    each word tokenised as it stands inside a sentence (after a space, which byte-level BPE and
    SentencePiece mark)."""
    return [tuple(tokenize(" " + word)) for word in (text or "").split()]


def is_split(pieces: tuple[str, ...]) -> bool:
    return len(pieces) > 1


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def group_point(items: Sequence[Item], pieces: Callable[[str], list[tuple[str, ...]]]) -> dict:
    """The figures of one (config, group): items, the share with a split word, accuracy overall
    and on each side of that divide."""
    split = [any(map(is_split, (p for w in i.words.values() for p in pieces(w)))) for i in items]
    with_sw = [i for i, s in zip(items, split, strict=True) if s]
    without = [i for i, s in zip(items, split, strict=True) if not s]
    return {
        "items": len(items),
        "with_subwords": _share(len(with_sw), len(items)),
        "accuracy": _share(sum(i.correct for i in items), len(items)),
        "items_with_subwords": len(with_sw),
        "accuracy_with_subwords": _share(sum(i.correct for i in with_sw), len(with_sw)),
        "accuracy_without_subwords": _share(sum(i.correct for i in without), len(without)),
    }


def piece_overlap(
    items: Sequence[Item], modifier: str, pieces: Callable[[str], list[tuple[str, ...]]]
) -> dict:
    """Of the pieces of the modifier words that are split, how many also occur among the split
    pieces of the group's other words (PLANE: nouns and hypernyms)."""
    own, others = set(), set()
    for item in items:
        for column, text in item.words.items():
            split_pieces = {p for word in pieces(text) if is_split(word) for p in word}
            (own if column == modifier else others).update(split_pieces)
    return {
        "modifier_pieces": len(own),
        "other_pieces": len(others),
        "shared_share": _share(len(own & others), len(own)),
    }


def least_squares(points: Sequence[tuple[float, float]]) -> dict | None:
    """Slope and intercept of y on x, or None with fewer than two distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    slope = sxy / sxx
    return {"slope": slope, "intercept": mean_y - slope * mean_x, "points": n}


def analyse(runs: Mapping[str, Iterable[Item]], tokenize: Tokenize, modifier: str) -> dict:
    """``runs`` maps each evaluated config to its items (the rows of all its seeds, so a config's
    accuracy is the mean over its runs). Returns the points (config × group), one fit per group
    and the piece overlap per (config, group)."""
    cache: dict[str, list[tuple[str, ...]]] = {}

    def pieces(text: str) -> list[tuple[str, ...]]:
        if text not in cache:
            cache[text] = word_pieces(tokenize, text)
        return cache[text]

    points, overlap = [], []
    by_group: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for config, items in runs.items():
        groups: dict[str, list[Item]] = defaultdict(list)
        for item in items:
            groups[item.group].append(item)
        for group in sorted(groups):
            point = {"config": config, "group": group, **group_point(groups[group], pieces)}
            points.append(point)
            by_group[group].append((point["with_subwords"], point["accuracy"]))
            overlap.append(
                {"config": config, "group": group, **piece_overlap(groups[group], modifier, pieces)}
            )
    fits = {group: least_squares(xy) for group, xy in sorted(by_group.items())}
    return {"points": points, "fits": fits, "overlap": overlap}


def markdown(analysis: dict) -> str:
    """The analysis as two Markdown tables (points, then fits)."""

    def cell(value) -> str:
        if value is None:
            return "—"
        return f"{value:.3f}" if isinstance(value, float) else markdown_text(str(value))

    lines = [
        "| config | group | items | share with subwords | accuracy | with | without | "
        "modifier pieces shared |",
        "|---|---|--:|--:|--:|--:|--:|--:|",
    ]
    shared = {(o["config"], o["group"]): o["shared_share"] for o in analysis["overlap"]}
    for p in analysis["points"]:
        lines.append(
            "| "
            + " | ".join(
                cell(v)
                for v in (
                    p["config"],
                    p["group"],
                    p["items"],
                    p["with_subwords"],
                    p["accuracy"],
                    p["accuracy_with_subwords"],
                    p["accuracy_without_subwords"],
                    shared[(p["config"], p["group"])],
                )
            )
            + " |"
        )
    lines += [
        "",
        "| group | slope of accuracy on the share | intercept | configs |",
        "|---|--:|--:|--:|",
    ]
    for group, fit in analysis["fits"].items():
        if fit is None:
            lines.append(f"| {markdown_text(group)} | — | — | fewer than two distinct shares |")
        else:
            lines.append(
                f"| {markdown_text(group)} | {fit['slope']:.3f} | {fit['intercept']:.3f} | "
                f"{fit['points']} |"
            )
    return "\n".join(lines) + "\n"
