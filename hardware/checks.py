"""What ``totem-companion doctor`` checks: the display, the reader, the buttons, the feedback,
the voice.

Each check returns a ``PartReport``: what was found, line by line, and for each problem
the command or the change that fixes it. Simulated parts (terminal, keyboard, png, none)
are reported as such and are fine. Checks never raise: an unexpected error is a finding.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.voice.lines import VOICES
from hardware import pn532, rdm6300
from hardware.platform import FAST_I2C, FIX_I2C_RATE, gpio_problem, i2c_rate

#: BCM number -> physical pin of the 40-pin header (for messages a maker can follow).
HEADER_PIN = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16,
              24: 18, 10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 5: 29, 6: 31, 12: 32,
              13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40}
#: Serial ports that are the header UART (pins 8 and 10).
PI_UARTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
BAUD = {"rdm6300": rdm6300.BAUDRATE, "pn532": pn532.BAUDRATE, "hub": 115200}

FIX_I2C = "enable I2C: sudo raspi-config nonint do_i2c 0, then reboot (./setup.sh does both)"
FIX_I2C_GROUP = "add yourself to the i2c group: sudo usermod -aG i2c $USER, then log out and in"
FIX_UART = ("enable the UART: sudo raspi-config nonint do_serial_hw 0, then reboot "
            "(./setup.sh does it)")
FIX_CONSOLE = "free the UART from the login console: sudo raspi-config nonint do_serial_cons 1, then reboot"
FIX_DIALOUT = "add yourself to the dialout group: sudo usermod -aG dialout $USER, then log out and in"
#: Bits on the bus for a full frame: 1,024 data bytes in 32-byte blocks, each with its
#: address and control byte, 9 bits a byte (the acknowledge).
FULL_FRAME_BITS = 1024 * 34 // 32 * 9


@dataclass(frozen=True)
class Finding:
    """One thing found: fine (``ok``) or a problem with its ``fix``."""

    ok: bool
    text: str
    fix: str | None = None


@dataclass(frozen=True)
class PartReport:
    """The findings for one part (``display``, ``reader``, ``buttons``, ``feedback``)."""

    part: str
    spec: str
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        """True when nothing is wrong with this part."""
        return all(finding.ok for finding in self.findings)


def _pin(bcm: int) -> str:
    return f"BCM {bcm} (header pin {HEADER_PIN.get(bcm, '?')})"


def _simulated(part: str, spec: str, what: str) -> PartReport:
    return PartReport(part, spec, (Finding(True, f"simulated: {what}"),))


# --- display -----------------------------------------------------------------------------

def _smbus(port: int) -> Any:
    import smbus2
    return smbus2.SMBus(port)


def check_display(config: Config, *, dev: Path = Path("/dev"),
                  open_bus: Callable[[int], object] = _smbus, sys_root: Path = Path("/sys")) -> PartReport:
    """Is the I2C bus there and usable, how fast does it run, does the OLED answer at its address?"""
    kind = config.display
    if kind == "terminal":
        return _simulated("display", kind, "the screen is drawn in the terminal")
    if kind == "none":
        return _simulated("display", kind, "frames are not shown")
    if kind.startswith("png:"):
        return _simulated("display", kind, f"frames are written as PNG files to {kind[4:]}")
    port, address = config.i2c_port, config.i2c_address
    spec = f"{kind} on I2C bus {port} at 0x{address:02X}"
    path = dev / f"i2c-{port}"
    if not path.exists():
        return PartReport("display", spec, (Finding(False, f"no I2C bus {path}", FIX_I2C),))
    found = [Finding(True, f"I2C bus {path} is present"), *_rate(port, sys_root)]
    if not os.access(path, os.R_OK | os.W_OK):
        return PartReport("display", spec, (*found, Finding(False, f"no permission to use {path}", FIX_I2C_GROUP)))
    try:
        bus = open_bus(port)
    except OSError as exc:
        return PartReport("display", spec, (*found, Finding(False, f"cannot open {path}: {exc.strerror or exc}",
                                                            FIX_I2C_GROUP)))
    try:
        if _answers(bus, address):
            found.append(Finding(True, f"a device answers at 0x{address:02X}"))
        else:
            other = address ^ 0x01 if address in (0x3C, 0x3D) else None
            if other is not None and _answers(bus, other):
                found.append(Finding(False, f"nothing answers at 0x{address:02X}, but a device answers "
                                            f"at 0x{other:02X}",
                                     f"set i2c_address = 0x{other:02X} in [display] of the config file"))
            else:
                found.append(Finding(False, f"nothing answers at 0x{address:02X} on I2C bus {port}",
                                     f"check the OLED's wiring: SDA to header pin 3, SCL to pin 5, VCC to "
                                     f"pin 1 (3.3 V), GND to pin 9; i2cdetect -y {port} lists what answers"))
    finally:
        close = getattr(bus, "close", None)
        if close:
            close()
    return PartReport("display", spec, tuple(found))


def _rate(port: int, sys_root: Path) -> list[Finding]:
    """The bus's clock, when the kernel tells it: fine at any rate, but at 100 kHz (the Pi's
    default) a full frame takes ~0.1 s, four times as long as at 400 kHz: said, with the fix."""
    rate = i2c_rate(port, sys_root)
    if rate is None:
        return []
    said = f"I2C bus {port} runs at {rate / 1000:g} kHz"
    if rate >= FAST_I2C:
        return [Finding(True, said)]
    return [Finding(True, f"{said}: a full frame takes about {FULL_FRAME_BITS / rate:.2f} s", FIX_I2C_RATE)]


def _answers(bus: Any, address: int) -> bool:
    try:
        bus.read_byte(address)
    except OSError:
        return False
    return True


# --- reader ------------------------------------------------------------------------------

def _serial(port: str, baudrate: int) -> Any:
    import serial
    return serial.Serial(port, baudrate=baudrate, timeout=0.2)


def check_reader(config: Config, *, open_serial: Callable[[str, int], Any] = _serial,
                 cmdline: Path = Path("/proc/cmdline")) -> PartReport:
    """Is the serial port there, free of the console, can it be opened, does the reader talk?"""
    spec = config.reader
    if spec == "keyboard":
        return _simulated("reader", spec, "type an item name or a UID and Enter to scan")
    if spec == "none":
        return _simulated("reader", spec, "no scans (buttons only)")
    from companion.errors import UserError
    from hardware.serial_reader import parse_reader

    try:
        kind, port = parse_reader(spec)   # a device path, never a URL that opens a connection
    except UserError as exc:
        return PartReport("reader", spec, (Finding(False, str(exc), "name the reader's device, e.g. "
                                                                    "rdm6300:/dev/serial0 or hub:/dev/ttyACM0"),))
    found: list[Finding] = []
    if not Path(port).exists():
        fix = FIX_UART if port in PI_UARTS else \
            "plug the reader in and find its port: ls /dev/ttyUSB* /dev/ttyACM*"
        return PartReport("reader", spec, (Finding(False, f"no serial port {port}", fix),))
    found.append(Finding(True, f"serial port {port} is present"))
    if not os.access(port, os.R_OK | os.W_OK):
        return PartReport("reader", spec, (*found, Finding(False, f"no permission to use {port}", FIX_DIALOUT)))
    if port in PI_UARTS and _console_on_uart(cmdline):
        found.append(Finding(False, "the login console uses the UART", FIX_CONSOLE))
    import serial

    try:
        link = open_serial(port, BAUD[kind])
    except (OSError, serial.SerialException) as exc:
        fix = ("it is no serial port: name the reader's own (/dev/serial0, /dev/ttyUSB0, /dev/ttyACM0)"
               if not _is_terminal(port) else "close other programs using it (screen, minicom), then try again")
        return PartReport("reader", spec, (*found, Finding(False, f"cannot open {port}: {exc}", fix)))
    try:
        found += _talk_hub(port, link) if kind == "hub" else [_talk(kind, port, link)]
    finally:
        link.close()
    return PartReport("reader", spec, tuple(found))


def _is_terminal(port: str) -> bool:
    """Whether ``port`` is a terminal device (a serial port is one; ``/dev/zero`` is not)."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return True  # cannot tell: the usual advice stands
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)


