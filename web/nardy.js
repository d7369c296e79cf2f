// Royal Nardy's view in the explorer (app.js holds the page's state and flow): the board of
// points drawn from its FEN (the server's /api/moves answer names it; rules/nardy/notation.h
// gives the notation), the dice, the 21 rolls to pick from with their weights and play counts,
// and a rolled position's plays with their expected points as /api/analyze gives them. A play
// leads to the position the server gives with it; nothing here knows the rules.
'use strict';

// The FEN's fields: each point's checkers (White's numbering, point 1 first), the bar, the
// borne-off and eaten counts, the side to move and the dice (null before the roll).
function parseNardyFen(fen) {
  const [points, bar, off, eaten, side, roll] = fen.trim().split(/\s+/);
  const pair = (text) => {
    const [white, black] = text.split('/').map(Number);
    return {white, black};
  };
  return {
    points: points.split('/').map((text) => {
      const point = {text, white: {plain: 0, royal: 0}, black: {plain: 0, royal: 0}};
      for (const [, count, letter] of text.matchAll(/(\d*)([PRpr])/g)) {
        const side = letter === letter.toUpperCase() ? 'white' : 'black';
        point[side][letter.toUpperCase() === 'R' ? 'royal' : 'plain'] += count ? Number(count) : 1;
      }
      return point;
    }),
    bar: pair(bar),
    off: pair(off),
    eaten: pair(eaten),
    side: side === 'w' ? 'white' : 'black',
    roll: roll === '-' ? null : roll.split('-').map(Number),
  };
}

// A point in White's numbering from the mover's own (plays are written in their mover's).
function whitePoint(own, side, points) {
  return side === 'white' ? own : points + 1 - own;
}

// The steps of a play ("R13/7 8/5*", "bar/22", "6/off", "pass"), in White's numbering: from a
// point or 'bar', to a point or 'off'.
function playSteps(play, side, points) {
  const steps = [];
  for (const step of play.split(' ')) {
    const m = step.match(/^R?(bar|\d+)\/(off|\d+)\*?$/);
    if (!m) continue;
    const at = (text) => (/^\d+$/.test(text) ? whitePoint(Number(text), side, points) : text);
    steps.push({from: at(m[1]), to: at(m[2])});
  }
  return steps;
}

// ---- the board, as SVG: the far half on top, as `drop16 show` draws it from White's side ----

const NARDY = {point: 46, checker: 21, stack: 5, bar: 40, tray: 64, margin: 22, gap: 44};

function nardyCheckerSvg(x, y, side, royal, label) {
  const r = NARDY.checker - 1;
  const fill = side === 'white' ? '#f7f2e6' : '#2d2926';
  const ink = side === 'white' ? '#2d2926' : '#f7f2e6';
  let svg = `<g class="checker ${side}${royal ? ' royal' : ''}">` +
      `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" stroke="#111" stroke-width="1.5"/>`;
  if (royal) {  // a gold ring and crown
    svg += `<circle cx="${x}" cy="${y}" r="${r - 4}" fill="none" stroke="#d4a017" stroke-width="3"/>` +
        `<path d="M${x - 8} ${y + 5} L${x - 9} ${y - 5} L${x - 4} ${y} L${x} ${y - 7} L${x + 4} ${y}` +
        ` L${x + 9} ${y - 5} L${x + 8} ${y + 5} Z" fill="#d4a017"/>`;
  }
  if (label) {
    svg += `<text x="${x}" y="${y + 5}" text-anchor="middle" font-size="14" font-weight="700"` +
        ` fill="${royal ? '#d4a017' : ink}" stroke="${fill}" stroke-width="3"` +
        ` paint-order="stroke">${label}</text>`;
  }
  return svg + '</g>';
}

// The checkers of one point, a stack from its base towards the middle (at most NARDY.stack drawn;
// the last says how many there are).
function nardyStackSvg(x, baseY, direction, point) {
  const side = point.white.plain + point.white.royal ? 'white' : 'black';
  const kinds = point[side];
  const list = [...Array(kinds.plain).fill(false), ...Array(kinds.royal).fill(true)];
  const shown = Math.min(list.length, NARDY.stack);
  let svg = '';
  for (let i = 0; i < shown; ++i) {
    const y = baseY + direction * (NARDY.checker + 2 * NARDY.checker * i);
    const rest = i === shown - 1 && list.length > shown ? String(list.length) : '';
    svg += nardyCheckerSvg(x, y, side, list[list.length - shown + i], rest);
  }
  return svg;
}

