/* The header's implementation for tests/avr/check.c (its own unit, so that the timed
 * calls stay calls), next to tables identical to two of the header's, in RAM: avr-gcc
 * 5.4's identical code folding merged such a table with the header's flash copy until
 * the header gave its tables a section attribute (see TICTABLE__ROM); the check on every
 * board fails if it merges them again. */
#define TICTABLE_IMPLEMENTATION
#include "tictactoe.h"

unsigned ram_lines_held(unsigned m);
unsigned ram_row(unsigned bits);

/* The number of lines that m holds. */
unsigned ram_lines_held(unsigned m)
{
    static const uint16_t lines[8] = {0x007, 0x038, 0x1c0, 0x049, 0x092, 0x124, 0x111, 0x054};
    unsigned i, held = 0;
    for (i = 0; i < 8u; i++) {
        held += (m & lines[i]) == lines[i];
    }
    return held;
}

/* The 3 low bits of `bits` read as base-3 digits. */
unsigned ram_row(unsigned bits)
{
    static const uint8_t row[8] = {0, 1, 3, 4, 9, 10, 12, 13};
    return row[bits & 7u];
}
