/* The implementation alone, for the stricter warning set in tests/c_header.rs. */
#define TICTABLE_IMPLEMENTATION
#include "tictactoe.h"
#include "tictactoe.h" /* a second inclusion changes nothing */
