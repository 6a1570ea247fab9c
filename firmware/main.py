"""The reader hub at power-up: MicroPython runs main.py once boot is done.

Ctrl-C on the USB line cannot stop the hub: to it, a stray 0x03 from the host is just a
byte. Pressing the Pico's BOOTSEL button stops it and gives the REPL back, to copy new
files (README.md, "Flashing"); it starts again at the next power-up.
"""

import sys

import board
import micropython
import rp2

micropython.kbd_intr(-1)
try:
    board.serve(board.open_hub(), sys.stdin.buffer, sys.stdout.buffer, rp2.bootsel_button)
finally:
    micropython.kbd_intr(3)
