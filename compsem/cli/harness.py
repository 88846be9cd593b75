"""The harness's commands for ``compsem``: train, curve, zero-shot, prompt, score and report.

``add_commands(subparsers)`` registers them on the ``compsem`` parser; each handler takes the
parsed arguments and returns an exit code, raising ValueError / RuntimeError / OSError with one
clear message otherwise.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path

from compsem.benchmark.settings import bounded
from compsem.cli.analysis import add_report_command
from compsem.cli.llm import add_llm_commands
from compsem.files.output_folder import results_folder
from compsem.harness.data.presets import PRESETS
from compsem.harness.data.schema import INPUT_FORMS
from compsem.harness.models.device import add_device_arguments
from compsem.harness.models.offline import OFFLINE_MODELS, loadable_model_argument
from compsem.text.help_format import HelpFormatter

METHODS = ["classifier", "ss", "ss-symmetric"]  # train's and zero-shot's (training.patterns)
MODEL_HELP = (
    f"Hub id, local folder or offline model ({', '.join(OFFLINE_MODELS)}); default: the offline "
    "all-MiniLM-L6-v2 (minilm)"
)


def _data_arguments(parser: argparse.ArgumentParser, config_default: str | None = None) -> None:
    parser.add_argument(
        "--dataset", required=True, help="Hub id (compsem/plane) or local export folder"
    )
    parser.add_argument(
        "--config",
        required=config_default is None,
        default=config_default,
        help="config (split regime), e.g. goood_split_1",
    )
    parser.add_argument("--revision", help="Hub revision (tag, branch or commit) to load")
    parser.add_argument(
        "--out",
        type=results_folder,
        required=True,
        help="folder for result JSON, summary.md and plots",
    )


def _preset_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset",
        default="auto",
        choices=["auto", *PRESETS],
        help="the paper's settings; auto picks them from the config's columns",
    )


def _max_length_argument(
    parser: argparse.ArgumentParser, help: str, default: int | None = None, several: bool = False
) -> None:
    """``--max-length``, the input length in tokens; with ``several``, one or more lengths (a
    run per length: ``train``'s sweep for PLANE's Fig. 8)."""
    parser.add_argument(
        "--max-length",
        type=bounded(int, 1),
        default=default,
        help=help,
        **({"nargs": "+", "metavar": "N"} if several else {}),
    )


def _training_arguments(parser: argparse.ArgumentParser, several_lengths: bool = False) -> None:
    parser.add_argument("--model", type=loadable_model_argument, help=MODEL_HELP)
    parser.add_argument(
        "--seeds",
        type=bounded(int, 0),
        nargs="+",
        default=[1],
        metavar="SEED",
        help="one run per seed",
    )
    _preset_argument(parser)
    parser.add_argument(
        "--input", dest="input_form", choices=INPUT_FORMS, help="single sentence or a pair"
    )
    parser.add_argument(
        "--max-train-examples",
        type=bounded(int, 1),
        metavar="N",
        help="cap the train split at N rows",
    )
    parser.add_argument(
        "--max-eval-examples",
        type=bounded(int, 1),
        metavar="N",
        help="cap the evaluated split at N rows",
    )
    parser.add_argument("--eval-split", default="test", help="split to evaluate on")
    parser.add_argument("--epochs", type=bounded(float, 0.01), help="default: the preset's")
    parser.add_argument("--batch-size", type=bounded(int, 1), help="default: the preset's")
    parser.add_argument("--learning-rate", type=bounded(float, 0), help="default: the preset's")
    if several_lengths:
        about = "one or more lengths, a run per length and seed; default: the preset's (PLANE 12)"
    else:
        about = "default: the preset's (PLANE 12)"
    _max_length_argument(parser, about, several=several_lengths)
    add_device_arguments(parser)


def _inference_arguments(
    parser: argparse.ArgumentParser,
    batch_size: int,
    max_length: int | None,
    length_help: str | None = None,
) -> None:
    """The arguments of INFERENCE other than ``--model`` (each command says which kind of model
    it needs), and the device ones."""
    parser.add_argument("--split", default="test", help="split to evaluate")
    parser.add_argument(
        "--max-eval-examples",
        type=bounded(int, 1),
        metavar="N",
        help="cap the evaluated split at N rows",
    )
    parser.add_argument(
        "--batch-size", type=bounded(int, 1), default=batch_size, help="examples per forward pass"
    )
    length_help = length_help or ("in tokens" if max_length else "default: the preset's")
    _max_length_argument(parser, length_help, max_length)
    add_device_arguments(parser)


# What every command passes on; then each command's own arguments, by their argparse names.
SHARED = ("dataset", "config", "out", "revision", "device", "precision")
TRAINING = (
    "model",
    "seeds",
    "preset",
    "input_form",
    "eval_split",
    "max_train_examples",
    "max_eval_examples",
    "epochs",
    "batch_size",
    "learning_rate",
    "max_length",
)
INFERENCE = ("model", "split", "max_eval_examples", "batch_size", "max_length")


def _show(out: Path) -> None:
    print((out / "summary.md").read_text())
    print(f"Results in {out}/")


def _runner(module: str, function: str, *arguments: str) -> Callable[[argparse.Namespace], int]:
    """A handler that calls ``compsem.harness.<module>.<function>`` with the shared and the
    named arguments, then prints the run's summary."""

    def handler(args: argparse.Namespace) -> int:
        # Imported when the command runs: running a model imports torch and transformers.
        run = getattr(importlib.import_module(f"compsem.harness.{module}"), function)
        run(**{name: getattr(args, name) for name in (*SHARED, *arguments)})
        _show(args.out)
        return 0

    return handler


