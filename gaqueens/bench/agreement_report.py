"""The agreement check's report (gaqueens.bench.agreement): its table and what it says."""

from __future__ import annotations

import math

from gaqueens.bench.agreement_power import ALPHA, POWER, SIMULATIONS, WITHIN
from gaqueens.runtime import manifest

def verdict_text(row: dict) -> str:
    """The verdict with the shift the row detects: "agree (detects shifts of 12% or more)"."""
    if math.isnan(row["detects"]):
        return f"{row['verdict']} (detects no shift below 100%)"
    return f"{row['verdict']} (detects shifts of {row['detects']:.0%} or more)"


def _ratio(value: float) -> str:
    return f"{value:.2f}" if math.isfinite(value) else "-"


def _counted(rows: list[dict], verdict_name: str) -> int:
    return sum(row["verdict"] == verdict_name for row in rows)


def summary(rows: list[dict], generations: int) -> str:
    """What the table says, in a sentence or two."""
    same = [row for row in rows if not row["compared"].startswith("control")]
    controls = [row for row in rows if row["compared"].startswith("control")]
    counts = [f"{_counted(same, name)} {name}" for name in ("agree", "inconclusive", "differ")]
    missed = [row["compared"].removeprefix("control: ") for row in controls
              if row["verdict"] != "differ"]
    told = ("both controls differ" if not missed else
            "the check does not tell apart " + " nor ".join(missed) + ", so it is blind to "
            "differences that size")
    return (f"Board {rows[0]['board']}, at most {generations} generations. Of the {len(same)} "
            f"scheme-variation pairs, {', '.join(counts)}; {told}.")


def report(rows: list[dict], compared: int, problems: list[str], argv: list[str],
           generations: int) -> str:
    import pandas as pd

    from gaqueens.reports.tables import markdown, number

    command = "python -m gaqueens.bench.agreement" + ("" if not argv else " " + " ".join(argv))
    table = pd.DataFrame([{
        "scheme": row["scheme"], "variation": row["variation"], "compared": row["compared"],
        "seeds": row["seeds"],
        "solved: numpy / deap": f"{row['numpy_solved']} / {row['deap_solved']}",
        "median evaluations: numpy / deap": f"{number(row['numpy_median'])} / {number(row['deap_median'])}",
        "deap / numpy (95% CI)": ("-" if math.isnan(row["median_ratio"]) else
                                  f"{_ratio(row['median_ratio'])} ({_ratio(row['ci_low'])} to "
                                  f"{_ratio(row['ci_high'])})"),
        "deap takes more": f"{row['mw_share']:.3f}",
        "MW p": f"{row['mw_p']:.2g}", "Holm p": f"{row['p_holm']:.2g}",
        "verdict": verdict_text(row),
    } for row in rows])
    example_line = (f"{compared - len(problems)} of {compared} seeds equal: the same best "
                    "individual, evaluations, and logbook min and max per generation"
                    + ("" if not problems else "; " + "; ".join(problems[:5])))
    return "\n\n".join([
        "# How closely the engines agree: engine: numpy against engine: deap",
        f"`{command}`: {manifest.exporter()}.",
        summary(rows, generations),
        markdown(table),
        "Settings: the published GA with PMX crossover at cxpb 0.5 (and mutpb 0.5 for and/or), "
        f"at most {generations} generations; the work is the evaluations to a solution, unsolved "
        "runs counting as the worst. Deap takes more: the chance that a run of engine: deap "
        "takes more evaluations than one of engine: numpy (ties count half; 0.5 when they do "
        "not differ), which the Mann-Whitney test (MW) tests, one test per row. Holm's "
        f"correction over the {len(rows)} p-values; differ when Holm p is below {ALPHA}. "
        f"Detects: the smallest shift s such that engine: deap runs taking 1 + s, or 1 - s, "
        f"times the work of these runs are told apart at {ALPHA} / {len(rows)} in at least "
        f"{POWER:.0%} of {SIMULATIONS} simulations of the row's seeds. Agree: no difference "
        f"found, where the row detects shifts of {WITHIN:.0%} or less; inconclusive: no "
        "difference found, but the row detects only larger shifts.",
        "## DEAP's own N-Queens example, run by DEAP, against engine: deap",
        example_line,
    ]) + "\n"
