"""A problem of a user's own reads as itself in everything the reports write (README,
"Extending"; gaqueens/problems/__init__.py, its words): summary.md, the plots, the page and
its player, `report`, and `run --trace`/`--html`, its title shown, its sizes, genomes and
conflicts in its own words, its conflicts counted by its own verifier, its genome drawn
plainly; N-Queens reads as it always has (tests/test_page.py, test_trace.py).

The problem is the example plug-in's all-interval series (tests/plugged.py), named by its
import path."""

import json
import re
import shutil

import pytest

import plugged
from gaqueens import problems, report, run as run_command
from gaqueens.problems.nqueens.verifier import attacking_pairs
from test_page import embedded, placements, seen, svg_text


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    with plugged.on_path():
        yield plugged.make_sweep(tmp_path_factory.mktemp("words"))


NQUEENS_WORDS = re.compile(r"\b(boards?|queens?|placements?|attacking)\b|\d x \d", re.I)


def test_the_problems_words_have_defaults_and_nqueens_its_own():
    with plugged.on_path() as name:
        mine, nqueens = problems.get(name), problems.get("nqueens")
    assert (mine.size_label, mine.sizes_label, mine.genome_label, mine.picture) == (
        "size", "sizes", "genome", "genome")
    assert mine.size_text(1024) == "size 1,024" and mine.trace_example == ""
    assert (nqueens.size_label, nqueens.sizes_label, nqueens.genome_label, nqueens.picture) == (
        "board", "boards", "placement", "queens")
    assert nqueens.size_text(1024) == "1,024 x 1,024" and nqueens.trace_example == "n_queens"
    assert "genome" in mine.picture_note() and "repeated gaps" in mine.picture_note()
    assert not NQUEENS_WORDS.search(mine.picture_note()) and "queen" in nqueens.picture_note()
    genomes = [[0, 1, 2, 3], [1, 3, 0, 2], [3, 2, 1, 0]]
    for solved_by in (mine, nqueens):  # all at once, as one at a time
        measure = solved_by.measures[0]
        assert solved_by.measured_rows(4, genomes, measure).tolist() == [
            solved_by.measured(4, genome, measure) for genome in genomes]
    assert nqueens.measured_rows(4, genomes, "pairs").tolist() == [6, 0, 6]
    assert mine.measured_rows(4, genomes, "repeats").tolist() == [2, 1, 2]


def test_report_writes_the_page_of_a_plugin_problems_sweep_again(swept, capsys):
    """issue 47: "manifest.json: algorithms.ga.problem is not a known key", exit 2."""
    before = (swept / "index.html").read_text(encoding="utf-8")
    (swept / "index.html").unlink()
    with plugged.on_path():
        assert report.main([str(swept)]) == 0, capsys.readouterr().err
    assert (swept / "index.html").read_text(encoding="utf-8") == before
    copy = swept.parent / "committed"  # from the committed files alone, replayed
    shutil.copytree(swept, copy, ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock",
                                                               "index.html"))
    with plugged.on_path():
        assert report.main([str(copy)]) == 0, capsys.readouterr().err
    assert embedded((copy / "index.html").read_text(encoding="utf-8"))["runs"]


