/* The simavr harness of scripts/avr-test: runs an ATmega328P image (tests/avr/check.c
 * or the Arduino example's test build) in libsimavr at 16 MHz and
 *  - times calls from simavr's cycle counter: a write of a kind k (1..0x0f) to GPIOR0
 *    starts a call, TIMED_END (0xff) ends it; the cycles between, less those of an empty
 *    pair (CALIBRATE 0x10 then TIMED_END), count for kind k (bits 0-1: 1 a position with
 *    a move to make, 2 a finished game, 3 an invalid board; bit 2: the second timed
 *    function, -f names them). For each kind it prints
 *    "timed FUNCTION.POSITION calls N mean C max C stack S": S the deepest stack (bytes below the
 *    stack pointer at the start, return address included) that any call used, found by
 *    filling STACK_WINDOW bytes below the stack pointer with a pattern at the start and
 *    finding the lowest changed byte at the end;
 *  - copies GPIOR1 writes (characters) and UART0 output to standard output;
 *  - ends when GPIOR2 gets the verdict (0x50 pass, 0xfa fail), when the program sleeps
 *    with interrupts off, crashes, after a cycle budget (-c), or with -e TEXT at the
 *    N-th (-n, default 1) TEXT in the UART0 output; -i TEXT feeds TEXT to UART0.
 * Exit status 0 only for a 0x50 verdict, or with -e for a run that reached the N-th TEXT
 * without crashing.
 *
 *     harness [-f NAME[,NAME]] [-e TEXT [-n N]] [-i TEXT] [-c MAX_CYCLES] image.elf */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>
#include <simavr/avr_uart.h>

#define GPIOR0 0x3e /* data-space addresses */
#define GPIOR1 0x4a
#define GPIOR2 0x4b
#define SPL 0x5d
#define SPH 0x5e
#define TIMED_END 0xffu
#define CALIBRATE 0x10u
#define STACK_WINDOW 256u
#define PATTERN 0xa5u

static struct kind {
    uint64_t calls, total, max;
    unsigned stack;
} kinds[17];
static unsigned open_kind;
static avr_cycle_count_t started;
static uint16_t start_sp;
static int verdict = -1;
/* -f FIRST[,SECOND]: the names of the timed functions (kinds 1-3 and 5-7). */
static const char *functions[2] = {"first", "second"};
static const char *const positions[4] = {"?", "move", "finished", "invalid"};

static uint16_t stack_pointer(avr_t *avr)
{
    return (uint16_t)(avr->data[SPL] | avr->data[SPH] << 8);
}

static void on_mark(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr->data[addr] = v;
    if (v != TIMED_END) {
        if (v == 0u || v > CALIBRATE || open_kind != 0u) {
            fprintf(stderr, "harness: bad mark %#x (open %#x)\n", v, open_kind);
            avr->state = cpu_Crashed;
            return;
        }
        open_kind = v;
        started = avr->cycle;
        start_sp = stack_pointer(avr);
        memset(&avr->data[start_sp + 1u - STACK_WINDOW], PATTERN, STACK_WINDOW);
        return;
    }
    if (open_kind == 0u) {
        fprintf(stderr, "harness: end mark without a start\n");
        avr->state = cpu_Crashed;
        return;
    }
    {
        struct kind *k = &kinds[open_kind];
        uint64_t cycles = avr->cycle - started;
        unsigned low = start_sp + 1u - STACK_WINDOW, depth;
        while (low <= start_sp && avr->data[low] == PATTERN) {
            low++;
        }
        depth = start_sp + 1u - low;
        if (depth >= STACK_WINDOW) {
            fprintf(stderr, "harness: a call used all %u bytes of the stack window\n", STACK_WINDOW);
            avr->state = cpu_Crashed;
        }
        k->calls++;
        k->total += cycles;
        k->max = cycles > k->max ? cycles : k->max;
        k->stack = depth > k->stack ? depth : k->stack;
    }
    open_kind = 0;
}

static void on_console(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr->data[addr] = v;
    putchar(v);
}

static void on_verdict(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr->data[addr] = v;
    verdict = v;
    avr->state = cpu_Done;
}

/* -e TEXT -n N: the run ends at the N-th TEXT in the UART output. */
static const char *stop_text;
static unsigned stop_after = 1, stops_seen;
static char tail[64];

