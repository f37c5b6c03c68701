// Code written for Enzyme, compiled by Slope unchanged: swap
// -fplugin=ClangEnzyme-19.so for -fplugin=SlopeClang.so.
//
//   clang-19 -O2 -fplugin=build/lib/SlopeClang.so samples/enzyme_c/enzyme.c \
//     -lm -o enzyme_c
//
// A least-squares loss: its gradient (reverse mode), a Jacobian-vector
// product of two directions at once (vector forward mode), a custom
// derivative registered as Enzyme registers it, and the split mode.
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
extern double __enzyme_autodiff(void *, ...);
typedef struct {
  double d0, d1;
} Two;
extern Two __enzyme_fwddiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

// loss(p) = sum_i (p0 * exp(p1 * t_i) - y_i)^2
double loss(const double *p, const double *t, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = p[0] * exp(p[1] * t[i]) - y[i];
    s += r * r;
  }
  return s;
}

// A function with a hand-written derivative: softsign(x) = x / (1 + |x|).
double softsign(double x) { return x / (1 + fabs(x)); }
void *softsign_aug(double x) { return 0; } // no tape needed
double softsign_rev(double x, double dret, void *tape) {
  double d = 1 + fabs(x);
  return dret / (d * d);
}
void *__enzyme_register_gradient_softsign[3] = {
    (void *)softsign, (void *)softsign_aug, (void *)softsign_rev};
double squashed(double x) { return softsign(3 * x); }

int main(void) {
  double t[4] = {0, 0.5, 1, 1.5}, y[4] = {1.0, 1.6, 2.8, 4.4};
  double p[2] = {1.0, 1.0}, dp[2] = {0, 0};

  printf("loss(p) = %.6f\n", loss(p, t, y, 4));
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, t,
                    enzyme_const, y, enzyme_const, 4);
  printf("gradient (reverse mode)        = (%.6f, %.6f)\n", dp[0], dp[1]);

  double e0[2] = {1, 0}, e1[2] = {0, 1};
  Two jvp = __enzyme_fwddiff((void *)loss, enzyme_width, 2, enzyme_dup, p, e0,
                             e1, enzyme_const, t, enzyme_const, y,
                             enzyme_const, 4);
  printf("gradient (forward, 2 lanes)    = (%.6f, %.6f)\n", jvp.d0, jvp.d1);

  double dq[2] = {0, 0};
  void *tape = __enzyme_augmentfwd((void *)loss, enzyme_dup, p, dq,
                                   enzyme_const, t, enzyme_const, y,
                                   enzyme_const, 4);
  __enzyme_reverse((void *)loss, enzyme_dup, p, dq, enzyme_const, t,
                   enzyme_const, y, enzyme_const, 4, 1.0, tape);
  printf("gradient (split mode)          = (%.6f, %.6f)\n", dq[0], dq[1]);

  double custom = __enzyme_autodiff((void *)squashed, 0.5);
  printf("d/dx softsign(3x) at 0.5       = %.6f (custom rule), %.6f (by "
         "hand)\n",
         custom, 3 / (2.5 * 2.5));

  double worst = fabs(custom - 3 / (2.5 * 2.5));
  for (int i = 0; i < 2; ++i) {
    double lane = i == 0 ? jvp.d0 : jvp.d1;
    worst = fmax(worst, fmax(fabs(lane - dp[i]), fabs(dq[i] - dp[i])));
  }
  printf(worst < 1e-12 ? "all agree\n" : "MISMATCH\n");
  return worst < 1e-12 ? 0 : 1;
}