def test_report_on_a_problem_not_installed_says_so_in_one_line(swept, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(swept, copy, ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock"))
    manifest = (copy / "manifest.json").read_text(encoding="utf-8")
    (copy / "manifest.json").write_text(manifest.replace(plugged.PROBLEM, "no_such.problem"))
    assert report.main([str(copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "manifest.json: settings.problem no_such.problem" in err
    assert "cannot be imported (ModuleNotFoundError: No module named 'no_such')" in err


def test_the_page_reads_as_the_problem(swept):
    text = (swept / "index.html").read_text(encoding="utf-8")
    shown = seen(text)
    words = " ".join(shown.text)
    title = "intervals: All-interval series, sizes 6, 9, 13; seeds 1 to 5"
    assert f"<title>{title}</title>" in text and f"<h1>{title}</h1>" in text
    assert "size" in shown.headings and "board" not in shown.headings
    assert "size by size" in words and "best genome" in words
    assert "grow with the size?" in words
    assert not NQUEENS_WORDS.search(words), NQUEENS_WORDS.search(words)
    assert "<label>size <select" in text
    data = embedded(text)
    assert data["words"] == {"title": plugged.TITLE, "size": "size", "sizes": "sizes",
                             "genome": "genome", "conflicts": "repeated gaps",
                             "picture": "genome", "note": "Each bar is an entry of the genome, from the first "
                             "on the left, as high as its value; its conflicts are its repeated gaps."}
    assert data["notes"] == []  # every replay ends where its stored run did
    assert "its conflicts are its repeated gaps" in words


def test_the_players_frames_count_the_problems_conflicts(swept):
    """issue 47: the player counted N-Queens' attacking pairs on any problem ("5 conflicts"
    beside "7 best fitness")."""
    data = embedded((swept / "index.html").read_text(encoding="utf-8"))
    differ = 0
    for item in data["runs"]:
        assert item["matches"]
        for frame, genome in zip(item["frames"], placements(item)):
            assert frame[4] == plugged.repeats(genome) == frame[2]  # its fitness: repeats
            differ += attacking_pairs(genome) != frame[4]
    assert differ  # what N-Queens' verifier would have said instead


def test_summary_md_reads_as_the_problem(swept):
    text = (swept / "summary.md").read_text()
    assert text.startswith("# intervals: All-interval series, sizes 6, 9, 13; seeds 1 to 5\n")
    assert "| algorithm | size | solved |" in text
    assert "| size | algorithm | median / median of ga (95% CI) |" in text
    assert "## The sizes" in text and "on the same size" in text
    assert "| size | genomes (N!) | solutions | repeated gaps of a random genome, exact |" in text
    assert "| 6 | 720 | not counted | not known |" in text and "nan" not in text
    assert not NQUEENS_WORDS.search(text), NQUEENS_WORDS.search(text)


def test_the_plots_read_as_the_problem(swept):
    title = "intervals: All-interval series, sizes 6, 9, 13; seeds 1 to 5"
    plots = {p.stem: svg_text(p) for p in swept.glob("*.svg")}
    assert {"convergence", "ecdf", "fixed-target", "ecdf-seconds", "seconds"} <= set(plots)
    for stem, text in plots.items():
        assert title in text, stem
        assert not NQUEENS_WORDS.search(text), (stem, NQUEENS_WORDS.search(text))
    assert "best repeated gaps in the population" in plots["convergence"]
    assert all(f"size {n}" in plots["convergence"] for n in (6, 9, 13))
    assert "size 13 | targets 0, 1" in plots["fixed-target"]
    assert "size N" in plots["seconds"] and "size 9" in plots["ecdf-seconds"]


def test_run_trace_and_html_of_a_plugin_problem(tmp_path):
    """issue 47: the trace said "example": "n_queens" and carried N-Queens' attacks for any
    problem, and the --html page counted conflicts with N-Queens' verifier."""
    file = tmp_path / "intervals.yaml"
    file.write_text(plugged.EXPERIMENT)
    trace, page = tmp_path / "run.json", tmp_path / "run.html"
    with plugged.on_path():
        assert run_command.main([str(file), "--board", "13", "--seed", "1", "--trace",
                                 str(trace), "--html", str(page)]) == 0
    data = json.loads(trace.read_text(encoding="utf-8"))
    assert data["example"] == "all-interval" and data["plot"] == "permutation"
    assert data["problem"] == {"n": 13}
    for frame in data["frames"]:
        assert list(frame["state"]) == ["best"]  # no queens, no attacks
        assert frame["best"] == plugged.repeats(frame["state"]["best"])
    text = page.read_text(encoding="utf-8")
    assert "<title>All-interval series: ga on size 13, seed 1</title>" in text
    player = embedded(text)
    assert player["words"]["picture"] == "genome"
    item = player["runs"][0]
    assert [f[4] for f in item["frames"]] == [plugged.repeats(g) for g in placements(item)]
    assert not NQUEENS_WORDS.search(" ".join(seen(text).text))
