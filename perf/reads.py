"""What the checks on every read cost (issue 55): bounded reads against plain ones, and the one
export reader's validation against loading the config it validates.

1. A result JSON of about 1 MB: ``read_json`` (open without blocking, fstat, cap, chunks, depth
   check) against ``json.loads(path.read_text())``.
2. A rows file of 100,000 lines: ``read_json_lines`` against a plain ``for line in open(...)``.
3. A Montague export (every config): ``read_export`` (card, names, every data file resolved and
   stat'ed) against ``load_config`` of one config (which runs it once).

Each figure is the best of five runs, in seconds. Usage:
    python perf/reads.py [--out perf/measured/reads.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

from compsem.files.bounded_read import read_json, read_json_lines
from compsem.files.export_reader import read_export
from compsem.harness.data.benchmark import load_config
from compsem.publish.export import export_benchmark


def best(run, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def plain_lines(path: Path) -> int:
    with open(path, encoding="utf-8") as stream:
        return sum(1 for line in stream if json.loads(line) is not None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("perf/measured/reads.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        result = folder / "result.json"
        groups = {f"g{i}": {"n": i, "accuracy": i / 1e4, "macro_f1": None} for i in range(10_000)}
        result.write_text(json.dumps({"scores": {"by_group": {"x": groups}}}))
        rows = folder / "r.rows.jsonl"
        rows.write_text(
            "".join(json.dumps({"label": i % 2, "prediction": 1}) + "\n" for i in range(100_000))
        )
        export = folder / "montague"
        export_benchmark("montague", export, None)
        config = next(iter(read_export(export).configs))
        figures = {
            "result_bytes": result.stat().st_size,
            "result_plain_s": best(lambda: json.loads(result.read_text())),
            "result_bounded_s": best(lambda: read_json(result, "result")),
            "rows_lines": 100_000,
            "rows_plain_s": best(lambda: plain_lines(rows)),
            "rows_bounded_s": best(lambda: sum(1 for _ in read_json_lines(rows))),
            "export_configs": len(read_export(export).configs),
            "export_files": sum(
                len(f) for s in read_export(export).configs.values() for f in s.values()
            ),
            "read_export_s": best(lambda: read_export(export)),
            "load_config_s": best(lambda: load_config(str(export), config), repeats=3),
        }
    record = {
        "command": "python perf/reads.py",
        "machine": f"{platform.machine()}, shared with other work",
        "date": time.strftime("%Y-%m-%d"),
        "figures": {
            key: round(value, 5) if isinstance(value, float) else value
            for key, value in figures.items()
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record, indent=2))


if __name__ == "__main__":
    main()
