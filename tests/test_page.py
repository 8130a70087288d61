"""The report page (gaqueens.reports.page) of a real small sweep, read as HTML: written by the
sweep and again by `python -m gaqueens.report`, from the store or from the committed files,
self-contained, with the summary's figures and the player's runs being the stored ones."""

import json
import math
import re
import shutil
from html.parser import HTMLParser

import pandas as pd
import pytest

from gaqueens import report
from gaqueens.problems.nqueens.verifier import attacking_pairs
from gaqueens.reports import page, page_data, page_player, page_settings, page_tables
from gaqueens.sweep import main as sweep

SMALL = """\
boards: [8, 10]
seeds: {first: 1, last: 7}
reference: {8: 100}
variants:
  uniform-parents: {select: uniform}
baselines: [min-conflicts]
"""


def make_sweep(root):
    (root / "small.yaml").write_text(SMALL)
    out = root / "out"
    assert sweep([str(root / "small.yaml"), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    return make_sweep(tmp_path_factory.mktemp("page"))


class Cells(HTMLParser):
    """Each table's cells by id: {table id: [{data-column: text}, ...]}."""

    def __init__(self):
        super().__init__()
        self.tables, self.table, self.row, self.column, self.text = {}, None, None, None, ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = attrs.get("id")
            self.tables[self.table] = []
        elif tag == "tr" and self.table:
            self.row = {}
        elif tag == "td" and self.row is not None:
            self.column, self.text = attrs.get("data-column"), ""

    def handle_data(self, data):
        if self.column:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "td" and self.column:
            self.row[self.column] = self.text
            self.column = None
        elif tag == "tr" and self.row:
            self.tables[self.table].append(self.row)
            self.row = None


def cells(text):
    parser = Cells()
    parser.feed(text)
    return parser.tables


def embedded(text):
    start = text.index('<script id="player-data" type="application/json">')
    return json.loads(text[start:].split(">", 1)[1].split("</script>", 1)[0])


def placements(item) -> list[list[int]]:
    """Each embedded frame's genome: written where it changes, else the frame before's
    (gaqueens.reports.page_player)."""
    out = []
    for frame in item["frames"]:
        out.append(out[-1] if frame[5] is None else [int(c) for c in frame[5].split()])
    return out


class Seen(HTMLParser):
    """The text a reader sees of a page (no script, style or inline plot) and its headings
    of table columns."""

    def __init__(self):
        super().__init__()
        self.hidden, self.text, self.headings, self.heading = 0, [], [], None

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style", "svg")
        if tag == "th":
            self.heading = ""

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "svg")
        if tag == "th":
            self.headings.append(self.heading)
            self.heading = None

    def handle_data(self, data):
        if not self.hidden:
            self.text.append(data)
            if self.heading is not None:
                self.heading += data


def seen(text: str) -> Seen:
    parser = Seen()
    parser.feed(text)
    return parser


def svg_text(path) -> str:
    """The text an SVG plot shows (matplotlib keeps it as text: gaqueens.reports.figures)."""
    return " | ".join(re.sub(r"<[^>]+>", "", t) for t in
                      re.findall(r"<text\b.*?</text>", path.read_text(encoding="utf-8"), re.S))


def as_number(cell):
    return math.inf if cell == "∞" else float(cell.replace(",", ""))


def test_the_sweep_writes_a_self_contained_page(swept):
    text = (swept / "index.html").read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    # nothing fetched: no external source, stylesheet, script or font
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "<link" not in text and "@import" not in text and "url(http" not in text
    for name in ("runs.csv", "summary.csv", "comparisons.csv"):
        assert f'href="{name}"' in text


def test_the_summarys_figures_are_on_the_page(swept):
    summary = pd.read_csv(swept / "summary.csv")
    shown = cells((swept / "index.html").read_text(encoding="utf-8"))["summary-table"]
    assert len(shown) == len(summary)
    assert shown[0]["algorithm"] == "ga"  # the published GA first
    by_key = {(row["algorithm"], int(row["board"])): row for row in shown}
    for row in summary.itertuples():
        cell = by_key[(row.algorithm, row.board)]
        assert int(cell["runs"]) == row.runs and int(cell["solved"]) == row.solved
        assert as_number(cell["median"]) == pytest.approx(row.median, rel=5e-3)
        low, high = cell["interval"].split(" to ")
        assert as_number(low) == pytest.approx(row.ci_low, rel=5e-3)
        assert as_number(high) == pytest.approx(row.ci_high, rel=5e-3)
        if isinstance(row.verdict, str):
            assert cell["verdict"] == row.verdict


def test_the_players_runs_are_the_stored_ones(swept):
    runs = pd.read_csv(swept / "runs.csv")
    runs = runs.rename(columns={"evaluations": "work"})
    data = embedded((swept / "index.html").read_text(encoding="utf-8"))
    names = {r["algorithm"] for r in data["runs"]}
    assert names == {"ga", "uniform-parents"}  # the GA entries, not the baseline
    for item in data["runs"]:
        stored = runs[(runs["algorithm"] == item["algorithm"]) & (runs["board"] == item["board"])
                      & (runs["seed"] == item["seed"])].iloc[0]
        assert item["matches"]
        last = item["frames"][-1]
        genomes = placements(item)
        assert last[1] == stored["work"] and " ".join(map(str, genomes[-1])) == stored["solution"]
        assert item["frames"][0][5] is not None
        assert last[0] == stored["generations"]  # a frame per generation, 0 to the last
        assert [f[0] for f in item["frames"]] == list(range(stored["generations"] + 1))
        for frame, placement in zip(item["frames"], genomes):
            assert frame[4] == attacking_pairs(placement) and len(placement) == item["board"]
    played = {}
    for item in data["runs"]:
        for role in item["roles"]:
            played[(item["algorithm"], item["board"], role)] = item["seed"]
    assert set(played) == {(a, b, r) for a in ("ga", "uniform-parents") for b in (8, 10)
                           for r in ("median", "best", "worst")}
    for (name, board, role), seed in played.items():
        group = runs[(runs["algorithm"] == name) & (runs["board"] == board)]
        work = group["work"].where(group["solved"], math.inf)
        mine = work[group["seed"] == seed].iloc[0]
        if role == "median":  # as many runs with less work as with more
            assert (work < mine).sum() <= len(group) // 2 and (work > mine).sum() <= len(group) // 2
        else:  # the least work (the lowest seed among equals) or the most (the highest)
            ends = group.loc[work[work == (work.min() if role == "best" else work.max())].index,
                             "seed"]
            assert seed == (ends.min() if role == "best" else ends.max())
    seeds = {r["seed"] for r in data["runs"] if r["algorithm"] == "ga" and r["board"] == 8}
    assert seeds == set(range(1, 8))  # every seed of the published GA on small boards


def test_report_writes_the_same_page_from_the_store(swept, capsys):
    before = (swept / "index.html").read_text(encoding="utf-8")
    (swept / "index.html").unlink()
    assert report.main([str(swept)]) == 0
    assert "index.html" in capsys.readouterr().out
    assert (swept / "index.html").read_text(encoding="utf-8") == before


def test_report_from_committed_files_alone(swept, tmp_path):
    copy = tmp_path / "committed"
    shutil.copytree(swept, copy, ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock",
                                                               "index.html", "*.svg"))
    (copy / "note.svg").write_text('<?xml version="1.0"?>\n<!DOCTYPE svg>\n'
                                   '<svg xmlns="http://www.w3.org/2000/svg" id="mine"></svg>')
    assert report.main([str(copy)]) == 0
    text = (copy / "index.html").read_text(encoding="utf-8")
    assert embedded(text)["runs"]  # replayed from the manifest's settings
    assert '<svg xmlns="http://www.w3.org/2000/svg" id="plot-note-mine"></svg>' in text
    assert "<?xml" not in text
    pngs = [p.stem for p in copy.glob("*.png")]
    assert pngs and all(f'data-plot="{stem}" data-kind="png"' in text for stem in pngs)
    assert text.count("data:image/png;base64,") == len(pngs)


