#!/usr/bin/env bash
# Totem Companion: the one entry point for a person.
#   ./setup.sh                 install (idempotent): .venv with the project and its dev extras
#   ./setup.sh run [ARGS]      install if needed, then start the companion
#   ./setup.sh test [ARGS]     install if needed (with espeak-ng and sox for the voice's test, mosquitto
#                              and postgresql for the club's, where apt
#                              is at hand), then ruff, mypy and the test suite (ARGS: pytest's only)
#   ./setup.sh bench           install if needed, then print the benchmark figures
#   ./setup.sh soak            install if needed, then the long reliability run (minutes; docs/reliability.md)
#   ./setup.sh service [--user NAME] [--data DIR] | --remove | --print
#                              (Raspberry Pi) install or remove the systemd service; --print shows its unit
#   ./setup.sh flash [--force] install if needed, then copy the reader hub's firmware to a plugged-in Pico
#                              when it runs another version than this one ships, and check its hello after
#   ./setup.sh update --from DIR|URL [--to VERSION]
#                              install a new release beside this one, check it, switch to it, restart;
#                              back on this one by itself when the new one does not come up healthy
#   ./setup.sh rollback        back on the release before the last update
#   ./setup.sh bundle [--to DIR]  this release and its wheels, for an update without the network
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
VENV="$ROOT/.venv"

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
        [ -n "$candidate" ] || continue
        command -v "$candidate" >/dev/null 2>&1 || continue
        if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    return 1
}

# The device tree's model names the board; /proc/device-tree is a link to the firmware's copy.
is_raspberry_pi() {
    local model
    for model in /proc/device-tree/model /sys/firmware/devicetree/base/model; do
        [ -r "$model" ] && tr -d '\0' <"$model" | grep -q 'Raspberry Pi' && return 0
    done
    return 1
}

# --- Raspberry Pi system steps (only ever run on a Pi) ---------------------------------
# Raspberry Pi OS only (said where missing): python3-lgpio, raspi-config, the gpio/spi groups.
pi_system_setup() {
    [ -f "$ROOT/hardware/pi_setup.sh" ] || return 0
    . "$ROOT/hardware/pi_setup.sh"
    pi_setup_system || die "the Raspberry Pi set-up stopped; see the messages above."
}

# The GPIO library in the venv (from PyPI where the system has no python3-lgpio).
pi_venv_setup() {
    if declare -F pi_venv_lgpio >/dev/null; then pi_venv_lgpio "$VENV"; fi
    return 0
}