static void on_uart(struct avr_irq_t *irq, uint32_t value, void *param)
{
    avr_t *avr = param;
    size_t n;
    (void)irq;
    putchar((int)value);
    if (stop_text == NULL) {
        return;
    }
    n = strlen(stop_text);
    memmove(tail, tail + 1, sizeof tail - 1);
    tail[sizeof tail - 1] = (char)value;
    if (memcmp(tail + sizeof tail - n, stop_text, n) == 0 && ++stops_seen == stop_after) {
        avr->state = cpu_Done;
    }
}

/* UART0 input: one byte of -i TEXT each time the receiver has room. */
static const char *input = "";
static avr_irq_t *uart_input;
static void on_room(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    if (*input != '\0') {
        avr_raise_irq(uart_input, (uint8_t)*input++);
    }
}

int main(int argc, char **argv)
{
    elf_firmware_t firmware;
    avr_t *avr;
    unsigned long long budget = 2000000000ull;
    int opt, state;
    unsigned k;
    uint64_t calibration;

    while ((opt = getopt(argc, argv, "f:e:n:i:c:")) != -1) {
        char *comma;
        switch (opt) {
        case 'f':
            functions[0] = optarg;
            comma = strchr(optarg, ',');
            if (comma != NULL) {
                *comma = '\0';
                functions[1] = comma + 1;
            }
            break;
        case 'e': stop_text = optarg; break;
        case 'n': stop_after = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'i': input = optarg; break;
        case 'c': budget = strtoull(optarg, NULL, 10); break;
        default: return 2;
        }
    }
    if (optind + 1 != argc || (stop_text != NULL && (strlen(stop_text) == 0u ||
                                                     strlen(stop_text) > sizeof tail))) {
        fprintf(stderr, "usage: harness [-f NAME[,NAME]] [-e TEXT [-n N]] [-i TEXT] [-c MAX_CYCLES] image.elf\n");
        return 2;
    }
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(argv[optind], &firmware) != 0) {
        fprintf(stderr, "harness: cannot read %s\n", argv[optind]);
        return 2;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (avr == NULL) {
        fprintf(stderr, "harness: simavr has no atmega328p\n");
        return 2;
    }
    avr_init(avr);
    avr->frequency = 16000000u;
    avr->log = 0;
    avr_load_firmware(avr, &firmware);
    avr_register_io_write(avr, GPIOR0, on_mark, NULL);
    avr_register_io_write(avr, GPIOR1, on_console, NULL);
    avr_register_io_write(avr, GPIOR2, on_verdict, NULL);
    {
        uint32_t flags = 0;
        /* UART0: output to stdout, without simavr's line log nor its sleep (in real
         * time) while the program polls an empty receiver; input from -i. */
        avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
        flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
        avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                                on_uart, avr);
        uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                                on_room, NULL);
    }
    do {
        state = avr_run(avr);
    } while (state != cpu_Done && state != cpu_Crashed && avr->cycle < budget);
    if (stop_text != NULL) {
        putchar('\n');
    }
    fflush(stdout);

    calibration = kinds[CALIBRATE].calls ? kinds[CALIBRATE].total / kinds[CALIBRATE].calls : 0;
    if (kinds[CALIBRATE].calls != 0u) {
        printf("calibration: an empty timed pair takes %llu cycles (subtracted)\n",
               (unsigned long long)calibration);
    }
    for (k = 1; k < CALIBRATE; k++) {
        if (kinds[k].calls != 0u) {
            printf("timed %s.%s calls %llu mean %llu max %llu stack %u\n",
                   functions[k >> 2 & 1u], positions[k & 3u], (unsigned long long)kinds[k].calls,
                   (unsigned long long)((kinds[k].total + kinds[k].calls / 2u) / kinds[k].calls - calibration),
                   (unsigned long long)(kinds[k].max - calibration), kinds[k].stack);
        }
    }
    printf("simulated %llu cycles (%.3f s at 16 MHz)\n", (unsigned long long)avr->cycle,
           (double)avr->cycle / 16e6);
    if (state == cpu_Crashed) {
        fprintf(stderr, "harness: the program crashed\n");
        return 1;
    }
    if (stop_text != NULL) {
        if (stops_seen < stop_after) {
            fprintf(stderr, "harness: \"%s\" seen %u times of %u\n", stop_text, stops_seen, stop_after);
            return 1;
        }
        return 0;
    }
    if (verdict != 0x50) {
        fprintf(stderr, "harness: verdict %s\n", verdict < 0 ? "none (cycle budget spent?)" : "FAIL");
        return 1;
    }
    return 0;
}
