"""The best-move lookup of a generated game module (`tictable export --game G --format
python`), driven by games/tests/games/exports.rs: `python3 check_game.py MODULE` reads
lines `side key` on standard input (or from the file named by a second argument, as
tests/python/micropython.mjs runs it under MicroPython) and prints the mask in decimal,
or `-` when the class is not in the table. Runs under CPython 3 and MicroPython."""
import sys

module = __import__(sys.argv[1])
lines = open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin
for line in lines:
    side, key = line.split()
    mask = module.best_moves(int(side), int(key))
    print("-" if mask is None else mask)
