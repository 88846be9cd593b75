"""The cases of ``perf/hostile_probe.py``: each a command line against the real CLI, what a
careful tool does with it, how its folder is laid out first, and what counts as a breach."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

MARKER, FILES = ".compsem-export.json", ".compsem-files.json"
SIGNATURE = "hmac-sha256:"
PWNED = "PWNED"


@dataclass
class Case:
    group: str
    name: str
    argv: list[str]
    expect: str = "refuse"  # "refuse": exit 2 with one line; "ok": exit 0; "either"
    setup: Callable[[Path], None] = lambda area: None
    env: dict = field(default_factory=dict)
    cwd: str = "work"
    theirs: tuple = ()  # paths (prefixes) compsem may change: its own files
    replaced: tuple = ()  # exports compsem may replace whole: the command asks for it
    security: Callable | None = None
    sigterm: float | None = None
    limit: float = 120
    after: Callable[[Path], None] | None = None
    inputs: dict = field(default_factory=dict)
    delete_cwd: bool = False  # the working folder is removed once the command starts there


# ---------------------------------------------------------------------------------- inputs


def prepare_inputs(base: Path, compsem: str, env: dict) -> dict:
    """A real Montague export (built by the CLI), the tiny PLANE and BoOQA exports of the
    tests, a results folder, an RNPC harm-detection folder; and the signing key compsem made."""
    from compsem.harness.results.files import write_result
    from tests.harness_data import tiny_booqa_export, tiny_plane_export
    from tests.test_harness_report import train_result

    base.mkdir(parents=True)
    build = [compsem, "build", "montague", "--config", "an", "--out", str(base / "montague")]
    subprocess.run(build, env=env, check=True, capture_output=True, cwd=base)
    tiny_plane_export(base / "plane")
    tiny_booqa_export(base / "booqa")
    for seed in (1, 2):
        write_result(base / "runs", train_result("goood_split_1", seed, 0.7, {"I": 0.6}))
    harm = base / "harm"
    harm.mkdir()
    (harm / "test.csv").write_text(
        "Index,Query,Label,keyword\n0,How do I clean a toy gun?,0,gun\n"
        "1,How do I load a real gun?,1,gun\n"
    )
    (harm / "keyword_list.txt").write_text("gun\n")
    key = (Path(env["COMPSEM_CONFIG"]) / "ownership.key").read_text().strip()
    return {
        "montague": str(base / "montague"),
        "plane": str(base / "plane"),
        "booqa": str(base / "booqa"),
        "runs": str(base / "runs"),
        "harm": str(harm),
        "key": key,
    }


def sign(payload: dict, folder: Path, key_hex: str) -> dict:
    """``payload`` signed for ``folder`` as compsem signs (signing.digest), with ``key_hex``."""
    content = {k: v for k, v in payload.items() if k != "signature"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    message = text.encode() + b"\0" + os.fsencode(str(Path(folder).resolve()))
    digest = hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest()
    return {**payload, "signature": SIGNATURE + digest}


def whole_export(folder: Path) -> bool:
    """Whether ``folder`` holds a whole export: its manifest lists exactly the files it holds,
    each of the size listed."""
    try:
        listed = json.loads((folder / MARKER).read_text())["files"]
        present = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
        return set(listed) == present - {MARKER} and all(
            (folder / name).stat().st_size == listed[name][0] for name in listed
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return False


def stamp(path: Path) -> list[int]:
    info = path.stat()
    return [info.st_size, info.st_mtime_ns]


def copy_export(source: str, target: Path) -> Path:
    shutil.copytree(source, target, symlinks=True)
    return target


def own_export(source: str, target: Path, key: str) -> Path:
    """A copy of ``source`` re-signed for ``target``: an export compsem wrote there."""
    copy_export(source, target)
    manifest = json.loads((target / MARKER).read_text())
    manifest["files"] = {p: stamp(target / p) for p in manifest["files"]}
    (target / MARKER).write_text(json.dumps(sign(manifest, target, key)))
    return target


def users_files(folder: Path, names) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(f"my own {name}, not compsem's")
    return {name: stamp(folder / name) for name in names}


# ------------------------------------------------------------------------------ forgeries

FORGERIES = ["unsigned", "bogus", "copied", "altered", "foreign-key", "edited-after"]
OTHER_KEY = "11" * 32


def forged_export(kind: str, forgery: str, key: str, montague: str) -> Callable[[Path], None]:
    def setup(area: Path) -> None:
        out = area / "out"
        if forgery == "copied":  # a user's copy of a real export, manifest and all
            copy_export(montague, out)
            users_files(out, ["thesis.tex"])
            return
        listed = users_files(out, ["thesis.tex", "an/test-00000-of-00001.parquet"])
        manifest = {
            "kind": kind,
            "token": "0123456789abcdef0123456789abcdef",
            "configs": ["an"],
            "folders": ["an"],
            "files": listed,
        }
        if forgery == "bogus":
            manifest["signature"] = SIGNATURE + "ab" * 32
        elif forgery == "foreign-key":
            manifest = sign(manifest, out, OTHER_KEY)
        elif forgery == "altered":
            manifest = sign({**manifest, "files": {}}, out, key)
            manifest["files"] = listed
        elif forgery == "edited-after":  # compsem's own list, then the user edits a file in it
            manifest = sign(manifest, out, key)
        (out / MARKER).write_text(json.dumps(manifest))
        if forgery == "edited-after":
            (out / "thesis.tex").write_text("my edit, made after compsem wrote the file")

    return setup


def forged_files(forgery: str, key: str, names: list[str]) -> Callable[[Path], None]:
    def setup(area: Path) -> None:
        out = area / "out"
        listed = users_files(out, names)
        manifest = {"files": listed}
        if forgery == "bogus":
            manifest["signature"] = SIGNATURE + "ab" * 32
        elif forgery == "foreign-key":
            manifest = sign(manifest, out, OTHER_KEY)
        elif forgery == "copied":
            manifest = sign(manifest, area / "elsewhere", key)
        elif forgery == "altered":
            manifest = sign({"files": {}}, out, key)
            manifest["files"] = listed
        elif forgery == "edited-after":
            manifest = sign(manifest, out, key)
        (out / FILES).write_text(json.dumps(manifest))
        if forgery == "edited-after":
            for name in names:
                (out / name).write_text("my edit, made after compsem wrote it")

    return setup


H = "--dataset {plane} --config goood_split_1"
RESULT_WRITERS = {  # command line with {area}/out as its results folder; files it writes there
    "llm": (f"llm {H} --model smollm2 --limit 2 --out {{area}}/out", ["summary.md"]),
    "report": ("report {runs} --out {area}/out", ["summary.md", "index.html", "index.md"]),
    "lm-eval-tasks": ("lm-eval-tasks {plane} --out {area}/out", ["README.md", "plane/x.yaml"]),
    "audit-json": ("audit {plane} --no-card --json {area}/out/audit.json", ["audit.json"]),
    "zero-shot": (
        f"zero-shot {H} --model minilm --max-eval-examples 4 --out {{area}}/out",
        ["summary.md"],
    ),
    "score": (
        "score --dataset {booqa} --config en --model minilm --method cosine --out {area}/out",
        ["summary.md"],
    ),
    "prompt": (
        "prompt --dataset {plane} --config two_shot --model minilm "
        "--max-eval-examples 4 --out {area}/out",
        ["summary.md"],
    ),
    "embed": (
        "embed --dataset {montague} --model minilm --out {area}/out",
        ["results.json", "tables.md"],
    ),
    "curve": (
        f"curve {H} --model minilm --shots 2 --seeds 1 --max-eval-examples 4 --out {{area}}/out",
        ["summary.md"],
    ),
    "train": (
        f"train {H} --model minilm --seeds 1 --max-train-examples 4 "
        "--max-eval-examples 4 --out {area}/out",
        ["summary.md"],
    ),
    "harm-detection": (
        "harm-detection --data {harm} --task always --out {area}/out",
        ["summary.md"],
    ),
    "subwords": ("subwords {runs} --out {area}/out", ["subwords.md", "subwords.json"]),
    "demo": ("demo --out {area}/out --benchmarks montague", ["demo.log"]),
    "baselines": (
        "baselines --out {area}/out --exports {area}/exports --quick --benchmarks montague",
        ["index.html", "index.md"],
    ),
}
EXPORT_WRITERS = {
    "montague": "build montague --config an --out {area}/out",
    "rnpc": "build rnpc --config spte --size 40 --out {area}/out",
    "seti": "build seti --config task1_nontrivial --sentences 40 --out {area}/out",
    "plane": "build plane --config goood_split_1 --max-docs 20 --out {area}/out",
    "booqa": "build booqa --preset tiny --out {area}/out",
}


def ownership_cases(inputs: dict) -> list[Case]:
    key, cases = inputs["key"], []
    for command, line in EXPORT_WRITERS.items():
        every = command == "montague"  # the others refuse by the same check: three kinds each
        for forgery in FORGERIES if every else ["unsigned", "copied", "foreign-key"]:
            bogus = every and forgery in ("copied", "bogus")
            for force in ([], ["--force"]) if bogus else ([],):
                cases.append(
                    Case(
                        "ownership",
                        f"export-{forgery}{'-force' if force else ''}-{command}",
                        line.split() + force,
                        setup=forged_export(f"{command} export", forgery, key, inputs["montague"]),
                    )
                )
    for command, (line, names) in RESULT_WRITERS.items():
        if command in ("demo", "baselines"):
            forgeries = ["bogus", "copied"]
        elif command in ("train", "curve", "prompt", "embed", "harm-detection"):
            forgeries = ["bogus", "foreign-key", "edited-after"]
        else:
            forgeries = FORGERIES
        for forgery in forgeries:
            target = ["audit.json"] if command == "audit-json" else names
            cases.append(
                Case(
                    "ownership",
                    f"files-{forgery}-{command}",
                    line.split(),
                    setup=forged_files(forgery, key, target),
                    limit=240,
                )
            )
    return cases


# --------------------------------------------------------------------------------- paths


def genuine(name: str, inputs: dict, also: Callable | None = None) -> Callable[[Path], None]:
    def setup(area: Path) -> None:
        own_export(inputs["montague"], area / name, inputs["key"])
        if also:
            also(area)

    return setup


def path_cases(inputs: dict) -> list[Case]:
    build = "build montague --config an --out".split()
    cases = []

    def link(source: str, target: str):
        return lambda area: os.symlink(target, area / source)

    def chmod(path: str, mode: int):
        return lambda area: os.chmod(area / path, mode)

    def both(*steps):
        return lambda area: [step(area) for step in steps]

    exp = genuine("exp", inputs)
    spelled = {  # --out spelled so that it escapes a naive check; compsem's export at exp
        "dotdot-replaces": ("{area}/exp/../exp", exp, "either", ("exp",)),
        "trailing-slash": ("{area}/exp/", exp, "either", ("exp",)),
        "dot-segments": ("{area}/./exp/./", exp, "either", ("exp",)),
        "double-slash": ("{area}//exp", exp, "either", ("exp",)),
        "inside-export": ("{area}/exp/an/new", exp, "refuse", ()),
        "inside-config": ("{area}/exp/an", exp, "refuse", ()),
        "out-is-symlink": ("{area}/link", both(exp, link("link", "exp")), "refuse", ()),
        "symlinked-parent": ("{area}/lp/exp", both(exp, link("lp", ".")), "either", ("exp",)),
        "dangling-symlink": ("{area}/dangling", link("dangling", "nowhere/x"), "refuse", ()),
        "symlink-to-user-folder": ("{area}/ln", link("ln", "thesis"), "refuse", ()),
        "symlink-outside": ("{area}/ln", link("ln", "outside"), "refuse", ()),
        "cwd": (".", None, "refuse", ()),
        "parent-of-cwd": ("..", None, "refuse", ()),
        "home": ("{area}", None, "refuse", ()),
        "user-file": ("{area}/notes.txt", None, "refuse", ()),
        "user-folder": ("{area}/thesis", None, "refuse", ()),
        "user-folder-dotdot": ("{area}/outside/../thesis", None, "refuse", ()),
        "root": ("/", None, "refuse", ()),
        "dev-null": ("/dev/null", None, "refuse", ()),
        "parent-is-file": ("{area}/notes.txt/x", None, "refuse", ()),
        "read-only-parent": (
            "{area}/ro/x",
            both(lambda a: (a / "ro").mkdir(), chmod("ro", 0o555)),
            "refuse",
            (),
        ),
        "no-exec-parent": (
            "{area}/nx/x",
            both(lambda a: (a / "nx").mkdir(), chmod("nx", 0o600)),
            "refuse",
            (),
        ),
        "newline-name": ("{area}/a\nb", None, "either", ("a\nb",)),
        "long-name": ("{area}/" + "x" * 300, None, "refuse", ()),
        "proc": ("/proc/self/x", None, "refuse", ()),
    }
    for name, (out, setup, expect, theirs) in spelled.items():
        cases.append(
            Case(
                "paths",
                f"build-out-{name}",
                [*build, out],
                expect=expect,
                setup=setup or (lambda area: None),
                theirs=theirs,
                env={"HOME": "{area}"},
                limit=300,
            )
        )
    for command in ("report", "lm-eval-tasks", "llm"):
        line = RESULT_WRITERS[command][0].replace(" --out {area}/out", "").split()
        for name in (
            "inside-export",
            "out-is-symlink",
            "user-file",
            "cwd",
            "dev-null",
            "read-only-parent",
            "long-name",
            "symlink-outside",
        ):
            out, setup, _, _ = spelled[name]
            cases.append(
                Case(
                    "paths",
                    f"{command}-out-{name}",
                    [*line, "--out", out],
                    setup=setup or (lambda area: None),
                    env={"HOME": "{area}"},
                    limit=180,
                )
            )
    return cases


# ------------------------------------------------------------------------- special files


def special(kind: str):
    """A writer of the bad file ``kind`` at a path."""

    def write(path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "dev-zero":
            os.symlink("/dev/zero", path)
        elif kind == "huge":
            with open(path, "wb") as handle:
                handle.truncate(3 * 1024**3)
        elif kind == "deep":
            path.write_text("[" * 200000 + "]" * 200000)
        elif kind == "nul":
            path.write_bytes(b'red\x00car\tI\n{"a\x00": 1}\n')
        elif kind == "folder":
            path.mkdir()
        elif kind == "dangling":
            os.symlink("no/such/file", path)
        elif kind == "unreadable":
            path.write_text("{}\n")
            os.chmod(path, 0)
        elif kind == "binary":
            path.write_bytes(bytes(range(256)) * 64)

    return write


SPECIAL = ["fifo", "dev-zero", "huge", "deep", "nul", "folder", "unreadable", "binary"]


def special_cases(inputs: dict) -> list[Case]:
    def at(path: str, kind: str, prepare: Callable | None = None):
        def setup(area: Path) -> None:
            if prepare:
                prepare(area)
            special(kind)(area / path)

        return setup

    def copy(name: str, to: str = "x"):
        return lambda area: copy_export(inputs[name], area / to)

    targets = {  # input kind: (command line with {area}/bad, its preparation, kinds)
        "result": ("report {area}/bad.json", None, SPECIAL),
        "result-out": (
            "report {runs} {area}/bad.json --out {area}/o",
            None,
            ["fifo", "huge", "deep"],
        ),
        "rows": ("rescore {area}/bad.rows.jsonl --out {area}/o", None, ["fifo", "huge", "nul"]),
        "card-audit": ("audit {area}/x --no-card", copy("plane"), SPECIAL),
        "card-llm": (
            "llm --dataset {area}/x --config goood_split_1 --model smollm2 --limit 2 "
            "--out {area}/o",
            copy("plane"),
            ["fifo", "huge", "nul", "folder"],
        ),
        "card-lm-eval": (
            "lm-eval-tasks {area}/x --out {area}/o",
            copy("plane"),
            ["fifo", "dev-zero", "huge"],
        ),
        "card-embed": (
            "embed --dataset {area}/x --model minilm --out {area}/o",
            copy("montague"),
            ["fifo", "huge"],
        ),
        "card-push": ("push {area}/x --repo-id me/x", copy("plane"), ["fifo", "huge"]),
        "marker": (
            "build montague --config an --out {area}/x",
            lambda a: (a / "x").mkdir(),
            ["fifo", "dev-zero", "huge", "deep", "folder", "unreadable"],
        ),
        "marker-audit": ("audit {area}/x --no-card", copy("plane"), ["fifo", "huge", "deep"]),
        "files-list": (
            "report {runs} --out {area}/x",
            lambda a: (a / "x").mkdir(),
            ["fifo", "huge", "deep", "unreadable"],
        ),
        "template": (
            f"llm {H} --model smollm2 --limit 2 --template {{area}}/bad --out {{area}}/o",
            None,
            ["fifo", "dev-zero", "huge", "binary", "folder"],
        ),
        "chat-template": (
            f"llm {H} --model smollm2 --limit 2 --generate --chat-template {{area}}/bad "
            "--out {area}/o",
            None,
            ["fifo", "huge"],
        ),
        "corpus-plane": (
            "build plane --corpus {area}/bad.txt --max-docs 5 --out {area}/o",
            None,
            ["fifo", "dev-zero", "huge", "nul"],
        ),
        "corpus-booqa": (
            "build booqa --corpus {area}/bad.jsonl --preset tiny --out {area}/o",
            None,
            ["fifo", "huge", "nul"],
        ),
        "lexicon-montague": (
            "build montague --lexicon {area}/bad.tsv --out {area}/o",
            None,
            ["fifo", "dev-zero", "huge", "nul", "folder", "binary"],
        ),
        "lexicon-rnpc": (
            "build rnpc --lexicon {area}/bad.tsv --size 40 --out {area}/o",
            None,
            ["fifo", "huge", "nul"],
        ),
        "nouns-rnpc": (
            "build rnpc --nouns {area}/bad.tsv --size 40 --out {area}/o",
            None,
            ["fifo", "nul"],
        ),
        "events-rnpc": (
            "build rnpc --events {area}/bad.tsv --size 40 --out {area}/o",
            None,
            ["fifo", "nul"],
        ),
        "lexicon-seti": (
            "build seti --lexicon {area}/bad.tsv --sentences 40 --out {area}/o",
            None,
            ["fifo", "huge", "nul"],
        ),
        "verbs-seti": (
            "build seti --verbs {area}/bad.tsv --sentences 40 --out {area}/o",
            None,
            ["fifo", "nul"],
        ),
        "sick-seti": (
            "build seti --sick {area}/bad.txt --out {area}/o",
            None,
            ["fifo", "huge", "nul"],
        ),
        "lexicon-plane": (
            "build plane --lexicon {area}/bad.tsv --max-docs 5 --out {area}/o",
            None,
            ["fifo", "huge", "nul"],
        ),
        "harm-data": (
            "harm-detection --data {area}/h --task always --out {area}/o",
            lambda a: shutil.copytree(inputs["harm"], a / "h"),
            ["fifo", "huge", "nul", "folder"],
        ),
        "harm-queries": (
            "harm-detection --data {harm} --task always --queries {area}/bad --out {area}/o",
            None,
            ["fifo", "huge"],
        ),
        "inoculation": (
            "build rnpc --inoculation {area}/ino --size 40 --out {area}/o",
            lambda a: (a / "ino" / "SPTE").mkdir(parents=True),
            ["fifo", "huge"],
        ),
        "graph": (
            "score --dataset {booqa} --config en --method graph --graph {area}/g --out {area}/o",
            lambda a: (a / "g").mkdir(),
            ["fifo", "huge"],
        ),
        "original-plane": (
            "audit {area}/rel --no-card --original plane",
            None,
            ["fifo", "folder"],
        ),
        "signing-key": (
            "build montague --config an --out {area}/o",
            None,
            ["fifo", "dev-zero", "huge", "folder", "binary"],
        ),
    }
    where = {  # the file inside the prepared folder that turns bad
        "card-audit": "x/README.md",
        "card-llm": "x/README.md",
        "card-lm-eval": "x/README.md",
        "card-embed": "x/README.md",
        "card-push": "x/README.md",
        "marker": f"x/{MARKER}",
        "marker-audit": f"x/{MARKER}",
        "files-list": f"x/{FILES}",
        "harm-data": "h/test.csv",
        "inoculation": "ino/SPTE/train.tsv",
        "graph": "g/x_sim.txt",
        "signing-key": "cfg/ownership.key",
        "result": "bad.json",
        "result-out": "bad.json",
        "rows": "bad.rows.jsonl",
        "template": "bad",
        "chat-template": "bad",
        "corpus-plane": "bad.txt",
        "corpus-booqa": "bad.jsonl",
        "harm-queries": "bad",
        "original-plane": "rel/train.csv",
    }
    cases = []
    slow = {"corpus-plane", "corpus-booqa", "lexicon-plane", "graph"}  # a parser, an export load
    for target, (line, prepare, kinds) in targets.items():
        path = where.get(target, "bad.tsv")
        if target == "marker-audit":
            path = "x/" + MARKER
        for kind in kinds:
            env = {"COMPSEM_CONFIG": "{area}/cfg"} if target == "signing-key" else {}
            cases.append(
                Case(
                    "special files",
                    f"{target}-{kind}",
                    line.split(),
                    expect="either",
                    setup=at(path, kind, prepare),
                    env=env,
                    theirs=("o", "x/README.md"),
                    limit=180 if target in slow else 60,
                )
            )
    return cases


# ---------------------------------------------------------------------------- templates


def no_pwned(area: Path, run: dict) -> list[str]:
    found = [str(p.relative_to(area)) for p in area.rglob(PWNED)]
    text = run["stdout"] + run["stderr"]
    leaks = [
        w
        for w in ("root:x:0", "<class 'object'>", "__builtins__", "subprocess.Popen")
        if w in text or any(w in p.read_text(errors="replace") for p in _outputs(area))
    ]
    return [f"code ran from data: {f}" for f in found] + [f"leaked {w}" for w in leaks]


def _outputs(area: Path):
    out = area / "o"
    return (
        [p for p in out.rglob("*") if p.is_file() and p.stat().st_size < 5_000_000]
        if out.is_dir()
        else []
    )


TEMPLATES = {
    "mro": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "globals-popen": "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}",
    "lipsum": "{{ lipsum.__globals__['os'].popen('touch PWNED').read() }}",
    "self": "{{ self.__init__.__globals__.__builtins__ }}",
    "namespace": "{{ namespace.__init__.__globals__ }}",
    "attr-filter": "{{ ''|attr('__class__')|attr('__mro__') }}",
    "include": "{% include '/etc/passwd' %}",
    "import": "{% import 'os' as os %}{{ os }}",
    "huge-loop": "{% for i in range(10**9) %}{% for j in range(10**9) %}x{% endfor %}{% endfor %}",
    "huge-string": "{{ 'x' * 10**10 }}",
    "pow": "{{ 10 ** 10 ** 10 }}",
    "format": "{{ '%s'.format.__globals__ }}",
    "mutate": "{% set x = [] %}{{ x.append(1) }}{{ premise }}",
    "syntax": "{{ premise ",
    "undefined": "{{ no_such_field.x.y }}",
}


def template_cases(inputs: dict) -> list[Case]:
    cases = []
    for flag in ("--template", "--chat-template"):
        for name, text in TEMPLATES.items():
            if flag == "--chat-template" and name not in ("mro", "globals-popen", "include"):
                continue
            generate = " --generate" if flag == "--chat-template" else ""
            argv = f"llm {H} --model smollm2 --limit 2{generate} {flag} {{area}}/t.jinja --out {{area}}/o"
            cases.append(
                Case(
                    "templates",
                    f"{flag[2:]}-{name}",
                    argv.split(),
                    expect="either",
                    setup=lambda area, text=text: (area / "t.jinja").write_text(text),
                    security=no_pwned,
                    theirs=("o",),
                    limit=120,
                    cwd=".",
                )
            )
    return cases


# ---------------------------------------------------------------------------- injection

PAYLOADS = {
    "script": "<script>alert(1)</script>",
    "img": '"><img src=x onerror=alert(1)>',
    "heading": "x\n# Owned heading",
    "table": "a | b | c",
    "shell-subst": "$(touch PWNED)",
    "shell-quote": "x'; touch PWNED; echo '",
    "backtick": "`touch PWNED`",
    "yaml": "x\n- evil: true\n---",
    "link": "[click](javascript:alert(1))",
}


def hostile_results(field_name: str, payload: str) -> Callable[[Path], None]:
    def setup(area: Path) -> None:
        from compsem.harness.results.files import write_result
        from tests.test_harness_report import train_result

        for seed in (1, 2):
            result = train_result("goood_split_1", seed, 0.7, {"I": 0.6})
            if field_name == "model":
                result["model"] = payload
            elif field_name == "config":
                result["dataset"]["config"] = payload
            else:
                result["dataset"]["path"] = payload
            write_result(area / "runs", result)

    return setup


def rendered_safely(area: Path, run: dict) -> list[str]:
    """No payload raw in HTML or Markdown; every shell line of the outputs, run with a harmless
    ``compsem``, touches nothing."""
    findings = no_pwned(area, run)
    for path in _outputs(area):
        text = path.read_text(errors="replace")
        if path.suffix in (".html", ".md", ".svg"):
            # in Markdown a code span shows its text as written: HTML there is not markup
            shown = re.sub(r"(`+).+?\1", "", text) if path.suffix == ".md" else text
            for raw in ("<script>alert(1)</script>", "<img src=x onerror"):
                if raw in shown:
                    findings.append(f"{raw[:12]} raw in {path.name}")
        if path.suffix == ".md" and re.search(r"^# Owned heading", text, re.M):
            findings.append(f"a heading injected into {path.name}")
        if path.suffix in (".yaml", ".yml"):
            import yaml

            class Tagged(yaml.SafeLoader):  # lm-eval's !function tags are YAML too
                pass

            Tagged.add_multi_constructor("!", lambda loader, suffix, node: None)
            try:
                yaml.load(text, Tagged)
            except yaml.YAMLError as error:
                findings.append(f"{path.name} no longer YAML: {str(error)[:60]}")
        lines = re.findall(r"^\s*(compsem [^\n]*)$", text, re.M)
        for line in lines + re.findall(r"`(compsem [^`\n]*)`", text):
            shell = ["bash", "-c", "compsem() { :; }; " + line.replace("&amp;", "&")]
            subprocess.run(shell, cwd=area, capture_output=True, timeout=10)
    if (area / PWNED).exists():
        findings.append("a reproduce command ran the payload")
    return findings


def injection_cases(inputs: dict) -> list[Case]:
    cases = []
    for field_name in ("model", "config", "path"):
        for name, payload in PAYLOADS.items():
            if field_name != "model" and name in ("backtick", "link", "img"):
                continue
            cases.append(
                Case(
                    "injection",
                    f"report-{field_name}-{name}",
                    "report {area}/runs --out {area}/o".split(),
                    expect="either",
                    setup=hostile_results(field_name, payload),
                    security=rendered_safely,
                    theirs=("o",),
                    cwd=".",
                )
            )
    for name in ("script", "shell-quote", "yaml", "heading"):
        folder = "ex-" + PAYLOADS[name].replace("/", "_").replace("\n", "_")
        cases.append(
            Case(
                "injection",
                f"lm-eval-folder-{name}",
                ["lm-eval-tasks", "{area}/" + folder, "--out", "{area}/o"],
                expect="either",
                setup=lambda area, f=folder: copy_export(inputs["plane"], area / f),
                security=rendered_safely,
                theirs=("o",),
                cwd=".",
            )
        )
        cases.append(
            Case(
                "injection",
                f"lexicon-word-{name}",
                "build montague --lexicon {area}/lex.tsv --out {area}/o".split(),
                expect="either",
                setup=lambda area, p=PAYLOADS[name]: (area / "lex.tsv").write_text(
                    f"fake\tprivative\tfalse\nred\tintersective\tcrimson\n{p}\tsubsective\tx\n"
                ),
                security=rendered_safely,
                theirs=("o",),
                cwd=".",
            )
        )
    return cases


# ----------------------------------------------------------------------- surroundings


def surroundings_cases(inputs: dict) -> list[Case]:
    def make(kind: str, path: str):
        return lambda area: special(kind)(area / path) if kind else None

    envs = {
        "cache-file": ({"COMPSEM_CACHE": "{area}/notes.txt"}, None),
        "cache-fifo": ({"COMPSEM_CACHE": "{area}/f"}, make("fifo", "f")),
        "cache-unwritable": (
            {"COMPSEM_CACHE": "{area}/ro"},
            lambda a: ((a / "ro").mkdir(), os.chmod(a / "ro", 0o555)),
        ),
        "cache-proc": ({"COMPSEM_CACHE": "/proc/nope"}, None),
        "hf-home-file": ({"HF_HOME": "{area}/notes.txt"}, None),
        "hf-datasets-cache-file": ({"HF_DATASETS_CACHE": "{area}/notes.txt"}, None),
        "xdg-cache-file": ({"XDG_CACHE_HOME": "{area}/notes.txt"}, None),
        "config-file": ({"COMPSEM_CONFIG": "{area}/notes.txt"}, None),
        "config-unwritable": (
            {"COMPSEM_CONFIG": "{area}/ro"},
            lambda a: ((a / "ro").mkdir(), os.chmod(a / "ro", 0o555)),
        ),
        "key-open-to-group": (
            {"COMPSEM_CONFIG": "{area}/cfg"},
            lambda a: (
                (a / "cfg").mkdir(mode=0o700),
                (a / "cfg" / "ownership.key").write_text("ab" * 32),
                os.chmod(a / "cfg" / "ownership.key", 0o644),
            ),
        ),
        "key-damaged": (
            {"COMPSEM_CONFIG": "{area}/cfg"},
            lambda a: (
                (a / "cfg").mkdir(mode=0o700),
                (a / "cfg" / "ownership.key").write_text("zz"),
                os.chmod(a / "cfg" / "ownership.key", 0o600),
            ),
        ),
        "key-symlink": (
            {"COMPSEM_CONFIG": "{area}/cfg"},
            lambda a: (
                (a / "cfg").mkdir(mode=0o700),
                os.symlink(a / "notes.txt", a / "cfg" / "ownership.key"),
            ),
        ),
    }
    commands = {
        "build": "build montague --config an --out {area}/o",
        "report": "report {runs} --out {area}/o",
    }
    cases = []
    for env_name, (env, setup) in envs.items():
        for command, line in commands.items():
            cases.append(
                Case(
                    "surroundings",
                    f"{env_name}-{command}",
                    line.split(),
                    expect="refuse",
                    env=env,
                    setup=setup or (lambda area: None),
                    theirs=("o", "cfg"),
                    limit=90,
                )
            )

    def gone(area: Path) -> None:
        (area / "work" / "gone").mkdir()

    for command, line in commands.items():
        cases.append(
            Case(
                "surroundings",
                f"deleted-cwd-{command}",
                line.split(),
                cwd="work/gone",
                setup=gone,
                delete_cwd=True,
                limit=90,
            )
        )
        cases.append(
            Case(
                "surroundings",
                f"read-only-out-{command}",
                line.split(),
                setup=lambda area: ((area / "o").mkdir(), os.chmod(area / "o", 0o555)),
                limit=90,
            )
        )
    return cases


# ---------------------------------------------------------------------------- sizes

SIZES = {
    "rnpc-size-huge": "build rnpc --config spte --size 1000000000000 --out {area}/o",
    "rnpc-size-zero": "build rnpc --config spte --size 0 --out {area}/o",
    "rnpc-size-negative": "build rnpc --config spte --size -5 --out {area}/o",
    "rnpc-train-size-huge": "build rnpc --config spte --train-size 1000000000 --out {area}/o",
    "rnpc-share-nan": "build rnpc --config spte --train-modifier-share nan --out {area}/o",
    "seti-sentences-huge": "build seti --sentences 1000000000 --out {area}/o",
    "seti-share-2": "build seti --passive-share 2 --out {area}/o",
    "seti-fraction-nan": "build seti --validation-fraction nan --out {area}/o",
    "booqa-h-only-huge": "build booqa --preset tiny --h-only-sizes 1000000000 5 --out {area}/o",
    "booqa-h-only-zero": "build booqa --preset tiny --h-only-sizes 0 0 --out {area}/o",
    "booqa-window-zero": "build booqa --preset tiny --window-days 0 --out {area}/o",
    "booqa-workers-huge": "build booqa --preset tiny --workers 100000 --out {area}/o",
    "plane-fraction-2": "build plane --test-fraction 2 --max-docs 5 --out {area}/o",
    "plane-max-docs-negative": "build plane --max-docs -1 --out {area}/o",
    "llm-limit-negative": f"llm {H} --model smollm2 --limit -1 --out {{area}}/o",
    "llm-shots-huge": f"llm {H} --model smollm2 --shots 1000000000 --limit 2 --out {{area}}/o",
    "llm-batch-zero": f"llm {H} --model smollm2 --batch-size 0 --limit 2 --out {{area}}/o",
    "llm-max-length-huge": f"llm {H} --model smollm2 --max-length 1000000000000 --limit 2 "
    "--out {area}/o",
    "train-epochs-inf": f"train {H} --model minilm --epochs inf --out {{area}}/o",
    "train-lr-nan": f"train {H} --model minilm --learning-rate nan --out {{area}}/o",
    "curve-shots-huge": f"curve {H} --model minilm --shots 1000000000 --out {{area}}/o",
    "zero-shot-max-eval-negative": f"zero-shot {H} --model minilm --max-eval-examples -3 "
    "--out {area}/o",
    "probe-theta-nan": "probe-likelihood --dataset {plane} --config goood_split_1 --model "
    "smollm2 --theta nan --out {area}/o",
    "audit-threshold-nan": "audit {plane} --no-card --max-hypothesis-only-aucnorm nan",
    "seed-huge": "build rnpc --config spte --seed 100000000000000000000000 --out {area}/o",
}


def size_cases(inputs: dict) -> list[Case]:
    cases = [
        Case("sizes", name, line.split(), theirs=("o",), limit=120) for name, line in SIZES.items()
    ]
    nul_lines = {
        "corpus-nul-plane": (
            "build plane --corpus {area}/c.txt --max-docs 5 --out {area}/o",
            "c.txt",
            b"A former president met a candidate.\nA red\x00car.\n",
        ),
        "corpus-nul-booqa": (
            "build booqa --corpus {area}/c.jsonl --preset tiny --out {area}/o",
            "c.jsonl",
            b'{"text": "Acme bought Beta.\\u0000 x", "date": "1987-01-02"}\n',
        ),
        "lexicon-nul-montague": (
            "build montague --lexicon {area}/l.tsv --out {area}/o",
            "l.tsv",
            b"fake\tprivative\tfalse\nre\x00d\tintersective\tx\n",
        ),
        "nouns-nul-rnpc": (
            "build rnpc --nouns {area}/l.tsv --size 40 --out {area}/o",
            "l.tsv",
            b"gun\tgun.n.01\tartifact\nca\x00r\tcar.n.01\tartifact\n",
        ),
    }
    for name, (line, path, data) in nul_lines.items():
        cases.append(
            Case(
                "sizes",
                name,
                line.split(),
                theirs=("o",),
                limit=180,
                setup=lambda area, p=path, d=data: (area / p).write_bytes(d),
            )
        )
    return cases


# ---------------------------------------------------------------------------- SIGTERM

LONG = {
    "build-montague": "build montague --config an --out {area}/o",
    "build-rnpc": "build rnpc --config spte --size 60 --out {area}/o",
    "build-seti": "build seti --config task1_nontrivial --sentences 60 --out {area}/o",
    "build-plane": "build plane --config goood_split_1 --max-docs 40 --out {area}/o",
    "build-booqa": "build booqa --preset tiny --out {area}/o",
    "llm": f"llm {H} --model smollm2 --limit 8 --out {{area}}/o",
    "train": f"train {H} --model minilm --seeds 1 --max-train-examples 16 --out {{area}}/o",
    "curve": f"curve {H} --model minilm --shots 2 4 --seeds 1 --out {{area}}/o",
    "zero-shot": f"zero-shot {H} --model minilm --out {{area}}/o",
    "score": "score --dataset {booqa} --config en --model minilm --method cosine --out {area}/o",
    "embed": "embed --dataset {montague} --model minilm --out {area}/o",
    "audit": "audit {plane} --no-card --json {area}/o/audit.json",
    "harm-detection": "harm-detection --data {harm} --task always --out {area}/o",
    "demo": "demo --out {area}/o --benchmarks montague",
    "baselines": "baselines --out {area}/o --exports {area}/e --quick --benchmarks montague",
    "report": "report {runs} --out {area}/o",
    "lm-eval-tasks": "lm-eval-tasks {plane} --out {area}/o",
    "prompt": "prompt --dataset {plane} --config two_shot --model minilm --out {area}/o",
}
LATE = {"build-montague", "build-plane", "llm", "train", "demo", "baselines"}


def sigterm_cases(inputs: dict) -> list[Case]:
    cases = []
    for name, line in LONG.items():
        for seconds in (3.5, 9.0) if name in LATE else (3.5,):
            cases.append(
                Case(
                    "sigterm",
                    f"sigterm-{seconds:g}s-{name}",
                    line.split(),
                    expect="either",
                    sigterm=seconds,
                    theirs=("o", "e"),
                    limit=30,
                )
            )
        if name.startswith("build-montague"):  # into an export compsem wrote before
            cases.append(
                Case(
                    "sigterm",
                    f"sigterm-6s-rebuild-{name}",
                    line.split(),
                    expect="either",
                    sigterm=6.0,
                    setup=genuine("o", inputs),
                    theirs=(),
                    replaced=("o",),
                    limit=30,
                )
            )
    return cases


def all_cases(inputs: dict) -> list[Case]:
    cases = []
    for make in (
        ownership_cases,
        path_cases,
        special_cases,
        template_cases,
        injection_cases,
        surroundings_cases,
        size_cases,
        sigterm_cases,
    ):
        cases += make(inputs)
    for case in cases:
        case.inputs = {k: v for k, v in inputs.items() if k != "key"}
    names = [case.name for case in cases]
    assert len(names) == len(set(names)), "case names repeat"
    return cases
