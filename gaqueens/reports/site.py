"""results/ as one site, written from each folder's own files (``python -m gaqueens.readme``
writes it with the README's sections):

    results/index.html   a row per results folder: what it shows, its headline figure and a
                         link to its page
    a sweep's folder     its own index.html (gaqueens.reports.page, written by the sweep or
                         ``python -m gaqueens.report``), given a link home where it lacks one
    another folder       (fidelity, agreement, bench, scale: a report in markdown beside its
                         CSV files) an index.html made of its markdown files, each table
                         sortable, and links to every file in it

What a folder shows: for a sweep, the first sentence of its experiment file's opening comment,
else the sweep's title; for another folder, the first heading (or bold words) of its markdown.
Its headline: the verdicts its files give, counted (summary.csv, comparisons.csv, a CSV with a
verdict column, goals.csv). Every page works offline and links only files that are there.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from gaqueens.core.files import write_text
from gaqueens.reports import page, words
from gaqueens.reports.page_tables import TALL_ROWS, e
from gaqueens.runtime import manifest as manifests

FILE = page.FILE
ORDER_FIRST = ("table",)  # the published table, then the caller's order, then by name


def inline(text: str) -> str:
    """A line of markdown's inline marks as HTML: `code`, **bold**, [text](address)."""
    out = e(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)


def _table(lines: list[str]) -> str:
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = cells[0], [row for row in cells[2:]]
    tall = " tall" if len(body) > TALL_ROWS else ""
    return (f'<div class="scroll{tall}"><table><thead><tr>'
            + "".join(f'<th scope="col" class="text">{inline(c)}</th>' for c in head)
            + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(f'<td class="text">{inline(c)}</td>' for c in row)
                      + "</tr>" for row in body) + "</tbody></table></div>")


def _list(lines: list[str]) -> str:
    """Items ("- ") nested by their indent."""
    out, depths = [], []
    for line in lines:
        depth = len(line) - len(line.lstrip())
        while depths and depth < depths[-1]:
            out.append("</li></ul>")
            depths.pop()
        if not depths or depth > depths[-1]:
            out.append("<ul>")
            depths.append(depth)
        else:
            out.append("</li>")
        out.append(f"<li>{inline(line.strip()[2:])}")
    return "".join(out) + "</li></ul>" * len(depths)


def _kind(line: str) -> str | None:
    if not line.strip():
        return "blank"
    if re.match(r"#{1,5}\s", line):
        return "heading"
    return "table" if line.startswith("|") else "list" if re.match(r"\s*- ", line) else None


def markdown(text: str) -> str:
    """The markdown of the project's reports as HTML: headings (one level below the page's
    title), paragraphs, tables, nested lists, and the inline marks of ``inline``."""
    blocks, lines = [], text.splitlines()
    at = 0
    while at < len(lines):
        kind = _kind(lines[at])
        end = at + 1
        if kind not in ("blank", "heading"):
            while end < len(lines) and _kind(lines[end]) == kind:
                end += 1
        part = lines[at:end]
        if kind == "heading":
            marks, heading = part[0].split(None, 1)
            level = min(len(marks) + 1, 6)
            blocks.append(f"<h{level}>{inline(heading)}</h{level}>")
        elif kind in ("table", "list"):
            blocks.append(_table(part) if kind == "table" else _list(part))
        elif kind is None:
            blocks.append(f"<p>{inline(' '.join(part))}</p>")
        at = end
    return "\n".join(blocks)


def _heading(text: str) -> str:
    """A report's title: its first heading, else the bold words it opens with."""
    for line in text.splitlines():
        found = re.match(r"#{1,5}\s+(.*)", line) or re.match(r"\*\*(.+?)\*\*", line)
        if found:
            return re.sub(r"[`*]", "", found[1]).strip()
    return ""


def _verdicts(values) -> str:
    counted = Counter(re.split(r" \(|:", v)[0] for v in values if isinstance(v, str) and v)
    return ", ".join(f"{count} {verdict}" for verdict, count in counted.most_common())


def headline(folder: Path) -> str:
    """The folder's figure at a glance: its verdicts counted (the module docstring)."""
    import pandas as pd

    parts = []
    summary, compared = folder / "summary.csv", folder / "comparisons.csv"
    if summary.exists():
        frame = pd.read_csv(summary)
        if "verdict" in frame.columns and frame["verdict"].notna().any():
            parts.append(f"against the published medians: {_verdicts(frame['verdict'])}")
        runs = int(frame["runs"].sum()) if "runs" in frame.columns else 0
        count = frame["algorithm"].nunique()
        parts.insert(0, f"{runs:,} runs of {count} algorithm{'s' if count > 1 else ''}")
    if compared.exists() and compared.stat().st_size:
        frame = pd.read_csv(compared)
        if "verdict" in frame.columns and len(frame):
            parts.append(f"against {frame['reference'].iloc[0]}: {_verdicts(frame['verdict'])}"
                         if "reference" in frame.columns else _verdicts(frame["verdict"]))
    if (folder / "goals.csv").exists():
        goals = pd.read_csv(folder / "goals.csv", keep_default_na=False, dtype=str)
        parts.append(f"{len(goals)} goals: {_verdicts(goals['met'])}")
    elif not summary.exists():
        for path in sorted(folder.glob("*.csv")):
            frame = pd.read_csv(path)
            if "verdict" in frame.columns:
                parts.append(f"{path.stem}: {_verdicts(frame['verdict'])}")
    return "; ".join(parts)


