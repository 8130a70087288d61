"""The two engines agree: engine: numpy and engine: deap, scheme by variation, and DEAP's own
N-Queens example against engine: deap, seed for seed.

    python -m gaqueens.bench.agreement [--seeds FIRST..LAST] [--board N] [--out DIR] [--workers K]

(1) For each scheme (mu+lambda, mu,lambda, simple) and variation (each, and, or): the same
settings on both engines (SETTINGS: the published GA with PMX crossover at cxpb 0.5 and, for
and/or, mutpb 0.5; at most GENERATIONS generations) over the same seeds (default 1..500, board
12). The runs draw different random numbers on each engine, so the check is on
distributions: the success rates (Fisher's exact test) and the evaluations to a solution,
unsolved runs ranked as the worst (Kolmogorov-Smirnov, Anderson-Darling, Mann-Whitney), all
from scipy.stats, Holm's correction over every p-value of the table; "agree" when none rejects
at ALPHA (0.01) after it. Two control rows say what the check can detect at these seeds: engine:
deap with uniform parents, and with a tournament of 3, each against the numpy engine's
tournament of 2 (mu+lambda, each).
(2) DEAP's own example (gaqueens.bench.deap_example), run by DEAP alone, against the ga of
experiments/deap-example.yaml on engine: deap, seeds 1..100: the same best individual,
evaluations and logbook up to each run's last generation.

Writes DIR/agreement.md and DIR/agreement.csv (default results/agreement); prints the report.
Exit status: 0 done, 2 bad input.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from gaqueens import manifest
from gaqueens.executors import starmap
from gaqueens.bench.common import EXPERIMENTS
from gaqueens.cli import Parser
from gaqueens.experiment import BadInput, load, parse_seeds
from gaqueens.files import folder_problem, write_text
from gaqueens.ga import SCHEMES, VARIATIONS, GaSettings
from gaqueens.ga.operators import Pmx, Tournament, Uniform

BOARD, SEEDS, GENERATIONS, ALPHA = 12, (1, 500), 500, 0.01
EXAMPLE_SEEDS = range(1, 101)
OUT = Path("results") / "agreement"
COLUMNS = ("scheme", "variation", "compared", "board", "seeds", "numpy_solved", "deap_solved", "fisher_p",
           "numpy_median", "deap_median", "median_ratio", "ci_low", "ci_high", "ks_p", "ad_p",
           "mw_p", "p_holm", "verdict")


def settings(scheme: str, variation: str, engine: str, **changes) -> GaSettings:
    chosen = dict(engine=engine, scheme=scheme, variation=variation, crossover=Pmx(), cxpb=0.5,
                  generations=GENERATIONS)
    if variation != "each":
        chosen["mutpb"] = 0.5
    return replace(GaSettings(**chosen), **changes)


def comparisons() -> list[tuple[str, str, str, GaSettings, GaSettings]]:
    """(scheme, variation, what is compared, numpy settings, deap settings)."""
    rows = [(scheme, variation, "the same settings", settings(scheme, variation, "numpy"),
             settings(scheme, variation, "deap"))
            for scheme in SCHEMES for variation in VARIATIONS]
    published = settings("mu+lambda", "each", "numpy")
    rows += [("mu+lambda", "each", f"control: deap with {name}", published,
              settings("mu+lambda", "each", "deap", select=select))
             for name, select in (("uniform parents", Uniform()), ("a tournament of 3", Tournament(3)))]
    return rows


def _runs(ga_settings: GaSettings, board: int, seeds: list[int]) -> list[tuple[bool, int]]:
    from gaqueens.ga import run

    return [(result.solved, result.evaluations)
            for result in (run(ga_settings, board, seed) for seed in seeds)]


def engines(board: int, seeds: range, workers: int) -> list[dict]:
    """A row per comparison (COLUMNS), the p_holm and verdict filled in over the table."""
    from scipy.stats import fisher_exact

    from gaqueens.reports import stats

    rows_of = comparisons()
    chunks = [list(seeds[i:i + 50]) for i in range(0, len(seeds), 50)]
    tasks = [(s, board, chunk) for row in rows_of for s in row[3:] for chunk in chunks]
    done = iter(starmap(_runs, tasks, workers))
    rows = []
    for scheme, variation, compared, *_ in rows_of:
        samples = []
        for _ in range(2):
            runs = [run for _ in chunks for run in next(done)]
            solved = np.array([s for s, _ in runs])
            samples.append((solved, np.where(solved, [e for _, e in runs], np.inf)))
        (numpy_solved, numpy_work), (deap_solved, deap_work) = samples
        table = [[numpy_solved.sum(), (~numpy_solved).sum()], [deap_solved.sum(), (~deap_solved).sum()]]
        ratio, low, high = stats.median_ratio(deap_work, numpy_work, np.random.default_rng(0))
        rows.append({
            "scheme": scheme, "variation": variation, "compared": compared, "board": board,
            "seeds": f"{seeds.start}..{seeds.stop - 1}",
            "numpy_solved": int(numpy_solved.sum()), "deap_solved": int(deap_solved.sum()),
            "fisher_p": float(fisher_exact(table).pvalue),
            "numpy_median": float(np.median(numpy_work)), "deap_median": float(np.median(deap_work)),
            "median_ratio": ratio, "ci_low": low, "ci_high": high,
            "ks_p": stats.kolmogorov_smirnov(numpy_work, deap_work),
            "ad_p": stats.anderson_darling(numpy_work, deap_work),
            "mw_p": stats.mann_whitney(deap_work, numpy_work)[0],
        })
    tests = ("fisher_p", "ks_p", "ad_p", "mw_p")
    adjusted = stats.holm([row[t] for row in rows for t in tests]).reshape(len(rows), len(tests))
    for row, p in zip(rows, adjusted):
        row["p_holm"] = float(np.nanmin(p))
        row["verdict"] = "agree" if row["p_holm"] >= ALPHA else "differ"
    return rows


def _example(seeds: list[int]) -> list[str | None]:
    from gaqueens.bench import deap_example
    from gaqueens.ga import run

    ga = load(EXPERIMENTS / "deap-example.yaml").entry("ga").settings
    return [deap_example.same_as_ours(run(ga, deap_example.QUEENS, seed), seed) for seed in seeds]


def example(seeds: range, workers: int) -> tuple[int, list[str]]:
    """(seeds compared, what differed) for DEAP's example against engine: deap."""
    chunks = [(list(seeds[i:i + 10]),) for i in range(0, len(seeds), 10)]
    problems = [p for chunk in starmap(_example, chunks, workers) for p in chunk if p]
    return len(seeds), problems


