// Gecode 6.2 peer for Bezzel's sudoku batch (see compare.sh).
//
// Measures: for every puzzle of a file, "solve and prove unique": a DFS engine (default
// options, one thread) asked for at most 2 solutions. Prints one summary line:
// `puzzles unique nodes failures seconds`, where unique counts puzzles with exactly one
// solution, nodes/failures sum Search::Statistics::node/::fail over the batch, and seconds
// (std::chrono::steady_clock) covers the searches only: reading and parsing the file and
// posting each model are excluded.
//
// The model mirrors Gecode's examples/sudoku.cpp (integer model): one IntVar per cell with
// domain 1..N (N = b*b), distinct on every row and column, then on every b x b box, all with
// the chosen propagation level; givens fixed with rel(IRT_EQ). Branching INT_VAR_SIZE_MIN(),
// INT_VAL_MIN().
//
// File format: one puzzle per line, N*N characters, digits 1-9 (then A-Z for N > 9) for
// givens and '.' or '0' for empty cells; blank lines and lines starting with '#' are skipped,
// a trailing '\r' is stripped.
//
//   sudoku FILE val|bnd|dom
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "common.hh"

using namespace Gecode;

class Sudoku : public Space {
  IntVarArray x;

public:
  // givens[r*nn + c] is the value of row r, column c, or 0 when empty.
  Sudoku(int b, const std::vector<int>& givens, IntPropLevel ipl) : x(*this, b * b * b * b, 1, b * b) {
    const int nn = b * b;
    Matrix<IntVarArray> m(x, nn, nn);  // m(column, row)
    for (int i = 0; i < nn; i++) {
      distinct(*this, m.row(i), ipl);
      distinct(*this, m.col(i), ipl);
    }
    for (int i = 0; i < nn; i += b)
      for (int j = 0; j < nn; j += b)
        distinct(*this, m.slice(i, i + b, j, j + b), ipl);
    for (int r = 0; r < nn; r++)
      for (int c = 0; c < nn; c++)
        if (int v = givens[r * nn + c]) rel(*this, m(c, r), IRT_EQ, v);
    branch(*this, x, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
  }
  Sudoku(Sudoku& s) : Space(s) { x.update(*this, s.x); }
  Space* copy() override { return new Sudoku(*this); }
};

// Parses one puzzle line into givens; returns the box size b, or 0 on bad input.
static int parse_puzzle(const std::string& line, std::vector<int>& givens) {
  const int cells = (int)line.size();
  const int b = (int)std::lround(std::sqrt(std::sqrt((double)cells)));
  const int nn = b * b;
  if (b < 1 || nn * nn != cells) return 0;
  givens.assign(cells, 0);
  for (int k = 0; k < cells; k++) {
    char ch = line[k];
    int v = ch == '.' || ch == '0' ? 0
            : ch >= '1' && ch <= '9' ? ch - '0'
            : ch >= 'A' && ch <= 'Z' ? ch - 'A' + 10
                                     : -1;
    if (v < 0 || v > nn) return 0;
    givens[k] = v;
  }
  return b;
}

int main(int argc, char* argv[]) {
  IntPropLevel ipl;
  if (argc != 3 || !parse_ipl(argv[2], ipl)) {
    std::fprintf(stderr, "usage: %s FILE val|bnd|dom\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  // Parse the whole file first, so that the timed part is search only.
  std::vector<std::pair<int, std::vector<int>>> puzzles;
  std::string line;
  for (int lineno = 1; std::getline(in, line); lineno++) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<int> givens;
    int b = parse_puzzle(line, givens);
    if (!b) {
      std::fprintf(stderr, "%s:%d: not a puzzle\n", argv[1], lineno);
      return 2;
    }
    puzzles.emplace_back(b, std::move(givens));
  }

  unsigned long long unique = 0, nodes = 0, fails = 0;
  std::chrono::steady_clock::duration searching{};
  for (const auto& [b, givens] : puzzles) {
    Sudoku* root = new Sudoku(b, givens, ipl);
    auto start = std::chrono::steady_clock::now();
    DFS<Sudoku> engine(root);  // the engine clones root; default options (1 thread)
    int found = solutions_up_to(engine, 2);
    Search::Statistics st = engine.statistics();
    searching += std::chrono::steady_clock::now() - start;
    delete root;
    unique += found == 1;
    nodes += st.node;
    fails += st.fail;
  }
  std::printf("%zu %llu %llu %llu %.3f\n", puzzles.size(), unique, nodes, fails,
              std::chrono::duration<double>(searching).count());
  return 0;
}
