"""``compsem llm --generate --backend openai``: an OpenAI-compatible chat endpoint (OpenAI, vLLM's
and ``transformers serve``'s servers, llama.cpp, Ollama …) answers the rows.

Each row's messages go to ``POST {base_url}/chat/completions`` (the server applies its own chat
template), at most ``concurrency`` requests at a time. A rate limit (429), a server error (5xx),
a timeout or a dropped connection is retried with exponential backoff and jitter, honouring
``Retry-After``; what still fails after the retries stops the run with one line naming the cause
and the fix. A wrong key (401/403) and an unreachable endpoint stop it at once, before any
output is written. A refusal (``message.refusal`` or ``finish_reason: content_filter``) is an
answer that cannot be parsed: it counts as wrong and the run reports how many there were.
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed

import httpx
from tqdm.auto import tqdm

from compsem.harness.llm.generation import Decoding

RETRIED = {408, 409, 425, 429, 500, 502, 503, 504}


class EndpointError(RuntimeError):
    """The endpoint cannot answer: one line naming the cause and what to do."""


def api_key(variable: str | None) -> str | None:
    """The key in environment variable ``variable``; one clear error when it is named but unset."""
    if variable is None:
        return None
    key = os.environ.get(variable)
    if not key:
        raise ValueError(f"--api-key-env {variable}: that environment variable is not set")
    return key


class ChatEndpoint:
    """An OpenAI-compatible ``/chat/completions`` endpoint."""

    def __init__(
        self,
        base_url: str,
        model: str,
        key: str | None = None,
        timeout: float = 60.0,
        retries: int = 5,
        backoff: float = 1.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retries = retries
        self.backoff = backoff
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.client = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)

    def close(self) -> None:
        self.client.close()

    def chat(self, messages: list[dict], decoding: Decoding, sample: int = 0) -> dict:
        """One answer: ``{"text", "prompt_tokens", "output_tokens", "refused"}``."""
        body = {
            "model": self.model,
            "messages": messages,
            "max_tokens": decoding.max_new_tokens,
            "temperature": decoding.temperature,
        }
        if decoding.temperature > 0:
            body["seed"] = decoding.seed + sample
        reply = self._post(body)
        try:
            choice = reply["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError):
            raise EndpointError(
                f"{self.base_url} answered without choices[0].message: is it an OpenAI-compatible "
                "chat endpoint (…/v1)?"
            ) from None
        refused = bool(message.get("refusal")) or choice.get("finish_reason") == "content_filter"
        usage = reply.get("usage") or {}
        return {
            "text": "" if refused else (message.get("content") or ""),
            "prompt_tokens": usage.get("prompt_tokens"),
            "output_tokens": usage.get("completion_tokens"),
            "refused": refused,
        }

    def _post(self, body: dict) -> dict:
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                response = self.client.post("/chat/completions", json=body)
            except httpx.ConnectError:
                raise EndpointError(
                    f"cannot reach {self.base_url}: is the server running, and is --base-url its "
                    "OpenAI-compatible root (e.g. http://127.0.0.1:8000/v1)?"
                ) from None
            except (httpx.TimeoutException, httpx.RemoteProtocolError, httpx.ReadError):
                if last:
                    raise EndpointError(
                        f"{self.base_url} timed out {self.retries + 1} times: raise --timeout or "
                        "lower --concurrency"
                    ) from None
                self._sleep(attempt, None)
                continue
            if response.status_code in (401, 403):
                raise EndpointError(
                    f"{self.base_url} refused the API key ({response.status_code}): check the key "
                    "in the variable --api-key-env names"
                )
            if response.status_code in RETRIED and not last:
                self._sleep(attempt, response.headers.get("retry-after"))
                continue
            if response.status_code == 429:
                raise EndpointError(
                    f"{self.base_url} kept rate-limiting (429) after {self.retries} retries: "
                    "lower --concurrency or try later"
                )
            if response.status_code >= 400:
                raise EndpointError(
                    f"{self.base_url} answered {response.status_code}: {_detail(response)}"
                )
            try:
                return response.json()
            except ValueError:
                raise EndpointError(f"{self.base_url} answered with something not JSON") from None
        raise AssertionError("unreachable")

    def _sleep(self, attempt: int, retry_after: str | None) -> None:
        try:
            wait = float(retry_after) if retry_after else None
        except ValueError:
            wait = None
        if wait is None:
            wait = self.backoff * 2**attempt * (0.5 + random.random())
        time.sleep(min(wait, 60.0))


def _detail(response: httpx.Response) -> str:
    try:
        error = response.json().get("error")
        message = error.get("message") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        message = None
    return str(message or response.text[:200]).replace("\n", " ")


def generate_with_endpoint(
    endpoint: ChatEndpoint,
    conversations: Sequence[list[dict]],
    decoding: Decoding,
    concurrency: int,
    done: Callable[[dict[int, dict]], None],
    progress: bool = True,
) -> int:
    """Every conversation's answers, ``concurrency`` requests at a time; ``done`` gets each
    finished row as in :func:`generation.generate_texts`. Returns the requests made."""

    def answer(index: int) -> tuple[int, dict]:
        replies = [
            endpoint.chat(conversations[index], decoding, s) for s in range(decoding.samples)
        ]
        return index, {
            "texts": [r["text"] for r in replies],
            "prompt_tokens": replies[0]["prompt_tokens"],
            "output_tokens": [r["output_tokens"] for r in replies],
            "refused": sum(r["refused"] for r in replies),
        }

    if not conversations:
        return 0
    done(dict([answer(0)]))  # one request first: a wrong key or URL stops the run at once
    with tqdm(total=len(conversations), initial=1, desc="requests", disable=not progress) as bar:
        pool = ThreadPoolExecutor(concurrency)
        try:
            for future in as_completed(
                [pool.submit(answer, i) for i in range(1, len(conversations))]
            ):
                done(dict([future.result()]))
                bar.update(1)
        finally:
            pool.shutdown(cancel_futures=True)
    return len(conversations) * decoding.samples


def server_version(endpoint: ChatEndpoint) -> str | None:
    """What the server says of itself (``/models``' owner of this model), if anything."""
    try:
        listed = endpoint.client.get("/models").json().get("data", [])
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
    owners = {m.get("owned_by") for m in listed if isinstance(m, dict)} - {None}
    return ", ".join(sorted(owners)) or None


@contextlib.contextmanager
def transformers_serve(model: str, startup_timeout: float = 300.0):
    """``transformers serve`` (transformers' own OpenAI-compatible server) on a free port of
    127.0.0.1, serving ``model`` on CPU; yields its ``/v1`` URL, and stops the server (and any
    process it started) on leaving, however the block ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from transformers.cli.transformers import main; main()"]
    command += ["serve", "--host", "127.0.0.1", "--port", str(port), "--device", "cpu", model]
    log = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would block the server
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if server.poll() is not None:
                log.seek(0)
                said = log.read().decode(errors="replace").strip().splitlines() or [""]
                raise RuntimeError(f"transformers serve exited ({server.returncode}): {said[-1]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"transformers serve did not start in {startup_timeout:.0f} s")
            time.sleep(0.5)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, 15)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()
        log.close()
