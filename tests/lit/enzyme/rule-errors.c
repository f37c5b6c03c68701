// Rules registered through Enzyme's globals that do not fit Enzyme's
// conventions are errors naming the rule and the function; calls through
// an unprototyped declaration are served like any other.
// RUN: not %clang -O0 -c -o /dev/null -Wno-deprecated-non-prototype -fplugin=%slope_plugin %s 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c -o /dev/null -Wno-deprecated-non-prototype -fplugin=%slope_plugin %s 2>&1 | FileCheck %s
extern double __enzyme_autodiff();
extern double __enzyme_fwddiff(void *, ...);

double g(double x) { return x * x; }
void *g_aug(double x) { return 0; }
double g_rev(double x, double d, void *tape, int extra) { return 2 * x * d; }
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)g_aug,
                                         (void *)g_rev};

double h(double x) { return x * x * x; }
int h_fwd(double x) { return 1; }
void *__enzyme_register_derivative_h[2] = {(void *)h, (void *)h_fwd};

double k(double x) { return x; }
double k_fwd(double x, double dx) { return dx; }
void *__enzyme_register_derivative_k[2] = {(void *)k, (void *)k_fwd};

double use_g(double x) { return g(x) + 1; }
double use_h(double x) { return h(x) + 1; }

double use(double x) {
  double r = 0;
  // CHECK-DAG: rule-errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: the custom derivative 'g_rev' registered for 'g' takes 4 parameters; Enzyme's convention gives it 2, then the tape
  r += __enzyme_autodiff((void *)use_g, x);
  // CHECK-DAG: rule-errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate call to 'h' in 'use_h': the custom derivative 'h_fwd' registered for 'h' takes 1 parameter; Enzyme's convention gives it 2
  r += __enzyme_fwddiff((void *)use_h, x, 1.0);
  // CHECK-DAG: rule-errors.c:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: missing argument 1 of 'k'
  r += __enzyme_autodiff((void *)k);
  // A forward rule alone leaves reverse mode to k's body: no error.
  // CHECK-NOT: rule-errors.c:[[# @LINE + 1]]:{{.*}}error
  r += __enzyme_autodiff((void *)k, x);
  return r;
}
// CHECK: 3 errors generated
