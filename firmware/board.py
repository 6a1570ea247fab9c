"""The hub's hardware: the Pico's pins, the readers on its SPI bus, the USB serial line.

The pins are the wiring table of README.md: SPI0 on GP16 (MISO), GP18 (SCK) and GP19
(MOSI), and one chip-select pin per slot.
"""

import select
import time

from hub import Hub
from machine import SPI, Pin
from mfrc522 import MFRC522, hard_reset
from scanner import Scanner

SPI_BUS = 0
SCK = 18
MOSI = 19
MISO = 16
#: The chip-select pin of each slot's reader: slot 0 the scan pad, slots 1-6 the villages.
CS_PINS = (17, 20, 21, 22, 26, 27, 28)
#: The pin wired to every reader's RST, or None when RST is tied to 3.3 V. With it, the
#: hub restarts every reader at power-up as a power cycle would: a chip wedged so that
#: it takes no soft reset comes back with a restart of the hub (`mpremote reset`).
RST_PIN = None
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
    if RST_PIN is not None:
        hard_reset(Pin(RST_PIN, Pin.OUT, value=1), time)
    return Hub(Scanner([MFRC522(spi, cs, time) for cs in selects], time))


def serve(hub, stdin, stdout, stop):
    """Run ``hub`` on the USB serial line (binary ``stdin``/``stdout``) until ``stop()``.

    A step in which the host sends nothing allocates nothing: MicroPython's ``ipoll``
    reuses its answer (``poll`` makes a list each time; CPython, where the tests run
    this loop, has only that one), and no buffer is made unless a byte came.
    """
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    ready = getattr(poller, "ipoll", poller.poll)

    def send(line):
        stdout.write(line.encode())

    for line in hub.start():
        send(line)
    while not stop():
        received = b""
        if _waiting(ready):
            taken = bytearray()
            while len(taken) < MAX_READ and _waiting(ready):
                byte = stdin.read(1)
                if not byte:
                    break
                taken += byte
            received = bytes(taken)
        # Each line goes out as soon as it is made: a piece laid on the pad is told before
        # the villages after it are read.
        hub.step(received, send)


def _waiting(ready):
    """Whether a byte waits on the line (``ready``: the poller's ``ipoll`` or ``poll``)."""
    for _ in ready(0):
        return True
    return False
