"""PLANE's questions for causal LMs (``compsem llm``, ``compsem lm-eval-tasks``).

Items (``goood_split_*``, ``one_it_split_*``…): the paper's templates (Table 2: internal "A {c1}
is a {verbaliser} example of a {c2}.", external "A {c1} is a type of {c2}:{verbaliser}") with its
verbalisers (Table 3: good/poor, true/false, positive/negative), built from the row's
``sentence`` ("A fake gun is a weapon."). The default, ``plane_external_tf``, has single-token
answers; the external template's answer follows a space here (" true"), as lm-eval tasks do.
Generation defaults to ``plane_question_tf``, the item asked as a true-or-false question.
``two_shot``: the row's own prompt (two labelled premises, a masked hypothesis) cut at the mask;
the choices are the row's verbalisers followed by the rest of the hypothesis.
"""

from __future__ import annotations

from compsem.benchmark.prompts import LLMPrompt
from compsem.builders.plane.config import LABEL_NAMES

ENTAILMENT = tuple(LABEL_NAMES)
# "A fake gun is a weapon." -> c1 "A fake gun", c2 "weapon", c2 with its article "a weapon".
_C1 = "(sentence | regex_replace('^(.*?) is an? .*$', '\\\\1'))"
_C2 = "(sentence | regex_replace('^.*? is an? (.*)\\\\.$', '\\\\1'))"
_ARTICLE_C2 = "(sentence | regex_replace('^.*? is (an? .*)\\\\.$', '\\\\1'))"
# True/false first: the default prompt (its answers are single tokens).
PLANE_VERBALISERS = {
    "tf": ("false", "true"),
    "gp": ("poor", "good"),
    "pn": ("negative", "positive"),
}
PLANE_SOURCE = "PLANE §4, Tables 2 and 3"


def _plane_items(template: str, verbaliser: str) -> LLMPrompt:
    negative, positive = PLANE_VERBALISERS[verbaliser]
    if template == "external":
        return LLMPrompt(
            name=f"plane_external_{verbaliser}",
            text=f"{{{{ {_C1} }}}} is a type of {{{{ {_C2} }}}}:",
            choices=(negative, positive),
            labels=ENTAILMENT,
            parser="choices",
            source=PLANE_SOURCE,
            cloze=True,
        )
    # The verbaliser sits inside the sentence: each choice carries the rest of it.
    rest = f" ~ ' example of ' ~ {_ARTICLE_C2} ~ '.'"
    return LLMPrompt(
        name=f"plane_internal_{verbaliser}",
        text=f"{{{{ {_C1} }}}} is a",
        choices=f"{{{{ ['{negative}'{rest}, '{positive}'{rest}] }}}}",
        labels=ENTAILMENT,
        parser="choices",
        source=PLANE_SOURCE,
        cloze=True,
    )


# The templates above are continuations, which a chat model reads as an unfinished sentence and
# does not answer (99.8% unparsable with SmolLM2-Instruct): generation asks the item as a
# question, with the true/false verbaliser as the answer words.
PLANE_QUESTION = LLMPrompt(
    name="plane_question_tf",
    text="{{ sentence }}\nQuestion: Is this statement true or false?\nAnswer:",
    choices=("false", "true"),
    labels=ENTAILMENT,
    parser="choices",
    source="compsem's question form of PLANE's items, for chat models (the paper's are cloze)",
)
PLANE_ITEMS = {
    prompt.name: prompt
    for prompt in (
        _plane_items(template, verbaliser)
        for template in ("external", "internal")
        for verbaliser in PLANE_VERBALISERS
    )
}
PLANE_TWO_SHOT = LLMPrompt(
    name="plane_two_shot",
    text="{{ prompt.split('{mask}')[0] }}",
    choices="{{ [negative_word ~ prompt.split('{mask}')[1], "
    "positive_word ~ prompt.split('{mask}')[1]] }}",
    labels=ENTAILMENT,
    parser="choices",
    target_delimiter="",
    source="PLANE §4: the two-shot prompts of Table 2, verbalisers of Table 3",
    cloze=True,
)

# The first entry whose columns a config has gives its prompts, the first prompt the default.
LLM_PROMPTS = (
    (frozenset({"prompt"}), (PLANE_TWO_SHOT,)),
    (frozenset({"sentence"}), (*PLANE_ITEMS.values(), PLANE_QUESTION)),
)
