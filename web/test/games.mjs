// Every game on the page (issue 33 §5), driven through the DOM: chosen in the game
// selector (solved in the browser: the time is measured), then a full game from each
// side against `perfect`, moves made as a person makes them (a click, a click in the
// column, or the piece and then its point, by two clicks or a drag); every shown
// position's move values equal `tictable analyse --game G`; the engine's replies are
// best moves; Undo, Redo and New game leave someone to move.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const GAMES = ["misere", "mnk:4,3,3", "mnk:4,4,3", "mnk:4,4,4", "connect4:4x4", "connect4:5x4", "connect4:4x5",
  "three-mens-morris", "tapatan", "achi", "hexapawn"];

// `tictable analyse --game G --json` on many positions, one answer per line.
// Games too big to solve on demand get their table written once (`tictable solve
// --game G --out DIR`) and passed with --table.
const tables = new Map(), tableDir = mkdtempSync(join(tmpdir(), "tictable-web-games-"));
export const cli = (tictable, game, positions) => {
  const run = extra => {
    const t = Date.now(), r = spawnSync(tictable, ["analyse", "--game", game, "--json", ...extra, ...positions], { maxBuffer: 1 << 26 });
    if (globalThis.webTestTimes) globalThis.webTestTimes.cli += Date.now() - t;
    return r;
  };
  let r = run(tables.get(game) || []);
  const need = /--table ([^\s`]+)/.exec(r.stderr.toString());
  if (!r.stdout.length && need) {
    spawnSync(tictable, ["solve", "--game", game, "--no-strategy", "--out", tableDir]);
    tables.set(game, ["--table", need[1].replace("DIR", tableDir)]);
    r = run(tables.get(game));
  }
  if (!r.stdout.length) throw new Error(`tictable analyse --game ${game}: ${r.stderr}`);
  return r.stdout.toString().trim().split("\n").map(l => JSON.parse(l));
};

// Watch: perfect play stepped with Next to the end; each ply's move is one of the
// CLI's best moves, its value in the words is the CLI's, and the line lasts exactly
// the start's remoteness (a draw: to the full board or, in games with repeats, as
// the line goes). Returns the plies watched.
export async function watchTest(page, check, tictable, game) {
  await page.click("#watch");
  // Next pressed in the page until it is disabled (one round trip), each ply checked
  // here, against one `tictable analyse` of all the positions.
  const { start, steps } = await page.evaluate(() => {
    const start = posAt(0), steps = [], next = document.getElementById("w-next");
    for (let k = 0; k < 200 && !next.disabled; k++) {
      const before = posAt(cursor);
      next.click();
      steps.push({ before, text: document.getElementById("why").textContent });
    }
    return { start, steps };
  });
  const pos = p => game === "tictactoe" ? p.position.match(/.{3}/g).join("/") : p.position;
  const answers = steps.length ? cli(tictable, game, steps.map(s => pos(s.before))) : [];
  const k = steps.length;
  steps.forEach(({ before, text }, ply) => {
    const m = /^Ply (\d+): (X|O) plays (\S+), which (keeps the draw|wins in \d+|loses in \d+)/.exec(text);
    const c = answers[ply];
    const name = m && (game === "tictactoe" ? String(+m[3] - 1) : m[3]);
    // The CLI names moves 0-based (Api); the page as people do: compare through the move list.
    const idx = m ? (game === "tictactoe" ? c.moves.findIndex(x => x.move === name) : before.moves.findIndex(x => x.m === m[3])) : -1;
    const cm = c.moves[idx];
    const want = cm && (cm.value === "draw" ? "keeps the draw" : `${cm.value === "win" ? "wins" : "loses"} in ${cm.remoteness}`);
    check(m && +m[1] === ply + 1 && m[2] === before.to_move && cm && c.best.includes(cm.move) && m[4] === want,
      `${game} watch ply ${ply + 1}: "${text.slice(0, 80)}" is a best move of ${pos(before)} worth ${want}`);
  });
  const end = await page.evaluate(() => posAt(cursor));
  check(end.terminal && (start.outcome === "draw" || k === start.plies), `${game} watch: ${k} plies to the end (start: ${start.outcome} in ${start.plies})`);
  await page.click("#w-back");
  check((await page.evaluate(() => cursor)) === k - 1, `${game} watch: Back steps back`);
  await page.click("#watch");
  return k;
}


// Puzzles (issue 39, the teacher): the panel's counts per remoteness, then two
// puzzles at the deepest remoteness, one answered with the one move that keeps the
// win (the CLI's only best move, its value a win; in a game without repeats the only
// move the CLI calls a win) and one with another move, whose verdict must be the
// CLI's value of that move. `live`: a board searched live (no counts: every odd
// remoteness offered; its puzzles, found by the search, served at remoteness `live`).
// Returns the counts' text.
export async function puzzleTest(page, check, tictable, game, live) {
  const api = pos => game === "tictactoe" ? pos.replace(/\./g, ".") : pos;
  const ready = () => page.waitForSelector("#puzzles:not([data-busy])", { timeout: 120000 });
  await page.click("#pz-new"); await ready();
  const counts = JSON.parse(await page.getAttribute("#pz-counts", "data-counts")), repeats = await page.evaluate(() => GAME !== "tictactoe" && gsum.repeats);
  check(counts.length > 0 && counts.every(c => live ? c.remoteness % 2 === 1 && (c.positions === null || c.positions >= c.classes) : c.remoteness > 0 && c.positions >= c.classes), `${game} puzzles counted: ${JSON.stringify(counts)}`);
  const deepest = String(live || counts[counts.length - 1].remoteness), found = [];
  for (const solve of [true, false]) {
    await page.selectOption("#pz-r", deepest);
    const t0 = Date.now();
    await page.click("#pz-new"); await ready();
    if (live) found.push(Date.now() - t0);
    const pz = await page.evaluate(() => pz);
    if (pz.error) { check(false, `${game} puzzle won in ${deepest}: ${pz.error}`); continue; }
    const c = cli(tictable, game === "tictactoe" ? "tictactoe" : game, [api(pz.position)])[0];
    const wins = c.moves.filter(m => m.value === "win").length;
    check(c.value === "win" && c.remoteness === pz.remoteness && String(pz.remoteness) === deepest && c.best.length === 1 && (repeats || wins === 1) && c.moves.length === pz.moves.length,
      `${game} puzzle ${pz.position}: the CLI says ${c.value} in ${c.remoteness}, best ${c.best}, ${wins} winning moves`);
    const right = c.moves.findIndex(m => m.move === c.best[0]);
    const i = solve ? right : (right + 1) % c.moves.length;
    if (!solve) { await page.click("#pz-hint"); check((await page.textContent("#pz-status")).includes(pz.moves[right].m), `${game} puzzle hint names the answer`); }
    await page.click(`#pz-moves button[data-i='${i}']`);
    const verdict = await page.getAttribute("#pz-status", "data-verdict"), text = await page.textContent("#pz-status");
    // A wrong answer in the one wording of a mistake (the terminal's too), the move counted.
    const m = c.moves[i], want = m.value === "draw" ? "draws" : `${m.value === "win" ? "wins" : "loses"} in ${m.remoteness}`;
    const said = `Not it: ${pz.moves[i].m} ${want} is a mistake where ${pz.moves[right].m} wins in ${pz.remoteness}.`;
    check(solve ? verdict === "solved" && text.startsWith("Solved") : verdict === "failed" && text === said,
      `${game} puzzle ${solve ? "solved" : "failed"}: "${text}" (CLI: ${solve ? "solved" : said})`);
  }
  return live ? `${game} win in ${live} found live in ${found.join(" and ")} ms` : `${game} ${counts.map(c => c.remoteness + ":" + c.positions).join("/")}`;
}

// Keys beyond nine cells (issue 39): the person's move of the highest-numbered
// destination typed on the page as its number (Connect Four: its column; a slide:
// the piece's number, then its point's; 10 and up as two digits); the position
// after it must be that move's child.
export async function keyTest(page, check, game) {
  const t = await page.evaluate(() => {
    const a = posAt(cursor), w = grid(a.position)[0].length, c4 = GAME.startsWith("connect4");
    const e = a.moves.map((m, k) => ({ k, ...effect(a, m) })).sort((x, y) => y.to - x.to)[0];
    const keys = [...(e.from >= 0 ? [e.from + 1] : []), c4 ? e.to % w + 1 : e.to + 1];
    return { keys, child: a.moves[e.k].child, cursor, line: document.getElementById("keys-line").textContent };
  });
  await page.click("h1");
  // (A digit that may begin a two-digit number waits a second for the next: until
  // the page has played it or given up waiting.)
  for (const n of t.keys) { for (const d of String(n)) await page.keyboard.press(d); if (n < 10) await page.waitForFunction(() => pending === null); }
  const after = await page.evaluate(c => posAt(c + 1).position, t.cursor);
  check(after === t.child, `${game}: keys ${t.keys.join(" then ")} play the move to ${t.child} (got ${after}); key line: ${t.line}`);
}

// "Why was that a mistake" (issue 39, the teacher): as X against perfect, best moves
// until a move gives away value, then that move; the button plays the refutation
// from the position after it, each ply one of `tictable analyse --game G`'s best
// moves, to the end; "Back to the game" gives the game back as it was.
export async function refuteTest(page, check, tictable, game) {
  await page.selectOption("#side", "X"); await page.selectOption("#level", "3"); await page.fill("#rate", "0");
  await page.click("#new");
  const bad = await page.evaluate(() => {
    for (let n = 0; n < 40; n++) {
      const a = posAt(cursor); if (a.terminal) return null;
      const c = choices(cursor), worse = c.find(x => kind(x.value) !== kind(c.find(y => y.best).value) && (kind(x.value) === "lose" || kind(c.find(y => y.best).value) === "win"));
      if (worse) { const ply = cursor + 1; play(worse.i); return { ply, value: worse.value }; }
      play(c.find(x => x.best).i);
    }
    return null;
  });
  if (!bad) return check(false, `${game}: no move that gives away value found`);
  const game0 = await page.evaluate(() => ({ moves: moves.slice(), cursor }));
  check(await page.isVisible("#mistake"), `${game}: after a move worth ${bad.value}, "Why was that a mistake?" is offered`);
  await page.click("#mistake");
  const from = await page.evaluate(() => cursor);
  check(from === bad.ply, `${game}: the refutation starts after the mistake (ply ${from}, the mistake's ${bad.ply})`);
  // What the mistake was, in the one wording of a mistake (the terminal's too), from
  // the CLI's values of the position before it, each count the move included.
  const said = await page.evaluate(k => ({ status: document.getElementById("status").textContent, before: posAt(k - 1), mv: moves[k - 1] }), from);
  {
    const b = said.before, p = game === "tictactoe" ? b.position.match(/.{3}/g).join("/") : b.position, c = cli(tictable, game, [p])[0];
    const idx = game === "tictactoe" ? c.moves.findIndex(x => x.move === String(said.mv)) : said.mv;
    const name = j => game === "tictactoe" ? String(+c.moves[j].move + 1) : b.moves[j].m;
    const verb = (x, one, kept) => (x.value === "draw" ? (kept ? "keep the draw" : "draw") : `${x.value === "win" ? "win" : "lose"} in ${x.remoteness}`).replace(/^\w+/, w => one ? w + "s" : w);
    const best = c.moves.flatMap((x, j) => c.best.includes(x.move) ? [j] : []);
    const want = `${name(idx)} ${verb(c.moves[idx], true)} is a mistake where ${best.map(name).join(", ")} ${verb(c.moves[best[0]], best.length === 1, true)}.`;
    check(said.status.startsWith(want + " The refutation: "), `${game}: the refutation says "${said.status}", the CLI's values "${want}"`);
  }
  // Next pressed in the page until it is disabled (one round trip), each ply checked
  // here, against one `tictable analyse` of all the positions.
  const steps = await page.evaluate(() => {
    const steps = [], next = document.getElementById("w-next");
    for (let k = 0; k < 100 && !next.disabled; k++) {
      const before = posAt(cursor);
      next.click();
      steps.push({ before, mv: moves[cursor - 1] });
    }
    return steps;
  });
  const k = steps.length, pos = p => game === "tictactoe" ? p.position.match(/.{3}/g).join("/") : p.position;
  const answers = k ? cli(tictable, game, steps.map(s => pos(s.before))) : [];
  steps.forEach(({ before, mv }, ply) => {
    const c = answers[ply], name = game === "tictactoe" ? String(mv) : c.moves[mv].move;
    check(c.best.includes(name), `${game} refutation ply ${from + ply + 1}: ${name} is a best move of ${pos(before)} (${c.best})`);
  });
  const end = await page.evaluate(() => ({ t: posAt(cursor).terminal, status: document.getElementById("status").textContent }));
  check(end.t && /refutation/.test(end.status), `${game}: the refutation is played to the end (${k} plies): ${end.status}`);
  await page.click("#watch");
  const back = await page.evaluate(() => ({ moves: moves.slice(), cursor, status: document.getElementById("status").textContent }));
  check(JSON.stringify(back.moves) === JSON.stringify(game0.moves) && back.cursor === game0.cursor && /Your move|wins|Draw/.test(back.status), `${game}: back to the game as it was: ${back.status}`);
  return k;
}

// The picture of the games (docs/web.png): Connect Four 4x4 at 1280 px, four moves
// into a game against perfect with the hints on, and a puzzle of the same game
// served below, from the play panel's top to the puzzles panel's bottom.
export async function gamesPicture(page, path) {
  await page.selectOption("#game", "connect4:4x4");
  await page.waitForSelector("#gboard[data-game='connect4:4x4']");
  await page.selectOption("#side", "X"); await page.selectOption("#level", "3"); await page.fill("#rate", "0");
  await page.click("#new");
  await page.evaluate(() => { for (let n = 0; n < 2; n++) play(choices(cursor).find(x => x.best).i); });
  await page.click("#pz-new"); await page.selectOption("#pz-r", "5"); await page.click("#pz-new");
  const clip = await page.evaluate(() => {
    const p = document.getElementById("play").getBoundingClientRect(), q = document.getElementById("puzzles").getBoundingClientRect();
    return { x: p.x + scrollX, y: p.y + scrollY, width: p.width, height: q.bottom - p.top };
  });
  await page.screenshot({ path, fullPage: true, clip });
}
export async function gamesTest(page, check, tictable, axe, picture) {
  const times = [], rows = [];
  const watched = [`tictactoe ${await watchTest(page, check, tictable, "tictactoe")}`];
  const puzzles = [await puzzleTest(page, check, tictable, "tictactoe")];
  await refuteTest(page, check, tictable, "tictactoe");
  globalThis.webTestLap?.("games tictactoe");
  const view = () => page.evaluate(() => ({ ...posAt(cursor), status: document.getElementById("status").textContent, cursor, n: moves.length }));
  for (const game of GAMES) {
    await page.selectOption("#game", game);
    await page.waitForSelector(`#gboard[data-game='${game}']`, { timeout: 60000 });
    // Choosing a game starts a new one with someone to move: the person, or the engine opening.
    const chosen = await view(), you = await page.inputValue("#side");
    check(chosen.status === `Your move (${you})` && chosen.cursor === (you === "X" ? 0 : 1), `${game} chosen as ${you}: ${chosen.status}, ${chosen.cursor} plies`);
    const ms = await page.getAttribute("#game", "data-ms"), sum = await page.evaluate(() => gsum);
    times.push(`${game} ${ms} ms`);
    puzzles.push(await puzzleTest(page, check, tictable, game));
    await keyTest(page, check, game);
    if (["misere", "mnk:4,3,3", "connect4:4x4"].includes(game)) await refuteTest(page, check, tictable, game);
    rows.push(`| \`${game}\` | ${sum.positions.toLocaleString("en-US")} | ${sum.start === "draw" ? "draw" : `${sum.start} in ${sum.start_remoteness}`} | ${sum.table_bytes.toLocaleString("en-US")} B | ${ms} ms |`);
    const shown = [];
    for (const side of ["X", "O"]) {
      await page.selectOption("#side", side); await page.selectOption("#level", "3"); await page.fill("#rate", "0");
      await page.click("#new");
      let v = await view(), plies = 0, mistake = !/morris|tapatan|achi/.test(game), drag = side === "O";
      while (!v.terminal && plies < 80) {
        check(v.to_move === side && v.status === `Your move (${side})`, `${game} as ${side}: the person is asked: ${v.status}`);
        shown.push(v);
        // The test plays a best move, and once (in games without repeats) a move that is not best.
        let k = v.moves.findIndex(m => m.best);
        if (mistake && v.moves.some(m => !m.best)) { k = v.moves.findIndex(m => !m.best); mistake = false; }
        const { from, to } = await page.evaluate(([p, k]) => effect(p, p.moves[k]), [v, k]);
        const w = v.position.split(" ")[0].split("/")[0].length;
        const cell = i => `#gboard button[data-i='${i}']`;
        if (from >= 0 && drag) { await page.dragAndDrop(cell(from), cell(to)); drag = false; }
        else if (from >= 0) { await page.click(cell(from)); await page.click(cell(to)); }
        else await page.click(cell(game.startsWith("connect4") ? to % w : to));
        const before = v.position;
        v = await view(); plies++;
        check(v.cursor >= 1, `${game}: the move was played`);
        const played = await page.evaluate(() => posAt(cursor - (posAt(cursor - 1).to_move === humanSide() ? 0 : 1)));
        if (v.cursor >= 2 && !(await page.evaluate(() => posAt(cursor - 1).to_move === humanSide()))) {
          const engine = await page.evaluate(() => { const p = posAt(cursor - 1); return p.moves[moves[cursor - 1]]; });
          check(engine.best, `${game}: perfect replied ${engine.m} after ${before}, a best move`);
        }
        void played;
        if (plies === 2) {
          // Undo, redo and New game mid-game: someone is always to move (here the person).
          await page.click("#undo");
          let u = await view(); check(u.status === `Your move (${side})`, `${game} as ${side}: undo mid-game leaves the person to move: ${u.status}`);
          await page.click("#redo"); u = await view(); check(/Your move|wins|Draw/.test(u.status), `${game}: redo: ${u.status}`);
          v = u;
        }
      }
      check(v.terminal && /wins|Draw/.test(v.status), `${game} as ${side}: the game ended and was announced: ${v.status}`);
      shown.push(v);
      if (v.winner && game !== "hexapawn") {
        // The line that ended it: the winner's (misère: the loser's three), in the
        // loss colour when the person lost, and said in words.
        const k = game.startsWith("mnk") ? +game.split(",")[2] : game.startsWith("connect4") ? 4 : 3;
        const owner = game === "misere" ? { X: "O", O: "X" }[v.winner] : v.winner, cells = v.position.split(" ")[0].replaceAll("/", "");
        const line = await page.$$eval("#gboard button.line", bs => bs.map(b => ({ i: +b.dataset.i, lost: b.classList.contains("lost"), text: b.textContent })));
        check(line.length >= k && line.every(l => cells[l.i] === owner && l.lost === (v.winner !== side) && /winning line|three in a line/.test(l.text)),
          `${game} as ${side}: the line of ${v.winner}'s win marked: ${JSON.stringify(line)}`);
      }
      await page.click("#undo");
      let u = await view(); check(u.status === `Your move (${side})`, `${game} as ${side}: undo at the end: ${u.status}`);
      await page.click("#new"); u = await view();
      check(u.cursor === (side === "X" ? 0 : 1) && u.status === `Your move (${side})`, `${game} as ${side}: New game: ${u.status}, ${u.cursor} plies`);
    }
    // You play and Engine mid-game: switching to the side that just moved puts the
    // engine on move, and it moves at once; a new level leaves the person to move.
    await page.selectOption("#side", "X"); await page.click("#new");
    const first = (await view()).moves.findIndex(m => m.best);
    const fx = await page.evaluate(k => { const p = posAt(cursor); return effect(p, p.moves[k]); }, first);
    if (fx.from < 0) {
      await page.click(`#gboard button[data-i='${fx.to}']`);
      await page.selectOption("#side", "O");
      let u = await view(); check(u.status === "Your move (O)" && u.cursor === 3, `${game}: You play O mid-game, the engine moved as X: ${u.status}, ${u.cursor} plies`);
      await page.selectOption("#level", "0");
      u = await view(); check(u.status === "Your move (O)", `${game}: Engine random mid-game: ${u.status}`);
      await page.selectOption("#level", "3");
    }
    watched.push(`${game} ${await watchTest(page, check, tictable, game)}`);
    // Every shown position's values as `tictable analyse --game G` gives them.
    const answers = cli(tictable, game, shown.map(s => s.position));
    shown.forEach((s, i) => {
      const c = answers[i];
      check(c.position === s.position && c.terminal === s.terminal, `${game}: ${s.position} is the CLI's ${c.position}`);
      if (s.terminal) return;
      check(c.value === s.outcome && (c.remoteness ?? 0) === (s.value === "draw" ? 0 : s.remoteness || 0) || c.value === s.outcome,
        `${game} ${s.position}: ${s.outcome} vs the CLI's ${c.value}`);
      s.moves.forEach((m, j) => {
        const want = c.moves[j].value === "draw" ? "draw" : `${c.moves[j].value} in ${c.moves[j].remoteness}`;
        check(m.value === want, `${game} ${s.position} move ${m.m}: page ${m.value}, CLI ${want}`);
        check(m.best === c.best.includes(c.moves[j].move), `${game} ${s.position} move ${m.m}: best on the page and in the CLI`);
      });
    });
    if (axe) await axe(page, `index.html, ${game}`);
    globalThis.webTestLap?.(`games ${game}`);
  }
  if (picture) await gamesPicture(page, picture);
  await page.selectOption("#game", "tictactoe");
  await page.waitForSelector("#gboard[data-game='tictactoe']", { state: "attached" });
  return { times, rows, watched, puzzles };
}
