"""doctor: what it finds and how it words fixes; hardware mocked (MockFactory, ptys, paths)."""

import errno
import functools
import grp
import os
import pwd
import warnings

import pytest
import serial
import smbus2
from fakes import FakePN532, LoopPort
from gpiozero import Device, InputDevice
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins.mock import MockPin

from companion.cli import main
from companion.config import Config
from hardware import checks, platform, pn532
from hardware.checks import check_all, check_buttons, check_display, check_feedback, check_reader
from hardware.platform import is_raspberry_pi


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch, mocker):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    mocker.patch.object(platform, "is_raspberry_pi", return_value=False)


@pytest.fixture
def i2c_bus(mocker):
    """``i2c_bus(answering=(0x3C,))``: an SMBus mock where only those addresses answer."""
    def make(answering=(0x3C,)):
        def read_byte(address, force=None):
            if address not in answering:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            return 0
        bus = mocker.create_autospec(smbus2.SMBus, instance=True)
        bus.read_byte.side_effect = read_byte
        return bus
    return make


@pytest.fixture
def no_access(mocker):
    """Every permission check (``os.access``) says no."""
    return mocker.patch.object(checks.os, "access", return_value=False)


@pytest.fixture
def dev(tmp_path):
    folder = tmp_path / "dev"
    folder.mkdir()
    (folder / "i2c-1").touch()
    return folder


def texts(report):
    return [(f.ok, f.text, f.fix) for f in report.findings]


# --- display -----------------------------------------------------------------------------

def test_simulated_displays_are_fine():
    for kind in ("terminal", "none", "png:/tmp/frames"):
        report = check_display(Config(display=kind))
        assert report.ok and "simulated" in report.findings[0].text


def test_missing_i2c_bus_says_enable_i2c(tmp_path):
    report = check_display(Config(display="ssd1306"), dev=tmp_path)
    assert not report.ok
    assert "sudo raspi-config nonint do_i2c 0" in report.findings[0].fix


def test_oled_answering(dev, mocker, i2c_bus):
    bus = i2c_bus()
    open_bus = mocker.Mock(return_value=bus)
    report = check_display(Config(display="sh1106"), dev=dev, open_bus=open_bus)
    assert report.ok and report.spec == "sh1106 on I2C bus 1 at 0x3C"
    assert "answers at 0x3C" in report.findings[-1].text
    open_bus.assert_called_once_with(1)
    bus.close.assert_called_once_with()


def test_oled_at_the_other_address_is_pointed_out(dev, mocker, i2c_bus):
    bus = i2c_bus((0x3D,))
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=mocker.Mock(return_value=bus))
    assert not report.ok
    assert report.findings[-1].fix == "set i2c_address = 0x3D in [display] of the config file"
    bus.close.assert_called_once_with()


def test_nothing_answering_says_check_wiring(dev, mocker, i2c_bus):
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=mocker.Mock(return_value=i2c_bus(())))
    assert not report.ok and "i2cdetect -y 1" in report.findings[-1].fix


def test_i2c_permission(dev, mocker, no_access):
    open_bus = mocker.Mock()
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=open_bus)
    assert "sudo usermod -aG i2c $USER" in report.findings[-1].fix
    open_bus.assert_not_called()


def test_bus_that_cannot_be_opened(dev, mocker):
    open_bus = mocker.Mock(side_effect=PermissionError(errno.EACCES, "Permission denied"))
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=open_bus)
    assert not report.ok and "cannot open" in report.findings[-1].text


def i2c_clock(tmp_path, rate):
    """A /sys whose I2C bus 1 runs at ``rate`` Hz (the device tree's 4 big-endian bytes)."""
    node = tmp_path / "sys" / "class" / "i2c-adapter" / "i2c-1" / "of_node"
    node.mkdir(parents=True)
    (node / "clock-frequency").write_bytes(rate.to_bytes(4, "big"))
    return tmp_path / "sys"


def test_the_i2c_rate_is_reported_and_100_khz_says_how_to_speed_it_up(dev, tmp_path, mocker, i2c_bus):
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=mocker.Mock(return_value=i2c_bus()),
                           sys_root=i2c_clock(tmp_path, 100_000))
    assert report.ok      # slow is not broken
    rate = report.findings[1]
    assert rate.text == "I2C bus 1 runs at 100 kHz: a full frame takes about 0.10 s"
    assert "dtparam=i2c_arm_baudrate=400000" in rate.fix