def _console_on_uart(cmdline: Path) -> bool:
    try:
        words = cmdline.read_text().split()
    except OSError:
        return False
    return any(word in (f"console={name}" for name in ("serial0", "ttyAMA0", "ttyS0"))
               or word.startswith(("console=serial0,", "console=ttyAMA0,", "console=ttyS0,"))
               for word in words)


def _talk(kind: str, port: str, link: Any) -> Finding:
    if kind == "pn532":
        reader = pn532.PN532(link)
        try:
            reader.wake()
            firmware = reader.firmware_version()
        except OSError as exc:
            return Finding(False, f"the PN532 does not answer on {port} ({exc})",
                           "check its wiring (PN532 TXD to header pin 10, RXD to pin 8, VCC, GND) and "
                           "that its mode switches select HSU (both off)")
        return Finding(True, f"the PN532 answers: {firmware}")
    return Finding(True, f"{port} opens at {BAUD[kind]} baud; the RDM6300 only speaks when it reads a tag: "
                         f"hold a tag to the coil and run totem-companion listen")


def _slot_words(slot: int) -> str:
    return "slot 0 (the scan pad)" if slot == 0 else f"slot {slot} (village {slot})"


def _talk_hub(port: str, link: Any, *, wait: float = 2.0) -> list[Finding]:
    """Greet the hub on ``link`` and wait for its state: who answers, which slots do."""
    from companion.errors import UserError
    from hardware.hub_reader import HubReader

    try:
        # The reader "opens" the port already open, and closes it when done.
        hub = HubReader(port, open_port=lambda *args, **kwargs: link)
    except UserError as exc:
        return [Finding(False, str(exc), "copy the firmware to the Pico (./setup.sh flash) and check the USB cable")]
    hub.start(lambda event: None)
    try:
        deadline = time.monotonic() + wait
        while hub.link.states == 0 and time.monotonic() < deadline:
            time.sleep(0.02)        # the state comes within a scan or two
    finally:
        hub.close()
    state = hub.link
    found = [Finding(True, f"the reader hub answers: totem-hub {state.version}, {state.slots} slots")]
    if state.states == 0:
        return [*found, Finding(False, "the hub did not say which slots answer",
                                "unplug the Pico and plug it back in, then try again")]
    silent = sorted(state.silent)
    if silent:
        found.append(Finding(False, f"{state.slots - len(silent)} of {state.slots} slots answer; "
                                    + "; ".join(f"{_slot_words(slot)}: {state.silent[slot]}" for slot in silent),
                             "check those readers' wires: SDA (chip select) to the slot's own pin, and SCK, "
                             "MOSI, MISO, 3.3V, GND (the wiring table in firmware/README.md)"))
    else:
        found.append(Finding(True, f"all {state.slots} slots answer"))
    # A clone answers another version, and works: said, for a bug report about that slot.
    found += [Finding(True, line) for line in state.chip_lines() if "clone" in line]
    tags = sum(len(uids) for uids in state.board.values())
    found.append(Finding(True, f"{tags} tag{'s' if tags != 1 else ''} on the readers now; "
                               "totem-companion listen shows them come and go"))
    return found


