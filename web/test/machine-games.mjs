// The machine panel plays every game (issue 37): for each of the six games, chosen with
// the panel's game selector (which presses Level until the lights show the game's
// number, firmware/README.md "Games"), a whole game against the machine's real
// controller: the person's moves made by hand on the panel's squares (a click puts a
// piece down; a slide or a pawn's move is two clicks, from and to; a capture takes the
// machine's pawn off), hexapawn's set-up by the advice's button, one illegal move
// refused (the error light asks for the board as the game has it, and the advice's
// button puts it back), every machine move keeping the position's value per
// `tictable analyse --game G` (the fastest win or slowest loss, from its tables), and
// the result light as the CLI judges the final position.
import { cli } from "./games.mjs";

// [game id, number on the lights]: tic-tac-toe last (Level goes round from hexapawn).
export const MACHINE_GAMES = [["misere", 2], ["three-mens-morris", 3], ["tapatan", 4], ["achi", 5], ["hexapawn", 6], ["tictactoe", 1]];
const NUMBER_LIGHTS = [["Lamp", 1], ["Win", 2], ["Draw", 4], ["Loss", 8]];

export async function machineGamesTest(page, check, tictable) {
  const read = () => page.evaluate(() => {
    const r = document.getElementById("m-record"), st = document.getElementById("m-state");
    return {
      state: st.dataset.state, full: st.textContent, record: r.textContent, game: r.dataset.game,
      toMove: r.dataset.toMove, expect: r.dataset.expect, move: r.dataset.move,
      restores: +document.getElementById("m-restores").textContent,
      lights: [...document.querySelectorAll("#m-lamps .lamp.on")].map(l => l.textContent),
      say: document.getElementById("m-say").textContent,
      steps: [...document.querySelectorAll("#m-steps button")].map(b => b.textContent),
      seen: [...document.querySelectorAll("#m-squares button")].map(b => b.dataset.seen),
      selected: document.getElementById("m-game").value,
      captures: document.querySelectorAll("#mv .capture").length,
      held: +document.getElementById("mv").dataset.held,
      captured: +document.getElementById("mv").dataset.captured,
    };
  });
  const waitFor = async (ok, what, ms = 90000) => {
    const end = Date.now() + ms;
    for (;;) {
      const m = await read();
      if (ok(m)) return m;
      if (Date.now() > end) throw new Error(`machine games: waiting for ${what}, at ${JSON.stringify(m)}`);
      await page.waitForTimeout(20);
    }
  };
  const tool = name => page.click(`#m-tools button:text-is("${name}")`);
  const square = i => page.click(`#m-squares button[data-i='${i}']`);
  const step = label => page.click(`#m-steps button:text-is("${label}")`);
  const done = () => page.click("#m-btn-0");
  // The squares show the board as the game has it (B black, W white).
  const seenOk = m => [...m.expect].every((c, i) => m.seen[i] === { ".": "empty", B: "black", W: "white" }[c]);
  // The record in the CLI's notation (rows top first; the side to move but in tic-tac-toe).
  const position = (game, m) => m.record.match(/.{3}/g).join("/") + (game === "tictactoe" || game === "misere" ? "" : " " + m.toMove);
  const analyse = (game, m) => cli(tictable, game, [position(game, m)])[0];
  // Follows the advice's steps (abandoning aside) until the error light goes out, up
  // to three rounds (as fast as possible, the machine may fail again, say a move
  // redone after a power cut, between two looks).
  const followAdvice = async (m, what) => {
    for (let round = 0; round < 3; round++) {
      for (const label of m.steps) {
        if (label === "Hold Start 2 s (abandon)") continue;
        await step(label).catch(() => null);
        const left = await waitFor(x => x.state !== "Error" && x.state !== "Starting", `${what}: out of the error after "${label}"`, 8000).catch(() => null);
        if (left) return left;
      }
      m = await read();
    }
    return null;
  };
  // The value words the CLI gives a move or position, for the person.
  const worse = (a, b) => { const r = { loss: 0, draw: 1, win: 2 }; return r[a.value] - r[b.value] || (a.value === "win" ? b.remoteness - a.remoteness : a.remoteness - b.remoteness); };
  const rows = [];
  await page.selectOption("#m-speed", "0");
  await page.click("#m-new");
  await waitFor(m => m.state === "Setup", "Setup of a new machine");
  let m = await read();
  check(m.captures === 6, `the capture places drawn beside the storage columns: ${m.captures}`);
  for (const [game, code] of MACHINE_GAMES) {
    const t0 = Date.now();
    // Chosen with the selector (Level pressed in the page): the lights show the game.
    await page.selectOption("#m-game", String(code));
    m = await waitFor(x => x.game === game, `${game} chosen`, 10000);
    const number = NUMBER_LIGHTS.reduce((n, [l, v]) => n + (m.lights.includes(l) ? v : 0), 0);
    check(m.state === "Setup" && m.lights.includes("Device turn") && m.lights.includes("Human turn") && number === code,
      `${game}: the lights show game ${code}: ${m.lights}`);
    check(m.say.includes(`game ${code} in binary`), `${game}: the lights in words: ${m.say}`);
    check(m.selected === String(code), `${game}: the selector shows it`);
    await page.click("#m-btn-3");
    // The machine moves first (the setup's default): the person is O, white but in
    // hexapawn (White is X there).
    const person = "O", pc = game === "hexapawn" ? "B" : "W";
    // The machine's first move keeps the start's value: the person's first turn is
    // worth the start's, seen from the other side, one ply nearer.
    const start = game === "hexapawn" ? "OOO/.../XXX X" : ".../.../..." + (game === "tictactoe" || game === "misere" ? "" : " X");
    const s0 = cli(tictable, game, [start])[0], flip = { win: "loss", loss: "win", draw: "draw" };
    let firstValue = null;
    const met = [];
    let cheated = false, confirmed = false, cut = false;
    let illegal = false, byHand = 0, captured = 0, setUp = false, plies = 0, expectNext = null, kept = 0;
    for (let turn = 0; turn < 80; turn++) {
      m = await waitFor(x => x.state === "HumanTurn" || x.state === "Over" || x.state === "Error", `${game}: the person's turn or the end`);
      if (m.state === "Over") break;
      if (m.state === "Error") { met.push(m.full); check(await followAdvice(m, `${game} in play`) !== null, `${game}: in play "${m.full}" ended by ${m.steps}`); continue; }
      if (m.move === "setup") {
        check(m.lights.includes("Device turn") && m.lights.includes("Human turn") && /set up your pawns/.test(m.say), `${game}: both turn lights ask for the set-up: ${m.say}`);
        await step("Set up your pawns"); await done();
        await waitFor(x => x.move !== "setup" || x.state !== "HumanTurn", `${game}: the set-up taken`);
        setUp = true;
        continue;
      }
      check(seenOk(m), `${game}: the squares show the board ${m.expect}: ${m.seen}`);
      const a = analyse(game, m);
      check(!a.error && !a.terminal && a.to_move === person, `${game}: the person to move in ${position(game, m)}: ${JSON.stringify(a)}`);
      if (firstValue === null) {
        const same = a.value === flip[s0.value] && (a.value === "draw" || game === "tictactoe" || a.remoteness === s0.remoteness - 1);
        check(same, `${game}: the machine's first move kept the start's value: ${a.value} ${a.remoteness} after ${s0.value} ${s0.remoteness}`);
        firstValue = a.value;
        kept++;
      }
      // The machine's last move kept the value our move left it (its tables' best:
      // the same value, a win or loss two plies nearer).
      if (expectNext) kept++;
      if (expectNext && game !== "tictactoe") {
        const same = a.value === expectNext.value && (a.value === "draw" || a.remoteness === expectNext.remoteness - 2);
        check(same, `${game}: the machine kept the value: ${a.value} ${a.remoteness} after ${expectNext.value} ${expectNext.remoteness} (${position(game, m)})`);
      } else if (expectNext) check(a.value === expectNext.value, `${game}: the machine kept the value: ${a.value} after ${expectNext.value} (${expectNext.move} played; now ${position(game, m)})`);
      const moves = a.moves.map(x => ({ ...x, from: x.move.includes("-") ? +x.move.split("-")[0] : null, to: +x.move.split("-").pop() }));
      const mine = [...m.expect].flatMap((c, i) => c === pc ? [i] : []);
      // One illegal move, refused: placing games put two pieces down; moving games move
      // a piece where no legal move of theirs goes.
      if (!illegal) {
        const empty = [...m.expect].flatMap((c, i) => c === "." ? [i] : []);
        const before = m.record;
        await tool("Your piece");
        let what;
        if (m.move === "place") { await square(empty[0]); await square(empty[1]); what = `two pieces on ${empty[0] + 1} and ${empty[1] + 1}`; }
        else {
          // Slides to an empty point; pawns onto the machine's too (a capture
          // straight ahead, say).
          const targets = [...m.expect].flatMap((c, i) => c === "." || (m.move === "pawn" && c !== pc) ? [i] : []);
          const wrong = f => targets.find(t => !moves.some(x => x.from === f && x.to === t));
          const from = mine.find(f => wrong(f) !== undefined), to = wrong(from);
          await square(from); await square(to); what = `${from + 1} to ${to + 1}`;
        }
        await done();
        const e = await waitFor(x => x.state === "Error", `${game}: the illegal move (${what}) refused`, 30000);
        check(/does not match the game/.test(e.full) && e.lights.includes("Error") && e.record === before,
          `${game}: the illegal move ${what} refused: ${e.full}, lights ${e.lights}, record ${e.record}`);
        check(e.steps[0] === "Put the board back as the game has it", `${game}: the advice puts it back: ${e.steps}`);
        await step("Put the board back as the game has it");
        const back = await waitFor(x => x.state === "HumanTurn", `${game}: the person's turn after putting it back`, 30000);
        check(back.record === before && seenOk(back), `${game}: the board back as the game has it: ${back.seen}`);
        illegal = true;
        continue;
      }
      // Another game chosen mid-game: refused in words, nothing changed.
      if (!cheated && game === "misere") {
        await page.selectOption("#m-game", "4");
        const r = await read();
        const note = await page.textContent("#m-note");
        check(r.game === game && r.selected === "2" && /end this one first/.test(note) && r.record === m.record, `${game}: no other game mid-game: ${note}, ${r.game}, selector ${r.selected}`);
      }
      // A cheat: one of the machine's pieces moved to an empty point; it puts it back.
      if (!cheated) {
        const theirs = [...m.expect].findIndex(c => c !== "." && c !== pc), empty = m.expect.indexOf(".");
        const before = m.restores;
        await tool("Move (cheat)"); await square(theirs); await square(empty); await done();
        const back = await waitFor(x => x.state === "HumanTurn" && x.restores === before + 1, `${game}: the cheat (${theirs + 1} to ${empty + 1}) put back`, 60000);
        check(back.record === m.record && seenOk(back), `${game}: the moved piece back on ${theirs + 1}: ${back.seen}`);
        cheated = true;
        continue;
      }
      // Level mid-game asks to confirm the end with every light (for 10 s: at real
      // speed here); Done plays on.
      if (!confirmed && game === "achi") {
        await page.selectOption("#m-speed", "1");
        await page.click("#m-btn-4");
        const c = await waitFor(x => x.lights.length === 7, `${game}: every light after Level`, 10000);
        check(/end the game\? Level again ends it/.test(c.say) && c.steps.includes("Press Level") && c.steps.includes("Press Done"), `${game}: the confirmation in words: ${c.say} / ${c.steps}`);
        await done();
        const on = await waitFor(x => x.lights.length < 7, `${game}: the game goes on after Done`, 10000);
        check(on.state === "HumanTurn" && on.record === m.record, `${game}: Done plays on: ${on.state} ${on.record}`);
        await page.selectOption("#m-speed", "0");
        confirmed = true;
        continue;
      }
      // The person's move: until one slide or capture was made by hand, the best (a
      // capture first, in hexapawn); then the fastest loss, so the game ends soon.
      const captures = moves.filter(x => x.from !== null && m.expect[x.to] !== ".");
      const best = moves.filter(x => a.best.includes(x.move));
      const pick = byHand === 0 && captures.length ? captures[0]
        : byHand === 0 ? best[0] : [...moves].sort(worse)[0];
      await tool("Your piece");
      if (pick.from !== null) { captured += m.expect[pick.to] !== "."; await square(pick.from); await square(pick.to); byHand++; } else await square(pick.to);
      // A power cut while the machine carries its next piece (its slide or placement;
      // at real speed to catch it): a fresh controller resumes from the flash and the
      // game goes on.
      const cutNow = !cut && (pick.from !== null || game === "misere");
      if (cutNow) await page.selectOption("#m-speed", "1");
      await done();
      expectNext = pick;
      if (cutNow) {
        await waitFor(x => x.held >= 0 || x.state === "Over", `${game}: the machine carrying a piece`, 60000);
        await page.click("#m-power");
        const boot = await waitFor(x => /Error blinks 2 times/.test(x.say), `${game}: the boot signal`, 5000);
        check(boot.held === -1, `${game}: the power cut dropped the piece`);
        await page.selectOption("#m-speed", "0");
        cut = true;
      }
      await waitFor(x => x.record !== m.record || x.state !== "HumanTurn", `${game}: the move ${pick.move} taken`);
      plies++;
    }
    m = await waitFor(x => x.state === "Over", `${game}: the result`, 5000);
    const f = analyse(game, m);
    const light = m.lights.find(l => ["Win", "Draw", "Loss"].includes(l));
    // The side to move in a finished game has lost, won (misère: the other lined up)
    // or drawn; a game the record ends (a third repetition, 64 plies) is a draw.
    const want = !f.terminal ? "Draw" : f.value === "draw" ? "Draw" : (f.value === "loss") === (f.to_move === person) ? "Win" : "Loss";
    check(light === want && m.lights.length === 1, `${game}: the result light ${m.lights} for ${position(game, m)} (${JSON.stringify(f)})`);
    check(light !== "Loss" || s0.value === "loss", `${game}: the machine loses only a game its side loses from the start (${s0.value}): ${light}`);
    check(illegal, `${game}: an illegal move was refused`);
    check(game === "tictactoe" || game === "misere" || byHand > 0, `${game}: a slide or pawn move by hand`);
    check(game !== "hexapawn" || captured > 0, `${game}: a capture by hand`);
    check(game !== "hexapawn" || setUp, `${game}: the set-up by hand`);
    // The person's pawns the machine took lie in its capture places.
    const lost = game === "hexapawn" ? 3 - [...m.expect].filter(c => c === pc).length : 0;
    check(m.captured === lost, `${game}: ${lost} of the person's pawns captured, ${m.captured} in the capture places`);
    check(cheated && (cut || game === "tictactoe") && (confirmed || game !== "achi"), `${game}: the cheat, the power cut and the confirmation done`);
    rows.push(`${game} ${light.toLowerCase()} in ${plies} moves by hand${byHand ? ` (${byHand} slides or pawn moves, ${captured} captures)` : ""}${lost ? `, ${lost} captured by the machine` : ""}, ${kept} machine moves value-kept, errors met in play: ${met.length ? met.join(" / ") : "none"}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    await step("Clear the board");
  }
  return rows;
}
