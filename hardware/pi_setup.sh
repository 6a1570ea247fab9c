# shellcheck shell=bash
# Raspberry Pi system set-up for Totem Companion; sourced by ./setup.sh on a Pi only.
#   pi_setup_system      apt packages, I2C (at 400 kHz) and the UART on (serial console off), groups.
#   pi_venv_lgpio VENV   the GPIO library in the venv, from PyPI where apt has none.
# Idempotent: a second run changes nothing and prints nothing of its own.
#
# Raspberry Pi OS only: python3-lgpio (its own archive; Debian has none), raspi-config, and
# the gpio and spi groups. Elsewhere (plain Debian on a Pi) each of these is said once, and
# the rest goes on: lgpio comes from PyPI, config.txt is edited directly where there is one.

# Run a command as root: directly when we are root, through sudo otherwise.
pi_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

pi_say() { printf 'setup: %s\n' "$*" >&2; }

# Say a line only the first time (KEY names it): a note about the system, not a change, is
# news once. The marks live in the venv's folder (made here if the venv is not yet).
pi_say_once() {
    local mark="${PI_MARKS:-${VENV:-.venv}}/.said-$1"
    [ -e "$mark" ] && return 0
    pi_say "$2"
    mkdir -p "${mark%/*}" 2>/dev/null && : >"$mark" 2>/dev/null
    return 0
}

# The user the companion runs as: the one who called sudo, else the current one.
pi_user() { printf '%s\n' "${SUDO_USER:-$(id -un)}"; }

pi_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# True when apt knows a version of the package (python3-lgpio: Raspberry Pi OS's archive only).
pi_apt_has() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }

# The packages one by one (apt installs all or nothing): one that is missing does not stop
# the others, nor the venv. Fails only without python3-venv, which the venv needs.
pi_apt_packages() {
    local missing=() pkg failed=()
    for pkg in python3-lgpio i2c-tools python3-venv; do
        pi_installed "$pkg" && continue
        # lgpio from PyPI, in the venv already (plain Debian), is as good as the package.
        [ "$pkg" = python3-lgpio ] && "${VENV:-.venv}/bin/python" -c 'import lgpio' 2>/dev/null && continue
        missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    pi_as_root apt-get update -qq || pi_say "apt-get update failed; trying the packages apt knows already"
    for pkg in "${missing[@]}"; do
        if [ "$pkg" = python3-lgpio ] && ! pi_apt_has "$pkg"; then
            pi_say_once no-apt-lgpio "python3-lgpio is in Raspberry Pi OS's archive only, not this system's: lgpio comes from PyPI into the venv instead"
            continue
        fi
        pi_say "installing $pkg"
        pi_as_root apt-get install -y -qq "$pkg" >/dev/null || failed+=("$pkg")
    done
    [ ${#failed[@]} -eq 0 ] && return 0
    pi_say "apt-get could not install ${failed[*]}; see the messages above"
    case " ${failed[*]} " in
        *" python3-venv "*) return 1 ;;   # no venv without it: nothing else can work
    esac
    return 0
}

# The boot configuration file: /boot/firmware/config.txt (Bookworm on), /boot/config.txt before.
pi_boot_config() {
    local file
    for file in ${PI_BOOT_CONFIGS:-/boot/firmware/config.txt /boot/config.txt}; do
        [ -f "$file" ] && { printf '%s\n' "$file"; return 0; }
    done
    return 1
}

# Set a line of config.txt: LINE (KEY=VALUE, KEY up to the last "=") replaces an active
# KEY= line, or is added in an [all] section (the file may end in a model's own section).
# Fails (changing nothing) when the line is there already.
pi_config_line() {
    local file=$1 line=$2 key=${2%=*}
    grep -qx "$line" "$file" && return 1
    if grep -q "^$key=" "$file"; then
        pi_as_root sed -i "s|^$key=.*|$line|" "$file"
    else
        printf '[all]\n%s\n' "$line" | pi_as_root tee -a "$file" >/dev/null
    fi
    return 0
}

# The OLED's bus at 400 kHz: a full frame then takes ~0.03 s instead of ~0.1 s at 100 kHz.
pi_i2c_speed() {
    local file
    file=$(pi_boot_config) || {
        pi_say_once no-config-txt "no config.txt in /boot/firmware or /boot: set the I2C bus to 400 kHz by hand (dtparam=i2c_arm_baudrate=400000)"
        return 0
    }
    if pi_config_line "$file" "dtparam=i2c_arm_baudrate=400000"; then
        pi_say "setting the I2C bus to 400 kHz in $file (the OLED draws four times faster)"
        PI_REBOOT=1
    fi
    return 0
}

# raspi-config get_* answers 0 for "on" and 1 for "off".
pi_interfaces() {
    command -v raspi-config >/dev/null 2>&1 || {
        pi_say_once no-raspi-config "raspi-config not found (it is Raspberry Pi OS's): enable I2C and the serial port (without console) by hand"
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
    local user group added=() absent=()
    user=$(pi_user)
    if [ "$(id -u "$user")" -eq 0 ]; then
        # Root needs no group, and the companion must not run as root: name the player.
        pi_say "run from a root shell: add the user who plays to the device groups with sudo usermod -aG gpio,i2c,spi,dialout NAME"
        return 0
    fi
    for group in gpio i2c spi dialout; do
        getent group "$group" >/dev/null || { absent+=("$group"); continue; }
        id -nG "$user" | tr ' ' '\n' | grep -qx "$group" && continue
        pi_as_root usermod -aG "$group" "$user"
        added+=("$group")
    done
    if [ ${#absent[@]} -gt 0 ]; then
        # Raspberry Pi OS makes gpio and spi (and a udev rule giving them the devices); Debian does not.
        local names="${absent[*]}"
        pi_say_once no-groups "this system has no ${names// / or } group (Raspberry Pi OS's own): the buttons need /dev/gpiochip0 readable by $user; totem-companion doctor says how"
    fi
    if [ ${#added[@]} -gt 0 ]; then
        pi_say "added $user to ${added[*]} (takes effect at the next login)"
        PI_RELOGIN=1
    fi
}

# lgpio in the venv: Raspberry Pi OS's python3-lgpio is seen through the system site-packages;
# elsewhere PyPI's wheel (aarch64: cp311, cp312) is installed into the venv.
pi_venv_lgpio() {
    local venv=$1
    "$venv/bin/python" -c 'import lgpio' 2>/dev/null && return 0
    pi_say "installing lgpio (the GPIO library) from PyPI into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check lgpio >/dev/null \
        || pi_say "pip could not install lgpio: the buttons will not work until it is (totem-companion doctor)"
    return 0
}

pi_setup_system() {
    PI_REBOOT=0
    PI_RELOGIN=0
    pi_apt_packages || { pi_say "python3-venv is needed for the venv; fix the messages above and run ./setup.sh again"; return 1; }
    pi_interfaces
    pi_i2c_speed
    pi_groups
    if [ "$PI_REBOOT" = 1 ]; then
        pi_say "reboot needed for the new settings: sudo reboot"
    elif [ "$PI_RELOGIN" = 1 ]; then
        pi_say "log out and in again (or reboot) for the new groups"
    fi
    return 0
}
