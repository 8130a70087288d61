"""The page of an output folder, written again.

    python -m gaqueens.report DIR

Writes DIR/index.html (gaqueens.reports.page), as every sweep does after its exports: from the
folder's store (runs.sqlite) and its exports where the store is kept, or else from the
committed files alone (summary.csv, comparisons.csv, manifest.json, runs.csv or
runs-compact.csv, the plots). The player's runs are made again from the settings the manifest
records. Prints the page's path and size. Exit status (gaqueens/cli.py): 0 done; 2 bad usage,
or a folder with neither runs.sqlite nor summary.csv; 3 a fault (the traceback in
DIR/error.log); 130 interrupted (Ctrl-C or SIGTERM; no partial page is left).
"""

from __future__ import annotations

from pathlib import Path

from gaqueens import cli
from gaqueens.cli import Parser
from gaqueens.core.errors import BadInput


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.report",
                    description="Writes an output folder's page, DIR/index.html.")
    parser.add_argument("folder", metavar="DIR", help="an output folder of a sweep")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    return cli.run(lambda: _report(folder), folder=lambda: folder if folder.is_dir() else None,
                   interrupted="interrupted: no partial page is left")


def _report(folder: Path) -> None:
    from gaqueens.reports import page, page_data
    from gaqueens.runtime.store import Store

    if not folder.is_dir():
        raise BadInput(f"{folder}: is not a folder")
    if not page_data.has_outputs(folder):
        raise BadInput(f"{folder}: holds neither runs.sqlite nor summary.csv: not an output "
                       "folder of a sweep")
    if (folder / "runs.sqlite").exists():
        with Store(folder) as store:
            written = page.write(folder, store=store)
    else:
        written = page.write(folder)
    print(f"{written} ({written.stat().st_size / 1024:,.0f} KB)")


if __name__ == "__main__":
    cli.command(main)
