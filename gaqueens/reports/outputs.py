"""What a sweep writes beside its store, exported from stored runs only:
runs.csv, summary.csv, summary.md, comparisons.csv (more than one algorithm), the plots, and
last index.html, the folder's page (gaqueens.reports.page), with manifest.json, the record of
the sweep that wrote them (gaqueens.runtime.manifest).

They describe the runs of the sweep's experiment (its boards, seeds and algorithms), which may
be fewer than the store keeps: after ``--seeds 1..20``, a sweep with ``--seeds 1..5`` computes
nothing and exports seeds 1 to 5, and the store keeps all 20 for a later sweep to take up.

Every sweep writes them all, into a folder of their own, and moves them in together over the
earlier ones (gaqueens.reports.staged): stopped at any point, it leaves the earlier outputs and
their manifest as they were, or the new ones whole.

Placements of boards above COMPACT_ABOVE queens make runs.csv too large to keep in a
repository, so such a sweep also writes runs-compact.csv:
every column of runs.csv but the placements, from which summary.csv can be derived again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np

from gaqueens.runtime import claims as checks
from gaqueens.runtime import manifest
from gaqueens.runtime.store import other_code
from gaqueens.runtime.executors import Workers
from gaqueens import problems
from gaqueens.reports import resampling, staged, words
from gaqueens.core.files import write_csv, write_text

PLOTS = ("growth", "sensitivity-heatmap", "ecdf", "fixed-target", "convergence", "ecdf-seconds",
         "seconds", "sensitivity")  # each as NAME.png and NAME.svg: plots.PLOT_ORDER
EXPORTS = ("runs.csv", "runs-compact.csv", "summary.csv", "summary.md", "comparisons.csv",
           *(f"{name}.{kind}" for name in PLOTS for kind in ("png", "svg")), "index.html")
COMPACT_ABOVE = 1_000

VERDICT_NOTE = (
    "Verdict: the published median comes from {published} runs, ours from {ours}. Reproduced "
    "when the published median lies within the central 99% of the bootstrapped difference "
    "between the medians of two independent {published}-run samples drawn from our runs, "
    "around our median. It detects shifts of the median of the given size or more with 80% "
    "power: published runs whose work is ours times 1 + s, or 1 - s, simulated {published} runs "
    "at a time, fail it in at least 80% of the cases. With fewer than {minimum} runs of ours the "
    "resampled medians are too narrow to stand for a {published}-run median, and the verdict is "
    "\"too few runs\". Unsolved runs count as infinite work (-)."
)


def verdict_note(summary, problem: str = problems.DEFAULT) -> str:
    """The explanation under a table with verdicts, with the run counts it rests on."""
    judged = summary[summary["reference"].notna()]
    counts = sorted(set(judged["runs"]))
    size = problems.get(problem).size_label
    ours = (f"{counts[0]} runs on each {size}" if len(counts) == 1 else
            ", ".join(f"{row.runs} on {size} {row.board}" for row in judged.itertuples()))
    return VERDICT_NOTE.format(published=resampling.PUBLISHED_RUNS, ours=ours,
                               minimum=resampling.MIN_RUNS)


UNSOLVED_NOTE = (
    "Some runs stopped short: ERT, the expected running time, is the work of all runs, solved "
    "or not, over the number of solved runs (- when none solved)."
)
HEAVY = ("gaqueens.reports.tables", "gaqueens.reports.plots")  # pandas and matplotlib: imported by write()


def foreign(folder: Path) -> list[str]:
    """The outputs of a sweep that ``folder`` holds without the store that wrote them
    (runs.sqlite): those of a committed results folder, or of another tool. A sweep refuses to
    write over them unless it starts afresh."""
    folder = Path(folder)
    if not folder.is_dir() or (folder / "runs.sqlite").exists():
        return []
    return [name for name in (*EXPORTS, manifest.FILE) if (folder / name).exists()]


def remove(folder: Path) -> None:
    """Removes the exports of an earlier sweep, which new runs would make stale."""
    for name in EXPORTS:
        (folder / name).unlink(missing_ok=True)


def in_entry_order(frame, experiment):
    """Rows in the experiment's order of algorithms (the GA first), then by board and seed, in
    a stable sort that keeps a trace's generations in order (numpy's lexsort on the
    algorithms' codes)."""
    import pandas as pd

    names = [entry.name for entry in experiment.entries]
    codes = pd.Categorical(frame["algorithm"], categories=names).codes.astype(np.int64)
    codes[codes < 0] = len(names)  # an algorithm the experiment does not name: last
    keys = [frame[c].to_numpy() for c in ("seed", "board") if c in frame.columns]
    order = np.lexsort((*keys, codes))  # the last key sorts first
    if len(order) and (order[1:] > order[:-1]).all():
        return frame.reset_index(drop=True)  # already in order, as the store gives the runs
    return frame.take(order).reset_index(drop=True)


