// The unit player: loads a recording (a script setting
// window.UNIT_RECORDING, named by ?rec=, default the one make writes into
// build/) and draws one tick at a time. #status reports data-status="ok"
// and the number of shapes drawn, or "error" with the reasons in #errors.
(function () {
  "use strict";
  var statusEl = document.getElementById("status");
  var errorsEl = document.getElementById("errors");
  var canvas = document.getElementById("view");
  var ctx = canvas.getContext("2d");
  var slider = document.getElementById("tick");
  var label = document.getElementById("tickLabel");
  var rec = null, scale = 1, timer = null;

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

  function check(r) {
    if (!r || r.format !== "wayfinder.unit-recording") throw new Error("not a unit recording");
    if (r.version !== 1) throw new Error("unknown recording version " + r.version);
    if (!(r.width > 0 && r.height > 0)) throw new Error("bad grid size");
    if (!Array.isArray(r.frames) || r.frames.length === 0) throw new Error("no frames");
    r.frames.forEach(function (f, k) {
      if (!Array.isArray(f.units) || !Array.isArray(f.edges)) throw new Error("frame " + k + " is malformed");
      f.units.forEach(function (u) {
        [u.x, u.y, u.r].forEach(function (v) {
          if (typeof v !== "number" || !isFinite(v)) throw new Error("frame " + k + ": a unit has a bad number");
        });
      });
    });
  }

  function draw(k) {
    var f = rec.frames[k], drawn = 0;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
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
    ctx.strokeStyle = "#d1242f";
    ctx.lineWidth = 2;
    f.edges.forEach(function (e) {
      ctx.beginPath(); ctx.moveTo(e[0] * scale, e[1] * scale); ctx.lineTo(e[2] * scale, e[3] * scale); ctx.stroke();
      drawn++;
    });
    f.units.forEach(function (u) {
      if (u.path.length > 1 && u.state !== "idle") {
        ctx.strokeStyle = "#2da44e";
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(u.x * scale, u.y * scale);
        for (var n = Math.max(0, u.next - 1); n < u.path.length; n++) {
          ctx.lineTo(u.path[n][0] * scale, u.path[n][1] * scale);
        }
        ctx.stroke();
        drawn++;
      }
      ctx.strokeStyle = u.id === rec.focus ? "#d1242f" : "#1f6feb";
      ctx.fillStyle = "rgba(31, 111, 235, 0.25)";
      ctx.lineWidth = 2;
      ctx.fillRect((u.x - u.r) * scale, (u.y - u.r) * scale, 2 * u.r * scale, 2 * u.r * scale);
      ctx.strokeRect((u.x - u.r) * scale, (u.y - u.r) * scale, 2 * u.r * scale, 2 * u.r * scale);
      ctx.fillStyle = "#000";
      ctx.fillText(String(u.id), u.x * scale - 4, u.y * scale + 4);
      drawn++;
    });
    label.textContent = "tick " + f.tick + " of " + rec.frames[rec.frames.length - 1].tick;
    report(true, "ok: tick " + f.tick + ", " + f.units.length + " units, " + f.edges.length + " edges", drawn);
  }

  function start() {
    try {
      rec = window.UNIT_RECORDING;
      check(rec);
      scale = Math.floor(Math.min(canvas.width / rec.width, canvas.height / rec.height));
      slider.max = String(rec.frames.length - 1);
      // show a tick in the middle of the run, where the units are moving
      var k = Math.floor((rec.frames.length - 1) / 4);
      slider.value = String(k);
      draw(k);
    } catch (e) {
      fail(e.message);
    }
  }

  slider.addEventListener("input", function () { draw(Number(slider.value)); });
  document.getElementById("step").addEventListener("click", function () {
    var k = Math.min(rec.frames.length - 1, Number(slider.value) + 1);
    slider.value = String(k);
    draw(k);
  });
  document.getElementById("play").addEventListener("click", function () {
    if (timer) { clearInterval(timer); timer = null; return; }
    timer = setInterval(function () {
      var k = Number(slider.value) + 1;
      if (k >= rec.frames.length) { clearInterval(timer); timer = null; return; }
      slider.value = String(k);
      draw(k);
    }, 50);
  });
  window.addEventListener("error", function (e) { fail(String(e.message)); });

  var params = new URLSearchParams(window.location.search);
  var src = params.get("rec") || "../../build/unit-recording.js";
  var s = document.createElement("script");
  s.src = src;
  s.onload = start;
  s.onerror = function () { fail("cannot load the recording " + src); };
  document.head.appendChild(s);
})();
