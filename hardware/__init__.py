"""Adapters to the physical world: buttons, RFID readers, displays, buzzer and LEDs.

This package is the only code that imports gpiozero, luma or serial. Input sources turn
what happens at the table into the plain events of ``companion.events``; each has
``start(put)`` and ``close()``, and ``hardware.inputs.open_inputs`` builds them from the
configuration.
"""
