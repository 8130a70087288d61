"""The two engines agree, as far as the check can see: engine: numpy and engine: deap, scheme
by variation, each row with the smallest shift it detects; and DEAP's own N-Queens example
against engine: deap, seed for seed.

    python -m gaqueens.bench.agreement [--seeds FIRST..LAST] [--board N] [--example-seeds K]
                                       [--out DIR] [--workers K]

(1) For each scheme (mu+lambda, mu,lambda, simple) and variation (each, and, or): the same
settings on both engines (``settings``: the published GA with PMX crossover at cxpb 0.5 and,
for and/or, mutpb 0.5; at most GENERATIONS generations) on board 12, over the same seeds, 1 to
each row's own number (SEEDS; --seeds FIRST..LAST gives every row the same). Two control rows
say what the check tells apart: engine: deap with uniform parents and with a tournament of 3,
each against the numpy engine's published tournament of 2. The engines draw different random
numbers, so a seed's two runs are unrelated and the check is on distributions. The work is the
evaluations to a solution; a run unsolved within the limit counts as the worst. Each row has
one test, chosen in advance: the two-sided Mann-Whitney test (scipy.stats.mannwhitneyu), with
Holm's correction over the table's p-values; beside it, the smallest shift the row detects by
simulation, and its verdict (gaqueens.bench.agreement_power). agreement.csv has a row per
comparison (COLUMNS): the runs solved and the median evaluations on each engine ("inf" where
the median is an unsolved run), deap's median over numpy's with its 95% bootstrap interval,
"deap takes more" (mw_share: the chance that a run of engine: deap takes more evaluations
than one of engine: numpy, ties counted half), the Mann-Whitney p-value before and after
Holm's correction, the smallest shift detected (empty when none below 100% is) and the
verdict; agreement.md shows them formatted and says how to read them.

The seeds. A row's seeds for detecting a shift of 15% are set by the spread of its work and
their cost by engine: deap, the slower engine; the or rows of mu,lambda and simple, where most
runs do not solve within the limit, would need thousands. The defaults give the published
scheme (mu+lambda/each) and mu+lambda/or enough for 15%, the controls what they need to
differ, and every other row a few hundred seeds at most: those say what they detect. Board 12:
the selection matters there (on board 8 it barely does), and most rows solve most of their runs
(on board 16 some solve almost none). Mann-Whitney alone: it detected more than the former four
tests a row (Fisher, Kolmogorov-Smirnov, Anderson-Darling and it, Holm over all) in every row.

(2) DEAP's own example (gaqueens.bench.deap_example), run by DEAP alone, against the ga of
experiments/deap-example.yaml on engine: deap, seeds 1..100: the same best individual,
evaluations and logbook up to each run's last generation.

Writes DIR/agreement.md and DIR/agreement.csv (default results/agreement); prints the report.
Exit status: 0 done, 2 bad input (one line naming it).
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from gaqueens.runtime.executors import starmap
from gaqueens import cli
from gaqueens.cli import Parser
from gaqueens.experiment import BadInput, parse_seeds
from gaqueens.core.files import folder_problem, write_text
from gaqueens.ga import SCHEMES, VARIATIONS, GaSettings
from gaqueens.bench.agreement_power import compare, verdict
from gaqueens.bench.agreement_report import report
from gaqueens.ga.operators import make

BOARD, GENERATIONS = 12, 500
SEEDS = {  # each row's default seeds, 1 to N (the docstring says how they were chosen)
    ("mu+lambda", "each"): 2000, ("mu+lambda", "and"): 500, ("mu+lambda", "or"): 2400,
    ("mu,lambda", "each"): 150, ("mu,lambda", "and"): 400, ("mu,lambda", "or"): 50,
    ("simple", "each"): 100, ("simple", "and"): 400, ("simple", "or"): 50,
}
CONTROL_SEEDS = {"uniform parents": 1000, "a tournament of 3": 2000}
CHUNK = 25  # seeds per task
EXAMPLE_SEEDS = range(1, 101)
OUT = Path("results") / "agreement"
COLUMNS = ("scheme", "variation", "compared", "board", "seeds", "numpy_solved", "deap_solved",
           "numpy_median", "deap_median", "median_ratio", "ci_low", "ci_high", "mw_share",
           "mw_p", "p_holm", "detects", "verdict")


@dataclass(frozen=True)
class Comparison:
    """A row of the table: engine: numpy's settings against engine: deap's, over seeds 1 to
    ``seeds`` by default."""

    scheme: str
    variation: str
    compared: str
    numpy: GaSettings
    deap: GaSettings
    seeds: int

    @property
    def control(self) -> bool:
        return self.compared.startswith("control")


def settings(scheme: str, variation: str, engine: str, **changes) -> GaSettings:
    chosen = dict(engine=engine, scheme=scheme, variation=variation,
                  crossover=make("crossover", "pmx"), cxpb=0.5,
                  generations=GENERATIONS)
    if variation != "each":
        chosen["mutpb"] = 0.5
    return replace(GaSettings(**chosen), **changes)


def comparisons() -> list[Comparison]:
    """The rows: every scheme and variation with the same settings on both engines, then the
    two controls."""
    rows = [Comparison(scheme, variation, "the same settings", settings(scheme, variation, "numpy"),
                       settings(scheme, variation, "deap"), SEEDS[scheme, variation])
            for scheme in SCHEMES for variation in VARIATIONS]
    published = settings("mu+lambda", "each", "numpy")
    rows += [Comparison("mu+lambda", "each", f"control: deap with {name}", published,
                        settings("mu+lambda", "each", "deap", select=select), CONTROL_SEEDS[name])
             for name, select in (("uniform parents", make("select", "uniform")),
                                  ("a tournament of 3", make("select", "tournament", size=3)))]
    return rows


def _runs(ga_settings: GaSettings, board: int, seeds: list[int]) -> list[tuple[bool, int, int]]:
    """(solved, evaluations, generations) of each seed's run."""
    from gaqueens.ga import run

    return [(result.solved, result.work, result.generations)
            for result in (run(ga_settings, board, seed) for seed in seeds)]


