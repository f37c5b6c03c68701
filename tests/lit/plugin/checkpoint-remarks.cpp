// A checkpointed time loop says what its reverse keeps and re-runs, at the
// line the user wrote: with the step count and snapshots known, the
// numbers (1000 steps, 10 snapshots by default: 12 states, each step run
// at most 5 more times since C(14, 10) >= 1000 > C(13, 10)); with a count
// known at run time, the rule.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/checkpoint.hpp>

#include <vector>

struct State {
  std::vector<double> x;
};

void step(State &s) {
  for (double &v : s.x)
    v = v * (1 - 0.1 * v);
}

double thousand(State &s) {
  // CHECK: checkpoint-remarks.cpp:[[@LINE+1]]:3: remark: in the reverse sweep of 'thousand(State&)' does not tape the steps of this time loop (slope::checkpointed): {{.*}} for 1000 steps at most 12 states at once and one step's tape; each step runs at most 5 more times after the primal sweep
  slope::checkpointed<step>(s, 1000);
  return s.x[0];
}

double runTime(State &s, int n) {
  // CHECK: checkpoint-remarks.cpp:[[@LINE+1]]:3: remark: in the reverse sweep of 'runTime(State&, int)' does not tape {{.*}} at most k + 2 states at once
  slope::checkpointed<step>(s, n, slope::snapshots(4));
  return s.x[0];
}

void gradients(State &s, State &ds, int n) {
  slope::grad<thousand>(slope::dup(s, ds));
  slope::grad<runTime>(slope::dup(s, ds), n);
}
