"""The C twins (gaqueens/bench/c/): the published GA (ga.c), the floor section (a) measures the
engine against, and the local search (local_search.c), which section (e) times beside ours.

``build(name, scratch)`` compiles c/NAME.c with ``-O2`` (the compiler of $CC, else cc, gcc or
clang) into ``scratch``. ``ga_runs`` runs the GA's twin on a board for a range of seeds and gives
its evaluations and the seconds the program timed itself (all its runs, set-up included; the
process's start and its printing not). The GA's twin draws other random numbers than gaqueens
(SplitMix64), so only its cost per evaluation compares; the local search's draws the same, so
a seed makes the same run in both.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

from gaqueens.bench.common import timed

SOURCES = Path(__file__).resolve().parent / "c"


def compiler() -> list[str] | None:
    """The C compiler: $CC where it names one found on the PATH, else cc, gcc or clang."""
    named = shlex.split(os.environ.get("CC", ""))
    if named and shutil.which(named[0]):
        return named
    found = next((shutil.which(cc) for cc in ("cc", "gcc", "clang") if shutil.which(cc)), None)
    return [found] if found else None


def build(name: str, scratch: Path) -> tuple[Path | None, str]:
    """c/NAME.c built with -O2 in ``scratch``, and the compiler's name; or None and why not."""
    cc = compiler()
    if cc is None:
        return None, "no C compiler found (cc, gcc, clang or $CC)"
    binary = Path(scratch) / f"{name}_c"
    done = subprocess.run([*cc, "-O2", "-o", str(binary), str(SOURCES / f"{name}.c")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, f"{shlex.join(cc)} -O2 failed: {done.stderr.strip()[:300]}"
    version = subprocess.run([*cc, "--version"], capture_output=True, text=True)
    return binary, f"{(version.stdout.splitlines() or cc)[0]}, -O2"


def ga_runs(binary: Path, settings, board: int, seeds: range) -> tuple[int, float]:
    """The GA twin's evaluations and seconds for ``seeds`` (consecutive) on ``board``, with the
    population, offspring, tournament size, generation limit and target of ``settings`` (a
    GaSettings of the published family: ValueError otherwise)."""
    if (settings.select.name != "tournament" or settings.crossover.name != "none"
            or settings.mutation.name != "swap" or settings.scheme != "mu+lambda"
            or settings.ties != "offspring-first" or settings.fitness != "pairs"):
        raise ValueError("the C twin runs the published operators only")
    if seeds.step != 1 or not seeds:
        raise ValueError("the C twin runs a range of consecutive seeds")
    _, output = timed([str(binary), str(board), str(seeds.start), str(seeds.stop - 1),
                       str(settings.population), str(settings.children),
                       str(settings.select.get("size")), str(settings.generations),
                       str(settings.target or 0)])
    count, _solved, evaluations, seconds = output.split()
    if int(count) != len(seeds):
        raise RuntimeError(f"the C twin ran {count} runs, not {len(seeds)}")
    return int(evaluations), float(seconds)
