"""The runs the report page's player shows, replayed from their settings and seeds
(gaqueens.reports.trace) when the page is written: a page opened from file:// cannot run the
GA, so the frames of a bounded set of runs are embedded in it.

Embedded, in this order, while the replays' costs (a run's stored generations plus one, times
DEAP_COST on engine: deap) add up to at most BUDGET, leaving out a run that alone costs more
than RUN_BUDGET:

    the median run     per GA entry and size up to REPLAYED_UP_TO: its seeds ordered by
                       work (an unsolved run's as infinite), then by seed, the middle one (the
                       lower of two); the one the player shows first
    the best, worst    the first and the last seed of that order
    every seed         of the first GA entry on sizes up to ALL_SEEDS_UP_TO, its
                       ALL_SEEDS_AT_MOST lowest seeds per size at most

Each frame (gaqueens.reports.trace) is compacted to [generation, evaluations, best fitness,
median fitness, conflicts, genome], the genome None where it repeats the frame before and the
conflicts recounted by the problem's verifier; the last frame is the replay's end, which the
page compares with the stored run (``matches``).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from gaqueens import problems
from gaqueens.reports import trace
from gaqueens.reports.tables import in_parallel_later
from gaqueens.runtime import manifest as manifests

REPLAYED_UP_TO = 128  # sizes drawn and replayed; larger ones get a note
ALL_SEEDS_UP_TO = 16
ALL_SEEDS_AT_MOST = 100
BUDGET = 150_000
RUN_BUDGET = 20_000
DEAP_COST = 10


ROLES = ("median", "best", "worst")


def ranked(runs) -> list[int]:
    """The seeds of ``runs`` (one entry, one size) by their work, an unsolved run's as
    infinite, then by seed."""
    work = np.where(runs["solved"].to_numpy(bool), runs["work"].to_numpy(float), math.inf)
    seeds = runs["seed"].to_numpy()
    return [int(s) for s in seeds[np.lexsort((seeds, work))]]


def roles(runs) -> dict[int, list[str]]:
    """The seeds of the median, best and worst runs of ``runs``, each with the roles it plays."""
    order = ranked(runs)
    out: dict[int, list[str]] = {}
    for role, seed in zip(ROLES, (order[(len(order) - 1) // 2], order[0], order[-1])):
        out.setdefault(seed, []).append(role)
    return out


def compact(frames: list[dict], conflicts) -> list[list]:
    """Trace frames as the page embeds them, ``conflicts`` the verifier's count of each."""
    out, before = [], None
    for frame, counted in zip(frames, conflicts):
        genome = " ".join(map(str, frame["state"]["best"]))
        out.append([frame["generation"], frame["evaluations"], trace.rounded(frame["best"]),
                    trace.rounded(frame["median"]), int(counted),
                    None if genome == before else genome])
        before = genome
    return out


def words(problem: str = problems.DEFAULT) -> dict:
    """What the player says of the problem, and how it draws a genome."""
    solved_by = problems.get(problem)
    return {"title": solved_by.title or solved_by.name, "size": solved_by.size_label,
            "sizes": solved_by.sizes_label, "genome": solved_by.genome_label,
            "conflicts": solved_by.conflicts_label, "picture": solved_by.picture,
            "note": solved_by.picture_note()}


def replayed(settings, row) -> dict:
    """One stored run (a row of runs.csv) replayed: its frames, and whether the replay ends
    where the stored run did (its work, and its placement where runs.csv keeps it)."""
    return replayed_many(settings, [row])[0]


def replayed_many(settings, rows) -> list[dict]:
    """``replayed`` of each of ``rows`` (runs of one entry on one board), made together."""
    board = int(rows[0].board)
    made = trace.frames_many(settings, board, [int(row.seed) for row in rows],
                             with_attacks=False)  # the page draws them itself
    genomes = np.array([f["state"]["best"] for _, frames in made for f in frames])
    solved_by = problems.get(settings.problem)  # its verifier's count, all at once
    counts = iter(solved_by.measured_rows(board, genomes, solved_by.measures[0]).tolist())
    return [_item(row, result, compact(frames, [next(counts) for _ in frames]))
            for row, (result, frames) in zip(rows, made)]


def _item(row, result, frames) -> dict:
    solution = getattr(row, "solution", None)
    stored = None if not isinstance(solution, str) else solution.strip()
    end = " ".join(map(str, (int(c) for c in result.solution)))
    matches = int(result.work) == int(row.work) and (stored is None or stored == end)
    return {"algorithm": row.algorithm, "board": int(row.board), "seed": int(row.seed),
            "work": int(row.work), "solved": bool(row.solved), "stored": stored,
            "matches": bool(matches), "frames": frames}


def choose(runs, settings: dict) -> tuple[list, list[str]]:
    """The (row, roles) pairs to embed (roles: those of ROLES the run plays, none for one of
    every seed), and what was left out for the budget, as text."""
    if runs is None or not settings:
        return [], []
    ga = runs[runs["algorithm"].isin(list(settings))]
    present = set(ga["algorithm"])
    names = [name for name in settings if name in present]  # the experiment's order: ga first
    medians, ends, seen = [], [], set()
    for name in names:
        for board, group in ga[ga["algorithm"] == name].groupby("board", sort=True):
            if board > REPLAYED_UP_TO:
                continue
            for seed, played in roles(group).items():
                row = group[group["seed"] == seed].iloc[0]
                (medians if "median" in played else ends).append((row, played))
                seen.add((name, board, seed))
    wanted = medians + ends
    if names:
        first = ga[(ga["algorithm"] == names[0]) & (ga["board"] <= ALL_SEEDS_UP_TO)]
        lowest = first.sort_values(["board", "seed"]).groupby("board").head(ALL_SEEDS_AT_MOST)
        for _, row in lowest.iterrows():
            if (row["algorithm"], row["board"], row["seed"]) not in seen:
                wanted.append((row, []))
    chosen, left, used = [], [], 0
    size = problems.get(problem_of(settings)).size_label
    for row, played in wanted:
        cost = (int(row["generations"]) + 1) * (
            DEAP_COST if getattr(settings[row["algorithm"]], "engine", "") == "deap" else 1)
        if cost > RUN_BUDGET or used + cost > BUDGET:
            left.append(f"{row['algorithm']} {size} {row['board']} seed {row['seed']}"
                        + (f" ({', '.join(played)})" if played else ""))
            continue
        used += cost
        chosen.append((row, played))
    return chosen, left


