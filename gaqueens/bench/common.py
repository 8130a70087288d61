"""What the benchmark's sections share: the plan of the work, the report, genoxide, and the
formatting of spreads."""

from __future__ import annotations

import csv
import importlib.util
import io
import math
import statistics
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from gaqueens.core.files import write_text

GENOXIDE_VERSION = "0.13.1"
NUMPY, DEAP = "engine: numpy", "engine: deap"  # the GA on each of its engines
INSTALL = "pip install 'gaqueens[bench]'"
CSV_COLUMNS = ("section", "engine", "board", "seeds", "repetition", "seconds", "evaluations",
               "processor")  # processor: user and system seconds, where measured (section b)


def pyarrow_warning() -> str | None:
    """The headers' warning where pyarrow is installed (the test extra brings it): pandas then
    imports it in every sweep the benchmarks time, which results/ are made without."""
    if importlib.util.find_spec("pyarrow") is None:
        return None
    return ("warning: pyarrow is installed (the test extra brings it), and pandas imports it in "
            "every sweep timed here; results/bench and results/scale are made without it "
            "(README, Performance)")


@dataclass(frozen=True)
class Plan:
    """How much work each section does: repetitions of (a), the further pairs of its goal's
    engines, its boards and seeds (those of the table for engine: numpy and genoxide; fewer for
    ga.run one seed at a time and for the engine: deap); the table sweep's seeds (None: the
    file's) and repetitions; the main job's repetitions and the equal entries' sweeps; the
    boards and seeds of (d); whether to break the start-up down by imports."""

    repeats: int = 5
    pairs: int = 25  # (a)'s goal: its two engines' pairs at most, on a board ...
    pair_seconds: float = 10.0  # ... while their time is under this (engine.more_pairs)
    engine_boards: tuple[int, ...] = (8, 16, 32, 64, 128)
    engine_seeds: range = range(1, 101)
    alone_seeds: range = range(1, 11)
    deap_seeds: range = range(1, 4)
    table_seeds: str | None = None
    table_repeats: int = 9  # the sign test of 9 pairs can tell a median from a goal; of 5, never
    job_repeats: int = 5
    fair_repeats: int = 9  # the equal entries' sweeps (job.equal_entries), each a ratio
    boards: tuple[int, ...] = (8, 16, 32, 64, 128)
    board_seeds: range = range(1, 11)
    importtime: bool = True
    quick: bool = False


QUICK = Plan(quick=True, repeats=2, pairs=3, engine_boards=(8, 32), engine_seeds=range(1, 6),
             alone_seeds=range(1, 3), deap_seeds=range(1, 2), table_seeds="1..2", table_repeats=1,
             job_repeats=1, fair_repeats=1, boards=(8, 16), board_seeds=range(1, 3),
             importtime=False)


def published_medians() -> dict[int, float]:
    """The published table's median evaluations per board (gaqueens/data/published-table.csv,
    seeds 1 to 100)."""
    text = resources.files("gaqueens").joinpath("data/published-table.csv").read_text("utf-8")
    return {int(row["board"]): float(row["median_evaluations"])
            for row in csv.DictReader(text.splitlines())}


def published_experiment(folder: Path, name: str, boards=None) -> Path:
    """Writes an experiment file of the published GA on ``boards`` (default: every board of
    the published table), seeds 1 to 100, beside the published medians, into ``folder``: the
    main job's (n8) and the table's, as experiments/ holds them, written here so that the
    benchmark runs from an installed package too."""
    medians = published_medians()
    boards = list(medians) if boards is None else list(boards)
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


def published_settings():
    """The published settings: the GA's defaults."""
    from gaqueens.ga import GaSettings

    return GaSettings()


def genoxide_run(gx, board: int, seed: int, fitness):
    """One genoxide run of the published settings (its own N-Queens example) on ``fitness``."""
    published = published_settings()
    algorithm = gx.Ga(gx.Permutation(board), population_size=published.population,
                      select=gx.Tournament(published.select.get("size")), crossover=gx.NoCrossover(),
                      mutation=gx.SwapMutation(), scheme=gx.MuPlusLambda(published.offspring),
                      objective="minimize", seed=seed)
    return algorithm.run(fitness, batch=True, target=published.target,
                         generations=published.generations)


def verdict(values: list[float], goal: float, low: float = -math.inf) -> str:
    """"met" when every repetition's value is at most ``goal`` (and at least ``low``), "met at
    the median" when the median is, else "not met"."""
    if low <= min(values) and max(values) <= goal:
        return "met"
    return "met at the median" if low <= statistics.median(values) <= goal else "not met"


def sign_test(ratios: list[float], goal: float, low: float = -math.inf,
              unit: str = "pairs") -> str:
    """Where paired ratios sit against a goal: how many are at most the goal (or, with a finite
    ``low``, as verdict takes it, within low to goal), and the two-sided sign test of their
    median against the goal (and against ``low``), scipy.stats.binomtest. A p-value of 0.05 or
    more says the pairs cannot tell their median from that bound; five pairs never can (p
    0.0625 at least)."""
    from scipy.stats import binomtest

    def p(below: int) -> str:
        return f"{binomtest(below, len(ratios)).pvalue:.2g}"

    under = sum(ratio <= goal for ratio in ratios)
    if low == -math.inf:
        return f"at most {goal} in {under} of {len(ratios)} {unit}, sign test p = {p(under)}"
    over = sum(ratio >= low for ratio in ratios)
    within = sum(low <= ratio <= goal for ratio in ratios)
    return (f"within {low} to {goal} in {within} of {len(ratios)} {unit}, sign tests "
            f"p = {p(under)} against {goal} and {p(over)} against {low}")


def tested(ratios: list[float], goal: float, low: float = -math.inf,
           unit: str = "pairs") -> str:
    """A ratio goal's measured text: its pairs' spread, and where they sit against the goal."""
    return f"{spread(ratios)}; {sign_test(ratios, goal, low, unit)}"


def spread(values) -> str:
    return f"median {statistics.median(values):.2f} ({min(values):.2f}..{max(values):.2f})"


def seeds_text(seeds: range) -> str:
    return f"{seeds.start}..{seeds.stop - 1}"


def times_text(repeats: int) -> str:
    return f"{repeats} repetition" + ("s" if repeats > 1 else "")


class Report:
    """The report's lines, printed as they come, and the raw timings for bench.csv."""

    def __init__(self):
        self.lines: list[str] = []
        self.rows: list[dict] = []
        self.goals: list[dict] = []

    def say(self, text: str = "") -> None:
        self.lines.append(text)
        print(text, flush=True)

    def row(self, **values) -> None:
        self.rows.append(values)

    def goal(self, figure: str, measured: str, goal: str, met: str) -> str:
        """Records a figure beside its goal for goals.csv (the README's summary) and returns
        ``met``, for the line that says it."""
        self.goals.append({"figure": figure, "measured": measured, "goal": goal, "met": met})
        return met

    def write(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        write_text(folder / "bench.md", "\n".join(self.lines) + "\n")
        table = io.StringIO()
        writer = csv.DictWriter(table, CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        write_text(folder / "bench.csv", table.getvalue())
        write_goals(folder, self.goals)


def write_goals(folder: Path, goals: list[dict]) -> None:
    """goals.csv: a row per goal (figure, measured, goal, met), which python -m gaqueens.readme
    summarises in the README."""
    table = io.StringIO()
    writer = csv.DictWriter(table, ("figure", "measured", "goal", "met"), lineterminator="\n")
    writer.writeheader()
    writer.writerows(goals)
    write_text(folder / "goals.csv", table.getvalue())
