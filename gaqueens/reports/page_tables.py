"""The report page's tables (gaqueens.reports.page): summary.csv and comparisons.csv as HTML,
each cell marked with its column (data-column) for tests and scripts and, where it holds a
number, that number in full (data-value, by which page.js sorts); numbers as ``number`` writes
them (an infinite median or ratio as ∞, none as -), times as ``duration``; the column of sizes
headed by the problem's word for one (board for N-Queens).

The columns a reader looks for come first, so that a phone shows them without scrolling
sideways: the algorithm, the size, the median (or the ratio) and the verdict; the rest
follows in its box, which scrolls."""

from __future__ import annotations

import html
import math

from gaqueens.reports import page_data

SUMMARY_COLUMNS = (  # (column, heading), shown where summary.csv has them
    ("algorithm", "algorithm"), ("board", "board"), ("median", "median"), ("unit", "unit"),
    ("verdict", "verdict"), ("interval", "95% interval"), ("reference", "published"),
    ("detects", "detects"), ("runs", "runs"), ("solved", "solved"), ("ert", "ERT"),
    ("iqr", "q1 to q3"), ("median_seconds", "median time"),
)
COMPARISON_COLUMNS = (  # the same for comparisons.csv; its other columns follow as named
    ("algorithm", "algorithm"), ("board", "board"), ("median_ratio", "ratio of medians"),
    ("verdict", "verdict"), ("interval", "95% interval"), ("p_value", "p"),
    ("p_holm", "Holm p"), ("unit", "unit"), ("reference", "against"),
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


def verdict_class(value) -> str:
    """A verdict cell's classes: text, and the verdict's first words ("too few runs (3)":
    too-few-runs), which page.css styles."""
    return "text " + str(value).split(" (")[0].replace(" ", "-")


def sortable(value) -> str:
    """A cell's data-value attribute: its number in full, for sorting; none for text."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return ""
    return f' data-value="{value!r}"' if math.isfinite(value) else (
        f' data-value="{"Infinity" if value > 0 else "-Infinity"}"')


def table(frame, columns, *, caption: str = "", table_id: str = "", values=None) -> str:
    """An HTML table of ``frame``'s ``columns`` ((column, heading)), cells by ``number``;
    ``values`` (column -> a number per row) gives the number a cell of text sorts by."""
    shown = [(c, h) for c, h in columns if c in frame.columns]
    head = "".join(f'<th class="{"text" if c in TEXT_COLUMNS else ""}" scope="col">{e(h)}</th>'
                   for c, h in shown)
    values = values or {}
    rows = []
    for place, record in enumerate(frame.to_dict("records")):
        cells = []
        for column, _ in shown:
            value = record[column]
            kind = verdict_class(value) if column == "verdict" else (
                "text" if column in TEXT_COLUMNS and isinstance(value, str) else "")
            by = sortable(values[column][place] if column in values else value)
            text = e(number(value))
            if column == "algorithm":  # a grid's cells' names break after , and .
                text = text.replace(",", ",<wbr>").replace(".", ".<wbr>")
            cells.append(f'<td class="{e(kind)}" data-column="{e(column)}"{by}>{text}</td>')
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
    summary = published_first(folder.summary).reset_index(drop=True)
    values = {}
    for name, low, high in (("iqr", "q1", "q3"), ("interval", "ci_low", "ci_high")):
        if low in summary.columns and high in summary.columns:
            values[name] = summary[low].tolist()
            summary = summary.assign(**{name: ranged(summary, low, high)})
    if "median_seconds" in summary.columns:
        values["median_seconds"] = summary["median_seconds"].tolist()
        summary = summary.assign(median_seconds=[duration(v) for v in summary["median_seconds"]])
    if "detects" in summary.columns:
        values["detects"] = summary["detects"].tolist()
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
            + table(summary, columns, table_id="summary-table", values=values)
            + "".join(f'<p class="note">{e(n)}</p>' for n in notes) + "</section>")


def comparisons_section(folder: page_data.Folder) -> str:
    frame = folder.comparisons
    if frame is None or not len(frame):
        return ""
    frame = published_first(frame).reset_index(drop=True)
    values = {}
    if "ci_low" in frame.columns and "ci_high" in frame.columns:
        values["interval"] = frame["ci_low"].tolist()
        frame = frame.assign(interval=ranged(frame, "ci_low", "ci_high"))
    known = dict(COMPARISON_COLUMNS)
    columns = sized([*COMPARISON_COLUMNS, *((c, c.replace("_", " ")) for c in frame.columns
                                            if c not in known and c not in ("ci_low", "ci_high"))],
                    folder)
    reference = frame["reference"].iloc[0] if "reference" in frame.columns else "the reference"
    units = sorted(set(frame["unit"])) if "unit" in frame.columns else []
    measured = (f"its median {units[0]}" if len(units) == 1 else
                "its median in the unit of each row (unit)")
    size = folder.solved_by().size_label
    return ("<section id=\"comparisons\"><h2>Comparisons</h2>"
            f'<p class="lead">Each algorithm beside {e(reference)}, {e(size)} by {e(size)}: '
            f"{e(measured)} over {e(reference)}'s (the ratio of medians), its 95% interval, the "
            "verdict, the rank test's p-value and the same Holm-adjusted over the "
            "comparisons.</p>"
            + table(frame, columns, table_id="comparisons-table", values=values)
            + "</section>")
