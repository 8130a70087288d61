"""The benchmark: gaqueens beside genoxide 0.13.1 and the naive DEAP GA.

    python -m gaqueens.bench [--quick] [--out DIR] [--repeats R]

A benchmark, not a test: these machines are shared and noisy, so each measurement runs the
engines side by side, alternating their order within each of R repetitions, and reports
medians and the ratio of the engines' times measured in the same repetition (its median and
min..max), never a threshold that could fail. Its sections:

(a) engine cost: microseconds per evaluation on the 128x128 board, seeds 1..30, in this one
    process: gaqueens.ga.run, genoxide running the published settings with the same
    board.Conflicts object as its batch fitness, and the naive DEAP GA (gaqueens.deap_ga) on
    fewer seeds. Each engine's time is for all its seeds, divided by its own evaluations.
(b) the whole table: wall time of `python -m gaqueens.sweep experiments/table.yaml
    --quiet` (default workers, tables and plots included; and with --workers 1, to show what
    the pool gains on this machine) against genoxide's single-process sweep of the same boards
    and seeds (the internal mode --genoxide-table), all subprocesses, so all pay their
    start-up; and the median evaluations per board of each engine.
(c) the main job, `python -m gaqueens.sweep experiments/n8.yaml --quiet`, end to end,
    and the imports it pays for (python -X importtime).
(d) per board: the median wall time of one run of the local search (when registered), the GA
    and the naive DEAP GA on a few seeds, and their ratios.

--quick makes a smoke run of a few seconds on smaller work. --out DIR writes bench.md (the
report) and bench.csv (every timing). Without genoxide (pip install 'gaqueens[bench]'), the
sections run without it and say so. The other internal mode, --reference-evaluations FILE,
writes genoxide's evaluations per board and seed for tests/test_reference.py.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from gaqueens.board import Conflicts  # the rest of gaqueens where needed: see genoxide_table

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "experiments"
GENOXIDE_VERSION = "0.13.1"
INSTALL = "pip install 'gaqueens[bench]'"
REFERENCE_BOARDS, REFERENCE_SEEDS = (8, 16, 32), range(1, 1001)
CSV_COLUMNS = ("section", "engine", "board", "seeds", "repetition", "seconds", "evaluations")


@dataclass(frozen=True)
class Plan:
    """How much work each section does: repetitions of (a), its board and seeds (fewer for the
    naive GA); the table sweep's seeds (None: the file's) and repetitions; the main job's
    repetitions; the boards and seeds of (d); whether to break the start-up down by imports."""

    repeats: int = 5
    engine_board: int = 128
    engine_seeds: range = range(1, 31)
    naive_seeds: range = range(1, 4)
    table_seeds: str | None = None
    table_repeats: int = 3
    job_repeats: int = 5
    boards: tuple[int, ...] = (8, 16, 32, 64, 128)
    board_seeds: range = range(1, 11)
    importtime: bool = True
    quick: bool = False


QUICK = Plan(quick=True, repeats=2, engine_board=32, engine_seeds=range(1, 6),
             naive_seeds=range(1, 2), table_seeds="1..2", table_repeats=1, job_repeats=1,
             boards=(8, 16), board_seeds=range(1, 3), importtime=False)


def _genoxide():
    """The genoxide module, or None when it is not installed."""
    try:
        import genoxide
    except ImportError:
        return None
    return genoxide


def _published():
    """The published settings: the GA's defaults."""
    from gaqueens.ga import GaSettings

    return GaSettings()


def genoxide_run(gx, board: int, seed: int, fitness):
    """One genoxide run of the published settings (its own N-Queens example) on ``fitness``."""
    published = _published()
    algorithm = gx.Ga(gx.Permutation(board), population_size=published.population,
                      select=gx.Tournament(published.select.size), crossover=gx.NoCrossover(),
                      mutation=gx.SwapMutation(), scheme=gx.MuPlusLambda(published.offspring),
                      objective="minimize", seed=seed)
    return algorithm.run(fitness, batch=True, target=published.target,
                         generations=published.generations)


def _spread(values) -> str:
    return f"median {statistics.median(values):.2f} ({min(values):.2f}..{max(values):.2f})"


def _seeds(seeds: range) -> str:
    return f"{seeds.start}..{seeds.stop - 1}"


def _times(repeats: int) -> str:
    return f"{repeats} repetition" + ("s" if repeats > 1 else "")


