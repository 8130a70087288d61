"""The benchmark: gaqueens' two engines beside genoxide 0.13.1.

    python -m gaqueens.bench [--quick] [--out DIR] [--repeats R]

A benchmark, not a test: these machines are shared and noisy, so each measurement runs the
engines side by side, alternating their order within each of R repetitions, and reports
medians and the ratio of the engines' times measured in the same repetition (its median and
min..max), never a threshold that could fail. Beside a ratio goal's median stand how many of
its pairs are within the goal and the two-sided sign test of the median against it (against
each bound, for a goal of two; common.sign_test): at p 0.05 or more the pairs cannot tell the
median from the goal. Its sections:

(a) engine cost: microseconds per evaluation on every board of the table (8 to 128), seeds
    1..100, in this one process: gaqueens.ga.run_many (the seeds advanced together, as the
    sweep's batches run), genoxide running the published settings seed after seed with the
    same N-Queens Conflicts object as its batch fitness, and their ratio beside issue 17's goal
    (at most 0.4 on every board); the GA's C twin (gaqueens/bench/c/ga.c, built with -O2 where
    a C compiler is found: the same operators and settings in plain C, its own random numbers)
    on as many seeds, and the ratio to it (stretch goal: within 2.5x on 128); after the
    repetitions, ga.run_many and genoxide alone alternate on in further pairs, up to 25 a
    board while these take under 10 s (engine.more_pairs), for the goal's ratio, and the
    repetitions' ratios are set beside the further pairs' (engine.kinds); for context
    gaqueens.ga.run one seed at a time (seeds 1..10) and the GA on engine: deap (DEAP's own
    objects, seeds 1..3). Each engine's time is for all its seeds, divided by its own
    evaluations.
(b) the whole table: wall time of `python -m gaqueens.sweep experiments/table.yaml
    --quiet` (default workers, tables and plots included; and with --workers 1, to show what
    the pool gains on this machine) against genoxide's single-process sweep of the same boards
    and seeds (the internal mode --genoxide-table), all subprocesses, so all pay their
    start-up; the ratio beside issue 17's goal (at most 0.4) and its reach (0.25); each
    command's processor time (user and system, its own and its processes'), with ours run again
    right after over the runs it stored (start-up, imports, tables, plots and page, no run to
    compute), and the least ratio to genoxide that such processor time allows on this
    machine's cores (processor time / cores / genoxide's wall); each sweep's runs' seconds per
    evaluation (runs.csv) against ga.run_many's on the same seeds and batches measured right
    after it, beside issue 17's goal (within 1.1x; and at most 0.5x genoxide's, from (a), on 32
    and 128); for the sweep with several workers, a control: ga.run_many in as many processes
    at once, each its share of the batches, against ga.run_many alone (what processes computing
    side by side cost each other on this machine, the sweep aside), and the in-sweep figure
    against it (what the sweep adds to that); and the median evaluations per board of each
    engine.
(c) the main job, `python -m gaqueens.sweep experiments/n8.yaml --quiet`, end to end,
    and the imports it pays for (python -X importtime); and fair timings: sweeps of the ga
    and a twin entry with equal settings (but an unreachable generation limit, so that its runs
    are made, not shared), the ratio of their median seconds per board in each sweep (goal 0.9
    to 1.1), in 9 sweeps (Plan.fair_repeats), with a sign test against each bound.
(d) per board: the median wall time of one run of the local search (when registered), the GA
    on each engine on a few seeds, and their ratios.
(e) the classic solvers and the counter beside their goals: the local search on 10^6 and
    10^7 queens against the same algorithm in C (gaqueens/bench/c/local_search.c, built with
    -O2 where a C compiler is found), min-conflicts on 10^6, peak memory, counting 16 and 17,
    and the kernels' first-call costs (gaqueens.bench.solvers says how).

--quick makes a smoke run of a few seconds on smaller work. --out DIR writes bench.md (the
report) and bench.csv (every timing). Without genoxide (pip install 'gaqueens[bench]'), the
sections run without it and say so. genoxide's stored runs for the tests are written by a
command of their own, ``python -m gaqueens.bench.reference``.

    common.py     the plan, the report, genoxide
    engine.py     (a)    table.py  (b)    job.py  (c)    boards.py  (d)    solvers.py  (e)
    in_sweep.py   (b)'s figures of a run's seconds in a sweep, and their control
    solver_runs.py  the runs (e) times, each in a process of its own
    c_twin.py     the GA's C twin, built and run for (a)
    c/            the C local search and the C GA
    command.py    the command: header, sections, report
    reference.py  genoxide's runs for the tests
"""

