// The run player of gaqueens' report pages: no framework, nothing fetched. It reads the runs
// embedded in <script id="player-data" type="application/json"> (gaqueens/reports/page_player.py
// says what they are) and draws the chosen run's frame as the problem pictures a genome
// (data.words.picture): "queens", the board with its queens and the lines between attacking
// queens; else the genome plainly, a bar per entry as high as its value; and the convergence of
// its best fitness with the frame marked. Its words for sizes and conflicts are the problem's.
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
  var board = $("board"), curve = $("curve");
  var run = null, timer = null;

  function el(name, attributes, parent) {
    var node = document.createElementNS(NS, name);
    for (var key in attributes) node.setAttribute(key, attributes[key]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function unique(values) {
    return values.filter(function (v, i) { return values.indexOf(v) === i; });
  }
  function fill(select, values, chosen) {
    select.textContent = "";
    values.forEach(function (value) {
      var option = document.createElement("option");
      option.value = String(value);
      option.textContent = String(value);
      select.appendChild(option);
    });
    select.value = String(chosen);
  }
  function matching(algorithm, board) {
    return runs.filter(function (r) { return r.algorithm === algorithm && r.board === board; });
  }
  function choose(level) {  // level: what changed; the ones below follow it
    var algorithm = pick.algorithm.value;
    if (level === "algorithm") {
      var boards = unique(runs.filter(function (r) { return r.algorithm === algorithm; })
        .map(function (r) { return r.board; }));
      var small = boards.filter(function (b) { return b <= 32; });  // the first shown: a few frames
      var first = small.length ? small[small.length - 1] : boards[0];
      fill(pick.board, boards, boards.indexOf(Number(pick.board.value)) >= 0 ? pick.board.value : first);
    }
    var size = Number(pick.board.value);
    var here = matching(algorithm, size);
    if (level !== "seed") {
      var chosen = here.filter(function (r) { return r.default; })[0] || here[0];
      fill(pick.seed, here.map(function (r) { return r.seed; }), chosen.seed);
    }
    var seed = Number(pick.seed.value);
    show(here.filter(function (r) { return r.seed === seed; })[0]);
  }

  function show(chosen) {
    stop();
    run = chosen;
    slider.min = 0;
    slider.max = run.frames.length - 1;
    slider.value = 0;
    var said = ["Replayed from its settings and seed; a frame at each improvement of the best " +
                words.genome + " (" + run.frames.length + " frames)."];
    said.push(run.default ? "The run of the median seed." : "");
    if (!run.matches) said.push("This replay does not end where the stored run did " +
                                "(the code that replays it differs from the code that made it).");
    note.textContent = said.join(" ");
    note.className = run.matches ? "note" : "note warning";
    drawBoardFrame();
    drawCurve();
    frame(0);
  }

  function columns(f) { return f[5].split(" ").map(Number); }

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
    var cols = columns(f), n = run.board;
    if (queens) drawQueens(cols, n); else drawGenome(cols, n);
    board.setAttribute("data-board", String(n));
    board.setAttribute("data-algorithm", run.algorithm);
    board.setAttribute("data-seed", String(run.seed));
    board.setAttribute("data-frame", String(index));
    board.setAttribute("data-conflicts", String(f[4]));
    board.setAttribute("aria-label", run.algorithm + " on " + words.size + " " + n + ", seed " +
                       run.seed + ", generation " + f[0] + ": " + f[4] + " " + words.conflicts);
    readout.innerHTML = "";
    [["frame", (index + 1) + " of " + run.frames.length], ["generation", f[0]],
     ["evaluations", f[1].toLocaleString("en")], ["conflicts", f[4]],
     ["best fitness", f[2]], ["population median", f[3]]].forEach(function (item) {
      var span = document.createElement("span");
      span.innerHTML = "<b></b> ";
      span.firstChild.textContent = item[1];
      span.appendChild(document.createTextNode(item[0]));
      span.setAttribute("data-" + item[0].replace(/ /g, "-"), String(item[1]));
      readout.appendChild(span);
    });
    var mark = $("curve-mark");
    if (mark) {
      mark.setAttribute("cx", x(f[1]));
      mark.setAttribute("cy", y(f[2]));
    }
    slider.value = index;
  }

  var W = 520, H = 200, L = 48, R = 12, T = 12, B = 34;
  var xmax = 1, ymax = 1;
  function x(v) { return L + (W - L - R) * v / xmax; }
  function y(v) { return T + (H - T - B) * (1 - v / ymax); }

  function drawCurve() {
    curve.textContent = "";
    curve.setAttribute("viewBox", "0 0 " + W + " " + H);
    var fs = run.frames;
    xmax = Math.max(1, fs[fs.length - 1][1]);
    ymax = Math.max(1, fs.reduce(function (m, f) { return Math.max(m, f[2], f[3]); }, 0));
    el("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis"}, curve);
    el("line", {x1: L, y1: T, x2: L, y2: H - B, "class": "axis"}, curve);
    var label = function (text, px, py, anchor) {
      var t = el("text", {x: px, y: py, "text-anchor": anchor || "middle"}, curve);
      t.textContent = text;
    };
    label("0", L - 6, H - B + 4, "end");
    label(String(ymax), L - 6, T + 8, "end");
    label("0", L, H - B + 16);
    label(xmax.toLocaleString("en"), W - R, H - B + 16, "end");
    label("evaluations", (L + W - R) / 2, H - 4);
    var side = el("text", {x: 12, y: (T + H - B) / 2, "text-anchor": "middle",
                           transform: "rotate(-90 12 " + (T + H - B) / 2 + ")"}, curve);
    side.textContent = "fitness";
    var best = "", median = "";
    fs.forEach(function (f, i) {
      var next = i + 1 < fs.length ? fs[i + 1][1] : f[1];
      best += (i ? " L" : "M") + x(f[1]) + " " + y(f[2]) + " L" + x(next) + " " + y(f[2]);
      median += (i ? " L" : "M") + x(f[1]) + " " + y(f[3]);
    });
    el("path", {d: median, "class": "median"}, curve);
    el("path", {d: best, "class": "best"}, curve);
    el("circle", {id: "curve-mark", r: 5, "class": "mark"}, curve);
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
    }, Math.max(60, Math.min(600, 8000 / run.frames.length)));
  }

  play.addEventListener("click", function () { if (timer) stop(); else start(); });
  slider.addEventListener("input", function () { stop(); frame(Number(slider.value)); });
  pick.algorithm.addEventListener("change", function () { choose("algorithm"); });
  pick.board.addEventListener("change", function () { choose("board"); });
  pick.seed.addEventListener("change", function () { choose("seed"); });
  fill(pick.algorithm, unique(runs.map(function (r) { return r.algorithm; })), runs[0].algorithm);
  choose("algorithm");
})();
