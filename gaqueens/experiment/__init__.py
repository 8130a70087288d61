"""Experiment files: YAML in, validated settings out, before any run starts.

    yaml_file.py      the file's YAML, read safely; BadInput, the one-line refusal
    checker.py        refusing a value in one line naming the file and the key path
    reader.py         the top-level keys: name, boards, seeds, reference, output
    overrides.py      --set PATH=VALUE, applied to the document before it is read
    ga_keys.py        ga: and variants:, read into GaSettings
    grid.py           grid:, every combination of a few ga settings
    baseline_keys.py  baselines:, built-in and plug-ins
    model.py          Experiment and Entry, the validated result, and the runs it makes
    settings_yaml.py  settings back in the file's terms, for the manifest and the store
"""

from gaqueens.experiment.model import Entry, Experiment, Grid
from gaqueens.experiment.baseline_keys import BOARDS
from gaqueens.experiment.ga_keys import NAME
from gaqueens.experiment.reader import MAX_SEEDS, SEED, TOP_KEYS, load, parse_seeds, seeds_problem
from gaqueens.experiment.settings_yaml import MAX_BOARD_KEY, run_settings, settings_to_yaml
from gaqueens.experiment.yaml_file import MAX_BYTES, BadInput, read_yaml, shown

__all__ = ["BOARDS", "MAX_BOARD_KEY", "MAX_BYTES", "MAX_SEEDS", "NAME", "SEED", "TOP_KEYS",
           "BadInput", "Entry", "Experiment", "Grid", "load", "parse_seeds", "read_yaml",
           "run_settings", "seeds_problem", "settings_to_yaml", "shown"]
