// Gecode 6.2 peer for Bezzel's nonogram (see compare.sh): the model of Gecode's own
// examples/nonogram.cpp — one Boolean per cell, each row and column an `extensional`
// constraint over the DFA of its clue (0* 1^c1 0+ 1^c2 ... 0*) — solved and proven unique
// (search stops after 2 solutions), branching INT_VAR_NONE(), INT_VAL_MAX() row by row.
// Prints `solutions nodes failures seconds` (search only, steady_clock).
//
//   nonogram FILE      (the format of benches/data/nonogram25.txt)
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common.hh"

using namespace Gecode;

typedef std::vector<std::vector<int>> Clues;

static REG line_reg(const std::vector<int>& clue) {
  REG r0(0), r1(1);
  REG border = *r0;
  REG separator = +r0;
  REG result = border;
  for (size_t i = 0; i < clue.size(); i++) {
    result += r1(clue[i], clue[i]);
    result += (i + 1 < clue.size()) ? separator : border;
  }
  if (clue.empty()) result = border;
  return result;
}

class Nonogram : public Space {
  BoolVarArray b;

public:
  Nonogram(const Clues& rows, const Clues& cols)
      : b(*this, int(rows.size() * cols.size()), 0, 1) {
    int h = int(rows.size()), w = int(cols.size());
    Matrix<BoolVarArray> m(b, w, h);
    for (int r = 0; r < h; r++) extensional(*this, m.row(r), line_reg(rows[r]));
    for (int c = 0; c < w; c++) extensional(*this, m.col(c), line_reg(cols[c]));
    branch(*this, b, BOOL_VAR_NONE(), BOOL_VAL_MAX());
  }
  Nonogram(Nonogram& s) : Space(s) { b.update(*this, s.b); }
  Space* copy() override { return new Nonogram(*this); }
};

int main(int argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line))
    if (line.empty() || line[0] != '#') lines.push_back(line);
  if (lines.empty()) return 2;
  int h = 0, w = 0;
  std::istringstream(lines[0]) >> h >> w;
  if (h < 1 || w < 1 || int(lines.size()) < 1 + h + w) {
    std::fprintf(stderr, "%s: not a nonogram\n", argv[1]);
    return 2;
  }
  Clues rows(h), cols(w);
  for (int i = 0; i < h + w; i++) {
    std::istringstream ss(lines[1 + i]);
    int k;
    while (ss >> k) (i < h ? rows[i] : cols[i - h]).push_back(k);
  }
  Nonogram* root = new Nonogram(rows, cols);
  auto start = std::chrono::steady_clock::now();
  DFS<Nonogram> engine(root);
  delete root;
  int solutions = solutions_up_to(engine, 2);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Search::Statistics st = engine.statistics();
  std::printf("%d %llu %llu %.6f\n", solutions, (unsigned long long)st.node, (unsigned long long)st.fail, secs);
  return 0;
}
