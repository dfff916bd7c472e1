// Runs tests/python/check.py or tests/python/measure.py under MicroPython (the
// WebAssembly port from npm, `npm ci` in this folder) with a module file, .py or
// .mpy, installed as the module `tictactoe`:
//
//     node tests/python/micropython.mjs check   tables/tictactoe.py
//     node tests/python/micropython.mjs measure target/tictactoe.mpy
//
// and tests/python/check_game.py with a game's module (`tictable export --game G
// --format python`, .py or .mpy, installed under its file name) and a file of
// questions (`side key` lines), as games/tests/games/exports.rs runs it:
//
//     node tests/python/micropython.mjs game target/tapatan.mpy questions.txt
//
// The script's output goes to standard output; an exception it raises goes to
// standard error, and the exit status is then 1.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [command, module, questions] = process.argv.slice(2);
const usage = !module || (command === "game" ? !questions : !["check", "measure"].includes(command));
if (usage) {
  console.error(
    "usage: node micropython.mjs check|measure MODULE.py|MODULE.mpy\n" +
      "       node micropython.mjs game MODULE.py|MODULE.mpy QUESTIONS",
  );
  process.exit(2);
}
const extension = path.extname(module);
if (extension !== ".py" && extension !== ".mpy") {
  console.error(`micropython.mjs: ${module}: not a .py or .mpy file`);
  process.exit(2);
}

let lines = [];
const flush = () => {
  if (lines.length > 0) {
    fs.writeSync(1, lines.join("\n") + "\n");
    lines = [];
  }
};
const mp = await loadMicroPython({
  stdout: (line) => {
    lines.push(line);
    if (lines.length >= 4096) flush();
  },
  stderr: (line) => console.error(line),
});
mp.FS.mkdirTree("/lib");
const name = command === "game" ? path.basename(module, extension) : "tictactoe";
mp.FS.writeFile(`/lib/${name}${extension}`, fs.readFileSync(module));
const here = path.dirname(fileURLToPath(import.meta.url));
const script = command === "game" ? "check_game" : command;
mp.FS.writeFile(`/${script}.py`, fs.readFileSync(path.join(here, `${script}.py`)));
let run = `import ${script}`;
if (command === "game") {
  mp.FS.writeFile("/questions.txt", fs.readFileSync(questions));
  run = `import sys\nsys.argv[:] = ["check_game.py", "${name}", "/questions.txt"]\n${run}`;
}
let status = 0;
try {
  mp.runPython(run);
} catch (error) {
  flush();
  console.error(error.message);
  status = 1;
}
flush();
process.exit(status);
