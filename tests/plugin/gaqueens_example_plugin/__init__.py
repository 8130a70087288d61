"""A tiny gaqueens plug-in: a solver (solver.py) and a mutation (operators.py)."""
