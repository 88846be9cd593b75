"""A hostile probe of the real ``compsem`` command line (issue 55): a few hundred cases, each run
in a fresh temporary folder holding the user's own files (sentinels, beside and inside every
--out), as a hostile or careless user would try them. Not a test: it measures, and its figures
go to ``perf/measured/records/hostile_probe.json``.

    python perf/hostile_probe.py --json probe.json [--jobs 3] [--only WORD]

For each case it records the command, what was expected, the exit code, whether the output holds
a traceback, whether every sentinel is byte-identical afterwards, and for SIGTERM cases how long
the command took to end after the signal. Each case gets one class, the worst that applies:
data loss (a sentinel changed or gone, or a staging folder, lock or partial file left behind),
security (code ran from data, a path escaped, a payload reached an output unescaped), hang (no
end within the limit, or more than 2 s after SIGTERM), traceback, unclear error (more than one
error line, raw errno text, no fix named, or an exit code other than 2 for a refusal), ok.
The cases are in ``perf/hostile_cases.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "perf"))

from hostile_cases import Case, all_cases, prepare_inputs, whole_export  # noqa: E402

COMPSEM = str(Path(sys.executable).with_name("compsem"))
CLASSES = ["data loss", "security", "hang", "traceback", "unclear error", "ok"]
FIX_WORDS = re.compile(
    r"\b(choose|pass|use|remove|set|run|check|install|give|move|delete|chmod|make|name|rename|"
    r"try|fix|build|point|write|create|drop|unset|wait|free|ask|add|omit|lower|raise|keep|"
    r"fetch|connect|copy|cd|start|restore|replace|list|put|re-?run|convert|edit|select|"
    r"download|see|needs?|wait|save|available)\b",
    re.IGNORECASE,
)
LEFTOVERS = re.compile(r"(\.partial-|compsem-lock|\.old-\d|\.tmp|\.part$|\.incomplete)")
BIG = 8 * 1024 * 1024
PARTIAL = os.devnull


def fingerprint(area: Path) -> dict[str, str]:
    """Every regular file under ``area`` by its path: its SHA-256 (size and time for big ones);
    special files and symbolic links by their kind and target."""
    prints = {}
    for folder, folders, files in os.walk(area):
        for name in files + [f for f in folders if os.path.islink(os.path.join(folder, f))]:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, area)
            info = os.lstat(path)
            if os.path.islink(path):
                prints[relative] = "link:" + os.readlink(path)
            elif not os.path.isfile(path):
                prints[relative] = f"special:{info.st_mode:o}"
            elif info.st_size > BIG:
                prints[relative] = f"big:{info.st_size}:{info.st_mtime_ns}"
            else:
                try:
                    prints[relative] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
                except OSError as error:
                    prints[relative] = f"unreadable:{error.errno}"
    return prints


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(r"\berror\b", line, re.I)]


def classify(case: Case, area: Path, run: dict, before: dict, after: dict) -> tuple[str, str]:
    changed = [
        path
        for path, value in before.items()
        if not any(path.startswith(prefix) for prefix in case.theirs) and after.get(path) != value
    ]
    # A rebuild the command asked for may replace an export, but only whole: old or new.
    renewed = {p for p in case.replaced if any(path.startswith(p + "/") for path in changed)}
    if renewed and all(whole_export(area / p) for p in renewed):
        changed = [path for path in changed if not any(path.startswith(p + "/") for p in renewed)]
    if changed:
        return "data loss", "changed or gone: " + ", ".join(sorted(changed)[:4])
    if run["timed_out"]:
        return "hang", f"still running after {run['limit']} s"
    left = sorted(
        path
        for path in after
        if LEFTOVERS.search(path)
        and path not in before
        and "/." in "/" + path
        and not path.startswith(".cache/")  # a library's own cache, not an output
    )
    if left:
        return "data loss", "left behind: " + ", ".join(left[:4])
    findings = case.security(area, run) if case.security else []
    if findings:
        return "security", "; ".join(findings)
    if run["timed_out"]:
        return "hang", f"still running after {run['limit']} s"
    if run["after_sigterm"] is not None and run["after_sigterm"] > 2.0:
        return "hang", f"ended {run['after_sigterm']:.1f} s after SIGTERM"
    output = run["stdout"] + run["stderr"]
    if "Traceback (most recent call last)" in output:
        return "traceback", output.strip().splitlines()[-1][:200]
    if case.sigterm is not None:
        if run["rc"] not in (0, 143, 2, 1, -signal.SIGTERM):
            return "unclear error", f"exit {run['rc']} after SIGTERM"
        return "ok", f"ended {run['after_sigterm'] or 0:.2f} s after SIGTERM, exit {run['rc']}"
    if run["rc"] == 0:
        if case.expect == "refuse":
            return "ok", "accepted (exit 0), nothing touched"
        return "ok", "exit 0"
    errors = error_lines(run["stderr"])
    last = errors[-1] if errors else (run["stderr"].strip().splitlines() or [""])[-1]
    if run["rc"] != 2:
        return "unclear error", f"exit {run['rc']}: {last[:200]}"
    if len(errors) != 1:
        return "unclear error", f"{len(errors)} error lines: {last[:200]}"
    if "[Errno" in last or "Errno " in last:
        return "unclear error", "raw errno: " + last[:200]
    if not FIX_WORDS.search(last.split("error:", 1)[-1]):
        return "unclear error", "no fix named: " + last[:200]
    return "ok", last[:200]


def finish(process: subprocess.Popen, limit: float) -> tuple[str, str, bool]:
    """The process's output once it ends, or once it is killed after ``limit`` seconds."""
    try:
        return (*process.communicate(timeout=limit), False)
    except subprocess.TimeoutExpired:  # SIGTERM first: what it leaves then is its own doing
        process.send_signal(signal.SIGTERM)
        try:
            return (*process.communicate(timeout=5), True)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            return (*process.communicate(), True)


