// The corner-checkers drawing of the explorer (app.js holds the page's state and flow), for a
// game whose position JSON names "drawing": "corner_checkers" (rules/game_entry.h): a grid whose
// four corners are the players' (the JSON's "corners", each player's start by index; its goal the
// opposite one), each player's checkers in its colour, kings crowned; and the values per
// coalition of players that /api/analyze gives, for the position and after each legal move (a
// coalition's value is from its own side whoever moves; a move's distance counts the move). A move
// is played by clicks: the checker, then each cell it lands on (a capture lands once per checker
// it takes); the cells clicked so far must begin one of the moves the server lists
// ("16-26", "25:45:65"), nothing here knows the rules.
'use strict';

// The players' colours, by index in the JSON's "players" (the order of play).
const CHECKER_COLOURS = ['#f7f4ea', '#c8322f', '#2e8b3e', '#262626'];
const CHECKER_INKS = ['#222', '#fff', '#fff', '#f0f0f0'];

const checkers = {
  path: [],  // the cells clicked for the move being entered: its checker, then landings
};

function checkerPlayer(letter) {
  return state.position.players.findIndex((p) => p[0] === letter.toLowerCase());
}

function checkerSvg(letter) {
  const q = checkerPlayer(letter);
  const king = letter !== letter.toLowerCase();
  const crown = king ?
      `<path d="M30 60 L26 36 L40 48 L50 30 L60 48 L74 36 L70 60 Z" fill="${CHECKER_INKS[q]}"/>` :
      '';
  return `<svg class="piece checker" viewBox="0 0 100 100" data-piece="${letter}"` +
      ` data-king="${king ? 'yes' : 'no'}" aria-label="${letter}">` +
      `<circle cx="50" cy="50" r="38" fill="${CHECKER_COLOURS[q]}" stroke="#111" stroke-width="3"/>` +
      `<circle cx="50" cy="50" r="28" fill="none" stroke="${CHECKER_INKS[q]}" stroke-width="2"` +
      ` opacity="0.5"/>${crown}</svg>`;
}

// A move's cells: "25:45:65" -> ['25', '45', '65'], "16-26" -> ['16', '26'].
function moveCells(move) {
  return move.split(/[-:]/);
}

// Whether a move's cells begin with `path`.
function beginsWith(move, path) {
  const cells = moveCells(move);
  return cells.length >= path.length && path.every((c, i) => cells[i] === c);
}

// The moves that begin with the cells clicked so far.
function movesAlongPath() {
  return state.position.moves.filter((m) => beginsWith(m, checkers.path));
}

// The analysis's entry of a move, by its text.
function checkerAnalysis(move) {
  return state.analysis ? state.analysis.moves.find((m) => m.move === move) : null;
}

// Coalition `name`'s value in a list of coalition values.
function coalitionValue(values, name) {
  return values.find((c) => c.coalition === name);
}

// Higher is better for the coalition: its quickest win, then a draw, then its slowest loss.
function coalitionScore(v) {
  if (!v || v.value === 'draw') return 0;
  return v.value === 'win' ? 1000 - v.distance : -1000 + v.distance;
}

// "W3", "D", "L5": a value in a table cell.
function shortValue(v) {
  return v.value === 'draw' ? '=' : `${v.value === 'win' ? 'W' : 'L'}${v.distance}`;
}

function valueMark(v, dot) {
  if (!v) return markHtml({value: 'unknown', dte: null}, dot);
  return markHtml({value: v.value, dte: v.distance}, dot);
}

function drawCheckersBoard() {
  const pos = state.position;
  const board = $('checkers-board');
  board.style.setProperty('--files', pos.width);
  const corners = new Map(pos.corners.map((c, q) => [c, q]));
  const path = checkers.path;
  const along = path.length ? movesAlongPath() : [];
  // The next cells a click may land on, each with the moves through it.
  const next = new Map();
  for (const m of along) {
    const cells = moveCells(m);
    if (cells.length > path.length) {
      const c = cells[path.length];
      if (!next.has(c)) next.set(c, []);
      next.get(c).push(m);
    }
  }
  const mover = pos.side_to_move;
  const lastMove = state.past.length ? state.past[state.past.length - 1].move : null;
  const lastCells = new Set(lastMove ? moveCells(lastMove) : []);
  let html = '';
  for (let row = pos.height; row >= 1; --row) {
    for (let column = 1; column <= pos.width; ++column) {
      const cell = `${column}${row}`;
      const classes = ['cell'];
      let style = '';
      if (corners.has(cell)) {
        classes.push('corner');
        style = ` style="--corner: ${CHECKER_COLOURS[corners.get(cell)]}"`;
      }
      if (path.includes(cell)) classes.push('selected');
      if (lastCells.has(cell)) classes.push('last-move');
      const letter = pos.board[cell];
      let inner = letter ? checkerSvg(letter) : '';
      if (next.has(cell)) {
        // The best for the mover alone of the moves through this cell.
        const values = next.get(cell).map((m) => checkerAnalysis(m)).filter((a) => a)
                           .map((a) => coalitionValue(a.coalitions, mover));
        const top = values.reduce((a, b) => (coalitionScore(b) > coalitionScore(a) ? b : a),
                                  values[0]);
        inner += valueMark(top, !letter);
        classes.push('target');
      }
      if (column === 1 || row === 1) inner += `<span class="coord">${cell}</span>`;
      html += `<div class="${classes.join(' ')}" data-cell="${cell}"${style}>${inner}</div>`;
    }
  }
  board.innerHTML = html;
}

