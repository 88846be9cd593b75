"""How a benchmark's rows are put to a causal language model: a question and its answer choices.

An ``LLMPrompt`` is plain data, the fields lm-evaluation-harness's multiple-choice tasks declare
(``doc_to_text``, ``doc_to_choice``, ``doc_to_target``, ``description``, ``target_delimiter``,
``fewshot_delimiter``), so ``compsem llm`` and the exported lm-eval YAML tasks say the same thing.
Templates are Jinja over a row's fields, rendered the way lm-eval renders them (strict undefined
names, trailing newlines kept, its ``regex_replace`` filter), so both sides produce the same text.

This module is core: it imports nothing from builders, loading scripts or the harness (builders
hold instances of ``LLMPrompt``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from compsem.benchmark.answers import check_parser


def _regex_replace(string: str, pattern: str, repl: str, count: int = 0) -> str:
    """lm-eval's one custom Jinja filter, so templates that use it render the same here."""
    return re.sub(pattern, repl, string, count=count)


# Sandboxed: a template is data (a user's --template, a card's or task folder's prompt), so it
# may reach the row's fields and Jinja's filters, never Python internals (``__class__``,
# ``__globals__``) nor a method that changes a value.
MOST_MADE = 1_000_000  # the longest string or list, the most digits, one operator may make


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with ``*`` and ``**`` bounded: ``'x' * 10**10`` or
    ``10 ** 10 ** 10`` would otherwise exhaust memory or run for hours."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context, operator, left, right):
        sizes = [len(v) for v in (left, right) if isinstance(v, str | list | tuple)]
        counts = [v for v in (left, right) if isinstance(v, int)]
        if operator == "*" and sizes and counts and sizes[0] * max(counts[0], 0) > MOST_MADE:
            raise SecurityError(f"a repetition longer than {MOST_MADE:,} items")
        if operator == "**" and isinstance(left, int) and isinstance(right, int):
            if abs(left) > 1 and right * abs(left).bit_length() > MOST_MADE * 3:
                raise SecurityError(f"a power of more than {MOST_MADE:,} digits")
        return super().call_binop(context, operator, left, right)


_ENVIRONMENT = BoundedSandbox(
    loader=jinja2.BaseLoader(), undefined=jinja2.StrictUndefined, keep_trailing_newline=True
)
_ENVIRONMENT.filters["regex_replace"] = _regex_replace


def render(template: str, row: Mapping) -> str:
    """``template`` (Jinja) over the row's fields; an unknown field is one clear error."""
    try:
        return _ENVIRONMENT.from_string(template).render(**row)
    except jinja2.UndefinedError as error:
        raise ValueError(
            f"the prompt template uses a field the rows lack ({error.message}); use the rows' "
            f"fields: {', '.join(row)}"
        ) from None
    except jinja2.TemplateSyntaxError as error:
        raise ValueError(
            f"the prompt template is not valid Jinja: {error.message} (line {error.lineno}); "
            "fix that line."
        ) from None
    except jinja2.TemplateNotFound as error:
        raise ValueError(
            f"the prompt template includes or imports another template ({error.name}), which a "
            "template cannot: put the text it needs in the template itself."
        ) from None
    except OverflowError as error:
        raise ValueError(
            f"the prompt template asks for more than a template may make ({error}); remove "
            "that expression."
        ) from None
    except SecurityError as error:
        raise ValueError(
            f"the prompt template reaches beyond the row's fields ({str(error)[:120]}); a "
            "template may use the row's fields and Jinja filters only: remove that expression."
        ) from None


