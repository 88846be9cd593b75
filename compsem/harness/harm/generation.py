"""The zero-shot LLM baseline of RNPC §8 answering by generation, as the paper's GPT-3 did
(Appendix E.4: the task description and the question, then a short continuation read as Yes or
No): the prompt rendered as ``compsem llm --generate`` renders it (under the model's chat
template, the description as the system turn), decoded greedily, and the text parsed by the
prompt's answer parser (``compsem.benchmark.answers``)."""

from __future__ import annotations

from collections.abc import Sequence

from compsem.benchmark.answers import parse_answer
from compsem.benchmark.prompts import LLMPrompt
from compsem.harness.harm.classifiers import check_causal
from compsem.harness.llm.generation import (
    Decoding,
    chat_template_text,
    conversation,
    generate_texts,
    render_chat,
)
from compsem.harness.llm.run import load_causal_lm, load_tokenizer

BATCH = 8


def rendered_prompts(prompt: LLMPrompt, queries: Sequence[str], tokenizer, model: str, chat: bool):
    """The exact text the model reads for each query: the chat conversation under the model's
    template, or (``chat`` off, or a model without one) the description then the question."""
    if chat and getattr(tokenizer, "chat_template", None):
        template = chat_template_text(tokenizer, model, None)
        return [
            render_chat(tokenizer, conversation(prompt, {"query": q}, (), None), template)
            for q in queries
        ]
    return [prompt.description + prompt.question({"query": q}) for q in queries]


def read_answer(prompt: LLMPrompt, text: str) -> str | None:
    """The choice ("Yes" or "No") a generated text names first, by the prompt's parser; None
    when it names neither."""
    choices = prompt.answers({})
    found = parse_answer(prompt.parser, text, choices)
    return None if found is None else choices[found]


def llm_generations(
    model: str, prompt: LLMPrompt, queries: Sequence[str], placement, chat: bool, decoding: Decoding
) -> list[dict]:
    """Each query's prompt as the model read it, its generated answer and the choice parsed
    from it."""
    check_causal(model)
    tokenizer = load_tokenizer(model)
    texts = rendered_prompts(prompt, queries, tokenizer, model, chat)
    causal = load_causal_lm(model, placement)
    found: dict[int, dict] = {}
    generate_texts(
        causal, tokenizer, texts, decoding, BATCH, placement.device, found.update, progress=False
    )
    return [
        {
            "prompt": texts[i],
            "generated": found[i]["texts"][0],
            "answer": read_answer(prompt, found[i]["texts"][0]),
        }
        for i in range(len(texts))
    ]
