# shellcheck shell=bash
# The systemd service of Totem Companion; sourced by ./setup.sh (`./setup.sh service`).
#   pi_service [--user NAME] [--data DIR] [--web | --no-web]
#                                           install and start the service (runs at boot as NAME)
#   pi_service --remove                     stop, disable and remove it
#   pi_service --print [--user NAME] [--project DIR] [--data DIR] [--web | --no-web]
#                                           write the unit on standard output, install nothing
# --web / --no-web: whether the unit lets the phone page serve the network; by default as
# the configuration and the data folder's settings say now (run it again after turning
# the page on in the box's Settings).
# Run directly too: `bash hardware/pi_service.sh --print --user pi --data /home/pi/totem-data`.
# Expects ROOT (the project folder) from setup.sh; --project overrides it.
#
# The service never runs as root: it runs the project's code, which its owner can change.
# It runs hardened: the whole file system read-only but for the data folder, no new
# privileges, no kernel tunables, modules, logs or control groups, system calls of a
# service only, native ones, files made private (UMask=0077). Of /dev it sees only what
# the box uses (DevicePolicy=closed, then DeviceAllow=): the GPIO chips, the I2C bus of the
# OLED, the serial ports (the UART's ttyS/ttyAMA, the USB reader hub's ttyACM, a USB
# adapter's ttyUSB) and the sound cards (char-alsa: the voice, espeak-ng through ALSA);
# the groups gpio, i2c, dialout and audio give access to them.
# The phone page (a web server on the local network, off by default): with it off, no
# Internet socket at all (RestrictAddressFamilies=AF_UNIX); with it on, AF_INET and
# AF_INET6 too, but only to and from local addresses (IPAddressDeny=any, IPAddressAllow=
# the private ranges), so no PrivateNetwork=; its port must be 1024 or above (no
# capability). LimitNOFILE= bounds the descriptors; the page keeps its connections under
# half of them, so the journal always has its own.
# Not set, because the box needs them: PrivateUsers= (the device groups), ProcSubset=pid
# (the board is named in /proc/device-tree and /proc/cpuinfo), MemoryDenyWriteExecute=
# (libffi's callbacks in the GPIO and sound libraries), ProtectHome=tmpfs (the project
# usually lives in a home folder).

PI_UNIT=totem-companion.service
#: Descriptors the service may open (the page keeps at most 128 connections: a few phones).
PI_NOFILE=1024
PI_UNIT_PATH=/etc/systemd/system/$PI_UNIT

pi_service_say() { printf 'setup: %s\n' "$*" >&2; }

pi_service_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Run a command as USER (first argument): directly when we are USER, else through runuser
# (as root) or sudo.
pi_service_as() {
    local user=$1
    shift
    if [ "$(id -un)" = "$user" ]; then
        "$@"
    elif [ "$(id -u)" -eq 0 ]; then
        runuser -u "$user" -- "$@"
    else
        sudo -u "$user" -- "$@"
    fi
}

# The groups that give the service the devices; systemd refuses to start a unit that
# names a group the system does not have, so only the existing ones are listed.
pi_service_groups() {
    local group groups=""
    for group in gpio i2c dialout audio; do
        getent group "$group" >/dev/null 2>&1 && groups="$groups $group"
    done
    printf '%s' "${groups# }"
}

