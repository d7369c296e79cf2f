// The explorer page: draws the position the server describes (/api/moves), marks every legal move
// with its value and distance to end (/api/analyze; draws have no distance), lists perfect play
// (/api/line), and plays moves by clicks (/api/play). How a position is drawn is the kind its JSON
// names in "drawing", which each game's registry entry declares (rules/game_entry.h), never the
// game's name: "pieces_and_hands" (chess figures and hands: Drop 16, the rook race's rooks and
// reserves of pawns), "lettered_discs" (Spock), "points_and_dice" (Royal Nardy's board, dice and
// plays: nardy.js), "corner_checkers" (four players' checkers, every coalition's value of each
// move: checkers.js). The sides' names are the JSON's "players". Plain JavaScript, no build step.
'use strict';

// ---- pieces, drawn as SVG (viewBox 0 0 100 100) ----

const PIECE_SHAPES = {
  // Knight: a horse's head facing left.
  N: '<path d="M30 84 C28 66 38 56 47 47 C40 50 31 54 25 50 C19 46 21 38 29 31 L39 22 L40 11 L48 19' +
     ' C63 19 76 33 75 54 C74 66 70 76 70 84 Z"/>' +
     '<circle class="detail-fill" cx="43" cy="30" r="3.2"/>' +
     '<path class="detail" d="M63 36 C66 48 64 60 60 72"/>',
  // Bishop: a mitre with a slit and a ball on top.
  B: '<circle cx="50" cy="14" r="6"/>' +
     '<path d="M50 21 C33 36 29 56 37 72 H63 C71 56 67 36 50 21 Z"/>' +
     '<path class="detail" d="M56 36 L45 50"/>' +
     '<path d="M30 84 C30 76 38 72 50 72 C62 72 70 76 70 84 Z"/>',
  // Rook: a tower with battlements.
  R: '<path d="M24 16 H36 V25 H44 V16 H56 V25 H64 V16 H76 V36 L68 42 V70 H32 V42 L24 36 Z"/>' +
     '<path class="detail" d="M32 42 H68"/>' +
     '<path d="M24 84 V76 L32 70 H68 L76 76 V84 Z"/>',
  // Queen: a five-pointed crown with a ball on each point.
  Q: '<path d="M18 30 L32 70 H68 L82 30 L64 52 L60 22 L50 50 L40 22 L36 52 Z"/>' +
     '<circle cx="18" cy="28" r="5"/><circle cx="40" cy="20" r="5"/><circle cx="60" cy="20" r="5"/>' +
     '<circle cx="82" cy="28" r="5"/><circle cx="50" cy="46" r="4"/>' +
     '<path d="M26 84 C26 76 32 70 50 70 C68 70 74 76 74 84 Z"/>',
  // Pawn (the rook race's): a ball on a collar and a base.
  P: '<circle cx="50" cy="30" r="12"/>' +
     '<path d="M38 46 H62 L57 52 C58 62 62 68 66 72 H34 C38 68 42 62 43 52 Z"/>' +
     '<path d="M28 84 C28 77 34 72 50 72 C66 72 72 77 72 84 Z"/>',
  // King: a crown under a cross.
  K: '<path d="M46 6 H54 V13 H61 V21 H54 V30 H46 V21 H39 V13 H46 Z"/>' +
     '<path d="M50 38 C44 26 22 26 22 42 C22 54 32 62 34 70 H66 C68 62 78 54 78 42 C78 26 56 26 50 38 Z"/>' +
     '<path class="detail" d="M50 38 V68"/>' +
     '<path d="M26 84 C26 76 32 70 50 70 C68 70 74 76 74 84 Z"/>',
};

function pieceSvg(letter) {
  const upper = letter.toUpperCase();
  const white = letter === upper;
  const fill = white ? '#fbfbf8' : '#2b2b2b';
  const stroke = white ? '#1c1c1c' : '#0c0c0c';
  const detail = white ? '#1c1c1c' : '#e8e8e8';
  return `<svg class="piece" viewBox="0 0 100 100" data-piece="${letter}" aria-label="${letter}">` +
      `<style>.detail{fill:none;stroke:${detail};stroke-width:3}.detail-fill{fill:${detail};stroke:none}</style>` +
      `<g fill="${fill}" stroke="${stroke}" stroke-width="3" stroke-linejoin="round">` +
      PIECE_SHAPES[upper] + '</g></svg>';
}

