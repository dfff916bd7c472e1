/* A minimal stand-in for the Arduino core, for scripts/avr-test: just what
 * examples/arduino/tictable_serial uses (Serial on the ATmega328P's USART0, polled, F()
 * strings in flash, setup()/loop()), so that the sketch compiles with avr-g++ as the
 * Arduino IDE would compile it (C++, Arduino.h included first) and plays in simavr. */
#ifndef ARDUINO_H
#define ARDUINO_H

#include <stdint.h>
#include <avr/pgmspace.h>

class __FlashStringHelper;
#define F(text) (reinterpret_cast<const __FlashStringHelper *>(PSTR(text)))

class HardwareSerial {
public:
    void begin(unsigned long baud);
    int available();
    int read();
    void print(char c);
    void print(const char *text);
    void print(const __FlashStringHelper *text);
    void print(int n);
    void println();
    template <typename T> void println(T value)
    {
        print(value);
        println();
    }
};

extern HardwareSerial Serial;

void setup();
void loop();

#endif
