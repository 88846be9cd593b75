"""What ``compsem embed`` says of a run beyond its report folder (which the benchmark's spec
writes, ``EmbeddingTests.write_report``): the command that reruns it, and the demo's table."""

from __future__ import annotations

import shlex
import time
from pathlib import Path

from compsem.builders import BENCHMARKS
from compsem.harness.embed.models import MINILM
from compsem.harness.embed.run import run_embed


def command_line(
    dataset: str,
    models=(MINILM,),
    pooling: str | list[str] | None = None,
    vocabulary: str = "paper",
    phrase_sets=None,
    trust_remote_code: bool = False,
    prefix: str | None = None,
) -> str:
    """The command that regenerates a report; the output folder does not change the scores."""
    parts = ["compsem", "embed", "--dataset", str(dataset)]
    for model in models:
        parts += ["--model", model]
    if pooling:
        parts += ["--pooling", *([pooling] if isinstance(pooling, str) else pooling)]
    if trust_remote_code:
        parts.append("--trust-remote-code")
    if prefix is not None:
        parts += ["--prefix", prefix]
    if vocabulary != "paper":
        parts += ["--vocabulary", vocabulary]
    if phrase_sets:
        parts += ["--phrase-sets", *phrase_sets]
    return shlex.join(parts) + " --out DIR"


def demo_table(export: Path) -> str:
    """The offline MiniLM's consistency scores on the AN phrases of a Montague export, as
    Markdown (a row per test, a column per adjective type), with the time it took."""
    start = time.perf_counter()
    report = run_embed([MINILM], str(export), phrase_sets=["an"])
    seconds = time.perf_counter() - start
    phrases = report["phrase_sets"]["an"]
    return (
        BENCHMARKS[report["benchmark"]].embedding.demo_table(report)
        + f"\n\nall-MiniLM-L6-v2 on the {phrases} AN phrases of Appendix A ({seconds:.1f} s); "
        f"all tables, AAN included: `compsem embed --dataset {export} --model {MINILM} "
        "--out DIR`."
    )
