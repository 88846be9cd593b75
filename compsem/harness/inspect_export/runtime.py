"""What the Inspect task files ``compsem inspect-tasks`` writes call: a config's test rows as an
Inspect dataset, and its two tasks.

- ``choice_task``: Inspect's ``multiple_choice`` solver (its own lettered template over the
  question and the prompt's answer words) scored by the ``choice`` scorer, as Inspect's own
  multiple-choice evals are.
- ``generate_task``: the row put to the model exactly as ``compsem llm --generate`` puts it (the
  same system turn and question, rendered by the model's chat template), one ``generate``, and the
  ``parsed_answer`` scorer, which reads the answer with the parser the benchmark declares on its
  prompt (``compsem.benchmark.answers``): the same parser, declared once. Its metrics are
  accuracy with its standard error and the unparsable share (counted wrong).

Rows come from the export through compsem's one export reader (the card's data files, checked
to lie inside the folder), so a moved or copied export works wherever its path is passed.
"""

from __future__ import annotations

import string
from pathlib import Path

import pyarrow.parquet as pq
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
)
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    SampleScore,
    Score,
    Target,
    accuracy,
    choice,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState, generate, multiple_choice, system_message

from compsem.benchmark.answers import REASONING_TAGS, parse_answer
from compsem.benchmark.card import compsem_metadata
from compsem.benchmark.prompts import LLMPrompt
from compsem.files.export_reader import ExportError, read_export
from compsem.harness.llm.generation import Decoding, conversation
from compsem.harness.llm.prompts import choose_prompt

ROLES = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}
MAX_TOKENS = Decoding.max_new_tokens  # compsem llm --generate's default, declared once


def config_rows(export, config: str, split: str = "test") -> tuple[str, LLMPrompt, list[dict]]:
    """The benchmark, the config's default question (both tasks have the model answer in text,
    so a cloze is no default: the prompt ``compsem llm --generate`` picks) and the rows of
    ``split``, in stored order."""
    found = read_export(Path(export).expanduser(), only=[config])
    if config not in found.configs:
        raise ExportError(f"{found.folder} has no config {config!r}: pass a config it exports")
    files = found.configs[config].get(split)
    if not files:
        raise ExportError(f"config {config!r} of {found.folder} has no {split} split")
    benchmark = compsem_metadata(found.card).get("benchmark")
    table = pq.ParquetDataset([str(path) for path in files]).read()
    prompt = choose_prompt(benchmark, table.column_names, generate=True)
    return benchmark, prompt, table.to_pylist()


def _sample(index: int, row: dict, input, **fields) -> Sample:
    return Sample(id=row.get("id", index), input=input, **fields)


def choice_samples(prompt: LLMPrompt, rows: list[dict]) -> list[Sample]:
    """Each row's question with the prompt's answer words as choices; the gold one's letter."""
    return [
        _sample(
            index,
            row,
            prompt.question(row).strip(),
            choices=prompt.answers(row),
            target=string.ascii_uppercase[int(row["label"])],
            metadata={"label": int(row["label"])},
        )
        for index, row in enumerate(rows)
    ]


def generate_samples(prompt: LLMPrompt, rows: list[dict], system: str | None) -> list[Sample]:
    """Each row as the messages ``compsem llm --generate`` sends (zero-shot), its choices in
    the metadata for the parser, the gold label's index as target."""
    samples = []
    for index, row in enumerate(rows):
        messages = [
            ROLES[message["role"]](content=message["content"])
            for message in conversation(prompt, row, (), system)
        ]
        metadata = {"choices": prompt.answers(row), "label": int(row["label"])}
        samples.append(_sample(index, row, messages, target=str(row["label"]), metadata=metadata))
    return samples


@metric
def unparsable():
    """The share of answers the parser could not read (they count as wrong)."""

    def compute(scores: list[SampleScore]) -> float:
        return sum(item.score.metadata.get("parsed") is None for item in scores) / max(
            len(scores), 1
        )

    return compute


@scorer(metrics=[accuracy(), stderr(), unparsable()])
def parsed_answer(parser: str, reasoning_tags: list[str] | None = None):
    """Correct when the benchmark's parser reads the gold label in the completion."""
    tags = tuple(reasoning_tags or REASONING_TAGS)

    async def score(state: TaskState, target: Target) -> Score:
        choices = state.metadata["choices"]
        found = parse_answer(parser, state.output.completion, choices, tags)
        return Score(
            value=CORRECT if found is not None and found == int(target.text) else INCORRECT,
            answer=None if found is None else choices[found],
            explanation=state.output.completion,
            metadata={"parsed": found},
        )

    return score


def choice_task(export, config: str, limit: int | None = None) -> Task:
    """The config's test rows under Inspect's ``multiple_choice`` solver and ``choice`` scorer."""
    benchmark, prompt, rows = config_rows(export, config)
    solvers = [system_message(prompt.description)] if prompt.description else []
    return Task(
        dataset=MemoryDataset(choice_samples(prompt, rows[:limit]), name=f"{benchmark}_{config}"),
        solver=[*solvers, multiple_choice()],
        scorer=choice(),
    )


def generate_task(
    export,
    config: str,
    limit: int | None = None,
    system: str | None = None,
    max_tokens: int = MAX_TOKENS,
) -> Task:
    """The config's test rows as ``compsem llm --generate`` asks them, one greedy ``generate``
    (top-k 1: Inspect's ``hf`` provider always samples, and top-k 1 sampling is greedy;
    ``--top-k``/``--temperature`` on the command line change it), scored by its parser."""
    benchmark, prompt, rows = config_rows(export, config)
    dataset = MemoryDataset(
        generate_samples(prompt, rows[:limit], system), name=f"{benchmark}_{config}"
    )
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=parsed_answer(prompt.parser),
        config=GenerateConfig(max_tokens=max_tokens, top_k=1),
    )