def test_the_i2c_rate_at_400_khz_is_fine(dev, tmp_path, mocker, i2c_bus):
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=mocker.Mock(return_value=i2c_bus()),
                           sys_root=i2c_clock(tmp_path, 400_000))
    assert (report.findings[1].ok, report.findings[1].text, report.findings[1].fix) == \
        (True, "I2C bus 1 runs at 400 kHz", None)


def test_an_unknown_i2c_rate_is_not_mentioned(dev, tmp_path, mocker, i2c_bus):
    report = check_display(Config(display="ssd1306"), dev=dev, open_bus=mocker.Mock(return_value=i2c_bus()),
                           sys_root=tmp_path / "no-sys")
    assert not any("kHz" in f.text for f in report.findings)


# --- reader ------------------------------------------------------------------------------

@pytest.fixture
def pty():
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_simulated_readers_are_fine():
    assert check_reader(Config(reader="keyboard")).ok
    assert check_reader(Config(reader="none")).ok


def test_missing_uart_says_enable_it(tmp_path, mocker):
    port = str(tmp_path / "serial0")
    mocker.patch.object(checks, "PI_UARTS", (port,))
    report = check_reader(Config(reader=f"rdm6300:{port}"))
    assert not report.ok and "do_serial_hw 0" in report.findings[0].fix


def test_missing_usb_port_says_plug_it_in(tmp_path):
    report = check_reader(Config(reader=f"hub:{tmp_path}/ttyACM0"))
    assert not report.ok and "plug the reader in" in report.findings[0].fix


def test_rdm6300_on_a_pty_opens(pty, tmp_path):
    report = check_reader(Config(reader=f"rdm6300:{pty}"), cmdline=tmp_path / "none")
    assert report.ok
    assert "hold a tag" in report.findings[-1].text


def test_serial_console_on_the_uart_is_a_problem(tmp_path, mocker):
    cmdline = tmp_path / "cmdline"
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait\n")
    mocker.patch.object(checks, "PI_UARTS", ("/dev/ptmx",))
    report = check_reader(Config(reader="rdm6300:/dev/ptmx"), cmdline=cmdline)
    assert (False, "the login console uses the UART", checks.FIX_CONSOLE) in texts(report)


def test_port_without_permission(pty, mocker, no_access):
    open_serial = mocker.Mock()
    report = check_reader(Config(reader=f"pn532:{pty}"), open_serial=open_serial)
    assert "dialout" in report.findings[-1].fix
    open_serial.assert_not_called()


def test_port_that_will_not_open(pty, mocker):
    busy = serial.SerialException(f"could not open port {pty}: [Errno 16] Device or resource busy")
    open_serial = mocker.Mock(side_effect=busy)
    report = check_reader(Config(reader=f"rdm6300:{pty}"), open_serial=open_serial)
    assert not report.ok and "Device or resource busy" in report.findings[-1].text
    open_serial.assert_called_once_with(pty, 9600)


def pn532_port(device):
    """An ``open_serial`` whose port leads to ``device`` (a FakePN532), whatever is asked."""
    return lambda port, baudrate: LoopPort(device)


def test_pn532_answering(pty):
    report = check_reader(Config(reader=f"pn532:{pty}"), open_serial=pn532_port(FakePN532()))
    assert report.ok and report.findings[-1].text == "the PN532 answers: PN532 firmware 1.6"


def test_pn532_silent(pty, mocker):
    device = FakePN532()
    device.silent = True
    # The real driver, with a shorter wait for an answer that will not come.
    mocker.patch.object(pn532, "PN532", functools.partial(pn532.PN532, timeout=0.01))
    report = check_reader(Config(reader=f"pn532:{pty}"), open_serial=pn532_port(device))
    assert not report.ok
    assert report.findings[-1].text == (f"the PN532 does not answer on {pty} "
                                        f"(PN532 command 0x14: no ACK after 3 tries)")
    assert "HSU" in report.findings[-1].fix


