// Enzyme calls Slope cannot serve are one error each, at the call that
// made them, naming the marker, argument or entry point at fault.
// RUN: not %clang -O0 -c -o /dev/null -fplugin=%slope_plugin %s 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c -o /dev/null -fplugin=%slope_plugin %s 2>&1 | FileCheck %s
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width, enzyme_shadow,
    enzyme_allocated;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_augmentfwd(void *, ...);
extern void *__enzyme_augmentfwd_tape(void *, ...);
extern double __enzyme_batch(void *, ...);

double f(double x, double y) { return x * y; }
double h(double *x) { return *x; }
double v(double x, ...) { return x; }

double use(double x, double y, double *p, void *unknown, int n) {
  double r = 0;
  void *tape;
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: the result type declared for '__enzyme_autodiff' cannot hold its 2 results (declare it to return a struct with one field per result)
  r += __enzyme_autodiff((void *)f, x, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: unsupported Enzyme marker 'enzyme_shadow' before argument 1 of 'f'
  r += __enzyme_autodiff((void *)f, enzyme_shadow, x, enzyme_const, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: enzyme_allocated (a tape the caller allocates) is not supported: drop it and its size; Slope allocates the tape, and __enzyme_augmentfwd returns it
  __enzyme_augmentfwd((void *)f, enzyme_allocated, 64, x, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: missing argument 2 of 'f'
  r += __enzyme_autodiff((void *)f, x);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: too many arguments for 'f': it takes 2 parameters
  r += __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: enzyme_out before argument 1 of 'f': in forward mode an active scalar is enzyme_dup, followed by its tangent
  r += __enzyme_fwddiff((void *)f, enzyme_out, x, y, 1.0);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot duplicate argument 2 of 'f': in reverse mode a scalar is enzyme_out
  r += __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_dup, y, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: missing the shadow of argument 1 of 'h'
  r += __enzyme_autodiff((void *)h, p);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: expected the shadow of argument 1 of 'h', found the marker 'enzyme_const'
  r += __enzyme_autodiff((void *)h, enzyme_dup, p, enzyme_const);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: unsupported Enzyme entry point '__enzyme_batch'
  r += __enzyme_batch((void *)f, x, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: the function to differentiate is not known at compile time
  r += __enzyme_autodiff(unknown, x, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: enzyme_width must be followed by a constant from 1 to 64
  r += __enzyme_fwddiff((void *)f, enzyme_width, n, x, 1.0, y, 1.0);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: enzyme_width is supported by __enzyme_fwddiff and __enzyme_autodiff only
  tape = __enzyme_augmentfwd_tape((void *)h, enzyme_width, 2, p, p, p);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: '__enzyme_augmentfwd' must be declared to return the tape (void *)
  __enzyme_augmentfwd((void *)f, x, enzyme_const, y);
  // CHECK-DAG: errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'v': variadic functions are not supported
  r += __enzyme_autodiff((void *)v, x);
  return r + *(double *)tape;
}
// CHECK: 15 errors generated
