"""Type check: pyright over src/, held to a checked-in per-file error baseline.

    python .ci/typecheck.py            # fails if a file has more errors than the baseline
    python .ci/typecheck.py --update   # after fixing errors: shrink the baseline to match

The baseline (.ci/pyright-baseline.json) counts pyright's errors per source file. A file
whose count grows, or a file not in the baseline that has errors, fails the check and its
errors are printed (the baseline holds counts, not the errors themselves, so all of the
file's errors are shown). Fewer errors pass, with a reminder to shrink the baseline with
`--update`; `--update` never raises a count unless `--allow-growth` says so.

Why a link tree: the project installs qdialect.transforms, .lowering and .importers from
src/transforms, src/lowering and src/importers (pyproject's package-dir), which
setuptools' editable install does with an import hook that static checkers cannot follow.
This script builds build/pyright/qdialect/ as symbolic links to the source files in the
installed layout and pyright ([tool.pyright] in pyproject.toml) checks the sources
through it; errors are reported under their real src/ paths.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "pyright"
BASELINE = ROOT / ".ci" / "pyright-baseline.json"


def link_tree() -> int:
    """Rebuild TREE: every package of pyproject's [tool.setuptools] at its import path,
    its modules linked to the sources. Returns the number of modules linked."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package_dir: dict[str, str] = config.get("package-dir", {})
    if TREE.exists():
        shutil.rmtree(TREE)
    linked = 0
    for package in config["packages"]:
        source = _source_dir(package, package_dir)
        target = TREE.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for module in sorted(source.iterdir()):
            if module.suffix in (".py", ".pyi") and module.is_file():
                (target / module.name).symlink_to(module)
                linked += 1
    return linked


def _source_dir(package: str, package_dir: dict[str, str]) -> Path:
    """Where setuptools finds `package`: its own package-dir entry, else its nearest
    mapped ancestor's directory plus the rest of the name, else the root."""
    parts = package.split(".")
    for n in range(len(parts), 0, -1):
        mapped = package_dir.get(".".join(parts[:n]))
        if mapped is not None:
            return ROOT.joinpath(mapped, *parts[n:])
    return ROOT.joinpath(package_dir.get("", ""), *parts)


def run_pyright() -> tuple[str, list[dict]]:
    """pyright's version and its error diagnostics, each with `file` relative to ROOT."""
    command = [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        report = None
    if done.returncode not in (0, 1) or report is None:  # 0: clean, 1: errors reported
        sys.exit(
            f"pyright failed (exit {done.returncode}):\n{done.stdout[-4000:]}{done.stderr[-4000:]}"
        )
    if report["summary"]["filesAnalyzed"] == 0:
        sys.exit("pyright analyzed no files: is build/pyright/ populated?")
    errors = []
    for d in report["generalDiagnostics"]:
        if d["severity"] != "error":
            continue
        real = Path(os.path.realpath(d.get("file") or "<pyright>"))
        d["file"] = real.relative_to(ROOT).as_posix() if real.is_relative_to(ROOT) else str(real)
        errors.append(d)
    return report["version"], errors


def _format(d: dict) -> str:
    start = d.get("range", {}).get("start", {"line": -1, "character": -1})
    rule = f" ({d['rule']})" if "rule" in d else ""
    message = d["message"].replace("\n", "\n    ")
    return f"{d['file']}:{start['line'] + 1}:{start['character'] + 1}: {message}{rule}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--update", action="store_true", help="shrink the baseline to today's counts"
    )
    parser.add_argument(
        "--allow-growth", action="store_true", help="with --update: also raise counts"
    )
    args = parser.parse_args()

    print(f"linked {link_tree()} modules into {TREE.relative_to(ROOT)}/", flush=True)
    version, errors = run_pyright()
    counts = Counter(d["file"] for d in errors)
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {"errors": {}}
    allowed: dict[str, int] = baseline["errors"]
    if baseline.get("pyright") not in (None, version):
        print(
            f"note: the baseline counts pyright {baseline['pyright']}'s errors, this is {version}"
        )

    grown = sorted(f for f, n in counts.items() if n > allowed.get(f, 0))
    fixed = sum(max(n - counts.get(f, 0), 0) for f, n in allowed.items())
    total, total_allowed = sum(counts.values()), sum(allowed.values())
    print(f"pyright {version}: {total} errors, baseline {total_allowed}, {fixed} fixed")

    if args.update:
        if grown and not args.allow_growth:
            for f in grown:
                print(f"  {f}: {allowed.get(f, 0)} -> {counts[f]}")
            print("not updating: these files have more errors (--allow-growth to accept)")
            return 1
        new = {f: n for f, n in sorted(counts.items())}
        if not args.allow_growth:
            new = {f: min(n, allowed[f]) for f, n in new.items()}
        BASELINE.write_text(
            json.dumps({"pyright": version, "errors": new}, indent=1, sort_keys=False) + "\n"
        )
        print(f"wrote {BASELINE.relative_to(ROOT)}: {sum(new.values())} errors in {len(new)} files")
        return 0

    if grown:
        for f in grown:
            print(f"\n{f}: {counts[f]} errors, baseline {allowed.get(f, 0)}:")
            for d in errors:
                if d["file"] == f:
                    print("  " + _format(d))
        print(
            f"\ntype check failed: {len(grown)} file(s) have more pyright errors than "
            f"{BASELINE.relative_to(ROOT)} allows"
        )
        return 1
    if fixed:
        print(f"{fixed} errors fewer than the baseline: run `python .ci/typecheck.py --update`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
