"""What the report page (gaqueens.reports.page) shows of an output folder, read from the files
a sweep wrote there: summary.csv, comparisons.csv, manifest.json, runs.csv (or
runs-compact.csv), the plots (NAME.svg, or NAME.png where no SVG exists), and the files it
links: manifest.json, every CSV and markdown file present, each plot's SVG and PNG. Beside
runs-compact.csv, runs.csv is not linked: it is the file a repository leaves out
(results/scaling). The GA entries' settings, for the player's replays, and the problem come
from the sweep itself or else from the manifest's resolved experiment."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from pathlib import Path

from gaqueens import problems
from gaqueens.core.errors import BadInput
from gaqueens.core.registry import Unknown
from gaqueens.reports import words
from gaqueens.reports.words import size_of
from gaqueens.runtime import manifest as manifests

SVG_HEAD = re.compile(r"\A.*?(?=<svg\b)", re.S)  # the XML prolog, DOCTYPE and comments


@dataclass
class Plot:
    stem: str
    question: str  # the question it answers
    caption: str = ""  # what it draws, exactly, where known
    svg: str | None = None  # the <svg> element itself, inline
    png: str | None = None  # else a data: URI
    files: tuple[str, ...] = ()  # its files in the folder: NAME.svg, NAME.png, those present


@dataclass
class Folder:
    """An output folder's exports, read for its page."""

    path: Path
    manifest: dict | None
    summary: object  # pandas DataFrame
    comparisons: object | None
    runs: object | None
    plots: list[Plot] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # manifest, CSV and markdown, linked

    @property
    def title(self) -> str:
        """The experiment's title as summary.md's first line says it (words.title)."""
        settings = (self.manifest or {}).get("settings", {})
        title = words.recorded_title(settings, self.path.name)
        if title:
            return title
        solved_by = self.solved_by()
        return f"{settings.get('name') or self.path.name}: {solved_by.title or solved_by.name}"

    @property
    def problem(self) -> str:
        """The name of the problem its runs solve, as the manifest gives it."""
        return (self.manifest or {}).get("settings", {}).get("problem") or problems.DEFAULT

    def solved_by(self) -> problems.Problem:
        """The problem its runs solve; BadInput naming the manifest where it is not installed."""
        try:
            return problems.get(self.problem)
        except Unknown as error:
            raise BadInput(f"{self.path / manifests.FILE}: settings.problem {self.problem} "
                           f"{error}") from None


def has_outputs(folder: Path) -> bool:
    """Whether ``folder`` holds what a page is made from: a store or a summary.csv."""
    return (folder / "runs.sqlite").exists() or (folder / "summary.csv").exists()


def read(folder) -> Folder:
    """The exports of ``folder``; BadInput naming it when it holds no summary.csv."""
    import pandas as pd

    from gaqueens.reports.readback import read_runs

    folder = Path(folder)
    if not (folder / "summary.csv").exists():
        if (folder / "runs.sqlite").exists():
            raise BadInput(f"{folder}: holds runs.sqlite but no summary.csv: run its sweep again "
                           "to export the runs, then the page")
        raise BadInput(f"{folder}: holds neither runs.sqlite nor summary.csv: not an output "
                       "folder of a sweep")
    summary = pd.read_csv(folder / "summary.csv")
    comparisons = (pd.read_csv(folder / "comparisons.csv")
                   if (folder / "comparisons.csv").exists() else None)
    runs = None
    for name in ("runs.csv", "runs-compact.csv"):
        if (folder / name).exists():
            runs = read_runs(folder / name)
            if "work" not in runs.columns and "evaluations" in runs.columns:
                runs = runs.rename(columns={"evaluations": "work"})
            break
    files = sorted(p.name for p in folder.iterdir() if p.suffix in (".csv", ".md")
                   and ".partial" not in p.name)
    if "runs-compact.csv" in files and "runs.csv" in files:
        files.remove("runs.csv")  # the module docstring
    if (folder / manifests.FILE).exists():
        files.insert(0, manifests.FILE)
    found = Folder(folder, manifests.read(folder), summary, comparisons, runs, files=files)
    found.plots = plots(folder, found.solved_by())
    return found


def plots(folder: Path, solved_by: problems.Problem | None = None) -> list[Plot]:
    """Every plot of the folder: its SVG inline, or its PNG as a data: URI where no SVG exists;
    the known plots first, in PLOT_ORDER, each with its question in the words of ``solved_by``
    (N-Queens by default)."""
    from gaqueens.reports.plots import PLOT_ORDER, QUESTIONS  # each beside its plot

    solved_by = solved_by or problems.get(problems.DEFAULT)
    said = {"genome": solved_by.genome_label, "size": size_of(solved_by)}
    stems = {p.stem for p in folder.iterdir() if p.suffix in (".svg", ".png")
             and ".partial" not in p.name}
    ordered = [s for s in PLOT_ORDER if s in stems] + sorted(stems - set(PLOT_ORDER))
    out = []
    for stem in ordered:
        plot = Plot(stem, QUESTIONS[stem].format(**said) if stem in QUESTIONS
                    else stem.replace("-", " "))
        svg, png = folder / f"{stem}.svg", folder / f"{stem}.png"
        plot.files = tuple(p.name for p in (svg, png) if p.exists())
        if svg.exists():
            plot.svg = own_ids(SVG_HEAD.sub("", svg.read_text(encoding="utf-8"), count=1),
                               f"plot-{stem}")
        else:
            plot.png = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
        out.append(plot)
    return out


REFERENCE = re.compile(r'(\bid="|href="#|url\(#)([^")]+)')


def own_ids(svg: str, prefix: str) -> str:
    """``svg`` with each of its ids, and each reference to one (href="#id", url(#id)),
    prefixed: matplotlib names its glyphs, clips and markers alike in every file, and one page
    holds all its plots."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    return REFERENCE.sub(lambda m: m[1] + (f"{prefix}-{m[2]}" if m[2] in ids else m[2]), svg)


def ga_settings(manifest: dict | None, names) -> dict:
    """The GaSettings of each entry among ``names`` that the manifest's resolved experiment
    gives as a GA (its settings name an engine), read as an experiment file's are; {} without
    a manifest."""
    from gaqueens.experiment.checker import Checker
    from gaqueens.experiment.ga_keys import read_ga

    settings = (manifest or {}).get("settings", {})
    problem = settings.get("problem", problems.DEFAULT)
    out = {}
    for name, value in settings.get("algorithms", {}).items():
        if name in names and isinstance(value, dict) and "engine" in value:
            # a GA's problem is among its recorded settings, an experiment file's at the top
            given = {key: item for key, item in value.items() if key != "problem"}
            out[name] = read_ga(Checker("manifest.json"), given, f"algorithms.{name}",
                                problem=value.get("problem", problem))
    return out


def stored_codes(folder: Folder) -> dict[str, dict[str, int]]:
    """Per algorithm, the code that made its runs (runs per code), where no store says: the
    manifest's one code for every algorithm of runs.csv."""
    code = (folder.manifest or {}).get("code")
    if code is None or folder.runs is None:
        return {}
    counts = folder.runs.groupby("algorithm").size()
    named = code if isinstance(code, dict) else {}
    return {name: {named.get(name, code): int(count)} for name, count in counts.items()
            if isinstance(named.get(name, code), str)}
