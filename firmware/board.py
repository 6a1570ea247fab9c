"""The hub's hardware: the Pico's pins, the readers on its SPI bus, the USB serial line.

The pins are the wiring table of README.md: SPI0 on GP16 (MISO), GP18 (SCK) and GP19
(MOSI), and one chip-select pin per slot.
"""

import select
import time

from hub import Hub
from machine import SPI, Pin
from mfrc522 import MFRC522
from scanner import Scanner

SPI_BUS = 0
SCK = 18
MOSI = 19
MISO = 16
#: The chip-select pin of each slot's reader: slot 0 the scan pad, slots 1-6 the villages.
CS_PINS = (17, 20, 21, 22, 26, 27, 28)
#: The MFRC522 takes up to 10 MHz; 2 MHz keeps the edges clean on wires that run under
#: the whole board, and costs little: the exchanges are a few bytes each.
BAUDRATE = 2000000
#: The most bytes taken from the host per step, so that a flood cannot hold up the scans.
MAX_READ = 256


def open_hub():
    """The hub with a reader on every slot of ``CS_PINS`` (not yet started)."""
    spi = SPI(SPI_BUS, baudrate=BAUDRATE, polarity=0, phase=0,
              sck=Pin(SCK), mosi=Pin(MOSI), miso=Pin(MISO))
    # Every chip select goes high (unselected) before the first exchange on the bus.
    selects = [Pin(pin, Pin.OUT, value=1) for pin in CS_PINS]
    return Hub(Scanner([MFRC522(spi, cs) for cs in selects], time))


def serve(hub, stdin, stdout, stop):
    """Run ``hub`` on the USB serial line (binary ``stdin``/``stdout``) until ``stop()``."""
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    for line in hub.start():
        stdout.write(line.encode())
    while not stop():
        received = bytearray()
        while len(received) < MAX_READ and poller.poll(0):
            byte = stdin.read(1)
            if not byte:
                break
            received += byte
        for line in hub.step(bytes(received)):
            stdout.write(line.encode())
