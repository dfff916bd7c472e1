// The levels on the page for every game (issue 36): which levels the selector offers
// per game, each level's exact win rates beside it equal to docs/players.json (or
// "No exact win rates" where that file has none), a full game of every offered level
// from each side against a person playing at random in which the never-losing levels
// never give away value (each engine move checked against `tictable analyse --game
// G`), the searching levels' openings and replies to every first move among the
// CLI's own (`tictable play --plain`, the same players: a level the page ignored
// plays other moves), and adaptive's
// estimate of the person shown and rising after a move that gives away value.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { GAMES, cli } from "./games.mjs";

const PLAYERS = JSON.parse(readFileSync(new URL("../../docs/players.json", import.meta.url), "utf8"));
// Tic-tac-toe's easy, medium and trap (the engine crate's levels) are in docs/players.md's
// table only (written by the same scripts/players-table): their rows against random.
const TABLE_MD = (() => {
  const md = readFileSync(new URL("../../docs/players.md", import.meta.url), "utf8");
  const block = md.slice(md.indexOf("<!-- players-table: begin"), md.indexOf("<!-- players-table: end"));
  const rows = {};
  for (const [, level, side, ...wdl] of block.matchAll(/^\| `([\w:.]+)` \| ([XO]) \| `random` \| ([^|(]+)\([^|]*\| ([^|(]+)\([^|]*\| ([^|(]+)\(/gm))
    (rows[level] ??= {})[side] = wdl.map(f => f.trim());
  return rows;
})();
const NAMES = ["random", "easy", "medium", "perfect", "trap", "sharp", "gentle", "adaptive"];
// The games whose table the page searches (no repeats, at most 200,000 positions:
// web/src/games.rs SEARCH_LIMIT): sharp, gentle and adaptive are offered there.
const SEARCHING = ["tictactoe", "misere", "mnk:4,3,3", "connect4:4x4", "hexapawn"];
// The levels that never give away value (perfect and trap at mistake rate 0).
const KEEPS = [3, 4, 5, 6, 7];
const pct = f => { const [a, b = 1] = f.split("/").map(Number); return (100 * a / b).toFixed(2); };

// The openings the CLI's engine plays at `level` as X in `n` games of one `tictable
// play --plain` (`n` new games typed; move names as people write them).
function cliOpenings(tictable, game, level, n) {
  const args = ["play", "--plain", "--x", level, "--o", "human", "--seed", "1", ...(game === "tictactoe" ? [] : ["--game", game])];
  // (Tic-tac-toe asks before discarding a game: y.)
  const t = Date.now();
  const out = spawnSync(tictable, args, { input: "n\ny\n".repeat(n), maxBuffer: 1 << 26 }).stdout.toString();
  if (globalThis.webTestTimes) globalThis.webTestTimes.cli += Date.now() - t;
  return new Set([...out.matchAll(/\) plays ([0-9-]+)/g)].map(m => m[1]));
}

// The replies the CLI's engine plays at `level` as O after X's `first` in `n` games.
function cliReplies(tictable, game, level, first, n) {
  const args = ["play", "--plain", "--x", "human", "--o", level, "--seed", "1", ...(game === "tictactoe" ? [] : ["--game", game])];
  const t = Date.now();
  // `n` mid-game asks "discard it?" in every game's plain mode: `y` answers.
  const out = spawnSync(tictable, args, { input: (first + "\nn\ny\n").repeat(n), maxBuffer: 1 << 26 }).stdout.toString();
  if (globalThis.webTestTimes) globalThis.webTestTimes.cli += Date.now() - t;
  return new Set([...out.matchAll(/\) plays ([0-9-]+)/g)].map(m => m[1]));
}

// The person plays move `k` of the position shown (in tic-tac-toe square `k`) as a
// person does: a click, a click in the column, or the piece and then its point (the
// buttons' own click events, dispatched in the page: the engine answers within the
// click, so a whole game takes one round trip).
const IN_PAGE = () => {
  window.personMove = k => {
    if (GAME === "tictactoe") return document.querySelector(`#board button[data-i='${k}']`).click();
    const a = posAt(cursor), { from, to } = effect(a, a.moves[k]), w = grid(a.position)[0].length;
    const cell = i => document.querySelector(`#gboard button[data-i='${i}']`);
    if (from >= 0) { cell(from).click(); cell(to).click(); } else cell(GAME.startsWith("connect4") ? to % w : to).click();
  };
  // The name (as people write it) of the move played at ply `k`.
  window.moveName = k => GAME === "tictactoe" ? String(moves[k] + 1) : posAt(k).moves[moves[k]].m;
};
const person = (page, k) => page.evaluate(k => personMove(k), k);


export async function levelsTest(page, check, tictable) {
  const view = () => page.evaluate(() => ({ ...posAt(cursor), cursor, n: moves.length }));
  const rates = () => page.textContent("#level-rates");
  const setRate = async v => { await page.fill("#rate", v); await page.dispatchEvent("#rate", "change"); };
  await page.evaluate(IN_PAGE);
  let games = 0, engineMoves = 0, replies = 0;
  const openings = [];
  for (const game of ["tictactoe", ...GAMES]) {
    if (await page.inputValue("#game") !== game) {
      await page.selectOption("#game", game);
      await page.waitForSelector(`#gboard[data-game='${game}']`, { state: "attached", timeout: 60000 });
    }
    const ttt = game === "tictactoe";
    // The levels offered.
    const offered = (await page.$$eval("#level option", os => os.map(o => o.disabled ? -1 : +o.value))).filter(l => l >= 0);
    const want = ttt ? [0, 1, 2, 3, 4, 5, 6, 7] : SEARCHING.includes(game) ? [0, 3, 5, 6, 7] : [0, 3];
    check(offered.join() === want.join(), `${game}: the selector offers ${offered.map(l => NAMES[l])}, want ${want.map(l => NAMES[l])}`);
    // adaptive's estimate, first (the game just chosen): shown, and rising after the
    // person gives away value (as the side that can: O in hexapawn, which White loses;
    // at 0.99 and above a rise is below the two decimals shown).
    if (SEARCHING.includes(game)) {
      await page.selectOption("#level", "7"); await page.selectOption("#side", game === "hexapawn" ? "O" : "X"); await page.click("#new");
      const estimate = async () => +((await rates()).match(/you play like ε ≈ ([0-9.]+)/) || [0, -1])[1];
      let e0 = await estimate(), rose = false;
      // A game just chosen starts from the prior's mean (tic-tac-toe's adaptive lasts the visit).
      check(ttt ? e0 >= 0 && e0 <= 1 : e0 === 0.5, `${game} adaptive: its estimate shown: "${await rates()}"`);
      for (let plies = 0; plies < 20 && !rose; plies++) {
        const v = await view();
        if (v.terminal) { await page.click("#new"); continue; }
        const loses = ttt ? v.values.findIndex(x => x && v.outcome !== "loss" && (v.outcome === "win" ? !x.startsWith("win") : x.startsWith("loss")))
          : v.moves.findIndex(m => v.outcome !== "loss" && (v.outcome === "win" ? !m.value.startsWith("win") : m.value.startsWith("loss")));
        const k = loses >= 0 ? loses : ttt ? v.values.findIndex(x => x) : 0;
        await person(page, k);
        const e1 = await estimate();
        if (loses >= 0) { check(e1 > e0 || e0 >= 0.99, `${game} adaptive: the estimate rises after a move that gave away value (${e0} -> ${e1})`); rose = true; }
        e0 = e1;
      }
      check(rose, `${game} adaptive: the person found a move that gives away value`);
    }
    const table = game === "tictactoe" ? { ...TABLE_MD, ...PLAYERS.games.tictactoe } : PLAYERS.games[game];
    for (const level of offered) {
      await page.selectOption("#level", String(level));
      if ([3, 4, 6].includes(level)) await setRate(level === 6 ? "0.5" : "0");
      // The win rates beside the selector: docs/players.json's, or said to be missing.
      const text = await rates();
      const keys = level === 6 ? ["gentle:0", "gentle:0.5", "gentle:1"] : [NAMES[level]];
      if (table && table[keys[0]]) {
        for (const key of keys) for (const side of ["X", "O"]) {
          const [w, d, l] = table[key][side];
          const parts = [`wins ${w} (${pct(w)} %)`, d === "0" ? "" : `draws ${d} (${pct(d)} %)`, l === "0" ? "" : `loses ${l} (${pct(l)} %)`];
          check(parts.every(p => text.includes(p)), `${game} ${key} as ${side}: docs/players.json's ${w} / ${d} / ${l} shown: "${text}"`);
        }
      } else if (!ttt) check(text.startsWith(`No exact win rates for ${table ? NAMES[level] + " in " : ""}${game}`), `${game} ${NAMES[level]}: no figures, said so: "${text}"`);
      // A full game from each side against a person playing uniformly at random.
      for (const side of ["X", "O"]) {
        await page.selectOption("#side", side); await page.click("#new");
        // The game, played in the page (one round trip); each move checked here.
        const { steps, v } = await page.evaluate(() => {
          const view = () => ({ ...posAt(cursor), cursor }), steps = [];
          let v = view();
          for (let plies = 0; !v.terminal && plies < 120; plies++) {
            const options = GAME === "tictactoe" ? v.values.flatMap((x, i) => x ? [i] : []) : v.moves.map((_, i) => i);
            personMove(options[Math.floor(Math.random() * options.length)]);
            const next = view();
            steps.push({ to_move: v.to_move, position: v.position, before: v.cursor, after: next.cursor });
            v = next;
          }
          return { steps, v };
        });
        for (const st of steps) {
          check(st.to_move === side, `${game} ${NAMES[level]} as ${side}: the person is to move in ${st.position}`);
          check(st.after > st.before, `${game} ${NAMES[level]} as ${side}: the person's move was played`);
        }
        check(v.terminal, `${game} ${NAMES[level]} as ${side}: the game ended (${v.position})`);
        games++;
        if (!KEEPS.includes(level)) continue;
        // Every engine move against the CLI: it keeps the position's value for the engine.
        const played = await page.evaluate(me => {
          const out = [];
          for (let k = 0; k < cursor; k++) {
            const p = posAt(k); if (p.to_move === me) continue;
            out.push({ position: p.position, name: GAME === "tictactoe" ? String(moves[k]) : null, index: moves[k] });
          }
          return out;
        }, side);
        const positions = played.map(p => ttt ? p.position.match(/.{3}/g).join("/") : p.position);
        const answers = cli(tictable, game, positions);
        played.forEach((p, i) => {
          const c = answers[i], m = ttt ? c.moves.find(x => x.move === p.name) : c.moves[p.index];
          check(m && (c.value === "loss" || m.value === c.value), `${game} ${NAMES[level]} as the engine in ${positions[i]} (${c.value}) played ${m && m.move} (${m && m.value}): value kept`);
          engineMoves++;
        });
      }
    }
    if (!SEARCHING.includes(game)) { globalThis.webTestLap?.(`levels ${game}`); continue; }
    // The searching levels' openings as X: among those the CLI's engine plays (in 200 games).
    await page.selectOption("#side", "O");
    for (const [level, rate, name] of [[5, "0", "sharp"], [6, "0", "gentle:0"], [6, "1", "gentle:1"]]) {
      await page.selectOption("#level", String(level)); if (level === 6) await setRate(rate);
      const cliSet = cliOpenings(tictable, game, name, 200), pageSet = new Set();
      const names = await page.evaluate(() => [0, 1, 2, 3].map(() => { document.getElementById("new").click(); return moveName(0); }));
      names.forEach(m => pageSet.add(m));
      check([...pageSet].every(m => cliSet.has(m)), `${game} ${name}: the page's openings ${[...pageSet]} are the CLI's (${[...cliSet]})`);
      openings.push(`${game} ${name} ${[...pageSet].join("/")}`);
    }
    // And their replies as O to every first move of X: among the CLI's (in 100 games each).
    await page.selectOption("#side", "X");
    for (const [level, rate, name] of [[5, "0", "sharp"], [6, "0", "gentle:0"], [6, "1", "gentle:1"]]) {
      await page.selectOption("#level", String(level)); if (level === 6) await setRate(rate);
      await page.click("#new");
      const start = await view(), firsts = ttt ? [0, 1, 2, 3, 4, 5, 6, 7, 8] : start.moves.map((_, i) => i);
      for (const k of firsts) {
        // Two new games, X's move k in each, the engine's reply read (one round trip).
        const pairs = await page.evaluate(k => [0, 1].map(() => {
          document.getElementById("new").click(); personMove(k); return [moveName(0), moveName(1)];
        }), k);
        const pageSet = new Set(pairs.map(p => p[1])), first = pairs[1][0];
        const cliSet = cliReplies(tictable, game, name, first, 100);
        check([...pageSet].every(m => cliSet.has(m)), `${game} ${name}: the page's replies to ${first} ${[...pageSet]} are the CLI's (${[...cliSet]})`);
        replies++;
      }
    }
    globalThis.webTestLap?.(`levels ${game}`);
  }
  await page.selectOption("#game", "tictactoe");
  await page.waitForSelector("#gboard[data-game='tictactoe']", { state: "attached" });
  await page.selectOption("#side", "X"); await page.selectOption("#level", "3"); await setRate("0");
  return { games, engineMoves, openings, replies };
}
