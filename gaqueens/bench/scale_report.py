"""The report of gaqueens.bench.scale: its header, each figure beside its goal, and the files
scale.md and scale.csv."""

from __future__ import annotations

import csv
import io
import statistics
from pathlib import Path

from gaqueens.bench.common import Report, pyarrow_warning, verdict, write_goals
from gaqueens.bench.memory import MB
from gaqueens.core.files import write_text

MEMORY_GOAL_MB = 1000  # the 1 GB, in the report's unit (10^6 bytes)
SWEEP_GOAL_S = 100  # issue 17: the 100,000-run sweep end to end within 100 s on two cores
AFTER_GOAL_S = {"export": 15, "verify": 15, "exports": 15}  # issue 17: each within 15 s


def _mb(value: float) -> str:
    return f"{value / MB:,.0f} MB"


def spread(values, unit: str, digits: int = 1) -> str:
    """median (min..max) of repetitions, or the one value."""
    unit = f" {unit}" if unit else ""
    if len(values) == 1:
        return f"{values[0]:,.{digits}f}{unit}"
    return (f"{statistics.median(values):,.{digits}f}{unit} ({min(values):,.{digits}f}.."
            f"{max(values):,.{digits}f})")


VERDICTS = ("met", "met at the median", "not met")  # from the best to the worst


def _shown(said: str) -> str:
    return f"**{said}**" if said == "not met" else said


def _met(ok: bool) -> str:
    return _shown("met" if ok else "not met")


def _met_by(verdicts: dict[str, bool | str]) -> str:
    """The goal's verdict over the executors (each True, False or a verdict of
    bench.common.verdict): their own when they agree, else the worst of them, saying each."""
    said = {name: v if isinstance(v, str) else "met" if v else "not met"
            for name, v in verdicts.items()}
    worst = max(said.values(), key=VERDICTS.index)
    if len(set(said.values())) == 1:
        return _shown(worst)
    return _shown(worst) + ": " + ", ".join(f"{name} {v}" for name, v in said.items())


def _code() -> str:
    from importlib.metadata import version

    from gaqueens.runtime import manifest

    return manifest.code(manifest.checkout(), version("gaqueens"))


