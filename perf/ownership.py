"""What signed ownership costs: signing and verifying manifests, locks with their registry entry,
and a build and a load against another checkout's (issue 55); writes JSON.

1. ``sign`` and ``verdict`` (HMAC-SHA256 of the manifest and the folder's resolved path) on the
   manifest of a real Montague export and on one listing 1,000 files, the median of many calls.
2. ``compsem build montague --config an`` and ``compsem.load`` of that export, each in a fresh
   process, and a writer lock taken and released (it enters and removes a registry entry) and a
   result file claimed (lock, manifest read and verified, file written, manifest signed and
   written), medians of 100, with this checkout's Python and, given ``--baseline PYTHON`` (the
   interpreter of a checkout without signing), with that one, interleaved, so that the two
   compare on the same load of the machine.

Usage: python perf/ownership.py [--baseline PYTHON] [--repeats 3]
       [--out perf/measured/ownership.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOAD = "import sys, compsem; compsem.load(sys.argv[1], 'an', split='test')"


def median_seconds(work, calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def signing(export: Path) -> dict:
    from compsem.files import signing
    from compsem.files.ownership import MARKER

    manifest = json.loads((export / MARKER).read_text())
    large = {**manifest, "files": {f"c/{i}.parquet": [i, i] for i in range(1000)}}
    results = {"export_files": len(manifest["files"])}
    for name, payload in (("export", manifest), ("1000_files", large)):
        signed = signing.sign(dict(payload), export)
        results[f"sign_{name}_us"] = 1e6 * median_seconds(
            lambda p=payload: signing.sign(dict(p), export), 200
        )
        results[f"verify_{name}_us"] = 1e6 * median_seconds(
            lambda s=signed: signing.verdict(s, export), 200
        )
    return results


WRITING = """
import json, statistics, sys, time
from pathlib import Path
from compsem.files.ownership import claim_file, writer_lock
folder, calls = Path(sys.argv[1]), int(sys.argv[2])
folder.mkdir(parents=True)
def median_ms(work):
    times = []
    for index in range(calls):
        start = time.perf_counter()
        work(index)
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)
def lock(index):
    with writer_lock(folder / "target"):
        pass
def claim(index):
    claim_file(folder / f"r{index}.json", lambda partial: partial.write_text("{}"))
print(json.dumps({"writer_lock_ms": median_ms(lock), "claim_file_ms": median_ms(claim)}))
"""


def writing(python: str, folder: Path, calls: int = 100) -> dict:
    """A writer lock taken and released, and a result file claimed, in a process of ``python``
    (a checkout's own ``compsem.files.ownership``): medians of ``calls`` each."""
    done = subprocess.run(
        [python, "-c", WRITING, str(folder), str(calls)], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def end_to_end(python: str, folder: Path, tag: str, repeat: int) -> dict:
    out = folder / f"build-{tag}"
    command = [python, "-m", "compsem.cli", "build", "montague", "--config", "an", "--out"]
    start = time.perf_counter()
    subprocess.run([*command, str(out), "--force"], check=True, capture_output=True)
    build = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([python, "-c", LOAD, str(out)], check=True, capture_output=True)
    load = time.perf_counter() - start
    return {
        "build_seconds": build,
        "load_seconds": load,
        **writing(python, folder / f"writing-{tag}-{repeat}"),
    }


def compare(baseline: str | None, folder: Path, repeats: int) -> dict:
    pythons = {"this": sys.executable, **({"baseline": baseline} if baseline else {})}
    runs: dict[str, list[dict]] = {name: [] for name in pythons}
    for repeat in range(repeats):
        for name, python in pythons.items():
            runs[name].append(end_to_end(python, folder, name, repeat))
    return {
        name: {
            key: statistics.median(run[key] for run in results)
            for key in ("build_seconds", "load_seconds", "writer_lock_ms", "claim_file_ms")
        }
        | {"runs": results}
        for name, results in runs.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="the Python of a checkout to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("perf/measured/ownership.json"))
    args = parser.parse_args()
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        os.environ["COMPSEM_CACHE"] = str(folder / "cache")
        os.environ["COMPSEM_CONFIG"] = str(folder / "config")
        from compsem.publish.export import export_benchmark

        export_benchmark("montague", folder / "export", ["an"])
        results = {
            "signing": signing(folder / "export"),
            "build_and_load": compare(args.baseline, folder, args.repeats),
            "repeats": args.repeats,
            "cpu_count": os.cpu_count(),
            "load_average": os.getloadavg()[0],
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
