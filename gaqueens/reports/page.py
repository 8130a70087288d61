"""index.html: an output folder as one self-contained page, and a single run's player page.

The folder's page (``write``), made from its exports (gaqueens.reports.page_data) and opened
from file:// with nothing fetched (no CDN, no request beyond file: and data:):

    Summary        summary.csv: per algorithm and board the runs, solved, the median work with
                   its interquartile range and 95% interval, the published median and verdict
                   where there is one; the published GA (ga) first
    Comparisons    comparisons.csv: each algorithm's median work over the reference's, with
                   its interval, p-values and verdict
    Watch a run    the player (page.js): a GA run replayed from its settings and seed, a frame
                   at each improvement of its best placement (gaqueens.reports.page_player says
                   which runs are embedded)
    Plots          every plot inline (SVG, or the PNG where no SVG exists), each captioned with
                   the question it answers
    Provenance     the manifest: the command, the versions, the commit, the code of the runs
    Files          links to the folder's CSV and markdown files

``player_page`` writes the player alone, for one run (``python -m gaqueens.run --html``).
"""

from __future__ import annotations

import html
import json
import math
from importlib import resources
from pathlib import Path

from gaqueens.core.files import write_text
from gaqueens.reports import page_data, page_player

FILE = "index.html"
SUMMARY_COLUMNS = (  # (column, heading), shown where summary.csv has them
    ("algorithm", "algorithm"), ("board", "board"), ("unit", "work in"), ("runs", "runs"),
    ("solved", "solved"), ("success_rate", "success rate"), ("ert", "ERT"),
    ("median", "median"), ("iqr", "q1 to q3"), ("interval", "95% interval"),
    ("reference", "published"), ("verdict", "verdict"),
    ("detects", "detects"), ("median_seconds", "median time"),
)
TALL_ROWS = 24  # a table with more rows scrolls in a box of its own, its headings kept
TEXT_COLUMNS = {"algorithm", "unit", "verdict", "reference"}


def asset(name: str) -> str:
    return resources.files("gaqueens.reports").joinpath(name).read_text(encoding="utf-8")


def e(value) -> str:
    return html.escape(str(value), quote=True)