def title(experiment) -> str:
    return words.title(experiment.name, experiment.problem, experiment.boards, experiment.seeds)


def write(store, experiment, sweep) -> str:
    """Exports the experiment's runs from ``store`` with ``sweep``'s record (manifest.Sweep),
    and moves them in (see the module's docstring); returns the results table as markdown."""
    stage = staged.stage(store.folder)
    try:
        results = _write(store, stage, experiment, sweep)
        staged.move_in(store.folder, stage, EXPORTS, sweep)
    except BaseException as error:  # the manifest says so, if it names the sweep
        sweep.stopped(error, sweep.record.get("runs_added", 0), " while writing its outputs")
        raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return results


def _write(store, folder: Path, experiment, sweep) -> str:
    """Writes the outputs into ``folder`` (the stage): the exports, then the manifest, then the
    page, which shows them."""
    from gaqueens.reports import ecdfs, folded, plots, tables

    name = title(experiment)
    keys = set(experiment.tasks())
    runs = in_entry_order(store.runs(keys), experiment)
    stored = len(store.keys())
    # which code made the runs (summary.md), read before the workers are forked
    made_by = store.codes(keys)
    record = sweep.complete(len(runs), stored, [])  # its files listed once written
    problem = experiment.problem  # whose words the plots use
    several = runs["algorithm"].nunique() > 1
    searched = (runs["unit"] != "none").any()
    if several:  # scipy.stats, imported before the workers are forked: they share its pages
        from gaqueens.reports import compare
    from gaqueens.ga import GaSettings
    from gaqueens.reports import page, page_player

    replayed = {entry.name: entry.settings for entry in experiment.entries
                if isinstance(entry.settings, GaSettings)}  # the GA runs the page's player shows
    claims = checks.entry_claims(experiment.entries)
    measured = runs[list(tables.GROUPED)]  # what the plots read: the filters copy less
    best = plots.best_cells(measured)  # a crowded grid's cell drawn in colour, per board
    keys_of: dict[str, set] = {}  # each algorithm's keys: a worker folds its traces
    for key in keys:
        keys_of.setdefault(key[0], set()).add(key)
    large = len(runs) >= tables.PARALLEL_FROM  # its tasks on every core (two at least)
    with Workers(max(2, os.cpu_count() or 1) if large else 1) as workers:
        # in processes of their own, while this process checks the runs, writes the tables and
        # draws the summary's plots: the traces folded an algorithm at a time, the summary's
        # resampling, the comparisons, the ECDFs and the player's replays
        folding = workers.later(folded.from_folder, [
            (store.folder, keys_of[name], list(claims), claims, name) for name in claims
            if name in keys_of])
        summarizing = tables.summarize_later(runs, experiment.reference, experiment.problem,
                                             workers)
        comparing = compare.comparisons_later(runs, workers) if several else None
        drawing = workers.later(_draw, [
            (plot, measured, folder / f"{stem}.png", name, problem, best)
            for plot, stem, wanted in ((ecdfs.ecdf, "ecdf", searched),
                                       (ecdfs.ecdf_seconds, "ecdf-seconds", several)) if wanted])
        replays = page_player.replays_later(runs, replayed, workers)
        workers.start()
        rejected = checks.rows_problems(runs, claims)
        if rejected:  # stored runs are verified as they come; this one was altered since
            more = f" (and {len(rejected) - 1} more)" if len(rejected) > 1 else ""
            raise checks.Invalid(f"{store.folder / 'runs.sqlite'}: the verifier rejects "
                                 f"{rejected[0]}{more}")
        traces = folded.merged(folding(), list(claims))
        # each run's first generation, for the summary, in the traces' order: pandas' group
        # means change in the last digit with the rows' order
        first = in_entry_order(traces.first_rows(), experiment)
        if traces.runs:
            plots.convergence(traces, folder / "convergence.png", name, problem, best)
            ecdfs.fixed_target(traces, folder / "fixed-target.png", name, problem, best)
        del traces
        results = _tables(folder, experiment, made_by, runs, first, name, several,
                          summarizing, comparing, record, stored)
        drawing()
        played = replays()
        # let go here, with the workers, whose results are all in: the page is written alone
        del runs, measured, summarizing, comparing
    written = [path.name for path in folder.iterdir() if ".partial" not in path.name]
    record["outputs"]["files"] = sorted([*written, manifest.FILE, "index.html"])
    manifest.write(folder, record)
    page.write(folder, replayed, store, played)
    return results