def test_report_refuses_a_folder_without_runs(tmp_path, capsys):
    assert report.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "neither runs.sqlite nor summary.csv" in err
    assert report.main([str(tmp_path / "missing")]) == 2


@pytest.mark.parametrize("value, shown", [
    (120.0, "120"), (1180.0, "1,180"), (0.61, "0.61"), (16870.5, "16,870"),
    (float("nan"), "-"), (None, "-"), (float("inf"), "∞"), ("reproduced", "reproduced"),
    (0.0002452, "0.000245"),
])
def test_numbers_in_cells(value, shown):
    assert page_tables.number(value) == shown


def test_the_median_best_and_worst_seeds_worked_by_hand():
    runs = pd.DataFrame({"seed": [1, 2, 3, 4], "work": [50, 10, 30, 99],
                         "solved": [True, True, True, False]})
    # 10, 30, 50, inf: the lower middle; the unsolved run the worst
    assert page_player.roles(runs) == {3: ["median"], 2: ["best"], 4: ["worst"]}
    assert page_player.roles(runs.iloc[:3]) == {3: ["median"], 2: ["best"], 1: ["worst"]}
    assert page_player.roles(runs.iloc[:1]) == {1: ["median", "best", "worst"]}
    ties = pd.DataFrame({"seed": [5, 4, 6], "work": [20, 20, 20], "solved": True})
    assert page_player.roles(ties) == {5: ["median"], 4: ["best"], 6: ["worst"]}


