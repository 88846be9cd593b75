"""Answer parsers: a model's generated text back to a label index, or ``None`` when unparsable.

A benchmark declares its parser once, by name, on each of its prompts (``LLMPrompt.parser``), so
``compsem llm --generate``, ``compsem rescore`` and exported tasks read answers the same way.
Each parser first strips reasoning blocks (``<think>…</think>`` and any configured tags, plus an
unclosed trailing one), then looks for the answer in what is left. Pure Python: importable
without torch or transformers (Inspect and lm-eval exports reuse it).

>>> parse_answer("choices", "<think>Dogs are animals.</think> True.", ["False", "True"])
1
>>> parse_answer("yes_no", "No, it is not.", ["False", "True"])
0
>>> parse_answer("letters", "The answer is (B).", ["False", "True"])
1
>>> parse_answer("three_way", "Event 2 is as plausible as Event 1.", ["less", "equally", "more"])
1
>>> parse_answer("choices", "I cannot tell.", ["False", "True"]) is None
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

REASONING_TAGS = ("think", "thinking", "reasoning")

Parser = Callable[[str, Sequence[str]], "int | None"]


def strip_reasoning(text: str, tags: Sequence[str] = REASONING_TAGS) -> str:
    """``text`` without its reasoning blocks: each ``<tag>…</tag>``, a block left open at the end
    (a generation cut by its token budget), and text before a lone closing tag (templates that
    open the block in the prompt, as DeepSeek-R1's and Qwen3's do)."""
    for tag in tags:
        name = re.escape(tag)
        text = re.sub(rf"<{name}>.*?</{name}>", " ", text, flags=re.S | re.I)
        text = re.sub(rf"<{name}>.*\Z", " ", text, flags=re.S | re.I)
        text = re.sub(rf"\A.*?</{name}>", " ", text, flags=re.S | re.I)
    return text.strip()


def _first_match(text: str, alternatives: Sequence[Sequence[str]]) -> int | None:
    """The index of the alternative whose word (or phrase) occurs first in ``text`` as a whole
    word, case-insensitively; ``None`` when none occurs."""
    best: tuple[int, int] | None = None
    for index, words in enumerate(alternatives):
        for word in words:
            found = re.search(rf"(?<!\w){re.escape(word.strip())}(?!\w)", text, flags=re.I)
            if found and (best is None or found.start() < best[0]):
                best = (found.start(), index)
    return None if best is None else best[1]


def distinguishing(choices: Sequence[str]) -> list[str]:
    """The words that tell the choices apart: the common leading and trailing words removed
    (PLANE's internal choices "poor example of a weapon." and "good example of a weapon." give
    "poor" and "good"), as long as every choice keeps a word."""
    words = [choice.split() for choice in choices]
    while all(len(w) > 1 for w in words) and len({w[-1] for w in words}) == 1:
        words = [w[:-1] for w in words]
    while all(len(w) > 1 for w in words) and len({w[0] for w in words}) == 1:
        words = [w[1:] for w in words]
    return [" ".join(w) for w in words]


def parse_choices(text: str, choices: Sequence[str]) -> int | None:
    """The choice (a label word: ``True``, ``entailment``, a PLANE verbaliser) named first,
    whole or by the words that tell it from the others."""
    return _first_match(
        text, [[c, d] for c, d in zip(choices, distinguishing(choices), strict=True)]
    )


def parse_letters(text: str, choices: Sequence[str]) -> int | None:
    """A letter option, ``A`` for the first choice: ``B``, ``(B)``, ``B.``, ``answer: B``; a bare
    letter counts only at the start or after "answer"; otherwise the choice words."""
    letters = "".join(chr(ord("A") + i) for i in range(len(choices)))
    found = re.search(rf"(?:^|answer\s*(?:is)?\s*:?\s*)\(?([{letters}])\)?(?![\w'])", text, re.I)
    if found is None:
        found = re.search(rf"\(([{letters}])\)", text, re.I)
    if found is not None:
        return ord(found.group(1).upper()) - ord("A")
    return parse_choices(text, choices)


YES = ("yes", "true", "correct", "entailed", "it does")
NO = ("no", "false", "incorrect", "not entailed", "it does not", "doesn't")


def parse_yes_no(text: str, choices: Sequence[str]) -> int | None:
    """A binary question: yes (or true) is the second label, no (or false) the first."""
    if len(choices) != 2:
        raise ValueError(f"the yes_no parser reads two labels, this prompt has {len(choices)}")
    return _first_match(text, [NO, YES])


LESS = ("less", "lower", "less plausible", "less likely")
EQUALLY = ("equally", "equal", "same", "as plausible", "similar", "similarly")
MORE = ("more", "higher", "more plausible", "more likely")


def parse_three_way(text: str, choices: Sequence[str]) -> int | None:
    """RNPC's EPC: less, equally or more plausible, with the usual paraphrases (``the same``,
    ``as plausible as``, ``more likely``); the choice words themselves count too."""
    if len(choices) != 3:
        raise ValueError(f"the three_way parser reads three labels, this prompt has {len(choices)}")
    return _first_match(
        text, [(c, *words) for c, words in zip(choices, (LESS, EQUALLY, MORE), strict=True)]
    )


def parse_score(text: str, choices: Sequence[str]) -> int | None:
    """A probability of the positive (second) label, ``0.8`` or ``80%``, thresholded at 0.5; a
    label word when no number is given. The number itself is :func:`answer_score`."""
    score = answer_score(text)
    if score is None:
        return parse_choices(text, choices)
    return int(score >= 0.5)


def answer_score(text: str) -> float | None:
    """The first number in ``text`` read as a probability (a percentage when it ends in ``%``
    or exceeds 1), ``None`` when there is none or it lies outside [0, 100]."""
    found = re.search(r"(\d+(?:\.\d+)?|\.\d+)\s*(%?)", strip_reasoning(text))
    if found is None:
        return None
    value = float(found.group(1))
    if found.group(2) or value > 1:
        value /= 100
    return value if 0 <= value <= 1 else None


PARSERS: dict[str, Parser] = {
    "choices": parse_choices,
    "letters": parse_letters,
    "yes_no": parse_yes_no,
    "three_way": parse_three_way,
    "score": parse_score,
}


def check_parser(name: str) -> str:
    """``name`` if it is a registered parser, else one clear error listing them."""
    if name not in PARSERS:
        raise ValueError(f"unknown parser {name!r}; choose one of {', '.join(PARSERS)}")
    return name


def parse_answer(
    name: str, text: str, choices: Sequence[str], tags: Sequence[str] = REASONING_TAGS
) -> int | None:
    """The label index parser ``name`` reads in ``text`` (reasoning stripped), else ``None``."""
    return PARSERS[check_parser(name)](strip_reasoning(text, tags), choices)


def majority(answers: Sequence[int | None]) -> int | None:
    """The most frequent parsed answer of several samples (unparsable ones do not vote; ties go
    to the answer seen first); ``None`` when no sample parsed."""
    votes = Counter(answer for answer in answers if answer is not None)
    if not votes:
        return None
    top = max(votes.values())
    return next(a for a in answers if a is not None and votes[a] == top)
