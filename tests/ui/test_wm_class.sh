#!/usr/bin/env bash
# The .desktop file's StartupWMClass must be the class of the real window's WM_CLASS, or docks and
# taskbars show the running window as a stranger beside the launcher. Run under an X server
# (ctest wraps it in xvfb-run): starts tensorscope, finds its window by _NET_WM_PID, compares.
# usage: test_wm_class.sh TENSORSCOPE_BINARY DESKTOP_FILE
set -euo pipefail
binary=$1
desktop=$2

expected=$(sed -n 's/^StartupWMClass=//p' "$desktop")
if [[ -z $expected ]]; then
    echo "FAIL: $desktop has no StartupWMClass="
    exit 1
fi

work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
# Its own settings and instance socket: neither the user's nor another test's.
XDG_CONFIG_HOME=$work TENSORSCOPE_INSTANCE_KEY="wmclass-$$" QT_QPA_PLATFORM=xcb "$binary" --new-window &
pid=$!

actual=
for _ in $(seq 100); do
    # Qt's top-level windows carry _NET_WM_PID; its helper windows carry no WM_CLASS.
    for id in $(xwininfo -root -tree | awk '/^ +0x/ {print $1}'); do
        props=$(xprop -id "$id" _NET_WM_PID WM_CLASS 2>/dev/null || true)
        if grep -q "^_NET_WM_PID(CARDINAL) = $pid\$" <<<"$props" && grep -q '^WM_CLASS' <<<"$props"; then
            # WM_CLASS(STRING) = "instance", "Class"
            actual=$(sed -n 's/^WM_CLASS(STRING) = "[^"]*", "\([^"]*\)"$/\1/p' <<<"$props")
            break 2
        fi
    done
    kill -0 "$pid" 2>/dev/null || { echo "FAIL: tensorscope exited before showing a window"; exit 1; }
    sleep 0.2 # polling an external X server: there is no signal to wait on
done

if [[ -z $actual ]]; then
    echo "FAIL: no tensorscope window with WM_CLASS appeared"
    exit 1
fi
if [[ $actual != "$expected" ]]; then
    echo "FAIL: the window's WM_CLASS class is '$actual', the desktop file says StartupWMClass=$expected"
    exit 1
fi
echo "PASS: WM_CLASS class '$actual' = StartupWMClass"
