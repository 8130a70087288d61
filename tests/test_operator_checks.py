"""What a plug-in operator returns, checked (gaqueens/ga/operator_checks.py, README
"Extending"): a mistake in a run is a Fault (exit 3) of one line naming the operator by its
import path, what it returned and what was expected, on either engine; one that shows on the
board of 8 is refused when the file loads (exit 2)."""

import sys

import pytest

from gaqueens import ga
from gaqueens.core.errors import Fault
from gaqueens.ga import GaSettings
from gaqueens.ga.operators import Operator, try_out
from gaqueens.sweep import main

MYOPS = """\
import random

def listy(individual):
    random.shuffle(individual)
    return individual  # not DEAP's 1-tuple

def shrinks_on_large_boards(individual):
    if len(individual) > 8:
        individual.pop()
    return (individual,)

def one_child(first, second):
    return (first,)

def picks_one(individuals, k):
    return [random.choice(individuals)]

def strangers(individuals, k):
    return [type(individuals[0])(0, 0) for _ in range(k)] if hasattr(individuals[0], "row") \\
        else [list(individuals[0]) for _ in range(k)]

def raises(individual):
    raise KeyError("no such gene")
"""


@pytest.fixture
def myops(tmp_path, monkeypatch):
    (tmp_path / "myops.py").write_text(MYOPS)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("myops", None)


FIELD = {"mutation": "mutation", "crossover": "crossover", "select": "select"}
MISTAKES = [
    ("mutation", "listy", "the mutation myops:listy returned [", "(a list), expected a 1-tuple of "
     "the genome, a permutation of 0..9 (DEAP's convention)"),
    ("mutation", "shrinks_on_large_boards", "the mutation myops:shrinks_on_large_boards returned "
     "a genome of 9 entries on a board of 10, expected a 1-tuple of the genome, a permutation "
     "of 0..9", ""),
    ("crossover", "one_child", "the crossover myops:one_child returned ([", "(a tuple), expected a "
     "2-tuple of the two genomes, each a permutation of 0..9 (DEAP's convention)"),
    ("select", "picks_one", "the select myops:picks_one returned 1 individuals, expected a list of "
     "20 of the individuals it is given", ""),
    ("select", "strangers", "the select myops:strangers returned individuals it was not given, "
     "expected a list of 20 of the individuals it is given", ""),
    ("mutation", "raises", "the mutation myops:raises raised KeyError: 'no such gene'", ""),
]


@pytest.mark.parametrize("engine", ["numpy", "deap"])
@pytest.mark.parametrize("kind, name, starts, ends", MISTAKES, ids=[m[1] for m in MISTAKES])
def test_a_plugin_operators_mistake_in_a_run_is_a_fault_naming_it(myops, engine, kind, name,
                                                                  starts, ends):
    changes = {kind: Operator(kind, "function", (), f"myops:{name}")}
    if kind == "crossover":
        changes["cxpb"] = 1.0
    with pytest.raises(Fault) as caught:
        ga.run(GaSettings(engine=engine, **changes), 10, 1)
    said = str(caught.value)
    assert said.startswith(starts) and said.endswith(ends) and "\n" not in said, said


def test_what_shows_on_the_board_of_8_is_found_when_the_file_loads(myops):
    assert try_out(Operator("mutation", "function", (), "myops:listy")).endswith(
        "(a list), expected a 1-tuple of the genome, a permutation of 0..7 (DEAP's convention)")
    assert try_out(Operator("select", "function", (), "myops:picks_one")) == (
        "returned 1 individuals, expected a list of 4 of the individuals it is given")
    assert try_out(Operator("mutation", "function", (), "myops:raises")) == (
        "raises KeyError: 'no such gene'")
    assert try_out(Operator("mutation", "function", (), "myops:shrinks_on_large_boards")) is None


def test_the_sweep_refuses_at_load_or_stops_in_one_line_naming_the_operator(myops, capsys):
    file = myops / "mine.yaml"
    file.write_text('boards: [10]\nseeds: {first: 1, last: 2}\n'
                    'ga: {mutation: {function: "myops:listy"}}\n')
    assert main([str(file), "--out", str(myops / "out"), "--workers", "1", "--quiet"]) == 2
    said = capsys.readouterr().err.strip()
    assert "ga.mutation.function 'myops:listy', tried once, returned [" in said
    assert len(said.splitlines()) == 1
    file.write_text('boards: [10]\nseeds: {first: 1, last: 2}\n'
                    'ga: {mutation: {function: "myops:shrinks_on_large_boards"}}\n')
    assert main([str(file), "--out", str(myops / "out"), "--workers", "1", "--quiet"]) == 3
    said = capsys.readouterr().err.strip()
    assert said.startswith("error: the mutation myops:shrinks_on_large_boards returned a genome "
                           "of 9 entries on a board of 10") and len(said.splitlines()) == 1