const PIECE_ORDER = ['N', 'B', 'R', 'Q', 'K', 'P'];  // in hand; P: the rook race's reserve

// Spock's pieces (Rock, Scissors, Lizard, Paper, spocK): the letter in a disc of the side's
// colour, Blue upper case and Red lower case, with a small sign of the type above it.
const SPOCK_SIGNS = {
  R: '<circle cx="50" cy="26" r="7"/>',
  S: '<path d="M43 19 L57 33 M57 19 L43 33"/>',
  L: '<path d="M40 30 Q50 14 60 30"/>',
  P: '<rect x="42" y="18" width="16" height="13"/>',
  K: '<path d="M44 32 V19 L50 25 L56 19 V32"/>',
};

function spockPieceSvg(letter) {
  const upper = letter.toUpperCase();
  const blue = letter === upper;
  const fill = blue ? '#2f63c8' : '#c8322f';
  return `<svg class="piece spock-piece" viewBox="0 0 100 100" data-piece="${letter}" aria-label="${letter}">` +
      `<circle cx="50" cy="50" r="40" fill="${fill}" stroke="#111" stroke-width="3"/>` +
      `<g fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round">${SPOCK_SIGNS[upper] || ''}</g>` +
      `<text x="50" y="73" text-anchor="middle" font-size="38" font-weight="700" fill="#fff"` +
      ` font-family="DejaVu Sans, sans-serif">${upper}</text></svg>`;
}

// How the shown position is drawn (rules/game_entry.h, PageDrawing).
function drawing() {
  return state.position ? state.position.drawing : '';
}

function drawsDiscs() {
  return drawing() === 'lettered_discs';
}

function drawsDice() {
  return drawing() === 'points_and_dice';
}

function drawsCheckers() {
  return drawing() === 'corner_checkers';
}

function drawPiece(letter) {
  return drawsDiscs() ? spockPieceSvg(letter) : pieceSvg(letter);
}

// ---- state ----

const state = {
  variant: '',
  position: null,     // /api/moves answer for the shown position
  analysis: null,     // /api/analyze answer (or null while it is coming)
  line: null,         // /api/line answer
  past: [],           // [{fen, move}] positions before each move played, oldest first
  future: [],         // [{fen, move}] undone moves, next first
  selected: null,     // {kind: 'hand', piece: 'N'} or {kind: 'board', square: 'a1'}
  solverSide: 'none',
  autoplay: true,     // false right after undo/redo, so the solver does not replay at once
  seq: 0,             // number of the latest position request; older answers are dropped
  busy: false,
  nardyPreview: null, // Royal Nardy: the play whose steps the board shows
  nardyRolls: null,   // Royal Nardy: the rolls of the last position shown before its roll
};

const $ = (id) => document.getElementById(id);

