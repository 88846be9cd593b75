"""The golden files that tie each benchmark's content fingerprints
(``compsem/files/content_fingerprint.py``) to its ``VERSION``.

Each benchmark's golden file (``tests/golden/<name>.json``) records its ``VERSION`` and the
fingerprint of every default config. ``tests/test_publish_versioning.py`` rebuilds the benchmark
and fails when content changed but the version did not. After a deliberate change, bump
``VERSION`` (semantic: patch for fixes, minor for new rows or configs, major for changed labels
or splits), add a ``CHANGELOG`` entry, and regenerate the golden file from the repository root::

    python -m compsem.publish.versioning update plane            # builds the default configs
    python -m compsem.publish.versioning update plane --export hub/plane   # or reads an existing build
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from compsem.builders import benchmark_spec
from compsem.files.content_fingerprint import export_fingerprints
from compsem.publish.export import export_benchmark

GOLDEN_DIR = Path("tests") / "golden"
REGENERATE = "python -m compsem.publish.versioning update {name}"


def golden_path(name: str, golden_dir: Path = GOLDEN_DIR) -> Path:
    return Path(golden_dir) / f"{name}.json"


def golden_record(name: str, folder: Path) -> dict:
    """What a golden file holds for the default build of benchmark ``name`` exported to ``folder``."""
    spec = benchmark_spec(name)
    return {
        "benchmark": name,
        "version": spec.version,
        "regenerate": REGENERATE.format(name=name),
        "configs": export_fingerprints(folder, spec.default_config_names({})),
    }


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def golden_problems(current: dict, golden: dict) -> list[str]:
    """Why ``current`` (a :func:`golden_record`) does not match the stored ``golden`` record;
    each message says what to do."""
    name, version, stored_version = current["benchmark"], current["version"], golden["version"]
    command = REGENERATE.format(name=name)
    changed = []
    for config in sorted(set(current["configs"]) | set(golden["configs"])):
        now, before = current["configs"].get(config), golden["configs"].get(config)
        if now is None or before is None:
            changed.append(f"{config} ({'added' if before is None else 'removed'})")
        elif now["fingerprint"] != before["fingerprint"]:
            splits = [
                f"{split} {before['splits'].get(split, {}).get('rows', 0)}→"
                f"{now['splits'].get(split, {}).get('rows', 0)} rows"
                for split in sorted(set(now["splits"]) | set(before["splits"]))
                if before["splits"].get(split, {}).get("fingerprint")
                != now["splits"].get(split, {}).get("fingerprint")
            ]
            changed.append(f"{config} ({', '.join(splits) or 'fingerprint differs'})")
    if changed and version == stored_version:
        return [
            f"The generated content of {name} changed ({'; '.join(changed)}) but its VERSION is "
            f"still {version}. If the change is intended, bump VERSION in builders/{name}/ (its builder) "
            f"(semantic versioning), add a CHANGELOG entry, then regenerate the golden file with "
            f"`{command}` and commit it. If it is not intended, find what changed the output."
        ]
    if version != stored_version:
        direction = "forward" if _version_key(version) > _version_key(stored_version) else "BACK"
        return [
            f"VERSION of {name} moved {direction} from {stored_version} to {version} but "
            f"tests/golden/{name}.json was not regenerated: run `{command}` and commit it."
            + ("" if direction == "forward" else " Versions must only increase.")
        ]
    return []


def write_golden(name: str, folder: Path | None = None, golden_dir: Path = GOLDEN_DIR) -> Path:
    """Write the golden file of ``name`` from an export folder, or from a fresh default build."""
    path = golden_path(name, golden_dir)
    if folder is not None:
        record = golden_record(name, Path(folder))
    else:
        with tempfile.TemporaryDirectory() as scratch:
            export_benchmark(name, Path(scratch) / name)
            record = golden_record(name, Path(scratch) / name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m compsem.publish.versioning",
        description="Regenerate a benchmark's golden fingerprint file after bumping its VERSION.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    update = commands.add_parser("update", help="write tests/golden/NAME.json")
    update.add_argument("name", help="benchmark name, e.g. plane")
    update.add_argument(
        "--export", type=Path, help="read this default build instead of building one"
    )
    update.add_argument(
        "--golden-dir", type=Path, default=GOLDEN_DIR, help="where golden files live"
    )
    args = parser.parse_args(argv)
    path = write_golden(args.name, args.export, args.golden_dir)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
