"""The best-move lookup and the position-to-key functions of a generated game module
(`tictable export --game G --format python`), driven by games/tests/games/exports.rs:
`python3 check_game.py MODULE` reads lines on standard input (or from the file named
by a second argument, as tests/python/micropython.mjs runs it under MicroPython) and
answers each on one line:
  `side key`      the mask in decimal, or `-` when the class is not in the table;
  `p side cells`  (cells as digits 0-2) the position's key, its class key, the symmetry
                  giving it, the image's cells, and the mask of the class for `side`
                  (or `-`);
  `m side cells`  (a position where the game goes on) its legal moves (slots, joined by
                  commas) and its own best moves (the slot mask, or `-`).
Runs under CPython 3 and MicroPython."""
import sys

module = __import__(sys.argv[1])
lines = open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin
for line in lines:
    words = line.split()
    prefix = ""
    if words[0] == "m":
        side = int(words[1])
        cells = bytes([ord(c) - 48 for c in words[2]])
        mask = module.best_moves(cells, side)
        legal = ",".join([str(s) for s in module.legal_moves(cells, side)])
        print(legal + " " + ("-" if mask is None else str(mask)))
        continue
    if words[0] == "p":
        side = int(words[1])
        cells = bytes([ord(c) - 48 for c in words[2]])
        key, symmetry = module.class_key(cells, side)
        image = "".join([str(c) for c in module.image(cells, symmetry)])
        prefix = "%d %d %d %s " % (module.key(cells, side), key, symmetry, image)
    else:
        side, key = int(words[0]), int(words[1])
    mask = module.lookup(side, key)
    print(prefix + ("-" if mask is None else str(mask)))