def what(folder: Path, results: Path) -> str:
    """What the folder shows, in a sentence (the module docstring)."""
    record = manifests.read(folder) if (folder / manifests.FILE).exists() else None
    if record:
        experiment = record.get("experiment")
        for base in (results.resolve().parent, Path.cwd()):
            path = base / experiment if experiment else None
            if path is not None and path.is_file():
                comment = []
                for line in path.read_text(encoding="utf-8").splitlines():
                    if not line.startswith("#"):
                        break
                    comment.append(line.lstrip("#").strip())
                sentence = re.split(r"(?<=\.)\s", " ".join(comment), maxsplit=1)[0]
                if sentence:
                    return sentence
        title = words.recorded_title(record.get("settings", {}), folder.name)
        if title:
            return title
    reports = sorted(folder.glob("*.md"))
    return _heading(reports[0].read_text(encoding="utf-8")) if reports else ""


def folders(results: Path, order=()) -> list[Path]:
    """The results folders a site lists: those holding a sweep's outputs or a report in
    markdown; ORDER_FIRST, then ``order``, then the rest by name."""
    found = [p for p in results.iterdir() if p.is_dir()
             and ((p / "summary.csv").exists() or any(p.glob("*.md")))]
    ranked = [*ORDER_FIRST, *order]
    return sorted(found, key=lambda p: (ranked.index(p.name) if p.name in ranked
                                        else len(ranked), p.name))


def report_page(folder: Path) -> str:
    """A folder's page made of its markdown reports, and links to every file in it."""
    reports = sorted(folder.glob("*.md"))
    texts = [p.read_text(encoding="utf-8") for p in reports]
    title = _heading(texts[0]) or folder.name
    body = []
    for path, text in zip(reports, texts):
        if text.lstrip().startswith("# "):  # its title is the page's
            text = text.lstrip().split("\n", 1)[1] if "\n" in text.lstrip() else ""
        body.append(f'<section id="{e(path.stem)}"><h2>{e(path.name)}</h2>'
                    f"{markdown(text)}</section>")
    names = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != FILE)
    links = "".join(f'<li><a href="{e(n)}">{e(n)}</a></li>' for n in names)
    body.append(f'<section id="files"><h2>Files</h2><ul class="files">{links}</ul></section>')
    lead = (f"results/{folder.name}: {', '.join(p.name for p in reports)} as a page "
            "(python -m gaqueens.readme writes it from them).")
    return page.document(f"{folder.name}: {title}", lead, body,
                         [(p.stem, p.name) for p in reports] + [("files", "Files")], home=True)


def index_page(results: Path, listed: list[Path], made=()) -> str:
    """The site's index; ``made``: the pages the site writes beside those already there."""
    rows = []
    for folder in listed:
        target = FILE if (folder / FILE).exists() or folder / FILE in made else next(
            (p.name for p in sorted(folder.glob("*.md"))), FILE)
        rows.append(f'<tr data-folder="{e(folder.name)}"><td class="text"><a href="'
                    f'{e(folder.name)}/{e(target)}">{e(folder.name)}</a></td>'
                    f'<td class="text wrap">{e(what(folder, results))}</td>'
                    f'<td class="text wrap">{e(headline(folder))}</td></tr>')
    table = ('<div class="scroll"><table id="folders"><thead><tr>'
             '<th class="text" scope="col">folder</th><th class="text" scope="col">what it '
             'shows</th><th class="text" scope="col">headline</th></tr></thead>'
             f"<tbody>{''.join(rows)}</tbody></table></div>")
    section = f'<section id="folders-section"><h2>Folders</h2>{table}</section>'
    return page.document("gaqueens: results", "Every folder of results/, each with its page: "
                         "what it shows and its verdicts at a glance, written by python -m "
                         "gaqueens.readme from the folders' own files.", [section], [])


def pages(results, order=()) -> dict[Path, str]:
    """The site's pages (the module docstring), path -> text, without writing them: the index,
    each report folder's page, and each sweep's page with its link home."""
    results = Path(results)
    listed = folders(results, order)
    out = {}
    for folder in listed:
        path = folder / FILE
        if not (folder / "summary.csv").exists():
            out[path] = report_page(folder)
        elif path.exists():
            out[path] = page.with_home(path.read_text(encoding="utf-8"))
    out[results / FILE] = index_page(results, listed, set(out))
    return out


def write(results, order=()) -> list[Path]:
    """Writes the site's pages into ``results`` where they differ from what is there; returns
    those written."""
    written = []
    for path, text in pages(results, order).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_text(path, text)
            written.append(path)
    return written
