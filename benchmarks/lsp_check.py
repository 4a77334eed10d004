"""CPU time of one check by the language server (:func:`rulesplay.lsp.analyse.analyse`: the
ruleset loaded from the editor's buffer, validated, and its declarations indexed), per
shipped ruleset: what a pause in typing costs before the underlines update.

    PYTHONPATH=src python benchmarks/lsp_check.py [--repeats 5] [RULESET ...]

Prints, per ruleset, the median and the largest CPU milliseconds over the repeats
(``time.process_time``, so other processes' time is not counted) after one warm-up check.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rulesplay.lsp.analyse import analyse

ROOT = Path(__file__).resolve().parents[1]


def measure(path: Path, repeats: int) -> list[float]:
    """CPU milliseconds of each of ``repeats`` checks of ``path`` (its text as a buffer)."""
    file = str(path.resolve())
    buffers = {file: path.read_text(encoding="utf-8")}
    analyse(file, buffers)
    out = []
    for _ in range(repeats):
        start = time.process_time()
        analyse(file, buffers)
        out.append((time.process_time() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", type=Path,
                        help="ruleset files (default: every shipped one)")
    parser.add_argument("--repeats", type=int, default=5, help="checks per ruleset")
    args = parser.parse_args()
    paths = args.rulesets or sorted((ROOT / "rulesets").rglob("*.rules"))
    for path in paths:
        times = measure(path, args.repeats)
        real = path.resolve()
        shown = real.relative_to(ROOT) if real.is_relative_to(ROOT) else path
        print(f"{str(shown):58s} median {statistics.median(times):6.1f} ms  "
              f"max {max(times):6.1f} ms CPU")


if __name__ == "__main__":
    main()
