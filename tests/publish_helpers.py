"""Running the publishing commands as ``compsem`` runs them, for the publish and audit tests."""

import argparse
import json
import shutil
import sys
from pathlib import Path

from compsem.cli.publish import add_commands
from compsem.files.ownership import MARKER, write_manifest


def run_cli(argv: list[str]) -> int:
    """``compsem ARGV`` with ``compsem.cli.program``'s error handling. Until ``compsem.cli`` registers
    the publishing commands, they run from a parser of their own."""
    from compsem.cli import program as cli

    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if "push" not in commands.choices:
        parser = argparse.ArgumentParser(prog="compsem")
        add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except (ValueError, RuntimeError, OSError) as error:
        print(f"compsem {args.command}: error: {error}", file=sys.stderr)
        return 2


def copy_export(source: Path, target: Path) -> Path:
    """A copy of the export ``source`` at ``target`` as if compsem had built it there: a copied
    manifest does not verify (its signature names the folder it governs), so the copy's is
    signed again for its place. ``copytree`` keeps the stamps the manifest lists."""
    shutil.copytree(source, target)
    write_manifest(target, json.loads((target / MARKER).read_text()))
    return target
