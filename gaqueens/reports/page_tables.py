"""The report page's tables (gaqueens.reports.page): summary.csv and comparisons.csv as HTML,
each cell marked with its column (data-column) for tests and scripts; numbers as ``number``
writes them (an infinite median or ratio as ∞, none as -), times as ``duration``; the
column of sizes headed by the problem's word for one (board for N-Queens)."""

from __future__ import annotations

import html
import math

from gaqueens.reports import page_data

SUMMARY_COLUMNS = (  # (column, heading), shown where summary.csv has them
    ("algorithm", "algorithm"), ("board", "board"), ("unit", "unit"), ("runs", "runs"),
    ("solved", "solved"), ("ert", "ERT"),
    ("median", "median"), ("iqr", "q1 to q3"), ("interval", "95% interval"),
    ("reference", "published"), ("verdict", "verdict"),
    ("detects", "detects"), ("median_seconds", "median time"),
)
TALL_ROWS = 24  # a table with more rows scrolls in a box of its own, its headings kept
TEXT_COLUMNS = {"algorithm", "unit", "verdict", "reference"}


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


def sized(columns, folder: page_data.Folder) -> list[tuple[str, str]]:
    """``columns`` ((column, heading)) with the board column headed by the problem's word
    for one size."""
    label = folder.solved_by().size_label
    return [(c, label if c == "board" else h) for c, h in columns]


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
                "text" if column in TEXT_COLUMNS and isinstance(value, str) else "")
            cells.append(f'<td class="{e(kind)}" data-column="{e(column)}">{e(number(value))}</td>')
        published = ' class="published"' if record.get("algorithm") == "ga" else ""
        rows.append(f"<tr{published}>{''.join(cells)}</tr>")
    ident = f' id="{e(table_id)}"' if table_id else ""
    cap = f"<caption class=\"note\">{e(caption)}</caption>" if caption else ""
    tall = " tall" if len(rows) > TALL_ROWS else ""
    return (f'<div class="scroll{tall}"><table{ident}>{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def duration(seconds) -> str:
    """A time in s, ms or µs, to 3 significant digits."""
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
    columns = sized(SUMMARY_COLUMNS, folder)
    units = set(summary["unit"]) if "unit" in summary.columns else set()
    if len(units) == 1:  # one unit for all: said once, in the heading
        columns = [(c, f"median {next(iter(units))}" if c == "median" else h)
                   for c, h in columns if c != "unit"]
    notes = ["Work is counted in each algorithm's own unit. The median is over the runs, an "
             "unsolved run's work counting as infinite (∞); q1 to q3 is the middle half of the "
             "runs; the 95% interval is the bootstrapped interval of the median; median time is "
             "the median processor time of a run (its share of its batch's for GA runs made together)."]
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
    columns = sized([(c, c.replace("_", " ")) for c in frame.columns], folder)
    reference = frame["reference"].iloc[0] if "reference" in frame.columns else "the reference"
    size = folder.solved_by().size_label
    return ("<section id=\"comparisons\"><h2>Comparisons</h2>"
            f'<p class="lead">Each algorithm beside {e(reference)}, {e(size)} by {e(size)}: the ratio '
            "of the median work, its 95% interval, the rank test's p-value and the same Holm-"
            "adjusted over the comparisons, and the verdict.</p>"
            + table(published_first(frame), columns, table_id="comparisons-table")
            + "</section>")
