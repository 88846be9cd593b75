"""The help formatter of every `compsem` command, in a module of its own so that each command
module can import it without importing the CLI that imports them."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Keeps descriptions and epilogs as written and shows defaults, except where there is none
    to show."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)
