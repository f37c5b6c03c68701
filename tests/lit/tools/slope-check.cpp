// slope-check reads a compilation database and reports, without building,
// each Slope API call the plugin could not differentiate, with the
// plugin's diagnostic; it exits 0 only when every file passes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %S/Inputs/differentiable.cpp %S/Inputs/not-differentiable.cpp %t/
// RUN: echo '[{"directory":"%t","command":"clang++-19 -std=c++17 -O2 -I%include -fplugin=%slope_plugin -c differentiable.cpp","file":"differentiable.cpp"},{"directory":"%t","command":"clang++-19 -std=c++17 -O2 -I%include -fplugin=%slope_plugin -c not-differentiable.cpp","file":"not-differentiable.cpp"}]' > %t/compile_commands.json
// RUN: %slope_check -p %t %t/differentiable.cpp | FileCheck %s --check-prefix=GOOD
// RUN: not %slope_check -p %t %t/differentiable.cpp %t/not-differentiable.cpp > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=BAD < %t/out.txt
// RUN: ls %t | FileCheck %s --check-prefix=NOTHING-BUILT
// GOOD: slope-check: 1 file(s), all can be differentiated
// BAD: not-differentiable.cpp:5:31: error: slope: cannot differentiate call to 'opaque(double)' in 'h(double)'
// BAD: slope-check: 2 file(s), some cannot be differentiated
// NOTHING-BUILT-NOT: .o
