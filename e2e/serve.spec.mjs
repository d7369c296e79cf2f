// End-to-end test of `drop16 serve` in a real headless browser (Debian's chromium, driven by
// playwright-core). Builds the tables of a small variant, starts the server on a free port, and
// checks what the page shows against the command line (`drop16 query`, `drop16 moves`): the start
// position's evaluations, a short game played by clicks, undo/redo, a move by the solver, a pasted
// FEN and a bad one. Then the same page on a solved Spock row: draw and win marks as `query` gives
// them, a move played by clicks. Then the rook race, answered by the bounded search: what it
// proves agrees with the variant's in-memory solve, a drop and a rook move played by clicks. Then
// Royal Nardy: its board drawn as the FEN says, a roll picked, the plays with their expected
// points as `drop16 query` gives them, plays played by clicks into the positions the server names,
// a random roll, undo and redo, the player taking a side, a game's end with its points and a bad
// FEN. Then Nevsky checkers, served with --variant and solved in memory: the four-colour grid as
// the FEN says, every coalition's value at the position and after each move as `drop16 solve`
// gives them for the position and for each move's child, a step, a multi-capture and a king's
// capture with a choice of landing played by clicks. Saves a screenshot of each game.
//
//   node e2e/serve.spec.mjs [--drop16 build/drop16] [--chromium /usr/bin/chromium]
//                           [--screenshot e2e-serve.png] [--variant 3x3:NBRK]
//                           [--spock-screenshot e2e-serve-spock.png] [--spock-row spock:3x3:RK/rk]
//                           [--rookrace-screenshot e2e-serve-rookrace.png] [--rookrace rookrace:4x4:1]
//                           [--nardy-screenshot e2e-serve-nardy.png] [--nardy-fen F --nardy-roll R]
//                           [--nevsky-screenshot e2e-serve-nevsky.png] [--nevsky nevsky:4x4:1]
//                           [--teeko-screenshot e2e-serve-teeko.png] [--teeko teeko:4x4]
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const drop16 = path.resolve(option('drop16', path.join(here, '..', 'build', 'drop16')));
const chromiumPath = option('chromium', '/usr/bin/chromium');
const screenshot = path.resolve(option('screenshot', path.join(os.tmpdir(), 'drop16-serve.png')));
const variant = option('variant', '3x3:NBRK');
const spockScreenshot =
    path.resolve(option('spock-screenshot', path.join(os.tmpdir(), 'drop16-serve-spock.png')));
const spockRow = option('spock-row', 'spock:3x3:RK/rk');
// A position of that row with a drawing and a winning move of one piece (its Rock on a1).
const spockFen = option('spock-fen', 'r1k/3/R1K w');
const rookraceScreenshot =
    path.resolve(option('rookrace-screenshot', path.join(os.tmpdir(), 'drop16-serve-rookrace.png')));
// Small enough for `drop16 solve` to solve in memory in a second or two.
const rookraceVariant = option('rookrace', 'rookrace:4x4:1');
const nardyScreenshot =
    path.resolve(option('nardy-screenshot', path.join(os.tmpdir(), 'drop16-serve-nardy.png')));
// A Royal Nardy position with checkers on the bar, borne off and eaten, and a roll that enters
// hitting a plain checker and then eats a royal one.
const nardyFen = option('nardy-fen', 'r/2P/./R/./3P/r/./R/././r/R/./R/./r/r/3p/R/2p/p/p/R 1/1 2/0 1/2 w -');
const nardyRoll = option('nardy-roll', '3-2');
// A game's end: White's last checker eaten on Black's play.
const nardyEnd = '././././././././p/././././././././././././././. 0/0 14/11 1/3 w -';
const nevskyScreenshot =
    path.resolve(option('nevsky-screenshot', path.join(os.tmpdir(), 'drop16-serve-nevsky.png')));
// Small enough to solve in memory in well under a second.
const nevskyVariant = option('nevsky', 'nevsky:4x4:1');
const teekoScreenshot =
    path.resolve(option('teeko-screenshot', path.join(os.tmpdir(), 'drop16-serve-teeko.png')));
// Solved into tables in a second.
const teekoVariant = option('teeko', 'teeko:4x4');
// White's man on 11 takes Red's on 12 and Green's on 23 in one move: 11:13:33.
const nevskyCapture = {fen: '4/1g2/r2b/w3 w', move: '11:13:33', left: 2};
// White's king on 11 flies over Red's on 12, Green's on 23 and Black's on 42: one capture taking
// checkers of all three opponents, the longest of the king's routes (landing on 43, not 33, to go
// on), which ends the game.
const nevskyKing = {fen: '4/1g2/r2b/W3 w', move: '11:13:43:41', left: 1};
// The screenshot's position: White's king in the middle, Red to move.
const nevskyShot = '3r/4/1W2/b2g r';
// A position with pieces on the board and in both hands, pasted into the page.
const pastedFen = option('fen', 'k1b/1N1/B2[RKnr] b');

let playwright;
try {
  playwright = await import('playwright-core');
} catch (e) {
  console.error('e2e: playwright-core is not installed: run `npm ci` in e2e/ ' +
                '(bash scripts/install-deps.sh --e2e does it)');
  process.exit(1);
}

let failures = 0;
function check(ok, what) {
  if (ok) return;
  failures++;
  console.error(`FAIL: ${what}`);
}
function fail(what) {
  throw new Error(what);
}

function cli(args) {
  return JSON.parse(execFileSync(drop16, args, {encoding: 'utf8'}));
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'drop16-e2e-'));
const tables = path.join(work, 'tables');
const spockTables = path.join(work, 'spock-tables');
const teekoTables = path.join(work, 'teeko-tables');
let server = null;
let browser = null;

