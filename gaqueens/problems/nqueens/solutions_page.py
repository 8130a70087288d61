"""The page of every solution of a board (``python -m gaqueens.count N --html FILE``).

One self-contained HTML file: its style, its script (vanilla JavaScript) and its data are
inline, so it opens offline from file:// and requests nothing. It shows the counts (the
element ``#count`` holds the solutions listed, ``#fundamental`` the fundamental ones), a list
of every solution in lexicographic order with each fundamental one (the least of its class
under the 8 symmetries) marked with a star, a "fundamental only" filter, and a board with
the solution picked (click a row, or move with the arrow keys). For tests and screen readers
the board element carries ``data-board`` (its size) and ``data-solution`` (the columns of the
solution shown), and each queen ``data-queen="ROW,COLUMN"``, rows and columns from 0.
"""

from __future__ import annotations

import html
import json

STYLE = """
body{font:15px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:62em;padding:0 1em;color:#222}
h1{font-size:1.4em;margin:.2em 0}
main{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}
#list{list-style:none;margin:0;padding:0;max-height:34em;overflow-y:auto;border:1px solid #ccc;
 min-width:17em;font-family:ui-monospace,monospace}
#list li{padding:.15em .6em;cursor:pointer;white-space:pre}
#list li:nth-child(odd){background:#f6f6f6}
#list li[aria-selected=true]{background:#2a5db0;color:#fff}
#list li .n{display:inline-block;width:3.5em;color:#888}
#list li[aria-selected=true] .n{color:#dde}
.hidden{display:none}
#board{display:grid;border:2px solid #444;width:min(28em,90vw);aspect-ratio:1}
#board div{display:flex;align-items:center;justify-content:center;font-size:calc(min(28em,90vw)/var(--n)*.7)}
#board .dark{background:#b58863}#board .light{background:#f0d9b5}
#board [data-queen]::after{content:"\\265B";color:#111}
#shown{font-family:ui-monospace,monospace}
"""

SCRIPT = """
const data = JSON.parse(document.getElementById("data").textContent);
const n = data.n, list = document.getElementById("list"), board = document.getElementById("board");
const only = document.getElementById("only"), shown = document.getElementById("shown");
let picked = -1;
function draw(index) {
  const columns = data.solutions[index];
  board.replaceChildren();
  board.dataset.solution = columns.join(" ");
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const cell = document.createElement("div");
      cell.className = (r + c) % 2 ? "dark" : "light";
      if (columns[r] === c) {
        cell.dataset.queen = r + "," + c;
        cell.setAttribute("aria-label", "queen in row " + r + ", column " + c);
      }
      board.appendChild(cell);
    }
  }
  shown.textContent = "solution " + (index + 1) + ": " + columns.join(" ")
    + (data.fundamental[index] ? " (fundamental)" : "");
}
function pick(index) {
  if (picked >= 0) list.children[picked].setAttribute("aria-selected", "false");
  picked = index;
  const row = list.children[index];
  row.setAttribute("aria-selected", "true");
  row.scrollIntoView({block: "nearest"});
  draw(index);
}
const rows = document.createDocumentFragment();
data.solutions.forEach((columns, i) => {
  const row = document.createElement("li");
  row.setAttribute("role", "option");
  row.setAttribute("aria-selected", "false");
  row.dataset.index = i;
  row.dataset.solution = columns.join(" ");
  if (data.fundamental[i]) row.dataset.fundamental = "";
  const number = document.createElement("span");
  number.className = "n";
  number.textContent = i + 1;
  row.append(number, columns.join(" ") + (data.fundamental[i] ? " *" : ""));
  rows.appendChild(row);
});
list.appendChild(rows);
board.style.gridTemplateColumns = "repeat(" + n + ", 1fr)";
board.style.setProperty("--n", n);
list.addEventListener("click", event => {
  const row = event.target.closest("li");
  if (row) pick(Number(row.dataset.index));
});
list.addEventListener("keydown", event => {
  const step = {ArrowDown: 1, ArrowUp: -1}[event.key];
  if (!step) return;
  event.preventDefault();
  let next = picked + step;
  while (next >= 0 && next < data.solutions.length && list.children[next].classList.contains("hidden"))
    next += step;
  if (next >= 0 && next < data.solutions.length) pick(next);
});
only.addEventListener("change", () => {
  for (const row of list.children)
    row.classList.toggle("hidden", only.checked && !("fundamental" in row.dataset));
});
if (data.solutions.length) pick(0);
"""


def page(n: int, listed) -> str:
    """The page for the n x n board's ``listed`` solutions: (columns, fundamental) pairs in
    their order (gaqueens.problems.nqueens.solutions.listing)."""
    every = [list(p) for p, _ in listed]
    starred = [bool(s) for _, s in listed]
    data = json.dumps({"n": n, "solutions": every, "fundamental": starred},
                      separators=(",", ":")).replace("</", "<\\/")
    title = f"All solutions of the {n} x {n} N-Queens board"
    empty = "" if every else "<p>This board has no solution.</p>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{html.escape(title)}</h1>
<p><span id="count">{len(every):,}</span> solutions, <span id="fundamental">{sum(starred):,}</span>
fundamental: a fundamental solution (marked *) is the least of its class under the 8
symmetries of the square (4 turns, 4 reflections), compared as sequences. Each line gives the
column of the queen in rows 0 to {n - 1}, columns numbered from 0 at the left. Click a line to
show it on the board; the arrow keys move through the list.</p>
<p><label><input type="checkbox" id="only"> fundamental only</label></p>
{empty}<main>
<ol id="list" role="listbox" tabindex="0" aria-label="solutions"></ol>
<section><div id="board" data-board="{n}" role="img" aria-label="the board"></div>
<p id="shown"></p></section>
</main>
<script type="application/json" id="data">{data}</script>
<script>{SCRIPT}</script>
</body></html>
"""
