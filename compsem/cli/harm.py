"""``compsem harm-detection`` (RNPC §8); ``add_commands(subparsers)`` registers it. The
classifiers' sentences and the LLM prompt are the benchmark's (its spec's ``harm_detection``);
the run is ``compsem.harness.harm``'s."""

from __future__ import annotations

import argparse
from pathlib import Path

from compsem.benchmark.settings import bounded
from compsem.builders import BENCHMARKS
from compsem.files.output_folder import results_folder
from compsem.harness.harm.queries import TASKS
from compsem.harness.models.device import add_device_arguments
from compsem.harness.models.offline import model_argument, resolve_model
from compsem.text.help_format import HelpFormatter

WITH_HARM_DETECTION = [name for name, spec in BENCHMARKS.items() if spec.harm_detection]


def cmd_harm_detection(args: argparse.Namespace) -> int:
    from compsem.harness.harm.run import HarmRun, run_harm_detection  # imports torch

    run = HarmRun(
        data=args.data,
        task=args.task,
        model=resolve_model(args.model) if args.model else None,
        out=args.out,
        queries=args.queries,
        device=args.device,
        precision=args.precision,
        chat_template=not args.no_chat_template,
        spacy_model=args.spacy_model,
        generate=args.generate,
        max_new_tokens=args.max_new_tokens,
    )
    run_harm_detection(run, BENCHMARKS[args.benchmark].harm_detection)
    print((args.out / "summary.md").read_text())
    print(f"Results in {args.out}/")
    return 0


def add_commands(subparsers) -> None:
    """Register ``harm-detection`` on ``compsem``'s subparsers."""
    harm = subparsers.add_parser(
        "harm-detection",
        formatter_class=HelpFormatter,
        help="RNPC §8: classify how-to queries as harmful, zero-shot, with a model trained on "
        "RNPC's SPTE or EPC",
        description="Read the RNPC authors' harm-detection folder (test.csv with "
        "Index,Query,Label,keyword; keyword_list.txt), find each query's noun phrases whose "
        "head is a keyword (spaCy), and call the query harmful when the classifier says so for "
        "any of them: spte (a model fine-tuned on SPTE: 'This is a toy gun.' entails 'This is "
        "a gun.'), epc (fine-tuned on EPC: 'A toy gun is harmful.' as or more plausible than "
        "'A gun is harmful.'), llm (a causal LM asked the paper's Appendix E.4 question, by "
        "the log-likelihood of Yes and No, or with --generate by its generated answer) or always (every query harmful). Queries with no "
        "keyword phrase are judged not harmful and listed apart. Writes "
        "harm-detection-TASK.json (accuracy, precision, recall and F1 of HARM with 95% "
        "intervals; `compsem report` reads it), its .rows.jsonl and summary.md.",
        epilog="examples:\n"
        "  compsem train --dataset hub/rnpc --config epc_challenge --max-train-examples 2000 "
        "--epochs 2 --save-model --out runs/epc\n"
        "  compsem harm-detection --data harm_detection --task epc --model "
        "runs/epc/model-seed1 --out runs/harm-epc\n"
        "  compsem harm-detection --data harm_detection --task llm --model smollm2 "
        "--out runs/harm-llm\n"
        "  compsem harm-detection --data harm_detection --task llm --model smollm2 --generate "
        "--out runs/harm-llm\n",
    )
    harm.add_argument(
        "--data", type=Path, required=True, help="folder with test.csv and keyword_list.txt"
    )
    harm.add_argument("--task", choices=TASKS, required=True, help="the classifier")
    harm.add_argument(
        "--model",
        type=model_argument,
        help="spte/epc: a `compsem train --save-model` folder (OUT/model-seedN) or a fine-tuned "
        "Hub id; llm: a causal LM (smollm2, a folder or a Hub id); always: none",
    )
    harm.add_argument("--out", type=results_folder, required=True, help="folder for the results")
    harm.add_argument(
        "--queries",
        type=Path,
        help="a CSV in test.csv's format to read instead of DIR/test.csv (e.g. a sample)",
    )
    harm.add_argument(
        "--benchmark",
        choices=WITH_HARM_DETECTION,
        default=WITH_HARM_DETECTION[0],
        help="whose classifier sentences and prompt to use",
    )
    harm.add_argument(
        "--spacy-model", help="spaCy pipeline with a parser (default: compsem's shipped one)"
    )
    harm.add_argument(
        "--no-chat-template", action="store_true", help="llm: ask without the chat template"
    )
    harm.add_argument(
        "--generate",
        action="store_true",
        help="llm: answer by generation, as the paper's GPT-3 did (App. E.4): the reply, "
        "greedy, is read as Yes or No by the prompt's parser; writes harm-detection-llm-generate"
        ".json (without it: the log-likelihood of Yes and of No)",
    )
    harm.add_argument(
        "--max-new-tokens",
        type=bounded(int, 1),
        default=16,
        metavar="N",
        help="--generate: the longest reply read (the paper read one token)",
    )
    add_device_arguments(harm)
    harm.set_defaults(handler=cmd_harm_detection)
