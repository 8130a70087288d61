"""The benchmarks: gaqueens beside genoxide 0.13.1 and C twins, and the checks of the engines.

    python -m gaqueens.bench [--quick] [--out DIR] [--repeats R]

A benchmark, not a test: these machines are shared and noisy, so each section runs what it
compares side by side, alternating, and reports medians with their spread and ratios taken
pair by pair; beside a goal, how many pairs are within it and the sign test of their median
against it (bench.md, written by the command, says how each section measures). Its sections:

(a) engine.py   the GA engine's microseconds per evaluation on boards 8 to 128 against
                genoxide's, and its compiled generation against the GA's C twin (c/ga.c)
(b) sweeps.py   the whole published table, ``python -m gaqueens.sweep``, against genoxide's
                program making the same runs (genoxide_runs.py), wall time
(c) sweeps.py   the main job, experiments/n8.yaml, against genoxide's program, wall time
(d) boards.py   per board, one run of the local search, the GA, and the GA on DEAP's objects
(e) solvers.py  the classic solvers and the counter beside their goals, each run in a process
                of its own (solver_runs.py), the local search against its C twin
                (c/local_search.c)

--quick makes a smoke run of seconds on small work. --out DIR writes bench.md, bench.csv
(every timing) and goals.csv (every goal, which python -m gaqueens.readme summarises). Without
genoxide (pip install 'gaqueens[bench]') the sections run without it and say so.

The other commands here: ``python -m gaqueens.bench.scale`` (the 100,000-run sweep, scale.py),
``bench.memory`` (each algorithm's stated memory against a run's peak, memory.py),
``bench.agreement`` (engine: numpy against engine: deap, agreement*.py, and DEAP's own example,
deap_example.py), ``bench.verdict`` (the coverage of the reproduction verdict) and
``bench.reference`` (genoxide's stored runs for the fidelity check).
"""