// Where each point is drawn: column and row (top or bottom) in the layout.
function nardyLayout(points) {
  const half = Math.floor(points / 2);
  const top = [];
  for (let q = half + 1; q <= points; ++q) top.push(q);
  const bottom = [];
  for (let q = half; q >= 1; --q) bottom.push(q);
  const columns = Math.max(top.length, bottom.length);
  const barAfter = Math.ceil(columns / 2);  // the bar splits each row in two halves
  const place = new Map();
  top.forEach((q, i) => place.set(q, {column: i, top: true}));
  bottom.forEach((q, i) => place.set(q, {column: i, top: false}));
  return {place, columns, barAfter};
}

function drawNardyBoard() {
  const pos = state.position;
  const f = parseNardyFen(pos.fen);
  const n = f.points.length;
  const {place, columns, barAfter} = nardyLayout(n);
  const {point: pw, checker: cr, bar: bw, tray: tw, margin: m, gap} = NARDY;
  const rowHeight = 2 * cr * NARDY.stack;
  const width = 2 * m + columns * pw + bw + tw;
  const height = 2 * m + 2 * rowHeight + gap;
  const columnX = (c) => m + c * pw + (c >= barAfter ? bw : 0);
  const barX = m + barAfter * pw;
  const trayX = m + columns * pw + bw;
  const mover = f.side;
  // The steps of the play under the pointer in the play list.
  const preview = state.nardyPreview ? playSteps(state.nardyPreview, mover, n) : [];
  const from = new Set(preview.map((s) => s.from));
  const to = new Set(preview.map((s) => s.to));

  let svg = `<svg id="nardy-svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"` +
      ' xmlns="http://www.w3.org/2000/svg">' +
      `<rect x="0" y="0" width="${width}" height="${height}" rx="8" fill="#6b4a2f"/>` +
      `<rect x="${m}" y="${m}" width="${columns * pw + bw}" height="${height - 2 * m}" fill="#e9dcc0"/>` +
      `<rect x="${barX}" y="${m}" width="${bw}" height="${height - 2 * m}" fill="#8a6240"/>` +
      `<rect x="${trayX + 6}" y="${m}" width="${tw - 12}" height="${height - 2 * m}" rx="4" fill="#4e3521"/>`;
  for (let q = 1; q <= n; ++q) {
    const {column, top} = place.get(q);
    const x = columnX(column);
    const base = top ? m : height - m;
    const dir = top ? 1 : -1;
    const tip = base + dir * (rowHeight - 6);
    const colour = (column + (top ? 0 : 1)) % 2 === 0 ? '#b5532f' : '#3f5e4a';
    const own = whitePoint(q, mover, n);  // its number for the side to move
    const classes = ['nardy-point'];
    if (from.has(q)) classes.push('from');
    if (to.has(q)) classes.push('to');
    const point = f.points[q - 1];
    svg += `<g class="${classes.join(' ')}" data-point="${q}" data-own="${own}"` +
        ` data-content="${point.text}">` +
        `<polygon points="${x},${base} ${x + pw},${base} ${x + pw / 2},${tip}" fill="${colour}"/>` +
        `<text class="point-number" x="${x + pw / 2}" y="${top ? m - 7 : height - 6}"` +
        ` text-anchor="middle">${own}</text>`;
    if (point.text !== '.') svg += nardyStackSvg(x + pw / 2, base, dir, point);
    if (to.has(q)) {
      svg += `<circle class="landing" cx="${x + pw / 2}" cy="${base + dir * (rowHeight + 8)}" r="6"/>`;
    }
    svg += '</g>';
  }
  // The bar: White's hit checkers on its lower half, Black's on its upper half.
  for (const side of ['white', 'black']) {
    const count = f.bar[side];
    const y = side === 'white' ? height / 2 + gap / 2 + cr : height / 2 - gap / 2 - cr;
    const classes = ['nardy-bar', side];
    if (side === mover && from.has('bar')) classes.push('from');
    svg += `<g class="${classes.join(' ')}" data-count="${count}">`;
    if (count) svg += nardyCheckerSvg(barX + bw / 2, y, side, false, String(count));
    svg += '</g>';
  }
  // The tray: borne-off checkers of each side at its home's end, and the royal ones eaten.
  for (const side of ['white', 'black']) {
    const bottom = side === 'white';
    const y0 = bottom ? height - m : m;
    const classes = ['nardy-off', side];
    if (side === mover && to.has('off')) classes.push('to');
    svg += `<g class="${classes.join(' ')}" data-count="${f.off[side]}">` +
        `<text x="${trayX + tw / 2}" y="${y0 + (bottom ? -10 : 20)}" text-anchor="middle"` +
        ` class="tray-label">off</text>` +
        `<text x="${trayX + tw / 2}" y="${y0 + (bottom ? -32 : 44)}" text-anchor="middle"` +
        ` class="tray-count ${side}">${f.off[side]}</text></g>` +
        `<g class="nardy-eaten ${side}" data-count="${f.eaten[side]}">` +
        `<text x="${trayX + tw / 2}" y="${y0 + (bottom ? -80 : 92)}" text-anchor="middle"` +
        ` class="tray-label">eaten</text>` +
        `<text x="${trayX + tw / 2}" y="${y0 + (bottom ? -58 : 70)}" text-anchor="middle"` +
        ` class="tray-count eaten">${f.eaten[side]}</text></g>`;
  }
  svg += '</svg>';
  $('nardy-board').innerHTML = svg;
  $('nardy-board').dataset.side = mover;
}

