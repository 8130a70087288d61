"""The counter: against the shipped counts, against brute force over every permutation with the
8 symmetries of the square applied by hand, its tasks, one thread against several, and its
command's answers to good and bad input and to Ctrl-C; the listing of every solution
(count N --list, --html) against the same brute force, the verifier and the table."""

import itertools
import os
import re
import signal
import subprocess
import sys
import time

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest

from gaqueens import count as command
from gaqueens.problems.nqueens.facts import known_solutions
from gaqueens.problems.nqueens.counting import count, tasks
from gaqueens.problems.nqueens import verifier
from gaqueens.problems.nqueens.counting_kernel import DEPTH, symmetry
from gaqueens.problems.nqueens.solutions import images as solution_images
from gaqueens.problems.nqueens.solutions import is_fundamental, listing


def solutions(n):
    """Every solution, as a tuple of columns, by brute force over the permutations."""
    return [p for p in itertools.permutations(range(n))
            if len({r - c for r, c in enumerate(p)}) == n == len({r + c for r, c in enumerate(p)})]


def quarter_turn(p):
    """The queen (r, c) goes to (c, n - 1 - r)."""
    n = len(p)
    q = [0] * n
    for r, c in enumerate(p):
        q[c] = n - 1 - r
    return tuple(q)


def mirror(p):
    """Left and right exchanged: the queen (r, c) goes to (r, n - 1 - c)."""
    return tuple(len(p) - 1 - c for c in p)


def turns(p):
    out = [tuple(p)]
    for _ in range(3):
        out.append(quarter_turn(out[-1]))
    return out


def symmetries(p):
    """The 8 images of p: 4 turns, and the 4 reflections (a turn after the mirror)."""
    return turns(p) + turns(mirror(p))


@pytest.mark.parametrize("n", range(1, 14))
def test_count_matches_the_shipped_counts(n):
    assert count(n) == known_solutions(n)


@pytest.mark.parametrize("n", [4, 9, 12, 13])
def test_one_thread_and_several_count_the_same(n):
    assert count(n, workers=1) == count(n, workers=2) == count(n, workers=5)


@pytest.mark.parametrize("n", range(4, 10))
def test_the_tasks_are_the_mirror_halved_placements_of_the_first_rows(n):
    """Each task is the first DEPTH rows of some solutions; taken together they start every
    solution whose first queen is left of the middle (or in it, the second left of it)."""
    found = tasks(n, DEPTH)
    assert len({tuple(prefix) for prefix in found}) == len(found)
    half = n // 2
    starts = {tuple(1 << c for c in p[:DEPTH]) for p in solutions(n)
              if p[0] < half or (n % 2 and p[0] == half and p[1] < half)}
    assert starts <= {tuple(prefix) for prefix in found}
    for prefix in found:
        columns = [bit.bit_length() - 1 for bit in prefix]
        assert len(set(columns)) == DEPTH
        assert all(abs(columns[i] - columns[j]) != j - i
                   for i in range(DEPTH) for j in range(i + 1, DEPTH))


def test_the_symmetries_worked_by_hand_on_a_solution_of_four():
    assert quarter_turn((1, 3, 0, 2)) == (1, 3, 0, 2)  # the 4 x 4 solution is its own quarter turn
    assert mirror((1, 3, 0, 2)) == (2, 0, 3, 1)
    assert len(set(symmetries((0, 4, 7, 5, 2, 6, 1, 3)))) == 8


@pytest.mark.parametrize("n", range(2, 9))
def test_no_solution_is_its_own_reflection_so_classes_have_8_4_or_2_members(n):
    for p in solutions(n):
        images = symmetries(p)
        assert p not in images[4:]  # the four reflections
        half_turn, quarter = images[2] == p, images[1] == p
        assert len(set(images)) == (2 if quarter else 4 if half_turn else 8)
        placed = np.array([1 << c for c in p], dtype=np.int64)
        assert symmetry(placed, n - 1) == (2 if quarter else 1 if half_turn else 0)


@pytest.mark.parametrize("n", range(1, 9))
def test_count_matches_brute_force_with_classes_drawn_up_by_hand(n):
    found = solutions(n)
    classes = {min(symmetries(p)) for p in found}
    assert count(n) == (len(found), len(classes))


def test_count_refuses_a_board_without_rows_or_too_wide_for_its_masks():
    with pytest.raises(ValueError, match="at least one row"):
        count(0)
    with pytest.raises(ValueError, match="up to 18"):
        count(19)


# ---- the command ----------------------------------------------------------------------------