def test_report_fault_exits_3_in_one_line(swept, tmp_path, capsys, monkeypatch):
    copy = tmp_path / "copy"
    shutil.copytree(swept, copy, ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock"))

    def boom(*args, **kwargs):
        raise RuntimeError("the page broke")

    monkeypatch.setattr(page, "write", boom)
    assert report.main([str(copy)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unexpected RuntimeError: the page broke" in err
    assert "Traceback" in (copy / "error.log").read_text()


def test_each_plots_ids_are_its_own():
    svg = ('<svg><defs><path id="g1"/><clipPath id="c1"/></defs><use xlink:href="#g1"/>'
           '<g clip-path="url(#c1)"/><a href="#elsewhere"/></svg>')
    first, second = page_data.own_ids(svg, "plot-a"), page_data.own_ids(svg, "plot-b")
    assert first == ('<svg><defs><path id="plot-a-g1"/><clipPath id="plot-a-c1"/></defs>'
                     '<use xlink:href="#plot-a-g1"/><g clip-path="url(#plot-a-c1)"/>'
                     '<a href="#elsewhere"/></svg>')
    assert set(re.findall(r'id="([^"]+)"', first)).isdisjoint(re.findall(r'id="([^"]+)"', second))


def test_every_seed_embedded_is_the_published_gas_even_when_another_entry_sorts_first():
    from gaqueens.ga import GaSettings

    runs = pd.DataFrame([{"algorithm": name, "board": 8, "seed": seed, "solved": True,
                          "work": 20 * seed, "generations": seed}
                         for name in ("alpha", "ga") for seed in (1, 2, 3, 4, 5)])
    chosen, left = page_player.choose(runs, {"ga": GaSettings(), "alpha": GaSettings()})
    every = [row for row, roles in chosen if not roles]
    assert not left and every and {row["algorithm"] for row in every} == {"ga"}


def test_every_seed_is_at_most_the_lowest_hundred_of_a_board():
    from gaqueens.ga import GaSettings

    seeds = range(1, 151)
    runs = pd.DataFrame({"algorithm": "ga", "board": 8, "seed": list(seeds), "solved": True,
                         "work": [10 * s for s in seeds], "generations": 3})
    chosen, left = page_player.choose(runs, {"ga": GaSettings()})
    assert not left
    played = {int(row["seed"]): roles for row, roles in chosen if roles}
    others = sorted(int(row["seed"]) for row, roles in chosen if not roles)
    assert played == {75: ["median"], 1: ["best"], 150: ["worst"]}
    assert others == [s for s in range(2, 101) if s != 75]
    assert page_player._more_seeds(runs, {"ga": GaSettings()})
    assert not page_player._more_seeds(runs[runs["seed"] <= 100], {"ga": GaSettings()})


def test_nqueens_pages_and_summaries_keep_their_words(swept):
    """N-Queens' words (gaqueens/problems/nqueens), as they always read; the title now
    shown (tests/test_problem_words.py: another problem's own)."""
    text = (swept / "index.html").read_text(encoding="utf-8")
    shown = seen(text)
    assert "<title>small: N-Queens, boards 8, 10; seeds 1 to 7</title>" in text
    assert "board" in shown.headings
    assert "<label>board <select" in text
    assert "Queens in red attack another queen" in " ".join(shown.text)
    assert embedded(text)["words"]["picture"] == "queens"
    assert cells(text)["summary-table"][0]["board"] == "8"
    summary = (swept / "summary.md").read_text()
    assert summary.startswith("# small: N-Queens, boards 8, 10; seeds 1 to 7\n")
    assert "| algorithm | board | solved |" in summary and "## The boards" in summary
    assert "| board | placements (N!) | solutions | attacking pairs of a random placement" in summary
    assert "8 x 8" in svg_text(swept / "convergence.svg")


def test_a_variant_is_told_by_what_it_changes():
    ga = {"engine": "numpy", "population": 20, "variation": "each", "select": {"tournament": 2},
          "stop": {"target": 0, "generations": 50000}}
    deap = {"engine": "deap", "population": 20, "variation": "or", "mutpb": 1,
            "stop": {"target": 0, "generations": 5000}}
    uniform = dict(ga, select="uniform")
    said = page_settings.described({"ga": ga, "deap-selbest": deap, "uniform-parents": uniform,
                                    "twin": dict(ga), "local-search": {"budget": 10}})
    assert said["deap-selbest"]["differs"] == (
        "as ga, but engine: deap, variation: or, stop.generations: 5000, mutpb: 1; select does "
        "not apply")
    assert said["uniform-parents"]["differs"] == "as ga, but select: uniform"
    assert said["twin"]["differs"] == "the same settings as ga"
    assert said["ga"]["differs"] == "" and said["local-search"]["kind"] == "solver"
    assert said["ga"]["rows"][3] == ["select", "{tournament: 2}", False]
    assert [row[0] for row in said["deap-selbest"]["rows"] if row[2]] == [
        "engine", "variation", "mutpb", "stop"]  # in the entry's own order
    # the first GA entry is the reference where none is named ga
    assert page_settings.described({"a": ga, "b": uniform})["b"]["differs"] == \
        "as a, but select: uniform"


def test_the_page_shows_every_entrys_settings_and_links_every_file_there(swept):
    text = (swept / "index.html").read_text(encoding="utf-8")
    rows = dict(re.findall(r'<tr data-entry="([^"]+)">(.*?)</tr>', text, re.S))
    assert set(rows) == {"ga", "uniform-parents", "min-conflicts"}
    assert "as ga, but select: uniform" in rows["uniform-parents"]
    assert "population: 20" in rows["ga"] and "tries: " in rows["min-conflicts"]
    linked = set(re.findall(r'<a href="([^"#]+)"', text))
    present = {p.name for p in swept.iterdir()
               if p.suffix in (".csv", ".md", ".json", ".svg", ".png")}
    assert linked == present
    for plot in page_data.plots(swept):  # each opens its SVG full size
        assert f'<a class="open" href="{plot.stem}.svg"' in text
    # the verdict comes early: right after the algorithm, the size and the median
    headings = seen(text).headings
    assert headings[:4] == ["algorithm", "board", "median", "unit"]
    assert headings[4] == "verdict"


def test_runs_csv_beside_runs_compact_csv_is_not_linked(swept, tmp_path):
    copy = tmp_path / "big"
    shutil.copytree(swept, copy, ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock"))
    runs = pd.read_csv(copy / "runs.csv")
    runs.drop(columns="solution").to_csv(copy / "runs-compact.csv", index=False)
    folder = page_data.read(copy)
    assert "runs-compact.csv" in folder.files and "runs.csv" not in folder.files
    assert folder.files[0] == "manifest.json"


def test_the_replay_warning_only_where_a_replay_differs():
    from gaqueens.ga import GaSettings

    settings = {"ga": GaSettings()}
    old = {"ga": {"gaqueens 0.0.9, commit 76fd1c": 7}}  # another commit made the runs
    items = [{"algorithm": "ga", "matches": True}] * 3
    assert page_player.mismatch_notes(items, settings, old) == []
    items[1] = {"algorithm": "ga", "matches": False}
    (note,) = page_player.mismatch_notes(items, settings, old)
    assert note.startswith("1 of 3 replays (ga) do not end where their stored runs did")
    assert "made by gaqueens 0.0.9, commit 76fd1c" in note


def test_report_at_later_code_warns_of_no_replay_that_matches(swept, tmp_path):
    """issue 48: a page written again at a later commit warned that the runs were made by
    other code although every replay matched."""
    copy = tmp_path / "later"
    shutil.copytree(swept, copy, ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock"))
    record = json.loads((copy / "manifest.json").read_text())
    record["code"] = "gaqueens 0.0.9, commit 76fd1c59"
    (copy / "manifest.json").write_text(json.dumps(record))
    assert report.main([str(copy)]) == 0
    text = (copy / "index.html").read_text(encoding="utf-8")
    assert all(item["matches"] for item in embedded(text)["runs"])
    assert 'class="note warning"' not in text and "76fd1c59" in text  # in the provenance


def test_a_large_sweeps_replays_shared_among_processes_are_the_ones_made_here(swept, monkeypatch):
    """page_player.player_data replays on every core from tables.PARALLEL_FROM runs on: the
    same frames, in the same order, as made in this process."""
    from gaqueens.reports import tables

    runs = pd.read_csv(swept / "runs.csv")
    settings = page_data.ga_settings(json.loads((swept / "manifest.json").read_text()),
                                     list(dict.fromkeys(runs["algorithm"])))
    here = page_player.player_data(runs, settings, {})
    monkeypatch.setattr(tables, "PARALLEL_FROM", 1)
    shared = page_player.player_data(runs, settings, {})
    assert shared == here and len(here["runs"]) > 2
    assert {run["algorithm"] for run in here["runs"]} == {"ga", "uniform-parents"}
