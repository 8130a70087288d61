// The script of gaqueens' report pages: no framework, nothing fetched.
// Tables: a click on a heading sorts the rows by that column (again: the other way), by the
// number in a cell's data-value, else the number it starts with, else its text.
// The run player: reads the runs embedded in <script id="player-data" type="application/json">
// (gaqueens/reports/page_player.py says what they are: a frame per generation, at most 200)
// and draws the chosen frame as the problem pictures a genome (data.words.picture): "queens",
// the board with its queens and the lines between attacking queens; else the genome plainly, a
// bar per entry as high as its value; beside it the run's best fitness (steps) and its
// population's median fitness (a dot per frame) against evaluations on a log axis, and the
// settings of its entry. Its words for sizes and conflicts are the problem's.
(function () {
  "use strict";
  function key(cell) {
    var given = cell.getAttribute("data-value");
    if (given !== null) return Number(given);
    var text = cell.textContent.trim();
    if (text === "∞") return Infinity;
    var found = text.replace(/,/g, "").match(/^[-+]?\d*\.?\d+(e[-+]?\d+)?/i);
    return found ? Number(found[0]) : text.toLowerCase();
  }
  function compare(a, b) {
    var an = typeof a === "number", bn = typeof b === "number";
    if (an && bn) return a - b;
    if (an !== bn) return an ? -1 : 1;  // numbers before text ("-": none)
    return a < b ? -1 : a > b ? 1 : 0;
  }
  Array.prototype.forEach.call(document.querySelectorAll("table"), function (table) {
    var body = table.tBodies[0];
    if (!body || !table.tHead || body.rows.length < 2) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (heading, column) {
      heading.classList.add("sorts");
      heading.setAttribute("title", "sort by this column");
      heading.addEventListener("click", function () {
        var up = heading.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
          h.removeAttribute("aria-sort");
        });
        heading.setAttribute("aria-sort", up ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows).map(function (row, place) {
          return {row: row, key: key(row.cells[column]), place: place};
        });
        rows.sort(function (a, b) {
          return (up ? 1 : -1) * compare(a.key, b.key) || a.place - b.place;
        });
        rows.forEach(function (r) { body.appendChild(r.row); });
      });
    });
  });
})();

