"""The ``compsem embed`` command: ``add_commands(subparsers)`` registers it on the ``compsem``
parser; the run and its report are ``compsem.harness.embed``'s."""

from __future__ import annotations

import argparse

from compsem.benchmark.settings import bounded
from compsem.files.output_folder import check_output_folder, output_path
from compsem.harness.embed.models import GLOVE, MINILM, POOLINGS
from compsem.harness.embed.report import command_line
from compsem.harness.embed.run import (
    PHRASE_SETS,
    SYNONYMS,
    embedding_tests,
    run_embed,
    vocabularies,
)
from compsem.text.help_format import HelpFormatter


def cmd_embed(args: argparse.Namespace) -> int:
    _, tests = embedding_tests(args.dataset, args.revision)
    # By default every phrase set the vocabulary has (PLANE's: AN only; its AAN set would be
    # 2.7M phrases).
    phrase_sets = args.phrase_sets or list(tests.phrase_configs.get(args.vocabulary, PHRASE_SETS))
    check_output_folder(args.out, tests.report_kind, force=args.force)
    report = run_embed(
        args.model or [MINILM],
        args.dataset,
        vocabulary=args.vocabulary,
        revision=args.revision,
        phrase_sets=phrase_sets,
        pooling=args.pooling,
        device=args.device,
        batch_size=args.batch_size,
        trust_remote_code=args.trust_remote_code,
        prefix=args.prefix,
    )
    command = command_line(
        args.dataset,
        args.model or [MINILM],
        args.pooling,
        args.vocabulary,
        args.phrase_sets,
        args.trust_remote_code,
        args.prefix,
    )
    files = tests.write_report(report, args.out, command, force=args.force)
    print(tests.tables(report, "##"))
    print(f"Wrote {', '.join(path.name for path in files)} to {args.out}")
    return 0


def add_commands(subparsers) -> argparse.ArgumentParser:
    """Register ``embed`` on ``compsem``'s subparsers."""
    embed = subparsers.add_parser(
        "embed",
        formatter_class=HelpFormatter,
        help="Montague consistency tests of embedding models (Carvalho et al., Tables 2-7)",
        description="Embed the Montague AN and AAN phrase sets and their words with each model "
        "and run the consistency metric's three tests: intersectivity (eq. 3) on AN and AAN, "
        "pair intersectivity (eq. 5) and non-subsectivity (eq. 7) on AN. Writes results.json, "
        "tables.md (the paper's Tables 2-7, a row per model), scores.tsv and heatmap PNGs of "
        "the type-pair tables. The phrases come from a Montague export: build one with "
        "`compsem build montague --out DIR` (add --lexicon FILE for your own words).",
        epilog="models: 'minilm' (offline all-MiniLM-L6-v2), any sentence-transformers or "
        "transformers folder or Hub id, 'glove' (GloVe 6B 50d) or a word-vector .txt/.vec file; "
        "LABEL=MODEL names a table row.\n\nexamples:\n"
        f"  compsem embed --dataset hub/montague --model {MINILM} --model {GLOVE} --out runs/m\n"
        "  compsem embed --dataset compsem/montague --model bert-base-uncased --pooling cls "
        "--out runs/bert-cls\n"
        "  compsem embed --dataset hub/montague --model bert-base-uncased --pooling cls mean "
        "--out runs/bert-pooling\n"
        "  compsem embed --dataset hub/montague --model nvidia/NV-Embed-v2 --trust-remote-code "
        "--out runs/nv\n"
        "  compsem embed --dataset hub/montague --model w2v=vectors.txt --vocabulary plane "
        "--out runs/w2v-plane\n",
    )
    embed.add_argument(
        "--dataset",
        required=True,
        help="a Montague export folder (compsem build montague --out DIR) or Hub id "
        "(compsem/montague)",
    )
    embed.add_argument("--revision", help="Hub revision (tag, branch or commit) to load")
    embed.add_argument(
        "--model",
        action="append",
        metavar="MODEL",
        help=f"repeat for a row per model (default: {MINILM})",
    )
    embed.add_argument(
        "--pooling",
        nargs="+",
        choices=POOLINGS,
        help="pool a transformers encoder's token states (default: a sentence-transformers "
        "model's own pooling, else cls; static vectors: always mean); 'cls mean' compares both "
        "in one run, a row per model and pooling",
    )
    embed.add_argument(
        "--trust-remote-code",
        action="store_true",
        help="let a Hub model run its repository's code (NV-Embed-v2, Stella need it); only "
        "for models whose code you trust",
    )
    embed.add_argument(
        "--prefix",
        metavar="TEXT",
        help="put TEXT before every string a transformer embeds (default: the instruction "
        "declared for the model, e.g. NV-Embed-v2's and Stella's semantic-similarity query "
        "prefix; none for others); '' for none",
    )
    embed.add_argument(
        "--out", type=output_path, required=True, help="folder to (re)write atomically"
    )
    embed.add_argument(
        "--force", action="store_true", help="replace --out even if it holds another compsem folder"
    )
    embed.add_argument(
        "--vocabulary",
        default="paper",
        choices=vocabularies(),
        help="paper: Appendix A's words (configs an, aan, lexicon); plane: PLANE's adjectives "
        "and WordNet nouns (config plane_an, AN only)",
    )
    embed.add_argument(
        "--phrase-sets",
        nargs="+",
        choices=[*PHRASE_SETS, SYNONYMS],
        metavar="SET",
        help="an and/or aan (default: both; an only for --vocabulary plane). AAN is 43,920 "
        f"phrases on Appendix A. {SYNONYMS}: §4.1.1's pair intersectivity over the AN phrases "
        "and their copies with each adjective's synonym (122 adjectives on Appendix A)",
    )
    embed.add_argument(
        "--device", help="torch device for transformer models (default: cuda if available)"
    )
    embed.add_argument(
        "--batch-size", type=bounded(int, 1), default=256, help="strings per forward pass"
    )
    embed.set_defaults(handler=cmd_embed)
    return embed
