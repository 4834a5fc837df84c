#!/usr/bin/env bash
# Installs Gecode 6.2 (Debian's libgecode-dev) if it is missing and builds the peer programs
# queens, sudoku, golomb and nonogram into benches/peers/gecode/build/ (git-ignored). Idempotent: apt is only
# called when the headers are missing, and a program is only rebuilt when its source (or
# common.hh) is newer.
#
#   bash benches/peers/gecode/install.sh        (CXX, CXXFLAGS override g++ / -O2)
#
# Not part of CI; compare.sh calls it when the binaries are missing.
set -euo pipefail
cd "$(dirname "$0")"

if ! dpkg -s libgecode-dev >/dev/null 2>&1 || [ ! -f /usr/include/gecode/int.hh ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # Try without refreshing the package lists first; refresh them if that fails.
  $SUDO apt-get install -y --no-install-recommends libgecode-dev ||
    { $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends libgecode-dev; }
fi

CXX=${CXX:-g++}
CXXFLAGS=${CXXFLAGS:--O2}   # -O2: what Debian builds Gecode itself with
LIBS="-lgecodeminimodel -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport"
mkdir -p build
for prog in queens sudoku golomb nonogram; do
  if [ ! -x "build/$prog" ] || [ "$prog.cpp" -nt "build/$prog" ] || [ common.hh -nt "build/$prog" ]; then
    echo "building build/$prog" >&2
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS -std=c++17 -o "build/$prog" "$prog.cpp" $LIBS
  fi
done
