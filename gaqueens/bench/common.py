"""What the benchmark's sections share: the plan of the work, the report and its goals, one way
to time a command, one way to judge a goal, and the published GA's experiment files."""

from __future__ import annotations

import csv
import importlib.util
import io
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from gaqueens.core.files import write_text

GENOXIDE_VERSION = "0.13.1"
INSTALL = "pip install 'gaqueens[bench]'"
CSV_COLUMNS = ("section", "engine", "board", "seeds", "repetition", "seconds", "evaluations")
GOAL_COLUMNS = ("figure", "measured", "goal", "met")
GENOXIDE = Path(__file__).resolve().parent / "genoxide_runs.py"  # run as a program of its own


@dataclass(frozen=True)
class Plan:
    """How much work each section does: (a)'s repetitions, boards and seeds; the table sweep's
    and the main job's seeds (None: the file's, 1..100) and repetitions; (d)'s boards and
    seeds; whether to break the main job's start-up down by imports."""

    repeats: int = 12  # the sign test of 12 pairs tells a median from a goal at 10 on a side
    engine_boards: tuple[int, ...] = (8, 16, 32, 64, 128)
    engine_seeds: range = range(1, 101)
    table_seeds: str | None = None
    table_repeats: int = 9  # 8 of 9 pairs on a side tell; a repetition takes seconds
    job_seeds: str | None = None
    job_repeats: int = 12
    boards: tuple[int, ...] = (8, 16, 32, 64, 128)
    board_seeds: range = range(1, 11)
    importtime: bool = True
    quick: bool = False


QUICK = Plan(quick=True, repeats=2, engine_boards=(8, 32), engine_seeds=range(1, 6),
             table_seeds="1..2", table_repeats=1, job_seeds="1..5", job_repeats=1,
             boards=(8, 16), board_seeds=range(1, 3), importtime=False)


def pyarrow_warning() -> str | None:
    """The headers' warning where pyarrow is installed (the test extra brings it): pandas then
    imports it in every sweep the benchmarks time, which results/ are made without."""
    if importlib.util.find_spec("pyarrow") is None:
        return None
    return ("warning: pyarrow is installed (the test extra brings it), and pandas imports it in "
            "every sweep timed here; results/bench and results/scale are made without it")


def timed(command: list[str]) -> tuple[float, str]:
    """Runs ``command`` to its end: its wall seconds and its output. RuntimeError, with the end
    of what it wrote on stderr, if it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): "
                           f"{done.stderr.strip()[-2000:]}")
    return seconds, done.stdout


def spread(values, form: str = ".2f", unit: str = "") -> str:
    """median (min..max), or the one value."""
    values = list(values)
    if len(values) == 1:
        return f"{values[0]:{form}}{unit}"
    return (f"median {statistics.median(values):{form}} ({min(values):{form}}.."
            f"{max(values):{form}}){unit}")


def sign_test(values, most: float, unit: str = "pairs") -> str:
    """How many values are at most ``most``, and the two-sided sign test of their median
    against it (scipy.stats.binomtest): at p 0.05 or more the values cannot tell their median
    from the goal (five never can: p 0.0625 at least)."""
    from scipy.stats import binomtest

    within = sum(value <= most for value in values)
    p = binomtest(within, len(values)).pvalue
    return f"at most {most:g} in {within} of {len(values)} {unit}, sign test p = {p:.2g}"


class Report:
    """The report's lines, printed as they come; the timings for bench.csv; the goals for
    goals.csv (which python -m gaqueens.readme summarises in the README)."""

    def __init__(self):
        self.lines: list[str] = []
        self.rows: list[dict] = []
        self.goals: list[dict] = []

    def say(self, text: str = "") -> None:
        self.lines.append(text)
        print(text, flush=True)

    def row(self, **values) -> None:
        self.rows.append(values)

    def goal(self, figure: str, values, most: float, unit: str = "", form: str = ".2f",
             pairs: str = "pairs") -> str:
        """Judges ``values`` (one per repetition or pair) against the goal "at most ``most``":
        their spread, the sign test where there are several, the verdict ("met" when every
        value is within the goal, "met at the median" when their median is, else "not met");
        records it for goals.csv and returns the goal's line."""
        measured = spread(values, form, unit)
        if len(values) > 1:
            measured += "; " + sign_test(values, most, pairs)
        met = ("met" if max(values) <= most else "met at the median"
               if statistics.median(values) <= most else "not met")
        self.goals.append(dict(figure=figure, measured=measured, goal=f"at most {most:g}{unit}",
                               met=met))
        return f"{figure}: {measured}; goal at most {most:g}{unit}: {met}"

    def write(self, folder: Path, name: str = "bench", rows=None, columns=CSV_COLUMNS) -> None:
        """NAME.md (the report), NAME.csv (``rows``, default the timings) and goals.csv."""
        folder.mkdir(parents=True, exist_ok=True)
        write_text(folder / f"{name}.md", "\n".join(self.lines) + "\n")
        write_text(folder / f"{name}.csv", _csv(self.rows if rows is None else rows, columns))
        write_text(folder / "goals.csv", _csv(self.goals, GOAL_COLUMNS))


