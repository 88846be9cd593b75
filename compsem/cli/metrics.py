"""``compsem metrics``: install compsem's evaluate metrics for offline loading by bare name, or
push them to the Hub as Spaces (``compsem.metrics``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from compsem.metrics import METRICS, install, push
from compsem.text.help_format import HelpFormatter


def cmd_install(args: argparse.Namespace) -> int:
    for path in install(args.names, args.modules_cache):
        print(f"installed {path.stem}: evaluate.load({path.stem!r}) now works offline ({path})")
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    for url in push(args.namespace, args.names, token=args.token, private=args.private):
        print(f"pushed {url}")
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Register the `metrics` command (`install`, `push`) on a CLI's subparsers."""
    metrics = subparsers.add_parser(
        "metrics",
        formatter_class=HelpFormatter,
        help="install or publish the evaluate metrics (aucnorm, consistency, few_shot_curve)",
        description="Install compsem's evaluate metrics for offline loading, or push them to the Hub.",
        epilog="examples:\n"
        "  compsem metrics install\n"
        "  compsem metrics install aucnorm --modules-cache /tmp/modules\n"
        "  compsem metrics push --namespace my-org\n",
    )
    commands = metrics.add_subparsers(dest="metrics_command", required=True, metavar="SUBCOMMAND")
    install_parser = commands.add_parser(
        "install",
        formatter_class=HelpFormatter,
        help='make evaluate.load("<name>") find the metrics by bare name, offline too',
    )
    install_parser.add_argument(
        "names", nargs="*", metavar="NAME", default=list(METRICS), help="metrics to install"
    )
    install_parser.add_argument(
        "--modules-cache",
        type=Path,
        help="evaluate's modules cache; unset: $HF_MODULES_CACHE or ~/.cache/huggingface/modules",
    )
    install_parser.set_defaults(handler=cmd_install)
    push_parser = commands.add_parser(
        "push", formatter_class=HelpFormatter, help="publish the metrics as Hub Spaces NS/<name>"
    )
    push_parser.add_argument(
        "names", nargs="*", metavar="NAME", default=list(METRICS), help="metrics to push"
    )
    push_parser.add_argument(
        "--namespace",
        required=True,
        default=argparse.SUPPRESS,
        help="Hub user or organisation that will own the Spaces",
    )
    push_parser.add_argument("--token", help="Hub token; unset: the logged-in one or $HF_TOKEN")
    push_parser.add_argument("--private", action="store_true", help="create private Spaces")
    push_parser.set_defaults(handler=cmd_push)
    return metrics