def problem_of(settings: dict) -> str:
    """The problem the GA entries of ``settings`` (entry name -> GaSettings) run on: the
    experiment's, one for all; N-Queens without any."""
    return next((s.problem for s in settings.values()), problems.DEFAULT)


def code_now(name: str, settings) -> str:
    """The code that replays the runs of the GA entry ``name`` here: gaqueens' and its
    plug-ins' (problem, operators), as its stored runs record theirs."""
    from gaqueens.experiment import Entry

    return manifests.entry_code(Entry(name, "ga", settings).plugins)


def replays_later(runs, settings: dict, workers=None):
    """The replays of the runs ``choose`` picks, handed out now to ``workers``
    (gaqueens.runtime.executors.Workers) or, with none, made when asked for (a large sweep's
    on every core: tables.in_parallel); returns the function ``player_data`` calls for them and
    for what was left out."""
    chosen, left = choose(runs, settings)
    together: dict[tuple, list[int]] = {}  # (entry, board) -> places in ``chosen``
    for place, (row, _) in enumerate(chosen):
        together.setdefault((row["algorithm"], int(row["board"])), []).append(place)
    tasks = [(settings[name], [SimpleNamespace(**chosen[place][0].to_dict()) for place in places])
             for (name, _), places in together.items()]
    pending = in_parallel_later(replayed_many, tasks, 0 if runs is None else len(runs), workers)

    def replays() -> tuple[list[dict], list[str]]:
        out: list = [None] * len(chosen)
        for places, items in zip(together.values(), pending()):
            for place, item in zip(places, items):
                out[place] = dict(item, roles=chosen[place][1])
        return out, left
    return replays


def player_data(runs, settings: dict, codes: dict, played=None) -> dict:
    """What the page's player embeds: its runs, what they are, and a note where a replay does
    not end where its stored run did (the page adds the problem's ``words`` and the entries'
    settings); ``played``: what ``replays_later``'s function gave for these runs, if made
    already."""
    out, left = played or replays_later(runs, settings)()
    larger = sorted({int(b) for b in runs["board"]} - set(range(REPLAYED_UP_TO + 1))) \
        if runs is not None and settings else []
    first = next((item["algorithm"] for item in out if not item["roles"]), None)
    return {"runs": out, "left_out": left, "notes": mismatch_notes(out, settings, codes),
            "larger": larger, "all_seeds_of": first,
            "replayed_up_to": REPLAYED_UP_TO, "all_seeds_up_to": ALL_SEEDS_UP_TO,
            "more_seeds": runs is not None and bool(settings) and _more_seeds(runs, settings)}


def mismatch_notes(items: list[dict], settings: dict, codes: dict) -> list[str]:
    """A note where replays do not end where their stored runs did: how many, of which
    entries, the code that made their runs (``codes``: Store.codes()) and the code replaying
    them; none where every replay matches, whatever code made the runs."""
    wrong = [item for item in items if not item["matches"]]
    if not wrong:
        return []
    names = list(dict.fromkeys(item["algorithm"] for item in wrong))
    made = sorted({code for name in names for code in codes.get(name, {})})
    now = sorted({code_now(name, settings[name]) for name in names if name in settings})
    return [f"{len(wrong)} of {len(items)} replays ({', '.join(names)}) do not end where their "
            f"stored runs did: the runs were made by {'; '.join(made) or 'unrecorded code'}, "
            f"the page replays them with {'; '.join(now)}. The player marks each."]


def _more_seeds(runs, settings: dict) -> bool:
    """Whether the first GA entry has more than ALL_SEEDS_AT_MOST seeds on a small board."""
    first = next((name for name in settings if (runs["algorithm"] == name).any()), None)
    small = runs[(runs["algorithm"] == first) & (runs["board"] <= ALL_SEEDS_UP_TO)]
    return bool(len(small)) and int(small.groupby("board").size().max()) > ALL_SEEDS_AT_MOST


def describe(data: dict) -> str:
    """What the page says of the runs it embeds."""
    runs, said = data["runs"], data["words"]
    played = sum(1 for r in runs if r["roles"])
    text = (f"Embedded: {len(runs)} runs, the median, best and worst seed's runs of each GA "
            f"entry and {said['size']} ({played})")
    if data["all_seeds_up_to"] and len(runs) > played:
        lowest = f"its {ALL_SEEDS_AT_MOST} lowest seeds" if data.get("more_seeds") else "every seed"
        text += (f" and {lowest} of {data['all_seeds_of']} on {said['sizes']} up to "
                 f"{data['all_seeds_up_to']}")
    text += "; the seed chooser lists the embedded ones."
    if data["larger"]:
        text += (f" {said['sizes'].capitalize()} above {data['replayed_up_to']} "
                 f"({', '.join(f'{b:,}' for b in data['larger'])}) are neither drawn nor "
                 "replayed here: run python -m gaqueens.run --board N --seed S --trace FILE.")
    if data["left_out"]:
        text += (f" Left out to keep the page small: {len(data['left_out'])} runs, such as "
                 f"{data['left_out'][0]}.")
    return text