def _csv(rows: list[dict], columns) -> str:
    table = io.StringIO()
    writer = csv.DictWriter(table, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return table.getvalue()


def repetitions(count: int) -> str:
    return f"{count} repetition" + ("s" if count != 1 else "")


def header(title: str, command: str, quick: bool, load=None) -> str:
    """A report's first line: what ran, when, on which code and machine, and the load average
    (``load``, or now)."""
    import os
    import platform
    from importlib.metadata import version

    from gaqueens.runtime import manifest

    code = manifest.code(manifest.checkout(), version("gaqueens"))
    return (f"**{title}**{' (--quick: a smoke run, not a measurement)' if quick else ''}: "
            f"`{command}`, {time.strftime('%Y-%m-%d %H:%M')}, {code}; {platform.platform()}, "
            f"{os.cpu_count()} cores; Python {platform.python_version()}, numpy "
            f"{version('numpy')}; load average "
            + "{:.1f} {:.1f} {:.1f}".format(*(load or os.getloadavg())))


def published_medians() -> dict[int, float]:
    """The published table's median evaluations per board (gaqueens/data/published-table.csv)."""
    text = resources.files("gaqueens").joinpath("data/published-table.csv").read_text("utf-8")
    return {int(row["board"]): float(row["median_evaluations"])
            for row in csv.DictReader(text.splitlines())}


def published_experiment(folder: Path, name: str, boards) -> Path:
    """An experiment file of the published GA on ``boards``, seeds 1 to 100, beside the
    published medians: experiments/n8.yaml and table.yaml as the repository holds them, written
    into ``folder`` so that the benchmark runs from an installed package too."""
    medians = published_medians()
    reference = ", ".join(f"{board}: {medians[board]:g}" for board in boards)
    path = Path(folder) / f"{name}.yaml"
    path.write_text(f"boards: {boards}\nseeds: {{first: 1, last: 100}}\n"
                    f"reference: {{{reference}}}\n", encoding="utf-8")
    return path


def genoxide_module():
    """The genoxide module, or None when it is not installed."""
    try:
        import genoxide
    except ImportError:
        return None
    return genoxide


def published() -> tuple[int, int, int, int, int]:
    """The published settings (the GA's defaults) as genoxide_runs takes them: population,
    offspring, tournament size, target, generation limit."""
    from gaqueens.ga import GaSettings

    settings = GaSettings()
    return (settings.population, settings.offspring, settings.select.get("size"),
            settings.target or 0, settings.generations)


def genoxide_command(boards, seeds: str) -> list[str]:
    """genoxide's sweep of ``boards`` and seeds FIRST..LAST, as a program of its own."""
    return [sys.executable, str(GENOXIDE), ",".join(map(str, boards)), seeds,
            *map(str, published())]
