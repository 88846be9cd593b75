"""The `compsem` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL

DEMO_OUT = Path("compsem-demo")


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    pass


def _add_build_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--corpus",
        default="wordnet_glosses",
        help="wordnet_glosses, a .txt/.jsonl/.parquet file, a folder of them, "
        "or a datasets save_to_disk folder",
    )
    parser.add_argument("--text-column", default="text", help="column or JSON field with the text")
    parser.add_argument(
        "--lexicon", help="adjective lexicon TSV (adjective, class, note); default: the shipped one"
    )
    parser.add_argument(
        "--spacy-model",
        default=DEFAULT_SPACY_MODEL,
        help="an installed spaCy pipeline with a parser (PLANE used en_core_web_lg)",
    )
    parser.add_argument("--seed", type=int, default=42, help="base random seed")
    parser.add_argument("--max-docs", type=int, help="parse only the first N documents")
    parser.add_argument("--n-process", type=int, default=1, help="spaCy worker processes")


def _build_kwargs(args: argparse.Namespace) -> dict:
    kwargs = {
        "corpus": args.corpus,
        "text_column": args.text_column,
        "lexicon": args.lexicon,
        "spacy_model": args.spacy_model,
        "seed": args.seed,
        "max_docs": args.max_docs,
        "n_process": args.n_process,
    }
    if getattr(args, "original_release", None):
        kwargs["original_release"] = args.original_release
    return kwargs


def summary_table(benchmark: str, exports) -> str:
    """A Markdown table of configs, splits, rows and label balance."""
    lines = [
        f"| {benchmark} config | split | rows | label balance |",
        "|---|---|---:|---|",
    ]
    for export in exports:
        for split, statistics in export.statistics.items():
            labels = statistics["labels"]
            balance = ", ".join(
                f"{name} {100 * count / max(statistics['rows'], 1):.1f}%"
                for name, count in labels.items()
            )
            lines.append(f"| {export.name} | {split} | {statistics['rows']:,} | {balance} |")
    return "\n".join(lines)


def cmd_build(args: argparse.Namespace) -> int:
    from compsem.export import export_benchmark

    exports = export_benchmark(args.benchmark, args.out, args.config, **_build_kwargs(args))
    print(summary_table(args.benchmark, exports))
    print(f"\nWrote {args.out}: load it with load_dataset({str(args.out)!r}, CONFIG)")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from compsem.export import export_benchmark

    out = args.out / "plane"
    exports = export_benchmark("plane", out, None, **_build_kwargs(args))
    print("\n## PLANE, built from WordNet's glosses\n")
    print(summary_table("plane", exports))
    print(f"\nExported to {out}/ — try: load_dataset({str(out)!r}, 'goood_split_2')")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from compsem.doctor import format_checks, run_checks

    checks = run_checks(args.spacy_model)
    print(format_checks(checks))
    return 0 if all(check.found for check in checks) else 1


def cmd_setup_wordnet(args: argparse.Namespace) -> int:
    from compsem.resources.wordnet import install_debian_wordnet

    target = install_debian_wordnet(args.source, args.target)
    print(f"WordNet installed for NLTK in {target}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="compsem",
        description="Generate, publish and evaluate compositional-semantics benchmarks.",
        formatter_class=_Formatter,
        epilog="examples:\n"
        "  compsem doctor\n"
        "  compsem demo\n"
        "  compsem build plane --out hub/plane --config goood_split_1 goood_split_2\n",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    doctor = commands.add_parser(
        "doctor", help="report which resources are installed", formatter_class=_Formatter
    )
    doctor.add_argument("--spacy-model", default=DEFAULT_SPACY_MODEL, help="pipeline to check")
    doctor.set_defaults(handler=cmd_doctor)

    setup = commands.add_parser(
        "setup-wordnet",
        formatter_class=_Formatter,
        help="make Debian's WordNet 3.0 files readable by NLTK",
    )
    setup.add_argument(
        "--source",
        type=Path,
        default=Path("/usr/share/wordnet"),
        help="folder with WordNet's dict files (data.noun, index.sense …)",
    )
    setup.add_argument(
        "--target",
        type=Path,
        help="default: <python prefix>/share/nltk_data/"
        "corpora/wordnet, where NLTK looks without configuration",
    )
    setup.set_defaults(handler=cmd_setup_wordnet)

    build = commands.add_parser(
        "build", formatter_class=_Formatter, help="generate a benchmark as a hub-ready folder"
    )
    build.add_argument("benchmark", choices=["plane"], help="which benchmark")
    build.add_argument("--out", type=Path, required=True, help="folder to (re)write atomically")
    build.add_argument(
        "--config", nargs="+", metavar="NAME", help="configs to build (default: all)"
    )
    build.add_argument(
        "--original-release",
        metavar="DIR",
        help="folder of the original PLANE pickles: adds original_* configs",
    )
    _add_build_inputs(build)
    build.set_defaults(handler=cmd_build)

    demo = commands.add_parser(
        "demo",
        formatter_class=_Formatter,
        help="build every benchmark on the embedded defaults and summarise",
    )
    demo.add_argument("--out", type=Path, default=DEMO_OUT, help="folder for the exports")
    _add_build_inputs(demo)
    demo.set_defaults(handler=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (ValueError, RuntimeError, OSError) as error:
        print(f"compsem {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