def report(out: Report, header: dict, measured: dict, stores: list[float], rows, repeats) -> None:
    """Says the report's lines into ``out``: the header, the table, how it was measured."""
    quick = " (--quick: a smoke run, not a measurement)" if header["quick"] else ""
    out.say(f"**A 100,000-run sweep**{quick}: `{header['command'].strip()}`, {header['date']}, "
            f"{_code()}; {header['machine']}; load average "
            "{:.1f} {:.1f} {:.1f} at the start, ".format(*header["load"])
            + "{:.1f} {:.1f} {:.1f} at the end.".format(*header["load_end"]))
    if (warning := pyarrow_warning()) is not None:
        out.say(warning)
    changes = " with " + " ".join(header["options"]) if header["options"] else ""
    out.say()
    times = "once each" if repeats == 1 else f"{repeats} times each: median (min..max)"
    sweeps = ("once" if repeats == 1 else
              f"{repeats} times, the executors alternating: median (min..max)")
    out.say(f"experiments/sweep-100k.yaml{changes}; each sweep {sweeps}, each time into a "
            "fresh folder (on Dask, a fresh cluster), its memory sampled; over the last "
            "folders, the exports, the IOH export, verify and the store alone timed "
            f"{times}, with no sampling (it costs them time), and the memory of the first "
            "three sampled in one more run each.")
    out.say()
    names = list(measured)
    lines = [("figure", *names, "goal", "verdict")]
    rate = {name: statistics.median(m["computed"]) for name, m in measured.items()}
    stored = statistics.median(stores)

    def line(figure, cells, goal="", met=""):
        lines.append((figure, *cells, goal, met))
        if goal and met:
            out.goal(figure, "; ".join(f"{name}: {cell}" for name, cell in zip(names, cells) if cell),
                     goal, met.replace("**", ""))

    counts = {count for m in measured.values() for count in m["runs"]}
    expected = max(counts)
    line("runs stored", [", ".join(f"{count:,}" for count in sorted(set(m["runs"])))
                         for m in measured.values()],
         "every run of the file, on two cores", _met(len(counts) == 1))
    line("sweep wall, end to end (tables and plots included)",
         [spread(m["wall"], "s", 0) for m in measured.values()], f"within {SWEEP_GOAL_S} s",
         _met_by({name: verdict(m["wall"], SWEEP_GOAL_S) for name, m in measured.items()}))
    line("runs per second, end to end", [spread(m["rate"], "", 0) for m in measured.values()])
    line("runs computed and stored per second (the manifest's start to end)",
         [spread(m["computed"], "", 0) for m in measured.values()])
    pss = {name: [value / MB for value in m["pss"]] for name, m in measured.items()}
    line("peak memory of all its processes: PSS summed; RSS summed, an upper bound, and the "
         "largest process's RSS (their medians)",
         [f"{spread(pss[name], 'MB', 0)}; RSS {_mb(statistics.median(m['peak']))}, largest "
          f"{_mb(statistics.median(m['largest']))}" for name, m in measured.items()],
         f"under {MEMORY_GOAL_MB:,} MB",
         _met_by({name: verdict(values, MEMORY_GOAL_MB) for name, values in pss.items()}))
    line("PSS summed while the runs compute: median over the first half, the second half "
         "(their medians)",
         [", ".join(_mb(statistics.median(half)) for half in zip(*m["halves"]))
          for m in measured.values()], "flat")
    if any("cluster" in m for m in measured.values()):
        line("the Dask cluster's own processes (scheduler, workers), PSS summed: idle before "
             "the sweep, after it (its workers having given back their free heap; medians)",
             [", ".join(_mb(statistics.median(when)) for when in zip(*m["cluster"]))
              if "cluster" in m else "" for m in measured.values()])
    for kind, title in (("exports", "the exports alone (runs.csv, summary, plots)"),
                        ("export", "python -m gaqueens.export DIR (IOH)"),
                        ("verify", "python -m gaqueens.verify DIR")):
        if not all(m.get(kind) for m in measured.values()):
            continue
        walls = {name: statistics.median(m[kind]["walls"]) <= AFTER_GOAL_S[kind]
                 for name, m in measured.items()}
        line(f"{title}: wall", [spread(m[kind]["walls"], "s") for m in measured.values()],
             f"within {AFTER_GOAL_S[kind]} s (median)", _met_by(walls))
        under = {name: m[kind]["pss"] < MEMORY_GOAL_MB * MB for name, m in measured.items()}
        line(f"{title}: peak PSS summed (RSS summed), and the wall of that run, sampled",
             [f"{_mb(m[kind]['pss'])} ({_mb(m[kind]['peak'])}), {m[kind]['sampled']:.1f} s"
              for m in measured.values()],
             f"under {MEMORY_GOAL_MB:,} MB", _met_by(under))
    ratio = [stored / rate[name] for name in names]
    line("the store alone: runs stored per second (Store.add in batches of 50, fresh store)",
         [spread(stores, "", 0)] + [""] * (len(names) - 1),
         "above the rate runs are computed",
         _met(min(ratio) > 1) + ": " + ", ".join(f"{r:,.0f}x ({name})" for r, name in zip(ratio, names)))
    out.say("\n".join(["| " + " | ".join(lines[0]) + " |", "|" + "---|" * len(lines[0])]
                      + ["| " + " | ".join(cells) + " |" for cells in lines[1:]]))
    out.say()
    out.say(f"Storing {expected:,} runs at the store's own rate takes "
            + ", ".join(f"{100 * rate[name] / stored:.0f}% of the time the {name} took to "
                        f"compute and store them" for name in names)
            + ". Memory: RSS and PSS of every process below the command, read from /proc every "
            "0.1 s and summed, the Dask scheduler and workers included; a peak shorter than "
            "0.1 s may be missed. RSS counts the pages that forked processes (the workers, the "
            "processes drawing the plots) share once per process; PSS shares them out, so its "
            "sum is the memory the processes hold, against which the goal is judged.")


def write(folder: Path, out: Report, rows: list[dict], columns) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_text(folder / "scale.md", "\n".join(out.lines) + "\n")
    table = io.StringIO()
    writer = csv.DictWriter(table, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text(folder / "scale.csv", table.getvalue())
    write_goals(folder, out.goals)
