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


def test_the_readme_starts_with_the_user():
    text = (ROOT / "README.md").read_text()
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings.index("Experiment files") < headings.index("The published table, reproduced")
    assert headings.index("Extending") < headings.index("Performance")


def prose(text: str) -> list[str]:
    """The README's lines outside fenced code, tables and section markers."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and not line.startswith(("|", "<!--")):
            lines.append(line)
    return lines


def test_the_readmes_prose_lines_are_at_most_100_characters():
    long = [line[:60] for line in prose((ROOT / "README.md").read_text()) if len(line) > 100]
    assert not long


def test_generated_prose_is_wrapped_and_table_rows_stay_whole():
    row = "| " + " | ".join(["a long cell of a table"] * 8) + " |"
    text = readme.wrapped(f"{'word ' * 50}\n\n{row}")
    assert all(len(line) <= 100 for line in prose(text))
    assert row in text.split("\n") and "" in text.split("\n")
    assert text.split("\n\n")[0].split() == ["word"] * 50


def test_the_layout_table_names_every_folder_of_the_package_and_nothing_else():
    text = (ROOT / "README.md").read_text()
    layout = text[text.index("## Layout"):text.index("## Regenerating")]
    named = set(re.findall(r"^\| `gaqueens/(\w+)/`", layout, re.M))
    folders = {path.name for path in (ROOT / "gaqueens").iterdir()
               if path.is_dir() and path.name != "__pycache__"}
    assert named == folders


def test_the_performance_section_has_a_row_per_goal_from_goals_csv(tmp_path):
    """A figure and goal measured on several boards (or executors) is one row of medians, its
    verdicts said per board where they differ; a figure measured once keeps its name."""
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "goals.csv").write_text(
        "figure,measured,goal,met\n"
        "board 8: engine / genoxide,median 0.38 (0.30..0.40),at most 0.4,met\n"
        "board 16: engine / genoxide,\"median 0.45 (0.40..0.50); at most 0.4 in 3 of 25 pairs, "
        "sign test p = 0.00016\",at most 0.4,not met\n"
        "the whole table: ours / genoxide,0.81,at most 0.4,not met\n"
        "board 8: twin / ga,median 1.02 (0.90..1.20),at most 1.1,met at the median\n"
        "board 16: twin / ga,median 0.98 (0.90..1.00),at most 1.1,met at the median\n"
        "\"local search, peak memory, board 100,000,000\",2.16 GB,at most 4 GB,met\n")
    section = readme.performance(tmp_path)
    assert ("| engine / genoxide | board 8: 0.38; board 16: 0.45 | 0.4 | met: board 8; not met: "
            "board 16 |") in section
    assert "| the whole table: ours / genoxide | 0.81 | 0.4 | not met |" in section
    assert "| twin / ga | board 8: 1.02; board 16: 0.98 | 1.1 | met at the median |" in section
    assert "| local search, peak memory, board 100,000,000 | 2.16 | 4 GB | met |" in section
    assert "python -m gaqueens.bench.scale --out results/scale" in section  # no scale goals yet
