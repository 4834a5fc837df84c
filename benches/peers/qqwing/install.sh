#!/usr/bin/env bash
# Installs QQWing 1.3.4 (Debian's qqwing and libqqwing-dev) if it is missing and builds the
# peer driver peer.cpp into benches/peers/qqwing/build/peer (git-ignored). Idempotent: apt is
# only called when the header is missing, and the driver only rebuilt when its source is newer.
#
#   bash benches/peers/qqwing/install.sh        (CXX, CXXFLAGS override g++ / -O2)
#
# Not part of CI; benches/peers/sudoku_peers.sh calls it.
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -f /usr/include/qqwing.hpp ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # Try without refreshing the package lists first; refresh them if that fails.
  $SUDO apt-get install -y --no-install-recommends qqwing libqqwing-dev ||
    { $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends qqwing libqqwing-dev; }
fi

CXX=${CXX:-g++}
CXXFLAGS=${CXXFLAGS:--O2}   # -O2: what Debian builds libqqwing itself with
mkdir -p build
if [ ! -x build/peer ] || [ peer.cpp -nt build/peer ]; then
  echo "building build/peer" >&2
  # shellcheck disable=SC2086
  $CXX $CXXFLAGS -std=c++17 -Wall -Wextra -o build/peer peer.cpp -lqqwing
fi
