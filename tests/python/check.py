# The answers of the module tictactoe for every pair of 9-bit masks, for the
# crate's test tests/python_module.rs to compare with the Rust crate. Runs under
# CPython 3 and MicroPython (imports only tictactoe, found on the module path).
#
# One line per query, x major: "x o|A|B|C" with A, B, C what analyse(x, o),
# best_moves(x, o) and best_move(x, o) returned ("1 3 24 216", "24", "3",
# "None") or raised ("ValueError: <message>"). After every pair of 9-bit masks
# come masks outside 0..511; the last line is "done <lines>".
import tictactoe


def call(function, x, o):
    try:
        result = function(x, o)
    except ValueError as e:
        return "ValueError: " + str(e)
    if isinstance(result, tuple):
        return " ".join([str(field) for field in result])
    return str(result)


def line(x, o):
    return "%d %d|%s|%s|%s" % (
        x,
        o,
        call(tictactoe.analyse, x, o),
        call(tictactoe.best_moves, x, o),
        call(tictactoe.best_move, x, o),
    )


def main():
    count = 0
    for x in range(512):
        for o in range(512):
            print(line(x, o))
            count += 1
    for x, o in ((512, 0), (0, 512), (-1, 0), (0, -1), (1 << 15, 0), (513, 2), (1, 0x218)):
        print(line(x, o))
        count += 1
    # Masks that are not int: TypeError, from all three.
    for function in (tictactoe.analyse, tictactoe.best_moves, tictactoe.best_move):
        for x, o in (("1", 0), (0, 1.0), (None, None)):
            try:
                function(x, o)
            except TypeError:
                continue
            raise SystemExit("%s%r raised no TypeError" % (function.__name__, (x, o)))
    print("done %d" % count)


main()