def test_a_pyserial_url_is_not_a_port_and_nothing_is_opened(mocker):
    open_serial = mocker.Mock()
    report = check_reader(Config(reader="pn532:socket://127.0.0.1:9"), open_serial=open_serial)
    assert [(f.ok, f.text) for f in report.findings] == [
        (False, "reader 'pn532:socket://127.0.0.1:9': the port is a device path, such as /dev/serial0 "
                "or /dev/ttyUSB0")]
    open_serial.assert_not_called()


# --- buttons and feedback ----------------------------------------------------------------

def test_simulated_buttons_are_fine():
    assert check_buttons(Config(buttons="keyboard")).ok


def test_all_buttons_free(pin_factory):
    config = Config(buttons="gpio")
    report = check_buttons(config, pin_factory=pin_factory)
    assert report.ok
    assert texts(report) == [(True, "pin factory: MockFactory", None),
                             (True, "10 of 10 buttons on their pins, not pressed", None)]
    # The check released every pin it claimed (a pin still claimed raises GPIOPinInUse).
    for pin in config.pins.values():
        InputDevice(pin, pin_factory=pin_factory).close()


class Shorted(MockPin):
    """A pin tied to ground: the pull-up cannot raise it."""

    def drive_high(self):
        pass


def test_stuck_button_and_busy_pin(pin_factory):
    pin_factory.pin(13, pin_class=Shorted)          # v3 shorted to ground
    busy = InputDevice(17, pin_factory=pin_factory)  # up: taken by another program
    report = check_buttons(Config(buttons="gpio"), pin_factory=pin_factory)
    busy.close()
    problems = [f for f in report.findings if not f.ok]
    assert len(problems) == 2
    assert problems[0].text.startswith("button v3 on BCM 13 (header pin 33) reads pressed")
    assert "button up on BCM 17 (header pin 11): cannot claim" in problems[1].text
    assert "8 of 10 buttons" in report.findings[-1].text


