"""The papers' analyses: ``compsem subwords`` (PLANE §6.1–6.2, Figs. 2–3) of saved runs and
``compsem pmi`` (PLANE App. A, Fig. 4) of an export.
``add_commands(subparsers)`` registers them; the analyses are ``compsem.harness.analysis``'s."""

from __future__ import annotations

import argparse
from pathlib import Path

from compsem.files.output_folder import results_folder
from compsem.harness.analysis.pmi import markdown as pmi_markdown
from compsem.harness.analysis.pmi import run_pmi
from compsem.harness.analysis.run import run_subwords
from compsem.text.help_format import HelpFormatter


def cmd_subwords(args: argparse.Namespace) -> int:
    analysis = run_subwords(args.runs, args.out, args.words, args.by, args.tokenizer)
    print((Path(args.out) / "subwords.md").read_text())
    print(f"Analysed {analysis['runs']} run(s); wrote subwords.json, .md and .svg to {args.out}")
    return 0


def cmd_pmi(args: argparse.Namespace) -> int:
    analysis = run_pmi(args.dataset, args.config, args.out, args.revision)
    print(pmi_markdown(analysis))
    print(f"Wrote pmi.json, .md and .svg to {args.out}")
    return 0


def add_commands(subparsers) -> None:
    """Register ``subwords`` and ``pmi`` on ``compsem``'s subparsers."""
    subwords = subparsers.add_parser(
        "subwords",
        formatter_class=HelpFormatter,
        help="accuracy against the share of items with subword-split words (PLANE Figs. 2-3)",
        description="The subword analysis of PLANE §6.1-6.2: for each evaluated config and each "
        "adjective class, the share of test items in which the tokenizer splits the adjective, "
        "noun or hypernym into pieces, the accuracy with and without such a word, a "
        "least-squares line of accuracy on that share per class across configs (the paper's "
        "five GOoD or One-IT splits), and how many of the adjectives' pieces the nouns' and "
        "hypernyms' pieces share. Reads the result files and per-row files of train (or curve: "
        "its largest size) runs and the export they evaluated; writes subwords.json, "
        "subwords.md and the scatter plot subwords.svg.",
        epilog="example:\n  compsem train --dataset hub/plane --config goood_split_1 --out runs/g1\n"
        "  compsem subwords runs/g1 runs/g2 runs/g3 runs/g4 runs/g5 --out runs/subwords\n",
    )
    subwords.add_argument("runs", nargs="+", type=Path, help="result files or run folders")
    subwords.add_argument(
        "--out", type=results_folder, required=True, help="folder for the analysis files"
    )
    subwords.add_argument(
        "--tokenizer", help="Hub id, folder or offline model (default: the runs' model)"
    )
    subwords.add_argument(
        "--words",
        nargs="+",
        metavar="COLUMN",
        help="the word columns, the modifier first (default: the benchmark's declared ones; "
        "PLANE: adjective noun hypernym)",
    )
    subwords.add_argument(
        "--by", metavar="COLUMN", help="the grouping column (default: PLANE's adjective_class)"
    )
    subwords.set_defaults(handler=cmd_subwords)

    pmi = subparsers.add_parser(
        "pmi",
        formatter_class=HelpFormatter,
        help="PMI of a PLANE export's phrases by adjective class (PLANE App. A, Fig. 4)",
        description="Read every split of a config of an export, take each distinct adjective-"
        "noun phrase once with the PMI its build recorded (log2, over the corpus's amod pairs), "
        "and report per adjective class its count, mean, median, quartiles, range and the "
        "shares at or below 0 and at or above 15 (the paper's hand checks); writes pmi.json, "
        "pmi.md and pmi.svg (share of phrases per PMI bin, a line per class). `compsem report` "
        "shows it in the benchmark's section.",
        epilog="example:\n  compsem pmi --dataset hub/plane --config goood_split_1 --out runs/pmi\n",
    )
    pmi.add_argument("--dataset", required=True, help="an export folder or Hub id")
    pmi.add_argument("--config", required=True, help="an item config (goood_split_1 …)")
    pmi.add_argument("--revision", help="Hub revision (tag, branch or commit) to load")
    pmi.add_argument(
        "--out", type=results_folder, required=True, help="folder for the analysis files"
    )
    pmi.set_defaults(handler=cmd_pmi)
