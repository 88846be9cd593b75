"""The ``README.md`` of an exported lm-eval task folder, as lm-eval's own task folders have one:
the paper and its citation, the groups and tasks and what each tests, where the data are read
from, how to run them, and the changelog."""

from __future__ import annotations

import re

from huggingface_hub import DatasetCard

from compsem.builders import BENCHMARKS

# Changes to the task folders compsem writes (the data's own changes are the benchmark's
# changelog, below them in the README).
FORMAT_CHANGELOG = {
    "4": "a generation twin asks its config's default question where the multiple-choice "
    "task's prompt is a cloze a chat model does not answer (PLANE's items: "
    '`plane_question_tf`, "… Is this statement true or false?").',
    "3": "a `generate_until` twin of each task whose answer words are fixed "
    "(`<task>_generate`, tagged `compsem_<benchmark>_generate`): greedy generation read back "
    "by the benchmark's answer parser (`answers.py`, a copy of compsem's), `acc` and "
    "`unparsable`.",
    "2": "one group per family of comparable configs (was one group per benchmark averaging "
    "every config, binary and three-way, controls and subsets included); `compsem_<benchmark>` "
    "is now a tag that runs every task without averaging; BoOQA reports AUCnorm of P(true) "
    "through `utils.py` (was `acc` and `acc_norm` only); a local export is read relative to the "
    "task folder (was absolute Parquet paths); this README.",
    "1": "one task per config and one group per benchmark.",
}


def citation(card: DatasetCard) -> str | None:
    """The first BibTeX block of the card's ``## Citation`` section, if any."""
    section = re.search(r"^## Citation\b(.*?)(?=^## |\Z)", card.text, re.MULTILINE | re.DOTALL)
    block = section and re.search(r"```bibtex\n(.*?)```", section.group(1), re.DOTALL)
    if not block:
        return None
    first = block.group(1).strip().split("\n\n")[0].strip()
    return first or None


def _paper(bibtex: str | None) -> str:
    if not bibtex:
        return "The dataset card names no paper; see the benchmark's card in compsem.\n"
    title = re.search(r'title\s*=\s*["{](.+?)["}],?\n', bibtex)
    url = re.search(r'url\s*=\s*["{](.+?)["}]', bibtex)
    name = re.sub(r"[{}]", "", title.group(1)) if title else "the benchmark's paper"
    line = f"[{name}]({url.group(1)})" if url else name
    return f"{line}\n\n```bibtex\n{bibtex}\n```\n"


def _describe(benchmark: str, config: str) -> str:
    spec = BENCHMARKS.get(benchmark)
    known = spec and spec.builder.builder_configs.get(config)
    return spec.describe_config(known).replace("|", "/") if known else ""


def _metrics(aucnorm: bool) -> str:
    return "acc, aucnorm (P(true), `utils.aucnorm`)" if aucnorm else "acc, acc_norm"


def _groups_section(benchmark: str, tasks, groups) -> str:
    if not groups:
        return (
            f"None: {benchmark} declares no family of configs to average here (configs that "
            "differ in task, label space or kind of split, or whose rows lie inside another's, "
            "are never averaged), so every task is reported on its own.\n"
        )
    lines = ["| group | tasks | what it tests |", "|---|---|---|"]
    for group, (family, members) in groups.items():
        names = ", ".join(f"`{tasks[m]}`" for m in members)
        lines.append(f"| `{group}` | {names} | {family.description.replace('|', '/')} |")
    lines.append(
        "\nA group reports each metric averaged over its tasks with equal weight "
        "(`weight_by_size: false`): its tasks are resamples of one test, and the paper reports "
        "their mean."
    )
    return "\n".join(lines) + "\n"


def _tasks_section(benchmark, tasks, groups, configs, aucnorm) -> str:
    grouped = {m: g for g, (_, members) in groups.items() for m in members}
    lines = ["| task | labels | group | what it tests | metrics |", "|---|---|---|---|---|"]
    for config, task in tasks.items():
        labels = " / ".join(configs[config].labels) or "per row"
        group = f"`{grouped[config]}`" if config in grouped else "(alone)"
        description = _describe(benchmark, config)
        lines.append(
            f"| `{task}` | {labels} | {group} | {description} | {_metrics(aucnorm[config])} |"
        )
    return "\n".join(lines) + "\n"


def _data_section(benchmark: str, dataset: str, export: str | None) -> str:
    if export is None:
        return f"The tasks read the Hub dataset `{dataset}` (one config each).\n"
    return (
        f"The tasks read the compsem export at `{export}`, relative to this folder "
        "(`utils.load_export`), so the folder keeps working when it moves or is copied together "
        "with the export. To read an export elsewhere, pass its folder:\n\n"
        f'```bash\nlm_eval ... --metadata \'{{"{benchmark}_export": "/data/hub/{benchmark}"}}\'\n```\n'
    )


def _changelog(benchmark: str) -> str:
    lines = [f"- task format {version}: {change}" for version, change in FORMAT_CHANGELOG.items()]
    spec = BENCHMARKS.get(benchmark)
    changes = sorted((spec.changelog if spec else {}).items(), reverse=True)
    lines += [f"- {benchmark} {version}: {change}" for version, change in changes]
    return "\n".join(lines) + "\n"


def task_readme(benchmark, card, dataset, export, tasks, groups, configs, aucnorm) -> str:
    """The README of ``benchmark``'s task folder; ``tasks`` is ``{config: task}``, ``groups``
    ``{group: (family, member configs)}``, ``aucnorm`` ``{config: reports AUCnorm}``."""
    spec = BENCHMARKS.get(benchmark)
    title = spec.title if spec else benchmark
    example = next(iter(groups), next(iter(tasks.values())))
    source = f"the export at `{export}`" if export is not None else f"`{dataset}`"
    return f"""# compsem `{benchmark}` tasks for lm-evaluation-harness

{title}. Written by `compsem lm-eval-tasks` from {source}, with the prompts and answer
choices of `compsem llm` (each answer scored by its log-likelihood).

## Paper

{_paper(citation(card))}
## Groups

{_groups_section(benchmark, tasks, groups)}
## Tasks

Every task is tagged `compsem_{benchmark}`: `--tasks compsem_{benchmark}` runs them all and
prints each task's own scores, with no average over tasks that measure different things.
Each task whose answer words are fixed has a generation twin, `<task>_generate` (tagged
`compsem_{benchmark}_generate`): the model answers the same question in text (greedy, 32 new
tokens; where the task's prompt is a cloze, such as PLANE's templates, the twin asks the
config's default question instead, as `compsem llm --generate` does) and `utils.acc` reads the
answer with the benchmark's parser (`answers.py`, the one `compsem llm --generate` uses);
`unparsable` is the share it could not read (counted wrong).

{_tasks_section(benchmark, tasks, groups, configs, aucnorm)}
## Data

{_data_section(benchmark, dataset, export)}
## Usage

```bash
lm_eval --model hf --model_args pretrained=$(compsem model-path smollm2) \\
    --include_path . --tasks {example} --apply_chat_template
```

## Changelog

{_changelog(benchmark)}"""
