/* The best-move lookup and the position-to-key functions of a generated game header
 * (`tictable export --game G --format c`), driven by games/tests/games/exports.rs:
 * compiled with -DGAME_HEADER='"NAME.h"' and -DNAME=name, it reads lines on standard
 * input and answers each on one line:
 *   `side key`      the mask in decimal, or `-` when the class is not in the table;
 *   `p side cells`  (cells as digits 0-2) the position's key, its class key, the
 *                   symmetry giving it, the image's cells, and the mask of the class
 *                   for `side` (or `-`);
 *   `m side cells`  (a position where the game goes on) its legal moves (slots, joined
 *                   by commas) and its own best moves (the slot mask, or `-`). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include GAME_HEADER

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2(a, b)
#define CALL(f) PASTE(NAME, f)

int main(void) {
    char line[256], digits[80];
    int side;
    uint64_t key, mask;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "m %d %79s", &side, digits) == 2) {
            uint8_t cells[64], moves[64];
            unsigned i, n;
            for (i = 0; i < strlen(digits) && i < 64; i++) cells[i] = (uint8_t)(digits[i] - '0');
            n = CALL(_moves)(cells, side, moves);
            for (i = 0; i < n; i++) printf("%s%u", i ? "," : "", (unsigned)moves[i]);
            if (CALL(_best_moves)(cells, side, &mask)) {
                printf(" %" PRIu64 "\n", mask);
            } else {
                printf(" -\n");
            }
            continue;
        }
        if (sscanf(line, "p %d %79s", &side, digits) == 2) {
            uint8_t cells[64], image[64];
            unsigned i, symmetry;
            uint64_t class_key;
            for (i = 0; i < strlen(digits) && i < 64; i++) cells[i] = (uint8_t)(digits[i] - '0');
            key = CALL(_key)(cells, side);
            class_key = CALL(_class_key)(cells, side, &symmetry);
            CALL(_image)(cells, symmetry, image);
            printf("%" PRIu64 " %" PRIu64 " %u ", key, class_key, symmetry);
            for (i = 0; i < strlen(digits) && i < 64; i++) printf("%u", (unsigned)image[i]);
            printf(" ");
            key = class_key;
        } else if (sscanf(line, "%d %" SCNu64, &side, &key) != 2) {
            return 1;
        }
        if (CALL(_lookup)(side, key, &mask)) {
            printf("%" PRIu64 "\n", mask);
        } else {
            printf("-\n");
        }
    }
    return 0;
}
