"""A tiny gaqueens plug-in: an N-Queens solver (solver.py), a mutation (operators.py), a problem
(problem.py) and a solver of that problem (interval_search.py)."""
