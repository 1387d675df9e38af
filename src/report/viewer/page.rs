//! The viewer's page: its HTML template, style and script (the stepping, the drawing of the
//! board from the data, the legend), inline, and the data embedded in it as JSON so that
//! nothing in the data can close the script element.

use serde_json::Value;

pub(super) fn page(data: Value) -> String {
    let caption = data["caption"].as_str().unwrap_or_default().to_string();
    // '<' only occurs inside JSON strings, where \u003c means the same; so nothing in the
    // data can close the script element.
    let json = data.to_string().replace('<', "\\u003c");
    TEMPLATE
        .replace("{{TITLE}}", &escape_html(&caption))
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &json)
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const TEMPLATE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>{{STYLE}}</style>
</head>
<body>
<header>
<h1>{{TITLE}}</h1>
<nav id="files"></nav>
</header>
<div id="controls">
<button id="first" title="the army (Home)">|◀</button>
<button id="prevmove" title="previous move (↑)">◀◀ move</button>
<button id="prev" title="previous jump (←)">◀ jump</button>
<button id="play" title="play / pause (space)">▶ play</button>
<button id="next" title="next jump (→)">jump ▶</button>
<button id="nextmove" title="next move (↓)">move ▶▶</button>
<button id="last" title="the end (End)">▶|</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="jump">
<span id="where"></span>
<label>speed <select id="speed">
<option value="0.5">½ jump/s</option><option value="1">1 jump/s</option>
<option value="2" selected>2 jumps/s</option><option value="4">4 jumps/s</option>
<option value="8">8 jumps/s</option><option value="16">16 jumps/s</option>
</select></label>
<label><input type="checkbox" id="showexp"> exponents</label>
</div>
<div id="status"><span id="s-move"></span> <span id="s-jump"></span> <span id="s-men"></span>
<br><span id="s-weight"></span> <span id="s-slack"></span></div>
<svg id="board" role="img" aria-label="board"></svg>
<section id="legend"></section>
<script type="application/json" id="data">{{DATA}}</script>
<script>{{SCRIPT}}</script>
</body>
</html>
"#;

const STYLE: &str = r#"
body { font: 14px/1.4 system-ui, sans-serif; margin: 12px 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px; }
nav a { margin-right: 12px; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }
#controls button { font: inherit; padding: 3px 8px; }
#slider { flex: 1 1 240px; }
#where { min-width: 13em; font-variant-numeric: tabular-nums; }
#status { font-variant-numeric: tabular-nums; background: #f4f4f5; padding: 6px 8px;
  border-radius: 4px; min-height: 2.8em; }
#board { display: block; width: 100%; height: auto; max-height: 74vh; margin: 8px 0;
  background: white; }
#legend { font-size: 13px; max-width: 72em; }
#legend .sw { display: inline-block; width: 14px; height: 14px; vertical-align: -2px;
  border: 1px solid #999; margin: 0 2px 0 8px; }
#legend .dot { display: inline-block; width: 12px; height: 12px; border-radius: 50%;
  vertical-align: -1px; margin-right: 4px; }
.exps { display: none; }
.showexp .exps { display: inline; }
.fallen { opacity: 0.18; }
.fading { animation: fade 0.8s ease-out forwards; }
@keyframes fade { from { opacity: 1; } to { opacity: 0.18; } }
"#;

