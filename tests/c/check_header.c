/* Runs the C header on the positions listed on standard input (one "x o" pair of
 * decimal numbers a line) and prints one line per position:
 *   x o ret outcome plies best safe best_move ret_without_out best_moves
 * where ret..safe come from tictable_analyse (outcome..safe are the fields of *out, left
 * at the sentinel -86 170 43690 43690 when the call must not touch it), best_move from
 * tictable_best_move and best_moves from tictable_best_moves. tests/c_header.rs compares
 * every line with the Rust table. */
#include <stdio.h>

#define TICTABLE_IMPLEMENTATION
#include "tictactoe.h"

/* Defined in second_unit.c, which includes the header without the implementation. */
int second_unit_agrees(uint16_t x, uint16_t o, int move, int moves);

int main(void)
{
    unsigned long x, o;
    while (scanf("%lu %lu", &x, &o) == 2) {
        struct tictable_analysis a;
        int ret, move, moves;
        a.outcome = -86;
        a.plies = 170;
        a.best = 0xaaaa;
        a.safe = 0xaaaa;
        ret = tictable_analyse((uint16_t)x, (uint16_t)o, &a);
        move = tictable_best_move((uint16_t)x, (uint16_t)o);
        moves = tictable_best_moves((uint16_t)x, (uint16_t)o);
        if (!second_unit_agrees((uint16_t)x, (uint16_t)o, move, moves)) {
            return 1;
        }
        printf("%lu %lu %d %d %u %u %u %d %d %d\n", x, o, ret, a.outcome, (unsigned)a.plies,
               (unsigned)a.best, (unsigned)a.safe, move,
               tictable_analyse((uint16_t)x, (uint16_t)o, NULL), moves);
    }
    return ferror(stdout) ? 1 : 0;
}