(function () {
  "use strict";
  var source = document.getElementById("player-data");
  var root = document.getElementById("player");
  if (!source || !root) return;
  var data = JSON.parse(source.textContent);
  var runs = data.runs, words = data.words;
  if (!runs.length) return;
  var queens = words.picture === "queens";
  var NS = "http://www.w3.org/2000/svg";
  var $ = function (id) { return document.getElementById(id); };
  var pick = {algorithm: $("pick-algorithm"), board: $("pick-board"), seed: $("pick-seed")};
  var slider = $("frame"), play = $("play"), readout = $("readout"), note = $("run-note");
  var board = $("board"), curve = $("curve"), speed = $("speed");
  var run = null, genomes = [], timer = null;

  function el(name, attributes, parent) {
    var node = document.createElementNS(NS, name);
    for (var k in attributes) node.setAttribute(k, attributes[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function unique(values) {
    return values.filter(function (v, i) { return values.indexOf(v) === i; });
  }
  function fill(select, options, chosen) {  // options: [value, text]
    select.textContent = "";
    options.forEach(function (o) {
      var option = document.createElement("option");
      option.value = String(o[0]);
      option.textContent = String(o[1]);
      select.appendChild(option);
    });
    select.value = String(chosen);
  }
  function matching(algorithm, size) {
    return runs.filter(function (r) { return r.algorithm === algorithm && r.board === size; });
  }
  function choose(level) {  // level: what changed; the ones below follow it
    var algorithm = pick.algorithm.value;
    if (level === "algorithm") {
      var sizes = unique(runs.filter(function (r) { return r.algorithm === algorithm; })
        .map(function (r) { return r.board; }));
      var small = sizes.filter(function (b) { return b <= 32; });  // the first shown: a few frames
      var first = small.length ? small[small.length - 1] : sizes[0];
      var kept = sizes.indexOf(Number(pick.board.value)) >= 0 ? pick.board.value : first;
      fill(pick.board, sizes.map(function (b) { return [b, b]; }), kept);
    }
    var here = matching(algorithm, Number(pick.board.value));
    if (level !== "seed") {
      var ranked = here.filter(function (r) { return r.roles.length; });
      var rest = here.filter(function (r) { return !r.roles.length; });
      var median = ranked.filter(function (r) { return r.roles.indexOf("median") >= 0; })[0];
      fill(pick.seed, ranked.concat(rest).map(function (r) {
        return [r.seed, r.seed + (r.roles.length ? " (" + r.roles.join(", ") + ")" : "")];
      }), (median || here[0]).seed);
    }
    var seed = Number(pick.seed.value);
    show(here.filter(function (r) { return r.seed === seed; })[0]);
  }

  function show(chosen) {
    stop();
    run = chosen;
    genomes = [];
    var last = null;
    run.frames.forEach(function (f) {
      if (f[5] !== null) last = f[5].split(" ").map(Number);
      genomes.push(last);
    });
    slider.min = 0;
    slider.max = run.frames.length - 1;
    slider.value = 0;
    var said = [run.frames.length + " frames for " + run.frames[run.frames.length - 1][0] +
                " generations."];
    if (run.roles.length) said.push("The " + run.roles.join(", ") + " run of its seeds.");
    if (!run.matches) said.push("This replay does not end where the stored run did " +
                                "(the code that replays it differs from the code that made it).");
    note.textContent = said.join(" ");
    note.className = run.matches ? "note" : "note warning";
    showSettings();
    drawBoardFrame();
    drawCurve();
    frame(0);
  }

  function showSettings() {
    var box = $("run-settings"), entry = (data.settings || {})[run.algorithm];
    box.textContent = "";
    if (!entry) return;
    var heading = document.createElement("h3");
    heading.textContent = "Settings of " + run.algorithm;
    box.appendChild(heading);
    if (entry.differs) {
      var p = document.createElement("p");
      p.className = "note";
      p.textContent = entry.differs;
      box.appendChild(p);
    }
    var list = document.createElement("dl");
    list.className = "settings";
    entry.rows.forEach(function (row) {
      var term = document.createElement("dt"), value = document.createElement("dd");
      term.textContent = row[0];
      value.textContent = row[1];
      if (row[2]) { term.className = value.className = "changed"; }
      list.appendChild(term);
      list.appendChild(value);
    });
    box.appendChild(list);
  }

  function attacks(cols) {  // pairs of rows on one column or diagonal
    var pairs = [], n = cols.length;
    for (var a = 0; a < n; a++)
      for (var b = a + 1; b < n; b++)
        if (cols[a] === cols[b] || Math.abs(cols[a] - cols[b]) === b - a) pairs.push([a, b]);
    return pairs;
  }

  function drawBoardFrame() {
    board.textContent = "";
    var n = run.board;
    board.setAttribute("viewBox", "0 0 " + n + " " + n);
    board.setAttribute("class", (n > 32 ? "large" : "") + (queens ? "" : " genome"));
    if (!queens) {
      el("g", {id: "entries"}, board);
      return;
    }
    var defs = el("defs", {}, board);
    var pattern = el("pattern", {id: "squares", width: 2, height: 2, patternUnits: "userSpaceOnUse"}, defs);
    el("rect", {width: 2, height: 2, "class": "light"}, pattern);
    el("rect", {width: 1, height: 1, "class": "dark"}, pattern);
    el("rect", {x: 1, y: 1, width: 1, height: 1, "class": "dark"}, pattern);
    el("rect", {width: n, height: n, fill: "url(#squares)"}, board);
    el("g", {id: "attack-lines"}, board);
    el("g", {id: "queens"}, board);
  }

  function drawQueens(cols, n) {
    var lines = $("attack-lines"), pieces = $("queens");
    lines.textContent = "";
    pieces.textContent = "";
    var pairs = attacks(cols);
    var width = Math.max(0.05, 1.6 * n / 440);  // about 1.6 pixels on a 440-pixel board
    pairs.forEach(function (p) {
      el("line", {x1: cols[p[0]] + 0.5, y1: p[0] + 0.5, x2: cols[p[1]] + 0.5, y2: p[1] + 0.5,
                  "class": "attack", "stroke-width": width}, lines);
    });
    var attacked = {};
    pairs.forEach(function (p) { attacked[p[0]] = attacked[p[1]] = true; });
    cols.forEach(function (c, r) {
      var queen = el("circle", {cx: c + 0.5, cy: r + 0.5, r: n > 48 ? 0.5 : 0.36,
                                "class": attacked[r] ? "queen attacked" : "queen"}, pieces);
      queen.setAttribute("data-queen", r + "," + c);
    });
  }

  function drawGenome(values, n) {  // entry i: a bar at x = i, as high as its value plus one
    var bars = $("entries");
    bars.textContent = "";
    var top = Math.max(n, Math.max.apply(null, values) + 1);
    values.forEach(function (v, i) {
      var bar = el("rect", {x: i + 0.1, y: n * (1 - (v + 1) / top), width: 0.8,
                            height: n * (v + 1) / top, "class": "entry"}, bars);
      bar.setAttribute("data-entry", i + "," + v);
    });
  }

  function frame(index) {
    var f = run.frames[index];
    var cols = genomes[index], n = run.board;
    if (queens) drawQueens(cols, n); else drawGenome(cols, n);
    board.setAttribute("data-board", String(n));
    board.setAttribute("data-algorithm", run.algorithm);
    board.setAttribute("data-seed", String(run.seed));
    board.setAttribute("data-frame", String(index));
    board.setAttribute("data-conflicts", String(f[4]));
    board.setAttribute("aria-label", run.algorithm + " on " + words.size + " " + n + ", seed " +
                       run.seed + ", generation " + f[0] + ": " + f[4] + " " + words.conflicts);
    readout.textContent = "";
    [["frame", (index + 1) + " of " + run.frames.length], ["generation", f[0]],
     ["evaluations", f[1].toLocaleString("en")], ["conflicts", f[4]],
     ["best fitness", f[2]], ["population median", f[3]]].forEach(function (item) {
      var span = document.createElement("span"), value = document.createElement("b");
      value.textContent = item[1];
      span.appendChild(document.createTextNode(item[0] + " "));
      span.appendChild(value);
      span.setAttribute("data-" + item[0].replace(/ /g, "-"), String(item[1]));
      readout.appendChild(span);
    });
    var mark = $("curve-mark"), line = $("curve-now");
    if (mark) {
      mark.setAttribute("cx", x(f[1]));
      mark.setAttribute("cy", y(f[2]));
      line.setAttribute("x1", x(f[1]));
      line.setAttribute("x2", x(f[1]));
    }
    slider.value = index;
  }

  // the curve: evaluations on a log axis, fitness on a log(1 + fitness) axis
  var W = 520, H = 250, L = 50, R = 14, T = 30, B = 40;  // the legend above T
  var xlow = 1, xhigh = 10, ytop = 1;
  function x(v) {
    var span = Math.log(xhigh) - Math.log(xlow);
    return L + (W - L - R) * (span > 0 ? (Math.log(v) - Math.log(xlow)) / span : 0.5);
  }
  function y(v) { return T + (H - T - B) * (1 - Math.log1p(v) / Math.log1p(ytop)); }
  function steps(low, high) {  // 1, 2, 5, 10, 20, 50, ... within [low, high]
    var out = [];
    for (var p = 1; p <= high * 10; p *= 10)
      [1, 2, 5].forEach(function (m) { if (m * p >= low && m * p <= high) out.push(m * p); });
    return out;
  }
  function shortNumber(v) {
    return v >= 1e6 ? v / 1e6 + "M" : v >= 1e4 ? v / 1e3 + "k" : v.toLocaleString("en");
  }

  function drawCurve() {  // as wide as it is shown, so that its text keeps its size
    curve.textContent = "";
    W = Math.round(Math.max(280, Math.min(1000, curve.getBoundingClientRect().width || 520)));
    curve.setAttribute("viewBox", "0 0 " + W + " " + H);
    var fs = run.frames;
    xlow = Math.max(1, fs[0][1]);
    xhigh = Math.max(xlow * 1.5, fs[fs.length - 1][1]);
    ytop = Math.max(1, fs.reduce(function (m, f) { return Math.max(m, f[2], f[3]); }, 0));
    var label = function (text, px, py, anchor) {
      var t = el("text", {x: px, y: py, "text-anchor": anchor || "middle"}, curve);
      t.textContent = text;
      return t.getComputedTextLength() || 7 * text.length;
    };
    var xticks = steps(xlow, xhigh);
    if (xticks.length > 7) xticks = xticks.filter(function (v) { return /^1/.test(String(v)); });
    [xlow].concat(xticks, [fs[fs.length - 1][1]]).forEach(function (v, i, all) {
      if (all.indexOf(v) !== i) return;
      var end = i === 0 || i === all.length - 1;
      var near = !end && (Math.abs(x(v) - x(xlow)) < 40 || Math.abs(x(v) - x(xhigh)) < 60);
      el("line", {x1: x(v), y1: T, x2: x(v), y2: H - B, "class": "grid"}, curve);
      if (!near) label(shortNumber(v), x(v), H - B + 14, i === all.length - 1 ? "end" : "middle");
    });
    [0].concat(steps(1, ytop)).forEach(function (v) {
      el("line", {x1: L, y1: y(v), x2: W - R, y2: y(v), "class": "grid"}, curve);
      label(String(v), L - 5, y(v) + 4, "end");
    });
    el("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis"}, curve);
    el("line", {x1: L, y1: T, x2: L, y2: H - B, "class": "axis"}, curve);
    label("evaluations (log axis)", (L + W - R) / 2, H - 6);
    var side = el("text", {x: 13, y: (T + H - B) / 2, "text-anchor": "middle",
                           transform: "rotate(-90 13 " + (T + H - B) / 2 + ")"}, curve);
    side.textContent = "fitness (log(1 + f) axis)";
    var best = "";
    fs.forEach(function (f, i) {
      best += (i ? " H" + x(f[1]) + " V" : "M" + x(f[1]) + " ") + y(f[2]);
    });
    el("path", {d: best, "class": "best"}, curve);
    var dots = el("g", {"class": "median"}, curve);
    fs.forEach(function (f) { el("circle", {cx: x(f[1]), cy: y(f[3]), r: 2.6}, dots); });
    var at = W - R - label("population median", W - R, 16, "end") - 8;  // the legend, above
    el("circle", {cx: at, cy: 12, r: 2.6, "class": "dot"}, curve);
    at -= label("best so far", at - 14, 16, "end") + 20;
    el("line", {x1: at - 20, y1: 12, x2: at, y2: 12, "class": "best"}, curve);
    el("line", {id: "curve-now", y1: T, y2: H - B, "class": "now"}, curve);
    el("circle", {id: "curve-mark", r: 4.5, "class": "mark"}, curve);
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }
  function start() {
    if (Number(slider.value) >= run.frames.length - 1) frame(0);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      var next = Number(slider.value) + 1;
      if (next >= run.frames.length) { stop(); return; }
      frame(next);
      if (next === run.frames.length - 1) stop();
    }, 1000 / Number(speed.value));
  }
  function step(by) {
    stop();
    frame(Math.max(0, Math.min(run.frames.length - 1, Number(slider.value) + by)));
  }

  play.addEventListener("click", function () { if (timer) stop(); else start(); });
  $("back").addEventListener("click", function () { step(-1); });
  $("forward").addEventListener("click", function () { step(1); });
  $("first").addEventListener("click", function () { step(-run.frames.length); });
  $("last").addEventListener("click", function () { step(run.frames.length); });
  speed.addEventListener("change", function () { if (timer) { stop(); start(); } });
  slider.addEventListener("input", function () { stop(); frame(Number(slider.value)); });
  root.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if (tag === "SELECT" || (tag === "INPUT" && event.key !== " ")) return;
    var moves = {ArrowLeft: -1, ArrowRight: 1, Home: -run.frames.length, End: run.frames.length};
    if (event.key in moves) step(moves[event.key]);
    else if (event.key === " " && tag !== "BUTTON") { if (timer) stop(); else start(); }
    else return;
    event.preventDefault();
  });
  var width = 0;
  window.addEventListener("resize", function () {
    var now = Math.round(curve.getBoundingClientRect().width);
    if (now === width) return;
    width = now;
    drawCurve();
    frame(Number(slider.value));
  });
  pick.algorithm.addEventListener("change", function () { choose("algorithm"); });
  pick.board.addEventListener("change", function () { choose("board"); });
  pick.seed.addEventListener("change", function () { choose("seed"); });
  var names = unique(runs.map(function (r) { return r.algorithm; }));
  fill(pick.algorithm, names.map(function (a) { return [a, a]; }), runs[0].algorithm);
  choose("algorithm");
})();
