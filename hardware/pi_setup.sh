# shellcheck shell=bash
# Raspberry Pi system set-up for Totem Companion; sourced by ./setup.sh on a Pi only.
#   pi_setup_system   apt packages, I2C and the UART on (serial console off), groups.
# Idempotent: a second run changes nothing and says nothing but "system ready".

# Run a command as root: directly when we are root, through sudo otherwise.
pi_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

pi_say() { printf 'setup: %s\n' "$*" >&2; }

# The user the companion runs as: the one who called sudo, else the current one.
pi_user() { printf '%s\n' "${SUDO_USER:-$(id -un)}"; }

pi_apt_packages() {
    local missing=() pkg
    for pkg in python3-lgpio i2c-tools python3-venv; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    pi_say "installing ${missing[*]}"
    pi_as_root apt-get update -qq
    pi_as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# raspi-config get_* answers 0 for "on" and 1 for "off".
pi_interfaces() {
    command -v raspi-config >/dev/null 2>&1 || {
        pi_say "raspi-config not found: enable I2C and the serial port (without console) by hand"
        return 0
    }
    if [ "$(pi_as_root raspi-config nonint get_i2c)" != 0 ]; then
        pi_say "enabling I2C (the OLED)"
        pi_as_root raspi-config nonint do_i2c 0
        PI_REBOOT=1
    fi
    if pi_as_root raspi-config nonint get_serial_hw >/dev/null 2>&1; then
        if [ "$(pi_as_root raspi-config nonint get_serial_hw)" != 0 ]; then
            pi_say "enabling the UART (the RFID reader)"
            pi_as_root raspi-config nonint do_serial_hw 0
            PI_REBOOT=1
        fi
        if [ "$(pi_as_root raspi-config nonint get_serial_cons)" = 0 ]; then
            pi_say "taking the login console off the UART"
            pi_as_root raspi-config nonint do_serial_cons 1
            PI_REBOOT=1
        fi
    elif [ "$(pi_as_root raspi-config nonint get_serial)" = 0 ] \
        || ! grep -qs '^enable_uart=1' /boot/config.txt /boot/firmware/config.txt; then
        # Older raspi-config: get_serial 0 = console on the UART; do_serial 2 = UART on, console off.
        pi_say "enabling the UART without the login console"
        pi_as_root raspi-config nonint do_serial 2
        PI_REBOOT=1
    fi
}

pi_groups() {
    local user group added=()
    user=$(pi_user)
    if [ "$(id -u "$user")" -eq 0 ]; then
        # Root needs no group, and the companion must not run as root: name the player.
        pi_say "run from a root shell: add the user who plays to the device groups with sudo usermod -aG gpio,i2c,spi,dialout NAME"
        return 0
    fi
    for group in gpio i2c spi dialout; do
        getent group "$group" >/dev/null || continue
        id -nG "$user" | tr ' ' '\n' | grep -qx "$group" && continue
        pi_as_root usermod -aG "$group" "$user"
        added+=("$group")
    done
    if [ ${#added[@]} -gt 0 ]; then
        pi_say "added $user to ${added[*]} (takes effect at the next login)"
        PI_RELOGIN=1
    fi
}

pi_setup_system() {
    PI_REBOOT=0
    PI_RELOGIN=0
    pi_apt_packages || { pi_say "apt-get failed; fix the messages above and run ./setup.sh again"; return 1; }
    pi_interfaces
    pi_groups
    if [ "$PI_REBOOT" = 1 ]; then
        pi_say "reboot needed for the new interfaces: sudo reboot"
    elif [ "$PI_RELOGIN" = 1 ]; then
        pi_say "log out and in again (or reboot) for the new groups"
    fi
    return 0
}
