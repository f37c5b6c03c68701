// Custom derivatives and inactive functions registered the way Enzyme
// registers them. The rules are deliberately not the true derivatives
// (multiples of them), so that a test can tell they were used.
#include "EnzymeKernels.h"

#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static int OutstandingTapes = 0;
int rules_tapes_outstanding(void) { return OutstandingTapes; }

// softclip(x) = tanh(x); the rules claim 10× its derivative.
double softclip(double x) { return tanh(x); }

double softclip_fwd(double x, double dx) {
  double t = tanh(x);
  return 10 * (1 - t * t) * dx;
}

// The tape carries tanh(x) from the augmented forward to the reverse.
void *softclip_aug(double x) {
  double *tape = malloc(sizeof(double));
  *tape = tanh(x);
  ++OutstandingTapes;
  return tape;
}

double softclip_rev(double x, double dret, void *tape) {
  double t = *(double *)tape;
  free(tape);
  --OutstandingTapes;
  return 10 * (1 - t * t) * dret;
}

void *__enzyme_register_derivative_softclip[2] = {(void *)softclip,
                                                  (void *)softclip_fwd};
void *__enzyme_register_gradient_softclip[3] = {
    (void *)softclip, (void *)softclip_aug, (void *)softclip_rev};

double uses_softclip(double x) { return softclip(x * x) + x; }

double rules_reverse(double x) {
  return __enzyme_autodiff((void *)uses_softclip, x);
}
double rules_forward(double x, double dx) {
  return __enzyme_fwddiff((void *)uses_softclip, x, dx);
}
double rules_reverse_direct(double x) {
  return __enzyme_autodiff((void *)softclip, x);
}

// A forward rule returning {value, tangent}: 3× the true tangent.
typedef struct {
  double value, tangent;
} ValueTangent;
double cube(double x) { return x * x * x; }
ValueTangent cube_fwd(double x, double dx) {
  ValueTangent r = {x * x * x, 9 * x * x * dx};
  return r;
}
void *__enzyme_register_derivative_cube[2] = {(void *)cube, (void *)cube_fwd};
double uses_cube(double x) { return cube(x) * 2; }
double rules_forward_pair(double x, double dx) {
  return __enzyme_fwddiff((void *)uses_cube, x, dx);
}

// Pointer arguments: Enzyme's classic example. The rule claims 2× the
// derivative and takes no tape from its augmented forward.
void square_into(const double *src, double *dest) { *dest = *src * *src; }
void *square_into_aug(const double *src, const double *d_src, double *dest,
                      double *d_dest) {
  *dest = *src * *src;
  return NULL;
}
void square_into_rev(const double *src, double *d_src, const double *dest,
                     double *d_dest, void *tape) {
  *d_src += 4 * *src * *d_dest;
  *d_dest = 0;
}
void *__enzyme_register_gradient_square_into[3] = {
    (void *)square_into, (void *)square_into_aug, (void *)square_into_rev};

double uses_square_into(double x) {
  double y;
  square_into(&x, &y);
  return y + x;
}
double rules_reverse_pointer(double x) {
  return __enzyme_autodiff((void *)uses_square_into, x);
}

// Markers passed by address, as some Enzyme code writes them.
void rules_reverse_pointer_markers_by_address(double x, double *dx) {
  double y = 0, dy = 1;
  __enzyme_autodiff((void *)square_into, &enzyme_dup, &x, dx, &enzyme_dup, &y,
                    &dy);
}

// An augmented forward that returns the primal result alone (no tape);
// the rule claims 5× the derivative of x²/2.
double half_square(double x) { return 0.5 * x * x; }
double half_square_aug(double x) { return 0.5 * x * x; }
double half_square_rev(double x, double dret, void *tape) {
  return 5 * x * dret;
}
void *__enzyme_register_gradient_half_square[3] = {
    (void *)half_square, (void *)half_square_aug, (void *)half_square_rev};
double uses_half_square(double x) { return half_square(x) * 3 + x; }
double rules_reverse_result_only(double x) {
  return __enzyme_autodiff((void *)uses_half_square, x);
}
void rules_reverse_pointer_direct(double x, double *dx) {
  double y = 0, dy = 1;
  __enzyme_autodiff((void *)square_into, enzyme_dup, &x, dx, enzyme_dup, &y,
                    &dy);
}

// A rule whose reverse needs memory the caller overwrites after the call:
// the augmented forward keeps what the reverse reads on its tape (a
// SLOPE_CUSTOM_DERIVATIVE pullback would read the overwritten memory, and
// is an error there). This rule is the true derivative.
double norm2(const double *v) { return v[0] * v[0] + v[1] * v[1]; }
void *norm2_aug(const double *v, const double *d_v) {
  double *tape = malloc(2 * sizeof(double));
  tape[0] = v[0];
  tape[1] = v[1];
  ++OutstandingTapes;
  return tape;
}
void norm2_rev(const double *v, double *d_v, double dret, void *tape) {
  const double *kept = (const double *)tape;
  d_v[0] += 2 * kept[0] * dret;
  d_v[1] += 2 * kept[1] * dret;
  free(tape);
  --OutstandingTapes;
}
void *__enzyme_register_gradient_norm2[3] = {(void *)norm2, (void *)norm2_aug,
                                             (void *)norm2_rev};
double norm2_steps(double *state, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += norm2(state);
    state[0] = sin(state[1]) + 0.5 * state[0];
  }
  return s;
}
void rules_reverse_overwritten(double *state, double *d_state, int n) {
  __enzyme_autodiff((void *)norm2_steps, enzyme_dup, state, d_state,
                    enzyme_const, n);
}
double rules_norm2_steps(double *state, int n) { return norm2_steps(state, n); }

// An inactive function: it runs, contributes no derivative.
static int *Calls;
double logged_scale(double x) {
  ++*Calls;
  return 3 * x;
}
void *__enzyme_inactivefn[1] = {(void *)logged_scale};

__attribute__((enzyme_inactive)) double noisy(double x) { return 5 * x; }

double with_inactive(double x) { return logged_scale(x) + noisy(x) + x * x; }
double rules_inactive(double x, int *calls) {
  Calls = calls;
  return __enzyme_autodiff((void *)with_inactive, x);
}
