"""The GA's C twin (gaqueens/bench/c/ga.c): the published GA in plain C, the floor that section
(a) measures engine: numpy against.

``build(scratch)`` compiles it with ``-O2`` (the compiler of $CC, else cc, gcc or clang) into
``scratch``; ``runs(binary, settings, board, seeds)`` runs it on a board for a range of seeds,
the settings' population, offspring, tournament size, generation limit and target passed on,
and gives its evaluations and the seconds the program timed itself (all its runs, set-up
included; the process's start and its printing are not). It draws other random numbers than
gaqueens (SplitMix64), so its runs are not gaqueens' runs for the same seeds: only its cost
per evaluation compares.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "c" / "ga.c"


def compiler() -> list[str] | None:
    """The C compiler: $CC where it names one found on the PATH, else cc, gcc or clang."""
    named = shlex.split(os.environ.get("CC", ""))
    if named and shutil.which(named[0]):
        return named
    found = next((shutil.which(cc) for cc in ("cc", "gcc", "clang") if shutil.which(cc)), None)
    return [found] if found else None


def build(scratch: Path) -> tuple[Path | None, str]:
    """The C twin built with -O2 in ``scratch``, and the compiler's name; or None and why not."""
    cc = compiler()
    if cc is None:
        return None, "no C compiler found (cc, gcc, clang or $CC)"
    binary = Path(scratch) / "ga_c"
    done = subprocess.run([*cc, "-O2", "-o", str(binary), str(SOURCE)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        return None, f"{shlex.join(cc)} -O2 failed: {done.stderr.strip()[:300]}"
    version = subprocess.run([*cc, "--version"], capture_output=True, text=True)
    return binary, f"{(version.stdout.splitlines() or cc)[0]}, -O2"


def runs(binary: Path, settings, board: int, seeds: range) -> tuple[int, float]:
    """The C twin's evaluations and seconds for ``seeds`` (consecutive) on ``board``, with
    the population, offspring, tournament size, generation limit and target of ``settings``
    (a GaSettings of the published family: ValueError otherwise)."""
    if (settings.select.name != "tournament" or settings.crossover.name != "none"
            or settings.mutation.name != "swap" or settings.scheme != "mu+lambda"
            or settings.ties != "offspring-first" or settings.fitness != "pairs"):
        raise ValueError("the C twin runs the published operators only")
    if seeds.step != 1 or not seeds:
        raise ValueError("the C twin runs a range of consecutive seeds")
    target = 0 if settings.target is None else settings.target
    command = [str(binary), str(board), str(seeds.start), str(seeds.stop - 1),
               str(settings.population), str(settings.children),
               str(settings.select.get("size")), str(settings.generations), str(target)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}): {done.stderr}")
    count, _solved, evaluations, seconds = done.stdout.split()
    if int(count) != len(seeds):
        raise RuntimeError(f"{shlex.join(command)} ran {count} runs, not {len(seeds)}")
    return int(evaluations), float(seconds)