# --- buttons and feedback ----------------------------------------------------------------

def _factory(pin_factory: Any, dev: Path) -> tuple[Any, Finding]:
    """The pin factory to use and a finding about it (None when there is no factory)."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    if pin_factory is not None:
        return pin_factory, Finding(True, f"pin factory: {type(pin_factory).__name__}")
    from gpiozero.exc import PinFactoryFallback

    # gpiozero warns once a library it could not load; the first one (lgpio) is the reason.
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except BadPinFactory:
            # lgpio says "can not open gpiochip" for a missing chip, a chip of root's only and
            # a group joined since this login alike: gpio_problem tells them apart.
            reason = str(fallbacks[0].message).removeprefix("Falling back from ") if fallbacks else ""
            what, fix = gpio_problem(reason, dev)
            return None, Finding(False, f"no GPIO pin factory could be loaded: {what}", fix)
    return Device.pin_factory, Finding(True, f"pin factory: {type(Device.pin_factory).__name__}")


def check_buttons(config: Config, *, pin_factory: Any = None, dev: Path = Path("/dev")) -> PartReport:
    """Is there a pin factory, can each button's pin be claimed, is any stuck down?"""
    spec = config.buttons
    if spec == "keyboard":
        return _simulated("buttons", spec, "keys stand for the buttons")
    if spec == "none":
        return _simulated("buttons", spec, "no buttons (scans only)")
    # A plain InputDevice reads the level, which is all a check needs: a Button would start
    # edge events and a hold thread, and closing it waits for that thread (~0.1 s a pin).
    from gpiozero import InputDevice
    from gpiozero.exc import GPIOZeroError

    factory, first = _factory(pin_factory, dev)
    found = [first]
    if factory is None:
        return PartReport("buttons", spec, tuple(found))
    good = 0
    for name, pin in config.pins.items():
        try:
            # Pulled up: a button wired to ground reads active (low) while pressed.
            button = InputDevice(pin, pull_up=True, pin_factory=factory)
        except GPIOZeroError as exc:
            found.append(Finding(False, f"button {name} on {_pin(pin)}: cannot claim the pin ({exc})",
                                 f"stop the program using it, or choose another pin for {name} in [buttons.pins]"))
            continue
        try:
            if button.is_active:
                found.append(Finding(False, f"button {name} on {_pin(pin)} reads pressed with nobody "
                                            f"pressing it",
                                     f"release it; otherwise look for a short to ground at header pin "
                                     f"{HEADER_PIN.get(pin, '?')} or a button stuck closed"))
            else:
                good += 1
        finally:
            button.close()
    if good:
        found.append(Finding(True, f"{good} of {len(config.pins)} buttons on their pins, not pressed"))
    return PartReport("buttons", spec, tuple(found))


