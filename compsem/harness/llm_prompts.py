"""The five benchmarks' questions for causal LMs, as plain ``LLMPrompt`` data.

Keyed by benchmark, then by the task a config holds (PLANE items or ``two_shot``, RNPC's
entailment tasks or EPC, BoOQA with or without evidence). Each will move into its benchmark's
spec under ``builders/<name>/``; nothing here is code a builder would not hold.

- PLANE items (``goood_split_*``, ``one_it_split_*``): the paper's templates (Table 2: internal
  "A {c1} is a {verbaliser} example of a {c2}.", external "A {c1} is a type of {c2}:{verbaliser}")
  with its verbalisers (Table 3: good/poor, true/false, positive/negative), built from the row's
  ``sentence`` ("A fake gun is a weapon."). Default ``plane_external_tf``: its answers are single
  tokens. The external template's answer follows a space here (" true"), as lm-eval tasks do.
- PLANE ``two_shot``: the row's own prompt (two labelled premises, a masked hypothesis) cut at the
  mask; the choices are the row's verbalisers followed by the rest of the hypothesis.
- RNPC SPTE/MPTE and SETI: textual entailment, in the question form of lm-eval's RTE task
  ("{premise}\\nQuestion: {hypothesis} True or False?\\nAnswer:").
- RNPC EPC: Event2's plausibility compared with Event1's (RNPC §3), three choices.
- BoOQA: is the hypothesis true given the window's evidence (the first ``BOOQA_EVIDENCE``
  pieces; an LLM's context is short), or given nothing (``h_only``, Appendix E.1).
"""

from __future__ import annotations

from compsem.prompts import LLMPrompt

ENTAILMENT = ("non_entailment", "entailment")
PLAUSIBILITY = ("less_plausible", "equally_plausible", "more_plausible")
TRUTH = ("false", "true")
BOOQA_EVIDENCE = 20

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
            source=PLANE_SOURCE,
        )
    # The verbaliser sits inside the sentence: each choice carries the rest of it.
    rest = f" ~ ' example of ' ~ {_ARTICLE_C2} ~ '.'"
    return LLMPrompt(
        name=f"plane_internal_{verbaliser}",
        text=f"{{{{ {_C1} }}}} is a",
        choices=f"{{{{ ['{negative}'{rest}, '{positive}'{rest}] }}}}",
        labels=ENTAILMENT,
        source=PLANE_SOURCE,
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
    target_delimiter="",
    source="PLANE §4: the two-shot prompts of Table 2, verbalisers of Table 3",
)
NLI = LLMPrompt(
    name="nli",
    text="{{ premise }}\nQuestion: {{ hypothesis if hypothesis[-1:] in '.!?' else hypothesis "
    "~ '.' }} True or False?\nAnswer:",
    choices=("False", "True"),
    labels=ENTAILMENT,
    source="textual entailment as lm-eval's RTE task asks it",
)
EPC = LLMPrompt(
    name="epc",
    text="Event 1: {{ event1 }}\nEvent 2: {{ event2 }}\nQuestion: Compared with Event 1, is "
    "Event 2 less, equally or more plausible?\nAnswer:",
    choices=("less", "equally", "more"),
    labels=PLAUSIBILITY,
    source="RNPC §3: the plausibility of Event2 compared to that of Event1",
)
BOOQA_EVIDENCE_PROMPT = LLMPrompt(
    name="booqa_evidence",
    text="News reports:\n{% for piece in evidence[:" + str(BOOQA_EVIDENCE) + "] %}- "
    "{{ piece.text }}\n{% endfor %}Question: Based on these reports, is it true that "
    "{{ hypothesis }}? True or False?\nAnswer:",
    choices=("False", "True"),
    labels=TRUTH,
    source=f"BoOQA §3: the hypothesis against its window's evidence (first {BOOQA_EVIDENCE})",
)
BOOQA_H_ONLY = LLMPrompt(
    name="booqa_h_only",
    text="Question: Is it true that {{ hypothesis }}? True or False?\nAnswer:",
    choices=("False", "True"),
    labels=TRUTH,
    source="BoOQA Appendix E.1: the hypothesis alone",
)

# benchmark -> task -> the prompts it offers, the first being the default.
PROMPTS: dict[str, dict[str, tuple[LLMPrompt, ...]]] = {
    "plane": {"items": tuple(PLANE_ITEMS.values()), "two_shot": (PLANE_TWO_SHOT,)},
    "rnpc": {"entailment": (NLI,), "epc": (EPC,)},
    "seti": {"entailment": (NLI,)},
    "booqa": {"evidence": (BOOQA_EVIDENCE_PROMPT,), "h_only": (BOOQA_H_ONLY,)},
}


def task_of(benchmark: str, columns) -> str:
    """Which of a benchmark's tasks a config holds, from its columns."""
    columns = set(columns)
    if benchmark == "plane":
        return "two_shot" if "prompt" in columns else "items"
    if benchmark == "rnpc":
        return "epc" if "event1" in columns else "entailment"
    if benchmark == "booqa":
        return "evidence" if "evidence" in columns else "h_only"
    return "entailment"


def prompts_for(benchmark: str, columns) -> tuple[LLMPrompt, ...]:
    """The prompts for a config of ``benchmark``; one clear error for a benchmark without any."""
    if benchmark not in PROMPTS:
        raise ValueError(
            f"no LLM prompt is declared for {benchmark!r} configs (LLM prompts exist for "
            f"{', '.join(PROMPTS)}); Montague consistency is measured on embeddings: "
            "use compsem embed"
        )
    return PROMPTS[benchmark][task_of(benchmark, columns)]


def choose_prompt(benchmark: str, columns, name: str | None = None) -> LLMPrompt:
    """The named prompt of the config's task, or its default."""
    offered = prompts_for(benchmark, columns)
    if name is None:
        return offered[0]
    for prompt in offered:
        if prompt.name == name:
            return prompt
    raise ValueError(
        f"unknown prompt {name!r} for this config; choose one of "
        f"{', '.join(p.name for p in offered)}"
    )
