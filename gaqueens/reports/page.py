"""index.html: an output folder as one self-contained page, and a single run's player page.

The folder's page (``write``), made from its exports (gaqueens.reports.page_data) and opened
from file:// with nothing fetched (no CDN, no request beyond file: and data:):

    Summary        summary.csv: the median work and its verdict first; the published GA first
    Comparisons    comparisons.csv: each algorithm's median over the reference's, its
                   interval and verdict, then its p-values
    Plots          every plot inline at up to its natural width, captioned with the question
                   it answers; a click opens its SVG full size
    Watch a run    the player (page.js): GA runs replayed from their seeds, a frame per
                   generation (gaqueens.reports.page_player), with the entry's settings
    Settings       every entry's settings, a variant told by what it changes
    Provenance     the manifest: the command, the versions, the commit, the code of the runs
    Files          links to the folder's files, those present only

Inside a site of results (a folder whose parent holds an index.html) it links home. Its tables
sort on a click of a heading and keep their headings in view. ``player_page`` writes the player
alone, for one run (``python -m gaqueens.run --html``). Every word the page says of the problem
is the problem's own (gaqueens.problems).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from gaqueens import problems
from gaqueens.core.files import write_text
from gaqueens.reports import page_data, page_player, page_settings
from gaqueens.reports.page_tables import comparisons_section, e, summary_section

FILE = "index.html"
HOME = '<a class="home" href="../index.html">results</a>'  # the site's page of every folder


def asset(name: str) -> str:
    return resources.files("gaqueens.reports").joinpath(name).read_text(encoding="utf-8")


def file_links(names) -> str:
    return " ".join(f'<a href="{e(name)}">{e(name.rsplit(".", 1)[-1].upper())}</a>'
                    for name in names)


def plots_section(folder: page_data.Folder) -> str:
    if not folder.plots:
        return ""
    figures = []
    for plot in folder.plots:
        kind = "svg" if plot.svg is not None else "png"
        body = plot.svg if plot.svg is not None else (
            f'<img src="{plot.png}" alt="{e(plot.stem)}">')
        opened = f"{plot.stem}.{kind}"
        if opened in plot.files:
            body = f'<a class="open" href="{e(opened)}" title="open {e(opened)} full size">{body}</a>'
        caption = f" {e(plot.caption)}" if plot.caption else ""
        figures.append(f'<figure data-plot="{e(plot.stem)}" data-kind="{kind}">{body}'
                       f"<figcaption><strong>{e(plot.question)}</strong>{caption} "
                       f"<span class=\"files\">{e(plot.stem)}: {file_links(plot.files)}</span>"
                       "</figcaption></figure>")
    return ("<section id=\"plots\"><h2>Plots</h2><p class=\"note\">A click on a plot opens it "
            f"full size.</p><div class=\"plots\">{''.join(figures)}</div></section>")


def provenance_section(folder: page_data.Folder, codes: dict) -> str:
    m = folder.manifest
    if not m:
        return ("<section id=\"provenance\"><h2>Provenance</h2><p class=\"note\">This folder "
                "has no manifest.json: where its runs came from is not recorded.</p></section>")
    git = m.get("git", {})
    items = [("command", m.get("command")), ("experiment", m.get("experiment")),
             ("executor", m.get("executor")),
             ("versions", ", ".join(f"{k} {v}" for k, v in m.get("versions", {}).items())),
             ("commit", (git.get("commit") or "-") + (" (with local changes)" if git.get("dirty") else "")),
             ("code of the runs", _codes_text(m.get("code"))),
             ("started, ended", f"{m.get('started')} to {m.get('ended')} ({m.get('status')})"),
             ("host", ", ".join(f"{k} {v}" for k, v in m.get("host", {}).items()))]
    recorded = m.get("code")
    for name, made in codes.items():
        expected = recorded.get(name) if isinstance(recorded, dict) else recorded
        if len(made) > 1 or (expected and set(made) != {expected}):
            items.append((f"code of {name}'s runs", "; ".join(f"{count} runs by {code}"
                                                             for code, count in made.items())))
    rows = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in items if v)
    return f"<section id=\"provenance\"><h2>Provenance</h2><dl class=\"provenance\">{rows}</dl></section>"


def _codes_text(code) -> str | None:
    """The manifest's code of the runs: one for all, or one per entry (its names joined)."""
    if not isinstance(code, dict):
        return code
    by_code: dict[str, list[str]] = {}
    for name, made in code.items():
        by_code.setdefault(str(made), []).append(name)
    if len(by_code) == 1:
        return next(iter(by_code))
    return "; ".join(f"{', '.join(names)}: {made}" for made, names in by_code.items())