const SCRIPT: &str = r#"
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('data').textContent);
  const svg = document.getElementById('board');
  const NS = svg.namespaceURI;
  const N = D.jumps.length;
  const B = D.board || null;
  const M = D.moves;
  const PATH = '#7c3aed', HALO = '#facc15';
  const key = (x, y) => x + ',' + y;
  const pt = new Map(D.cells.map(c => [key(c[0], c[1]), [c[2], c[3]]]));
  const P = (x, y) => {
    const p = pt.get(key(x, y));
    if (!p) throw new Error('cell ' + key(x, y) + ' is not in the picture');
    return p;
  };
  const fmt = v => (v !== 0 && Math.abs(v) < 1e-3 ? v.toExponential(4) : v.toFixed(6));
  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function title(e, text) { el('title', {}, e).textContent = text; return e; }

  // Replay once: who stands where after every jump, who jumps whom.
  const pos = D.men.map(m => [m[0], m[1]]);
  const alive = D.men.map(() => true);
  const occ = new Map(D.men.map((m, i) => [key(m[0], m[1]), i]));
  const jumper = [], victim = [];
  const snapshot = () => pos.flatMap((p, i) => alive[i] ? [[i, p[0], p[1]]] : []);
  const states = [snapshot()];
  for (const j of D.jumps) {
    const a = occ.get(key(j[0], j[1])), b = occ.get(key(j[2], j[3]));
    occ.delete(key(j[0], j[1])); occ.delete(key(j[2], j[3])); occ.set(key(j[4], j[5]), a);
    pos[a] = [j[4], j[5]]; alive[b] = false;
    jumper.push(a); victim.push(b);
    states.push(snapshot());
  }
  const firstJump = {};
  D.jumps.forEach((j, i) => { if (!(j[6] in firstJump)) firstJump[j[6]] = i; });
  // The step that ends each move, and the army (step 0).
  const ends = [0];
  for (let m = 1; m <= M; m++) ends.push(m < M ? firstJump[m + 1] : N);

  // The board, drawn once.
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const c of D.cells) {
    minX = Math.min(minX, c[2]); maxX = Math.max(maxX, c[2]);
    minY = Math.min(minY, c[3]); maxY = Math.max(maxY, c[3]);
  }
  svg.setAttribute('viewBox', [minX - 1.7, minY - 1.1, maxX - minX + 2.9, maxY - minY + 2.5].join(' '));
  const defs = el('defs', {}, svg);
  const marker = el('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse'}, defs);
  el('path', {d: 'M0,0 L10,5 L0,10 z', fill: PATH}, marker);
  const cellsG = el('g', {id: 'cells'}, svg);
  const exps = el('g', {class: 'exps', 'font-size': 0.34, 'text-anchor': 'middle', fill: '#223'}, svg);
  const hexR = 0.5 / (Math.sqrt(3) / 2);
  for (const c of D.cells) {
    const [x, y, px, py, e, fill] = c;
    const common = {fill: fill, stroke: '#bbb', 'stroke-width': 0.03};
    let s;
    if (D.embedding === 'square') {
      s = el('rect', Object.assign({x: px - 0.5, y: py - 0.5, width: 1, height: 1}, common), cellsG);
    } else if (D.embedding === 'hexagonal') {
      const pts = [];
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 3 * k + Math.PI / 6;
        pts.push((px + hexR * Math.cos(a)).toFixed(3) + ',' + (py + hexR * Math.sin(a)).toFixed(3));
      }
      s = el('polygon', Object.assign({points: pts.join(' ')}, common), cellsG);
    } else {
      s = el('circle', Object.assign({cx: px, cy: py, r: 0.475}, common), cellsG);
    }
    title(s, '(' + x + ', ' + y + ')' + (B ? '' : '  exponent ' + (e === null ? '∞' : e)));
    el('text', {x: px, y: py + 0.12}, exps).textContent = e === null ? '∞' : e;
  }
  if (!B) el('line', {x1: minX - 0.5, x2: maxX + 0.5, y1: D.edge_y, y2: D.edge_y, stroke: '#a33',
    'stroke-width': 0.07, 'stroke-dasharray': '0.25 0.18'}, svg);
  // Coordinates: each row's y left of its leftmost cell, x below the bottom row.
  const labels = el('g', {'font-size': 0.36, fill: '#444', 'font-family': 'sans-serif'}, svg);
  const rows = new Map();
  for (const c of D.cells) {
    const r = rows.get(c[1]);
    if (!r || c[2] < r[2]) rows.set(c[1], c);
  }
  const rowKeys = [...rows.keys()].sort((a, b) => a - b);
  const upright = D.embedding === 'square' || D.embedding === 'cubic';
  // A board's rows and columns are labelled at the edges of its box (its rows differ).
  const boxed = B && upright;
  const rowLabelX = c => (boxed ? minX : c[2]) - 0.62;
  for (const y of rowKeys) {
    const c = rows.get(y);
    el('text', {x: rowLabelX(c), y: c[3] + 0.13, 'text-anchor': 'end'}, labels).textContent = y;
  }
  const rowOf = y => D.cells.filter(c => c[1] === y).sort((a, b) => a[2] - b[2]);
  const columns = [...new Set(D.cells.map(c => c[0]))].sort((a, b) => a - b)
    .map(x => D.cells.find(c => c[0] === x));
  const bottom = boxed ? columns.map(c => [c[0], c[1], c[2], maxY]) : rowOf(rowKeys[rowKeys.length - 1]);
  // On a skewed lattice a column (x constant) is a slanted line: x goes where the line
  // leaves the edge row with more cells (the bottom, or the top of a board pointing down),
  // and a dotted guide runs up the line, so that any cell's x is found by following it.
  const topRow = rowOf(rowKeys[0]);
  const edge = !upright && topRow.length > bottom.length ? topRow : bottom;
  const down = edge === bottom ? 1 : -1;
  const u = [(D.embedding === 'hexagonal' ? 0.5 : -0.5) * down, Math.sqrt(3) / 2 * down];
  // The axis names: y above the row labels (below them when x is written above the board).
  const yRow = rows.get(down > 0 ? rowKeys[0] : rowKeys[rowKeys.length - 1]);
  el('text', {x: rowLabelX(yRow), y: yRow[3] + (down > 0 ? -0.55 : 0.85), 'text-anchor': 'end'}, labels).textContent = 'y';
  if (edge.length) {
    const c = edge[0];
    const at = upright ? [c[2] - 0.62, c[3] + 0.95] : [c[2] + u[0] * 0.8 - 0.5, c[3] + u[1] * 0.8 + 0.13];
    el('text', {x: at[0], y: at[1], 'text-anchor': 'end'}, labels).textContent = 'x';
  }
  let gap = Infinity;
  for (let i = 1; i < edge.length; i++) gap = Math.min(gap, edge[i][2] - edge[i - 1][2]);
  const step = upright ? (gap >= 1.5 ? 1 : 2) : (edge.length <= 8 ? 1 : edge.length <= 20 ? 2 : 5);
  for (const c of edge) {
    if (c[0] % step !== 0) continue;
    if (upright) {
      el('text', {x: c[2], y: c[3] + 0.95, 'text-anchor': 'middle'}, labels).textContent = c[0];
      continue;
    }
    const col = D.cells.filter(d => d[0] === c[0]).sort((a, b) => (a[1] - b[1]) * down);
    const far = col[0];
    const g = el('g', {class: 'column'}, labels);
    el('line', {x1: far[2] - u[0] * 0.5, y1: far[3] - u[1] * 0.5, x2: c[2] + u[0] * 0.45,
      y2: c[3] + u[1] * 0.45, stroke: '#666', 'stroke-opacity': 0.55, 'stroke-width': 0.05,
      'stroke-dasharray': '0.1 0.12'}, g);
    el('text', {x: c[2] + u[0] * 0.8, y: c[3] + u[1] * 0.8 + 0.13, 'text-anchor': 'middle'}, g).textContent = c[0];
  }
  // Bell's names on a square board: letters above the columns, numbers right of the rows.
  const bell = B && D.bell ? D.bell : null;
  const hole = (x, y) => bell ? String.fromCharCode(97 + x - bell.x0) + (y - bell.y0 + 1) : null;
  if (bell) {
    const g = el('g', {class: 'bell', fill: '#7c3aed'}, labels);
    for (const c of columns) {
      el('text', {x: c[2], y: minY - 0.62, 'text-anchor': 'middle'}, g).textContent = hole(c[0], bell.y0)[0];
    }
    for (const y of rowKeys) {
      const r = rowOf(y), c = r[r.length - 1];
      el('text', {x: maxX + 0.62, y: c[3] + 0.13, 'text-anchor': 'start'}, g).textContent = y - bell.y0 + 1;
    }
  }
  const ring = (x, y, colour, r, dash, parent) => el('circle', {cx: P(x, y)[0], cy: P(x, y)[1], r: r,
    fill: 'none', stroke: colour, 'stroke-width': 0.07, 'stroke-dasharray': dash || 'none'}, parent);
  const goal = B ? B.finish : [0, 0];
  ring(goal[0], goal[1], '#d00', 0.45, null, svg).setAttribute('stroke-width', 0.1);
  if (B) title(ring(B.vacancy[0], B.vacancy[1], '#d00', 0.4, '0.1 0.07', svg), 'the vacancy');
  if (N > 0 && !B) {
    const last = D.jumps[N - 1];
    title(ring(last[0], last[1], D.colours.target, 0.47, '0.12 0.08', svg), '2d: the last jump starts here');
    title(ring(last[2], last[3], D.colours.over, 0.47, '0.12 0.08', svg), 'd: the last jump passes over this cell');
  }
  const layer = el('g', {id: 'play'}, svg);

  // Controls.
  const $ = id => document.getElementById(id);
  const slider = $('slider');
  slider.max = N;
  let cur = 0, timer = null;
  const speed = () => Number($('speed').value);
  const regName = {target: 'target man\'s regiment', over: 'd man\'s regiment', spare: 'no regiment'};

  function draw(k) {
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    const moving = k > 0 ? jumper[k - 1] : -1;
    if (k > 0) {
      const m = D.jumps[k - 1][6], s = firstJump[m];
      const j0 = D.jumps[s];
      title(ring(j0[0], j0[1], PATH, 0.4, '0.1 0.07', layer), 'start of move ' + m);
      const [sx, sy] = P(j0[0], j0[1]);
      el('text', {x: sx, y: sy - 0.52, 'font-size': 0.32, 'text-anchor': 'middle', fill: PATH,
        'font-family': 'sans-serif'}, layer).textContent = 'start';
      for (let i = s; i < k; i++) {
        const j = D.jumps[i];
        const victimMan = victim[i];
        const [vx, vy] = P(j[2], j[3]);
        const f = el('circle', {cx: vx, cy: vy, r: 0.32, fill: D.colours[D.men[victimMan][2]],
          class: i === k - 1 ? 'fallen fading' : 'fallen'}, layer);
        if (i === k - 1) f.style.animationDuration = Math.min(0.8, 1.2 / speed()) + 's';
        title(f, 'removed by jump ' + (i + 1));
      }
      for (let i = s; i < k; i++) {
        const j = D.jumps[i];
        const [ax, ay] = P(j[0], j[1]), [bx, by] = P(j[4], j[5]);
        const len = Math.hypot(bx - ax, by - ay), ux = (bx - ax) / len, uy = (by - ay) / len;
        el('line', {x1: ax + ux * 0.1, y1: ay + uy * 0.1, x2: bx - ux * 0.36, y2: by - uy * 0.36,
          stroke: PATH, 'stroke-width': 0.09, 'marker-end': 'url(#arrow)', class: 'path'}, layer);
      }
    }
    for (const [id, x, y] of states[k]) {
      const [px, py] = P(x, y);
      const reg = D.men[id][2];
      if (id === moving) {
        el('circle', {cx: px, cy: py, r: 0.46, fill: HALO, stroke: '#a16207', 'stroke-width': 0.05,
          class: 'halo'}, layer);
      }
      const c = el('circle', {cx: px, cy: py, r: 0.32, fill: D.colours[reg],
        stroke: id === moving ? '#111' : 'none', 'stroke-width': 0.06,
        class: id === moving ? 'man mover' : 'man', 'data-x': x, 'data-y': y, 'data-id': id}, layer);
      title(c, '(' + x + ', ' + y + ')  ' + regName[reg] + (id === moving ? ', moving' : ''));
    }
  }

  function status(k) {
    const st = D.steps[k];
    if (k === 0) {
      $('s-move').textContent = (B ? 'The start: ' : 'The army: ') + D.men.length + ' men, ' + M + ' moves ahead.';
      $('s-jump').textContent = 'Jump 0 of ' + N + '.';
    } else {
      const j = D.jumps[k - 1], m = j[6], s = firstJump[m], e = ends[m];
      const named = bell ? ': ' + [hole(D.jumps[s][0], D.jumps[s][1])].concat(
        D.jumps.slice(s, e).map(t => hole(t[4], t[5]))).join('-') : '';
      $('s-move').textContent = 'Move ' + m + ' of ' + M + ' (jumps ' + (s + 1) + '–' + e + ')' + named + '.';
      $('s-jump').textContent = 'Jump ' + k + ' of ' + N + ': (' + j[0] + ', ' + j[1] + ') over (' +
        j[2] + ', ' + j[3] + ') to (' + j[4] + ', ' + j[5] + ')' +
        (e - s > 1 ? ', jump ' + (k - s) + ' of this move\'s ' + (e - s) : '') + '.';
    }
    $('s-men').textContent = 'Men left: ' + st.men + '.';
    if (!B) {
      $('s-weight').textContent = 'Weight ' + st.weight + ' ≈ ' + fmt(st.weight_value) + ';';
      $('s-slack').textContent = 'slack = weight − 1 = ' + st.slack +
        (st.slack_sigma && st.slack_sigma !== st.slack ? ' = ' + st.slack_sigma : '') +
        ' ≈ ' + fmt(st.slack_value) + '.';
    }
    const m = k === 0 ? 0 : D.jumps[k - 1][6];
    $('where').textContent = 'jump ' + k + ' / ' + N + ' · move ' + m + ' / ' + M;
  }

  function go(n) {
    n = Math.max(0, Math.min(N, Math.round(Number(n) || 0)));
    cur = n;
    slider.value = n;
    draw(n);
    status(n);
    return cur;
  }
  function pause() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    $('play').textContent = '▶ play';
  }
  function tick() {
    if (cur >= N) { pause(); return; }
    go(cur + 1);
    timer = cur >= N ? (pause(), null) : setTimeout(tick, 1000 / speed());
  }
  function play() {
    if (timer !== null) { pause(); return; }
    if (cur >= N) go(0);
    $('play').textContent = '‖ pause';
    timer = setTimeout(tick, 1000 / speed());
  }
  const nextMove = () => go(ends.find(e => e > cur) ?? N);
  const prevMove = () => go([...ends].reverse().find(e => e < cur) ?? 0);
  $('first').onclick = () => { pause(); go(0); };
  $('last').onclick = () => { pause(); go(N); };
  $('prev').onclick = () => { pause(); go(cur - 1); };
  $('next').onclick = () => { pause(); go(cur + 1); };
  $('prevmove').onclick = () => { pause(); prevMove(); };
  $('nextmove').onclick = () => { pause(); nextMove(); };
  $('play').onclick = play;
  slider.oninput = () => { pause(); go(slider.value); };
  $('showexp').onchange = e => svg.classList.toggle('showexp', e.target.checked);
  document.addEventListener('keydown', e => {
    const t = e.target;
    if (t === slider || (t && t.tagName === 'SELECT') || e.altKey || e.ctrlKey || e.metaKey) return;
    const act = {
      ArrowRight: () => { pause(); go(cur + 1); }, ArrowLeft: () => { pause(); go(cur - 1); },
      ArrowDown: () => { pause(); nextMove(); }, ArrowUp: () => { pause(); prevMove(); },
      ' ': play, Home: () => { pause(); go(0); }, End: () => { pause(); go(N); },
    }[e.key];
    if (act) { e.preventDefault(); act(); }
  });

  // Files and legend.
  const nav = $('files');
  for (const [label, f] of [['army CSV', D.files.army_csv], ['play CSV', D.files.play_csv],
                            ['army SVG', D.files.army_svg], ['play SVG', D.files.play_svg]]) {
    if (!f) continue;
    const a = document.createElement('a');
    a.href = f; a.textContent = label + ' (' + f + ')';
    nav.appendChild(a);
  }
  const shades = new Map();
  for (const c of D.cells) if (c[4] !== null) shades.set(c[4], c[5]);
  const es = [...shades.keys()].sort((a, b) => a - b);
  const count = r => D.men.filter(m => m[2] === r).length;
  const lg = $('legend');
  const para = html => { const p = document.createElement('p'); p.innerHTML = html; lg.appendChild(p); return p; };
  const d = D.d;
  if (B) {
    $('showexp').parentNode.style.display = 'none';
    para('<b>Board.</b> ' + D.cells.length + ' holes. The dashed red ring is the vacancy (' + B.vacancy.join(', ') +
      '), the red ring the finish (' + B.finish.join(', ') + '): every jump removes one man, and the last man ' +
      'ends on the finish.');
    para('<b>Moves.</b> The moving man is ringed in yellow; the start of his move is marked and ' +
      'his path drawn with arrowheads; the men he removes fade out. A move is a run of jumps by one man.');
    para('<b>Keys.</b> ← → a jump, ↑ ↓ a move, space play/pause, Home/End the first/last position.');
    if (bell) para('<b>Names.</b> ' + bell.name + ' (the violet letters and numbers); y grows downward.');
  }
  if (!B) para('<b>Shading.</b> A cell of exponent <i>e</i> weighs σ<sup><i>e</i></sup>, σ = (√5 − 1)/2 ≈ 0.618; ' +
    '<i>e</i> = ' + D.offset + ' + the distance from d = (' + d[0] + ', ' + d[1] + '), the cell the last jump passes ' +
    'over (the improved pagoda function of the last jump). Darker is heavier. Tick “exponents” to see them.<br>' +
    es.map(e => '<span class="sw" style="background:' + shades.get(e) + '"></span>' + e).join(' '));
  const last = N > 0 ? D.jumps[N - 1] : null;
  if (last && !B) {
    para('<b>Regiments.</b> ' +
      '<span class="dot" style="background:' + D.colours.target + '"></span>the target man\'s regiment, ' +
      count('target') + ' men: the man who makes the last jump from 2d = (' + last[0] + ', ' + last[1] +
      ') onto the target (ringed red), and the men spent bringing him to 2d. ' +
      '<span class="dot" style="background:' + D.colours.over + '"></span>the d man\'s regiment, ' +
      count('over') + ' men: the man the last jump removes from d = (' + last[2] + ', ' + last[3] +
      '), and the men spent bringing him there. ' +
      (count('spare') ? '<span class="dot" style="background:' + D.colours.spare + '"></span>no regiment, ' +
        count('spare') + ' men. ' : '') +
      'A man removed by a jump serves in the regiment of the man who jumped him; d and 2d are ringed ' +
      'in the regiments\' colours.');
  }
  if (!B) para('<b>Moves.</b> The moving man is ringed in yellow; the start of his move is marked and ' +
    'his path drawn with arrowheads; the men he removes fade out. A move is a run of jumps by one man.');
  if (!B) para('<b>Weight and slack.</b> The weight of a position is the sum of its men\'s weights, exact in ' +
    'a + bσ form. No jump gains weight. The position {d, 2d} before the last jump weighs σ + σ² = 1, so ' +
    'the slack, weight − 1, is what the play may still lose: it stays ≥ 0 up to that position (0 there ' +
    'when no other man is left). The last jump loses σ: the lone man on the target has exponent 2, ' +
    'weight σ² ≈ 0.382, slack σ² − 1 ≈ −0.618.');
  if (!B) para('<b>Keys.</b> ← → a jump, ↑ ↓ a move, space play/pause, Home/End the first/last position. ' +
    'The red ring is the target (0, 0); the dashed red line, the edge between rows ' + (D.level - 1) +
    ' and ' + D.level + '.');

  window.viewer = {
    get step() { return cur; },
    total: N,
    moves: M,
    men: () => [...svg.querySelectorAll('.man')].map(e => [Number(e.dataset.x), Number(e.dataset.y)]),
    go: go,
    play: play,
    pause: pause,
  };
  const h = /step=(\d+)/.exec(location.hash);
  go(h ? h[1] : 0);
})();
"#;
