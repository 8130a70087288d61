"""The classic non-evolutionary solvers run beside the GA, one module per algorithm, each
registered under its name where its ``run`` is defined (gaqueens.core.algorithms).

    local_search.py            Sosic and Gu's swaps (1994), compiled: local_search_kernel.py
    min_conflicts.py           Minton et al.'s repair (1992), compiled: min_conflicts_kernel.py
    backtracking.py            plain depth-first search with a node budget
    backtracking_heuristic.py  most constrained line first, random ties, restarts
    construction.py            Bernhardsson's explicit solution (1991)
"""

from gaqueens.baselines import (backtracking, backtracking_heuristic, construction,  # noqa: F401
                                local_search, min_conflicts)