def engines(board: int, seeds: range | None, workers: int,
            rows_of: list[Comparison] | None = None) -> list[dict]:
    """A row per comparison (COLUMNS; default ``comparisons()``), over ``seeds`` (None: each
    row's own, 1 to its ``seeds``), with the p_holm and verdict filled in over the table. Runs
    that several rows share (the published settings on engine: numpy, for the controls) are
    made once."""
    from gaqueens.reports import stats

    rows_of = comparisons() if rows_of is None else rows_of
    chosen = [range(1, row.seeds + 1) if seeds is None else seeds for row in rows_of]
    spans = {}  # settings -> the seeds run with them: those of every row that uses them
    for row, row_seeds in zip(rows_of, chosen):
        for each in (row.deap, row.numpy):
            low, high = spans.get(each, (row_seeds.start, row_seeds.stop))
            spans[each] = (min(low, row_seeds.start), max(high, row_seeds.stop))
    order = sorted(spans, key=lambda each: each.engine != "deap")  # the slower engine first
    tasks = [(each, board, list(range(start, min(start + CHUNK, spans[each][1]))))
             for each in order for start in range(*spans[each], CHUNK)]
    done = iter(starmap(_runs, tasks, workers))
    ran = {each: np.array([run for _ in range(*spans[each], CHUNK) for run in next(done)],
                          dtype=float) for each in order}

    def runs(each: GaSettings, row_seeds: range) -> np.ndarray:
        first = spans[each][0]
        return ran[each][row_seeds.start - first:row_seeds.stop - first]

    analyses = starmap(compare, [
        (runs(row.numpy, s), runs(row.deap, s), len(rows_of), index, row.deap.generations)
        for index, (row, s) in enumerate(zip(rows_of, chosen))], workers)
    rows = [{"scheme": row.scheme, "variation": row.variation, "compared": row.compared,
             "board": board, "seeds": f"{s.start}..{s.stop - 1}", **analysis}
            for row, s, analysis in zip(rows_of, chosen, analyses)]
    for row, p in zip(rows, stats.holm([row["mw_p"] for row in rows])):
        row["p_holm"] = float(p)
        row["verdict"] = verdict(row["p_holm"], row["detects"])
    return rows


def _example(seeds: list[int]) -> list[str | None]:
    from gaqueens.bench import deap_example
    from gaqueens.ga import run

    ga = deap_example.settings()
    return [deap_example.same_as_ours(run(ga, deap_example.QUEENS, seed), seed) for seed in seeds]


def example(seeds: range, workers: int) -> tuple[int, list[str]]:
    """(seeds compared, what differed) for DEAP's example against engine: deap."""
    chunks = [(list(seeds[i:i + 10]),) for i in range(0, len(seeds), 10)]
    problems = [p for chunk in starmap(_example, chunks, workers) for p in chunk if p]
    return len(seeds), problems


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = Parser(prog="python -m gaqueens.bench.agreement",
                    description="Compare engine: numpy with engine: deap, and DEAP's example "
                                "with engine: deap.")
    parser.add_argument("--seeds", help="FIRST..LAST for every row (default: each row's own, "
                                         "SEEDS)")
    parser.add_argument("--board", type=int, default=BOARD, help=f"the board (default {BOARD})")
    parser.add_argument("--example-seeds", type=int, default=len(EXAMPLE_SEEDS),
                        help="seeds of DEAP's example to compare, from 1 (default 100)")
    parser.add_argument("--out", default=str(OUT), help=f"output folder (default {OUT})")
    parser.add_argument("--workers", type=int, help="local processes (default: all cores)")
    args = parser.parse_args(argv)
    return cli.run(lambda: _agreement(args, argv))


def _agreement(args, argv) -> None:
    seeds = None
    if args.seeds is not None:
        first, last = parse_seeds(args.seeds)
        seeds = range(first, last + 1)
    if args.board < 4:
        raise BadInput(f"--board must be at least 4, got {args.board}")
    if args.workers is not None and args.workers < 1:
        raise BadInput(f"--workers must be a whole number >= 1, got {args.workers}")
    if args.example_seeds < 0:
        raise BadInput(f"--example-seeds must be a whole number >= 0, got {args.example_seeds}")
    if folder_problem(args.out):
        raise BadInput(f"--out {args.out} {folder_problem(args.out)}")
    workers = args.workers or os.cpu_count() or 1
    rows = engines(args.board, seeds, workers)
    compared, problems = example(range(1, args.example_seeds + 1), workers)
    text = report(rows, compared, problems, argv, GENERATIONS)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import pandas as pd

    write_text(out / "agreement.csv", pd.DataFrame(rows, columns=COLUMNS).to_csv(index=False))
    write_text(out / "agreement.md", text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
