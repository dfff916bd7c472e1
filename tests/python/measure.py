# The RAM the module tictactoe takes after import and the time per call, on
# MicroPython (tests/python/micropython.mjs measure MODULE). One line:
# "ram=<bytes> positions=<n> best_move_us=<us> analyse_us=<us>", the times
# averaged over the positions with a move to make.
import gc
import time

gc.collect()
before = gc.mem_free()
import tictactoe

gc.collect()
ram = before - gc.mem_free()

positions = []
for x in range(512):
    for o in range(512):
        try:
            if tictactoe.best_moves(x, o):
                positions.append((x, o))
        except ValueError:
            pass
if len(positions) != 4520:
    raise SystemExit("%d positions with a move to make, not 4520" % len(positions))


def per_call(function):
    best = None
    for _ in range(10):
        gc.collect()
        start = time.ticks_us()
        for x, o in positions:
            function(x, o)
        elapsed = time.ticks_diff(time.ticks_us(), start)
        best = elapsed if best is None or elapsed < best else best
    return best / len(positions)


print(
    "ram=%d positions=%d best_move_us=%.1f analyse_us=%.1f"
    % (ram, len(positions), per_call(tictactoe.best_move), per_call(tictactoe.analyse))
)