install() {
    local py stamp want
    py=$(find_python) || die "Python 3.11 or newer is needed (found: $(python3 --version 2>&1 || echo none)); install it and run ./setup.sh again."
    if is_raspberry_pi; then pi_system_setup; fi
    stamp="$VENV/.installed"
    # The way the project is installed is part of the stamp: a change of it installs again.
    want=$( { cat pyproject.toml; echo "editable_mode=$EDITABLE_MODE"; } | sha256sum | cut -d' ' -f1)
    if [ -x "$VENV/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        pi_venv_setup
        write_launcher
        compile_code
        compile_words
        return 0
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV with $py"
        if is_raspberry_pi; then
            # Raspberry Pi OS's lgpio (python3-lgpio) lives in the system site-packages.
            "$py" -m venv --system-site-packages "$VENV"
        else
            "$py" -m venv "$VENV"
        fi
    fi
    say "installing the companion and its test tools (first time only)"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    # A setuptools without the "compat" mode (it is transitional) gets its own default mode:
    # a slower start, never a failed install. The first try is quiet: its only words are
    # setuptools' notice about that mode, or a failure the second try says again.
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[dev]" \
        --config-settings editable_mode="$EDITABLE_MODE" >/dev/null 2>&1 \
        || "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[dev]" \
        || die "pip could not install the dependencies; see the messages above."
    echo "$want" >"$stamp"
    pi_venv_setup
    write_launcher
    compile_code
    compile_words
}

# The project on the venv's path by a plain .pth line ("compat"), not setuptools' editable
# finder: the finder's imports cost every start about 20 ms here (python -X importtime).
EDITABLE_MODE=compat

# The program's bytecode, compiled ahead: the service runs the code read-only
# (ProtectSystem=strict), so Python could keep none of what it compiles and every start would
# compile about 100 modules again (0.54 s to the menu here instead of 0.25 s; seconds on a
# Zero 2 W). Only the files changed since are compiled again.
compile_code() {
    "$VENV/bin/python" -m compileall -q -j 0 companion hardware >/dev/null \
        || say "warning: some of the program could not be compiled ahead; the box starts slower"
}

# The program's launcher, in place of pip's script: Python starts without its site (-S) so
# that the first thing it runs answers Ctrl-C with one line; then the site, then the
# companion, which answers Ctrl-C itself from there on (companion/__init__.py, cli.py).
# With pip's script, a Ctrl-C while the site and its import hooks load was a traceback.
write_launcher() {
    local launcher="$VENV/bin/totem-companion" text python
    # The venv's real place: a project copy whose .venv is a link must not point it at itself.
    python="$(cd "$VENV/bin" && pwd -P)/python"
    case "$python" in *\'*) return 0 ;; esac  # a quote in the path: pip's script stays
    text=$(cat <<LAUNCHER
#!/bin/sh
# Written by ./setup.sh: see write_launcher there.
exec '$python' -S -c '
import _signal, posix
def interrupted(signum, frame):
    posix.write(2, b"totem-companion: interrupted\\n")
    posix._exit(130)
_signal.signal(_signal.SIGINT, interrupted)
import site, sys
site.main()
sys.argv[0] = "totem-companion"
import companion
_signal.signal(_signal.SIGINT, companion._interrupted_while_loading)
from companion.cli import main
sys.exit(main())' "\$@"
LAUNCHER
)
    [ -f "$launcher" ] && [ "$(cat "$launcher")" = "$text" ] && return 0
    printf '%s\n' "$text" >"$launcher.new" && chmod 755 "$launcher.new" && mv -f "$launcher.new" "$launcher"
}

# As root: directly when we are, through sudo when it asks no password; false otherwise.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

# apt packages, quietly, once: an update only when the lists are too old to know them.
apt_quietly() {
    command -v apt-get >/dev/null 2>&1 || return 1
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null 2>&1 && return 0
    as_root apt-get update -qq >/dev/null 2>&1 || return 1
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null 2>&1
}

# The voice (companion/voice): espeak-ng on a Pi whose configuration turns it on.
voice_setup() {
    local mode
    mode=$("$VENV/bin/python" -c 'from companion.config import load_config; print(load_config().voice)' 2>/dev/null) || mode=off
    [ "$mode" != off ] || return 0
    command -v espeak-ng >/dev/null 2>&1 && return 0
    say "the voice is on ([voice] mode = \"$mode\"): installing espeak-ng"
    apt_quietly espeak-ng espeak-ng-data || say "espeak-ng could not be installed: sudo apt install espeak-ng; the box plays silent meanwhile"
}

# The voice's test renders speech to WAV with espeak-ng and measures it with sox; the club's
# run a real Mosquitto and a real PostgreSQL server (each started by the tests themselves).
test_tools() {
    if ! { command -v espeak-ng >/dev/null 2>&1 && command -v sox >/dev/null 2>&1; }; then
        apt_quietly espeak-ng sox || say "no espeak-ng and sox (no apt, or not root): the voice's WAV test is skipped"
    fi
    if ! [ -x /usr/sbin/mosquitto ] && ! command -v mosquitto >/dev/null 2>&1; then
        apt_quietly mosquitto || say "no mosquitto (no apt, or not root): the club's tests are skipped"
    fi
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        apt_quietly postgresql || say "no PostgreSQL server (no apt, or not root): the club's PostgreSQL tests are skipped"
    fi
}

# The phone page's browser test uses Debian's Chromium (Playwright drives it and never
# downloads a browser of its own): installed where this user may, else said and skipped.
browser_setup() {
    [ -x /usr/bin/chromium ] && return 0
    if ! is_raspberry_pi; then
        say "installing Debian's chromium for the phone page's browser test"
        apt_quietly chromium && return 0
    fi
    say "no /usr/bin/chromium (apt-get install chromium): the phone page's browser test is skipped"
}

# The words: every .po catalogue newer than its .mo is compiled (an edited word shows after
# ./setup.sh and a restart).
# A catalogue with a mistake (named above, file:line) keeps its last good .mo: set-up goes on.
compile_words() {
    "$VENV/bin/python" -m companion.catalogues \
        || say "warning: some word catalogues were not compiled (see above); the box shows their last good words, English where there are none"
}

# Where releases live side by side (companion/update.py): TOTEM_HOME, else the home of the
# release this is, else a folder beside this project.
releases_home() {
    if [ -n "${TOTEM_HOME:-}" ]; then echo "$TOTEM_HOME"; return; fi
    case "$ROOT" in
        */releases/*) echo "${ROOT%/releases/*}" ;;
        *) echo "$(dirname "$ROOT")/totem-companion-releases" ;;
    esac
}

# This release and the wheels of everything it installs, in one folder an update takes
# offline (./setup.sh update --from that folder, from a USB stick).
bundle() {
    local to="." name target
    while [ $# -gt 0 ]; do
        case "$1" in
            --to) [ $# -ge 2 ] || die "--to needs a folder"; to=$2; shift 2 ;;
            *) die "bundle: unknown option '$1' (use: --to DIR)" ;;
        esac
    done
    name="totem-companion-$(git -C "$ROOT" describe --tags --always --dirty 2>/dev/null || date +%Y%m%d-%H%M%S)"
    target="$to/$name"
    [ ! -e "$target" ] || die "$target is there already"
    mkdir -p "$target.partial"
    if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$ROOT" ls-files -z | tar --null -T - -cf - | tar -xf - -C "$target.partial"
    else
        tar --exclude=.venv --exclude=__pycache__ -cf - . | tar -xf - -C "$target.partial"
    fi
    say "fetching the wheels of the companion and its dependencies"
    "$VENV/bin/python" -m pip wheel --quiet --disable-pip-version-check -w "$target.partial/wheels" ".[dev]" pip setuptools wheel \
        || { rm -rf "$target.partial"; die "pip could not fetch the wheels; see the messages above"; }
    mv "$target.partial" "$target"
    say "bundle ready: $target (./setup.sh update --from $target, on the box)"
}

cmd=${1:-install}
[ $# -gt 0 ] && shift
case "$cmd" in
    install)
        install
        if is_raspberry_pi; then voice_setup; fi
        say "ready: ./setup.sh run (the companion) or ./setup.sh test (the tests)"
        ;;
    run)
        install
        if is_raspberry_pi; then voice_setup; fi
        if [ $# -eq 0 ] && ! is_raspberry_pi && ! { [ -t 0 ] && [ -t 1 ]; }; then
            # No terminal to play in: show the companion playing itself.
            exec "$VENV/bin/totem-companion" demo
        fi
        exec "$VENV/bin/totem-companion" "$@"
        ;;
    test)
        install
        test_tools
        browser_setup
        if [ $# -eq 0 ]; then
            # The whole suite: lint and types first, as CI runs it.
            "$VENV/bin/ruff" check --quiet . || die "ruff found the problems above"
            "$VENV/bin/mypy" || die "mypy found the problems above"
        fi
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    bench)
        install
        exec "$VENV/bin/python" -m pytest tests --benchmark-enable --benchmark-only \
            --benchmark-columns=min,median,mean,max,rounds -s "$@"
        ;;
    soak)
        install
        TOTEM_SOAK=1 exec "$VENV/bin/python" -m pytest tests/test_reliability.py tests/test_reliability_attacks.py -s "$@"
        ;;
    service)
        install
        case " $* " in
            *" --print "*) ;;   # showing the unit is fine anywhere
            *) is_raspberry_pi || die "the service is for a Raspberry Pi; on this computer use ./setup.sh run" ;;
        esac
        [ -f "$ROOT/hardware/pi_service.sh" ] || die "service installer missing (hardware/pi_service.sh)"
        . "$ROOT/hardware/pi_service.sh"
        pi_service "$@"
        ;;
    flash)
        install
        # A Pico running MicroPython shows up with USB vendor id 2e8a.
        port=$("$VENV/bin/mpremote" devs 2>/dev/null | awk 'tolower($3) ~ /^2e8a:/ { print $1; exit }') || port=""
        [ -n "$port" ] || die "no Pico found on USB: plug it in, with MicroPython on it (firmware/README.md, \"Flashing\")"
        # The hub's hello says the version it runs: the one this box ships, nothing to copy
        # (--force copies anyway); else the files copied, and the hub's hello again, in the
        # new version (hardware/hub_firmware.py).
        "$VENV/bin/python" -m hardware.hub_firmware --update "$@" "$port" || exit 1
        ;;
    update|rollback)
        install
        home=$(releases_home)
        unit=/etc/systemd/system/totem-companion.service
        if [ "$cmd" = update ] && [ -f "$unit" ] && ! grep -qF "$home/guard" "$unit"; then
            # The first update: this folder becomes the release "installed", and the service
            # must run the "current" link, with the guard that brings the previous release
            # back by itself, before an update can switch it.
            "$VENV/bin/python" -m companion.update adopt --home "$home" --project "$ROOT" || exit 1
            grep -qF "$home/current/" "$unit" \
                || die "the service runs this folder, not $home/current: run ./setup.sh service once (with the options you gave it before), then ./setup.sh update again"
            die "the service has no guard yet (it brings the previous release back by itself): run ./setup.sh service once (with the options you gave it before), then ./setup.sh update again"
        fi
        exec "$VENV/bin/python" -m companion.update "$cmd" --home "$(releases_home)" --project "$ROOT" "$@"
        ;;
    bundle)
        install
        bundle "$@"
        ;;
    -h|--help|help)
        sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
        ;;
    *)
        die "unknown command '$cmd' (use: run, test, bench, soak, service, flash, update, rollback, bundle, or nothing to install)"
        ;;
esac
