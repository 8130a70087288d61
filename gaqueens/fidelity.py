"""Fidelity: the engine's runs of the published GA against genoxide 0.13.1's, seed for seed in
number, board by board.

    python -m gaqueens.fidelity [--seeds FIRST..LAST] [--boards 8,16,32,64,128]
                                [--reference FILE] [--out DIR] [--workers K]

Runs the published GA for every board and seed (default: boards 8 to 128, seeds 1 to 1,000,
on every core) and compares its evaluations with genoxide's stored runs of the same seeds
(REFERENCE, written by `python -m gaqueens.bench.reference FILE`). The random numbers are not
genoxide's, so the check is on distributions. Per board: both medians, the
ratio of ours to genoxide's with its 95% bootstrap interval, and the p-values of the
Kolmogorov-Smirnov, Anderson-Darling and Mann-Whitney tests (gaqueens.reports.stats). The
verdict:

    equivalent    the interval of the ratio lies within BAND (0.9 to 1.1) and no test rejects
                  at ALPHA (0.01)
    different     a test rejects at ALPHA
    inconclusive  no test rejects, but the interval reaches beyond BAND (too few seeds)

Counting: genoxide skips evaluating a child identical to one of its parents (under one
evaluation per run on average); gaqueens counts every child, 20 + 20 g after g generations.
Both are compared by 20 + 20 g, from the generations each stored; the table also gives
genoxide's own median count and how many evaluations it skipped per run.

Writes DIR/fidelity.md and DIR/fidelity.csv (default results/fidelity), each whole or not at
all, and prints the table; exit statuses as every command's (gaqueens/cli.py).
"""

from __future__ import annotations

import csv
import os
import sys
from importlib import resources
from pathlib import Path

import numpy as np

from gaqueens import cli
from gaqueens.runtime import executors, manifest
from gaqueens.cli import Parser
from gaqueens.experiment import BadInput, parse_seeds
from gaqueens.core.files import folder_problem, read_file, write_text

BOARDS = (8, 16, 32, 64, 128)
SEEDS = (1, 1000)
REFERENCE = "the shipped genoxide-evaluations.csv"  # gaqueens/data, written by bench.reference
OUT = Path("results") / "fidelity"
BAND = (0.9, 1.1)
ALPHA = 0.01
COLUMNS = ("board", "seeds", "gaqueens_median", "genoxide_median", "median_ratio", "ci_low",
           "ci_high", "ks_p", "ad_p", "mw_p", "verdict", "genoxide_own_median",
           "genoxide_skipped_per_run")


def shipped_reference():
    """genoxide's stored runs shipped with the package (gaqueens/data/genoxide-evaluations.csv)."""
    return resources.files("gaqueens").joinpath("data/genoxide-evaluations.csv")


def read_reference(path=None) -> dict[int, dict[int, tuple[int, int]]]:
    """genoxide's runs, from ``path`` or the shipped file: board -> seed -> (its own
    evaluations, generations). BadInput if the file is missing or not such a CSV."""
    path = shipped_reference() if path is None else Path(path)
    try:
        text = read_file(path).decode("utf-8") if isinstance(path, Path) else path.read_text()
        rows = list(csv.DictReader(line for line in text.splitlines()
                                   if not line.startswith("#")))
        out: dict[int, dict[int, tuple[int, int]]] = {}
        for row in rows:
            out.setdefault(int(row["board"]), {})[int(row["seed"])] = (
                int(row["evaluations"]), int(row["generations"]))
    except OSError as error:
        raise BadInput(f"{path}: cannot read genoxide's runs ({error.strerror}); write them with "
                       "python -m gaqueens.bench.reference FILE") from None
    except (KeyError, TypeError, ValueError):
        raise BadInput(f"{path}: expected a CSV with columns board, seed, evaluations, "
                       "generations (as python -m gaqueens.bench.reference writes)") from None
    return out


def _evaluations(board: int, seeds: list[int]) -> list[int]:
    from gaqueens.ga import GaSettings, run

    settings = GaSettings()
    return [run(settings, board, seed).work for seed in seeds]


def chunks_of(boards, seeds: range) -> list[tuple[int, list[int]]]:
    """The tasks of ``our_evaluations``: a board and up to 50 seeds each."""
    return [(board, list(seeds[i:i + 50])) for board in boards for i in range(0, len(seeds), 50)]


def our_evaluations(boards, seeds: range, workers: int = 1) -> dict[int, np.ndarray]:
    """The engine's evaluations per board, in seed order, on ``workers`` processes."""
    chunks = chunks_of(boards, seeds)
    results = executors.starmap(_evaluations, chunks, workers)
    out: dict[int, list[int]] = {board: [] for board in boards}
    for (board, _), evaluations in zip(chunks, results):
        out[board] += evaluations
    return {board: np.array(values) for board, values in out.items()}


def compare(ours, theirs, rng: np.random.Generator) -> dict:
    """The comparison of two samples of evaluations: medians, ratio with its interval, the
    three tests' p-values and the verdict (keys as COLUMNS, without board and seeds)."""
    from gaqueens.reports import stats  # scipy.stats

    ratio, low, high = stats.median_ratio(ours, theirs, rng)
    row = {
        "gaqueens_median": float(np.median(ours)),
        "genoxide_median": float(np.median(theirs)),
        "median_ratio": ratio, "ci_low": low, "ci_high": high,
        "ks_p": stats.kolmogorov_smirnov(ours, theirs),
        "ad_p": stats.anderson_darling(ours, theirs),
        "mw_p": stats.mann_whitney(ours, theirs)[0],
    }
    row["verdict"] = verdict(row)
    return row


