"""The README: its two commands, the CI script that runs the second, and generated sections
that match results/."""

import re
from pathlib import Path

from gaqueens import readme

ROOT = Path(__file__).resolve().parents[1]


def commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(python3 -m venv[^\n]*)\n```", text)


def test_the_readme_has_exactly_two_commands_install_and_run_then_install_and_test():
    install_run, install_test = commands()
    assert install_run.endswith("python -m gaqueens.sweep experiments/n8.yaml")
    assert install_test.endswith("python -m pytest")


def test_ci_runs_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text()
    assert commands()[1] in script


def test_generated_sections_match_the_committed_results():
    text = (ROOT / "README.md").read_text()
    assert readme.render(text, ROOT / "results") == text
