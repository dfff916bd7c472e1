/* What the checks of scripts/avr-test share (tests/avr/check.c, tests/avr/game_keys.c):
 * the marks and verdicts tests/avr/harness.c reads, and text on GPIOR1. */
#ifndef AVR_SAY_H
#define AVR_SAY_H

#include <stdint.h>
#include <avr/io.h>
#include <avr/pgmspace.h>

#define TIMED_END 0xffu
#define CALIBRATE 0x10u
#define STATUS_PASS 0x50u
#define STATUS_FAIL 0xfau

static void say(const char *text) /* text in flash */
{
    char c;
    while ((c = (char)pgm_read_byte(text++)) != '\0') {
        GPIOR1 = (uint8_t)c;
    }
}

static void say_number(int32_t n)
{
    char digits[11];
    uint8_t count = 0;
    uint32_t v = n < 0 ? (uint32_t)-n : (uint32_t)n;
    if (n < 0) {
        GPIOR1 = '-';
    }
    do {
        digits[count++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    while (count > 0u) {
        GPIOR1 = (uint8_t)digits[--count];
    }
}

#endif