def verdict(row: dict) -> str:
    if min(row["ks_p"], row["ad_p"], row["mw_p"]) < ALPHA:
        return "different"
    if BAND[0] <= row["ci_low"] and row["ci_high"] <= BAND[1]:
        return "equivalent"
    return "inconclusive"


def fidelity(boards, seeds: range, reference: dict, workers: int) -> list[dict]:
    """A row per board, with COLUMNS."""
    from gaqueens.ga import GaSettings

    published = GaSettings()
    ours = our_evaluations(boards, seeds, workers)
    rows = []
    for board in boards:
        runs = np.array([reference[board][seed] for seed in seeds])
        theirs = published.population + published.offspring * runs[:, 1]
        row = {"board": board, "seeds": f"{seeds.start}..{seeds.stop - 1}"}
        row |= compare(ours[board], theirs, np.random.default_rng(0))
        row["genoxide_own_median"] = float(np.median(runs[:, 0]))
        row["genoxide_skipped_per_run"] = float(np.mean(theirs - runs[:, 0]))
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    import pandas as pd

    from gaqueens.reports.tables import markdown as table, number

    return table(pd.DataFrame([{
        "board": row["board"],
        "seeds": row["seeds"],
        "gaqueens median": number(row["gaqueens_median"]),
        "genoxide median": number(row["genoxide_median"]),
        "ratio (95% CI)": f"{row['median_ratio']:.3f} ({row['ci_low']:.3f} to {row['ci_high']:.3f})",
        "KS p": f"{row['ks_p']:.2g}",
        "AD p": f"{row['ad_p']:.2g}",
        "MW p": f"{row['mw_p']:.2g}",
        "verdict": row["verdict"],
        "genoxide's own count: median, skipped per run": (
            f"{number(row['genoxide_own_median'])}, {row['genoxide_skipped_per_run']:.2f}"),
    } for row in rows]))


NOTE = (
    "Evaluations of gaqueens.ga (GaSettings(), the published settings) and of genoxide 0.13.1's "
    "N-Queens example ({reference}), both counted as 20 + 20 g after g "
    "generations. Ratio: our median over genoxide's, with its 95% percentile-bootstrap "
    "interval. p-values of the two-sided Kolmogorov-Smirnov (conservative with the ties of "
    "steps of 20), Anderson-Darling (k-sample, midrank; scipy floors it at 0.001 and caps it "
    "at 0.25) and Mann-Whitney U tests. Verdict: equivalent when the ratio's interval lies "
    "within {low} to {high} and no test rejects at alpha {alpha}; different when a test "
    "rejects; inconclusive otherwise."
)


def report(rows: list[dict], argv: list[str], reference: str) -> str:
    command = "python -m gaqueens.fidelity" + ("" if not argv else " " + " ".join(argv))
    return "\n\n".join([
        "# Fidelity: gaqueens.ga against genoxide 0.13.1",
        f"`{command}`: {manifest.exporter()}.",
        markdown(rows),
        NOTE.format(low=BAND[0], high=BAND[1], alpha=ALPHA, reference=reference),
    ]) + "\n"


def _parser() -> Parser:
    parser = Parser(prog="python -m gaqueens.fidelity",
                    description="Compare the engine's runs with genoxide's, board by board.")
    parser.add_argument("--seeds", default=f"{SEEDS[0]}..{SEEDS[1]}",
                        help="FIRST..LAST, inclusive (default 1..1000)")
    parser.add_argument("--boards", default=",".join(map(str, BOARDS)),
                        help="comma-separated boards (default 8,16,32,64,128)")
    parser.add_argument("--reference", help=f"genoxide's runs (default: {REFERENCE})"),
    parser.add_argument("--out", default=str(OUT), help=f"output folder (default {OUT})")
    parser.add_argument("--workers", type=int, help="local processes (default: all cores)")
    return parser


def _boards(text: str) -> tuple[int, ...]:
    try:
        boards = tuple(int(part) for part in text.split(","))
    except ValueError:
        boards = ()
    if not boards or min(boards) < 4:
        raise BadInput(f"--boards must be comma-separated board sizes >= 4, e.g. 8,16, got {text!r}")
    return boards


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    return cli.run(lambda: _fidelity(args, argv),
                   interrupted="interrupted: no partial file is left")


def _fidelity(args, argv) -> None:
    first, last = parse_seeds(args.seeds)
    seeds, boards = range(first, last + 1), _boards(args.boards)
    if args.workers is not None and args.workers < 1:
        raise BadInput(f"--workers must be a whole number >= 1, got {args.workers}")
    reference = read_reference(args.reference)
    for board in boards:
        missing = [seed for seed in seeds if seed not in reference.get(board, {})]
        if missing:
            raise BadInput(f"{args.reference or REFERENCE}: no genoxide run of board {board}, seed "
                           f"{missing[0]} ({len(missing)} missing); it holds boards "
                           f"{', '.join(map(str, sorted(reference)))}")
    out = Path(args.out)
    if folder_problem(out):
        raise BadInput(f"--out {out} {folder_problem(out)}")
    workers = args.workers or os.cpu_count() or 1
    if args.workers is not None:
        workers, line = executors.processes(workers, len(chunks_of(boards, seeds)),
                                              "tasks of a board's 50 seeds")
        if line:
            print(f"--workers {line}", file=sys.stderr)
    rows = fidelity(boards, seeds, reference, workers)
    text = report(rows, argv, args.reference or REFERENCE)
    out.mkdir(parents=True, exist_ok=True)
    import pandas as pd

    write_text(out / "fidelity.csv", pd.DataFrame(rows)[list(COLUMNS)].to_csv(index=False))
    write_text(out / "fidelity.md", text)
    print(text)


if __name__ == "__main__":
    cli.command(main)
