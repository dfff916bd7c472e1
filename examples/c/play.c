/* Play tic-tac-toe against perfect play on the terminal, using only tictactoe.h.
 *
 * Build: make          (or: cc -std=c99 -Wall -Wextra -Werror -pedantic -Os -I../../tables -o play play.c)
 * Run:   ./play        you play X and move first
 *        ./play o      you play O, the machine opens
 * Type a square 1-9 (numbered like a phone keypad: 1 2 3 / 4 5 6 / 7 8 9) and Enter;
 * q or end of input quits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICTABLE_IMPLEMENTATION
#include "tictactoe.h"

static void show(uint16_t x, uint16_t o)
{
    int square;
    for (square = 0; square < 9; square++) {
        char c = (char)('1' + square);
        if (x >> square & 1u) {
            c = 'X';
        } else if (o >> square & 1u) {
            c = 'O';
        }
        printf(" %c %s", c, square % 3 == 2 ? (square < 8 ? "\n---+---+---\n" : "\n") : "|");
    }
}

static const char *verdict(int outcome)
{
    return outcome > 0 ? "wins" : outcome < 0 ? "loses" : "draws";
}

/* Reads the human's square (0..8) or -1 at end of input / on q. */
static int ask(uint16_t x, uint16_t o)
{
    char line[64];
    for (;;) {
        printf("Your move (1-9, q to quit): ");
        fflush(stdout);
        if (fgets(line, sizeof line, stdin) == NULL || line[0] == 'q') {
            return -1;
        }
        if (line[0] >= '1' && line[0] <= '9' && (line[1] == '\n' || line[1] == '\0')) {
            int square = line[0] - '1';
            if (((x | o) >> square & 1u) == 0u) {
                return square;
            }
            printf("Square %d is taken.\n", square + 1);
        } else {
            printf("Type one digit from 1 to 9.\n");
        }
    }
}

int main(int argc, char **argv)
{
    uint16_t x = 0, o = 0;
    int human_is_x = !(argc > 1 && (strcmp(argv[1], "o") == 0 || strcmp(argv[1], "O") == 0));
    struct tictable_analysis a;
    int status, moves = 0;

    printf("You play %c. Squares:\n", human_is_x ? 'X' : 'O');
    while ((status = tictable_analyse(x, o, &a)) == 0) {
        int x_to_move = moves % 2 == 0;
        int square;
        show(x, o);
        if (x_to_move == human_is_x) {
            square = ask(x, o);
            if (square < 0) {
                printf("\nBye.\n");
                return EXIT_SUCCESS;
            }
        } else {
            square = tictable_best_move(x, o);
            printf("Machine (%c %s in %u) plays %d.\n", x_to_move ? 'X' : 'O',
                   verdict(a.outcome), (unsigned)a.plies, square + 1);
        }
        if (x_to_move) {
            x = (uint16_t)(x | 1u << square);
        } else {
            o = (uint16_t)(o | 1u << square);
        }
        moves++;
    }
    if (status < 0) {
        fprintf(stderr, "invalid position\n");
        return EXIT_FAILURE;
    }
    show(x, o);
    if (a.outcome == 0) {
        printf("Draw.\n");
    } else {
        /* The side to move has lost: the other one just completed a line. */
        int x_won = moves % 2 == 1;
        printf("%c wins: %s.\n", x_won ? 'X' : 'O', x_won == human_is_x ? "you win" : "the machine wins");
    }
    return EXIT_SUCCESS;
}