FINETUNE, PROBING = "training.finetune", "probing.commands"
cmd_train = _runner(FINETUNE, "run_train", *TRAINING, "save_model", "method")
cmd_curve = _runner(FINETUNE, "run_curve", *TRAINING, "shots", "metric", "pool_split", "base_split")
cmd_zero_shot = _runner(PROBING, "run_zero_shot", *INFERENCE, "label_map", "preset", "method")
cmd_prompt = _runner(PROBING, "run_prompt", *INFERENCE)
GRAPH_OPTIONS = ("graph", "graph_measure", "graph_matching")
cmd_score = _runner(
    "probing.score", "run_score", *INFERENCE, "method", "max_evidence", *GRAPH_OPTIONS
)
cmd_probe_likelihood = _runner(
    "probing.likelihood_probe", "run_probe_likelihood", *INFERENCE, "max_train_examples", "theta"
)


def add_commands(subparsers) -> None:
    """Register train, curve, zero-shot, prompt, score and report on ``compsem``'s subparsers."""
    formatter = HelpFormatter

    train = subparsers.add_parser(
        "train",
        formatter_class=formatter,
        help="fine-tune a sequence classifier on a config (one run per seed)",
        description="Fine-tune AutoModelForSequenceClassification with transformers.Trainer on "
        "the config's train split and evaluate on test: accuracy, macro-F1 and both per "
        "grouping field (adjective class, inference type, combo, rule, setting …).",
        epilog="examples:\n  compsem train --dataset hub/plane --config goood_split_1 "
        "--model bert-base-cased --seeds 1 2 3 --out runs/plane\n"
        "  compsem train --dataset hub/plane --config in_distribution_1 --model bert-base-cased "
        "--max-length 6 8 10 12 --out runs/len   # PLANE Fig. 8: a run per length\n"
        "  compsem train --dataset hub/booqa --config levyholt_directional --model roberta-base "
        "--method ss --out runs/ss   # BoOQA's S&S (Fig. 1)\n",
    )
    _data_arguments(train)
    _training_arguments(train, several_lengths=True)
    train.add_argument(
        "--save-model",
        action="store_true",
        help="save each run's model under OUT/model-seedN (several lengths: model-lenL-seedN)",
    )
    train.add_argument(
        "--method",
        choices=METHODS,
        default="classifier",
        help="classifier (default): the config's input, one label per row; ss: BoOQA's S&S, each "
        "pair of propositions put into Schmitt and Schütze's patterns and antipatterns "
        "(Levy/Holt, SherLIiC configs); ss-symmetric: S&S with each pattern both ways round "
        "(Table 2)",
    )
    train.set_defaults(handler=cmd_train)

    curve = subparsers.add_parser(
        "curve",
        formatter_class=formatter,
        help="few-shot learning curves over k training examples and seeds",
        description="Fine-tune on the first k rows of the pool split (few_shot if the config "
        "has one, else train) for each k and seed, evaluate on test, and summarise with the "
        "few_shot_curve metric and a PNG plot (RNPC §6, SETI §5.2).",
        epilog="example:\n  compsem curve --dataset hub/rnpc --config spte --model "
        "roberta-large-mnli --shots 0 10 25 50 100 200 --seeds 1 2 3 --out runs/spte\n",
    )
    _data_arguments(curve)
    _training_arguments(curve)
    curve.add_argument(
        "--shots", type=bounded(int, 0), nargs="+", metavar="K", help="default: the preset's grid"
    )
    curve.add_argument(
        "--metric",
        choices=["accuracy", "macro_f1"],
        default="accuracy",
        help="the test score of each point of the curve (and its area, AULC)",
    )
    curve.add_argument("--pool-split", help="split whose prefixes are the k-shot sets")
    curve.add_argument(
        "--base-split",
        help="split to fine-tune on before the shots (SETI: train); 'none' for none",
    )
    curve.set_defaults(handler=cmd_curve)

    zero = subparsers.add_parser(
        "zero-shot",
        formatter_class=formatter,
        help="an off-the-shelf NLI model, or a saved one, on a config, without training",
        description="Classify the config's pairs with an NLI model; its labels are mapped to "
        "ours by its own id2label, summing probabilities (entailment vs the rest, RNPC §5). "
        "--method ss: score a model train --method ss saved as S&S (BoOQA Tables 1, 6).",
        epilog="example:\n  compsem zero-shot --dataset hub/plane --config goood_split_1 "
        "--model roberta-large-mnli --out runs/zero\n  compsem zero-shot --dataset hub/booqa "
        "--config sherliic --model runs/lh/model-seed1 --method ss --out runs/lh-sh\n",
    )
    _data_arguments(zero)
    zero.add_argument(
        "--model",
        type=loadable_model_argument,
        required=True,
        help="an NLI classifier: Hub id or folder",
    )
    zero.add_argument(
        "--label-map",
        nargs="+",
        metavar="MODEL_LABEL=OURS",
        help="map model labels the names do not (e.g. LABEL_0=entailment)",
    )
    zero.add_argument(
        "--method",
        choices=METHODS,
        help="classifier: the model's labels mapped onto ours; ss, ss-symmetric: a model saved by "
        "train --method ss (-symmetric), scored as S&S; default: what its folder records, else "
        "classifier",
    )
    _preset_argument(zero)
    _inference_arguments(zero, batch_size=64, max_length=None)
    zero.set_defaults(handler=cmd_zero_shot)

    prompt = subparsers.add_parser(
        "prompt",
        formatter_class=formatter,
        help="masked-LM prompting on PLANE's two_shot (§4) or zero_shot (App. B.1) config",
        description="The model's first prediction at the mask against the verbalisers (PLANE "
        "§4): F1 per adjective class, template and verbaliser (Table 4), and per joint cell of "
        "class, template, verbaliser, inference type and premise order (Figs. 5-7). On "
        "zero_shot the prediction is read through Table 7's conversion table (Table 8).",
        epilog="example:\n  compsem prompt --dataset hub/plane --model bert-base-cased --out "
        "runs/prompt\n",
    )
    _data_arguments(prompt, config_default="two_shot")
    prompt.add_argument(
        "--model", type=loadable_model_argument, required=True, help="a masked language model"
    )
    _inference_arguments(prompt, batch_size=32, max_length=128)
    prompt.set_defaults(handler=cmd_prompt)

    probe = subparsers.add_parser(
        "probe-likelihood",
        formatter_class=formatter,
        help="RNPC App. C: a pretrained LM probed by likelihood, without fine-tuning",
        description="Entailment configs: the hypothesis as 'necessarily' and 'not necessarily' "
        "true, entailment when the first is more likely given the premise. Plausibility configs "
        "(EPC): each event's likelihood, 'equally' when they differ by less than θ (chosen on "
        "the config's train split, or --theta), else the more likely event. Causal LMs score "
        "left to right, masked LMs by pseudo-log-likelihood; the benchmark's sanity pairs "
        "(App. C.3) are scored first and reported beside.",
        epilog="example:\n  compsem probe-likelihood --dataset hub/rnpc --config spte --model "
        "smollm2 --out runs/probe-spte\n",
    )
    _data_arguments(probe)
    probe.add_argument(
        "--model",
        type=loadable_model_argument,
        required=True,
        help="a causal LM (GPT-2, smollm2 …) or a masked LM (BERT …): Hub id or folder",
    )
    probe.add_argument(
        "--theta", type=bounded(float, 0), help="EPC's threshold θ (default: chosen on train)"
    )
    probe.add_argument(
        "--max-train-examples",
        type=bounded(int, 1),
        metavar="N",
        help="cap the train rows θ is chosen on",
    )
    _inference_arguments(probe, batch_size=32, max_length=256)
    probe.set_defaults(handler=cmd_probe_likelihood)

    score = subparsers.add_parser(
        "score",
        formatter_class=formatter,
        help="BoOQA: max-over-evidence entailment scores, AUCnorm and a PR curve",
        description="Score each hypothesis by the maximum over its evidence of an NLI model's "
        "entailment probability, of embedding cosine (the unsupervised baseline), or of an "
        "entailment graph's edge from the evidence's predicate to the hypothesis's (Table 5's "
        "graph baselines, fuzzy matched, or not with --graph-matching exact), or of a saved S&S "
        "model's score of the two propositions (Table 5's S&S). A Levy/Holt pair "
        "(levyholt_* configs) is a hypothesis whose one piece of evidence is its premise "
        "(Table 17). Reports AUCnorm, and the authors' released computation of it beside "
        "(scores.released), for the paper's tables.",
        epilog="example:\n  compsem score --dataset hub/booqa --config en --model "
        "bert-base-uncased --method cosine --out runs/booqa\n"
        "  compsem score --dataset hub/booqa --config en --method graph --graph graphs/binc "
        "--out runs/binc\n"
        "  compsem score --dataset hub/booqa --config en --split dev --method graph --graph "
        "graphs/cnce --graph-matching exact --out runs/fig6-exact   # Figure 6, no fuzzy\n"
        "  compsem score --dataset hub/booqa --config en --method ss --model "
        "runs/lh/model-seed1 --out runs/booqa-ss   # Table 5's S&S\n",
    )
    _data_arguments(score)
    score.add_argument("--model", type=loadable_model_argument, help=MODEL_HELP)
    score.add_argument(
        "--method",
        choices=["auto", "nli", "cosine", "graph", "ss", "ss-symmetric"],
        default="auto",
        help="auto: what the model's folder records (ss, ss-symmetric: a model train --method ss "
        "--save-model saved), else nli if the model has an entailment label, else cosine; graph: "
        "--graph's edges",
    )
    score.add_argument(
        "--graph",
        metavar="DIR",
        help="with --method graph: a folder of entailment graph files in entGraph's text "
        "format (TYPES_sim.txt)",
    )
    score.add_argument(
        "--graph-measure",
        default="BInc",
        help="the graph files' measure to read, by its heading (default: BInc sims)",
    )
    score.add_argument(
        "--graph-matching",
        choices=["fuzzy", "exact"],
        help="fuzzy (default): a node is its words, whatever its roles; exact: only the active "
        "subject-verb-object node, meet in = (meet.1,meet.in.2) (Figure 6's two curves)",
    )
    score.add_argument(
        "--max-evidence",
        type=bounded(int, 1),
        help="evidence per hypothesis (default 3200, Appendix G)",
    )
    _inference_arguments(
        score, 64, None, "in tokens (default 128; an S&S model: the length it was trained at)"
    )
    score.set_defaults(handler=cmd_score)

    add_report_command(subparsers)  # compsem.cli.analysis: what it reads is runs
    add_llm_commands(subparsers)