def execute(case: Case, area: Path, env: dict) -> dict:
    """Run the case's command line in ``area``; SIGTERM it ``case.sigterm`` seconds in."""
    argv = [COMPSEM, *[word.format(area=area, **case.inputs) for word in case.argv]]
    cwd = area / case.cwd
    started = time.monotonic()
    stdin = open(os.devnull)
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
        preexec_fn=(lambda: os.rmdir(os.getcwd())) if case.delete_cwd else None,
    )
    after_sigterm, timed_out = None, False
    try:
        if case.sigterm is not None:
            try:
                out, err = process.communicate(timeout=case.sigterm)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGTERM)
                sent = time.monotonic()
                out, err, timed_out = finish(process, case.limit)
                after_sigterm = time.monotonic() - sent
        else:
            out, err, timed_out = finish(process, case.limit)
    finally:
        stdin.close()
        try:  # workers of a killed command must not outlive the case
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return {
        "argv": argv,
        "rc": process.returncode,
        "stdout": out[-20000:],
        "stderr": err[-20000:],
        "seconds": round(time.monotonic() - started, 2),
        "after_sigterm": None if after_sigterm is None else round(after_sigterm, 2),
        "timed_out": timed_out,
        "limit": case.limit,
    }


def probe(case: Case, base: Path, shared_env: dict) -> dict:
    area = Path(tempfile.mkdtemp(prefix="case-", dir=base))
    (area / "notes.txt").write_text("the user's notes")
    (area / "thesis").mkdir()
    (area / "thesis" / "chapter1.tex").write_text("\\chapter{One}")
    (area / "outside").mkdir()
    (area / "outside" / "secret.txt").write_text("nobody's business")
    (area / "work").mkdir()
    env = {**shared_env, **{k: v.format(area=area) for k, v in case.env.items()}}
    try:
        case.setup(area)
        before = fingerprint(area)
        run = execute(case, area, env)
        if case.after:
            case.after(area)
        after = fingerprint(area)
        verdict, detail = classify(case, area, run, before, after)
    except Exception as error:  # the probe's own failure is reported, never hidden
        run = {"argv": case.argv, "rc": None, "stdout": "", "stderr": "", "seconds": 0}
        run.update(after_sigterm=None, timed_out=False, traceback=False)
        verdict, detail = "probe error", f"{type(error).__name__}: {error}"
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(area)], capture_output=True)
        subprocess.run(["chattr", "-R", "-i", "-a", str(area)], capture_output=True)
        shutil.rmtree(area, ignore_errors=True)
    output = run["stdout"] + run["stderr"]
    return {
        "name": case.name,
        "group": case.group,
        "command": " ".join(word.format(area="AREA", **case.inputs) for word in case.argv),
        "expect": case.expect,
        "rc": run["rc"],
        "traceback": "Traceback (most recent call last)" in output,
        "sentinels_intact": verdict != "data loss",
        "seconds": run["seconds"],
        "after_sigterm": run.get("after_sigterm"),
        "class": verdict,
        "detail": detail,
    }


def run_all(cases: list[Case], jobs: int, base: Path, env: dict) -> list[dict]:
    outcomes = []
    with ThreadPoolExecutor(jobs) as pool:
        for outcome in pool.map(lambda case: probe(case, base, env), cases):
            outcomes.append(outcome)
            with open(PARTIAL, "a") as partial:  # each outcome kept as it comes
                partial.write(json.dumps(outcome, ensure_ascii=False) + "\n")
            print(f"{outcome['class']:14} {outcome['name']}: {outcome['detail'][:150]}", flush=True)
    return outcomes


