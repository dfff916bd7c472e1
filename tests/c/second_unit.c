/* A second translation unit: the header without TICTABLE_IMPLEMENTATION gives only the
 * declarations, so the program links against the one implementation. */
#include "tictactoe.h"

int second_unit_best_move(uint16_t x, uint16_t o);
int second_unit_best_moves(uint16_t x, uint16_t o);

int second_unit_best_move(uint16_t x, uint16_t o)
{
    return tictable_best_move(x, o);
}

int second_unit_best_moves(uint16_t x, uint16_t o)
{
    return tictable_best_moves(x, o);
}
