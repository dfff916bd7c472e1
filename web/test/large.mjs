// Connect Four 4x6, 6x4 and 5x5 (issues 33 and 39): their tables (260 to 992 MB)
// are too large for the page, which searches each position live (web/src/games.rs
// `Live`, tictable_games::search). For each board: chosen in the selector (its start
// searched, timed), the start's value Tromp's, the levels that need the whole table
// not offered and the page saying so, a puzzle found by the search solved and one
// failed, Watch stepped to the end, a full game from each side against
// perfect (moves by column clicks, one of them not a best move), every engine reply a
// best move, and every shown position's values and best moves equal to the solver's
// table (`tictable analyse --game G --table`, the table solved once by `tictable
// solve`), axe-core clean on each board; each view's search time in the page is
// measured (the `ms` of `gview`).
import { readFileSync } from "node:fs";
import { cli, puzzleTest, watchTest } from "./games.mjs";

// John Tromp's table of Connect Four results by board size (tromp.github.io/c4/c4.html):
// 4x6 (width 4, height 6) and 5x5 are draws ("="), 6x4 a second-player win ("-"); its
// length, the second player's win with the 24th piece, from ChristopheSteininger/c4's
// README table of outcomes by board size ("2nd (24)").
export const LARGE = { "connect4:4x6": "draw", "connect4:6x4": "loss in 24", "connect4:5x5": "draw" };

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function largeTest(page, check, tictable, axe) {
  const times = [], rows = [], watched = [], puzzles = [], t0 = Date.now();
  const view = () => page.evaluate(() => ({ ...posAt(cursor), status: document.getElementById("status").textContent, cursor }));
  for (const [game, tromp] of Object.entries(LARGE)) {
    await page.selectOption("#game", game);
    await page.waitForSelector(`#gboard[data-game='${game}']`, { timeout: 120000 });
    const ms = +(await page.getAttribute("#game", "data-ms")), sum = await page.evaluate(() => gsum);
    const start = sum.start === "draw" ? "draw" : `${sum.start} in ${sum.start_remoteness}`;
    check(sum.live && sum.positions === null && start === tromp, `${game}: searched live, the start ${start} (Tromp: ${tromp})`);
    const info = await page.textContent("#game-info");
    check(info.includes("searched live") && info.includes(tromp === "draw" ? "first player draws" : "first player loses in 24 plies"), `${game}: the page says how it plays: ${info}`);
    const offered = await page.$$eval("#level option", os => os.filter(o => !o.disabled).map(o => o.value));
    check(offered.join() === "0,3", `${game}: the levels offered are random and perfect (${offered})`);
    await page.selectOption("#level", "3");
    check((await page.textContent("#level-rates")).includes("need the whole table"), `${game}: the page says why sharp, gentle and adaptive are not offered`);
    // Puzzles found by the search (no table to count them): one solved and one failed,
    // each position and verdict as `tictable analyse --game G` (the search) has them.
    puzzles.push(await puzzleTest(page, check, tictable, game, 11));
    check((await page.textContent("#pz-counts")).includes("Found live"), `${game}: the page says how its puzzles are found`);
    // Their exact counts, from the solved table: docs/puzzles.md's, remoteness by remoteness.
    const shownCounts = JSON.parse(await page.getAttribute("#pz-counts", "data-counts")).map(c => `${c.remoteness}: ${c.classes} / ${c.positions}`).join(", ");
    const docRow = readFileSync(new URL("../../docs/puzzles.md", import.meta.url), "utf8").split("\n").find(l => l.startsWith(`| ${game} |`));
    check(docRow && docRow.split("|")[4].trim() === shownCounts, `${game}: the page's puzzle counts ${shownCounts} are docs/puzzles.md's`);
    const shown = [], viewMs = [];
    for (const side of ["X", "O"]) {
      await page.selectOption("#side", side); await page.fill("#rate", "0");
      await page.click("#new");
      let v = await view(), plies = 0, mistake = true;
      while (!v.terminal && plies < 40) {
        check(v.to_move === side && v.status === `Your move (${side})`, `${game} as ${side}: the person is asked: ${v.status}`);
        shown.push(v);
        // A best move, and once a move that is not best (where there is one).
        let k = v.moves.findIndex(m => m.best);
        if (mistake && v.moves.some(m => !m.best)) { k = v.moves.findIndex(m => !m.best); mistake = false; }
        const w = v.position.split("/")[0].length;
        const to = await page.evaluate(([p, k]) => effect(p, p.moves[k]).to, [v, k]);
        await page.click(`#gboard button[data-i='${to % w}']`);
        v = await view(); plies++;
        const reply = await page.evaluate(() => { const p = posAt(cursor - 1); return p.to_move === humanSide() ? null : p.moves[moves[cursor - 1]]; });
        if (reply) check(reply.best, `${game} as ${side}: perfect replied ${reply.m}, a best move`);
        if (plies === 2) {
          // Undo and Redo mid-game from the search: someone is always to move (here the person).
          await page.click("#undo");
          let u = await view(); check(u.status === `Your move (${side})`, `${game} as ${side}: undo mid-game leaves the person to move: ${u.status}`);
          await page.click("#redo"); u = await view(); check(/Your move|wins|Draw/.test(u.status), `${game} as ${side}: redo: ${u.status}`);
          v = u;
        }
      }
      check(v.terminal && /wins|Draw/.test(v.status), `${game} as ${side}: the game ended and was announced: ${v.status}`);
      shown.push(v);
      viewMs.push(...await page.evaluate(() => [...Array(cursor + 1).keys()].map(k => posAt(k).ms)));
      // Undo at the end and New game: the person is asked again.
      await page.click("#undo");
      let u = await view(); check(u.status === `Your move (${side})`, `${game} as ${side}: undo at the end: ${u.status}`);
      await page.click("#new"); u = await view();
      check(u.cursor === (side === "X" ? 0 : 1) && u.status === `Your move (${side})`, `${game} as ${side}: New game: ${u.status}, ${u.cursor} plies`);
    }
    // Every shown position as the solver's table has it.
    const answers = cli(tictable, game, shown.map(s => s.position));
    shown.forEach((s, i) => {
      const c = answers[i];
      check(c.position === s.position && c.terminal === s.terminal, `${game}: ${s.position} is the CLI's ${c.position}`);
      if (s.terminal) return;
      check(c.value === s.outcome && (c.value === "draw" || c.remoteness === s.remoteness), `${game} ${s.position}: ${s.outcome} in ${s.remoteness}, the CLI's ${c.value} in ${c.remoteness}`);
      s.moves.forEach((m, j) => {
        const want = c.moves[j].value === "draw" ? "draw" : `${c.moves[j].value} in ${c.moves[j].remoteness}`;
        check(m.value === want, `${game} ${s.position} move ${m.m}: page ${m.value}, CLI ${want}`);
        check(m.best === c.best.includes(c.moves[j].move), `${game} ${s.position} move ${m.m}: best on the page and in the CLI`);
      });
    });
    // Watch: perfect play stepped to the end, every ply's value and move the CLI's.
    watched.push(`${game} ${await watchTest(page, check, tictable, game)}`);
    if (axe) await axe(page, `index.html, ${game}`);
    const mid = viewMs.filter((_, k) => k > 0);
    rows.push(`| \`${game}\` | searched live | ${start} | ${(sum.table_bytes / 1048576).toFixed(0)} MiB (search) | the start ${ms} ms, then each position ${Math.max(...mid).toFixed(0)} ms at most |`);
    times.push(`${game} start ${ms} ms + view ${viewMs[0].toFixed(0)} ms, mid-game views median ${median(mid).toFixed(1)} ms, max ${Math.max(...mid).toFixed(0)} ms (${shown.length} positions = the solver's table)`);
  }
  await page.selectOption("#game", "tictactoe");
  await page.waitForSelector("#gboard[data-game='tictactoe']", { state: "attached" });
  return { times, rows, watched, puzzles, seconds: Math.round((Date.now() - t0) / 1000) };
}
