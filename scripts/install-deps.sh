#!/usr/bin/env bash
# Installs the Debian packages pact needs, only those missing.  Idempotent; silent when all are present.
set -euo pipefail

PKGS=(build-essential pkg-config libglib2.0-dev libyaml-dev libjson-glib-dev libxxhash-dev libsimgrid-dev gnuplot-nox
      libjemalloc2 # the allocator SimGrid's runs preload (sim/host/smpi_env.c)
      libopenmpi-dev openmpi-bin libmpich-dev mpich
      librsvg2-bin tmux chromium # pact timeline: PNG (rsvg-convert); the tests of what a person sees
      hpcc) # HPC Challenge: a real MPI application nobody here wrote, for the tests of libpact

missing=()
for p in "${PKGS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then SUDO="sudo"; else
        echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
