"""The ``push``, ``pull`` and ``audit`` commands of the ``compsem`` command line.

``compsem.cli.build_parser`` registers them with::

    from compsem.cli.publish import add_commands
    add_commands(commands)
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path

from compsem.benchmark.card import NOT_AUDITED
from compsem.benchmark.settings import bounded
from compsem.files.export_reader import read_export
from compsem.files.ownership import OutputFolderError, check_claimable, claim_file, file_in_the_way
from compsem.publish.audit import audit_folder, audit_release
from compsem.publish.hub import pull, push
from compsem.text.help_format import HelpFormatter


def cmd_push(args: argparse.Namespace) -> int:

    card = read_export(args.folder).card  # validated: names, data files confined and regular
    if NOT_AUDITED in str(card):
        print(
            f"note: {args.folder} was not audited; `compsem audit {args.folder}` adds the "
            "audit to its card.",
            file=sys.stderr,
        )
    result = push(args.folder, args.repo_id, args.tag, args.revision, args.private, args.create_pr)
    print(f"Pushed {args.folder} to {result.repo_id} in one commit ({result.commit[:12]}).")
    if result.pr_url:
        print(f"Opened {result.pr_url}")
    if result.tag:
        version = result.tag.removeprefix("v")
        print(f"Tagged {result.tag}: compsem.load({result.repo_id!r}, CONFIG, version={version!r})")
    if result.inspect_tasks:
        tasks = result.inspect_tasks
        print(
            f"Inspect: `inspect eval hf/{result.repo_id} --model MODEL` runs "
            f"{len(tasks)} multiple-choice task(s) ({', '.join(tasks)})."
        )
    return 0


def cmd_pull(args: argparse.Namespace) -> int:

    folder = pull(args.name, args.version, args.config, local_dir=args.out)
    print(folder)
    return 0


def cmd_audit(args: argparse.Namespace) -> int:

    if args.json:
        check_json_target(args.json)
    options = {
        "configs": args.config,
        "hypothesis_only": not args.no_hypothesis_only,
        "max_hypothesis_only_aucnorm": args.max_hypothesis_only_aucnorm,
    }
    if args.original:
        report = audit_release(args.original, args.folder, **options)
    else:
        report = audit_folder(args.folder, args.benchmark, write_card=not args.no_card, **options)
    print(report.to_markdown())
    if report.card_note:
        print(f"note: {report.card_note}", file=sys.stderr)
    if args.json:
        text = json.dumps(report.to_json(), indent=2) + "\n"
        with naming_json():
            claim_file(args.json, lambda partial: partial.write_text(text))
    broken = report.broken()
    if broken:
        print(f"\ncompsem audit: {len(broken)} broken promise(s).", file=sys.stderr)
        return 1
    return 0


def check_json_target(path: Path) -> None:
    """One clear error, before the audit runs (minutes with the hypothesis-only probe) and before
    it rewrites the card, where ``--json`` names a file compsem may not write."""
    where = file_in_the_way(path, itself=False)
    if where:
        raise OutputFolderError(f"--json {path} {where}; choose another --json.")
    with naming_json():
        check_claimable(path)


@contextmanager
def naming_json():
    """The ownership errors advise another --out, the option of the commands that write into a
    folder; here the path is --json's."""
    try:
        yield
    except OutputFolderError as error:
        raise OutputFolderError(str(error).replace("--out", "--json")) from None


def _add_push(commands, formatter) -> None:
    push = commands.add_parser(
        "push",
        formatter_class=formatter,
        help="upload an export folder to the Hub in one commit and tag its version",
        description="Upload the card and Parquet shards of an export folder to a Hub dataset "
        "repo (created if needed) in one commit, deleting shards an earlier version left, then "
        "tag the commit. The token comes from `hf auth login` or HF_TOKEN and is never printed.",
        epilog="example:\n  compsem push hub/plane --repo-id compsem/plane --tag v1.0.0\n",
    )
    push.add_argument("folder", type=Path, metavar="DIR", help="an export folder (compsem build)")
    push.add_argument("--repo-id", required=True, metavar="ORG/NAME", help="the dataset repo")
    push.add_argument(
        "--tag", metavar="vX.Y.Z", help="tag the commit; must match the version in the card"
    )
    push.add_argument("--revision", metavar="BRANCH", help="push to this branch (default: main)")
    push.add_argument("--private", action="store_true", help="create the repo as private")
    push.add_argument("--create-pr", action="store_true", help="open a pull request instead")
    push.set_defaults(handler=cmd_push)


def _add_pull(commands, formatter) -> None:
    pull = commands.add_parser(
        "pull",
        formatter_class=formatter,
        help="download one version of a dataset for offline, pinned loading",
        description="Download a version (a vX.Y.Z tag) of a dataset repo with snapshot_download "
        "and print the folder; load_dataset(FOLDER, CONFIG) then reads exactly that version, "
        "online or offline.",
        epilog="examples:\n  compsem pull plane --version 1.0.0\n"
        "  compsem pull my-org/plane --version 1.0.0 --config goood_split_1 --out plane-1.0.0\n",
    )
    pull.add_argument("name", metavar="NAME", help="a benchmark (plane) or ORG/NAME")
    pull.add_argument("--version", help="X.Y.Z (default: the newest commit on main)")
    pull.add_argument("--config", nargs="+", metavar="NAME", help="only these configs")
    pull.add_argument("--out", type=Path, metavar="DIR", help="a folder instead of the HF cache")
    pull.set_defaults(handler=cmd_pull)


def _add_audit(commands, formatter) -> None:
    audit = commands.add_parser(
        "audit",
        formatter_class=formatter,
        help="check that every config keeps its split regime's promises",
        description="For each config: the promises of its split regime (vocabulary and "
        "compound disjointness, atoms in train, label balance …), duplicates within and across "
        "splits, and a hypothesis-only bag-of-words probe (accuracy, AUCnorm). Prints a "
        "Markdown report, writes it into the folder's card, and exits 1 if a promise is broken.",
        epilog="examples:\n  compsem audit hub/plane\n"
        "  compsem audit PLANE/supervised_learning --original plane "
        "--config original_goood_split_1\n",
    )
    audit.add_argument("folder", type=Path, metavar="DIR", help="an export folder, or a release")
    audit.add_argument("--config", nargs="+", metavar="NAME", help="audit only these configs")
    audit.add_argument("--benchmark", help="which benchmark (default: read from the card)")
    audit.add_argument(
        "--original",
        metavar="BENCHMARK",
        help="DIR is this benchmark's original release, read through loading_scripts/",
    )
    audit.add_argument("--no-card", action="store_true", help="leave the card unchanged")
    audit.add_argument(
        "--no-hypothesis-only", action="store_true", help="skip the hypothesis-only probe"
    )
    audit.add_argument(
        "--max-hypothesis-only-aucnorm",
        type=bounded(float, -1.0, 1.0),
        metavar="X",
        help="also fail when a hypothesis-only probe reaches AUCnorm above X",
    )
    audit.add_argument("--json", type=Path, metavar="PATH", help="also write the report as JSON")
    audit.set_defaults(handler=cmd_audit)


def add_commands(commands) -> None:
    """Register ``push``, ``pull`` and ``audit`` on the ``compsem`` subparsers."""
    _add_push(commands, HelpFormatter)
    _add_pull(commands, HelpFormatter)
    _add_audit(commands, HelpFormatter)
