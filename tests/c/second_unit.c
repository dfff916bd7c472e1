/* A second translation unit: the header without TICTABLE_IMPLEMENTATION gives only the
 * declarations, so the program links against the one implementation. */
#include <stdio.h>

#include "tictactoe.h"

int second_unit_agrees(uint16_t x, uint16_t o, int move, int moves);

/* Whether the calls made from this unit give `move` and `moves`, what the checker got
 * from its own unit; says where on stderr when not. */
int second_unit_agrees(uint16_t x, uint16_t o, int move, int moves)
{
    if (tictable_best_move(x, o) == move && tictable_best_moves(x, o) == moves) {
        return 1;
    }
    fprintf(stderr, "second unit disagrees at %u %u\n", (unsigned)x, (unsigned)o);
    return 0;
}
