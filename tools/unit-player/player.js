// The unit player: loads a recording (a script setting
// window.UNIT_RECORDING) and draws one tick at a time. The scene is chosen
// by ?scene= (units, crowd, formation: the recordings make writes into
// build/) or a recording named by ?rec=; ?tick= picks the tick shown
// first, ?trail= how many ticks of trail are drawn behind each mover,
// ?ghosts=N a formation every N ticks before the one shown (faint), and
// ?cell= the pixels a navcell takes, and ?picture=1 leaves only the
// title, the legend and the drawing (for the pictures in docs/). On load every frame is drawn once; #status then
// reports data-status="ok", the scene, the frames in the recording and
// the frames drawn, and the shapes drawn in the tick shown, or "error"
// with the reasons in #errors.
(function () {
  "use strict";
  var SCENES = ["units", "crowd", "formation"];
  var GROUP = ["#1f6feb", "#1f6feb", "#d4700a", "#8250df"];
  var statusEl = document.getElementById("status");
  var errorsEl = document.getElementById("errors");
  var canvas = document.getElementById("view");
  var ctx = canvas.getContext("2d");
  var slider = document.getElementById("tick");
  var label = document.getElementById("tickLabel");
  var select = document.getElementById("scene");
  var params = new URLSearchParams(window.location.search);
  var scene = params.get("scene") || "units";
  var trail = Number(params.get("trail") || (scene === "units" ? 0 : 60));
  var ghosts = Math.floor(Number(params.get("ghosts") || 0));
  var rec = null, scale = 1, timer = null, framesDrawn = 0;

  function report(ok, text, drawn) {
    statusEl.setAttribute("data-status", ok ? "ok" : "error");
    statusEl.setAttribute("data-drawn", String(drawn || 0));
    statusEl.textContent = text;
  }

  function fail(msg) {
    var li = document.createElement("li");
    li.textContent = msg;
    errorsEl.appendChild(li);
    report(false, "error: " + msg, 0);
  }

  function finite(v) { return typeof v === "number" && isFinite(v); }

  function check(r) {
    if (!r || r.format !== "wayfinder.unit-recording") throw new Error("not a unit recording");
    if (r.version !== 1 && r.version !== 2) throw new Error("unknown recording version " + r.version);
    if (!(r.width > 0 && r.height > 0)) throw new Error("bad grid size");
    if (!Array.isArray(r.frames) || r.frames.length === 0) throw new Error("no frames");
    if (r.version === 2 && r.scene !== scene && !params.get("rec")) {
      throw new Error("asked for the scene " + scene + ", the recording holds " + r.scene);
    }
    r.frames.forEach(function (f, k) {
      if (!Array.isArray(f.units) || !Array.isArray(f.edges)) throw new Error("frame " + k + " is malformed");
      f.units.forEach(function (u) {
        [u.x, u.y, u.r].forEach(function (v) {
          if (!finite(v)) throw new Error("frame " + k + ": a unit has a bad number");
        });
      });
      if (f.formation) {
        if (!Array.isArray(f.formation.members) || !Array.isArray(f.formation.anchor)) {
          throw new Error("frame " + k + ": the formation is malformed");
        }
        f.formation.members.forEach(function (m) {
          [m.x, m.y, m.sx, m.sy].forEach(function (v) {
            if (!finite(v)) throw new Error("frame " + k + ": a member has a bad number");
          });
        });
      }
    });
  }

  function line(pts, color, width, dash) {
    if (pts.length < 2) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.setLineDash(dash || []);
    ctx.beginPath();
    ctx.moveTo(pts[0][0] * scale, pts[0][1] * scale);
    for (var n = 1; n < pts.length; n++) ctx.lineTo(pts[n][0] * scale, pts[n][1] * scale);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // where mover n (a unit or a formation member) stood over the last
  // `trail` ticks up to frame k
  function trailOf(k, n, member) {
    var pts = [];
    for (var j = Math.max(0, k - trail); j <= k; j++) {
      var f = rec.frames[j];
      var p = member ? f.formation.members[n] : f.units[n];
      if (p) pts.push([p.x, p.y]);
    }
    return pts;
  }

  function drawGround() {
    var drawn = 0;
    ctx.fillStyle = "#333";
    rec.cells.forEach(function (c) {
      ctx.fillRect(c[0] * scale, c[1] * scale, scale, scale);
      drawn++;
    });
    ctx.strokeStyle = "#eee";
    ctx.lineWidth = 1;
    for (var x = 0; x <= rec.width; x++) {
      ctx.beginPath(); ctx.moveTo(x * scale, 0); ctx.lineTo(x * scale, rec.height * scale); ctx.stroke();
    }
    for (var y = 0; y <= rec.height; y++) {
      ctx.beginPath(); ctx.moveTo(0, y * scale); ctx.lineTo(rec.width * scale, y * scale); ctx.stroke();
    }
    return drawn;
  }

  function drawUnits(k) {
    var f = rec.frames[k], drawn = 0;
    ctx.strokeStyle = "#d1242f";
    ctx.lineWidth = 2;
    f.edges.forEach(function (e) {
      ctx.beginPath(); ctx.moveTo(e[0] * scale, e[1] * scale); ctx.lineTo(e[2] * scale, e[3] * scale); ctx.stroke();
      drawn++;
    });
    f.units.forEach(function (u, n) {
      var color = GROUP[u.group || 0] || GROUP[0];
      if (trail > 0) line(trailOf(k, n, false), color + "66", 2);
      if (u.goal) {
        var gx = u.goal[0] * scale, gy = u.goal[1] * scale, h = scale * 0.2;
        ctx.strokeStyle = color;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(gx - h, gy - h); ctx.lineTo(gx + h, gy + h);
        ctx.moveTo(gx - h, gy + h); ctx.lineTo(gx + h, gy - h);
        ctx.stroke();
      }
      if (u.path.length > 1 && u.state !== "idle") {
        var pts = [[u.x, u.y]].concat(u.path.slice(Math.max(0, u.next - 1)));
        line(pts, u.group ? color : "#2da44e", u.group ? 1 : 2, u.group ? [4, 4] : null);
        drawn++;
      }
    });
    f.units.forEach(function (u) {
      var color = GROUP[u.group || 0] || GROUP[0];
      var x0 = (u.x - u.r) * scale, y0 = (u.y - u.r) * scale, side = 2 * u.r * scale;
      ctx.fillStyle = color + "40";
      ctx.fillRect(x0, y0, side, side);
      ctx.strokeStyle = u.id === rec.focus ? "#d1242f" : (u.state === "waiting" ? "#d1242f" : color);
      ctx.lineWidth = 2;
      ctx.strokeRect(x0, y0, side, side);
      if (!u.group) {
        ctx.fillStyle = "#000";
        ctx.fillText(String(u.id), u.x * scale - 4, u.y * scale + 4);
      }
      drawn++;
    });
    return drawn;
  }

  function diamond(x, y, h) {
    ctx.beginPath();
    ctx.moveTo(x, y - h); ctx.lineTo(x + h, y); ctx.lineTo(x, y + h); ctx.lineTo(x - h, y);
    ctx.closePath();
    ctx.fill();
  }

  // the formation every `ghosts` ticks before frame k, faint
  function drawGhosts(k, r) {
    for (var j = k - ghosts; j >= 0; j -= ghosts) {
      var fm = rec.frames[j].formation;
      ctx.fillStyle = fm.squeezed ? "rgba(212, 112, 10, 0.45)" : "rgba(31, 111, 235, 0.35)";
      fm.members.forEach(function (m) {
        ctx.beginPath();
        ctx.arc(m.x * scale, m.y * scale, r * 0.8, 0, 2 * Math.PI);
        ctx.fill();
      });
      ctx.fillStyle = "rgba(209, 36, 47, 0.45)";
      diamond(fm.anchor[0] * scale, fm.anchor[1] * scale, r);
    }
  }

  function drawFormation(k) {
    var f = rec.frames[k], drawn = 0, fm = f.formation;
    var r = Math.max(3, scale * 0.3);
    if (ghosts > 0) drawGhosts(k, r);
    fm.members.forEach(function (m, n) {
      if (trail > 0) line(trailOf(k, n, true), "#1f6feb55", 2);
    });
    fm.members.forEach(function (m) {
      line([[m.x, m.y], [m.sx, m.sy]], "#d4700a", 1, [3, 3]);
      ctx.strokeStyle = "#d4700a";
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(m.sx * scale, m.sy * scale, r + 3, 0, 2 * Math.PI);
      ctx.stroke();
      drawn++;
    });
    fm.members.forEach(function (m) {
      ctx.fillStyle = "#1f6feb";
      ctx.beginPath();
      ctx.arc(m.x * scale, m.y * scale, r, 0, 2 * Math.PI);
      ctx.fill();
      drawn++;
    });
    ctx.fillStyle = "#d1242f";
    diamond(fm.anchor[0] * scale, fm.anchor[1] * scale, r + 4);
    drawn++;
    var text = "tick " + f.tick + ": " + (fm.squeezed ? "squeezed, filing as a column" : "in shape");
    ctx.font = "bold 15px sans-serif";
    ctx.fillStyle = "rgba(255, 255, 255, 0.85)";
    ctx.fillRect(4, canvas.height - 26, ctx.measureText(text).width + 12, 22);
    ctx.fillStyle = "#000";
    ctx.fillText(text, 10, canvas.height - 10);
    ctx.font = "10px sans-serif";
    return drawn;
  }

  function draw(k) {
    var f = rec.frames[k], drawn = 0;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    drawn += drawGround();
    (rec.paths || []).forEach(function (p) {
      line(p, "#8250df", 2, [8, 5]);
      drawn++;
    });
    drawn += drawUnits(k);
    if (f.formation) drawn += drawFormation(k);
    label.textContent = "tick " + f.tick + " of " + rec.frames[rec.frames.length - 1].tick;
    return drawn;
  }

  function show(k) {
    var f = rec.frames[k];
    var drawn = draw(k);
    var what = f.formation ? f.formation.members.length + " members" : f.units.length + " units";
    report(true, "ok: " + (rec.scene || "units") + ", tick " + f.tick + ", " + what + ", " +
      f.edges.length + " edges", drawn);
  }

  function start() {
    try {
      rec = window.UNIT_RECORDING;
      check(rec);
      scale = Number(params.get("cell")) ||
        Math.floor(Math.min(canvas.width / rec.width, canvas.height / rec.height));
      scale = Math.max(2, Math.min(64, Math.floor(scale)));
      canvas.width = rec.width * scale;
      canvas.height = rec.height * scale;
      document.getElementById("title").textContent = rec.title || "";
      slider.max = String(rec.frames.length - 1);
      // every frame once, so a frame that cannot be drawn is caught here
      framesDrawn = 0;
      for (var j = 0; j < rec.frames.length; j++) {
        if (draw(j) > 0) framesDrawn++;
      }
      statusEl.setAttribute("data-scene", rec.scene || "units");
      statusEl.setAttribute("data-frames", String(rec.frames.length));
      statusEl.setAttribute("data-frames-drawn", String(framesDrawn));
      // by default a tick a quarter of the way through, where units move
      var k = params.get("tick") !== null ? Number(params.get("tick"))
        : Math.floor((rec.frames.length - 1) / 4);
      k = Math.max(0, Math.min(rec.frames.length - 1, Math.floor(k) || 0));
      slider.value = String(k);
      show(k);
    } catch (e) {
      fail(e.message);
    }
  }

  SCENES.forEach(function (s) {
    var o = document.createElement("option");
    o.value = s;
    o.textContent = s;
    if (s === scene) o.selected = true;
    select.appendChild(o);
  });
  select.addEventListener("change", function () {
    window.location.search = "?scene=" + encodeURIComponent(select.value);
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.getElementById("step").addEventListener("click", function () {
    var k = Math.min(rec.frames.length - 1, Number(slider.value) + 1);
    slider.value = String(k);
    show(k);
  });
  document.getElementById("play").addEventListener("click", function () {
    if (timer) { clearInterval(timer); timer = null; return; }
    timer = setInterval(function () {
      var k = Number(slider.value) + 1;
      if (k >= rec.frames.length) { clearInterval(timer); timer = null; return; }
      slider.value = String(k);
      show(k);
    }, 50);
  });
  window.addEventListener("error", function (e) { fail(String(e.message)); });
  if (params.get("picture")) document.body.className = "picture";
  document.body.setAttribute("data-scene", scene);

  if (SCENES.indexOf(scene) < 0) {
    fail("unknown scene " + scene + " (units, crowd or formation)");
    return;
  }
  var src = params.get("rec") ||
    (scene === "units" ? "../../build/unit-recording.js" : "../../build/unit-recording-" + scene + ".js");
  var s = document.createElement("script");
  s.src = src;
  s.onload = start;
  s.onerror = function () { fail("cannot load the recording " + src); };
  document.head.appendChild(s);
})();
