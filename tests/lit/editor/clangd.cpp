// clangd does not load plugins: with the documented .clangd snippet
// (-DSLOPE_EDITOR) a file using Slope checks without errors; without it,
// the one plugin-missing error appears.
// REQUIRES: clangd
// RUN: rm -rf %t && mkdir -p %t/with %t/without
// RUN: cp %s %t/with/use.cpp && cp %s %t/without/use.cpp
// RUN: cp %S/Inputs/dot-clangd %t/with/.clangd
// RUN: echo '[{"directory":"%t/with","command":"clang++-19 -std=c++17 -I%include -fplugin=%slope_plugin -c use.cpp","file":"use.cpp"}]' > %t/with/compile_commands.json
// RUN: echo '[{"directory":"%t/without","command":"clang++-19 -std=c++17 -I%include -fplugin=%slope_plugin -c use.cpp","file":"use.cpp"}]' > %t/without/compile_commands.json
// RUN: %clangd --check=%t/with/use.cpp 2>&1 | FileCheck %s --check-prefix=WITH
// RUN: not %clangd --check=%t/without/use.cpp 2>&1 | FileCheck %s --check-prefix=WITHOUT
// WITH: All checks completed, 0 errors
// WITHOUT: the Slope compiler plugin is not loaded
// WITHOUT: All checks completed, 1 errors
#include <slope/slope.hpp>

double f(double x) { return x * x; }
double g(double x) { return slope::grad<f>(x); }
