/* A game's C header (`tictable export --game G --format c`) on an ATmega328P, for
 * scripts/avr-test: compiled with -DNAME=name, it compares the header's
 * NAME_key, NAME_class_key (with its symmetry), NAME_lookup and NAME_best_moves (the
 * position's own best moves, mapped back through the symmetry) with the Rust
 * answers in game_expected.h (games/examples/avr_game_expected.rs) on every position
 * listed, timing class key + lookup (GPIOR0 kind 1, then TIMED_END), and reports
 * through tests/avr/harness.c: mismatches as text on GPIOR1, the verdict on GPIOR2. */
#include <stdint.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include "game.h"
#include "game_expected.h"
#include "say.h"

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2(a, b)
#define CALL(f) PASTE(NAME, f)
#define WIDTH (EXPECTED_CELLS + 27u)

static uint64_t read_le(const uint8_t *p, uint8_t n)
{
    uint64_t v = 0;
    while (n--) {
        v = v << 8 | pgm_read_byte(p + n);
    }
    return v;
}

int main(void)
{
    uint16_t n, failures = 0;
    GPIOR0 = CALIBRATE;
    GPIOR0 = TIMED_END;
    for (n = 0; n < EXPECTED_POSITIONS; n++) {
        const uint8_t *e = expected + (uint32_t)n * WIDTH;
        uint8_t cells[EXPECTED_CELLS], i;
        unsigned symmetry;
        uint64_t key, class_key, mask = 0, own = 0;
        int side, found, own_found;
        for (i = 0; i < EXPECTED_CELLS; i++) {
            cells[i] = pgm_read_byte(e + i);
        }
        side = pgm_read_byte(e + EXPECTED_CELLS);
        key = CALL(_key)(cells, side);
        GPIOR0 = 1u;
        class_key = CALL(_class_key)(cells, side, &symmetry);
        found = CALL(_lookup)(side, class_key, &mask);
        GPIOR0 = TIMED_END;
        own_found = CALL(_best_moves)(cells, side, &own);
        if (key != read_le(e + EXPECTED_CELLS + 1u, 4u) ||
            class_key != read_le(e + EXPECTED_CELLS + 5u, 4u) ||
            symmetry != pgm_read_byte(e + EXPECTED_CELLS + 9u) ||
            found != pgm_read_byte(e + EXPECTED_CELLS + 10u) ||
            (found && mask != read_le(e + EXPECTED_CELLS + 11u, 8u)) ||
            own_found != found ||
            (found && own != read_le(e + EXPECTED_CELLS + 19u, 8u))) {
            if (++failures <= 3u) {
                say(PSTR("mismatch: position "));
                say_number((int32_t)n);
                say(PSTR(" key "));
                say_number((int32_t)key);
                say(PSTR(" class "));
                say_number((int32_t)class_key);
                GPIOR1 = '\n';
            }
        }
    }
    say(PSTR("positions "));
    say_number((int32_t)EXPECTED_POSITIONS);
    say(PSTR(" mismatches "));
    say_number((int32_t)failures);
    GPIOR1 = '\n';
    GPIOR2 = failures ? STATUS_FAIL : STATUS_PASS;
    for (;;) {
    }
}
