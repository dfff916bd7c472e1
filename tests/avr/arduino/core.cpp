/* The minimal Arduino core of Arduino.h: USART0 at 16 MHz, 8N1, polled. */
#include "Arduino.h"
#include <avr/io.h>

HardwareSerial Serial;

void HardwareSerial::begin(unsigned long baud)
{
    uint16_t divisor = (uint16_t)((16000000ul / 8u / baud - 1u) / 2u); /* rounded */
    UBRR0 = divisor;
    UCSR0A = 0;
    UCSR0B = (uint8_t)(1u << RXEN0 | 1u << TXEN0);
    UCSR0C = (uint8_t)(1u << UCSZ01 | 1u << UCSZ00);
}

int HardwareSerial::available()
{
    return (UCSR0A & (1u << RXC0)) != 0 ? 1 : 0;
}

int HardwareSerial::read()
{
    return available() ? UDR0 : -1;
}

void HardwareSerial::print(char c)
{
    if (c == '\n') { /* as Serial.println: CR LF */
        print('\r');
    }
    while ((UCSR0A & (1u << UDRE0)) == 0) {
    }
    UDR0 = (uint8_t)c;
}

void HardwareSerial::print(const char *text)
{
    while (*text != '\0') {
        print(*text++);
    }
}

void HardwareSerial::print(const __FlashStringHelper *text)
{
    const char *p = reinterpret_cast<const char *>(text);
    char c;
    while ((c = (char)pgm_read_byte(p++)) != '\0') {
        print(c);
    }
}

void HardwareSerial::print(int n)
{
    char digits[6];
    uint8_t count = 0;
    unsigned v = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    if (n < 0) {
        print('-');
    }
    do {
        digits[count++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    while (count > 0u) {
        print(digits[--count]);
    }
}

void HardwareSerial::println()
{
    print('\n');
}

int main()
{
    setup();
    for (;;) {
        loop();
    }
}