def check_feedback(config: Config, *, pin_factory: Any = None, dev: Path = Path("/dev")) -> PartReport | None:
    """Can the buzzer and LED pins be claimed? None when none are configured."""
    parts = ([("buzzer", config.buzzer_pin)] if config.buzzer_pin is not None else []) + \
        [(f"{name} LED", pin) for name, pin in config.led_pins.items()]
    if not parts:
        return None
    from gpiozero import OutputDevice
    from gpiozero.exc import GPIOZeroError

    spec = ", ".join(f"{what} on BCM {pin}" for what, pin in parts)
    factory, first = _factory(pin_factory, dev)
    if factory is None:
        return PartReport("feedback", spec, (first,))
    found = []
    for what, pin in parts:
        try:
            OutputDevice(pin, pin_factory=factory).close()
        except GPIOZeroError as exc:
            found.append(Finding(False, f"{what} on {_pin(pin)}: cannot claim the pin ({exc})",
                                 "stop the program using it, or choose another pin in [feedback]"))
        else:
            found.append(Finding(True, f"{what} on {_pin(pin)} is free"))
    return PartReport("feedback", spec, tuple(found))


# --- voice ---------------------------------------------------------------------------------

FIX_ESPEAK = "install it: sudo apt install espeak-ng (./setup.sh does it when [voice] mode is on)"
FIX_AUDIO = ("plug in the USB speaker, or wire the I2S amplifier and enable its overlay, or use the "
             "headphone jack (hardware/README.md, \"A speaker\"); aplay -l lists the outputs")


def _voices(program: str, voice: str) -> str:
    done = subprocess.run([program, f"--voices={voice.split('-')[0]}"], capture_output=True,
                          text=True, timeout=10, check=False)
    return done.stdout


def check_voice(config: Config, *, which: Callable[[str], str | None] = shutil.which,
                voices: Callable[[str, str], str] = _voices,
                dev: Path = Path("/dev")) -> PartReport | None:
    """Is espeak-ng there, with the voice of the configured language, and an audio output
    to speak on? None with the voice off."""
    if config.voice == "off":
        return None
    voice, name = VOICES[config.language]
    device = config.voice_device or "the default output"
    spec = f"{config.voice}, {name}, on {device}"
    program = which("espeak-ng")
    if program is None:
        return PartReport("voice", spec, (Finding(False, "espeak-ng is not installed", FIX_ESPEAK),))
    found = [Finding(True, f"espeak-ng at {program}")]
    listed = voices(program, voice)
    if re.search(rf"\s{re.escape(voice)}\s", listed, re.IGNORECASE):
        found.append(Finding(True, f"the {name} voice ({voice}) is there"))
    else:
        found.append(Finding(False, f"no {name} voice ({voice})", "sudo apt install espeak-ng-data"))
    found.append(_audio_output(config.voice_device, dev))
    return PartReport("voice", spec, tuple(found))


def _audio_output(device: str, dev: Path) -> Finding:
    """Whether ALSA has a playback device: the configured card's, or any."""
    outputs = sorted(p.name for p in (dev / "snd").glob("pcmC*D*p")) if (dev / "snd").is_dir() else []
    card = re.match(r"(?:plug)?hw:(?:CARD=)?(\d+)", device)
    if card is not None:
        outputs = [o for o in outputs if o.startswith(f"pcmC{card.group(1)}D")]
        where = f"card {card.group(1)}"
    else:
        where = "this system"
    if not outputs:
        return Finding(False, f"no audio output on {where}", FIX_AUDIO)
    return Finding(True, f"audio output on {where}: {', '.join(outputs)}")


def check_all(config: Config, *, pin_factory: Any = None, dev: Path = Path("/dev"),
              open_bus: Callable[[int], object] = _smbus,
              open_serial: Callable[[str, int], Any] = _serial,
              cmdline: Path = Path("/proc/cmdline"), sys_root: Path = Path("/sys"),
              voices: Callable[[str, str], str] = _voices) -> list[PartReport]:
    """Every part of a resolved ``config``; an unexpected error becomes a finding."""
    checks: list[tuple[str, str, Callable[[], PartReport | None]]] = [
        ("display", config.display, lambda: check_display(config, dev=dev, open_bus=open_bus,
                                                              sys_root=sys_root)),
        ("reader", config.reader, lambda: check_reader(config, open_serial=open_serial, cmdline=cmdline)),
        ("buttons", config.buttons, lambda: check_buttons(config, pin_factory=pin_factory, dev=dev)),
        ("feedback", "buzzer and LEDs", lambda: check_feedback(config, pin_factory=pin_factory, dev=dev)),
        ("voice", config.voice, lambda: check_voice(config, voices=voices, dev=dev)),
    ]
    reports: list[PartReport] = []
    for part, spec, check in checks:
        try:
            report = check()
        except Exception as exc:  # the doctor reports problems, it must not become one
            report = PartReport(part, spec, (Finding(False, f"the check failed: {type(exc).__name__}: {exc}",
                                                     "please report this with the output of "
                                                     "totem-companion doctor"),))
        if report is not None:
            reports.append(report)
    return reports
