"""A problem of a user's own for the tests of what the reports say of a problem: the example
plug-in's (tests/plugin, the all-interval series), named by its import path, with tests/plugin
put where Python finds it for as long as ``on_path`` lasts (nothing installed), and its
conflicts counted here by hand, sharing no code with it."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "plugin"
PROBLEM = "gaqueens_example_plugin.problem"
TITLE = "All-interval series"
EXPERIMENT = f"""\
problem: {{plugin: {PROBLEM}}}
boards: [6, 9, 13]
seeds: {{first: 1, last: 5}}
ga: {{stop: {{generations: 300}}}}
variants:
  bigger: {{population: 40}}
"""


@contextmanager
def on_path():
    """tests/plugin on sys.path meanwhile; yields the problem's name."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(PLUGIN))
        yield PROBLEM


def repeats(genome) -> int:
    """The all-interval series' conflicts, by its definition: the gaps between neighbours that
    repeat an earlier gap."""
    gaps = [abs(b - a) for a, b in zip(genome, genome[1:])]
    return sum(1 for i, gap in enumerate(gaps) if gap in gaps[:i])


def make_sweep(root: Path) -> Path:
    """A sweep of EXPERIMENT into root/out (some runs on size 13 unsolved); its folder."""
    from gaqueens.sweep import main as sweep

    (root / "intervals.yaml").write_text(EXPERIMENT)
    out = root / "out"
    assert sweep([str(root / "intervals.yaml"), "--out", str(out), "--workers", "1",
                  "--quiet"]) == 0
    return out