def files_section(folder: page_data.Folder) -> str:
    names = [*folder.files, *(name for plot in folder.plots for name in plot.files)]
    links = "".join(f'<li><a href="{e(name)}">{e(name)}</a></li>' for name in names)
    left = ("" if "runs.csv" in names or "runs-compact.csv" not in names else
            "<p class=\"note\">runs.csv, which adds the placements, is written beside "
            "runs-compact.csv by the sweep and not kept with these results.</p>")
    return f"<section id=\"files\"><h2>Files</h2><ul class=\"files\">{links}</ul>{left}</section>"


def player_section(data: dict, standalone: bool = False) -> str:
    """The player's markup and its embedded runs (page.js draws them)."""
    said = data["words"]
    if not data["runs"]:
        why = ("No GA run to replay here (no GA entry, or no manifest giving its settings)."
               if not data["larger"] else
               f"The GA's {said['sizes']} here ({', '.join(f'{b:,}' for b in data['larger'])}) "
               f"are above {data['replayed_up_to']}: the page neither draws nor replays them. "
               "python -m gaqueens.run --board N --seed S --trace FILE writes a run's frames.")
        return f'<section id="watch"><h2>Watch a run</h2><p class="note">{e(why)}</p></section>'

    embedded = ("" if standalone else page_player.describe(data))
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    heading = "" if standalone else "<h2>Watch a run</h2>"
    warnings = "".join(f'<p class="note warning">{e(n)}</p>' for n in data.get("notes", []))
    return f"""<section id="watch">{heading}
<p class="lead">A run depends on its settings and seed alone, so the page made each run again
from its seed when it was written and kept a frame per generation (at most 200: past that,
every second, fourth, ... generation, and the last), each with the best {e(said['genome'])}
so far and the median fitness of that generation's population. {e(embedded)}</p>{warnings}
<div id="player" tabindex="0" aria-label="run player: arrow keys step, space plays">
<div class="controls">
<label>algorithm <select id="pick-algorithm"></select></label>
<label>{e(said['size'])} <select id="pick-board"></select></label>
<label>seed <select id="pick-seed"></select></label>
</div>
<div class="controls">
<button id="first" type="button" title="first frame (Home)">|&lt;</button>
<button id="back" type="button" title="a frame back (left arrow)">&lt;</button>
<button id="play" type="button" aria-pressed="false" title="play or pause (space)">Play</button>
<button id="forward" type="button" title="a frame on (right arrow)">&gt;</button>
<button id="last" type="button" title="last frame (End)">&gt;|</button>
<label>speed <select id="speed">
<option value="2">2 frames/s</option><option value="5">5 frames/s</option>
<option value="10" selected>10 frames/s</option><option value="25">25 frames/s</option>
<option value="60">60 frames/s</option></select></label>
</div>
<div class="stage">
<svg id="board" role="img" xmlns="http://www.w3.org/2000/svg"></svg>
<div class="side">
<input id="frame" type="range" min="0" max="0" value="0" aria-label="frame">
<div id="readout" aria-live="polite"></div>
<svg id="curve" role="img" aria-label="the run's fitness by evaluations" xmlns="http://www.w3.org/2000/svg"></svg>
<p class="note">Line: the best fitness found so far (steps); dots: the median fitness of
the population at each frame's generation (nothing drawn between frames). Evaluations on a
log axis, fitness on a log(1 + fitness) axis; the red mark is the frame shown.</p>
<p id="run-note" class="note"></p>
<p class="note">{e(said['note'])}</p>
<div id="run-settings"></div>
</div></div></div>
<script id="player-data" type="application/json">{payload}</script>
</section>"""


def document(title: str, lead: str, sections: list[str], nav: list[tuple[str, str]],
             home: bool = False) -> str:
    links = "".join(f'<a href="#{e(a)}">{e(t)}</a>' for a, t in nav)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{e(title)}</title><style>{asset("page.css")}</style></head>