// Starts `drop16 serve` on a free port (with the tables of `dir`, or the options `args`);
// resolves to its URL from the first line it prints.
function startServer(dir = tables, args = ['--tables', dir]) {
  return new Promise((resolve, reject) => {
    server = spawn(drop16, ['serve', ...args, '--port', '0', '--quiet'],
                   {stdio: ['ignore', 'pipe', 'inherit']});
    let out = '';
    const timer = setTimeout(() => reject(new Error('drop16 serve did not start in 20 s')), 20000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/[0-9.]+:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`drop16 serve exited with ${code}: ${out}`));
    });
  });
}

// Evaluations the page shows: move -> "value dte" from the move list, and the position's.
async function pageEvaluations(page) {
  return page.evaluate(() => {
    const moves = {};
    for (const row of document.querySelectorAll('#move-list tbody tr')) {
      moves[row.dataset.move] =
          `${row.querySelector('.value').textContent} ${row.querySelector('.dte').textContent}`;
    }
    const e = document.getElementById('evaluation');
    return {value: e.dataset.value, dte: e.dataset.dte, moves};
  });
}

async function waitReady(page, fen) {
  await page.waitForFunction(
      (want) => document.body.dataset.ready === 'yes' && (!want || document.body.dataset.fen === want),
      fen, {timeout: 15000});
}

// Checks the shown position's evaluations and legal moves against `drop16 query` and `moves`.
async function checkAgainstCli(page, label, dir = tables) {
  const fen = await page.evaluate(() => document.body.dataset.fen);
  const q = cli(['query', '--tables', dir, '--fen', fen, '--json']);
  const shown = await pageEvaluations(page);
  check(shown.value === q.value, `${label}: page value ${shown.value}, query ${q.value}`);
  check(shown.dte === (q.dte === null ? '' : String(q.dte)), `${label}: page DTE ${shown.dte}, query ${q.dte}`);
  const want = {};
  for (const m of q.moves) want[m.move] = `${m.value} ${m.dte === null ? '' : m.dte}`;
  check(JSON.stringify(Object.keys(shown.moves).sort()) === JSON.stringify(Object.keys(want).sort()),
        `${label}: page lists moves ${Object.keys(shown.moves)}, query ${Object.keys(want)}`);
  for (const [move, text] of Object.entries(want)) {
    check(shown.moves[move] === text, `${label}: ${move} shown as '${shown.moves[move]}', query '${text}'`);
  }
  return q;
}

// Plays a move by clicks: the hand piece (or the board piece), then the target square.
async function clickMove(page, move, side) {
  if (move.includes('@')) {
    const [piece, square] = move.split('@');
    await page.click(`#hand-${side} .hand-piece[data-piece="${piece}"]`);
    // The target square now carries this move's mark.
    await page.waitForSelector(`.square[data-square="${square}"][data-move="${move}"] .mark`);
    await page.click(`.square[data-square="${square}"]`);
  } else {
    const from = move.slice(0, 2);
    const to = move.slice(2);
    await page.click(`.square[data-square="${from}"]`);
    await page.waitForSelector(`.square[data-square="${to}"][data-move="${move}"] .mark`);
    await page.click(`.square[data-square="${to}"]`);
  }
}

// Plays up to `plies` moves of the principal line the page shows, by clicks, from `fen`;
// checks each position reached against the command line. Returns the moves played.
async function playLine(page, fen, plies) {
  const played = [];
  for (let ply = 0; ply < plies; ++ply) {
    const side = await page.evaluate(() => document.getElementById('status').dataset.side);
    const move = await page.evaluate(() => {
      const first = document.querySelector('#line li');
      return first ? first.textContent : null;
    });
    if (!move || move.startsWith('(')) break;
    await clickMove(page, move, side);
    const expected = cli(['moves', '--variant', variant, '--fen', fen, '--moves', move, '--json']);
    await waitReady(page, expected.fen);
    fen = expected.fen;
    played.push(move);
    await checkAgainstCli(page, `after ${played.join(' ')}`);
  }
  return played;
}

// Royal Nardy: the board drawn holds what the FEN says, point by point, with the bar, borne-off
// and eaten counts.
async function checkNardyBoard(page, fen, label) {
  const [points, bar, off, eaten] = fen.split(' ');
  const shown = await page.evaluate(() => {
    const count = (sel) => document.querySelector(sel).dataset.count;
    const points = [...document.querySelectorAll('.nardy-point')]
                       .sort((a, b) => a.dataset.point - b.dataset.point)
                       .map((p) => p.dataset.content);
    const checkers = [...document.querySelectorAll('.nardy-point')].map(
        (p) => p.querySelectorAll('.checker').length);
    return {
      points: points.join('/'),
      drawn: checkers.reduce((a, b) => a + b, 0),
      bar: `${count('.nardy-bar.white')}/${count('.nardy-bar.black')}`,
      off: `${count('.nardy-off.white')}/${count('.nardy-off.black')}`,
      eaten: `${count('.nardy-eaten.white')}/${count('.nardy-eaten.black')}`,
    };
  });
  check(shown.points === points, `${label}: board ${shown.points}, FEN ${points}`);
  check(shown.bar === bar && shown.off === off && shown.eaten === eaten,
        `${label}: bar ${shown.bar} off ${shown.off} eaten ${shown.eaten}, FEN ${bar} ${off} ${eaten}`);
  check(shown.drawn > 0, `${label}: no checker drawn`);
}

