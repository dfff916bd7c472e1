// Tic-tac-toe against perfect play on the Arduino serial monitor (Uno, Nano: ATmega328P;
// any board with a C++ compiler), with only the single-file C header tables/tictactoe.h.
//
// Setup: copy tables/tictactoe.h of the tictable repository into this sketch's folder
// (next to tictable_serial.ino), open the sketch, upload, and open the serial monitor at
// 9600 baud. Type a square 1-9 (1 2 3 / 4 5 6 / 7 8 9, top row first); the board takes
// turns with you and never loses. Games alternate: you open the first, the board the
// next.
//
// The sketch only plays, so it builds the header with TICTABLE_BEST_MOVES_ONLY: 2.1 KB
// of flash (code and the best-moves table, which stays in flash: PROGMEM), no RAM but
// about 60 bytes of stack during a call, about 1100 cycles (70 us at 16 MHz) a move
// (scripts/avr-test measures them, compiles this sketch as the IDE would and plays two
// games with it on the simulated serial port of an ATmega328P in simavr).

#define TICTABLE_BEST_MOVES_ONLY
#define TICTABLE_IMPLEMENTATION
#include "tictactoe.h"

static uint16_t x, o;        // the pieces: bit i = square i (0..8), like the header
static bool humanIsX = true; // whose side the person plays in this game
static bool gameOver;

// The side to move: X when both have as many pieces.
static bool xToMove()
{
    uint16_t pieces = x | o;
    uint8_t count = 0;
    for (uint8_t square = 0; square < 9; square++) {
        count += pieces >> square & 1u;
    }
    return count % 2 == 0;
}

// Whether the squares `m` hold a row, a column or a diagonal.
static bool hasLine(uint16_t m)
{
    uint16_t rows = m & m >> 1 & m >> 2 & 0x049u;    // bit 0, 3 or 6: that row is full
    uint16_t columns = m & m >> 3 & m >> 6 & 0x007u; // bit 0, 1 or 2: that column
    return rows != 0 || columns != 0 || (m & 0x111u) == 0x111u || (m & 0x054u) == 0x054u;
}

static void showBoard()
{
    for (uint8_t square = 0; square < 9; square++) {
        char c = (char)('1' + square);
        if (x >> square & 1u) {
            c = 'X';
        } else if (o >> square & 1u) {
            c = 'O';
        }
        Serial.print(' ');
        Serial.print(c);
        if (square % 3 != 2) {
            Serial.print(F(" |"));
        } else {
            Serial.println();
            if (square < 8) {
                Serial.println(F("---+---+---"));
            }
        }
    }
}

static void newGame()
{
    x = 0;
    o = 0;
    gameOver = false;
    Serial.println();
    Serial.print(F("New game: you play "));
    Serial.println(humanIsX ? F("X and move first.") : F("O; I open."));
    showBoard();
}

// Puts the side to move's piece on `square` (0..8), shows the board, and ends the game
// when it is over: tictable_best_moves answers 0 then (never -1: the position is legal).
static void play(uint8_t square)
{
    bool byX = xToMove();
    if (byX) {
        x |= (uint16_t)(1u << square);
    } else {
        o |= (uint16_t)(1u << square);
    }
    showBoard();
    if (tictable_best_moves(x, o) != 0) {
        return;
    }
    gameOver = true;
    if (hasLine(byX ? x : o)) {
        Serial.println(byX == humanIsX ? F("You win!") : F("I win."));
    } else {
        Serial.println(F("Draw."));
    }
    Serial.println(F("Game over. Type any key for the next game."));
}

void setup()
{
    Serial.begin(9600);
    Serial.println(F("Tic-tac-toe against perfect play (tictable). Squares:"));
    Serial.println(F(" 1 | 2 | 3\n 4 | 5 | 6\n 7 | 8 | 9"));
    newGame();
}

void loop()
{
    if (!gameOver && xToMove() != humanIsX) {
        int square = tictable_best_move(x, o);
        Serial.print(F("I play "));
        Serial.println(square + 1);
        play((uint8_t)square);
        return;
    }
    if (Serial.available() <= 0) {
        return;
    }
    char c = (char)Serial.read();
    if (gameOver) {
        if (c != '\r' && c != '\n') {
            humanIsX = !humanIsX;
            newGame();
        }
        return;
    }
    if (c < '1' || c > '9') {
        if (c != '\r' && c != '\n' && c != ' ') {
            Serial.println(F("Type a square, 1 to 9."));
        }
        return;
    }
    uint8_t square = (uint8_t)(c - '1');
    if (((x | o) >> square & 1u) != 0) {
        Serial.println(F("That square is taken."));
        return;
    }
    Serial.print(F("You play "));
    Serial.println(square + 1);
    play(square);
}
