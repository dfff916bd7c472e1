// The page in real headless Chromium, checked through the DOM (run by scripts/web-test).
// Usage: node web-test.mjs PAGE.html TICTABLE_BINARY OUTPUT_DIR
import { chromium } from "playwright-core";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const [pagePath, tictable, outDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
let checks = 0;
const check = (ok, what) => {
  if (!ok) throw new Error("check failed: " + what);
  checks++;
};
// `tictable analyse --json` on many positions at once, one answer per line.
// (Exit status 2 when some are invalid: each line says which.)
const cli = positions =>
  spawnSync(tictable, ["analyse", "--json", "-"], { input: positions.join("\n") + "\n", maxBuffer: 1 << 26 })
    .stdout.toString().trim().split("\n").map(l => JSON.parse(l));
// What `tictable analyse` puts behind a move: the child position's value, flipped.
const moveValue = child =>
  child.terminal ? (child.winner ? "win in 1" : "draw")
    : child.outcome === "draw" ? "draw"
    : `${child.outcome === "win" ? "loss" : "win"} in ${child.plies + 1}`;
const put = (pos, i) => {
  const n = [...pos].filter(c => c !== ".").length;
  return pos.slice(0, i) + (n % 2 ? "O" : "X") + pos.slice(i + 1);
};

const profile = mkdtempSync(join(tmpdir(), "tictable-web-test-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1150, height: 1500 },
});
const errors = [];
try {
  const page = context.pages()[0] || await context.newPage();
  page.on("console", m => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", e => errors.push("page: " + e.message));
  await page.goto("file://" + resolve(pagePath));
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });

  const board = () => page.evaluate(() => ({
    pos: document.getElementById("board").dataset.pos,
    status: document.getElementById("status").textContent,
    hints: [...document.querySelectorAll("#board button")].map(b => b.querySelector(".hint")?.textContent ?? null),
    best: [...document.querySelectorAll("#board button")].flatMap((b, i) => b.classList.contains("best") ? [i] : []),
    history: document.querySelectorAll("#history li").length,
  }));
  const setSelect = (id, v) => page.selectOption("#" + id, String(v));

  // 1. A game against perfect that the test loses: it plays a losing move whenever
  // the hints offer one; the page must announce the engine's win.
  await setSelect("side", "X"); await setSelect("level", 3); await page.fill("#rate", "0");
  await page.click("#new");
  let b = await board(), plies = 0, usedKeys = false;
  while (!/wins|Draw/.test(b.status) && plies < 9) {
    let i = b.hints.findIndex(h => h && h.startsWith("loss"));
    if (i < 0) i = b.hints.findIndex(h => h !== null);
    if (!usedKeys) { await page.focus("#board button[data-i='0']"); await page.keyboard.press(String(i + 1)); usedKeys = true; }
    else await page.click(`#board button[data-i='${i}']`);
    const mine = put(b.pos, i);
    b = await board(); plies++;
    // The engine's reply is one of the table's best moves (a perfect player).
    const reply = [...b.pos].findIndex((c, k) => c !== mine[k]);
    if (reply >= 0) check(cli([mine])[0].best.includes(reply), `perfect replied ${reply + 1} in ${mine}`);
  }
  check(b.status === "O wins — the engine won", "the page announces the engine's win: " + b.status);
  check(b.history === [...b.pos].filter(c => c !== ".").length, "the value history has a point per ply");
  // Undo goes back to the test's turn, redo forward again.
  await page.click("#undo");
  const undone = await board();
  check(undone.status.startsWith("Your move") && undone.history === b.history - 2, "undo: " + undone.status);
  // The picture of the play panel (README: docs/web.png): the hints where the test
  // chose its losing move, and the chart.
  await (await page.$("#play")).screenshot({ path: join(outDir, "play.png") });
  await page.click("#redo");
  check((await board()).pos === b.pos, "redo restores the game");
  // Arrows and Enter: from square 1, right then down is square 5.
  await page.click("#new");
  await page.focus("#board button[data-i='0']");
  await page.keyboard.press("ArrowRight"); await page.keyboard.press("ArrowDown"); await page.keyboard.press("Enter");
  check((await board()).pos[4] === "X", "arrows and Enter play square 5");

  // 2. Hints against `tictable analyse` on at least 200 positions read off the page.
  await setSelect("level", 0);
  const seen = new Map();
  let rnd = 12345;
  const random = n => { rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd % n; };
  for (let game = 0; seen.size < 240 && game < 400; game++) {
    await setSelect("side", game % 2 ? "O" : "X");
    await page.click("#new");
    for (b = await board(); !/wins|Draw/.test(b.status); b = await board()) {
      seen.set(b.pos, b);
      const empty = b.hints.flatMap((h, i) => h !== null ? [i] : []);
      if (!empty.length) break;
      await page.click(`#board button[data-i='${empty[random(empty.length)]}']`);
    }
  }
  const positions = [...seen.keys()];
  const answers = cli(positions);
  const children = positions.flatMap(p => [...p].flatMap((c, i) => c === "." ? [put(p, i)] : []));
  const childAnswers = new Map(cli(children).map(a => [a.position, a]));
  let hintCount = 0;
  positions.forEach((p, k) => {
    const page = seen.get(p), a = answers[k];
    check(JSON.stringify(page.best) === JSON.stringify(a.best), `${p}: best ${page.best} vs ${a.best}`);
    [...p].forEach((c, i) => {
      const want = c === "." ? moveValue(childAnswers.get(put(p, i))) : null;
      check(page.hints[i] === want, `${p} square ${i + 1}: page ${page.hints[i]}, tictable ${want}`);
      if (want) hintCount++;
    });
  });
  check(positions.length >= 200, `${positions.length} positions`);

  // 3. The analyse panel against `tictable analyse`, valid and invalid positions.
  const setPosition = async pos => {
    await page.click("#an-clear");
    for (let i = 0; i < 9; i++) {
      const clicks = { ".": 0, X: 1, O: 2 }[pos[i]];
      for (let k = 0; k < clicks; k++) await page.click(`#an-board button[data-i='${i}']`);
    }
    return page.evaluate(() => Object.fromEntries(
      ["pos", "valid", "tomove", "outcome", "plies", "best", "safe", "line", "error"]
        .map(k => [k, document.getElementById("an-" + k).textContent])));
  };
  const people = list => list.map(i => i + 1).join(" ");
  const panelPositions = ["XX.OO....", ".........", "XO.XO.X..", "XOXOXOOXO", "XXX......", "XXXOOO...",
    "OO.......", "XXXOO.OO.", "X.O.X.O.X", "O...X....", "XOX.O....", "XO.......", "X..XO.O.X"];
  for (let k = 0; k < 12; k++) panelPositions.push([...Array(9)].map(() => ".XO"[random(3)]).join(""));
  let valid = 0, invalid = 0;
  const cliPanel = cli(panelPositions);
  for (const [k, pos] of panelPositions.entries()) {
    const shown = await setPosition(pos), a = cliPanel[k];
    check(shown.pos === pos, `panel shows ${shown.pos} for ${pos}`);
    if (a.error) {
      check(shown.valid === "no" && shown.error === a.error, `${pos}: page "${shown.error}", tictable "${a.error}"`);
      invalid++;
    } else if (a.terminal) {
      check(shown.valid === "yes" && shown.outcome === "—" && shown.error === "", `${pos}: finished game`);
      valid++;
    } else {
      check(shown.valid === "yes" && shown.tomove === a.to_move && shown.outcome === a.outcome
        && shown.plies === String(a.plies) && shown.best === people(a.best) && shown.safe === people(a.safe),
        `${pos}: page ${JSON.stringify(shown)} vs ${JSON.stringify(a)}`);
      // The principal line: best moves one after another, as long as `plies`.
      const line = shown.line.split(" ").map(n => +n - 1);
      let p = pos;
      for (const m of line) {
        const here = cli([p])[0];
        check(here.best.includes(m), `${pos}: line move ${m + 1} is best in ${p}`);
        p = put(p, m);
      }
      check(line.length === a.plies && cli([p])[0].terminal, `${pos}: the line ends the game in ${a.plies} plies`);
      valid++;
    }
  }
  check(valid >= 5 && invalid >= 3, `panel: ${valid} valid, ${invalid} invalid`);
  await setPosition("XO.XO....");
  await (await page.$("#analyse")).screenshot({ path: join(outDir, "analyse.png") });

  // 4. A complete machine game as fast as possible, with one cheat the machine undoes.
  await setSelect("m-speed", 0);
  const machine = () => page.evaluate(() => ({
    state: document.getElementById("m-state").dataset.state,
    full: document.getElementById("m-state").textContent,
    record: document.getElementById("m-record").textContent,
    restores: +document.getElementById("m-restores").textContent,
    lights: [...document.querySelectorAll("#m-lights .on")].map(l => l.textContent),
  }));
  const waitFor = async (ok, what, ms = 60000) => {
    const end = Date.now() + ms;
    for (;;) {
      const m = await machine();
      if (ok(m)) return m;
      if (Date.now() > end) throw new Error(`machine: waiting for ${what}, at ${JSON.stringify(m)}`);
      await page.waitForTimeout(20);
    }
  };
  await waitFor(m => m.state === "Setup", "Setup");
  await page.click("#m-btn-3");
  let m, cheated = false, machineTurns = 0;
  for (;;) {
    m = await waitFor(m => (m.state === "HumanTurn" && !m.lights.includes("Error")) || m.state === "Over", "the person's turn or the end");
    if (m.state === "Over") break;
    check(m.full === "the person's turn: move a piece, then press Done", "the machine's state in words: " + m.full);
    const empty = [...m.record].flatMap((c, i) => c === "." ? [i] : []);
    if (!cheated) {
      const device = [...m.record].indexOf("X");
      await page.click("#m-cheat");
      await page.click(`#m-squares button[data-i='${device}']`);
      await page.click(`#m-squares button[data-i='${empty[0]}']`);
      await page.click("#m-btn-0");
      await waitFor(m => m.restores === 1, "the cheat put back");
      await (await page.$("#machine")).screenshot({ path: join(outDir, "machine.png") });
      cheated = true;
      continue;
    }
    await page.click(`#m-squares button[data-i='${empty[0]}']`);
    await page.click("#m-btn-0");
    await waitFor(x => x.record !== m.record || x.state === "Over", "the move taken");
    machineTurns++;
  }
  check(cheated && m.restores === 1, "one cheat, restored once");
  check(m.lights.some(l => ["Win", "Draw", "Loss"].includes(l)), "the result light: " + m.lights);
  check(!m.lights.includes("Loss"), "the perfect machine does not lose: " + m.full);
  const final = cli([m.record])[0];
  check(final.terminal, "the machine's record is a finished game: " + m.record);
  if (!cheated) await (await page.$("#machine")).screenshot({ path: join(outDir, "machine.png") });
  // Faults: the I2C fault at rate 0.5 strikes (the counter grows) and the machine
  // rides it out; the board turned by 45 degrees gets a new, calibrated machine.
  await page.check("#m-faultbox input[data-name='i2c']");
  await page.fill("#m-rate", "0.5"); await page.dispatchEvent("#m-rate", "change");
  await page.click("#m-btn-3");
  await page.waitForFunction(() => +document.getElementById("m-faults").textContent > 0, null, { timeout: 60000 });
  checks++;
  await page.uncheck("#m-faultbox input[data-name='i2c']");
  for (let k = 0; k < 3; k++) await page.click("#m-rot-plus");
  check(await page.textContent("#m-angle") === "45", "the board turned to 45 degrees");
  await waitFor(m => m.state === "Setup", "Setup of the turned board");
  await page.screenshot({ path: join(outDir, "page.png"), fullPage: true });

  // 5. The page without the machine (play.html beside it): it loads, plays, and
  // has no machine panel.
  const playPath = join(dirname(pagePath), "play.html");
  await page.goto("file://" + resolve(playPath));
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  check(await page.$("#machine") === null, "play.html has no machine panel");
  await setSelect("side", "X"); await page.click("#new");
  await page.click("#board button[data-i='4']");
  check((await board()).history === 2, "play.html plays a move and the engine answers");

  check(errors.length === 0, "no console errors: " + errors.join("; "));
  const size = f => statSync(f).size;
  console.log(`web: PASS page ${size(pagePath)} B, wasm ${size(pagePath.replace(/\.html$/, ".wasm"))} B, ` +
    `play page ${size(playPath)} B, wasm ${size(playPath.replace(/\.html$/, ".wasm"))} B; ` +
    `${checks} checks: lost to perfect in ${plies} plies, ${positions.length} positions' hints (${hintCount} values) = tictable analyse, ` +
    `analyse panel ${valid} valid + ${invalid} invalid, machine game ${m.record} with 1 cheat restored (${m.full}), 0 console errors`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