// Royal Nardy: the plays shown, best first, with the expected points `query` gives them.
async function checkNardyPlays(page, q, label) {
  const rows = await page.$$eval('#play-list tbody tr', (trs) => trs.map((tr) => ({
    play: tr.dataset.play, value: tr.dataset.value, best: tr.classList.contains('best'),
  })));
  const want = new Map(q.plays.map((p) => [p.play, String(p.expected_points)]));
  check(rows.length === want.size, `${label}: ${rows.length} plays shown, query ${want.size}`);
  for (const r of rows) {
    check(want.get(r.play) === r.value, `${label}: ${r.play} shown as ${r.value}, query ${want.get(r.play)}`);
  }
  for (let i = 1; i < rows.length; ++i) {
    check(Number(rows[i - 1].value) >= Number(rows[i].value), `${label}: plays not best first`);
  }
  const best = rows.filter((r) => r.best).map((r) => r.play);
  check(best.length === 1 && best[0] === q.best_play, `${label}: best play ${best}, query ${q.best_play}`);
  const shownValue = await page.evaluate(() => document.getElementById('evaluation').dataset.value);
  check(shownValue === String(q.expected_points),
        `${label}: position's ${shownValue}, query ${q.expected_points}`);
}

// Nevsky: the grid drawn holds what the FEN says, cell by cell (rows from the top, digits for
// runs of empty cells; men lower case, kings upper case).
async function checkNevskyBoard(page, fen, label) {
  const want = {};
  fen.split(' ')[0].split('/').forEach((text, i, rows) => {
    let column = 1;
    for (const ch of text) {
      if (/\d/.test(ch)) column += Number(ch);
      else want[`${column++}${rows.length - i}`] = ch;
    }
  });
  const shown = await page.evaluate(() => {
    const out = {};
    for (const c of document.querySelectorAll('#checkers-board .checker')) {
      out[c.closest('.cell').dataset.cell] = c.dataset.piece;
    }
    return out;
  });
  const sorted = (o) => JSON.stringify(Object.entries(o).sort());
  check(sorted(shown) === sorted(want), `${label}: grid ${sorted(shown)}, FEN ${sorted(want)}`);
}

// Nevsky: every coalition's value shown for the position is what `drop16 solve` gives for it,
// and each move's is what it gives for the move's child, one ply further.
async function checkNevskyValues(page, label) {
  const fen = await page.evaluate(() => document.body.dataset.fen);
  const text = (c, plies) => `${c.value} ${c.distance === null ? '' : c.distance + plies}`;
  const solved = cli(['solve', '--variant', nevskyVariant, '--fen', fen, '--json', '--quiet']);
  const shown = await page.evaluate(() => {
    const position = {};
    for (const li of document.querySelectorAll('#coalition-values li')) {
      position[li.dataset.coalition] = `${li.dataset.value} ${li.dataset.distance}`;
    }
    const moves = {};
    for (const tr of document.querySelectorAll('#coalition-moves tbody tr')) {
      moves[tr.dataset.move] = {};
      for (const td of tr.querySelectorAll('td[data-coalition]')) {
        moves[tr.dataset.move][td.dataset.coalition] = `${td.dataset.value} ${td.dataset.distance}`;
      }
    }
    return {position, moves};
  });
  check(Object.keys(shown.position).length === 14, `${label}: ${Object.keys(shown.position).length} coalitions shown`);
  for (const c of solved.coalitions) {
    check(shown.position[c.coalition] === text(c, 0),
          `${label}: ${c.coalition} shown '${shown.position[c.coalition]}', solve '${text(c, 0)}'`);
  }
  const listed = cli(['moves', '--variant', nevskyVariant, '--fen', fen, '--json']).moves;
  check(JSON.stringify(Object.keys(shown.moves).sort()) === JSON.stringify([...listed].sort()),
        `${label}: moves shown ${Object.keys(shown.moves)}, moves ${listed}`);
  for (const move of listed) {
    const child = cli(['moves', '--variant', nevskyVariant, '--fen', fen, '--moves', move, '--json']).fen;
    const childSolved = cli(['solve', '--variant', nevskyVariant, '--fen', child, '--json', '--quiet']);
    for (const c of childSolved.coalitions) {
      check((shown.moves[move] || {})[c.coalition] === text(c, 1),
            `${label}: ${move} for ${c.coalition} shown '${(shown.moves[move] || {})[c.coalition]}', ` +
            `solve of ${child} '${text(c, 1)}'`);
    }
  }
}