class Report:
    """The report's lines, printed as they come, and the raw timings for bench.csv."""

    def __init__(self):
        self.lines: list[str] = []
        self.rows: list[dict] = []

    def say(self, text: str = "") -> None:
        self.lines.append(text)
        print(text, flush=True)

    def row(self, **values) -> None:
        self.rows.append(values)

    def write(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "bench.md").write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        with open(folder / "bench.csv", "w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, CSV_COLUMNS)
            writer.writeheader()
            writer.writerows(self.rows)


# ---- (a) engine cost per evaluation -----------------------------------------------------------


def engine_cost(plan: Plan, report: Report, gx) -> None:
    """Microseconds per evaluation of each engine over the same seeds, alternating engines."""
    from gaqueens import deap_ga, ga

    board, fitness, published = plan.engine_board, Conflicts(plan.engine_board), _published()
    engines = {"gaqueens.ga": (plan.engine_seeds,
                               lambda seed: ga.run(published, board, seed).evaluations)}
    if gx is not None:
        engines["genoxide"] = (plan.engine_seeds,
                               lambda seed: genoxide_run(gx, board, seed, fitness).evaluations)
    engines["deap_ga (naive)"] = (plan.naive_seeds,
                                  lambda seed: deap_ga.run(published, board, seed).evaluations)
    names = list(engines)
    cost = {name: [] for name in names}
    for repetition in range(plan.repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            seeds, one = engines[name]
            start = time.perf_counter()
            evaluations = sum(one(seed) for seed in seeds)
            seconds = time.perf_counter() - start
            cost[name].append(seconds / evaluations * 1e6)
            report.row(section="engine", engine=name, board=board, seeds=_seeds(seeds),
                       repetition=repetition, seconds=seconds, evaluations=evaluations)
    report.say(f"### (a) Engine cost per evaluation: board {board}, one process, "
               f"{_times(plan.repeats)}, engines alternating")
    report.say()
    for name in names:
        report.say(f"- {name} (seeds {_seeds(engines[name][0])}): {_spread(cost[name])} µs per "
                   "evaluation")
    ratios = [("gaqueens.ga", "genoxide"), ("deap_ga (naive)", "genoxide"),
              ("deap_ga (naive)", "gaqueens.ga")]
    for slow, fast in ratios:
        if slow in cost and fast in cost:
            per_repetition = [s / f for s, f in zip(cost[slow], cost[fast])]
            report.say(f"- ratio {slow} / {fast}: {_spread(per_repetition)}")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    report.say()


# ---- (b) the table sweep, (c) the main job: subprocesses ---------------------------------------


def _wall(command: list[str]) -> tuple[float, str]:
    """The wall time of a command run from the project's folder, and its output."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, done.stdout


def _sweep_command(file: Path, out: Path, seeds: str | None, workers: str | None = None):
    command = [sys.executable, "-m", "gaqueens.sweep", str(file), "--out", str(out), "--quiet"]
    command += ["--seeds", seeds] if seeds else []
    return command + (["--workers", workers] if workers else [])


def _sweep_wall(command: list[str]) -> tuple[float, str]:
    """The wall time of a sweep into an empty output folder, so that it computes every run."""
    shutil.rmtree(command[command.index("--out") + 1], ignore_errors=True)
    return _wall(command)


def _our_medians(summary_csv: Path) -> dict[int, str]:
    """The GA's median evaluations per board from a sweep's summary.csv, with its verdict."""
    with open(summary_csv, encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["algorithm"] == "ga"]
    return {int(row["board"]): f"{float(row['median']):g}"
            + (f" ({row['verdict']})" if row["verdict"] else "") for row in rows}


def table_sweep(plan: Plan, report: Report, gx, scratch: Path) -> None:
    """Wall time of the whole table sweep, ours (default workers) against genoxide's (one
    process), alternating, and each one's median evaluations per board."""
    from gaqueens.experiment import load

    file = EXPERIMENTS / "table.yaml"
    if not file.exists():
        report.say(f"### (b) The whole table\n\n- skipped: {file} is missing\n")
        return
    experiment = load(file)
    seeds = plan.table_seeds or "{}..{}".format(*experiment.seeds)
    boards = ",".join(map(str, experiment.boards))
    report.say(f"### (b) The whole table: {file.relative_to(ROOT)}, seeds {seeds}, "
               f"{_times(plan.table_repeats)}, alternating")
    report.say()
    out = scratch / "table"
    ours, alone = "gaqueens.sweep", "gaqueens.sweep --workers 1"
    commands = {ours: _sweep_command(file, out, plan.table_seeds),
                alone: _sweep_command(file, scratch / "table-1", plan.table_seeds, "1")}
    if gx is not None:
        commands["genoxide"] = [sys.executable, "-m", "gaqueens.bench", "--genoxide-table",
                                boards, "--seeds", seeds]
    names, walls, medians = list(commands), {name: [] for name in commands}, {}
    for repetition in range(plan.table_repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            seconds, output = (_wall if name == "genoxide" else _sweep_wall)(commands[name])
            walls[name].append(seconds)
            report.row(section="table", engine=name, board="table", seeds=seeds,
                       repetition=repetition, seconds=seconds, evaluations="")
            if name == ours:
                medians[name] = _our_medians(out / "summary.csv")
            elif name == "genoxide":
                medians[name] = {int(b): f"{m:g}" for b, m in json.loads(output).items()}
    report.say(f"- {ours}, {os.cpu_count()} workers (the default), tables and plots: "
               f"{_spread(walls[ours])} s")
    report.say(f"- {alone}, the same in one process: {_spread(walls[alone])} s")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    else:
        report.say(f"- genoxide, one process: {_spread(walls['genoxide'])} s")
        for name in (ours, alone):
            ratios = [mine / theirs for mine, theirs in zip(walls[name], walls["genoxide"])]
            report.say(f"- ratio {name} / genoxide: {_spread(ratios)}")
    report.say()
    report.say("| board | published | " + " | ".join(f"{name} median evaluations"
                                                  for name in medians) + " |")
    report.say("|---" * (len(medians) + 2) + "|")
    for board in medians["gaqueens.sweep"]:
        report.say(f"| {board} | {experiment.reference.get(board, '')} | "
                   + " | ".join(m.get(board, "") for m in medians.values()) + " |")
    report.say()


def genoxide_table(boards: str, seeds: str) -> dict[int, float]:
    """The internal mode --genoxide-table 8,16 --seeds 1..100: genoxide's single-process sweep
    of those boards and seeds; its median evaluations per board. It imports no more than
    genoxide and the board, as a program of its own would."""
    gx = _genoxide()
    first, last = map(int, seeds.split(".."))
    medians = {}
    for board in map(int, boards.split(",")):
        fitness = Conflicts(board)
        evaluations = []
        for seed in range(first, last + 1):
            result = genoxide_run(gx, board, seed, fitness)
            evaluations.append(result.evaluations if result.best_fitness == 0 else sys.maxsize)
        medians[board] = statistics.median(evaluations)
    return medians


def main_job(plan: Plan, report: Report, scratch: Path) -> None:
    """The main job end to end, and where its start-up goes."""
    file = EXPERIMENTS / "n8.yaml"
    report.say(f"### (c) The main job: python -m gaqueens.sweep {file.relative_to(ROOT)}, end to "
               f"end, {_times(plan.job_repeats)}")
    report.say()
    if not file.exists():
        report.say(f"- skipped: {file} is missing")
        report.say()
        return
    command = _sweep_command(file, scratch / "n8", None)
    walls = []
    for repetition in range(plan.job_repeats):
        walls.append(_sweep_wall(command)[0])
        report.row(section="main-job", engine="gaqueens.sweep", board=8, seeds="1..100",
                   repetition=repetition, seconds=walls[-1], evaluations="")
    report.say(f"- wall time: {_spread(walls)} s")
    python = _wall([sys.executable, "-c", "pass"])[0]
    imports = _wall([sys.executable, "-c", "import gaqueens.sweep"])[0]
    report.say(f"- start-up: Python {python:.2f} s; Python and `import gaqueens.sweep` "
               f"{imports:.2f} s")
    if plan.importtime:
        report.say(f"- imports, by package (python -X importtime, own time of its modules): "
                   f"{_imports(command)}")
    report.say()


def _imports(command: list[str]) -> str:
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], cwd=ROOT,
                          capture_output=True, text=True)
    total: dict[str, int] = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            own = int(parts[0].removeprefix("import time:"))  # self time: no double counting
            root = parts[2].strip().split(".")[0]
            total[root] = total.get(root, 0) + own
    top = sorted(total.items(), key=lambda item: -item[1])[:8]
    return ", ".join(f"{name} {us / 1e3:.0f} ms" for name, us in top) + (
        f"; all {sum(total.values()) / 1e6:.2f} s")