# A path as one quoted word of a unit file (systemd.syntax(7)): "%" doubled (specifiers),
# and with "arg" as a second argument "$" doubled too (ExecStart= expands variables in its
# arguments, not in the program's path nor in other settings). Paths with quotes,
# backslashes or control characters are refused before (pi_service_path_ok).
pi_service_quote() {
    local text=${1//%/%%}
    [ "${2:-}" = arg ] && text=${text//\$/\$\$}
    printf '"%s"' "$text"
}

# Whether a path can go into the unit: absolute, without quotes, backslashes or control
# characters (systemd refuses them in the path of a program; a newline ends a setting).
pi_service_path_ok() {
    [[ $1 == /* && $1 != *[[:cntrl:]\"\'\\]* ]]
}

# The unit for USER, PROJECT (holding .venv), DATA (the data folder, the one place the
# service writes) and WEB (on: the phone page may serve the local network). lgpio makes
# its notification pipes in the working folder (or LG_WD): both are the runtime folder
# /run/totem-companion, writable and gone when it stops.
#
# With releases side by side (HOME, the fifth argument: ./setup.sh update), the unit runs
# the updater's guard around the box (companion/update.py): before each start (an update
# cut off is undone, a release on trial gets one start, then the data folder is migrated to
# the starting release's format), once the box reports healthy (READY=1: the trial is over)
# and after each stop (a trial ended by a time-out or a crash is undone; Restart= then starts
# the previous release). The guard writes the releases' links, so the home is writable; the
# releases themselves stay read-only.
pi_service_unit() {
    local user=$1 project=$2 data=$3 web=$4 home=${5:-} groups network guard=""
    groups=$(pi_service_groups)
    if [ -n "$home" ]; then
        local run
        run="$(pi_service_quote "$home/guard")"
        guard="ExecStartPre=-$run start --data $(pi_service_quote "$data" arg)
ExecStartPre=$run migrate --data $(pi_service_quote "$data" arg)
ExecStartPost=-$run ready --data $(pi_service_quote "$data" arg)
ExecStopPost=-$run stopped --data $(pi_service_quote "$data" arg)
ReadWritePaths=$(pi_service_quote "$home")
ReadOnlyPaths=-$(pi_service_quote "$home/releases")"
    fi
    if [ "$web" = on ]; then
        network="RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressDeny=any
IPAddressAllow=localhost link-local multicast 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"
    else
        network="RestrictAddressFamilies=AF_UNIX
IPAddressDeny=any"
    fi
    cat <<UNIT
[Unit]
Description=Totem Companion (board game companion box)

[Service]
Type=notify
NotifyAccess=main
TimeoutStartSec=90
User=$user
SupplementaryGroups=$groups
RuntimeDirectory=totem-companion
WorkingDirectory=%t/totem-companion
Environment=LG_WD=%t/totem-companion
ExecStart=$(pi_service_quote "$project/.venv/bin/totem-companion") run --data $(pi_service_quote "$data" arg)
${guard:+$guard
}Restart=on-failure
RestartSec=3
StandardOutput=journal
StandardError=journal
LimitNOFILE=$PI_NOFILE
NoNewPrivileges=yes
CapabilityBoundingSet=
ProtectSystem=strict
ProtectHome=read-only
ReadWritePaths=$(pi_service_quote "$data")
PrivateTmp=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictSUIDSGID=yes
RestrictRealtime=yes
RestrictNamespaces=yes
LockPersonality=yes
ProtectKernelLogs=yes
ProtectHostname=yes
ProtectClock=yes
ProtectProc=invisible
PrivateMounts=yes
RemoveIPC=yes
UMask=0077
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged
SystemCallErrorNumber=EPERM
$network
DevicePolicy=closed
DeviceAllow=char-gpiochip rw
DeviceAllow=char-i2c rw
DeviceAllow=char-ttyS rw
DeviceAllow=char-ttyAMA rw
DeviceAllow=char-ttyACM rw
DeviceAllow=char-ttyUSB rw
DeviceAllow=char-alsa rw

[Install]
WantedBy=multi-user.target
UNIT
}

# The data folder the companion uses for USER (HOME): what their configuration says, as
# the service would read it (no XDG_* variables under systemd), else the default.
pi_service_default_data() {
    local home=$1 project=$2
    env -i HOME="$home" PATH=/usr/bin:/bin "$project/.venv/bin/python" -c '
import sys
from companion.config import load_config
from companion.errors import UserError
try:
    print(load_config(None, {}).data_dir)
except UserError as exc:
    sys.exit(f"setup: {exc}")'
}

# Whether the box serves the phone page ("on" or "off") for USER (HOME) with the data
# folder DATA: the data folder's settings (the box's Settings page), else the
# configuration (a [web] port), as the service would read them.
pi_service_default_web() {
    local home=$1 project=$2 data=$3
    env -i HOME="$home" PATH=/usr/bin:/bin "$project/.venv/bin/python" -c '
import sys
from companion.config import load_config
from companion.errors import UserError
from companion.games import GAMES
from companion.table.settings import SettingsStore
from companion.ui import text
try:
    config = load_config(None, {})
except UserError as exc:
    sys.exit(f"setup: {exc}")
store, _ = SettingsStore.load(sys.argv[1], games=tuple(GAMES), languages=text.languages(),
                              web_port=config.web_port)
print("on" if store.web else "off")' "$data"
}

pi_service_usage() {
    pi_service_say "$1 (use: ./setup.sh service [--user NAME] [--data DIR] [--web | --no-web] | --remove | --print)"
    return 2
}

pi_service() {
    local action=install user="" project=${ROOT:-} data="" web="" uid home tmp path releases=""
    while [ $# -gt 0 ]; do
        case $1 in
            --remove) action=remove ;;
            --print) action=print ;;
            --web) web=on ;;
            --no-web) web=off ;;
            --user | --project | --data)
                [ $# -ge 2 ] && [ -n "$2" ] || { pi_service_usage "$1 needs a value"; return 2; }
                case $1 in
                    --user) user=$2 ;;
                    --project) project=$2 ;;
                    --data) data=$2 ;;
                esac
                shift
                ;;
            *) pi_service_usage "unknown option $1"; return 2 ;;
        esac
        shift
    done

    if [ "$action" = remove ]; then
        if [ ! -f "$PI_UNIT_PATH" ]; then
            pi_service_say "the service is not installed"
            return 0
        fi
        pi_service_root systemctl disable --now "$PI_UNIT" >/dev/null 2>&1 || true
        pi_service_root rm -f "$PI_UNIT_PATH"
        pi_service_root systemctl daemon-reload
        pi_service_say "service removed"
        return 0
    fi

    # Who the service runs as: --user, else whoever called sudo (when we run as root
    # through it), else us; never root.
    if [ -z "$user" ]; then
        [ "$(id -u)" -ne 0 ] || user=${SUDO_USER:-}
        [ -n "$user" ] || user=$(id -un)
    fi
    uid=$(id -u "$user" 2>/dev/null) || { pi_service_say "no user $(printf '%q' "$user") on this system (--user NAME)"; return 1; }
    if [ "$uid" -eq 0 ]; then
        pi_service_say "the service would run as root, with every right over this computer: run ./setup.sh service as the user who plays (it asks for sudo itself), or pass --user NAME"
        return 1
    fi
    home=$(getent passwd "$user" | cut -d: -f6)

    [ -n "$project" ] && [ -d "$project" ] || { pi_service_say "no project folder '$project' (--project DIR)"; return 1; }
    project=$(cd "$project" && pwd -P)
    # Releases side by side (./setup.sh update): the service runs the "current" link, which
    # updates switch, and the updater's guard around it.
    if declare -F releases_home >/dev/null && [ -L "$(releases_home)/current" ]; then
        releases=$(releases_home)
        project="$releases/current"
        [ -x "$releases/guard" ] || releases=""
    fi
    if [ -z "$data" ]; then
        data=$(pi_service_default_data "$home" "$project") \
            || { pi_service_say "cannot tell the data folder from the configuration (the message above); pass --data DIR"; return 1; }
    fi
    data=$(realpath -m -- "$data")
    for path in "$project" "$data" ${releases:+"$releases"}; do
        pi_service_path_ok "$path" || { pi_service_say "the path $(printf '%q' "$path") cannot go into a systemd unit (it holds a quote, a backslash or a control character): rename or move it"; return 1; }
    done

    if [ -z "$web" ]; then
        web=$(pi_service_default_web "$home" "$project" "$data") \
            || { pi_service_say "cannot tell whether the phone page is on (the message above); pass --web or --no-web"; return 1; }
    fi

    if [ "$action" = print ]; then
        pi_service_unit "$user" "$project" "$data" "$web" "$releases"
        return 0
    fi

    [ -x "$project/.venv/bin/totem-companion" ] || { pi_service_say "not installed in $project: run ./setup.sh first"; return 1; }
    # ReadWritePaths= needs the folder to exist; made by the user, so they own it.
    pi_service_as "$user" mkdir -p -- "$data" || { pi_service_say "cannot make the data folder $data as $user"; return 1; }
    tmp=$(mktemp)
    pi_service_unit "$user" "$project" "$data" "$web" "$releases" >"$tmp"
    if [ -f "$PI_UNIT_PATH" ] && cmp -s "$tmp" "$PI_UNIT_PATH"; then
        rm -f "$tmp"
    else
        pi_service_root install -m 0644 "$tmp" "$PI_UNIT_PATH"
        rm -f "$tmp"
        pi_service_root systemctl daemon-reload
    fi
    pi_service_root systemctl enable "$PI_UNIT" >/dev/null 2>&1 \
        && pi_service_root systemctl restart "$PI_UNIT" >/dev/null 2>&1 \
        || { pi_service_say "the service did not start: journalctl -u $PI_UNIT"; return 1; }
    pi_service_say "service running as $user, data in $data; logs: journalctl -u $PI_UNIT -f"
}

# Run as a script (not sourced): the project is the folder above this file.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd -P)}
    pi_service "$@"
    exit $?
fi
