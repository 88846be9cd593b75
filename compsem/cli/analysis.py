"""The papers' analyses: ``compsem subwords`` of saved runs (PLANE §6.1–6.2, Figs. 2–3),
``compsem pmi`` of an export (PLANE App. A, Fig. 4), and RNPC §7's probes of models,
``compsem probe-edges`` and ``compsem probe-scope``. ``add_commands(subparsers)`` registers them;
the analyses are ``compsem.harness.analysis``'s, the probes ``compsem.harness.probing``'s.
``compsem report`` (``add_report_command``, registered by ``compsem.cli.harness`` after the
commands whose runs it reads) is ``compsem.harness.report``'s."""

from __future__ import annotations

import argparse
from pathlib import Path

from compsem.benchmark.settings import bounded
from compsem.files.output_folder import results_folder
from compsem.harness.analysis.pmi import markdown as pmi_markdown
from compsem.harness.analysis.pmi import run_pmi
from compsem.harness.analysis.run import run_subwords
from compsem.harness.models.device import add_device_arguments
from compsem.harness.models.offline import loadable_model_argument
from compsem.harness.report.run import run_report
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
    add_probe_commands(subparsers)


def _probe_arguments(parser: argparse.ArgumentParser, max_phrases: int) -> None:
    parser.add_argument(
        "--dataset", required=True, help="Hub id (compsem/rnpc) or local export folder"
    )
    parser.add_argument(
        "--config", required=True, help="a config of phrases Det M1 M2 N (spte_challenge …)"
    )
    parser.add_argument(
        "--model",
        dest="models",
        action="append",
        required=True,
        type=loadable_model_argument,
        help="an encoder: Hub id, folder (a `compsem train --save-model` output) or minilm; "
        "repeat for before/after (the pretrained model, then the fine-tuned one)",
    )
    parser.add_argument("--out", type=results_folder, required=True, help="folder for the files")
    parser.add_argument("--split", default="test", help="the split whose phrases are read")
    parser.add_argument("--revision", help="Hub revision (tag, branch or commit) to load")
    parser.add_argument(
        "--max-phrases",
        type=bounded(int, 1),
        default=max_phrases,
        metavar="N",
        help="read the split's first N distinct phrases (its order is representative)",
    )
    parser.add_argument(
        "--batch-size", type=bounded(int, 1), default=64, help="phrases per forward pass"
    )
    add_device_arguments(parser)


def _probe_handler(function: str, *arguments: str):
    def handler(args: argparse.Namespace) -> int:
        from compsem.harness.probing import edges, scope  # deferred: imports torch

        run = getattr(edges if function == "run_probe_edges" else scope, function)
        shared = ("dataset", "config", "out", "models", "split", "revision", "max_phrases")
        run(**{name: getattr(args, name) for name in (*shared, *arguments)})
        print((Path(args.out) / "summary.md").read_text())
        print(f"Results in {args.out}/")
        return 0

    return handler


def add_probe_commands(subparsers) -> None:
    """Register ``probe-edges`` and ``probe-scope`` (RNPC §7) on ``compsem``'s subparsers."""
    device = ("batch_size", "device", "precision")
    edges = subparsers.add_parser(
        "probe-edges",
        formatter_class=HelpFormatter,
        help="RNPC §7 (Fig. 4): edge probing of modifier category, before/after fine-tuning",
        description="A linear probe (scikit-learn SGDClassifier, Appendix E.3's grid, chosen on "
        "validation) predicts each modifier's semantic category (intersective, subsective, "
        "privative) from its frozen representation: the mean of its subword pieces' hidden "
        "states, at the last layer (the paper's) or those given. Modifier words are split 60/20/20 per category into train, "
        "validation and test, so no test word is seen in training. Give --model twice to "
        "compare a pretrained encoder with the same one fine-tuned. Writes "
        "probe-edges-CONFIG.json, its .rows.jsonl (each test modifier's predicted category) "
        "and summary.md; `compsem report` plots them.",
        epilog="example:\n  compsem train --dataset hub/rnpc --config spte_challenge "
        "--max-train-examples 2000 --save-model --out runs/spte\n"
        "  compsem probe-edges --dataset hub/rnpc --config spte_challenge --model minilm "
        "--model runs/spte/model-seed1 --out runs/probe-edges\n",
    )
    _probe_arguments(edges, 2000)
    edges.add_argument(
        "--layers",
        type=int,
        nargs="+",
        metavar="L",
        help="the layers to probe (0: embeddings, -1: the last); default: the last, the paper's "
        "(Appendix E.3's grid is 1,620 distinct probes per layer and model)",
    )
    edges.add_argument("--seed", type=bounded(int, 0), default=0, help="the modifier split's")
    edges.add_argument(
        "--jobs", type=bounded(int, 1), default=1, help="threads per probe (the paper: all)"
    )
    edges.set_defaults(handler=_probe_handler("run_probe_edges", "layers", "seed", "jobs", *device))
    scope = subparsers.add_parser(
        "probe-scope",
        formatter_class=HelpFormatter,
        help="RNPC §7 (Fig. 5): a privative M1's scope over M2 or N, by attention",
        description="For each phrase Det M1 M2 N whose M1 is privative: r = A(M1→M2) / "
        "(A(M1→M2) + A(M1→N)), A the attention from M1 to a word averaged over heads (summed "
        "over the word's pieces, averaged over M1's), at every layer, per model (give --model "
        "twice for before/after fine-tuning), and per M1 word at the last layer. Needs an "
        "encoder that returns attention weights. Writes probe-scope-CONFIG.json, its "
        ".rows.jsonl (each phrase's r per layer) and summary.md; `compsem report` plots them.",
        epilog="example:\n  compsem probe-scope --dataset hub/rnpc --config spte_challenge "
        "--model minilm --model runs/spte/model-seed1 --out runs/probe-scope\n",
    )
    _probe_arguments(scope, 500)
    scope.set_defaults(handler=_probe_handler("run_probe_scope", *device))


def cmd_report(args: argparse.Namespace) -> int:
    print(run_report(args.runs, args.out))
    if args.out:
        print(f"Wrote {args.out}/report.md, report.json and the results page index.html")
    return 0


def add_report_command(subparsers) -> None:
    """Register ``report`` (``compsem.cli.harness`` calls it after its own commands)."""
    report = subparsers.add_parser(
        "report",
        formatter_class=HelpFormatter,
        help="aggregate result folders into mean ± std tables (Markdown and JSON) and a page",
        description="Aggregate result files into mean ± std tables; runs pool only over seeds "
        "and resampled splits, every other evaluation setting makes its own line. With --out, "
        "also write index.html, a self-contained results page (tables, plots as inline SVG, "
        "links to each result and per-row file, the command that reruns each run), and its "
        "Markdown twin index.md.",
        epilog="example:\n  compsem report runs/plane runs/zero --out runs/report\n",
    )
    report.add_argument(
        "runs", nargs="+", type=Path, metavar="RUN_DIR", help="--out folders or result files"
    )
    report.add_argument(
        "--out",
        type=results_folder,
        help="also write report.md, report.json, index.html, index.md and plots/ here",
    )
    report.set_defaults(handler=cmd_report)
