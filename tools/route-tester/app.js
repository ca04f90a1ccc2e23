// wayfinder route tester: draws a route file written by planner:save_route
// (see docs/rectplan.md) and replays the planner's search step by step.
// No libraries and no network beyond reading the route file.
(function () {
  "use strict";

  var statusEl = document.getElementById("status");
  var errorsEl = document.getElementById("errors");
  var canvas = document.getElementById("canvas");
  var ctx = canvas.getContext("2d");
  var slider = document.getElementById("slider");
  var route = null;      // the decoded route file
  var step = 0;          // 0..steps: A* steps; steps+1..: smoothing stages
  var drawn = 0;         // shapes drawn by the last frame
  var layers = {};

  // ------------------------------------------------------ status/errors --

  function report(msg) {
    var li = document.createElement("li");
    li.textContent = String(msg);
    errorsEl.appendChild(li);
    statusEl.setAttribute("data-status", "error");
    statusEl.textContent = "error: " + msg;
  }

  window.addEventListener("error", function (e) {
    report((e.message || "error") + (e.lineno ? " (line " + e.lineno + ")" : ""));
  });
  window.addEventListener("unhandledrejection", function (e) {
    report("unhandled rejection: " + (e.reason && e.reason.message || e.reason));
  });

  function setStatus() {
    if (statusEl.getAttribute("data-status") === "error") return;
    statusEl.setAttribute("data-status", route ? "ok" : "idle");
    statusEl.setAttribute("data-drawn", String(drawn));
    statusEl.textContent = route ? "drew " + drawn + " shapes, step " + step : "no route loaded";
  }

  // ----------------------------------------------------------- checking --

  function need(cond, what) {
    if (!cond) throw new Error("not a route file: " + what);
  }

  function checkRoute(r) {
    need(r && typeof r === "object", "expected a JSON object");
    need(r.format === "wayfinder.route", "format must be 'wayfinder.route'");
    need(r.version === 1, "version must be 1");
    need(r.room && r.query && r.result && r.trace, "room, query, result and trace are required");
    need(Array.isArray(r.bounds) && r.bounds.length === 4, "bounds must be [x0, y0, x1, y1]");
    need(Array.isArray(r.obstacles) && Array.isArray(r.inflated), "obstacles and inflated must be lists");
    need(Array.isArray(r.trace.nodes) && Array.isArray(r.trace.vertices), "trace.nodes and trace.vertices must be lists");
    r.trace.stages = r.trace.stages || [];
    return r;
  }

  // ------------------------------------------------------------ drawing --

  var scale = 1, ox = 0, oy = 0;

  function fit() {
    var b = route.bounds, pad = 20;
    var w = b[2] - b[0], h = b[3] - b[1];
    scale = Math.min((canvas.width - 2 * pad) / w, (canvas.height - 2 * pad) / h);
    ox = pad - b[0] * scale + ((canvas.width - 2 * pad) - w * scale) / 2;
    oy = pad - b[1] * scale + ((canvas.height - 2 * pad) - h * scale) / 2;
  }

  function X(x) { return ox + x * scale; }
  function Y(y) { return oy + y * scale; }

  function rect(box, fill, stroke, lw) {
    var x = X(box[0]), y = Y(box[1]), w = (box[2] - box[0]) * scale, h = (box[3] - box[1]) * scale;
    if (fill) { ctx.fillStyle = fill; ctx.fillRect(x, y, w, h); }
    if (stroke) { ctx.strokeStyle = stroke; ctx.lineWidth = lw || 1; ctx.strokeRect(x, y, w, h); }
    drawn++;
  }

  function dot(p, r, fill) {
    ctx.beginPath();
    ctx.arc(X(p[0]), Y(p[1]), r, 0, 2 * Math.PI);
    ctx.fillStyle = fill;
    ctx.fill();
    drawn++;
  }

  function line(pts, color, width, dash) {
    if (!pts || pts.length < 2) return;
    ctx.beginPath();
    ctx.setLineDash(dash || []);
    ctx.moveTo(X(pts[0][0]), Y(pts[0][1]));
    for (var i = 1; i < pts.length; i++) ctx.lineTo(X(pts[i][0]), Y(pts[i][1]));
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.setLineDash([]);
    drawn++;
  }

  function drawTiles() {
    var room = route.room, W = room.width, H = room.height, b = route.bounds;
    var start = route.query.start, own = null;
    if (route.query.room !== undefined) own = route.query.room;
    else own = room.rooms[Math.floor(start[1]) * W + Math.floor(start[0])];
    var doors = {};
    (room.doors || []).forEach(function (k) { doors[k] = true; });
    for (var y = Math.max(0, Math.floor(b[1])); y < Math.min(H, b[3]); y++) {
      for (var x = Math.max(0, Math.floor(b[0])); x < Math.min(W, b[2]); x++) {
        var k = y * W + x + 1;
        var fill = room.rooms[k - 1] === own ? "#fcfcf8" : "#d9d6cf";
        if (doors[k]) fill = "#e8d9a8";
        rect([x, y, x + 1, y + 1], fill, "#ecebe6", 1);
      }
    }
    (room.walls || []).forEach(function (w) {
      line([[w[0], w[1]], [w[2], w[3]]], "#333", 3);
    });
  }

  function visibleNodes() {
    return route.trace.nodes.filter(function (n) { return n[4] <= step; });
  }

  function bestPath(current) {
    var vs = route.trace.vertices, pts = [], v = current, guard = 0;
    while (v > 0 && guard++ < vs.length + 1) {
      pts.unshift([vs[v - 1][0], vs[v - 1][1]]);
      v = vs[v - 1][6];
    }
    return pts;
  }

  function draw() {
    drawn = 0;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    fit();
    var steps = route.trace.steps, vs = route.trace.vertices;
    var astarStep = Math.min(step, steps);
    if (layers.tiles) drawTiles();
    if (layers.inflated) route.inflated.forEach(function (a) {
      if (a.penalty === undefined) rect(a.box, "rgba(220,60,60,0.16)", "#c33", 1);
      else rect(a.box, "rgba(230,160,40,0.18)", "#c80", 1);
    });
    if (layers.obstacles) route.obstacles.forEach(function (a) {
      if (a.penalty === undefined) rect(a.box, "rgba(60,60,60,0.85)", null);
      else rect(a.box, "rgba(200,130,30,0.45)", null);
    });
    if (layers.cover) visibleNodes().forEach(function (n) {
      var expanded = n[5] >= 0 && n[5] <= astarStep;
      rect(n, expanded ? "rgba(70,120,220,0.16)" : "rgba(70,120,220,0.05)", "#3a6fd8", 1.2);
    });
    var current = 0;
    if (layers.search) vs.forEach(function (v, i) {
      var opened = v[4] >= 0 && v[4] <= astarStep, closed = v[5] >= 0 && v[5] <= astarStep;
      if (v[5] === astarStep && astarStep > 0) current = i + 1;
      if (closed) dot(v, 3, "#888");
      else if (opened) dot(v, 3.5, "#2a2");
    });
    vs.forEach(function (v, i) { if (v[5] === astarStep && astarStep > 0) current = i + 1; });
    if (layers.best && current) line(bestPath(current), "#f90", 3);
    var res = route.result;
    var done = res.status === "done";
    if (layers.astar && done && step >= steps) line(res.astar, "#0aa", 1.5, [6, 4]);
    if (layers.route && done && step >= steps) {
      var stage = step - steps;
      var pts = stage >= 1 && stage <= route.trace.stages.length
        ? route.trace.stages[stage - 1].points : (stage === 0 ? res.astar : res.points);
      line(pts, "#8a2be2", 3.5);
      pts.forEach(function (p) { dot(p, 2.5, "#8a2be2"); });
    }
    var q = route.query;
    if (q.mode === "near" && q.near > 0) {
      ctx.setLineDash([4, 3]);
      rect([q.goal[0] - q.near, q.goal[1] - q.near, q.goal[0] + q.near, q.goal[1] + q.near], null, "#d22", 1.5);
      ctx.setLineDash([]);
    }
    dot(q.start, 5, "#1a1");
    dot(q.goal, 5, "#d22");
    showStep(current);
    setStatus();
  }

  // -------------------------------------------------------------- panels --

  function fmt(v) {
    if (typeof v === "number") return Math.round(v * 10000) / 10000 + "";
    if (Array.isArray(v)) return "(" + v.map(fmt).join(", ") + ")";
    if (v && typeof v === "object") return JSON.stringify(v);
    return String(v);
  }

  function fillTable(id, obj, keys) {
    var t = document.getElementById(id);
    t.innerHTML = "";
    (keys || Object.keys(obj)).forEach(function (k) {
      if (obj[k] === undefined) return;
      var tr = document.createElement("tr");
      var a = document.createElement("td"), b = document.createElement("td");
      a.textContent = k;
      b.textContent = fmt(obj[k]);
      tr.appendChild(a);
      tr.appendChild(b);
      t.appendChild(tr);
    });
  }

  function showStep(current) {
    var steps = route.trace.steps, el = document.getElementById("stepdetail");
    var nstages = route.trace.stages.length;
    var text;
    if (step <= steps) {
      var open = route.trace.vertices.filter(function (v) {
        return v[4] >= 0 && v[4] <= step && !(v[5] >= 0 && v[5] <= step);
      }).length;
      text = "A* step " + step + " of " + steps + ": " + visibleNodes().length + " rectangles, "
        + open + " open points";
      if (current) {
        var v = route.trace.vertices[current - 1];
        text += "; popped point " + current + " at " + fmt([v[0], v[1]]) + ", g = " + fmt(v[8]);
      }
    } else {
      var s = route.trace.stages[step - steps - 1];
      text = "smoothing stage " + (step - steps) + " of " + nstages + ": step " + fmt(s.step);
    }
    el.textContent = text;
    document.getElementById("stepinfo").textContent = step + " / " + (steps + nstages);
  }

  function load(text, source) {
    errorsEl.innerHTML = "";
    statusEl.setAttribute("data-status", "loading");
    route = checkRoute(JSON.parse(text));
    document.getElementById("source").textContent = source;
    var max = route.trace.steps + route.trace.stages.length;
    slider.max = String(max);
    var want = new URLSearchParams(location.search).get("step");
    step = want === null || want === "last" ? max : Math.max(0, Math.min(max, parseInt(want, 10) || 0));
    slider.value = String(step);
    var res = route.result;
    fillTable("result", {
      status: res.status, reason: res.reason, length: res.length, cost: res.cost,
      "A* chain length": res.chain_length, rectangles: res.nodes, "A* steps": res.expanded,
      points: res.points ? res.points.length : undefined,
    });
    var q = route.query;
    fillTable("query", {
      start: q.start, goal: q.goal, mode: q.mode || "point", near: q.near, width: q.width,
      start_object: q.start_object, dest_object: q.dest_object,
      ignore_people_within: q.ignore_people_within, room: q.room,
      "world": route.room.width + " x " + route.room.height + " tiles",
      obstacles: route.obstacles.length, skipped: (route.skipped || []).length,
    });
    fillTable("tuning", route.tuning || {});
    draw();
  }

  function go(s) {
    if (!route) return;
    step = Math.max(0, Math.min(Number(slider.max), s));
    slider.value = String(step);
    draw();
  }

  // -------------------------------------------------------------- wiring --

  document.getElementById("first").onclick = function () { go(0); };
  document.getElementById("back").onclick = function () { go(step - 1); };
  document.getElementById("forward").onclick = function () { go(step + 1); };
  document.getElementById("last").onclick = function () { go(Number(slider.max)); };
  slider.oninput = function () { go(Number(slider.value)); };
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(Number(slider.max));
  });
  Array.prototype.forEach.call(document.querySelectorAll("#layers input"), function (box) {
    layers[box.getAttribute("data-layer")] = box.checked;
    box.onchange = function () { layers[box.getAttribute("data-layer")] = box.checked; if (route) draw(); };
  });
  document.getElementById("file").onchange = function (e) {
    var f = e.target.files[0];
    if (!f) return;
    var reader = new FileReader();
    reader.onload = function () {
      try { load(String(reader.result), f.name); } catch (err) { report(err.message); }
    };
    reader.onerror = function () { report("cannot read " + f.name); };
    reader.readAsText(f);
  };

  // ?route=URL: read with XMLHttpRequest, which works over http and, when
  // the browser allows it, for files next to the page
  var url = new URLSearchParams(location.search).get("route");
  if (url) {
    statusEl.setAttribute("data-status", "loading");
    statusEl.textContent = "loading " + url;
    var xhr = new XMLHttpRequest();
    xhr.open("GET", url);
    xhr.onload = function () {
      if (xhr.status !== 0 && xhr.status !== 200) { report("cannot load " + url + ": HTTP " + xhr.status); return; }
      try { load(xhr.responseText, url); } catch (err) { report(err.message); }
    };
    xhr.onerror = function () { report("cannot load " + url); };
    xhr.send();
  }
})();
