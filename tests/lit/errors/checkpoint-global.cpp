// The steps of a checkpointed loop are re-run from snapshots of the state:
// a step that keeps something in a global (here a running mean) would see
// it as later steps left it. An error at the loop, naming the global, not a
// wrong gradient. Kept in the state, the same step is accepted.
// RUN: not %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -DIN_STATE -fplugin=%slope_plugin -I%include -c %s -o /dev/null
#include <slope/checkpoint.hpp>

#include <vector>

struct State {
  std::vector<double> x;
  double mean = 0;
};

double runningMean = 0;

void relax(State &s) {
  double sum = 0;
  for (double &v : s.x) {
    v = 0.9 * v + 0.1 * v * v;
    sum += v;
  }
#ifdef IN_STATE
  s.mean = 0.5 * s.mean + 0.5 * sum;
  s.x[0] += 0.01 * s.mean;
#else
  runningMean = 0.5 * runningMean + 0.5 * sum;
  s.x[0] += 0.01 * runningMean;
#endif
}

double relaxed(State &s, int steps) {
  slope::checkpointed<relax>(s, steps);
  return s.x[0];
}

// The error at the request, the note at the loop (not inside the header).
// CHECK: checkpoint-global.cpp:[[@LINE+3]]:3: error: {{.*}}the steps of this checkpointed loop write the global 'runningMean': re-run from a snapshot of the state, a step would see it as later steps left it
// CHECK: checkpoint-global.cpp:35:3: note: the construct Slope cannot differentiate is here
void gradient(State &s, State &ds, int steps) {
  slope::grad<relaxed>(slope::dup(s, ds), steps);
}
