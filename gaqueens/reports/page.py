"""index.html: an output folder as one self-contained page, and a single run's player page.

The folder's page (``write``), made from its exports (gaqueens.reports.page_data) and opened
from file:// with nothing fetched (no CDN, no request beyond file: and data:):

    Summary        summary.csv: per algorithm and board the runs, solved, the median work with
                   its interquartile range and 95% interval, the published median and verdict
                   where there is one; the published GA (ga) first
    Comparisons    comparisons.csv: each algorithm's median work over the reference's, with
                   its interval, p-values and verdict
    Watch a run    the player (page.js): a GA run replayed from its settings and seed, a frame
                   at each improvement of its best genome, drawn as the problem pictures it
                   (gaqueens.reports.page_player says which runs are embedded)
    Plots          every plot inline (SVG, or the PNG where no SVG exists), each captioned with
                   the question it answers
    Provenance     the manifest: the command, the versions, the commit, the code of the runs
    Files          links to the folder's CSV and markdown files

``player_page`` writes the player alone, for one run (``python -m gaqueens.run --html``).
Every word the page says of the problem (its title, its sizes, genomes and conflicts) is the
problem's own (gaqueens.problems).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from gaqueens import problems
from gaqueens.core.files import write_text
from gaqueens.reports import page_data, page_player
from gaqueens.reports.page_tables import comparisons_section, e, summary_section

FILE = "index.html"


def asset(name: str) -> str:
    return resources.files("gaqueens.reports").joinpath(name).read_text(encoding="utf-8")


def plots_section(folder: page_data.Folder) -> str:
    if not folder.plots:
        return ""
    figures = []
    for plot in folder.plots:
        body = plot.svg if plot.svg is not None else (
            f'<img src="{plot.png}" alt="{e(plot.stem)}">')
        kind = "svg" if plot.svg is not None else "png"
        figures.append(f'<figure data-plot="{e(plot.stem)}" data-kind="{kind}">{body}'
                       f"<figcaption>{e(plot.question)} <code>{e(plot.stem)}.{kind}</code>"
                       "</figcaption></figure>")
    return f"<section id=\"plots\"><h2>Plots</h2><div class=\"plots\">{''.join(figures)}</div></section>"


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
    links = "".join(f'<li><a href="{e(name)}">{e(name)}</a></li>' for name in folder.files)
    return f"<section id=\"files\"><h2>Files</h2><ul>{links}</ul></section>"


PICTURE_NOTES = {  # what the player's drawing shows, by the problem's picture
    "queens": "Queens in red attack another queen; a line joins each attacking pair.",
    "genome": "Each bar is an entry of the {genome}, from the first on the left, as high as "
              "its value; its conflicts are its {conflicts}.",
}


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
    return f"""<section id="watch">{heading}
<p class="lead">A run depends on its settings and seed alone, so the page made each run again
from its seed when it was written and kept a frame at each improvement of the best {e(said['genome'])}.
{e(embedded)}</p>{''.join(f'<p class="note warning">{e(n)}</p>' for n in data["code_notes"])}
<div id="player">
<div class="controls">
<label>algorithm <select id="pick-algorithm"></select></label>
<label>{e(said['size'])} <select id="pick-board"></select></label>
<label>seed <select id="pick-seed"></select></label>
<button id="play" type="button" aria-pressed="false">Play</button>
</div>
<div class="stage">
<svg id="board" role="img" xmlns="http://www.w3.org/2000/svg"></svg>
<div class="side">
<input id="frame" type="range" min="0" max="0" value="0" aria-label="frame">
<div id="readout" aria-live="polite"></div>
<svg id="curve" role="img" aria-label="convergence" xmlns="http://www.w3.org/2000/svg"></svg>
<p class="note">Solid: the best fitness found so far; dotted: the population's median
fitness at each frame; the dot marks the frame shown.</p>
<p id="run-note" class="note"></p>
<p class="note">{e(PICTURE_NOTES.get(said['picture'], PICTURE_NOTES['genome']).format(**said))}</p>
</div></div></div>
<script id="player-data" type="application/json">{payload}</script>
</section>"""


def document(title: str, lead: str, sections: list[str], nav: list[tuple[str, str]]) -> str:
    links = "".join(f'<a href="#{e(a)}">{e(t)}</a>' for a, t in nav)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{e(title)}</title><style>{asset("page.css")}</style></head>
<body><header><h1>{e(title)}</h1><p class="lead">{e(lead)}</p><nav>{links}</nav></header>
<main>{''.join(s for s in sections if s)}</main>
<footer>Written by gaqueens (gaqueens/reports/page.py); self-contained: it works offline and
fetches nothing.</footer>
<script>{asset("page.js")}</script></body></html>
"""


def write(path, settings: dict | None = None, store=None, player: dict | None = None) -> Path:
    """Writes ``path``/index.html from the folder's exports; ``settings`` (entry name ->
    GaSettings) are the GA entries' settings, read from the manifest when None; ``store``, the
    folder's open store, gives the runs and the code that made each. ``player`` is the
    player's data where already made (``player_of``). Returns the page's path."""
    folder = page_data.read(path)
    if store is not None:  # the stored runs, their placements included
        folder.runs = store.runs()
    names = set(folder.summary["algorithm"])
    if settings is None:
        settings = page_data.ga_settings(folder.manifest, names)
    codes = page_data.stored_codes(folder, store)
    data = player if player is not None else player_of(folder.runs, settings, names, codes)
    data = dict(data, words=page_player.words(folder.problem))
    m = folder.manifest or {}
    lead = (f"{len(folder.runs) if folder.runs is not None else 'Its'} runs"
            f"{', made by ' + m['command'] if m.get('command') else ''}.")
    nav = [("summary", "Summary"), ("comparisons", "Comparisons"), ("watch", "Watch a run"),
           ("plots", "Plots"), ("provenance", "Provenance"), ("files", "Files")]
    sections = [summary_section(folder), comparisons_section(folder), player_section(data),
                plots_section(folder), provenance_section(folder, codes), files_section(folder)]
    if folder.comparisons is None or not len(folder.comparisons):
        nav.remove(("comparisons", "Comparisons"))
    if not folder.plots:
        nav.remove(("plots", "Plots"))
    out = Path(path) / FILE
    write_text(out, document(folder.title, lead, sections, nav))
    return out


def player_of(runs, settings: dict, names, codes: dict) -> dict:
    """The player's data (page_player.player_data) for the GA entries among ``names`` (the
    summary's algorithms), from ``runs`` (every stored run) and ``codes`` (Store.codes())."""
    return page_player.player_data(runs, {k: v for k, v in settings.items() if k in names}, codes)


def player_page(path, algorithm: str, item: dict, problem: str = problems.DEFAULT) -> None:
    """Writes the player alone for one replayed run (page_player.replayed's ``item``) on
    ``problem``."""
    said = page_player.words(problem)
    data = {"runs": [dict(item, default=False)], "left_out": [], "code_notes": [], "larger": [],
            "replayed_up_to": page_player.REPLAYED_UP_TO, "all_seeds_up_to": 0, "words": said}
    title = (f"{said['title']}: {algorithm} on {said['size']} {item['board']}, "
             f"seed {item['seed']}")
    lead = (f"{'Solved' if item['solved'] else 'Not solved'} after {item['work']:,} evaluations. "
            "Drag the slider or press Play.")
    write_text(path, document(title, lead, [player_section(data, standalone=True)], []))
