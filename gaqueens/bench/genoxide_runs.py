"""genoxide 0.13.1 running the published GA on N-Queens: the benchmark's yardstick.

    python gaqueens/bench/genoxide_runs.py BOARDS FIRST..LAST POPULATION OFFSPRING TOURNAMENT
                                           TARGET GENERATIONS

makes the runs of every board (8,16,...) and seed one after the other and prints each board's
median evaluations as JSON (a run that misses the target counts as infinite). It runs as a
program of its own, outside the gaqueens package, so that its time is what a genoxide program
pays: Python, genoxide, numpy and the N-Queens fitness (gaqueens/problems/nqueens/fitness.py,
which imports numpy alone, loaded from its file), nothing of gaqueens' own start-up.
``run`` is one run, which section (a) and gaqueens.bench.reference call in their process.
"""

import importlib.util
import json
import statistics
import sys
from pathlib import Path


def run(gx, fitness, board, seed, population, offspring, tournament, target, generations):
    """One genoxide run of these settings (the published family: tournament, no crossover, a
    swap, mu+lambda) on ``fitness``, genoxide's Result."""
    algorithm = gx.Ga(gx.Permutation(board), population_size=population,
                      select=gx.Tournament(tournament), crossover=gx.NoCrossover(),
                      mutation=gx.SwapMutation(), scheme=gx.MuPlusLambda(offspring),
                      objective="minimize", seed=seed)
    return algorithm.run(fitness, batch=True, target=target, generations=generations)


def main(argv: list[str]) -> int:
    import genoxide

    path = Path(__file__).resolve().parents[1] / "problems" / "nqueens" / "fitness.py"
    spec = importlib.util.spec_from_file_location("nqueens_fitness", path)
    fitness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fitness)
    boards, seeds, *settings = argv
    first, last = map(int, seeds.split(".."))
    medians = {}
    for board in map(int, boards.split(",")):
        conflicts = fitness.Conflicts(board)
        evaluations = []
        for seed in range(first, last + 1):
            result = run(genoxide, conflicts, board, seed, *map(int, settings))
            evaluations.append(result.evaluations if result.best_fitness == 0 else float("inf"))
        medians[board] = statistics.median(evaluations)
    print(json.dumps(medians))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