def no_factory(mocker, reason):
    """gpiozero finds no pin factory, the first library (lgpio) having said ``reason``."""
    def none():
        warnings.warn(PinFactoryFallback(f"Falling back from lgpio: {reason}"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")
    mocker.patch.object(Device, "pin_factory", None)
    mocker.patch.object(Device, "_default_pin_factory", side_effect=none)


@pytest.fixture
def lgpio_installed(mocker):
    """lgpio imports (whether or not this machine has it)."""
    mocker.patch.object(platform.importlib.util, "find_spec", return_value=mocker.Mock())


@pytest.fixture
def chip(tmp_path, mocker):
    """``chip(group=..., listed=...)``: /dev/gpiochip0 of that group (None: root's only),
    this process not allowed to use it, the user listed in the group's database or not."""
    def make(group, listed):
        dev = tmp_path / "dev"
        dev.mkdir()
        (dev / "gpiochip0").touch()
        if (dev / "gpiochip0").stat().st_gid == 0:
            os.chown(dev / "gpiochip0", -1, 4242)   # root's tests: a group that is not root's
        gid = (dev / "gpiochip0").stat().st_gid
        mocker.patch.object(platform.os, "access", return_value=False)
        if group is None:
            mocker.patch.object(platform.grp, "getgrgid", side_effect=KeyError(gid))
        else:
            entry = grp.struct_group((group, "x", gid, ["pi"] if listed else []))
            mocker.patch.object(platform.grp, "getgrgid", return_value=entry)
        mocker.patch.object(platform.pwd, "getpwuid",
                            return_value=pwd.struct_passwd(("pi", "x", 1000, gid + 1, "", "/home/pi", "/bin/sh")))
        return dev
    return make


def test_no_lgpio_says_install_it_with_setup_sh(mocker, tmp_path):
    no_factory(mocker, "No module named 'lgpio'")
    mocker.patch.object(platform.importlib.util, "find_spec", return_value=None)
    report = check_buttons(Config(buttons="gpio"), dev=tmp_path)
    assert texts(report) == [(False, "no GPIO pin factory could be loaded: the GPIO library lgpio is not "
                                     "installed (lgpio: No module named 'lgpio')", platform.FIX_LGPIO)]
    assert "./setup.sh" in platform.FIX_LGPIO and "PyPI" in platform.FIX_LGPIO


def test_no_gpio_chip_is_said_with_lgpios_reason(mocker, tmp_path, lgpio_installed):
    no_factory(mocker, "'can not open gpiochip'")
    (finding,) = check_buttons(Config(buttons="gpio"), dev=tmp_path).findings
    assert finding.text.endswith(f"no GPIO chip {tmp_path}/gpiochip0 (lgpio: 'can not open gpiochip')")
    assert "--buttons keyboard" in finding.fix and "apt" not in finding.fix


def test_a_group_joined_since_this_login_says_log_in_again(mocker, chip, lgpio_installed):
    no_factory(mocker, "'can not open gpiochip'")
    dev = chip("gpio", listed=True)
    (finding,) = check_buttons(Config(buttons="gpio"), dev=dev).findings
    assert "you are in its group gpio, but not this login (lgpio: 'can not open gpiochip')" in finding.text
    assert finding.fix == platform.FIX_GPIO_LOGIN and "log out and in again" in finding.fix


def test_a_group_not_joined_says_join_it(mocker, chip, lgpio_installed):
    no_factory(mocker, "'can not open gpiochip'")
    (finding,) = check_buttons(Config(buttons="gpio"), dev=chip("gpio", listed=False)).findings
    assert "no permission to use" in finding.text and "(group gpio)" in finding.text
    assert finding.fix == "add yourself to the gpio group: sudo usermod -aG gpio $USER, then log out and in"


def test_a_chip_of_roots_only_says_debian_has_no_gpio_group(mocker, chip, lgpio_installed):
    no_factory(mocker, "'can not open gpiochip'")
    (finding,) = check_buttons(Config(buttons="gpio"), dev=chip(None, listed=False)).findings
    assert "is root's only: this system has no gpio group for it (Raspberry Pi OS has one)" in finding.text
    assert finding.fix == platform.FIX_GPIO_RULE and "udev" in finding.fix


def test_the_gpio_messages_are_one_line_each(mocker, tmp_path):
    no_factory(mocker, "No module named 'lgpio'")
    report = check_buttons(Config(buttons="gpio"), dev=tmp_path)
    assert all("\n" not in (f.text + (f.fix or "")) for f in report.findings)


def test_feedback_only_when_configured(pin_factory):
    assert check_feedback(Config(), pin_factory=pin_factory) is None
    busy = InputDevice(16, pin_factory=pin_factory)
    report = check_feedback(Config(buzzer_pin=18, led_pins={"red": 16}), pin_factory=pin_factory)
    busy.close()
    assert [f.ok for f in report.findings] == [True, False]
    assert report.spec == "buzzer on BCM 18, red LED on BCM 16"


def test_unexpected_error_becomes_a_finding(mocker):
    mocker.patch.object(checks, "check_reader", side_effect=RuntimeError("surprise"))
    reports = check_all(Config(display="none", reader="keyboard", buttons="none"))
    assert [r.part for r in reports] == ["display", "reader", "buttons"]
    assert reports[1].findings[0].text == "the check failed: RuntimeError: surprise"


# --- the command -------------------------------------------------------------------------

def test_doctor_all_simulated_exits_0(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "display  terminal"
    assert out.strip().endswith("all good")


def test_doctor_problems_exit_1_with_fixes(capsys, tmp_path, pin_factory):
    code = main(["doctor", "--display", "none", "--reader", f"rdm6300:{tmp_path}/ttyUSB9",
                 "--buttons", "gpio"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"  FAIL  no serial port {tmp_path}/ttyUSB9" in out
    assert "        fix: plug the reader in" in out
    assert "pin factory: MockFactory" in out      # the buttons were checked on the mock pins
    assert out.strip().endswith("1 problem found")


def test_doctor_bad_config_is_one_line(capsys, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[display]\nkind = 'lcd'\n")
    assert main(["doctor", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "display.kind: 'lcd' is not a display" in err


def test_doctor_bad_option_is_usage(capsys):
    assert main(["doctor", "--reader", "rdm6300"]) == 2
    assert "--reader: 'rdm6300' is not a reader" in capsys.readouterr().err


def test_is_raspberry_pi_reads_the_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    assert is_raspberry_pi(model)
    model.write_bytes(b"Pine64 RockPro64\x00")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "missing")