def number(value) -> str:
    """A table cell's number: whole numbers with thousands separators, others to 3
    significant digits (4 from 1,000 up); - for none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if float(value) == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def published_first(frame):
    """Rows of the published GA (algorithm ga) first, the rest in their order."""
    if frame is None or "algorithm" not in frame.columns:
        return frame
    return frame.assign(_first=frame["algorithm"] != "ga").sort_values(
        "_first", kind="stable").drop(columns="_first")


def table(frame, columns, *, caption: str = "", table_id: str = "") -> str:
    """An HTML table of ``frame``'s ``columns`` ((column, heading)), cells by ``number``."""
    shown = [(c, h) for c, h in columns if c in frame.columns]
    head = "".join(f'<th class="{"text" if c in TEXT_COLUMNS else ""}" scope="col">{e(h)}</th>'
                   for c, h in shown)
    rows = []
    for record in frame.to_dict("records"):
        cells = []
        for column, _ in shown:
            value = record[column]
            kind = ("text " + str(value).replace(" ", "-")) if column in ("verdict",) else (
                "text" if column in TEXT_COLUMNS else "")
            cells.append(f'<td class="{e(kind)}" data-column="{e(column)}">{e(number(value))}</td>')
        published = ' class="published"' if record.get("algorithm") == "ga" else ""
        rows.append(f"<tr{published}>{''.join(cells)}</tr>")
    ident = f' id="{e(table_id)}"' if table_id else ""
    cap = f"<caption class=\"note\">{e(caption)}</caption>" if caption else ""
    tall = " tall" if len(rows) > TALL_ROWS else ""
    return (f'<div class="scroll{tall}"><table{ident}>{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def duration(seconds) -> str:
    """A wall time in s, ms or µs, to 3 significant digits."""
    if not isinstance(seconds, float) or seconds != seconds:
        return "-"
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale or unit == "µs":
            return f"{seconds / scale:.3g} {unit}"


def ranged(frame, low: str, high: str):
    """Two columns as one cell's text, "low to high"."""
    return [f"{number(a)} to {number(b)}" for a, b in zip(frame[low], frame[high])]


def summary_section(folder: page_data.Folder) -> str:
    summary = published_first(folder.summary)
    for name, low, high in (("iqr", "q1", "q3"), ("interval", "ci_low", "ci_high")):
        if low in summary.columns and high in summary.columns:
            summary = summary.assign(**{name: ranged(summary, low, high)})
    if "median_seconds" in summary.columns:
        summary = summary.assign(median_seconds=[duration(v) for v in summary["median_seconds"]])
    if "detects" in summary.columns:
        summary = summary.assign(detects=[f"±{v:.0%}" if isinstance(v, float) and v == v
                                          else "-" for v in summary["detects"]])
    columns = SUMMARY_COLUMNS
    units = set(summary["unit"]) if "unit" in summary.columns else set()
    if len(units) == 1:  # one unit for all: said once, in the heading
        columns = [(c, f"median {next(iter(units))}" if c == "median" else h)
                   for c, h in SUMMARY_COLUMNS if c != "unit"]
    notes = ["Work is counted in each algorithm's own unit. The median is over the runs, an "
             "unsolved run's work counting as infinite (∞); q1 to q3 is the middle half of the "
             "runs; the 95% interval is the bootstrapped interval of the median; median time is "
             "the median wall time of a run."]
    if "verdict" in summary.columns and summary["verdict"].notna().any():
        notes.append("Published: the median the published table gives for the GA. Verdict: "
                     "reproduced when the published median lies within the central 99% of the "
                     "bootstrapped difference of medians of samples of the published run count "
                     "drawn from our runs; detects: the relative shift of the median the test "
                     "detects with 80% power (summary.md says more).")
    if "ert" in summary.columns:
        notes.append("ERT, the expected running time: the work of all runs over the solved ones.")
    return ("<section id=\"summary\"><h2>Summary</h2>"
            + table(summary, columns, table_id="summary-table")
            + "".join(f'<p class="note">{e(n)}</p>' for n in notes) + "</section>")


def comparisons_section(folder: page_data.Folder) -> str:
    frame = folder.comparisons
    if frame is None or not len(frame):
        return ""
    columns = [(c, c.replace("_", " ")) for c in frame.columns]
    reference = frame["reference"].iloc[0] if "reference" in frame.columns else "the reference"
    return ("<section id=\"comparisons\"><h2>Comparisons</h2>"
            f'<p class="lead">Each algorithm beside {e(reference)}, board by board: the ratio '
            "of the median work, its 95% interval, the rank test's p-value and the same Holm-"
            "adjusted over the comparisons, and the verdict.</p>"
            + table(published_first(frame), columns, table_id="comparisons-table")
            + "</section>")


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


def player_section(data: dict, standalone: bool = False) -> str:
    """The player's markup and its embedded runs (page.js draws them)."""
    if not data["runs"]:
        return ("<section id=\"watch\"><h2>Watch a run</h2><p class=\"note\">No GA run to "
                "replay here (no GA entry, or no manifest giving its settings).</p></section>")
    embedded = ("" if standalone else page_player.describe(data))
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    heading = "" if standalone else "<h2>Watch a run</h2>"
    return f"""<section id="watch">{heading}
<p class="lead">A run depends on its settings and seed alone, so the page made each run again
from its seed when it was written and kept a frame at each improvement of the best placement.
{e(embedded)}</p>{''.join(f'<p class="note warning">{e(n)}</p>' for n in data["code_notes"])}
<div id="player">
<div class="controls">
<label>algorithm <select id="pick-algorithm"></select></label>
<label>board <select id="pick-board"></select></label>
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
<p class="note">Queens in red attack another queen; a line joins each attacking pair.</p>
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


def write(path, settings: dict | None = None, store=None) -> Path:
    """Writes ``path``/index.html from the folder's exports; ``settings`` (entry name ->
    GaSettings) are the GA entries' settings, read from the manifest when None; ``store``, the
    folder's open store, gives the runs and the code that made each. Returns the page's path."""
    folder = page_data.read(path)
    if store is not None:  # the stored runs, their placements included
        folder.runs = store.runs()
    names = set(folder.summary["algorithm"])
    if settings is None:
        settings = page_data.ga_settings(folder.manifest, names)
    codes = page_data.stored_codes(folder, store)
    data = page_player.player_data(folder.runs, {k: v for k, v in settings.items() if k in names},
                                   codes)
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


def player_page(path, algorithm: str, item: dict) -> None:
    """Writes the player alone for one replayed run (page_player.replayed's ``item``)."""
    data = {"runs": [dict(item, default=False)], "left_out": [], "code_notes": [], "larger": [],
            "replayed_up_to": page_player.REPLAYED_UP_TO, "all_seeds_up_to": 0}
    title = f"{algorithm} on board {item['board']}, seed {item['seed']}"
    lead = (f"{'Solved' if item['solved'] else 'Not solved'} after {item['work']:,} evaluations. "
            "Drag the slider or press Play.")
    write_text(path, document(title, lead, [player_section(data, standalone=True)], []))
