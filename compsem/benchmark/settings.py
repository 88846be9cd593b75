"""Build settings declared once, as fields of a benchmark's ``BuilderConfig`` dataclass.

A field made with :func:`build_setting` carries its help text (and, where the type alone does not say
it, a metavar) in its metadata. Everything else is derived from the field: its ``compsem build
NAME --flag`` (:func:`add_setting_arguments`), the builder keyword arguments a parsed command line
gives (:func:`setting_values`) and the card's table of the settings a config was built with
(:func:`settings_table`). Fields made without it (``regime``, ``split_index``, ``task``…) name
what a config *is*, not how it was built, and stay off the command line.

Example::

    @dataclass
    class ToyConfig(datasets.BuilderConfig):
        regime: str = "full"
        seed: int = build_setting(42, "base random seed")
        corpus: str | None = build_setting(None, "a text file, one document per line", metavar="FILE")
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import types
import typing
from collections.abc import Collection, Iterator
from typing import Any

_HELP = "compsem_help"
_METAVAR = "compsem_metavar"
_MINIMUM = "compsem_minimum"
# What a flag's value looks like in --help where the setting names no metavar of its own.
_METAVARS = {int: "N", float: "X", str: "VALUE"}
# Every count and seed is non-negative and every float setting is a share, so a value outside
# these bounds is a typo, refused by argparse before any work ("--max-docs -3" once reached
# itertools.islice). A setting where 0 means nothing useful raises its own minimum.
_BOUNDS = {int: (0, None), float: (0.0, 1.0)}


def build_setting(
    default: Any, help: str, *, metavar: str | None = None, minimum: int | None = None
) -> Any:
    """A config field that is a build setting: ``compsem build`` gets a flag for it.

    ``minimum``: the smallest value allowed, where it is above the type's bound (0 for integers).
    """
    metadata = {_HELP: help, _METAVAR: metavar, _MINIMUM: minimum}
    return dataclasses.field(default=default, metadata=metadata)


def bounded(kind: type, minimum: float | None = None, maximum: float | None = None):
    """An argparse type: ``kind`` (int or float) between ``minimum`` and ``maximum``."""

    def parse(text: str):
        value = kind(text)
        span = f"from {minimum} to {maximum}" if maximum is not None else f"{minimum} or more"
        if not math.isfinite(value):  # nan compares false with every bound
            raise argparse.ArgumentTypeError(f"{text} is not a number: give a number {span}")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"{text} is out of range: give a number {span}")
        return value

    parse.__name__ = kind.__name__  # argparse names it in "invalid int value: 'x'"
    return parse


def setting_fields(config_class: type) -> Iterator[dataclasses.Field]:
    """The fields of ``config_class`` declared with :func:`build_setting`, in declaration order."""
    return (f for f in dataclasses.fields(config_class) if _HELP in f.metadata)


def _argument_type(annotation: Any) -> dict:
    """argparse keywords for a field's type: ``int``, ``float``, ``str``, optional ones, and
    tuples (``tuple[int, ...]`` takes one or more values, ``tuple[int, int]`` exactly two)."""
    arguments = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return _argument_type(arguments[0])
    if typing.get_origin(annotation) is tuple:
        count = "+" if arguments[-1] is Ellipsis else len(arguments)
        return {"type": arguments[0], "nargs": count}
    if annotation is bool:
        return {"action": argparse.BooleanOptionalAction}
    return {"type": annotation}


def add_setting_arguments(
    parser: argparse.ArgumentParser, config_class: type, names: Collection[str] | None = None
) -> None:
    """One ``--flag`` per setting of ``config_class`` (or per one of ``names``), with its type,
    default and help."""
    hints = typing.get_type_hints(config_class)
    for f in setting_fields(config_class):
        if names is not None and f.name not in names:
            continue
        keywords = _argument_type(hints[f.name])
        metavar = f.metadata[_METAVAR] or _METAVARS.get(keywords.get("type"))
        if metavar and "action" not in keywords:
            keywords["metavar"] = metavar
        if keywords.get("type") in _BOUNDS:
            minimum, maximum = _BOUNDS[keywords["type"]]
            keywords["type"] = bounded(keywords["type"], f.metadata[_MINIMUM] or minimum, maximum)
        parser.add_argument(
            "--" + f.name.replace("_", "-"),
            dest=f.name,
            default=f.default,
            help=f.metadata[_HELP],
            **keywords,
        )


def setting_values(args: argparse.Namespace, config_class: type) -> dict:
    """The settings a parsed command line changes from their defaults, as builder keyword
    arguments (tuples as tuples, so they hash and compare like the field defaults)."""
    values = {}
    for f in setting_fields(config_class):
        value = getattr(args, f.name, f.default)
        value = tuple(value) if isinstance(value, list) else value
        if value != f.default:
            values[f.name] = value
    return values


def settings_table(config: Any) -> str:
    """The card's Markdown table of every setting of ``config``: its flag, value and meaning."""
    lines = ["| setting | value | meaning |", "|---|---|---|"]
    for f in setting_fields(type(config)):
        value = getattr(config, f.name)
        shown = "default" if value is None else f"`{value}`"
        lines.append(f"| `--{f.name.replace('_', '-')}` | {shown} | {f.metadata[_HELP]} |")
    return "\n".join(lines)
