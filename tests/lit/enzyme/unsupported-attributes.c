// Enzyme attributes that would change a derivative and that Slope does not
// implement are errors at the attribute, not clang's "unknown attribute"
// warning followed by a wrong gradient. enzyme_inactive is honoured.
// RUN: not %clang -O2 -fplugin=%slope_plugin -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -fplugin=%slope_plugin -c %s -o /dev/null 2>&1 | FileCheck %s
#include <math.h>

// CHECK: unsupported-attributes.c:[[@LINE+1]]:{{[0-9]+}}: error: slope: Enzyme's attribute 'enzyme_function_like' is not supported
double my_log1p(double) __attribute__((enzyme_function_like("log1p")));
// Once, not once per time clang hands the attribute over:
// CHECK-NOT: attribute 'enzyme_function_like'

// CHECK: unsupported-attributes.c:[[@LINE+1]]:{{[0-9]+}}: error: slope: Enzyme's attribute 'enzyme_inactive_noblock' is not supported
void log_event(double) __attribute__((enzyme_inactive_noblock));

// CHECK: unsupported-attributes.c:[[@LINE+1]]:{{[0-9]+}}: error: slope: Enzyme's attribute 'enzyme_allocation_like' is not supported
void *my_alloc(unsigned long) __attribute__((enzyme_allocation_like(0, -1)));

// CHECK-NOT: error: slope
double counter(double) __attribute__((enzyme_inactive));
// CHECK-NOT: warning: unknown attribute

extern double __enzyme_autodiff(void *, ...);
double f(double x) { return my_log1p(x) * x + counter(x); }
double df(double x) { return __enzyme_autodiff((void *)f, x); }
