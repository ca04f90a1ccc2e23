// pathfinding_bench.js - PathFinding.js (npm "pathfinding") A* and jump point
// search on Moving AI maps, measured the way wayfinder is: one base grid per
// map, each query timed with process.hrtime.bigint().
//
// PathFinding.js writes its search state into the grid's nodes, so every
// query needs a fresh grid.clone(). The clone and the search are timed
// separately: "ns" is the search alone, "extra_ns" the clone a caller pays
// before it. Beside each wall time, process.cpuUsage() gives the processor
// time (microsecond resolution, every thread of the process, so the
// collector's helper threads count too). Both finders run with DiagonalMovement.OnlyWhenNoObstacles (a
// diagonal step needs both orthogonal neighbours free: no corner cutting)
// and the octile heuristic.
//
// usage: node pathfinding_bench.js MAP SCEN [K [WARMUP]]   (as wayfinder_bench)
// Prints the record lines described in peer_common.h.
'use strict';

const fs = require('fs');
const path = require('path');
const PF = require('pathfinding');

function loadMap(file) {
  const lines = fs.readFileSync(file, 'latin1').split('\n').map((l) => l.replace(/\r$/, ''));
  let w = -1;
  let h = -1;
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^(width|height) (\d+)$/.exec(lines[i]);
    if (m) {
      if (m[1] === 'width') w = Number(m[2]);
      else h = Number(m[2]);
    } else if (lines[i] === 'map') {
      i++;
      break;
    }
  }
  if (w <= 0 || h <= 0) throw new Error(`${file}: bad or missing width/height`);
  const pass = new Uint8Array(w * h);
  const matrix = [];
  for (let y = 0; y < h; y++) {
    const row = lines[i + y];
    if (row === undefined || row.length !== w) throw new Error(`${file}: row ${y} is not ${w} wide`);
    const mrow = new Array(w);
    for (let x = 0; x < w; x++) {
      const c = row[x];
      const ok = c === '.' || c === 'G' || c === 'S';
      pass[y * w + x] = ok ? 1 : 0;
      mrow[x] = ok ? 0 : 1; // PathFinding.js: non-zero means blocked
    }
    matrix.push(mrow);
  }
  return { w, h, pass, matrix };
}

function loadScen(file) {
  const queries = [];
  let header = false;
  for (const raw of fs.readFileSync(file, 'latin1').split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (!header) {
      if (!line.startsWith('version')) throw new Error(`${file}: expected a version header`);
      header = true;
      continue;
    }
    const f = line.split(/\s+/);
    if (f.length !== 9) throw new Error(`${file}: expected 9 fields in '${line}'`);
    queries.push({ sx: Number(f[4]), sy: Number(f[5]), gx: Number(f[6]), gy: Number(f[7]), length: f[8] });
  }
  return queries;
}

// Same selection as peer_common.c's pc_select.
function select(n, k) {
  const idx = [];
  if (k <= 0 || k >= n) {
    for (let i = 0; i < n; i++) idx.push(i);
  } else {
    for (let i = 0; i < k; i++) idx.push(Math.floor((i * n) / k));
  }
  return idx;
}

// Same rule as peer_common.c's pc_check_path. Returns [length, why].
function checkPath(map, pts, q) {
  const ok = (x, y) => x >= 0 && y >= 0 && x < map.w && y < map.h && map.pass[y * map.w + x] === 1;
  if (pts.length < 1) return [0, 'empty path'];
  const [x0, y0] = pts[0];
  const [xn, yn] = pts[pts.length - 1];
  if (x0 !== q.sx || y0 !== q.sy) return [0, `starts at (${x0},${y0})`];
  if (xn !== q.gx || yn !== q.gy) return [0, `ends at (${xn},${yn})`];
  if (!ok(x0, y0)) return [0, `start (${x0},${y0}) blocked`];
  let ortho = 0;
  let diag = 0;
  for (let i = 1; i < pts.length; i++) {
    let [x, y] = pts[i - 1];
    const dx = pts[i][0] - x;
    const dy = pts[i][1] - y;
    const adx = Math.abs(dx);
    const ady = Math.abs(dy);
    if (adx !== 0 && ady !== 0 && adx !== ady) return [0, `segment (${x},${y})-(${pts[i]}) not straight`];
    const steps = Math.max(adx, ady);
    const sx = Math.sign(dx);
    const sy = Math.sign(dy);
    for (let s = 0; s < steps; s++) {
      if (sx && sy && (!ok(x + sx, y) || !ok(x, y + sy))) return [0, `corner cut (${x},${y})->(${x + sx},${y + sy})`];
      x += sx;
      y += sy;
      if (!ok(x, y)) return [0, `enters blocked (${x},${y})`];
    }
    if (sx && sy) diag += steps;
    else ortho += steps;
  }
  return [ortho + diag * Math.SQRT2, null];
}

function cpuNs(a, b) {
  return (b.user - a.user + b.system - a.system) * 1000;
}

function main() {
  const [mapFile, scenFile, kArg, warmArg] = process.argv.slice(2);
  if (!scenFile) {
    process.stderr.write('usage: node pathfinding_bench.js MAP SCEN [K [WARMUP]]\n');
    process.exit(2);
  }
  const k = Number(kArg || 0);
  const warmup = Number(warmArg === undefined ? 10 : warmArg);
  const map = loadMap(mapFile);
  const queries = loadScen(scenFile);
  const mapName = path.basename(mapFile);
  const idx = select(queries.length, k);
  const base = new PF.Grid(map.w, map.h, map.matrix);
  const opts = { diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PF.Heuristic.octile };
  const finders = [
    ['pathfinding.js-astar', new PF.AStarFinder(opts)],
    ['pathfinding.js-jps', new PF.JumpPointFinder(opts)],
  ];
  const out = [];
  for (const [peer, finder] of finders) {
    for (let i = 0; i < Math.min(warmup, idx.length); i++) {
      const q = queries[idx[i]];
      finder.findPath(q.sx, q.sy, q.gx, q.gy, base.clone());
    }
    for (const i of idx) {
      const q = queries[i];
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const grid = base.clone();
      const t1 = process.hrtime.bigint();
      const c1 = process.cpuUsage();
      const t2 = process.hrtime.bigint();
      const pts = finder.findPath(q.sx, q.sy, q.gx, q.gy, grid);
      const t3 = process.hrtime.bigint();
      const c2 = process.cpuUsage();
      let status = 'ok';
      let len = 0;
      let why = null;
      if (pts.length === 0) {
        status = 'nopath';
      } else {
        [len, why] = checkPath(map, pts, q);
        if (why) status = 'invalid';
      }
      out.push(['Q', peer, mapName, i, status, t3 - t2, t1 - t0, cpuNs(c1, c2), cpuNs(c0, c1),
        len.toFixed(9), q.length, q.sx, q.sy, q.gx, q.gy, why || '-'].join('\t'));
    }
  }
  process.stdout.write(out.join('\n') + '\n');
}

main();