<body><header>{HOME if home else ""}<h1>{e(title)}</h1><p class="lead">{e(lead)}</p><nav>{links}</nav></header>
<main>{''.join(s for s in sections if s)}</main>
<footer>Written by gaqueens (gaqueens/reports/page.py); self-contained: it works offline and
fetches nothing.</footer>
<script>{asset("page.js")}</script></body></html>
"""


def with_home(text: str) -> str:
    """A page's text with the link home (HOME) at the top of its header, once."""
    return text if HOME in text else text.replace("<header>", "<header>" + HOME, 1)


def in_site(folder: Path) -> bool:
    """Whether ``folder`` sits in a site of results: its parent holds the site's index.html."""
    return (Path(folder).resolve().parent / FILE).exists()


def write(path, settings: dict | None = None, store=None, played=None) -> Path:
    """Writes ``path``/index.html from the folder's exports; ``settings`` (entry name ->
    GaSettings) are the GA entries' settings, read from the manifest when None; ``store``, the
    folder's open store, gives the runs of runs.csv (those the outputs describe, which may be
    fewer than it keeps), the code that made each, and the folder whose place in a site decides
    the link home (``path`` may be the stage of its outputs); ``played``: the player's replays
    of those runs, made already (page_player.replays_later). Returns the page's path."""
    folder = page_data.read(path)
    keys = None if folder.runs is None else set(zip(
        *(folder.runs[column].tolist() for column in ("algorithm", "board", "seed"))))
    if store is not None:  # the stored runs of runs.csv, their placements included
        folder.runs = store.runs(keys)
    names = list(dict.fromkeys(folder.summary["algorithm"]))
    if settings is None:
        settings = page_data.ga_settings(folder.manifest, names)
    codes = page_data.stored_codes(folder) if store is None else store.codes(keys)
    data = page_player.player_data(
        folder.runs, {k: v for k, v in settings.items() if k in names}, codes, played)
    algorithms = (folder.manifest or {}).get("settings", {}).get("algorithms", {})
    data = dict(data, words=page_player.words(folder.problem),
                settings=page_settings.described(algorithms))
    m = folder.manifest or {}
    lead = (f"{len(folder.runs) if folder.runs is not None else 'Its'} runs"
            f"{', made by ' + m['command'] if m.get('command') else ''}.")
    sections = [summary_section(folder), comparisons_section(folder), plots_section(folder),
                player_section(data), page_settings.section(algorithms, names),
                provenance_section(folder, codes), files_section(folder)]
    nav = [(anchor, heading) for anchor, heading, shown in (
        ("summary", "Summary", True), ("comparisons", "Comparisons", sections[1]),
        ("plots", "Plots", sections[2]), ("watch", "Watch a run", True),
        ("settings", "Settings", sections[4]), ("provenance", "Provenance", True),
        ("files", "Files", True)) if shown]
    out = Path(path) / FILE
    home = in_site(path if store is None else store.folder)
    write_text(out, document(folder.title, lead, sections, nav, home=home))
    return out


def player_page(path, algorithm: str, item: dict, settings, problem: str = problems.DEFAULT) -> None:
    """Writes the player alone for one replayed run (page_player.replayed's ``item``) on
    ``problem``, with the settings it ran (GaSettings) beside it."""
    from gaqueens.experiment import Entry, settings_to_yaml

    said = page_player.words(problem)
    written = {algorithm: settings_to_yaml(Entry(algorithm, "ga", settings))}
    data = {"runs": [dict(item, roles=[])], "left_out": [], "notes": [], "larger": [],
            "replayed_up_to": page_player.REPLAYED_UP_TO, "all_seeds_up_to": 0, "words": said,
            "settings": page_settings.described(written)}
    title = (f"{said['title']}: {algorithm} on {said['size']} {item['board']}, "
             f"seed {item['seed']}")
    lead = (f"{'Solved' if item['solved'] else 'Not solved'} after {item['work']:,} evaluations "
            f"and {item['frames'][-1][0]:,} generations. Drag the slider, step with the arrow "
            "keys or press Play.")
    write_text(path, document(title, lead, [player_section(data, standalone=True)], []))