function drawCheckersStatus() {
  const pos = state.position;
  const out = pos.players.filter((p) => !pos.players_left.includes(p));
  const gone = out.length ? ` Out: ${out.map(colorName).join(', ')}.` : '';
  $('status').textContent = pos.terminal ? `The game is over: ${pos.result}.` :
                                           `${colorName(pos.side_to_move)} to move.${gone}`;
  $('status').dataset.side = pos.side_to_move;
  const a = state.analysis;
  const e = $('evaluation');
  e.textContent = a ? `Values per coalition (${a.positions} positions solved in memory):` :
                      'evaluating…';
  e.dataset.value = a ? 'coalitions' : '';
  e.dataset.dte = '';
  const list = $('coalition-values');
  list.innerHTML = a ? a.coalitions.map((c) =>
      `<li class="${c.value}" data-coalition="${c.coalition}" data-value="${c.value}"` +
      ` data-distance="${c.distance === null ? '' : c.distance}">${c.coalition}: ${c.value}` +
      `${c.distance === null ? '' : ` in ${c.distance}`}</li>`).join('') : '';
}

// One row a move, one column a coalition; the mover alone's best first.
function drawCheckersMoves() {
  const a = state.analysis;
  const table = $('coalition-moves');
  if (!a) {
    table.innerHTML = '';
    return;
  }
  const names = a.coalitions.map((c) => c.coalition);
  // The players' names in full, a line a player, so that fourteen columns still fit.
  const head = '<thead><tr><th>move</th>' + names.map((n) =>
      `<th title="${n}">${n.split('+').join('<br>')}</th>`).join('') + '</tr></thead>';
  const mover = state.position.side_to_move;
  const rows = a.moves.map((m, i) => ({m, i}));
  rows.sort((x, y) => coalitionScore(coalitionValue(y.m.coalitions, mover)) -
                          coalitionScore(coalitionValue(x.m.coalitions, mover)) || x.i - y.i);
  const body = rows.map(({m}) => `<tr data-move="${m.move}"><td>${m.move}</td>` +
      m.coalitions.map((c) => `<td class="${c.value}" data-coalition="${c.coalition}"` +
          ` data-value="${c.value}" data-distance="${c.distance === null ? '' : c.distance}">` +
          `${shortValue(c)}</td>`).join('') + '</tr>').join('');
  table.innerHTML = `${head}<tbody>${body}</tbody>`;
}

function drawCheckers() {
  drawCheckersBoard();
  drawCheckersStatus();
  drawCheckersMoves();
}

// A click on a cell: it begins a move (a checker of the player to move that has one), or lands
// on the next cell of the moves begun; a move whose cells are all clicked is played.
function onCheckerClick(cell) {
  const pos = state.position;
  if (!pos || pos.terminal) return;
  const extended = [...checkers.path, cell];
  const begins = (path) => pos.moves.some((m) => beginsWith(m, path));
  if (checkers.path.length && begins(extended)) {
    checkers.path = extended;
    const along = pos.moves.filter((m) => beginsWith(m, extended));
    if (along.length === 1 && moveCells(along[0]).length === extended.length) {
      const done = along;
      checkers.path = [];
      guard(() => playMove(done[0]));
      return;
    }
  } else if (begins([cell]) && !(checkers.path.length === 1 && checkers.path[0] === cell)) {
    checkers.path = [cell];
  } else {
    checkers.path = [];
  }
  draw();
}

// The solver plays a seat: the move best for that player alone, as the analysis values it.
function checkersSolverMove(seq) {
  const a = state.analysis;
  if (!a || !a.moves.length) return;
  const mover = state.position.side_to_move;
  const top = a.moves.reduce((x, y) => (coalitionScore(coalitionValue(y.coalitions, mover)) >
                                        coalitionScore(coalitionValue(x.coalitions, mover)) ? y : x));
  setTimeout(() => {
    if (seq === state.seq) guard(() => playMove(top.move));
  }, 300);
}

function wireCheckers() {
  $('checkers-board').addEventListener('click', (e) => {
    const cell = e.target.closest('.cell');
    if (cell) onCheckerClick(cell.dataset.cell);
  });
  $('coalition-moves').addEventListener('click', (e) => {
    const row = e.target.closest('tr[data-move]');
    if (row) guard(() => playMove(row.dataset.move));
  });
}
