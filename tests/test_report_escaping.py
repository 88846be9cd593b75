"""Names from users, cards and result files are escaped for the format each output of
``compsem report`` is in (``compsem/text/escape.py``): a hostile model, config, dataset, field
value or label name reads back as its text in Markdown, HTML and SVG, and as one word in the
command line that reruns it; the intervals and the per-label section render beside them."""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ElementTree
from html import unescape
from html.parser import HTMLParser

import numpy as np
import pytest

from compsem.harness.models.device import resolve
from compsem.harness.report.page_html import inline
from compsem.harness.report.run import run_report
from compsem.harness.results.files import make_result, write_json, write_result, write_rows
from compsem.harness.results.scores import grouped_scores
from compsem.text.escape import markdown_code, markdown_text, shell_line, yaml_text
from tests.test_report_page import embed_report

CPU = resolve("cpu")

# Each hostile string, and where it goes: a model, a config, a dataset path, a field value,
# a label name. Config names become result file names, so this one holds no "/" (which would
# put the file in another folder) or newline.
HOSTILE = {
    "model": "<script>alert(1)</script>$(rm -rf ~)\n# heading|`x`",
    "config": "cfg|<b>bold<b>[click](javascript:alert(2))`",
    "dataset": "exports/`touch pwned`; rm -rf ~ <img src=x onerror=alert(3)>",
    "group": "a|b\nc <i>x</i> **bold** [y](z)",
    "label": "<u>yes</u>|no",
}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A report folder of three seeds of a hostile run, with intervals and per-row files."""
    runs, out = tmp_path_factory.mktemp("runs"), tmp_path_factory.mktemp("report")
    rng = np.random.default_rng(0)
    for seed in (1, 2, 3):
        labels = rng.integers(0, 2, 60)
        predictions = np.where(rng.random(60) < 0.8, labels, 1 - labels)
        groups = {"kind": [HOSTILE["group"], "plain"] * 30}
        items = ("np", [str(i // 2) for i in range(60)])
        scores = grouped_scores(labels, predictions, ["no", HOSTILE["label"]], groups, items)
        dataset = {
            "path": HOSTILE["dataset"],
            "config": HOSTILE["config"],
            "split": "test",
            "revision": None,
            "fingerprint": "f" * 16,
            "preset": "rnpc",
        }
        settings = {"epochs": 1.0, "eval_examples": 60, "inputs": ["premise", "hypothesis"]}
        result = make_result("train", HOSTILE["model"], dataset, seed, settings, scores, CPU)
        path = write_result(runs, result)
        write_rows(path, [{"id": i, "label": int(g)} for i, g in enumerate(labels)])
    embed = embed_report()  # a Montague report, its model named as hostilely
    embed["models"][0]["label"] = HOSTILE["model"]
    write_json(runs / "montague" / "results.json", embed)
    run_report([runs], out)
    return out


def markdown_outside_code(text: str) -> str:
    return re.sub(r"(`+).+?\1", "", text)


@pytest.mark.parametrize("name", ["report.md", "index.md"])
@pytest.mark.parametrize("where", sorted(HOSTILE))
def test_markdown_never_holds_a_hostile_name_raw(written, name, where):
    text = (written / name).read_text()
    bare = markdown_outside_code(text)
    for piece in re.split(r"[\n ]", HOSTILE[where]):
        if any(char in piece for char in "<>|[]`*") and piece:
            assert piece not in bare, f"{where} reaches {name} raw: {piece!r}"
    assert not re.search(r"^# heading", text, re.M)  # a newline in a name starts no heading
    assert "](javascript:" not in bare


@pytest.mark.parametrize("name", ["report.md", "index.md"])
def test_every_table_row_keeps_its_columns(written, name):
    """A pipe in a name splits no cell: each row has as many cells as its header."""
    lines = (written / name).read_text().splitlines()
    for index, line in enumerate(lines):
        if line.startswith("|") and index + 1 < len(lines) and lines[index + 1].startswith("|-"):
            width = line.count("|")
            for row in lines[index + 2 :]:
                if not row.startswith("|"):
                    break
                assert row.count("|") == width, row


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.hrefs, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.hrefs += [value for key, value in attrs if key == "href"]

    def handle_data(self, data):
        self.text.append(data)


def test_html_shows_hostile_names_as_text_and_runs_nothing(written):
    parser = Tags()
    parser.feed((written / "index.html").read_text())
    tags = {tag for tag, _ in parser.tags}
    assert not tags & {"img", "b", "i", "u"}, tags
    assert sum(tag == "script" for tag, _ in parser.tags) == 1  # the page's own sorting script
    assert not any(key.startswith("on") for _, attrs in parser.tags for key in attrs)
    assert not any(href.startswith("javascript") for href in parser.hrefs)
    text = "".join(parser.text)
    assert "<script>alert(1)</script>$(rm -rf ~)" in text  # shown, as text
    assert HOSTILE["label"] in text  # the per-label table names it


def test_plots_are_well_formed_svg(written):
    plots = sorted((written / "plots").glob("*.svg"))
    assert plots
    for plot in plots:
        ElementTree.fromstring(plot.read_text())  # raises on an unescaped name
        assert plot.parent == written / "plots"


def test_the_rerun_command_gives_back_each_name_as_one_word(written):
    page = (written / "index.md").read_text()
    commands = re.findall(r"(`+) (compsem train .+?) \1|`(compsem train [^`]+)`", page)
    assert len(commands) == 3
    for _, spaced, plain in commands:
        words = shlex.split(spaced or plain)
        assert words[words.index("--model") + 1] == HOSTILE["model"].replace("\n", " ")
        assert words[words.index("--dataset") + 1] == HOSTILE["dataset"]
        assert words[words.index("--config") + 1] == HOSTILE["config"]


def test_the_report_json_keeps_names_and_intervals_as_data(written):
    saved = json.loads((written / "report.json").read_text())
    (line,) = saved["train"]["settings"]
    assert line["model"] == HOSTILE["model"] and line["setting"] == HOSTILE["config"]
    low, high = line["accuracy_ci"]["low"], line["accuracy_ci"]["high"]
    assert low < line["accuracy"]["mean"] < high
    assert set(line["per_label"]) == {"no", HOSTILE["label"]}


def test_intervals_and_seed_spread_are_separate_columns(written):
    text = (written / "report.md").read_text()
    header = next(line for line in text.splitlines() if line.startswith("| model | setting"))
    assert "| accuracy | accuracy 95% CI | macro-F1 | macro-F1 95% CI |" in header
    row = text.splitlines()[text.splitlines().index(header) + 2]
    accuracy, interval = [cell.strip() for cell in row.split("|")[5:7]]
    assert "±" in accuracy and re.fullmatch(r"\[0\.\d{3}, 0\.\d{3}\]", interval)
    assert "## Precision and recall per label" in text


@pytest.mark.parametrize(
    "value",
    ["<script>x</script>", "a|b", "line\nbreak", "# heading", "[t](javascript:x)", "`tick`",
     "**b**", "1. item", "&lt;", "x``y", "- a"],
)  # fmt: skip
def test_escaped_text_and_code_read_back_as_the_text_in_the_page(value):
    flat = value.replace("\n", " ")
    assert unescape(inline(markdown_text(value))) == flat
    code = inline(markdown_code(value))
    assert code.startswith("<code>") and code.endswith("</code>") and code.count("<code>") == 1
    assert unescape(code.removeprefix("<code>").removesuffix("</code>")) == flat


def test_shell_and_yaml_helpers_round_trip():
    import yaml

    words = ["compsem", "llm", "--model", "$(rm -rf ~)", "a'b", "x\ny"]
    assert shlex.split(shell_line(words)) == words
    payload = {"name": "a: b\n- c # d", "list": ["{x}", "&anchor"]}
    assert yaml.safe_load(yaml_text(payload)) == payload
