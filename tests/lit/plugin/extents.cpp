// Extents from the C++ API: with every pointer's extent given, the call
// tests at run time whether the arrays are apart and runs the derivative
// for disjoint arguments if so. Where the extents cannot serve, a remark
// (-Rpass-analysis=slope) at the call says why; without any extent there
// is nothing to say. Not at -O0.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | grep -c "remark: the extents given here" | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}2{{$}}
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
#include <slope/slope.hpp>

double Scratch[8];

double squares(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * x[i];
    s += y[i];
  }
  return s;
}

double counted(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * x[i];
    Scratch[i % 8] = 1.0;
    s += y[i];
  }
  return s;
}

void use(double *x, double *dx, double *y, double *dy, int n) {
  slope::grad<squares>(slope::dup(x, dx, n), slope::dup(y, dy, n), n);
  // REMARK-DAG: extents.cpp:[[# @LINE + 1]]:3: remark: the extents given here do not let 'squares(double const*, double*, int)' be differentiated for arguments that do not overlap: argument 2 has no extent
  slope::grad<squares>(slope::dup(x, dx, n), slope::dup(y, dy), n);
  // REMARK-DAG: extents.cpp:[[# @LINE + 1]]:3: remark: the extents given here do not let 'counted(double const*, double*, int)' be differentiated for arguments that do not overlap: it reaches memory other than through its parameters: a write at {{.*}}extents.cpp:{{[0-9]+}}
  slope::grad<counted>(slope::dup(x, dx, n), slope::dup(y, dy, n), n);
  // No extents, no remark.
  slope::grad<counted>(slope::dup(x, dx), slope::dup(y, dy), n);
}

// CHECK: slope: generated _Z7squaresPKdPdi.slope.reverse.DDI.noresult (squares(
// CHECK: slope: generated _Z7squaresPKdPdi.slope.reverse.DDI.disjoint.noresult (squares(
// CHECK-NOT: slope: generated _Z7countedPKdPdi.slope.reverse.DDI.disjoint.noresult

// O0-NOT: .disjoint
