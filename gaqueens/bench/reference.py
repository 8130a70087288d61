"""genoxide's runs of the published GA, stored for the fidelity check (gaqueens.fidelity) and
the tests that compare the engine with it.

    python -m gaqueens.bench.reference FILE

writes genoxide's evaluations and generations per board (8, 16, 32, 64, 128) and seed (1 to
1,000) into FILE as CSV, after a comment line naming the version and this command;
gaqueens/data/genoxide-evaluations.csv was written so. Each run is genoxide's N-Queens example
(gaqueens.bench.genoxide_runs.run: the published settings on the N-Queens Conflicts).
``evaluations`` is genoxide's own count, which skips a child identical to one of its parents;
``generations`` gives the count gaqueens uses, 20 + 20 g. Needs genoxide: pip install
'gaqueens[bench]'.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

from gaqueens.bench.common import INSTALL, genoxide_module, published
from gaqueens.bench.genoxide_runs import run
from gaqueens.core.files import write_text
from gaqueens.problems.nqueens.fitness import Conflicts

REFERENCE_BOARDS, REFERENCE_SEEDS = (8, 16, 32, 64, 128), range(1, 1001)


def reference_evaluations(path: Path) -> None:
    """genoxide's evaluations and generations per board and seed, written to ``path``."""
    gx = genoxide_module()
    text = io.StringIO()
    text.write(f"# genoxide {gx.__version__}, published settings, the N-Queens Conflicts; "
               f"written by: python -m gaqueens.bench.reference {path}\n")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["board", "seed", "evaluations", "generations"])
    for board in REFERENCE_BOARDS:
        fitness = Conflicts(board)
        for seed in REFERENCE_SEEDS:
            result = run(gx, fitness, board, seed, *published())
            if result.best_fitness != 0:
                raise RuntimeError(f"genoxide did not solve board {board}, seed {seed}")
            writer.writerow([board, seed, result.evaluations, result.generations])
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, text.getvalue())


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python -m gaqueens.bench.reference FILE", file=sys.stderr)
        return 2
    if genoxide_module() is None:
        print(f"error: this needs genoxide: {INSTALL}", file=sys.stderr)
        return 2
    reference_evaluations(Path(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
