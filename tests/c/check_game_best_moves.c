/* The best-move lookup of a generated game header (`tictable export --game G --format c`),
 * driven by games/tests/games/exports.rs: compiled with -DGAME_HEADER='"NAME.h"' and
 * -DBEST=NAME_best_moves, it reads lines `side key` on standard input and prints the
 * mask in decimal, or `-` when the class is not in the table. */
#include <inttypes.h>
#include <stdio.h>
#include GAME_HEADER

int main(void) {
    int side;
    uint64_t key, mask;
    while (scanf("%d %" SCNu64, &side, &key) == 2) {
        if (BEST(side, key, &mask)) {
            printf("%" PRIu64 "\n", mask);
        } else {
            printf("-\n");
        }
    }
    return 0;
}
