#!/usr/bin/env bash
# vm-memory.sh [MIB]: what memory costs on this machine (scripts/vm-memory.c): first touches of fresh memory on
# 4 KiB and on huge pages, touches of memory the process gave back, and dependent random loads over MIB MiB
# (default 256) on either page size; one core (CPU=k, default 0).  A benchmark's figures on a VM move with
# these from day to day (session 43, results/reference/model-speed.md).
set -euo pipefail
cd "$(dirname "$0")/.."
CPU=${CPU:-0}
mib=${1:-256}
case $mib in '' | *[!0-9]* | 0* | ??????*) mib=-1 ;; esac # not digits, or past 99999
if [ "$mib" -lt 4 ] || [ "$mib" -gt 65536 ]; then
    echo "vm-memory.sh: ${1:-}: expected a number of MiB, 4 to 65536" >&2
    exit 2
fi
tmp=$(mktemp -d /tmp/pact-vm-memory-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/vm-memory" scripts/vm-memory.c
echo "# vm-memory on $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%dT%H:%M:%SZ), core $CPU, $mib MiB"
taskset -c "$CPU" "$tmp/vm-memory" "$mib"