def test_the_command_prints_both_counts_the_time_and_the_match():
    done = subprocess.run([sys.executable, "-m", "gaqueens.count", "8"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    first, second = done.stdout.splitlines()
    assert first.startswith("8 x 8: 92 solutions, 12 fundamental, ") and first.endswith(" s")
    assert second.startswith("matches the published counts")


@pytest.mark.parametrize("text", ["0", "19", "-1", "abc", "8.0", "1e3", "", " ", "9" * 5000])
def test_bad_input_is_refused_with_one_line_and_exit_2(text, capsys):
    assert command.main([text]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("error: N must be a whole number from 1 to 18")


@pytest.mark.parametrize("argv", [[], ["8", "9"], ["--what"]])
def test_usage_errors_are_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        command.main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_count_that_differs_from_the_table_exits_1(monkeypatch, capsys):
    monkeypatch.setattr(command, "count", lambda n: (93, 12))
    assert command.main(["8"]) == 1
    assert "published counts are 92 and 12" in capsys.readouterr().err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for CPU time")
def test_ctrl_c_stops_a_long_count_promptly_with_exit_130():
    """Interrupted once it has spent two seconds of CPU time (inside the count by then: the
    command and its imports take a fraction of that), 18 x 18 stops within seconds."""
    counting = subprocess.Popen([sys.executable, "-m", "gaqueens.count", "18"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ticks, deadline = os.sysconf("SC_CLK_TCK"), time.monotonic() + 120
    while time.monotonic() < deadline and counting.poll() is None:
        with open(f"/proc/{counting.pid}/stat") as stat:
            user, system = stat.read().rsplit(")", 1)[1].split()[11:13]
        if (int(user) + int(system)) / ticks > 2:
            break
        time.sleep(0.05)
    counting.send_signal(signal.SIGINT)
    out, err = counting.communicate(timeout=60)  # N = 18 would count for hours
    assert counting.returncode == 130 and out == ""
    assert err.strip() == "interrupted"


# ---- every solution listed (gaqueens.problems.nqueens.solutions, count N --list) -----------


def listed_lines(n, capsys):
    assert command.main([str(n), "--list"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


def parsed(text):
    starred = text.endswith(" *")
    return tuple(int(c) for c in text.removesuffix(" *").split(" ")), starred


@pytest.mark.parametrize("n", [8, 10])
def test_list_prints_every_solution_verified_in_order_with_one_star_per_class(n, capsys):
    """8: 92 lines, 12 starred; 10: 724 lines, 92 starred (the shipped counts); each line a
    solution by the independent verifier, in strictly increasing order; the star on the least
    of each class, and on one member of each."""
    lines = listed_lines(n, capsys)
    every, fundamental = known_solutions(n)
    rows = [parsed(text) for text in lines]
    assert len(rows) == every and sum(starred for _, starred in rows) == fundamental
    assert all(verifier.is_solution(p, n) for p, _ in rows)
    assert [p for p, _ in rows] == sorted({p for p, _ in rows})  # sorted and distinct
    classes = {}
    for p, starred in rows:
        classes.setdefault(min(symmetries(p)), []).append(starred)
    assert len(classes) == fundamental and all(sum(marks) == 1 for marks in classes.values())
    assert all(starred == (p == min(symmetries(p))) for p, starred in rows)


@pytest.mark.parametrize("n", range(1, 9))
def test_the_listing_is_brute_force_in_order(n):
    found = solutions(n)  # permutations come in lexicographic order
    assert [p for p, _ in listing(n)] == found
    assert [s for _, s in listing(n)] == [p == min(symmetries(p)) for p in found]


def test_the_images_match_the_symmetries_drawn_up_by_hand():
    for p in [(1, 3, 0, 2), (0, 4, 7, 5, 2, 6, 1, 3), (2, 0, 3, 1, 4)]:
        assert solution_images(p) == symmetries(p)


@hypothesis.given(st.integers(1, 9).flatmap(lambda n: st.permutations(range(n))))
def test_the_symmetries_keep_the_attacking_pairs_so_map_solutions_to_solutions(p):
    """Any placement's 8 images attack in as many pairs as it does (a turn or a reflection
    maps lines to lines), so a solution's images are solutions; they are a group: each image's
    images are the same 8 placements, and their least is one fundamental placement."""
    n = len(p)
    pairs = verifier.attacking_pairs(p)
    found = solution_images(p)
    assert found[0] == tuple(p) and len(found) == 8
    assert all(verifier.attacking_pairs(q) == pairs for q in found)
    assert all(verifier.is_solution(q, n) == (pairs == 0) for q in found)
    assert all(set(solution_images(q)) == set(found) for q in found)
    assert sum(is_fundamental(q) for q in set(found)) == 1


@pytest.mark.parametrize("n", [13, 18])
def test_list_and_html_refuse_boards_above_12_with_one_line_and_exit_2(n, tmp_path, capsys):
    for option in (["--list"], ["--html", str(tmp_path / "page.html")]):
        assert command.main([str(n), *option]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "up to N = 12" in err
    assert not (tmp_path / "page.html").exists()


def test_list_refuses_bad_input_like_the_count(capsys):
    assert command.main(["0", "--list"]) == 2
    assert capsys.readouterr().err.startswith("error: N must be a whole number from 1 to 18")


def test_html_writes_one_self_contained_page_with_the_counts(tmp_path, capsys):
    page = tmp_path / "eight.html"
    assert command.main(["8", "--html", str(page)]) == 0
    assert "92 solutions" in capsys.readouterr().out
    text = page.read_text()
    assert '<span id="count">92</span>' in text and '<span id="fundamental">12</span>' in text
    assert 'data-board="8"' in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)


def test_list_whose_counts_differ_from_the_table_exits_1(monkeypatch, capsys):
    monkeypatch.setattr(command.solutions, "listing", lambda n: [((0,), True)])
    assert command.main(["8", "--list"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "published counts are 92 and 12" in err
