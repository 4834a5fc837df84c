// What the Gecode peers share: the propagation level named on the command line, and a
// search that stops at a given number of solutions ("solve and prove unique" asks for 2).
#pragma once

#include <gecode/int.hh>
#include <gecode/search.hh>

#include <cstring>

// `val`, `bnd` or `dom` as Gecode's level; false for anything else.
inline bool parse_ipl(const char* s, Gecode::IntPropLevel& ipl) {
  if (!std::strcmp(s, "val")) ipl = Gecode::IPL_VAL;
  else if (!std::strcmp(s, "bnd")) ipl = Gecode::IPL_BND;
  else if (!std::strcmp(s, "dom")) ipl = Gecode::IPL_DOM;
  else return false;
  return true;
}

// The solutions `engine` finds, up to `limit`; each is deleted once counted.
template <class S>
int solutions_up_to(Gecode::DFS<S>& engine, int limit) {
  int found = 0;
  while (found < limit) {
    S* s = engine.next();
    if (!s) break;
    found++;
    delete s;
  }
  return found;
}
