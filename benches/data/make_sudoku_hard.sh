#!/usr/bin/env bash
# Regenerates benches/data/sudoku_hard.txt: the hardest 1,000 of 40,000 puzzles made by QQWing's
# generator (QQWing 1.3.4, Debian 12's libqqwing-dev; no symmetry, so each puzzle is minimal:
# no given can be removed), seeded with srand(2026). "Hardest" is measured by QQWing, not by
# Bezzel: the backtracks QQWing's own solver needs, added up over 8 solves in shuffled cell and
# value orders (ties: more guesses, then the puzzle text). The puzzles kept stay in the order
# they were generated. Every generated puzzle has a unique solution (QQWing's generator keeps
# a given whenever removing it makes a second solution; sudoku_peers.sh checks it again with all
# three solvers).
#
#   bash benches/data/make_sudoku_hard.sh > benches/data/sudoku_hard.txt   (about 3 CPU minutes)
#
# The same output needs the same libqqwing and glibc (rand()). Not in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash benches/peers/qqwing/install.sh
N=40000 SEED=2026 KEEP=1000
echo "# The hardest $KEEP of $N puzzles from QQWing 1.3.4's generator (seed $SEED), by QQWing's own"
echo "# backtrack count: made by benches/data/make_sudoku_hard.sh (see there). Each has a unique solution."
benches/peers/qqwing/build/peer --generate $N $SEED |
    awk '{ print NR, $0 }' |
    LC_ALL=C sort -k4,4nr -k3,3nr -k2,2 |
    head -n $KEEP |
    LC_ALL=C sort -k1,1n |
    cut -d' ' -f2
