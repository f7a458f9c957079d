// zsim view: steps through one game's record. The page's data (zsim/viewer.py)
// sits in <script id="data">; everything shown is drawn from it here, with no
// server and nothing fetched. State: the position (moves made so far) and the
// seat whose view is shown (-1: all seats, every hand face up).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var S = D.strings, PARTS = D.parts, P = D.players, N = D.moves.length;
  var COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999933"];
  var state = {i: 0, seat: D.start_seat};
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function pct(x) { return Math.round(100 * x) + "%"; }
  function seatName(s) { return "seat " + s + " (" + D.labels[s] + ")"; }
  function seen(move, seat) { return seat < 0 || move.seat === seat || move.unseen.indexOf(seat) < 0; }
  function moveText(move, seat) {
    if (!seen(move, seat)) return "a " + move.kind + " decision (not seen by seat " + seat + ")";
    var text = S[move.text];
    return text.indexOf(move.kind) === 0 ? text : move.kind + ": " + text;
  }

  // ------------------------------------------------------------ the chart
  function observerIndex() {
    if (!D.trace) return -1;
    var want = state.seat < 0 ? -1 : state.seat;
    return D.trace.observers.indexOf(want);
  }

  function drawChart() {
    var box = $("chart"), o = observerIndex();
    box.textContent = "";
    if (o < 0) {
      $("chart-title").textContent = D.trace ? "No estimate from this view" : "No estimates (traced with --continuations 0)";
      $("legend").textContent = "";
      return;
    }
    var mean = D.trace.mean[o], lo = D.trace.lo[o], hi = D.trace.hi[o];
    $("chart-title").textContent = "Each seat's chance of winning after each move, " +
      (state.seat < 0 ? "from the true position" : "as seat " + state.seat + " sees it") +
      " (" + D.trace.n + " games played on from each position; bands: 95% intervals)";
    var w = Math.max(260, box.clientWidth), h = w < 500 ? 220 : 260;
    var m = {l: 44, r: 10, t: 10, b: 34}, iw = w - m.l - m.r, ih = h - m.t - m.b;
    var x = function (i) { return m.l + (N ? i / N : 0) * iw; };
    var y = function (v) { return m.t + (1 - v) * ih; };
    var root = svg("svg", {width: w, height: h, viewBox: "0 0 " + w + " " + h, role: "img",
                           "aria-label": $("chart-title").textContent});
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      root.appendChild(svg("line", {x1: m.l, x2: w - m.r, y1: y(v), y2: y(v), stroke: "#ddd"}));
      var t = svg("text", {x: m.l - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 12});
      t.textContent = pct(v);
      root.appendChild(t);
    });
    var step = Math.max(1, Math.ceil(N / (w < 500 ? 4 : 8) / 10) * 10);
    for (var k = 0; k <= N; k += step) {
      var t = svg("text", {x: x(k), y: h - m.b + 16, "text-anchor": "middle", "font-size": 12});
      t.textContent = k;
      root.appendChild(t);
    }
    var xl = svg("text", {x: m.l + iw / 2, y: h - 4, "text-anchor": "middle", "font-size": 12});
    xl.textContent = "moves made";
    root.appendChild(xl);
    if (state.seat < 0 && D.decided !== null && D.decided !== undefined) {
      root.appendChild(svg("line", {x1: x(D.decided), x2: x(D.decided), y1: m.t, y2: m.t + ih, stroke: "#888",
                                    "stroke-dasharray": "4 3"}));
    }
    for (var s = 0; s < P; s++) {
      var band = [], line = [];
      for (var i = 0; i <= N; i++) {
        band.push(x(i) + "," + y(hi[i][s]));
        line.push(x(i) + "," + y(mean[i][s]));
      }
      for (i = N; i >= 0; i--) band.push(x(i) + "," + y(lo[i][s]));
      root.appendChild(svg("polygon", {points: band.join(" "), fill: COLOURS[s % 8], "fill-opacity": 0.12}));
      root.appendChild(svg("polyline", {points: line.join(" "), fill: "none", stroke: COLOURS[s % 8],
                                        "stroke-width": D.places[s] === 1 ? 2.6 : 1.3}));
    }
    var marker = svg("g", {id: "marker"});
    marker.appendChild(svg("line", {y1: m.t, y2: m.t + ih, stroke: "#111", "stroke-width": 1.5}));
    for (s = 0; s < P; s++) marker.appendChild(svg("circle", {r: 4, fill: COLOURS[s % 8], "data-seat": s}));
    root.appendChild(marker);
    root.addEventListener("click", function (ev) {
      var r = root.getBoundingClientRect();
      go(Math.round((ev.clientX - r.left - m.l) / iw * N));
    });
    box.appendChild(root);
    box.dataset.x0 = m.l;
    box.dataset.width = iw;
    box.dataset.top = m.t;
    box.dataset.height = ih;
    placeMarker();
  }

  function placeMarker() {
    var box = $("chart"), marker = $("marker"), o = observerIndex();
    if (!marker || o < 0) return;
    var i = state.i, xi = +box.dataset.x0 + (N ? i / N : 0) * +box.dataset.width;
    marker.setAttribute("data-move", i);
    marker.setAttribute("data-x", xi.toFixed(1));
    marker.querySelector("line").setAttribute("x1", xi);
    marker.querySelector("line").setAttribute("x2", xi);
    var mean = D.trace.mean[o][i], lo = D.trace.lo[o][i], hi = D.trace.hi[o][i];
    marker.querySelectorAll("circle").forEach(function (c) {
      var s = +c.getAttribute("data-seat");
      c.setAttribute("cx", xi);
      c.setAttribute("cy", +box.dataset.top + (1 - mean[s]) * +box.dataset.height);
    });
    var legend = $("legend");
    legend.textContent = "";
    var order = [];
    for (var s = 0; s < P; s++) order.push(s);
    order.sort(function (a, b) { return mean[b] - mean[a] || a - b; });
    order.forEach(function (s) {
      var li = el("li");
      li.appendChild(el("span", {"class": "swatch", style: "background:" + COLOURS[s % 8]}));
      li.appendChild(document.createTextNode(seatName(s) + ": " + pct(mean[s]) +
        (i < N ? " [" + pct(lo[s]) + ", " + pct(hi[s]) + "]" : (D.places[s] === 1 ? " (won)" : ""))));
      legend.appendChild(li);
    });
  }

  // ------------------------------------------------------------ the move and the view
  function drawMove() {
    var box = $("move");
    box.textContent = "";
    if (state.i === 0) {
      box.appendChild(el("h2", {}, "The deal"));
      box.appendChild(el("p", {}, N ? "Seat " + D.moves[0].seat + " decides first." : "The game has no decisions."));
      return;
    }
    var mv = D.moves[state.i - 1], shown = seen(mv, state.seat);
    box.appendChild(el("h2", {}, "Move " + state.i + ": " + seatName(mv.seat)));
    box.appendChild(el("p", {"class": "made"}, moveText(mv, state.seat)));
    if (!mv.search) return;
    if (!shown) {
      box.appendChild(el("p", {"class": "muted"}, "Seat " + mv.seat + "'s search is hidden in seat " + state.seat +
                                                  "'s view: it would show the move."));
      return;
    }
    var st = mv.search, total = st.visits.reduce(function (a, b) { return a + b; }, 0);
    var chosen = st.codes.indexOf(st.chosen), choice = st.codes.indexOf(st.choice);
    var intro = st.source === "hint"
      ? "The search's hint (" + total + " iterations, from seat " + mv.seat + "'s view): it would play " +
        S[st.options[choice]] + (st.choice === st.chosen ? ", as the person did." : "; the person played " +
        S[st.options[chosen]] + ".")
      : "Seat " + mv.seat + " searched (" + total + " iterations) and played its most visited option.";
    box.appendChild(el("p", {}, intro));
    var scroll = el("div", {"class": "table-scroll", "aria-label": "the search's options"});
    var table = el("table", {"class": "search"});
    var head = el("tr");
    ["option", "visits", "chance of winning"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    var top = Math.max.apply(null, st.visits);
    st.options.forEach(function (opt, k) {
      var tr = el("tr", k === chosen ? {"class": "chosen"} : {});
      tr.appendChild(el("td", {}, S[opt] + (k === chosen ? " ✔" : "")));
      var td = el("td", {"class": "num"});
      td.appendChild(el("span", {"class": "bar", style: "width:" + Math.round(60 * st.visits[k] / top) + "px"}));
      td.appendChild(document.createTextNode(" " + st.visits[k]));
      tr.appendChild(td);
      tr.appendChild(el("td", {"class": "num"}, pct(st.values[k])));
      table.appendChild(tr);
    });
    scroll.appendChild(table);
    box.appendChild(scroll);
  }

  function pairs(box, part) {
    var items = PARTS[part];
    if (!items.length) return;
    var dl = el("dl");
    for (var k = 0; k < items.length; k += 2) {
      dl.appendChild(el("dt", {}, S[items[k]]));
      dl.appendChild(el("dd", {}, S[items[k + 1]]));
    }
    box.appendChild(dl);
  }

  // a view: [status, own, keys, table, counted, row...] (zsim/viewer.py's view_data)
  function drawView() {
    var box = $("view"), v = D.views[state.i][state.seat + 1];
    box.textContent = "";
    box.appendChild(el("h2", {}, state.seat < 0 ? "The table, every hand face up" : "What seat " + state.seat + " sees"));
    box.appendChild(el("p", {"class": "status"}, S[v[0]]));
    pairs(box, v[1]);
    if (v.length > 5) {
      var scroll = el("div", {"class": "table-scroll", "aria-label": "the seats"});
      var table = el("table"), head = el("tr");
      PARTS[v[2]].forEach(function (k) { head.appendChild(el("th", {}, S[k])); });
      table.appendChild(head);
      v.slice(5).forEach(function (row) {
        var tr = el("tr");
        PARTS[row].forEach(function (c) { tr.appendChild(el("td", {}, S[c])); });
        table.appendChild(tr);
      });
      scroll.appendChild(table);
      box.appendChild(scroll);
    }
    pairs(box, v[3]);
    pairs(box, v[4]);
  }

  function drawList() {
    var list = $("move-list");
    list.textContent = "";
    var start = el("li", {"data-move": 0});
    start.appendChild(el("a", {href: link(0)}, "the deal"));
    list.appendChild(start);
    D.moves.forEach(function (mv, k) {
      var li = el("li", {"data-move": k + 1});
      li.appendChild(el("a", {href: link(k + 1)}, (k + 1) + ". seat " + mv.seat + " " + moveText(mv, state.seat)));
      list.appendChild(li);
    });
  }

  function markList() {
    var list = $("move-list"), old = list.querySelector(".current");
    if (old) old.classList.remove("current");
    var now = list.querySelector('li[data-move="' + state.i + '"]');
    if (!now) return;
    now.classList.add("current");
    var top = now.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + now.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }

  // ------------------------------------------------------------ stepping and links
  function link(i, seat) {
    seat = seat === undefined ? state.seat : seat;
    return "#move=" + i + "&seat=" + (seat < 0 ? "all" : seat);
  }

  function show() {
    $("counter").textContent = state.i === 0 ? "the deal (" + N + " moves)" : "move " + state.i + " of " + N;
    $("counter").setAttribute("data-move", state.i);
    $("slider").value = state.i;
    $("first").disabled = $("prev").disabled = state.i === 0;
    $("last").disabled = $("next").disabled = state.i === N;
    drawMove();
    drawView();
    placeMarker();
    markList();
    if (history.replaceState) history.replaceState(null, "", link(state.i));
  }

  function go(i) {
    state.i = Math.max(0, Math.min(N, i | 0));
    show();
  }

  function setSeat(seat) {
    state.seat = seat;
    document.querySelectorAll("#as button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(+b.getAttribute("data-seat") === seat));
    });
    drawChart();
    drawList();
    show();
  }

  function fromHash() {
    var h = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var p = kv.split("=");
      if (p.length === 2) h[p[0]] = decodeURIComponent(p[1]);
    });
    var seat = h.seat === "all" ? -1 : (h.seat !== undefined && /^\d+$/.test(h.seat) && +h.seat < P ? +h.seat : state.seat);
    var i = /^\d+$/.test(h.move || "") ? +h.move : state.i;
    state.i = Math.max(0, Math.min(N, i));
    setSeat(seat);
  }

  function build() {
    var as = $("as");
    [-1].concat(Array.apply(null, Array(P)).map(function (_, s) { return s; })).forEach(function (s) {
      var b = el("button", {type: "button", "data-seat": s}, s < 0 ? "all seats" : "seat " + s);
      b.addEventListener("click", function () { setSeat(s); });
      as.appendChild(b);
    });
    $("slider").max = N;
    $("first").addEventListener("click", function () { go(0); });
    $("prev").addEventListener("click", function () { go(state.i - 1); });
    $("next").addEventListener("click", function () { go(state.i + 1); });
    $("last").addEventListener("click", function () { go(N); });
    $("slider").addEventListener("input", function () { go(+this.value); });
    $("move-list").addEventListener("click", function (ev) {
      var li = ev.target.closest("li[data-move]");
      if (!li) return;
      ev.preventDefault();
      go(+li.getAttribute("data-move"));
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.target.tagName === "INPUT") return;
      if (ev.key === "ArrowRight") go(state.i + 1);
      else if (ev.key === "ArrowLeft") go(state.i - 1);
      else if (ev.key === "Home") go(0);
      else if (ev.key === "End") go(N);
      else return;
      ev.preventDefault();
    });
    window.addEventListener("hashchange", fromHash);
    var width = 0;
    window.addEventListener("resize", function () {
      if ($("chart").clientWidth !== width) { width = $("chart").clientWidth; drawChart(); }
    });
    fromHash();
  }

  window.zsimView = {go: go, setSeat: setSeat, state: state};
  build();
})();
