"""Tic-tac-toe against perfect play on the terminal, with only the module
tictactoe (tables/tictactoe.py). From the repository's top folder:

    PYTHONPATH=tables python3 examples/python/play.py

Squares are numbered 1 to 9, left to right, top to bottom. Type a square's
number to play there, ? for a hint.
Runs under CPython 3 and MicroPython (copy tictactoe.py or .mpy next to it).
"""

import tictactoe


def count(bits):
    return bin(bits).count("1")


def show(x, o):
    rows = []
    for row in range(3):
        cells = []
        for column in range(3):
            square = 3 * row + column
            if x >> square & 1:
                cells.append("X")
            elif o >> square & 1:
                cells.append("O")
            else:
                cells.append(str(square + 1))
        rows.append(" " + " | ".join(cells))
    print("\n---+---+---\n".join(rows))


def ask(prompt):
    try:
        return input(prompt).strip().lower()
    except EOFError:
        print()
        raise SystemExit(0)


def squares(bits):
    return ", ".join([str(square + 1) for square in range(9) if bits >> square & 1])


def hint(x, o):
    outcome, plies, best, safe = tictactoe.analyse(x, o)
    what = {1: "you win", 0: "a draw", -1: "you lose"}[outcome]
    print("With perfect play %s in %d moves: best %s; %s keep that outcome." % (what, plies, squares(best), squares(safe)))


def person_move(x, o):
    empty = ~(x | o) & 0x1FF
    while True:
        answer = ask("Your move (1-9, ? for a hint): ")
        if answer == "?":
            hint(x, o)
        elif len(answer) == 1 and "1" <= answer <= "9" and empty >> (ord(answer) - ord("1")) & 1:
            return ord(answer) - ord("1")
        else:
            print("Type the number of an empty square: %s." % squares(empty))


def game(person):
    x = o = 0
    while tictactoe.best_moves(x, o):
        x_to_move = count(x) == count(o)
        if x_to_move == (person == "x"):
            show(x, o)
            square = person_move(x, o)
        else:
            square = tictactoe.best_move(x, o)
            print("I play %d." % (square + 1))
        if x_to_move:
            x |= 1 << square
        else:
            o |= 1 << square
    show(x, o)
    outcome = tictactoe.analyse(x, o)[0]
    # A finished game: the side to move lost (-1) or it is a draw (0).
    if outcome == 0:
        print("A draw.")
    elif (count(x) == count(o)) == (person == "x"):
        print("I win.")
    else:
        print("You win.")


def main():
    print("Tic-tac-toe: you against perfect play. Squares 1-9, left to right, top to bottom.")
    while True:
        person = ""
        while person not in ("x", "o"):
            person = ask("Play X (first) or O? ")
        game(person)
        if ask("Another game? (y/n) ") != "y":
            break


main()