// ---- dice and rolls ----

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

function dieSvg(value, side) {
  const fill = side === 'white' ? '#fbf8f0' : '#2d2926';
  const pip = side === 'white' ? '#222' : '#f4efe4';
  return `<svg class="die" viewBox="0 0 100 100" data-value="${value}">` +
      `<rect x="5" y="5" width="90" height="90" rx="16" fill="${fill}" stroke="#111" stroke-width="4"/>` +
      PIPS[value].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9" fill="${pip}"/>`).join('') +
      '</svg>';
}

function drawDice() {
  const pos = state.position;
  const f = parseNardyFen(pos.fen);
  const box = $('dice');
  box.dataset.roll = pos.roll || '';
  if (pos.terminal) {
    box.innerHTML = '';
    return;
  }
  if (!f.roll) {
    box.innerHTML = `<span class="empty">${colorName(f.side)} to roll</span>`;
    return;
  }
  const dice = f.roll[0] === f.roll[1] ? [...f.roll, ...f.roll] : f.roll;  // a double plays four
  box.innerHTML = dice.map((d) => dieSvg(d, f.side)).join('');
}

// The FEN without its dice field: the same for a position before and after its roll.
function beforeRoll(fen) {
  return fen.trim().replace(/\s+\S+$/, '');
}

// The 21 rolls to pick from (before the roll), or to play instead (after it).
function drawRolls() {
  const pos = state.position;
  const box = $('rolls');
  $('roll-dice').disabled = pos.terminal;
  if (pos.terminal) {
    box.innerHTML = '';
    return;
  }
  // A rolled position offers the rolls of the position before its roll (fetchNardyRolls).
  const rolls = pos.rolls ||
      (state.nardyRolls && state.nardyRolls.before === beforeRoll(pos.fen) ? state.nardyRolls.rolls : []);
  box.innerHTML = rolls.map((r) =>
    `<button class="roll${r.roll === pos.roll ? ' current' : ''}" data-roll="${r.roll}"` +
        ` data-weight="${r.weight}" data-plays="${r.plays}"` +
        ` title="${r.weight}/36, ${r.plays} play${r.plays === 1 ? '' : 's'}">${r.roll}</button>`).join('');
}

// ---- status and plays ----

