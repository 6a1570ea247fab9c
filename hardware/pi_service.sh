# shellcheck shell=bash
# The systemd service of Totem Companion; sourced by ./setup.sh (`./setup.sh service`).
#   pi_service            install and start the service (runs at boot as you)
#   pi_service --remove   stop, disable and remove it
# Expects ROOT (the project folder) and VENV from setup.sh.

PI_UNIT=totem-companion.service
PI_UNIT_PATH=/etc/systemd/system/$PI_UNIT

pi_service_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The groups that give the service the devices; systemd refuses to start a unit that
# names a group the system does not have, so only the existing ones are listed.
pi_service_groups() {
    local group groups=""
    for group in gpio i2c spi dialout; do
        getent group "$group" >/dev/null 2>&1 && groups="$groups $group"
    done
    printf '%s' "${groups# }"
}

pi_service_unit() {
    local user=$1 groups
    groups=$(pi_service_groups)
    cat <<UNIT
[Unit]
Description=Totem Companion (board game companion box)
After=multi-user.target

[Service]
Type=simple
User=$user
SupplementaryGroups=$groups
WorkingDirectory=$ROOT
ExecStart=$VENV/bin/totem-companion
Restart=on-failure
RestartSec=3
StandardOutput=journal
StandardError=journal

[Install]
WantedBy=multi-user.target
UNIT
}

pi_service() {
    local user tmp
    user=${SUDO_USER:-$(id -un)}
    case "${1:-}" in
        --remove)
            if [ ! -f "$PI_UNIT_PATH" ]; then
                printf 'setup: the service is not installed\n' >&2
                return 0
            fi
            pi_service_root systemctl disable --now "$PI_UNIT" >/dev/null 2>&1 || true
            pi_service_root rm -f "$PI_UNIT_PATH"
            pi_service_root systemctl daemon-reload
            printf 'setup: service removed\n' >&2
            ;;
        "")
            tmp=$(mktemp)
            pi_service_unit "$user" >"$tmp"
            if [ -f "$PI_UNIT_PATH" ] && cmp -s "$tmp" "$PI_UNIT_PATH"; then
                rm -f "$tmp"
            else
                pi_service_root install -m 0644 "$tmp" "$PI_UNIT_PATH"
                rm -f "$tmp"
                pi_service_root systemctl daemon-reload
            fi
            pi_service_root systemctl enable --now "$PI_UNIT" >/dev/null 2>&1 \
                || { printf 'setup: the service did not start: journalctl -u %s\n' "$PI_UNIT" >&2; return 1; }
            printf 'setup: service running as %s; logs: journalctl -u %s -f\n' "$user" "$PI_UNIT" >&2
            ;;
        *)
            printf 'setup: unknown option %s (use: ./setup.sh service [--remove])\n' "$1" >&2
            return 2
            ;;
    esac
}
