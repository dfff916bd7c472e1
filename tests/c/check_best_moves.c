/* The header built for a program that only plays (TICTABLE_BEST_MOVES_ONLY: no
 * tictable_analyse, no analysis table): for each "x o" pair of decimal numbers on standard
 * input, prints
 *   x o best_move best_moves
 * tests/c_header.rs compares every line with the Rust crate, and checks with nm that the
 * object holds the best-moves table and not the analysis table. */
#include <stdio.h>

#define TICTABLE_BEST_MOVES_ONLY
#define TICTABLE_IMPLEMENTATION
#include "tictactoe.h"

/* Defined in second_unit.c, which includes the header without the implementation. */
int second_unit_agrees(uint16_t x, uint16_t o, int move, int moves);

int main(void)
{
    unsigned long x, o;
    while (scanf("%lu %lu", &x, &o) == 2) {
        int move = tictable_best_move((uint16_t)x, (uint16_t)o);
        int moves = tictable_best_moves((uint16_t)x, (uint16_t)o);
        if (!second_unit_agrees((uint16_t)x, (uint16_t)o, move, moves)) {
            return 1;
        }
        printf("%lu %lu %d %d\n", x, o, move, moves);
    }
    return ferror(stdout) ? 1 : 0;
}
