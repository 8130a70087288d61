"""results/ as one site (gaqueens.reports.site, written by `python -m gaqueens.readme`, README
"Regenerating results/"): an index of every folder with what it shows and its verdicts, a page
for each folder of markdown reports, a link home on every page, and every link resolving to a
file that is there."""

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from gaqueens import readme, report
from gaqueens.reports import page, site
from gaqueens.sweep import main as sweep
from test_page import SMALL

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ("fidelity", "agreement", "bench", "scale")  # folders of markdown reports
COMMENT = "# A small sweep for the site: two GAs and a solver. Nothing more to say.\n"


class Links(HTMLParser):
    """A page's links (href, src) and ids."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key) is not None and tag in ("a", "img", "link", "script"):
                self.links.append(attrs[key])


def links_of(path: Path) -> Links:
    parsed = Links()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


def crawl(start: Path, exists=Path.exists) -> dict[Path, Links]:
    """Every page reached from ``start`` by its links, each link checked: a local file that
    ``exists``, or an id of its page (#id); nothing fetched from elsewhere."""
    seen, todo = {}, [start.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = found = links_of(path)
        for link in found.links:
            assert not re.match(r"[a-z]+://|//", link), (path, link)
            if link.startswith("data:"):
                continue
            if link.startswith("#"):
                assert link[1:] in found.ids, (path, link)
                continue
            target = (path.parent / link).resolve()
            assert exists(target), (path, link)
            if target.suffix == ".html":
                todo.append(target)
    return seen


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results tree: a small sweep (its experiment file opening with a comment) beside
    copies of the committed folders of reports, and the site written over them."""
    root = tmp_path_factory.mktemp("site")
    tree = root / "results"
    tree.mkdir()
    for name in REPORTS:  # their reports alone: the site writes their pages here
        shutil.copytree(ROOT / "results" / name, tree / name,
                        ignore=shutil.ignore_patterns("index.html"))
    (root / "small.yaml").write_text(COMMENT + SMALL)
    assert sweep([str(root / "small.yaml"), "--out", str(tree / "small"), "--workers", "1",
                  "--quiet"]) == 0
    assert page.HOME not in (tree / "small" / "index.html").read_text(encoding="utf-8")
    written = site.write(tree, readme.SITE_ORDER)
    assert set(written) == {tree / "index.html", tree / "small" / "index.html",
                            *(tree / name / "index.html" for name in REPORTS)}
    return tree


def test_every_link_of_the_site_resolves_and_every_page_links_home(results):
    pages = crawl(results / "index.html")
    folders = {"small", *REPORTS}
    assert {p.parent.name for p in pages if p.name == "index.html"} == {"results", *folders}
    for path, found in pages.items():
        if path.name == "index.html" and path.parent.name in folders:
            assert found.links[0] == "../index.html"  # home, first
    listed = links_of(results / "index.html").links
    # the README's order, then by name
    assert [link.split("/")[0] for link in listed] == ["fidelity", "agreement", "bench", "scale",
                                                       "small"]
    # the sweep's page links every CSV and plot file there, and no other
    small = links_of(results / "small" / "index.html").links
    for path in (results / "small").iterdir():
        if path.suffix in (".csv", ".svg", ".png", ".md", ".json"):
            assert path.name in small, path.name


def test_the_index_says_what_each_folder_shows_and_counts_its_verdicts(results):
    text = (results / "index.html").read_text(encoding="utf-8")
    rows = dict(re.findall(r'<tr data-folder="([^"]+)">(.*?)</tr>', text, re.S))
    assert "A small sweep for the site: two GAs and a solver." in rows["small"]
    assert "Nothing more" not in rows["small"]
    summary = pd.read_csv(results / "small" / "summary.csv")
    assert f"{summary['runs'].sum():,} runs of 3 algorithms" in rows["small"]
    compared = pd.read_csv(results / "small" / "comparisons.csv")
    for verdict, count in compared["verdict"].value_counts().items():
        assert f"{count} {verdict}" in rows["small"]
    fidelity = pd.read_csv(results / "fidelity" / "fidelity.csv")
    counted = ", ".join(f"{n} {v}" for v, n in fidelity["verdict"].value_counts().items())
    assert f"fidelity: {counted}" in rows["fidelity"]
    assert "Fidelity: gaqueens.ga against genoxide" in rows["fidelity"]
    goals = pd.read_csv(results / "bench" / "goals.csv")
    assert f"{len(goals)} goals: " in rows["bench"]
    assert sum(int(n) for n in re.findall(r"(\d+) (?:not )?met", rows["bench"].split(
        "goals: ")[1])) == len(goals)


def test_a_report_folders_page_holds_its_markdown(results):
    text = (results / "fidelity" / "index.html").read_text(encoding="utf-8")
    table = pd.read_csv(results / "fidelity" / "fidelity.csv")
    assert text.count("<tr>") == len(table) + 1  # the heading's and a row per board
    assert "<title>fidelity: Fidelity: gaqueens.ga against genoxide 0.13.1</title>" in text
    assert 'href="fidelity.csv"' in text and 'href="fidelity.md"' in text


def test_a_sweeps_page_written_again_in_a_site_links_home_itself(results, capsys):
    (results / "small" / "index.html").unlink()
    assert report.main([str(results / "small")]) == 0
    capsys.readouterr()
    assert (results / "small" / "index.html").read_text(encoding="utf-8").count(page.HOME) == 1
    assert site.write(results, readme.SITE_ORDER) == []  # nothing left to write


def test_readme_check_says_whether_the_site_is_current(results, tmp_path, capsys):
    copy = tmp_path / "README.md"
    shutil.copy(ROOT / "README.md", copy)
    argv = ["--readme", str(copy), "--results", str(results)]
    assert readme.main(argv) == 0  # its sections from this tree; the site is current
    assert readme.main(["--check", *argv]) == 0
    (results / "bench" / "index.html").write_text("stale", encoding="utf-8")
    assert readme.main(["--check", *argv]) == 1
    assert "index.html: differs from what" in capsys.readouterr().err
    assert readme.main(argv) == 0 and readme.main(["--check", *argv]) == 0


def test_the_committed_results_site_pages_link_only_what_is_there():
    """The site's own pages as `python -m gaqueens.readme` would write them over the committed
    results/ (not written here): every link resolves, counting the pages it writes."""
    made = site.pages(ROOT / "results", readme.SITE_ORDER)
    index = ROOT / "results" / "index.html"
    folders = {p.name for p in (ROOT / "results").iterdir() if p.is_dir()}
    listed = {link.split("/")[0] for link in re.findall(r'href="([^"]+)"', made[index])}
    assert listed == folders
    for path, text in made.items():
        if path.parent.name in REPORTS or path == index:
            for link in re.findall(r'href="([^"#]+)"', text):
                target = (path.parent / link).resolve()
                assert target.exists() or target in made, (path, link)


def test_markdown_worked_by_hand():
    text = ("# Title\n\nA line\nand **its** `code`.\n\n- one\n  - one.a\n- two\n\n"
            "| a | b |\n|---|---|\n| 1 | x <y> |\n### (a) Part\n")
    assert site.markdown(text) == (
        "<h2>Title</h2>\n<p>A line and <strong>its</strong> <code>code</code>.</p>\n"
        "<ul><li>one<ul><li>one.a</li></ul></li><li>two</li></ul>\n"
        '<div class="scroll"><table><thead><tr><th scope="col" class="text">a</th>'
        '<th scope="col" class="text">b</th></tr></thead><tbody><tr><td class="text">1</td>'
        '<td class="text">x &lt;y&gt;</td></tr></tbody></table></div>\n<h4>(a) Part</h4>')
    assert site.inline("[the page](index.html)") == '<a href="index.html">the page</a>'


def test_a_sweeps_page_links_home_where_its_folder_sits_in_a_site_and_nowhere_else(tmp_path):
    """The link home follows the sweep's folder, not the stage its outputs are written in,
    whose parent (the folder itself) holds the page of the sweep before."""
    (tmp_path / "tiny.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 2}\n")
    argv = [str(tmp_path / "tiny.yaml"), "--workers", "1", "--quiet", "--out"]
    alone = tmp_path / "alone"
    for _ in range(2):  # the second writes its outputs again, over the first's page
        assert sweep([*argv, str(alone)]) == 0
        assert page.HOME not in (alone / "index.html").read_text(encoding="utf-8")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html></html>", encoding="utf-8")
    assert sweep([*argv, str(tmp_path / "site" / "tiny")]) == 0
    text = (tmp_path / "site" / "tiny" / "index.html").read_text(encoding="utf-8")
    assert text.count(page.HOME) == 1
