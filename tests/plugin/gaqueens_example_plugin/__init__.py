"""A tiny gaqueens plug-in: a solver (solver.py), a mutation (operators.py) and a problem
(problem.py)."""