# ---- (d) per board: local search, GA, naive DEAP GA -------------------------------------------


def per_board(plan: Plan, report: Report) -> None:
    """Median wall time of one run per board, and how many times the local search is faster."""
    from gaqueens import deap_ga, ga
    from gaqueens.algorithms import ALGORITHMS, execute

    published = _published()
    local_search = ALGORITHMS["local-search"].settings()
    runners = {
        "local-search": lambda board, seed: execute("local-search", local_search, board, seed),
        "ga": lambda board, seed: ga.run(published, board, seed),
        "deap_ga (naive)": lambda board, seed: deap_ga.run(published, board, seed),
    }
    names = list(runners)
    report.say(f"### (d) Per board: median wall time of one run, seeds {_seeds(plan.board_seeds)}")
    report.say()
    ratios = [("ga", "local-search"), ("deap_ga (naive)", "local-search"), ("deap_ga (naive)", "ga")]
    report.say("| board | " + " | ".join(names) + " | "
               + " | ".join(f"{slow} / {fast}" for slow, fast in ratios) + " |")
    report.say("|---" * (1 + len(names) + len(ratios)) + "|")
    for board in plan.boards:
        seconds = {name: [] for name in names}
        for i, seed in enumerate(plan.board_seeds):
            for name in names[i % len(names):] + names[:i % len(names)]:
                start = time.perf_counter()
                result = runners[name](board, seed)
                seconds[name].append(time.perf_counter() - start)
                report.row(section="per-board", engine=name, board=board, seeds=seed,
                           repetition=0, seconds=seconds[name][-1], evaluations=result.evaluations)
        median = {name: statistics.median(values) for name, values in seconds.items()}
        cells = [f"{median[name] * 1e3:.3g} ms" for name in names]
        cells += [f"{median[slow] / median[fast]:.3g}" for slow, fast in ratios]
        report.say(f"| {board} | " + " | ".join(cells) + " |")
    report.say()


