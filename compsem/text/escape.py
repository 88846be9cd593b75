"""One escaping helper per output format, for every string that came from a user, a card or a
result file (model, config, dataset and field names, paths) on its way into a file compsem
writes: HTML (:func:`html_text`), Markdown text, table cells and headings (:func:`markdown_text`),
Markdown code spans (:func:`markdown_code`), YAML (:func:`yaml_text`, a dumper, never string
interpolation) and shell command lines (:func:`shell_line`, each word quoted)."""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import Iterable

import yaml

# Characters that change what Markdown text means: HTML (<, >, &), table cells (|), code (`),
# links and images ([, ]), emphasis (*), escapes (\). Each becomes a character reference, which
# Markdown shows as the character and never reads as syntax.
_MARKDOWN = {char: f"&#{ord(char)};" for char in "&<>|`[]*\\"}
_MARKDOWN_PATTERN = re.compile("[" + re.escape("".join(_MARKDOWN)) + "]")
# What starts a heading, a list, a quote or a setext underline at the start of a line.
_BLOCK_START = re.compile(r"^(\s*)(#|[+\-=](?=\s|$)|\d+[.)](?=\s|$))")
_LINE_BREAKS = re.compile(r"[\r\n\t\x0b\x0c\x85\u2028\u2029]+")


class Markdown(str):
    """Text already written as Markdown (compsem's own links, numbers and markup): renderers
    pass it through as it is, and escape every plain ``str``."""


def html_text(value) -> str:
    """``value`` as HTML text or an attribute value (quotes escaped too)."""
    return html.escape(str(value), quote=True)


def markdown_text(value) -> Markdown:
    """``value`` as Markdown that reads as exactly its text in a paragraph, a heading or a table
    cell: syntax characters as character references, line breaks as spaces (a cell or heading
    is one line), and a leading ``#``, ``-``, ``+``, ``>`` or ``1.`` unable to start a block."""
    if isinstance(value, Markdown):
        return value
    text = _LINE_BREAKS.sub(" ", str(value))
    text = _MARKDOWN_PATTERN.sub(lambda match: _MARKDOWN[match.group()], text)
    text = _BLOCK_START.sub(lambda m: m.group(1) + _reference(m.group(2)), text)
    return Markdown(text)


def _reference(prefix: str) -> str:
    return "".join(f"&#{ord(char)};" for char in prefix)


def markdown_code(value) -> Markdown:
    """``value`` as one Markdown code span: fenced with more backticks than it holds in a row,
    on one line."""
    text = _LINE_BREAKS.sub(" ", str(value))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") or longest else text
    return Markdown(f"{fence}{padded}{fence}")


def markdown_anchor(value) -> str:
    """An ``id`` for ``value`` that is safe in HTML and in a Markdown link target."""
    return re.sub(r"[^\w\-]", "-", str(value), flags=re.ASCII) or "-"


def shell_line(words: Iterable) -> str:
    """A command line that runs ``words`` as given, each quoted for a POSIX shell."""
    return shlex.join(str(word) for word in words)


def yaml_text(payload, dumper: type[yaml.SafeDumper] = yaml.SafeDumper) -> str:
    """``payload`` as YAML by a safe dumper (``dumper``: one with extra tags), keys in order,
    Unicode as it is, long strings on one line."""
    return yaml.dump(payload, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000)
