"""Experiment files: YAML in, validated settings out, before any run starts.

    yaml_file.py  the file's YAML, read safely; BadInput, the one-line refusal
    reader.py     the keys, checked: boards, seeds, each algorithm's settings
    model.py      Experiment and Entry, the validated result, and the runs it makes
    written.py    settings back in the file's terms, for the manifest and the store
"""

from gaqueens.experiment.model import Entry, Experiment
from gaqueens.experiment.reader import (
    BOARDS, MAX_SEEDS, NAME, SEED, TOP_KEYS, load, parse_seeds, seeds_problem,
)
from gaqueens.experiment.written import MAX_BOARD_KEY, settings_to_yaml
from gaqueens.experiment.yaml_file import MAX_BYTES, BadInput, read_yaml, shown

__all__ = ["BOARDS", "MAX_BOARD_KEY", "MAX_BYTES", "MAX_SEEDS", "NAME", "SEED", "TOP_KEYS",
           "BadInput", "Entry", "Experiment", "load", "parse_seeds", "read_yaml",
           "seeds_problem", "settings_to_yaml", "shown"]