# ---- reference evaluations ---------------------------------------------------------------------


def reference_evaluations(path: Path) -> None:
    """The internal mode --reference-evaluations: genoxide's evaluations and generations per
    board and seed, for the statistical test of the engine (tests/test_reference.py)."""
    gx = _genoxide()
    text = io.StringIO()
    text.write(f"# genoxide {gx.__version__}, published settings, board.Conflicts; written by: "
               f"python -m gaqueens.bench --reference-evaluations {path}\n")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["board", "seed", "evaluations", "generations"])
    for board in REFERENCE_BOARDS:
        fitness = Conflicts(board)
        for seed in REFERENCE_SEEDS:
            result = genoxide_run(gx, board, seed, fitness)
            if result.best_fitness != 0:
                raise RuntimeError(f"genoxide did not solve board {board}, seed {seed}")
            writer.writerow([board, seed, result.evaluations, result.generations])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.getvalue(), encoding="utf-8")


# ---- the command ---------------------------------------------------------------------------------


def _header(report: Report, plan: Plan, gx) -> None:
    from importlib.metadata import version as installed

    from gaqueens import manifest

    code = manifest.code(manifest.checkout(), installed("gaqueens"))
    version = gx.__version__ if gx is not None else f"not installed ({INSTALL})"
    quick = " (--quick: a smoke run, not a measurement)" if plan.quick else ""
    report.say(f"**gaqueens benchmark**{quick}: `python -m gaqueens.bench`, "
               f"{time.strftime('%Y-%m-%d %H:%M')}, {code}; {platform.platform()}, "
               f"{os.cpu_count()} cores; Python {platform.python_version()}, numpy "
               f"{installed('numpy')}, DEAP {installed('deap')}, genoxide {version}; load "
               "average {:.1f} {:.1f} {:.1f} at the start".format(*os.getloadavg()))
    if gx is not None and gx.__version__ != GENOXIDE_VERSION:
        report.say(f"warning: the yardstick is genoxide {GENOXIDE_VERSION}, not {gx.__version__}")
    report.say()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gaqueens.bench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--out", type=Path, help="write bench.md and bench.csv into this folder")
    parser.add_argument("--repeats", type=int, default=Plan.repeats,
                        help=f"repetitions of the engine comparison (default {Plan.repeats})")
    parser.add_argument("--genoxide-table", metavar="BOARDS", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", help=argparse.SUPPRESS)
    parser.add_argument("--reference-evaluations", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if (args.genoxide_table or args.reference_evaluations) and _genoxide() is None:
        print(f"error: this needs genoxide: {INSTALL}", file=sys.stderr)
        return 2
    if args.genoxide_table:
        print(json.dumps(genoxide_table(args.genoxide_table, args.seeds or "1..100")))
        return 0
    if args.reference_evaluations:
        reference_evaluations(args.reference_evaluations)
        return 0
    if args.repeats < 1:
        parser.error("--repeats must be a whole number >= 1")
    plan = QUICK if args.quick else Plan()
    if args.repeats != Plan.repeats:
        plan = replace(plan, repeats=args.repeats)
    gx = _genoxide()
    report = Report()
    _header(report, plan, gx)
    with tempfile.TemporaryDirectory(prefix="gaqueens-bench-") as scratch:
        engine_cost(plan, report, gx)
        table_sweep(plan, report, gx, Path(scratch))
        main_job(plan, report, Path(scratch))
        per_board(plan, report)
    report.say("Load average {:.1f} {:.1f} {:.1f} at the end: other work on the machine slows "
               "the parallel sweep most.".format(*os.getloadavg()))
    if args.out:
        report.write(args.out)
        print(f"wrote {args.out / 'bench.md'} and {args.out / 'bench.csv'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