RECORD = ROOT / "perf" / "measured" / "records" / "hostile_probe.json"
FIGURES = ROOT / "perf" / "measured" / "hostile_probe.json"
TEMPLATE = (
    "Measured with `{command}` on {date} ({machine}): {cases} hostile cases against the real "
    "command line, each in a fresh folder with sentinel files checksummed before and after "
    "({wall_min:.0f} min with {jobs} at a time). On main before this round's fixes the first run "
    "counted {before_data_loss} data loss, {before_security} security, {before_hang} hangs, "
    "{before_traceback} tracebacks and {before_unclear} unclear errors ({before_ok} ok); after "
    "them, {after_data_loss} data loss, {after_security} security, {after_hang} hangs, "
    "{after_traceback} tracebacks and {after_unclear} unclear errors ({after_ok} ok). The "
    "slowest end after SIGTERM took {after_sigterm_worst_s:.2f} s (before: "
    "{before_sigterm_worst_s:.2f} s). Every case and its outcome: `perf/measured/hostile_probe.json`."
)


def compact(summary: dict) -> dict:
    return {
        **summary,
        "outcomes": [{**o, "detail": o["detail"][:200]} for o in summary["outcomes"]],
    }


def write_record(before: dict, after: dict, jobs: int) -> None:
    """``perf/measured/hostile_probe.json`` (both runs, every case) and its record."""
    FIGURES.write_text(
        json.dumps(
            {"before": compact(before), "after": compact(after)}, indent=1, ensure_ascii=False
        )
        + "\n"
    )
    figures = {"cases": after["cases"], "wall_min": after["wall_s"] / 60, "jobs": jobs}
    for name, run in (("before", before), ("after", after)):
        for verdict, count in run["counts"].items():
            key = {"unclear error": "unclear", "data loss": "data_loss"}.get(verdict, verdict)
            figures[f"{name}_{key.replace(' ', '_')}"] = count
        figures[f"{name}_sigterm_worst_s"] = run["sigterm_worst_s"]
    record = {
        "command": "python perf/hostile_probe.py --json probe.json --jobs 5",
        "machine": "2 CPU cores, shared, loaded",
        "date": after["date"],
        "versions": {},
        "figures": figures,
        "template": TEMPLATE,
    }
    RECORD.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", required=True, help="where to write every case's outcome")
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--only", help="run only the cases whose name holds this word")
    parser.add_argument("--compsem", help="the compsem command to probe")
    parser.add_argument(
        "--record",
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="write the measured record from two runs' --json files instead of running",
    )
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    options = parser.parse_args()
    if options.record:
        before, after = (json.loads(Path(path).read_text()) for path in options.record)
        write_record(before, after, options.jobs)
        return 0
    global COMPSEM, PARTIAL
    COMPSEM = options.compsem or COMPSEM
    PARTIAL = options.json + ".partial.jsonl"
    base = Path(tempfile.mkdtemp(prefix="compsem-hostile-"))
    started = time.monotonic()
    try:
        config = base / "config"
        shared_env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "HF_EVALUATE_OFFLINE": "1",
            "OMP_NUM_THREADS": "1",
            "TOKENIZERS_PARALLELISM": "false",
            "COMPSEM_CONFIG": str(config),
        }
        inputs = prepare_inputs(base / "inputs", COMPSEM, shared_env)
        cases = [
            case
            for case in all_cases(inputs)
            if not options.only or any(word in case.name for word in options.only.split(","))
        ]
        if options.list:
            for case in cases:
                print(case.group, case.name, " ".join(case.argv))
            print(len(cases), "cases")
            return 0
        quick = [case for case in cases if case.sigterm is None]
        timed = [case for case in cases if case.sigterm is not None]
        outcomes = run_all(quick, options.jobs, base, shared_env)
        outcomes += run_all(timed, 2, base, shared_env)  # SIGTERM timings, two at a time
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(base)], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    counts = {name: sum(o["class"] == name for o in outcomes) for name in [*CLASSES, "probe error"]}
    summary = {
        "date": date.today().isoformat(),
        "machine": f"{os.cpu_count()} CPU cores, {platform.machine()}",
        "load_average": os.getloadavg(),
        "wall_s": round(time.monotonic() - started, 1),
        "cases": len(outcomes),
        "counts": counts,
        "sigterm_worst_s": max((o["after_sigterm"] or 0) for o in outcomes),
        "outcomes": outcomes,
    }
    Path(options.json).write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "outcomes"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
