// Runs tests/python/check.py or tests/python/measure.py under MicroPython (the
// WebAssembly port from npm, `npm ci` in this folder) with a module file, .py or
// .mpy, installed as the module `tictactoe`:
//
//     node tests/python/micropython.mjs check   tables/tictactoe.py
//     node tests/python/micropython.mjs measure target/tictactoe.mpy
//
// The script's output goes to standard output; an exception it raises goes to
// standard error, and the exit status is then 1.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [command, module] = process.argv.slice(2);
if (!["check", "measure"].includes(command) || !module) {
  console.error("usage: node micropython.mjs check|measure MODULE.py|MODULE.mpy");
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
mp.FS.writeFile(`/lib/tictactoe${extension}`, fs.readFileSync(module));
const here = path.dirname(fileURLToPath(import.meta.url));
mp.FS.writeFile(`/${command}.py`, fs.readFileSync(path.join(here, `${command}.py`)));
let status = 0;
try {
  mp.runPython(`import ${command}`);
} catch (error) {
  flush();
  console.error(error.message);
  status = 1;
}
flush();
process.exit(status);
