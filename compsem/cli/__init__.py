"""The ``compsem`` command: every argparse parser of compsem, one module per command group.

- ``program``: the parser, ``build``/``demo``/``audit``/setup commands and dispatch.
- ``harness``: ``train``, ``curve``, ``zero-shot``, ``prompt``, ``score`` (then ``report``).
- ``llm``: ``llm``, ``rescore``, ``lm-eval-tasks``, ``inspect-tasks``, ``model-path``, ``setup-smollm2``.
- ``embed``: ``embed``.
- ``analysis``: ``subwords``, ``probe-edges``, ``probe-scope``: the papers' analyses; ``report``.
- ``publish``: ``export``, ``push``, ``versions``.

Each command module parses its arguments and calls one function of its job's package; nothing
here imports torch or transformers until a command that runs a model is chosen.
"""

from compsem.cli.program import main

__all__ = ["main"]
