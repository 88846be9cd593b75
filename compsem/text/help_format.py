"""The help formatter of every `compsem` command, in a module of its own so that each command
module can import it without importing the CLI that imports them."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Keeps descriptions and epilogs as written and shows defaults, except where there is none
    to show."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE)
        if (
            action.default in (None, False, argparse.SUPPRESS)
            or not shown
            or "default" in text  # the help says what the default is, in words
        ):
            return action.help
        default = action.default
        if isinstance(default, float):
            value = f"{default:g}"  # 0.1667, not 0.16666666666666666
        elif isinstance(default, (list, tuple)):
            value = " ".join(map(str, default)).replace("%", "%%")  # as typed, not a repr
        else:
            value = "%(default)s"
        return f"{text} (default: {value})"
