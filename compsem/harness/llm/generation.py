"""``compsem llm --generate``: rows as chat conversations, answered by greedy (or sampled)
decoding with transformers.

A row becomes a conversation the way lm-eval's ``--apply_chat_template --fewshot_as_multiturn``
and Inspect build one: an optional system turn (``--system``, else the prompt's description),
each demonstration as a user question and an assistant answer, then the row's question. The
model's chat template (or ``--chat-template FILE``) renders it, with the generation prompt, and
that exact text is what the model reads and what the rows file records.

Generation is batched: prompts sorted by length (longest first, so a batch pads little and an
out-of-memory error comes at once), left-padded, decoded under ``torch.inference_mode`` with the
KV cache; each batch's outputs go to the call cache as it finishes. Greedy decoding of the
common model families drops finished rows and reads the shared prompt prefix once
(``greedy``); sampling keeps ``generate``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
from tqdm.auto import tqdm

from compsem.benchmark.prompts import LLMPrompt
from compsem.files.bounded_read import MissingFile, read_text
from compsem.harness.llm.greedy import greedy_tokens, prunes


@dataclass(frozen=True)
class Decoding:
    """How answers are decoded: what the call cache keys on, with the rendered input."""

    max_new_tokens: int = 32
    temperature: float = 0.0
    samples: int = 1
    seed: int = 1

    def __post_init__(self) -> None:
        if self.samples > 1 and self.temperature <= 0:
            raise ValueError(
                f"--samples {self.samples} with greedy decoding gives {self.samples} identical "
                "answers: pass --temperature above 0 (e.g. 0.7) for a majority vote"
            )

    def settings(self) -> dict:
        return {
            "max_new_tokens": self.max_new_tokens,
            "temperature": self.temperature,
            "samples": self.samples,
            "seed": self.seed if self.temperature > 0 else None,
        }


def conversation(
    prompt: LLMPrompt, row: dict, demos: Sequence[tuple[dict, int]], system: str | None
) -> list[dict]:
    """The chat messages of one row: system, demonstrations as earlier turns, the question."""
    messages = []
    system = prompt.description if system is None else system
    if system:
        messages.append({"role": "system", "content": system})
    for demo, label in demos:
        messages.append({"role": "user", "content": prompt.question(demo).strip()})
        messages.append({"role": "assistant", "content": prompt.answers(demo)[label].strip()})
    messages.append({"role": "user", "content": prompt.question(row).strip()})
    return messages


def chat_template_text(tokenizer, model: str, template_file: Path | None) -> str:
    """The Jinja chat template used: ``--chat-template FILE``, else the model's own; one clear
    error when neither exists."""
    if template_file is not None:
        try:  # a regular file within the template cap: a FIFO or a huge file is one error
            return read_text(template_file, "template")
        except MissingFile:
            raise ValueError(f"no chat template file {template_file}: pass a Jinja file") from None
    if not getattr(tokenizer, "chat_template", None):
        raise ValueError(
            f"{model} has no chat template, which --generate needs to put questions to it: "
            "pass --chat-template FILE (a Jinja chat template), or score choices without "
            "--generate"
        )
    return tokenizer.chat_template


def render_chat(tokenizer, messages: list[dict], template: str) -> str:
    """The exact text the model reads: the conversation under the template, ready for the
    assistant's answer."""
    try:
        return tokenizer.apply_chat_template(
            messages, chat_template=template, tokenize=False, add_generation_prompt=True
        )
    except (jinja2.TemplateError, TypeError, OverflowError) as error:  # Sandbox: SecurityError
        raise ValueError(
            f"the chat template cannot be rendered ({str(error)[:120]}); fix it, or omit "
            "--chat-template to use the model's own."
        ) from None


def generate_texts(
    causal,
    tokenizer,
    prompts: Sequence[str],
    decoding: Decoding,
    batch_size: int,
    device: str,
    done: Callable[[dict[int, dict]], None],
    progress: bool = True,
) -> int:
    """Generate ``decoding.samples`` answers for each prompt, in length-sorted left-padded
    batches; ``done`` gets ``{index: {"texts", "prompt_tokens", "output_tokens"}}`` after each
    batch. Returns the number of ``generate`` calls made."""
    import torch  # heavy: only generation imports it

    tokenizer.padding_side = "left"
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    encoded = [tokenizer(p, add_special_tokens=False)["input_ids"] for p in prompts]
    order = sorted(range(len(prompts)), key=lambda i: -len(encoded[i]))
    sampling = decoding.temperature > 0
    options = {"do_sample": sampling, "max_new_tokens": decoding.max_new_tokens}
    options["num_return_sequences"] = decoding.samples
    if sampling:
        options.update(temperature=decoding.temperature, top_p=1.0, top_k=0)
    else:
        options.update(temperature=None, top_p=None, top_k=None)
    stop = {tokenizer.eos_token_id, *_eos_ids(causal)} - {None}
    pruned = not sampling and decoding.samples == 1 and prunes(causal)
    calls = 0
    with (
        torch.inference_mode(),
        tqdm(total=len(prompts), desc="generating", disable=not progress) as bar,
    ):
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            if pruned:
                new = greedy_tokens(
                    causal,
                    [encoded[i] for i in batch],
                    decoding.max_new_tokens,
                    stop,
                    tokenizer.pad_token_id,
                )
            else:
                if sampling:
                    torch.manual_seed(decoding.seed + start)
                new = _generate(causal, tokenizer, [encoded[i] for i in batch], options, device)
            calls += 1
            found = {}
            for n, index in enumerate(batch):
                answers = new[n * decoding.samples : (n + 1) * decoding.samples]
                lengths = [_length(tokens, stop) for tokens in answers]
                found[index] = {
                    "texts": [
                        tokenizer.decode(t[:k], skip_special_tokens=True)
                        for t, k in zip(answers, lengths, strict=True)
                    ],
                    "prompt_tokens": len(encoded[index]),
                    "output_tokens": lengths,
                }
            done(found)
            bar.update(len(batch))
    return calls


def _generate(causal, tokenizer, prompts: list[list[int]], options: dict, device: str) -> list:
    """``model.generate`` on left-padded prompts: each prompt's answer tokens, padded after a
    stop token (``num_return_sequences`` of them per prompt, in order)."""
    padded = tokenizer.pad({"input_ids": prompts}, return_tensors="pt")
    output = causal.generate(
        input_ids=padded["input_ids"].to(device),
        attention_mask=padded["attention_mask"].to(device),
        pad_token_id=tokenizer.pad_token_id,
        **options,
    )
    return output[:, padded["input_ids"].shape[1] :].tolist()


def _eos_ids(causal) -> list[int]:
    eos = getattr(causal.generation_config, "eos_token_id", None)
    return list(eos) if isinstance(eos, list) else [eos]


def _length(tokens: list[int], stop: set[int]) -> int:
    """Tokens generated before the first end-of-sequence (padding after it excluded)."""
    return next((i for i, token in enumerate(tokens) if token in stop), len(tokens))