@dataclass(frozen=True)
class LLMPrompt:
    """A benchmark's multiple-choice question for a causal LM.

    Attributes:
        name: a short id, e.g. ``plane_external_tf``.
        text: Jinja over the row's fields: the question (lm-eval ``doc_to_text``).
        choices: the answer of each label, in the config's ``ClassLabel`` order; or a Jinja
            expression that renders a Python list of strings per row, for rows whose choices
            differ (PLANE ``two_shot``: each row names its verbalisers).
        labels: the ``ClassLabel`` names the choices follow; checked against the config.
        description: text put before everything (lm-eval ``description``; a system turn under
            a chat template).
        target_delimiter: between the question and an answer (lm-eval drops it under a chat
            template, and so does ``compsem llm``).
        fewshot_delimiter: after each demonstration.
        source: where the wording comes from (a paper's table, a task's question form).
        parser: the answer parser (``compsem.benchmark.answers.PARSERS``) that reads a generated
            answer back to a label (``compsem llm --generate``, ``compsem rescore``).
        cloze: the question is text for the answer to continue (a paper's template cut where
            the verbaliser goes), not a question a chat model can answer: generation
            (``--generate``, the exported generation tasks) defaults to the first prompt that
            is not one.

    >>> prompt = LLMPrompt("nli", "{{premise}}\\nQuestion: {{hypothesis}} True or False?\\nAnswer:",
    ...                    ("False", "True"), ("non_entailment", "entailment"))
    >>> prompt.question({"premise": "A dog barks.", "hypothesis": "An animal barks."})
    'A dog barks.\\nQuestion: An animal barks. True or False?\\nAnswer:'
    >>> prompt.answers({})
    ['False', 'True']
    """

    name: str
    text: str
    choices: tuple[str, ...] | str
    labels: tuple[str, ...]
    description: str = ""
    target_delimiter: str = " "
    fewshot_delimiter: str = "\n\n"
    source: str = ""
    parser: str = "choices"
    cloze: bool = False

    def __post_init__(self) -> None:
        check_parser(self.parser)
        if isinstance(self.choices, tuple) and len(self.choices) != len(self.labels):
            raise ValueError(
                f"prompt {self.name!r} has {len(self.choices)} choices for {len(self.labels)} "
                "labels: give one answer per label, in the ClassLabel order"
            )

    @property
    def row_choices(self) -> bool:
        """Whether each row has its own choices (a Jinja expression) rather than fixed ones."""
        return isinstance(self.choices, str)

    def question(self, row: Mapping) -> str:
        return render(self.text, row)

    def answers(self, row: Mapping) -> list[str]:
        """The row's answer choices, one per label."""
        if not self.row_choices:
            return list(self.choices)
        rendered = render(self.choices, row)
        try:
            answers = ast.literal_eval(rendered)  # what lm-eval does with a Jinja doc_to_choice
        except (ValueError, SyntaxError):
            answers = None
        if not isinstance(answers, list) or len(answers) != len(self.labels):
            raise ValueError(
                f"prompt {self.name!r}: the choices expression rendered {rendered[:80]!r}, not a "
                f"list of {len(self.labels)} strings"
            )
        return [str(answer) for answer in answers]

    def demonstration(self, row: Mapping, label: int) -> str:
        """A solved example: question, delimiter, the right answer, few-shot delimiter."""
        answer = self.answers(row)[label]
        return self.question(row) + self.target_delimiter + answer + self.fewshot_delimiter

    def with_text(self, text: str, name: str | None = None) -> LLMPrompt:
        """The same choices under another question template (``--template FILE``)."""
        return LLMPrompt(
            name=name or f"{self.name}+template",
            text=text,
            choices=self.choices,
            labels=self.labels,
            description=self.description,
            target_delimiter=self.target_delimiter,
            fewshot_delimiter=self.fewshot_delimiter,
            source="a user template",
            parser=self.parser,
        )

    def check_labels(self, label_names) -> None:
        """One clear error when the config's labels are not the ones the choices follow."""
        if tuple(label_names) != self.labels:
            raise ValueError(
                f"prompt {self.name!r} answers the labels {list(self.labels)}, but the config's "
                f"ClassLabel is {list(label_names)}: pick the prompt for this config"
            )


# Textual entailment as lm-eval's RTE task asks it: RNPC's SPTE and MPTE, and SETI, use it.
NLI = LLMPrompt(
    name="nli",
    text="{{ premise }}\nQuestion: {{ hypothesis if hypothesis[-1:] in '.!?' else hypothesis "
    "~ '.' }} True or False?\nAnswer:",
    choices=("False", "True"),
    labels=("non_entailment", "entailment"),
    source="textual entailment as lm-eval's RTE task asks it",
    parser="choices",
)


def default_prompt(offered: Sequence[LLMPrompt], generate: bool = False) -> LLMPrompt:
    """A config's default among its declared prompts: the first, or where the model answers
    in text (generation, Inspect's solvers) the first that is a question rather than a cloze
    (the first when all are)."""
    asked = [prompt for prompt in offered if not prompt.cloze] if generate else []
    return (asked or list(offered))[0]


@dataclass(frozen=True)
class PromptPatterns:
    """Patterns and antipatterns a premise-hypothesis pair of propositions is put into for a
    classifier of sentences (Schmitt and Schütze 2021b's prompt fine-tuning, BoOQA's S&S).
    A pattern holds where the premise entails the hypothesis, an antipattern where it does not.

    Attributes:
        patterns: ``str.format`` templates over the placeholders of ``fields``.
        antipatterns: likewise.
        fields: ``(placeholder, column)`` pairs (``pal``: ``premise_subject``); an empty
            value leaves no gap ("true, which means that …": the hypothesis-only premise).
        reverse: ``(placeholder, counterpart)`` pairs: which placeholder takes whose value
            when premise and hypothesis trade places (the symmetric variant).
        source: where the templates come from.
    """

    patterns: tuple[str, ...]
    antipatterns: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]
    reverse: tuple[tuple[str, str], ...]
    source: str = ""

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns a config needs for these patterns."""
        return tuple(column for _, column in self.fields)

    def sentences(self, row: Mapping, symmetric: bool = False) -> tuple[list[str], list[str]]:
        """The row's pattern and antipattern sentences; with ``symmetric``, each list goes on
        with its templates again, premise and hypothesis swapped (pairs of reverses)."""
        values = {name: str(row[column] or "") for name, column in self.fields}
        ways = [values]
        if symmetric:
            ways.append({name: values[other] for name, other in self.reverse})
        return tuple(
            [_tidy(template.format(**way)) for way in ways for template in templates]
            for templates in (self.patterns, self.antipatterns)
        )


def _tidy(sentence: str) -> str:
    """One space between words and none before a comma or full stop: an empty field (the
    hypothesis-only premise "true" has no predicate or object) leaves no gap."""
    return re.sub(r" ([,.])", r"\1", " ".join(sentence.split()))