const started = Date.now();
try {
  execFileSync(drop16, ['solve', '--variant', variant, '--tables', tables, '--quiet', '--json'],
               {stdio: ['ignore', 'ignore', 'inherit']});
  const url = await startServer();
  browser = await playwright.chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({viewport: {width: 1180, height: 900}});
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(url);

  // 1. The start position's evaluations match `drop16 query`.
  const start = cli(['moves', '--variant', variant, '--json']).fen;
  await waitReady(page, start);
  const q0 = await checkAgainstCli(page, 'start');
  // The marks on the hand pieces are each piece type's best drop.
  const handMarks = await page.evaluate(() => {
    const marks = {};
    for (const b of document.querySelectorAll('#hand-white .hand-piece')) {
      const m = b.querySelector('.mark');
      marks[b.dataset.piece] = m ? `${m.dataset.value} ${m.dataset.dte}` : null;
    }
    return marks;
  });
  for (const [piece, shown] of Object.entries(handMarks)) {
    const drops = q0.moves.filter((m) => m.move.startsWith(piece + '@'));
    const score = (m) => (m.value === 'win' ? 1000 - m.dte : -1000 + m.dte);
    const top = drops.reduce((a, b) => (score(b) > score(a) ? b : a));
    check(shown === `${top.value} ${top.dte}`, `hand ${piece}: mark '${shown}', best drop ${top.move}`);
  }

  // 2. A short game by clicks: perfect play for six plies (the first move of the line shown),
  // each position checked against the command line.
  const played = await playLine(page, start, 6);
  check(played.length >= 4, `only ${played.length} plies played`);
  const history = await page.$$eval('#history li', (items) => items.map((i) => i.textContent));
  check(JSON.stringify(history) === JSON.stringify(played), `game record ${history} != ${played}`);

  // 3. Undo twice and redo once.
  const back2 = cli(['moves', '--variant', variant, '--moves', ...played.slice(0, -2), '--json']).fen;
  const back1 = cli(['moves', '--variant', variant, '--moves', ...played.slice(0, -1), '--json']).fen;
  await page.click('#undo');
  await waitReady(page, back1);
  await page.click('#undo');
  await waitReady(page, back2);
  await page.click('#redo');
  await waitReady(page, back1);

  // 4. The solver plays the side to move: its move is the first of the principal line.
  const side = await page.evaluate(() => document.getElementById('status').dataset.side);
  const line = await page.$$eval('#line li', (items) => items.map((i) => i.textContent));
  if (!line[0].startsWith('(')) {
    await page.selectOption('#solver-side', side);
    const after = cli(['moves', '--variant', variant, '--fen', back1, '--moves', line[0], '--json']);
    await waitReady(page, after.fen);
    await page.selectOption('#solver-side', 'none');
  }

  // 5. Paste a FEN; then a malformed one, which the page reports without losing the position.
  await page.fill('#fen-input', pastedFen);
  await page.click('#load-fen');
  const pasted = cli(['moves', '--variant', variant, '--fen', pastedFen, '--json']).fen;
  await waitReady(page, pasted);
  await checkAgainstCli(page, `pasted ${pastedFen}`);
  await page.fill('#fen-input', 'k1b/1N1[RKnr] b');
  await page.click('#load-fen');
  await page.waitForSelector('#error:not([hidden])');
  const error = await page.textContent('#error');
  check(/FEN/.test(error), `bad FEN error reads '${error}'`);
  check((await page.evaluate(() => document.body.dataset.fen)) === pasted, 'bad FEN changed the position');
  await page.fill('#fen-input', pasted);
  await page.click('#load-fen');
  await waitReady(page, pasted);
  await page.waitForSelector('#error[hidden]', {state: 'attached'});

  // Two more plies from the pasted position; then select a hand piece, so the screenshot shows
  // a game record and the marks on the target squares.
  const more = await playLine(page, pasted, 2);
  check(more.length === 2, `from the pasted FEN only ${more.length} plies played`);

  const sideNow = await page.evaluate(() => document.getElementById('status').dataset.side);
  const firstHand = await page.$(`#hand-${sideNow} .hand-piece`);
  if (firstHand) await firstHand.click();
  fs.mkdirSync(path.dirname(screenshot), {recursive: true});
  await page.screenshot({path: screenshot, fullPage: true});
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log(`e2e: ${played.length} plies played by clicks (${played.join(' ')}), ` +
              `screenshot ${screenshot}, ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // 6. Spock: a solved ladder row served from its table. The row's opening position and a pasted
  // one match `drop16 query`; selecting a piece marks its targets, a draw among them; a click plays.
  server.kill('SIGTERM');
  execFileSync(drop16, ['solve', '--variant', spockRow, '--tables', spockTables, '--quiet', '--json'],
               {stdio: ['ignore', 'ignore', 'inherit']});
  const spockUrl = await startServer(spockTables);
  await page.goto(spockUrl);
  await page.waitForFunction(() => document.body.dataset.ready === 'yes', null, {timeout: 15000});
  check((await page.evaluate(() => document.body.dataset.game)) === 'spock', 'Spock page not shown');
  check((await page.$$('.spock-piece')).length > 0, 'no Spock pieces drawn');
  check(await page.evaluate(() => document.getElementById('hand-white').hidden), 'Spock shows hands');
  await checkAgainstCli(page, 'Spock row start', spockTables);
  await page.fill('#fen-input', spockFen);
  await page.click('#load-fen');
  await waitReady(page, spockFen);
  const sq = await checkAgainstCli(page, `Spock ${spockFen}`, spockTables);
  check(sq.moves.some((m) => m.value === 'draw') && sq.moves.some((m) => m.value === 'win'),
        `${spockFen}: query shows no draw and win to test`);
  // The piece with both a drawing and a winning move, if there is one.
  const origins = [...new Set(sq.moves.map((m) => m.move.slice(0, 2)))];
  const has = (o, value) => sq.moves.some((m) => m.move.startsWith(o) && m.value === value);
  const from = origins.find((o) => has(o, 'draw') && has(o, 'win')) || origins[0];
  await page.click(`.square[data-square="${from}"]`);
  for (const m of sq.moves.filter((x) => x.move.startsWith(from))) {
    const mark = await page.waitForSelector(`.square[data-move="${m.move}"] .mark`);
    const shown = await mark.evaluate((e) => `${e.dataset.value} ${e.dataset.dte}`);
    check(shown === `${m.value} ${m.dte === null ? '' : m.dte}`,
          `Spock ${m.move}: mark '${shown}', query ${m.value} ${m.dte}`);
  }
  check((await page.$$('.square .mark.draw')).length > 0, 'no draw mark on the board');
  check((await page.$$('.square .mark.win')).length > 0, 'no win mark on the board');
  fs.mkdirSync(path.dirname(spockScreenshot), {recursive: true});
  await page.screenshot({path: spockScreenshot, fullPage: true});
  const spockMove = sq.moves.find((m) => m.move.startsWith(from) && m.value === 'win').move;
  await page.click(`.square[data-square="${spockMove.slice(2)}"]`);
  const spockAfter = cli(['moves', '--variant', spockRow, '--fen', spockFen, '--moves', spockMove, '--json']);
  await waitReady(page, spockAfter.fen);
  await checkAgainstCli(page, `Spock after ${spockMove}`, spockTables);
  // A drawn position's line stops with its reason.
  const drawMove = sq.moves.find((m) => m.value === 'draw').move;
  await page.click('#undo');
  await waitReady(page, spockFen);
  await page.click(`#move-list tr[data-move="${drawMove}"]`);
  await page.waitForFunction(() => document.body.dataset.ready === 'yes' &&
                                 document.getElementById('evaluation').dataset.value === 'draw',
                             null, {timeout: 15000});
  const drawLine = await page.$$eval('#line li', (items) => items.map((i) => i.textContent));
  check(/draw \((repetition|ply limit)\)/.test(drawLine[drawLine.length - 1]),
        `drawn line ends '${drawLine[drawLine.length - 1]}'`);
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log(`e2e: Spock ${spockRow} checked, screenshot ${spockScreenshot}`);

  // 7. The rook race on the same server, which has no tables of it: the row is solved by the
  // server when the page first asks (tablebase/row_solves.h), so every move's value, draws
  // included, is the command's solve's, and the start is a draw.
  const rrStart = cli(['moves', '--variant', rookraceVariant, '--json']).fen;
  await page.goto(`${spockUrl}?variant=${encodeURIComponent(rookraceVariant)}`);
  await waitReady(page, rrStart);
  check((await page.evaluate(() => document.body.dataset.game)) === 'rookrace', 'rook race page not shown');
  const rrStartShown = await pageEvaluations(page);
  check(rrStartShown.value === 'draw', `rook race start shown as '${rrStartShown.value}', not a draw`);
  const rrStartText = await page.$eval('#evaluation', (e) => e.textContent);
  check(/^Draw with perfect play/.test(rrStartText) && rrStartText.includes('solved'),
        `rook race start's evaluation reads '${rrStartText}'`);
  check((await page.$$('#hand-white .hand-piece[data-piece="P"]')).length === 1, 'no pawn reserve drawn');
  // Checks the shown position's moves against the solve; returns how many values are proven.
  const checkRookrace = async (label) => {
    const fen = await page.evaluate(() => document.body.dataset.fen);
    const solved = cli(['solve', '--variant', rookraceVariant, '--fen', fen, '--json']);
    const shown = (await pageEvaluations(page)).moves;
    check(JSON.stringify(Object.keys(shown).sort()) ===
              JSON.stringify(solved.moves.map((m) => m.move).sort()),
          `${label}: page lists moves ${Object.keys(shown)}, solve ${solved.moves.map((m) => m.move)}`);
    let proven = 0;
    for (const m of solved.moves) {
      const text = shown[m.move] || '';
      ++proven;
      check(text === `${m.value} ${m.dte === null ? '' : m.dte}`,
            `${label}: ${m.move} shown as '${text}', solve ${m.value} ${m.dte}`);
    }
    return proven;
  };
  let rrProven = await checkRookrace('rook race start');
  // A pawn dropped from the reserve, then the other rook moved, by clicks.
  const rrDrop = 'P@b2';
  await clickMove(page, rrDrop, 'white');
  const rrAfterDrop = cli(['moves', '--variant', rookraceVariant, '--fen', rrStart, '--moves', rrDrop, '--json']);
  await waitReady(page, rrAfterDrop.fen);
  rrProven += await checkRookrace(`rook race after ${rrDrop}`);
  const rookMove = rrAfterDrop.moves.find((m) => !m.includes('@'));
  await clickMove(page, rookMove, 'black');
  const rrAfter = cli(['moves', '--variant', rookraceVariant, '--fen', rrAfterDrop.fen, '--moves', rookMove,
                       '--json']);
  await waitReady(page, rrAfter.fen);
  rrProven += await checkRookrace(`rook race after ${rrDrop} ${rookMove}`);
  check(rrProven > 0, 'rook race: no move\'s value to check');
  // The screenshot: White's rook selected, its targets marked.
  const rrRook =
      await page.$eval('.square .piece[data-piece="R"]', (e) => e.closest('.square').dataset.square);
  await page.click(`.square[data-square="${rrRook}"]`);
  fs.mkdirSync(path.dirname(rookraceScreenshot), {recursive: true});
  await page.screenshot({path: rookraceScreenshot, fullPage: true});
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log(`e2e: rook race ${rookraceVariant} checked, screenshot ${rookraceScreenshot}`);

  // 8. Royal Nardy on the same server (it needs no tables): the start still to roll, its 21 rolls
  // as `moves` gives them; a roll picked, its plays and values as `query` gives them; the best
  // play played by a click, into the position the server gives with it.
  const nardyStart = cli(['moves', '--variant', 'nardy', '--json']);
  await page.goto(`${spockUrl}?variant=nardy`);
  await waitReady(page, nardyStart.fen);
  check((await page.evaluate(() => document.body.dataset.game)) === 'nardy', 'Royal Nardy page not shown');
  check(await page.isHidden('#board'), 'Royal Nardy shows the chess board');
  await checkNardyBoard(page, nardyStart.fen, 'Nardy start');
  const rolls = await page.$$eval('#rolls .roll', (bs) => bs.map(
      (b) => `${b.dataset.roll} ${b.dataset.weight} ${b.dataset.plays}`));
  check(JSON.stringify(rolls) ===
            JSON.stringify(nardyStart.rolls.map((r) => `${r.roll} ${r.weight} ${r.plays}`)),
        `Nardy start: rolls shown ${rolls}`);
  await page.click('#rolls .roll[data-roll="6-4"]');
  const q64 = cli(['query', '--variant', 'nardy', '--fen', nardyStart.fen, '--roll', '6-4', '--json']);
  await waitReady(page, q64.fen);
  check((await page.$$('#dice .die')).length === 2, 'Nardy 6-4: two dice not shown');
  await checkNardyPlays(page, q64, 'Nardy start 6-4');
  // The play under the pointer shows where its checkers leave and land.
  await page.hover(`#play-list tr[data-play="${q64.best_play}"]`);
  await page.waitForSelector('.nardy-point.from');
  check((await page.$$('.nardy-point.to')).length > 0, 'Nardy: the play under the pointer marks no landing');
  await page.click(`#play-list tr[data-play="${q64.best_play}"]`);
  const afterBest = q64.plays.find((p) => p.play === q64.best_play).fen;
  await waitReady(page, afterBest);
  await checkNardyBoard(page, afterBest, `Nardy after ${q64.best_play}`);
  // Black rolls at random: whatever comes, its plays are query's.
  await page.click('#roll-dice');
  await page.waitForFunction(() => document.body.dataset.ready === 'yes' &&
                                 !document.body.dataset.fen.endsWith(' -'), null, {timeout: 15000});
  const blackRolled = await page.evaluate(() => document.body.dataset.fen);
  const qBlack = cli(['query', '--variant', 'nardy', '--fen', blackRolled, '--json']);
  await checkNardyPlays(page, qBlack, `Nardy ${blackRolled}`);
  await page.click(`#play-list tr[data-play="${qBlack.best_play}"]`);
  await waitReady(page, qBlack.plays.find((p) => p.play === qBlack.best_play).fen);
  const nardyHistory = await page.$$eval('#history li', (items) => items.map((i) => i.textContent));
  const wantHistory = [`6-4: ${q64.best_play}`, `${qBlack.roll}: ${qBlack.best_play}`];
  check(JSON.stringify(nardyHistory) === JSON.stringify(wantHistory),
        `Nardy game record ${nardyHistory}, want ${wantHistory}`);
  await page.click('#undo');
  await waitReady(page, blackRolled);
  await page.click('#redo');
  await waitReady(page, qBlack.plays.find((p) => p.play === qBlack.best_play).fen);
  await page.click('#undo');
  await waitReady(page, blackRolled);

  // A position with checkers on the bar, borne off and eaten: a play that enters hitting and eats
  // a royal checker changes the bar and eaten counts as the server says.
  await page.fill('#fen-input', nardyFen);
  await page.click('#load-fen');
  await waitReady(page, nardyFen);
  await checkNardyBoard(page, nardyFen, `Nardy ${nardyFen}`);
  await page.click(`#rolls .roll[data-roll="${nardyRoll}"]`);
  const qContact = cli(['query', '--variant', 'nardy', '--fen', nardyFen, '--roll', nardyRoll, '--json']);
  await waitReady(page, qContact.fen);
  await checkNardyPlays(page, qContact, `Nardy ${qContact.fen}`);
  const eats = qContact.plays.find((p) => p.fen.split(' ')[3] !== qContact.fen.split(' ')[3]);
  check(eats !== undefined, `${qContact.fen}: no play eats a royal checker`);
  if (eats) {
    await page.click(`#play-list tr[data-play="${eats.play}"]`);
    await waitReady(page, eats.fen);
    await checkNardyBoard(page, eats.fen, `Nardy after ${eats.play}`);
    await page.click('#undo');
    await waitReady(page, qContact.fen);
  }

  // A game's end: its points as query gives them, no dice and no plays.
  await page.fill('#fen-input', nardyEnd);
  await page.click('#load-fen');
  await waitReady(page, nardyEnd);
  const qEnd = cli(['query', '--variant', 'nardy', '--fen', nardyEnd, '--json']);
  const endShown = await page.evaluate(() => ({
    status: document.getElementById('status').textContent,
    points: document.getElementById('evaluation').dataset.value,
    plays: document.querySelectorAll('#play-list tbody tr').length,
    rolls: document.querySelectorAll('#rolls .roll').length,
  }));
  check(endShown.points === `${qEnd.points.white} ${qEnd.points.black}` &&
            endShown.status.includes(`White ${qEnd.points.white}, Black ${qEnd.points.black}`),
        `Nardy end: shown '${endShown.status}' (${endShown.points}), query ${JSON.stringify(qEnd.points)}`);
  check(endShown.plays === 0 && endShown.rolls === 0, 'Nardy end: plays or rolls offered');
  await checkNardyBoard(page, nardyEnd, 'Nardy end');
  // A bad FEN is reported and the position kept.
  await page.fill('#fen-input', 'P/./. 0/0 0/0 0/0 w -');
  await page.click('#load-fen');
  await page.waitForSelector('#error:not([hidden])');
  check((await page.evaluate(() => document.body.dataset.fen)) === nardyEnd,
        'bad Nardy FEN changed the position');

  // The player plays White: it rolls and plays its best play for that roll, as query names it.
  await page.fill('#fen-input', nardyStart.fen);
  await page.click('#load-fen');
  await waitReady(page, nardyStart.fen);
  await page.selectOption('#solver-side', 'white');
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 1 &&
                                 document.body.dataset.ready === 'yes', null, {timeout: 15000});
  await page.selectOption('#solver-side', 'none');
  const [solverRoll, solverPlay] = (await page.textContent('#history li')).split(': ');
  const qSolver =
      cli(['query', '--variant', 'nardy', '--fen', nardyStart.fen, '--roll', solverRoll, '--json']);
  check(solverPlay === qSolver.best_play,
        `Nardy solver played ${solverPlay} with ${solverRoll}, query ${qSolver.best_play}`);
  check((await page.evaluate(() => document.body.dataset.fen)) ===
            qSolver.plays.find((p) => p.play === qSolver.best_play).fen,
        'Nardy solver: position after its play is not the server\'s');

  // A rolled FEN pasted: its plays, and the rolls to pick from instead, its own marked.
  await page.fill('#fen-input', qContact.fen);
  await page.click('#load-fen');
  await waitReady(page, qContact.fen);
  await checkNardyPlays(page, qContact, `Nardy pasted ${qContact.fen}`);
  const current = await page.$$eval('#rolls .roll', (bs) => [bs.length, ...bs.filter(
      (b) => b.classList.contains('current')).map((b) => b.dataset.roll)]);
  check(JSON.stringify(current) === JSON.stringify([21, nardyRoll]), `Nardy pasted: rolls ${current}`);

  // The screenshot: the contact position, its roll picked, its best play under the pointer.
  await page.fill('#fen-input', nardyFen);
  await page.click('#load-fen');
  await waitReady(page, nardyFen);
  await page.click(`#rolls .roll[data-roll="${nardyRoll}"]`);
  await waitReady(page, qContact.fen);
  await page.hover(`#play-list tr[data-play="${qContact.best_play}"]`);
  await page.waitForSelector('.nardy-point.from');
  fs.mkdirSync(path.dirname(nardyScreenshot), {recursive: true});
  await page.screenshot({path: nardyScreenshot, fullPage: true});
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log(`e2e: Royal Nardy checked, screenshot ${nardyScreenshot}`);

  // 9. Nevsky checkers, the server started with --variant (its start solved in memory).
  server.kill('SIGTERM');
  const nevskyUrl = await startServer(null, ['--variant', nevskyVariant]);
  const nevskyStart = cli(['moves', '--variant', nevskyVariant, '--json']).fen;
  await page.goto(nevskyUrl);
  await waitReady(page, nevskyStart);
  check((await page.evaluate(() => document.body.dataset.drawing)) === 'corner_checkers',
        'Nevsky: the corner-checkers drawing not shown');
  check(await page.isHidden('#board'), 'Nevsky shows the chess board');
  await checkNevskyBoard(page, nevskyStart, 'Nevsky start');
  check((await page.$$('#checkers-board .cell.corner')).length === 4, 'Nevsky: four corners not marked');
  await checkNevskyValues(page, 'Nevsky start');
  // A step by clicks: the checker, then its landing cell, marked with the mover's value.
  const step = (await page.$$eval('#coalition-moves tbody tr', (trs) => trs.map((t) => t.dataset.move)))
                   .find((m) => m.includes('-'));
  const [stepFrom, stepTo] = step.split('-');
  await page.click(`#checkers-board .cell[data-cell="${stepFrom}"]`);
  await page.waitForSelector(`#checkers-board .cell[data-cell="${stepTo}"] .mark`);
  await page.click(`#checkers-board .cell[data-cell="${stepTo}"]`);
  const afterStep = cli(['moves', '--variant', nevskyVariant, '--fen', nevskyStart, '--moves', step, '--json']).fen;
  await waitReady(page, afterStep);
  await checkNevskyBoard(page, afterStep, `Nevsky after ${step}`);
  await checkNevskyValues(page, `Nevsky after ${step}`);
  // A pasted position (solved from itself): a capture of two opponents' checkers by clicks, each
  // landing in turn.
  await page.fill('#fen-input', nevskyCapture.fen);
  await page.click('#load-fen');
  await waitReady(page, nevskyCapture.fen);
  await checkNevskyValues(page, `Nevsky ${nevskyCapture.fen}`);
  // Plays a capture by clicks (its checker, then each landing) from its position, and checks the
  // position reached.
  const clickCapture = async ({fen, move, left}) => {
    const cells = move.split(':');
    await page.click(`#checkers-board .cell[data-cell="${cells[0]}"]`);
    for (const cell of cells.slice(1)) {
      await page.waitForSelector(`#checkers-board .cell[data-cell="${cell}"] .mark`);
      await page.click(`#checkers-board .cell[data-cell="${cell}"]`);
    }
    const after = cli(['moves', '--variant', nevskyVariant, '--fen', fen, '--moves', move, '--json']).fen;
    await waitReady(page, after);
    await checkNevskyBoard(page, after, `Nevsky after ${move}`);
    check((await page.$$('#checkers-board .checker')).length === left,
          `Nevsky: ${move} did not leave ${left} checkers`);
    const history = await page.$$eval('#history li', (items) => items.map((i) => i.textContent));
    check(history[history.length - 1] === move, `Nevsky game record ${history}`);
  };
  await clickCapture(nevskyCapture);
  // A king, crowned on the board, and its capture with a choice of landing.
  await page.fill('#fen-input', nevskyKing.fen);
  await page.click('#load-fen');
  await waitReady(page, nevskyKing.fen);
  await checkNevskyBoard(page, nevskyKing.fen, `Nevsky ${nevskyKing.fen}`);
  check((await page.$$('#checkers-board .checker[data-king="yes"] path')).length === 1,
        'Nevsky: the king is not crowned');
  await checkNevskyValues(page, `Nevsky ${nevskyKing.fen}`);
  await clickCapture(nevskyKing);
  const over = await page.textContent('#status');
  check(/over: White wins/.test(over), `Nevsky after the king's capture: '${over}'`);
  // The screenshot: four players, White's king, Red's checker selected, its landings marked.
  await page.click('#undo');
  await waitReady(page, nevskyKing.fen);
  await page.fill('#fen-input', nevskyShot);
  await page.click('#load-fen');
  await waitReady(page, nevskyShot);
  await checkNevskyValues(page, `Nevsky ${nevskyShot}`);
  await page.click('#checkers-board .cell[data-cell="44"]');
  await page.waitForSelector('#checkers-board .cell .mark');
  fs.mkdirSync(path.dirname(nevskyScreenshot), {recursive: true});
  await page.screenshot({path: nevskyScreenshot, fullPage: true});
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log(`e2e: Nevsky ${nevskyVariant} checked, screenshot ${nevskyScreenshot}`);

  // 10. Teeko, served from its loopy tier tables: the empty board and the positions after a drop
  // played by a click on an empty square, and a step played by clicks, match `drop16 query`.
  server.kill('SIGTERM');
  execFileSync(drop16, ['solve', '--variant', teekoVariant, '--tables', teekoTables, '--quiet', '--json'],
               {stdio: ['ignore', 'ignore', 'inherit']});
  const teekoUrl = await startServer(teekoTables);
  const teekoStart = cli(['moves', '--variant', teekoVariant, '--json']).fen;
  await page.goto(`${teekoUrl}?variant=${encodeURIComponent(teekoVariant)}`);
  await waitReady(page, teekoStart);
  check((await page.evaluate(() => document.body.dataset.game)) === 'teeko', 'Teeko page not shown');
  await checkAgainstCli(page, 'Teeko start', teekoTables);
  // A drop: the empty square carries the move's mark before anything is selected.
  await page.waitForSelector('.square[data-square="b2"][data-move="b2"] .mark');
  await page.click('.square[data-square="b2"]');
  const teekoDropped = cli(['moves', '--variant', teekoVariant, '--fen', teekoStart, '--moves', 'b2', '--json']);
  await waitReady(page, teekoDropped.fen);
  check((await page.$$('.spock-piece[data-piece="X"]')).length === 1, 'Teeko: the dropped piece not drawn');
  await checkAgainstCli(page, 'Teeko after b2', teekoTables);
  // A full board, Red one step from a 2x2 block: the step by clicks, then Black has lost.
  const teekoFull = 'XXX1/1OO1/1O2/X2O o';
  await page.fill('#fen-input', teekoFull);
  await page.click('#load-fen');
  await waitReady(page, teekoFull);
  await checkAgainstCli(page, `Teeko ${teekoFull}`, teekoTables);
  await page.click('.square[data-square="d1"]');
  fs.mkdirSync(path.dirname(teekoScreenshot), {recursive: true});
  await page.waitForSelector('.square[data-square="c2"][data-move="d1c2"] .mark');
  await page.screenshot({path: teekoScreenshot, fullPage: true});
  await page.click('.square[data-square="c2"]');
  const teekoWon = cli(['moves', '--variant', teekoVariant, '--fen', teekoFull, '--moves', 'd1c2', '--json']);
  await waitReady(page, teekoWon.fen);
  const teekoOver = await page.textContent('#status');
  check(/no move: Red wins/.test(teekoOver), `Teeko after d1c2: '${teekoOver}'`);
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log(`e2e: Teeko ${teekoVariant} checked, screenshot ${teekoScreenshot}`);

  // 11. Dobutsu shogi, served without tables: its pieces drawn as lettered discs, a capture by
  // clicks puts the Chick in Sente's hand (the box below the board), and the drop from it by
  // clicks, each position as `drop16 moves` plays it.
  server.kill('SIGTERM');
  const dobutsuUrl = await startServer(null, ['--variant', 'dobutsu']);
  const dobutsuStart = cli(['moves', '--variant', 'dobutsu', '--json']).fen;
  await page.goto(`${dobutsuUrl}?variant=dobutsu`);
  await waitReady(page, dobutsuStart);
  check((await page.evaluate(() => document.body.dataset.game)) === 'dobutsu',
        'Dobutsu page not shown');
  check((await page.$$('#board .spock-piece')).length === 8, 'Dobutsu: 8 pieces not drawn');
  let dobutsuFen = dobutsuStart;
  for (const move of ['b2b3', 'b4b3']) {
    const from = move.slice(0, 2), to = move.slice(2);
    await page.click(`.square[data-square="${from}"]`);
    await page.waitForSelector(`.square[data-square="${to}"][data-move="${move}"]`);
    await page.click(`.square[data-square="${to}"]`);
    dobutsuFen = cli(['moves', '--variant', 'dobutsu', '--fen', dobutsuFen, '--moves', move, '--json']).fen;
    await waitReady(page, dobutsuFen);
  }
  await page.click('#hand-white .hand-piece[data-piece="C"]');
  await page.waitForSelector('.square[data-square="b2"][data-move="C@b2"]');
  await page.click('.square[data-square="b2"]');
  dobutsuFen = cli(['moves', '--variant', 'dobutsu', '--fen', dobutsuFen, '--moves', 'C@b2', '--json']).fen;
  await waitReady(page, dobutsuFen);
  check(dobutsuFen === 'g1e/1l1/1C1/ELG[c] b', `Dobutsu after C@b2: ${dobutsuFen}`);
  check((await page.$$('#hand-black .hand-piece[data-piece="C"]')).length === 1,
        "Dobutsu: Gote's Chick in hand not drawn");
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  console.log('e2e: Dobutsu shogi checked');
} catch (e) {
  failures++;
  console.error(`FAIL: ${e.stack || e}`);
} finally {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
  fs.rmSync(work, {recursive: true, force: true});
}
if (failures) {
  console.error(`e2e: ${failures} failure(s)`);
  process.exit(1);
}
console.log('e2e: all checks passed');
