// Gecode 6.2 peer for Bezzel's Golomb ruler (see compare.sh): the model of Gecode's own
// examples/golomb-ruler.cpp, proving the optimal length with branch and bound.
//
// Marks m[0..n) in 0..2^(n-1)-1, m[0] = 0, strictly increasing; the differences
// d = m[j] - m[i] (i < j) are all different (bounds consistency, as in the example), each at
// least the sum of the first j - i integers; d[0] < d[last] breaks the mirror symmetry.
// Branching INT_VAR_NONE(), INT_VAL_MIN() on m; minimise m[n-1] with BAB, one thread.
// Prints `length nodes failures seconds` (search only, steady_clock).
//
//   golomb N [val|bnd|dom]
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common.hh"

using namespace Gecode;

class Golomb : public IntMinimizeSpace {
  IntVarArray m;

public:
  Golomb(int n, IntPropLevel ipl) : m(*this, n, 0, (n < 31) ? (1 << (n - 1)) - 1 : Int::Limits::max) {
    rel(*this, m[0], IRT_EQ, 0);
    rel(*this, m, IRT_LE);
    const int n_d = (n * n - n) / 2;
    IntVarArgs d(n_d);
    for (int k = 0, i = 0; i < n - 1; i++)
      for (int j = i + 1; j < n; j++, k++)
        rel(*this, d[k] = expr(*this, m[j] - m[i]), IRT_GQ, (j - i) * (j - i + 1) / 2);
    distinct(*this, d, ipl);
    if (n > 2) rel(*this, d[0], IRT_LE, d[n_d - 1]);
    branch(*this, m, INT_VAR_NONE(), INT_VAL_MIN());
  }
  Golomb(Golomb& s) : IntMinimizeSpace(s) { m.update(*this, s.m); }
  Space* copy() override { return new Golomb(*this); }
  IntVar cost() const override { return m[m.size() - 1]; }
  int length() const { return m[m.size() - 1].val(); }
};

int main(int argc, char* argv[]) {
  int n = argc >= 2 ? std::atoi(argv[1]) : 0;
  IntPropLevel ipl = IPL_BND;
  if (argc >= 3 && !parse_ipl(argv[2], ipl)) n = 0;
  if (n < 2 || n > 16) {
    std::fprintf(stderr, "usage: %s N [val|bnd|dom]   (2 <= N <= 16)\n", argv[0]);
    return 2;
  }
  Golomb* root = new Golomb(n, ipl);
  auto start = std::chrono::steady_clock::now();
  BAB<Golomb> engine(root);
  delete root;
  int best = -1;
  while (Golomb* s = engine.next()) {
    best = s->length();
    delete s;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Search::Statistics st = engine.statistics();
  std::printf("%d %llu %llu %.6f\n", best, (unsigned long long)st.node, (unsigned long long)st.fail, secs);
  return 0;
}