function signed(x) {
  return (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(x).toFixed(3);
}

function drawNardyStatus() {
  const pos = state.position;
  const f = parseNardyFen(pos.fen);
  const status = $('status');
  status.dataset.side = f.side;
  const e = $('evaluation');
  e.dataset.value = '';
  e.dataset.dte = '';
  if (pos.terminal) {
    const p = pos.points;
    status.textContent = `The game is over: White ${p.white}, Black ${p.black}.`;
    e.textContent = p.white > 0 ? `White wins ${p.white} point${p.white === 1 ? '' : 's'}.` :
        p.black > 0 ? `Black wins ${p.black} point${p.black === 1 ? '' : 's'}.` : 'A draw: no points.';
    e.dataset.value = `${p.white} ${p.black}`;
    return;
  }
  if (!pos.roll) {
    status.textContent = `${colorName(f.side)} to roll.`;
    e.textContent = 'Pick a roll or roll the dice: its plays follow with their expected points.';
    return;
  }
  status.textContent = `${colorName(f.side)} to play ${pos.roll}.`;
  const a = state.analysis;
  if (!a) {
    e.textContent = 'evaluating…';
    return;
  }
  e.textContent = `Best play ${a.best_play}: ${signed(a.expected_points)} expected points for ` +
      `${colorName(f.side)} (${a.exact ? 'exact' : a.source}).`;
  e.dataset.value = String(a.expected_points);
}

function drawPlayList() {
  const body = $('play-list').querySelector('tbody');
  const pos = state.position;
  if (pos.terminal || !pos.roll) {
    body.innerHTML = '';
    return;
  }
  const values = new Map();
  if (state.analysis) for (const p of state.analysis.plays) values.set(p.play, p);
  const rows = pos.moves.map((play, i) => ({play, i, e: values.get(play)}));
  // Best first; equal plays in the server's order.
  rows.sort((a, b) => ((b.e ? b.e.expected_points : 0) - (a.e ? a.e.expected_points : 0)) ||
                      (a.i - b.i));
  const best = state.analysis ? state.analysis.best_play : null;
  body.innerHTML = rows.map(({play, e}) => {
    return `<tr class="${play === best ? 'best' : ''}" data-play="${play}"` +
        ` data-value="${e ? e.expected_points : ''}"><td>${play}</td>` +
        `<td class="value">${e ? signed(e.expected_points) : '…'}</td></tr>`;
  }).join('');
}

function drawNardy() {
  const pos = state.position;
  if (pos.rolls) state.nardyRolls = {before: beforeRoll(pos.fen), rolls: pos.rolls};
  drawNardyBoard();
  drawDice();
  drawRolls();
  drawNardyStatus();
  drawPlayList();
}

// Keeps the rolls of a rolled position's position before its roll, asked for when not kept, so
// that another roll can be picked instead.
async function fetchNardyRolls(position) {
  const before = beforeRoll(position.fen);
  if (state.nardyRolls && state.nardyRolls.before === before) return;
  const unrolled = await api('moves', {variant: position.variant, fen: `${before} -`});
  state.nardyRolls = {before, rolls: unrolled.rolls};
}

// ---- playing ----

// The position a play leads to, as the server gave it with the plays.
function nardyPlayResult(play) {
  const i = state.position.moves.indexOf(play);
  if (i < 0) throw new Error(`${play}: not a play of this position`);
  return state.position.results[i];
}

async function playNardy(play) {
  const before = state.position;
  const after = nardyPlayResult(play);
  state.past.push({fen: before.fen, move: `${before.roll}: ${play}`, side: parseNardyFen(before.fen).side});
  state.future = [];
  state.autoplay = true;
  state.nardyPreview = null;
  await show(after);
}

// A fair roll of two dice, higher first.
function randomRoll() {
  const bytes = new Uint32Array(2);
  crypto.getRandomValues(bytes);
  const [a, b] = [1 + (bytes[0] % 6), 1 + (bytes[1] % 6)];
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

// The solver's side rolls and plays the player's best play.
function nardySolverMove(seq) {
  const pos = state.position;
  setTimeout(() => {
    if (seq !== state.seq) return;
    if (!pos.roll) guard(() => show(pos.fen, randomRoll()));
    else if (state.analysis) guard(() => playNardy(state.analysis.best_play));
  }, 300);
}

function wireNardy() {
  $('rolls').addEventListener('click', (e) => {
    const button = e.target.closest('.roll');
    if (button) guard(() => show(state.position.fen, button.dataset.roll));
  });
  $('roll-dice').addEventListener('click', () => guard(() => show(state.position.fen, randomRoll())));
  const list = $('play-list');
  list.addEventListener('click', (e) => {
    const row = e.target.closest('tr[data-play]');
    if (row) guard(() => playNardy(row.dataset.play));
  });
  // The row under the pointer shows its steps on the board.
  list.addEventListener('mouseover', (e) => {
    const row = e.target.closest('tr[data-play]');
    if (row && row.dataset.play !== state.nardyPreview) {
      state.nardyPreview = row.dataset.play;
      drawNardyBoard();
    }
  });
  list.addEventListener('mouseleave', () => {
    state.nardyPreview = null;
    drawNardyBoard();
  });
}