def report(rows: list[dict], compared: int, problems: list[str], argv: list[str]) -> str:
    import pandas as pd

    from gaqueens.reports.tables import markdown, number

    command = "python -m gaqueens.bench.agreement" + ("" if not argv else " " + " ".join(argv))
    table = pd.DataFrame([{
        "scheme": row["scheme"], "variation": row["variation"], "compared": row["compared"],
        "solved: numpy / deap": f"{row['numpy_solved']} / {row['deap_solved']}",
        "median evaluations: numpy / deap": f"{number(row['numpy_median'])} / {number(row['deap_median'])}",
        "deap / numpy (95% CI)": f"{row['median_ratio']:.2f} ({row['ci_low']:.2f} to {row['ci_high']:.2f})",
        "p: Fisher / KS / AD / MW": " / ".join(f"{row[t]:.2g}" for t in ("fisher_p", "ks_p", "ad_p", "mw_p")),
        "Holm p": f"{row['p_holm']:.2g}", "verdict": row["verdict"],
    } for row in rows])
    agreeing = sum(row["verdict"] == "agree" for row in rows if not row["compared"].startswith("control"))
    example_line = (f"{compared - len(problems)} of {compared} seeds equal: the same best "
                    "individual, evaluations, and logbook min and max per generation"
                    + ("" if not problems else "; " + "; ".join(problems[:5])))
    return "\n\n".join([
        "# The engines agree: engine: numpy against engine: deap",
        f"`{command}`: {manifest.exporter()}.",
        f"Board {rows[0]['board']}, seeds {rows[0]['seeds']}; {agreeing} of "
        f"{len(SCHEMES) * len(VARIATIONS)} scheme-variation pairs agree.",
        markdown(table),
        "Settings: the published GA with PMX crossover at cxpb 0.5 (and mutpb 0.5 for and/or), "
        f"at most {GENERATIONS} generations; unsolved runs count as the worst. Holm's correction "
        f"over all {4 * len(rows)} p-values; agree when none is below {ALPHA} after it. The "
        "control rows show what these seeds can detect.",
        "## DEAP's own N-Queens example, run by DEAP, against engine: deap",
        example_line,
    ]) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = Parser(prog="python -m gaqueens.bench.agreement",
                    description="Compare engine: numpy with engine: deap, and DEAP's example "
                                "with engine: deap.")
    parser.add_argument("--seeds", default=f"{SEEDS[0]}..{SEEDS[1]}", help="FIRST..LAST (default 1..500)")
    parser.add_argument("--board", type=int, default=BOARD, help=f"the board (default {BOARD})")
    parser.add_argument("--example-seeds", type=int, default=len(EXAMPLE_SEEDS),
                        help="seeds of DEAP's example to compare, from 1 (default 100)")
    parser.add_argument("--out", default=str(OUT), help=f"output folder (default {OUT})")
    parser.add_argument("--workers", type=int, help="local processes (default: all cores)")
    args = parser.parse_args(argv)
    try:
        first, last = parse_seeds(args.seeds)
        if args.board < 4:
            raise BadInput(f"--board must be at least 4, got {args.board}")
        if args.workers is not None and args.workers < 1:
            raise BadInput(f"--workers must be a whole number >= 1, got {args.workers}")
        if args.example_seeds < 0:
            raise BadInput(f"--example-seeds must be a whole number >= 0, got {args.example_seeds}")
        if folder_problem(args.out):
            raise BadInput(f"--out {args.out} {folder_problem(args.out)}")
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    workers = args.workers or os.cpu_count() or 1
    rows = engines(args.board, range(first, last + 1), workers)
    compared, problems = example(range(1, args.example_seeds + 1), workers)
    text = report(rows, compared, problems, argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import pandas as pd

    write_text(out / "agreement.csv", pd.DataFrame(rows, columns=COLUMNS).to_csv(index=False))
    write_text(out / "agreement.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