async function api(path, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${path}?${query}`);
  let body;
  try {
    body = await response.json();
  } catch (e) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  if (!response.ok) throw new Error(body.error || `${path}: HTTP ${response.status}`);
  return body;
}

function showError(message) {
  const box = $('error');
  box.textContent = message || '';
  box.hidden = !message;
}

// ---- evaluations ----

// Higher is better for the side to move: the quickest win, then a draw or unknown, then the
// slowest loss.
function score(entry) {
  if (!entry || entry.value === 'unknown' || entry.value === 'draw') return 0;
  return entry.value === 'win' ? 1000 - entry.dte : -1000 + entry.dte;
}

function movesByName() {
  const map = new Map();
  if (state.analysis) for (const m of state.analysis.moves) map.set(m.move, m);
  return map;
}

function best(entries) {
  let top = null;
  for (const e of entries) if (!top || score(e) > score(top)) top = e;
  return top;
}

function markHtml(entry, dot) {
  if (!entry) return '';
  const text = entry.value === 'unknown' ? '?' : entry.value === 'draw' ? '=' : String(entry.dte);
  return `<span class="mark ${entry.value}${dot ? ' dot' : ''}" data-value="${entry.value}"` +
      ` data-dte="${entry.dte === null ? '' : entry.dte}">${text}</span>`;
}

// Captures are "from" + "to", each a file letter and a one-digit rank (boards are at most 8x8).
function splitCapture(move) {
  const m = move.match(/^([a-h]\d)([a-h]\d)$/);
  return m ? {from: m[1], to: m[2]} : null;
}

// The moves that start from a hand piece type or a board square.
function movesFrom(source) {
  const moves = state.position ? state.position.moves : [];
  if (source.kind === 'hand') return moves.filter((m) => m.startsWith(source.piece + '@'));
  return moves.filter((m) => {
    const c = splitCapture(m);
    return c && c.from === source.square;
  });
}

// A move written as a square alone puts a piece there (Teeko's drops: one kind of piece, so no
// hand to pick it from); the page plays it by a click on the empty square.
function isPlacement(move) {
  return /^[a-h]\d$/.test(move);
}

// What a click on a square plays: the selected piece's moves, or else the placements on empty
// squares.
function clickableMoves() {
  if (state.selected) return movesFrom(state.selected);
  return state.position ? state.position.moves.filter(isPlacement) : [];
}

// The square a move lands on.
function squareOfMove(move) {
  if (isPlacement(move)) return move;
  if (move.includes('@')) return move.split('@')[1];
  const c = splitCapture(move);
  return c ? c.to : '';
}

// ---- drawing ----

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

function sideToMove() {
  return state.position ? state.position.side_to_move : 'white';
}

// The first side's pieces are written in upper case.
function upperToMove() {
  return state.position && sideToMove() === state.position.players[0];
}

function isOwn(letter) {
  return upperToMove() === (letter === letter.toUpperCase());
}

function drawBoard() {
  const pos = state.position;
  const board = $('board');
  board.style.setProperty('--files', pos.width);
  const evals = movesByName();
  const targets = new Map(clickableMoves().map((m) => [squareOfMove(m), m]));
  const lastMove = state.past.length ? state.past[state.past.length - 1].move : null;
  const lastSquares = new Set();
  if (lastMove) {
    if (isPlacement(lastMove)) lastSquares.add(lastMove);
    else if (lastMove.includes('@')) lastSquares.add(lastMove.split('@')[1]);
    else if (splitCapture(lastMove)) {
      lastSquares.add(splitCapture(lastMove).from);
      lastSquares.add(splitCapture(lastMove).to);
    }
  }
  let html = '';
  for (let rank = pos.height - 1; rank >= 0; --rank) {
    for (let file = 0; file < pos.width; ++file) {
      const sq = squareName(file, rank);
      const letter = pos.board[sq];
      const classes = ['square', (file + rank) % 2 === 0 ? 'dark' : 'light'];
      if (state.selected && state.selected.kind === 'board' && state.selected.square === sq) {
        classes.push('selected');
      }
      if (lastSquares.has(sq)) classes.push('last-move');
      let inner = letter ? drawPiece(letter) : '';
      if (targets.has(sq)) {
        inner += markHtml(evals.get(targets.get(sq)) || {value: 'unknown', dte: null}, !letter);
      } else if (!state.selected && letter && isOwn(letter)) {
        // Nothing selected: each own piece shows its best capture.
        const own = movesFrom({kind: 'board', square: sq});
        if (own.length && state.analysis) inner += markHtml(best(own.map((m) => evals.get(m))), false);
      }
      if (file === 0 || rank === 0) inner += `<span class="coord">${sq}</span>`;
      html += `<div class="${classes.join(' ')}" data-square="${sq}"` +
          `${targets.has(sq) ? ` data-move="${targets.get(sq)}"` : ''}>${inner}</div>`;
    }
  }
  board.innerHTML = html;
}

// The hand box `box` ('white' below the board, 'black' above it) shows the first player's hand
// and the second's, whatever the players are named.
function drawHand(box) {
  const pos = state.position;
  const el = $(`hand-${box}`);
  el.hidden = !pos.hands;  // Spock has no hands
  if (!pos.hands) return;
  const player = pos.players[box === 'white' ? 0 : 1];
  const hand = pos.hands[player] || {};
  const toMove = pos.side_to_move === player && !pos.terminal;
  el.classList.toggle('to-move', pos.side_to_move === player);
  const evals = movesByName();
  // Chess's pieces in their order, then any other kind in the order the hand lists them.
  const order = PIECE_ORDER.concat(Object.keys(hand).filter((p) => !PIECE_ORDER.includes(p)));
  let html = '';
  for (const piece of order) {
    const count = hand[piece] || 0;
    if (!count) continue;
    const letter = box === 'white' ? piece : piece.toLowerCase();
    const selected = toMove && state.selected && state.selected.kind === 'hand' &&
        state.selected.piece === piece;
    let mark = '';
    if (toMove && state.analysis) {
      const drops = movesFrom({kind: 'hand', piece});
      if (drops.length) mark = markHtml(best(drops.map((m) => evals.get(m))), false);
    }
    html += `<button class="hand-piece${selected ? ' selected' : ''}" data-color="${player}"` +
        ` data-piece="${piece}"${toMove ? '' : ' disabled'} title="${player} ${piece} ×${count}">` +
        `${drawPiece(letter)}<span class="count">×${count}</span>${mark}</button>`;
  }
  el.innerHTML = html || '<span class="empty">empty hand</span>';
}

function colorName(side) {
  return side.charAt(0).toUpperCase() + side.slice(1);
}

// The side after `side` in the order of play.
function otherSide(side) {
  const players = state.position.players;
  return players[(players.indexOf(side) + 1) % players.length];
}

function drawStatus() {
  const pos = state.position;
  const side = colorName(pos.side_to_move);
  const other = colorName(otherSide(pos.side_to_move));
  $('status').textContent = pos.terminal ? `${side} to move has no move: ${other} wins.` :
                                           `${side} to move.`;
  $('status').dataset.side = pos.side_to_move;
  const a = state.analysis;
  let text = 'evaluating…';
  if (a) {
    const source = {
      tables: 'from the tables',
      solved: 'the whole variant solved by the server',
      search: 'by forward search',
      none: '',
    }[a.source];
    if (a.value === 'unknown') {
      text = a.source === 'busy' ?
          'Unknown: every search of the server is busy; try again shortly.' :
          'Unknown: not solved within the time limit.';
      // Why the server did not solve the whole variant, and how to solve it.
      if (a.unsolved) text += ` (${a.unsolved})`;
    } else if (a.value === 'draw') {
      text = `Draw with perfect play: neither side can force an end (${source}).`;
    } else if (a.dte === null) {
      text = `${side} wins (distance to end not known in the time limit).`;
    } else if (pos.terminal) {
      text = `${side} has lost (DTE 0).`;
    } else {
      text = `${side} ${a.value === 'win' ? 'wins' : 'loses'}, game ends in ${a.dte} plies` +
          ` with perfect play (${source}).`;
    }
  }
  const e = $('evaluation');
  e.textContent = text;
  e.dataset.value = a ? a.value : '';
  e.dataset.dte = a && a.dte !== null ? a.dte : '';
}

function drawMoveList() {
  const body = $('move-list').querySelector('tbody');
  const pos = state.position;
  const evals = movesByName();
  const rows = pos.moves.map((m, i) => ({move: m, i, e: evals.get(m)}));
  // Best first; equal moves in the server's order.
  rows.sort((a, b) => (score(b.e) - score(a.e)) || (a.i - b.i));
  body.innerHTML = rows.map(({move, e}) => {
    const value = e ? e.value : '…';
    const dte = e && e.dte !== null ? e.dte : '';
    return `<tr class="${e ? e.value : ''}" data-move="${move}"><td>${move}</td>` +
        `<td class="value">${value}</td><td class="dte">${dte}</td></tr>`;
  }).join('');
}

function plyList(element, moves, firstSide) {
  let side = firstSide;
  element.innerHTML = moves.map((m) => {
    const item = `<li class="${side}">${m}</li>`;
    side = otherSide(side);
    return item;
  }).join('');
}

function drawLine() {
  const el = $('line');
  const line = state.line;
  if (!line) {
    el.innerHTML = '<li>…</li>';
    return;
  }
  plyList(el, line.line, state.position.side_to_move);
  if (!line.complete && line.value === 'draw') {
    el.insertAdjacentHTML('beforeend', `<li class="draw">… draw (${line.reason})</li>`);
  } else if (!line.complete) {
    el.insertAdjacentHTML('beforeend', '<li class="unknown">… unknown</li>');
  }
  else if (!line.line.length) el.innerHTML = '<li>(the game is over)</li>';
}

function drawHistory() {
  const el = $('history');
  if (!state.past.length) {
    el.innerHTML = '';
    return;
  }
  const first = state.past[0].side;
  plyList(el, state.past.map((p) => p.move), first);
}

// Whether the shown position's answers have all come: what the e2e test waits for.
function loaded() {
  if (drawsCheckers()) return state.analysis !== null;
  if (drawsDice()) return state.position.terminal || !state.position.roll || state.analysis !== null;
  return state.analysis !== null && state.line !== null;
}

function draw() {
  if (!state.position) return;
  document.body.dataset.game = state.position.game;
  document.body.dataset.drawing = drawing();
  $('hint').textContent = drawsDice() ?
      'Pick a roll (or roll the dice), then click a play; points are numbered for the side to move.' :
      drawsCheckers() ?
      'Click a checker of the player to move, then each cell it lands on; marks: the mover alone.' :
      state.position.hands ? 'Click a piece in hand or on the board, then a marked square.' :
                             'Click a piece on the board, then a marked square.';
  const select = $('solver-side');
  const sides = state.position.players;
  if (select.dataset.sides !== sides.join(' ')) {  // the sides' names are the game's
    select.innerHTML = sides.reduce(
        (html, side) => html + `<option value="${side}">${colorName(side)}</option>`,
        '<option value="none">nobody</option>');
    select.dataset.sides = sides.join(' ');
    if (!sides.includes(state.solverSide)) state.solverSide = 'none';
    select.value = state.solverSide;
  }
  if (drawsDice()) {
    drawNardy();
  } else if (drawsCheckers()) {
    drawCheckers();
  } else {
    drawBoard();
    drawHand('black');
    drawHand('white');
    drawStatus();
    drawMoveList();
    drawLine();
  }
  drawHistory();
  $('undo').disabled = state.past.length === 0;
  $('redo').disabled = state.future.length === 0;
  $('fen-input').value = state.position.fen;
  document.body.dataset.fen = state.position.fen;
  document.body.dataset.ready = loaded() ? 'yes' : 'no';
}

// ---- loading positions ----

// Shows a position; `roll` (Royal Nardy) replaces its dice.
async function show(fen, roll) {
  const seq = ++state.seq;
  document.body.dataset.ready = 'no';  // until this position's evaluations are drawn
  const params = {variant: state.variant};
  if (fen) params.fen = fen;
  if (roll) params.roll = roll;
  const position = await api('moves', params);
  if (seq !== state.seq) return;
  state.position = position;
  state.variant = position.variant;
  $('variant').value = position.variant;
  state.analysis = null;
  state.line = null;
  state.selected = null;
  checkers.path = [];
  draw();
  const at = {variant: position.variant, fen: position.fen};
  if (drawsCheckers()) {  // values per coalition; there is no one perfect line
    const analysis = await api('analyze', at);
    if (seq !== state.seq) return;
    state.analysis = analysis;
    draw();
    return maybeSolverMove();
  }
  if (drawsDice()) {  // a rolled position's plays have values; there is no perfect line
    if (position.terminal || !position.roll) return maybeSolverMove();
    const [analysis] = await Promise.all([api('analyze', at), fetchNardyRolls(position)]);
    if (seq !== state.seq) return;
    state.analysis = analysis;
    draw();
    return maybeSolverMove();
  }
  const [analysis, line] = await Promise.all([api('analyze', at), api('line', at)]);
  if (seq !== state.seq) return;
  state.analysis = analysis;
  state.line = line;
  draw();
  maybeSolverMove();
}

async function guard(action) {
  try {
    showError('');
    await action();
  } catch (e) {
    showError(e.message);
  }
}

async function playMove(move) {
  const before = state.position;
  const after = await api('play', {variant: before.variant, fen: before.fen, move});
  state.past.push({fen: before.fen, move: after.move, side: before.side_to_move});
  state.future = [];
  state.autoplay = true;
  await show(after.fen);
}

function maybeSolverMove() {
  const pos = state.position;
  if (drawsCheckers()) {
    if (state.autoplay && !pos.terminal && state.solverSide === pos.side_to_move) {
      checkersSolverMove(state.seq);
    }
    return;
  }
  if (drawsDice()) {
    if (state.autoplay && !pos.terminal && state.solverSide === parseNardyFen(pos.fen).side) {
      nardySolverMove(state.seq);
    }
    return;
  }
  if (!state.autoplay || pos.terminal || state.solverSide !== pos.side_to_move) return;
  if (!state.line || !state.line.line.length) {
    showError('The solver does not know this position within the time limit.');
    return;
  }
  const seq = state.seq;
  const move = state.line.line[0];
  setTimeout(() => {
    if (seq === state.seq) guard(() => playMove(move));
  }, 300);
}

// ---- input ----

function onSquareClick(sq) {
  const pos = state.position;
  if (!pos || pos.terminal) return;
  const move = clickableMoves().find((m) => squareOfMove(m) === sq);
  if (move) {
    guard(() => playMove(move));
    return;
  }
  const letter = pos.board[sq];
  if (letter && isOwn(letter) && movesFrom({kind: 'board', square: sq}).length &&
      !(state.selected && state.selected.kind === 'board' && state.selected.square === sq)) {
    state.selected = {kind: 'board', square: sq};
  } else {
    state.selected = null;
  }
  draw();
}

function onHandClick(piece) {
  const s = state.selected;
  state.selected = s && s.kind === 'hand' && s.piece === piece ? null : {kind: 'hand', piece};
  draw();
}

function undo() {
  if (!state.past.length) return;
  const step = () => {
    const last = state.past.pop();
    state.future.unshift({fen: state.position.fen, move: last.move, side: last.side, from: last.fen});
    return last.fen;
  };
  let fen = step();
  // Against the solver, go back to a position where the person is to move.
  if (state.solverSide !== 'none' && state.past.length &&
      state.past[state.past.length - 1].side !== state.solverSide &&
      state.future[0].side === state.solverSide) {
    fen = step();
  }
  state.autoplay = false;
  guard(() => show(fen));
}

function redo() {
  if (!state.future.length) return;
  const step = () => {
    const next = state.future.shift();
    state.past.push({fen: next.from, move: next.move, side: next.side});
    return next.fen;
  };
  let fen = step();
  if (state.solverSide !== 'none' && state.future.length && state.future[0].side === state.solverSide) {
    fen = step();
  }
  state.autoplay = false;
  guard(() => show(fen));
}

async function copyFen() {
  const fen = state.position ? state.position.fen : '';
  $('fen-input').value = fen;
  try {
    await navigator.clipboard.writeText(fen);
  } catch (e) {
    $('fen-input').select();
    document.execCommand('copy');
  }
}

function startNew(fen) {
  state.past = [];
  state.future = [];
  state.autoplay = true;
  state.variant = $('variant').value.trim();
  return show(fen);
}

function wire() {
  wireNardy();
  wireCheckers();
  $('board').addEventListener('click', (e) => {
    const square = e.target.closest('.square');
    if (square) onSquareClick(square.dataset.square);
  });
  for (const color of ['white', 'black']) {
    $(`hand-${color}`).addEventListener('click', (e) => {
      const button = e.target.closest('.hand-piece');
      if (button && !button.disabled) onHandClick(button.dataset.piece);
    });
  }
  $('move-list').addEventListener('click', (e) => {
    const row = e.target.closest('tr[data-move]');
    if (row) guard(() => playMove(row.dataset.move));
  });
  $('new-game').addEventListener('click', () => guard(() => startNew('')));
  $('variant').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') guard(() => startNew(''));
  });
  $('load-fen').addEventListener('click', () => guard(() => startNew($('fen-input').value.trim())));
  $('fen-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') guard(() => startNew($('fen-input').value.trim()));
  });
  $('copy-fen').addEventListener('click', () => copyFen());
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('solver-side').addEventListener('change', (e) => {
    state.solverSide = e.target.value;
    state.autoplay = true;
    maybeSolverMove();
  });
}

async function main() {
  wire();
  const params = new URLSearchParams(location.search);
  await guard(async () => {
    const info = await api('info', {});
    state.variant = params.get('variant') || info.default_variant;
    $('variant').value = state.variant;
    await show(params.get('fen') || '');
  });
}

main();