def _draw(plot, *args) -> None:
    """``plot(*args)``, which writes its files, as a worker's task: the figure stays there."""
    plot(*args)


def _tables(folder, experiment, made_by, runs, first, name, several, summarizing, comparing,
            record, stored) -> str:
    """runs.csv, summary.csv, summary.md, comparisons.csv into ``folder``, and the summary's
    plots. ``made_by``: Store.codes of the runs; ``first``: their first generations;
    ``record``: the manifest written with them; ``stored``: the runs stored."""
    from gaqueens.reports import growth, plots, tables

    write_csv(folder / "runs.csv", runs)
    if runs["board"].max() > COMPACT_ABOVE:
        write_csv(folder / "runs-compact.csv", runs.drop(columns="solution"))
    summary = in_entry_order(summarizing(first), experiment)
    write_csv(folder / "summary.csv", summary)
    problem, solved_by = experiment.problem, problems.get(experiment.problem)
    size, sizes = solved_by.size_label, solved_by.sizes_label
    results = tables.results_table(summary, problem)
    parts = [
        f"# {name}",
        f"From {len(runs)}{'' if stored == len(runs) else f' of the {stored}'} runs in "
        f"runs.sqlite; the runs: {manifest.describe(record)}; these tables and plots: "
        f"{manifest.exporter()}.",
        results,
    ]
    codes = {entry.name: manifest.entry_code(entry.plugins) for entry in experiment.entries}
    mixed = {name: made_by[name] for name in other_code(made_by, codes)}
    if mixed:  # kept with --mixed-code
        parts.insert(2, "**These runs were made by different code** (kept with --mixed-code): "
                     + "; ".join(f"{name}: {count} runs by {code}" for name, made in mixed.items()
                                 for code, count in made.items()) + ".")
    if summary["reference"].notna().any():
        parts.append(verdict_note(summary, problem))
    if "ert" in summary.columns:
        parts.append(UNSOLVED_NOTE)
    # the summary's plots, while the workers may still compare
    grid = (_sensitivity(summary, experiment, folder, name) if experiment.grid.values
            else None)
    if len(experiment.boards) > 1 and (summary["unit"] != "none").any():
        growth.plot(summary, folder / "growth.png", name, problem)
    if several and len(experiment.boards) > 1:
        plots.seconds(summary, folder / "seconds.png", name, problem)
    if several:
        from gaqueens.reports import compare

        comparisons = comparing()
        write_csv(folder / "comparisons.csv", comparisons)
        if len(comparisons):
            parts += [f"## Compared with {comparisons['reference'].iloc[0]}",
                      compare.table(comparisons, problem), compare.note(comparisons, problem)]
    if grid is not None:
        from gaqueens.reports import sensitivity

        parts += [f"## The grid's best cell per {size}", tables.markdown(sensitivity.best_cells(
            grid, summary, comparisons if several else None, problem)), sensitivity.BEST_NOTE]
    parts += [f"## The {sizes}", tables.boards_table(summary, problem)]
    grows = growth.growth_table(summary, problem)
    if grows:
        parts += [f"## Growth with the {words.size_of(solved_by)}", grows,
                  growth.growth_note(problem)]
    write_text(folder / "summary.md", "\n\n".join(parts) + "\n")
    return results


def _sensitivity(summary, experiment, folder: Path, name: str):
    """The grid's cells' table (sensitivity.cells), from which summary.md shows the best cell
    per board beside the ga, and its plots."""
    from gaqueens.experiment import settings_to_yaml
    from gaqueens.reports import sensitivity

    grid = experiment.grid
    ga = next((entry for entry in experiment.entries if entry.name == "ga"), None)
    table = sensitivity.cells(summary, grid, None if ga is None else "ga")
    fixed = sensitivity.ga_values(settings_to_yaml(ga) if ga else {}, grid.paths)
    sensitivity.lines_plot(table, grid, fixed, folder / "sensitivity.png", name,
                           experiment.problem)
    if len(grid.paths) == 2:
        sensitivity.heatmap(table, grid, fixed, folder / "sensitivity-heatmap.png", name,
                            experiment.problem)
    return table
