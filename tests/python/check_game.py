"""The best-move lookup of a generated game module (`tictable export --game G --format
python`), driven by games/tests/games/exports.rs: `python3 check_game.py MODULE` reads
lines `side key` on standard input and prints the mask in decimal, or `-` when the class
is not in the table."""
import importlib
import sys

module = importlib.import_module(sys.argv[1])
for line in sys.stdin:
    side, key = line.split()
    mask = module.best_moves(int(side), int(key))
    print("-" if mask is None else mask)
