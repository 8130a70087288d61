"""The reports' phrases about a problem, made of its own words (gaqueens.problems: title,
size_label, sizes_label), so that tables, plots and pages read the same for any problem and
N-Queens reads as it always has: "board size", "n8: N-Queens, boards 8, 16; seeds 1 to 100"."""

from __future__ import annotations

from gaqueens import problems


def size_of(solved_by: problems.Problem) -> str:
    """The quantity a problem's sizes measure: "board size" for N-Queens, "size" by default."""
    label = solved_by.size_label
    return label if label == "size" else f"{label} size"


def title(name: str, problem: str, boards, seeds: tuple[int, int]) -> str:
    """An experiment's title, the first line of its summary and of each plot: its name, its
    problem's title, its sizes (the range of more than six) and its seeds."""
    solved_by = problems.get(problem)
    listed = ", ".join(map(str, boards)) if len(boards) <= 6 else (
        f"{min(boards):,} to {max(boards):,} ({len(boards)} sizes)")
    first, last = seeds
    return (f"{name}: {solved_by.title or solved_by.name}, {solved_by.sizes_label} {listed}; "
            f"seeds {first} to {last}")


def recorded_title(settings: dict, name: str) -> str | None:
    """``title`` from a manifest's settings (``name`` where they name none); None where they
    give no sizes or seeds."""
    boards, seeds = settings.get("boards"), settings.get("seeds") or {}
    if not (boards and "first" in seeds and "last" in seeds):
        return None
    return title(settings.get("name") or name, settings.get("problem") or problems.DEFAULT,
                 boards, (seeds["first"], seeds["last"]))
