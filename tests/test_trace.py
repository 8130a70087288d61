"""A run's frames (gaqueens.reports.trace) and `run --trace`/`--html`: the frames are the run's
(its end is the stored result's), each frame's attacks are its placement's attacking pairs,
and the trace file is genoxide's format 1."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from gaqueens import ga, run as run_command
from gaqueens.ga import GaSettings
from gaqueens.problems.nqueens.verifier import attacking_pairs
from gaqueens.reports import trace

HEADER = {"format", "example", "objective", "x_label", "y_label", "log_y", "optimum", "plot",
          "problem"}


def by_hand(placement):
    """The attacking pairs, by the definition: same column or same diagonal distance."""
    return [[a, b] for a, b in itertools.combinations(range(len(placement)), 2)
            if placement[a] == placement[b] or abs(placement[a] - placement[b]) == b - a]


@pytest.mark.parametrize("placement, expected", [
    ([1, 3, 0, 2], []),                      # the 4-queens solution
    ([0, 1], [[0, 1]]),                      # one falling diagonal
    ([1, 0], [[0, 1]]),                      # one rising diagonal
    ([0, 0, 3, 1], [[0, 1]]),                # one column
    ([0, 1, 2], [[0, 1], [0, 2], [1, 2]]),   # the main diagonal
    ([], []),
])
def test_attacks_worked_by_hand(placement, expected):
    assert trace.attacks(placement) == expected


@hsettings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=1, max_size=12))
def test_attacks_are_the_verifiers_pairs(placement):
    pairs = trace.attacks(placement)
    assert pairs == by_hand(placement)
    assert len(pairs) == attacking_pairs(placement)


CASES = [(GaSettings(), 8, 1), (GaSettings(), 16, 7), (GaSettings(), 32, 3),
         (GaSettings(engine="deap", generations=300), 10, 2),
         (GaSettings(generations=40), 24, 5)]  # stopped short, unsolved


def check_frames(frames, result):
    assert frames[0]["generation"] == 0
    generations = [f["generation"] for f in frames]
    assert generations == sorted(set(generations))
    last = frames[-1]
    assert last["generation"] == result.generations
    assert last["evaluations"] == result.work
    assert last["state"]["best"] == [int(c) for c in result.solution]
    for f in frames:
        assert f["state"]["attacks"] == by_hand(f["state"]["best"])
        assert f["best"] == attacking_pairs(f["state"]["best"])  # fitness: pairs
    assert [f["evaluations"] for f in frames] == sorted(f["evaluations"] for f in frames)


@pytest.mark.parametrize("settings, board, seed", CASES)
def test_frames_are_the_runs(settings, board, seed):
    result, frames = trace.frames(settings, board, seed)
    stored = ga.run(settings, board, seed)
    assert (result.work, result.generations) == (stored.work, stored.generations)
    assert np.array_equal(result.solution, stored.solution)
    check_frames(frames, stored)
    best = [f["best"] for f in frames]
    assert all(a >= b for a, b in zip(best, best[1:]))  # the best so far never worsens
    if stored.generations + 1 < trace.MOST:  # a frame per generation
        assert [f["generation"] for f in frames] == list(range(stored.generations + 1))


@hsettings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=12, unique=True),
       st.sampled_from([8, 13, 16]), st.sampled_from([None, 30]))
def test_frames_of_seeds_replayed_together_are_each_seeds_own(seeds, board, cap):
    # runs of one batch end at different generations; each keeps seeing only its own run
    settings = GaSettings() if cap is None else GaSettings(generations=cap)
    together = trace.frames_many(settings, board, seeds)
    for seed, (result, frames) in zip(seeds, together):
        alone_result, alone = trace.frames(settings, board, seed)
        assert frames == alone
        assert (result.work, result.generations) == (alone_result.work, alone_result.generations)


def test_long_run_keeps_at_most_200_frames_on_a_doubled_stride():
    settings = GaSettings(generations=1500, target=None)  # never stops early
    result, frames = trace.frames(settings, 12, 1)
    assert len(frames) <= trace.MOST
    inner = [f["generation"] for f in frames[:-1]]
    stride = inner[1] - inner[0]
    assert stride > 1 and stride & (stride - 1) == 0  # doubled from 1: a power of two
    assert all(g % stride == 0 for g in inner)
    assert inner == list(range(0, inner[-1] + 1, stride))
    assert frames[-1]["generation"] == 1500 == result.generations


def test_trace_file_is_genoxides_format(tmp_path):
    path = tmp_path / "trace.json"
    assert run_command.main(["--board", "12", "--seed", "4", "--trace", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert set(data) == HEADER | {"frames"}
    assert data["format"] == 1 and data["plot"] == "board" and data["problem"] == {"n": 12}
    assert data["example"] == "n_queens"  # genoxide's name of its N-Queens example
    assert data["objective"] == "minimize" and data["log_y"] is False
    lines = text.splitlines()
    assert len(lines) == len(data["frames"]) + 2  # the header, a frame a line, the end
    for line in lines[1:-1]:
        frame = json.loads(line.rstrip(","))
        assert list(frame) == sorted(frame)
        assert set(frame) == {"generation", "evaluations", "best", "median", "state"}
        assert list(frame["state"]) == ["attacks", "best"]
    stored = ga.run(GaSettings(), 12, 4)
    check_frames(data["frames"], stored)


def test_floats_are_rounded_to_six_significant_digits():
    assert trace.rounded(1 / 3) == 0.333333
    assert trace.rounded(123456789.0) == 123457000.0
    assert trace.rounded([2.5, {"a": float("inf")}, 3]) == [2.5, {"a": None}, 3]
    assert trace.to_json({"b": 1, "a": 2.0}) == '{"a":2.0,"b":1}'


@pytest.mark.parametrize("board, seed, generations", [(10, 3, None), (14, 2, 400)])
def test_html_page_plays_the_traces_frames(tmp_path, board, seed, generations):
    """run --html embeds the frames run --trace writes for the same run: a frame per generation
    (at most 200), each with the trace's generation, evaluations, best and median fitness and
    genome, its conflicts the genome's attacking pairs; and the run's settings."""
    page, path = tmp_path / "run.html", tmp_path / "run.json"
    settings = GaSettings() if generations is None else GaSettings(generations=generations,
                                                                   target=None)
    argv = ["--board", str(board), "--seed", str(seed), "--html", str(page), "--trace", str(path)]
    if generations is not None:  # never stops early: more than 200 generations
        (tmp_path / "long.yaml").write_text(f"boards: [{board}]\nga: {{stop: {{target: none, "
                                            f"generations: {generations}}}}}\n")
        argv.insert(0, str(tmp_path / "long.yaml"))
    assert run_command.main(argv) == 0
    text = page.read_text(encoding="utf-8")
    start = text.index('<script id="player-data" type="application/json">')
    payload = json.loads(text[start:].split(">", 1)[1].split("</script>", 1)[0])
    (item,) = payload["runs"]
    stored = ga.run(settings, board, seed)
    traced = json.loads(path.read_text(encoding="utf-8"))["frames"]
    assert item["matches"] and item["work"] == stored.work
    frames = item["frames"]
    if stored.generations + 1 < trace.MOST:
        assert len(frames) == stored.generations + 1
    else:
        assert trace.MOST // 2 <= len(frames) <= trace.MOST
    genome = None
    for mine, theirs in zip(frames, traced, strict=True):
        genome = mine[5] if mine[5] is not None else genome
        assert mine[:4] == [theirs["generation"], theirs["evaluations"], theirs["best"],
                            theirs["median"]]
        assert genome == " ".join(map(str, theirs["state"]["best"]))
        assert mine[4] == attacking_pairs([int(c) for c in genome.split()])
    assert frames[-1][1] == stored.work and genome == " ".join(map(str, stored.solution))
    rows = payload["settings"]["ga"]["rows"]
    assert ["population", "20", False] in rows and ["stop", "{target: " + (
        "0, generations: 50000}" if generations is None else f"none, generations: {generations}}}"),
        False] in rows


@pytest.mark.parametrize("arguments, message", [
    (["--algorithm", "local-search", "--trace", "{tmp}/t.json"], "not a GA"),
    (["--trace", "{tmp}/missing/t.json"], "does not exist"),
    (["--board", "5000", "--html", "{tmp}/t.html"], "up to 4,096"),
])
def test_bad_trace_requests_exit_2(tmp_path, capsys, arguments, message):
    argv = [a.format(tmp=tmp_path) for a in arguments]
    if "--board" not in argv:
        argv = ["--board", "8", *argv]
    assert run_command.main(argv) == 2
    assert message in capsys.readouterr().err
