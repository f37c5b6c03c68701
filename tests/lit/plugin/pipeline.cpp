// The pass runs at every optimization level and in LTO compile steps; each
// (function, mode, activity) is generated once however often it is asked
// for, and the marker calls are all gone.
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
// RUN: %clangxx -std=c++17 -O1 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
// RUN: %clangxx -std=c++17 -O3 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
// RUN: %clangxx -std=c++17 -O2 -flto -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
// RUN: %clangxx -std=c++17 -O2 -flto=thin -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
// The pass plugin alone, through clang's -fpass-plugin, does the same.
// RUN: %clangxx -std=c++17 -O2 -fpass-plugin=%slope_pass -DSLOPE_PLUGIN_LOADED=1 -I%include -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=_markerI
#include <slope/slope.hpp>

#include <cmath>

double f(double x, double y) { return std::exp(x) * y; }

double a(double x) { return slope::grad<f>(x, slope::constant(2.0)); }
double b(double x) { return slope::grad<f>(x + 1, slope::constant(3.0)); }
auto c(double x) { return slope::grad<f>(x, 1.0); }
double d(double x) { return slope::derivative<f>(slope::dual(x, 1.0), 2.0); }

// CHECK-NOT: _ZN5slope6detail14reverse_marker
// CHECK-NOT: _ZN5slope6detail14forward_marker
// CHECK-DAG: define internal {{.*}} @_Z1fdd.slope.reverse.AC.noresult(
// CHECK-DAG: define internal {{.*}} @_Z1fdd.slope.reverse.AA.noresult(
// CHECK-DAG: define internal {{.*}} @_Z1fdd.slope.forward.AC(
// CHECK-NOT: define internal {{.*}} @_Z1fdd.slope.
