// Gecode 6.2 peer for Bezzel's N-Queens model count (see compare.sh).
//
// Measures: counting ALL solutions of N-Queens with Gecode's DFS engine, default search
// options, one thread. Prints `count nodes failures seconds` on one line; seconds are taken
// with std::chrono::steady_clock around the search only (model posting excluded); nodes and
// failures are Search::Statistics::node and ::fail.
//
// The model is the PROP_DISTINCT model of Gecode's own examples/queens.cpp, posted in the
// same order: one IntVar per row (0..n-1), distinct on the two diagonals (q[i]+i, q[i]-i)
// and on q itself, all with the chosen propagation level; branching INT_VAR_SIZE_MIN(),
// INT_VAL_MIN().
//
//   queens N val|bnd|dom
#include <gecode/int.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common.hh"

using namespace Gecode;

class Queens : public Space {
  IntVarArray q;

public:
  Queens(int n, IntPropLevel ipl) : q(*this, n, 0, n - 1) {
    distinct(*this, IntArgs::create(n, 0, 1), q, ipl);
    distinct(*this, IntArgs::create(n, 0, -1), q, ipl);
    distinct(*this, q, ipl);
    branch(*this, q, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
  }
  Queens(Queens& s) : Space(s) { q.update(*this, s.q); }
  Space* copy() override { return new Queens(*this); }
};

int main(int argc, char* argv[]) {
  IntPropLevel ipl;
  int n = argc == 3 ? std::atoi(argv[1]) : 0;
  if (n < 1 || !parse_ipl(argv[2], ipl)) {
    std::fprintf(stderr, "usage: %s N val|bnd|dom\n", argv[0]);
    return 2;
  }
  Queens* root = new Queens(n, ipl);
  auto start = std::chrono::steady_clock::now();
  DFS<Queens> engine(root);  // the engine clones root; default options (1 thread)
  delete root;
  unsigned long long count = 0;
  while (Queens* s = engine.next()) {
    ++count;
    delete s;
  }
  std::chrono::duration<double> secs = std::chrono::steady_clock::now() - start;
  Search::Statistics st = engine.statistics();
  std::printf("%llu %lu %lu %.3f\n", count, (unsigned long)st.node, (unsigned long)st.fail,
              secs.count());
  return 0;
}
