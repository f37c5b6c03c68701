// Kernels and Enzyme-style C callers, written against Enzyme's C ABI only:
// entry points and markers are declared here as an Enzyme user declares
// them. EnzymeAbiTest.cpp checks every result against analytic values or
// finite differences of the kernels.
#include "EnzymeKernels.h"

#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern int enzyme_width, enzyme_dupv;
int enzyme_tape; // defined here, as some Enzyme users do

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
extern float __enzyme_autodiff_float(void *, ...);
extern Pair __enzyme_autodiff_pair(void *, ...);
extern Triple __enzyme_autodiff_triple(void *, ...);
extern Quad __enzyme_autodiff_quad(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_fwddiff_float(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);
extern Pair __enzyme_fwddiff_pair(void *, ...);
extern Triple __enzyme_fwddiff_triple(void *, ...);
extern Quad __enzyme_fwddiff_quad(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern TapeAndValue __enzyme_augmentfwd_both(void *, ...);
extern double __enzyme_reverse(void *, ...);
extern void __enzyme_reverse_void(void *, ...);
extern void __enzyme_float(void *, size_t);

// ---- kernels ---------------------------------------------------------------

double rosenbrock(double x, double y) {
  return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x);
}

double mixed(double x, int n, double y) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += sin(x * (i + 1)) * y;
  return r;
}

float cubef(float x, float y) { return x * x * x * y; }

double weighted_norm(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i] * x[i];
  return sqrt(s);
}

void stencil(const double *in, double *out, int n) {
  __enzyme_float(out, sizeof(double) * n); // a type hint: ignored
  for (int i = 1; i + 1 < n; ++i)
    out[i] = in[i - 1] * in[i + 1] + exp(in[i]);
  out[0] = in[0];
  out[n - 1] = in[n - 1] * in[n - 1];
}

double three(double a, double b, double c) { return a * b * b * c * c * c; }

// ---- reverse mode ----------------------------------------------------------

double rev_default_scalar(double x, double y) {
  // Both scalars default to enzyme_out: the two adjoints come as a struct.
  Pair p = __enzyme_autodiff_pair((void *)rosenbrock, x, y);
  return p.a + 1000 * p.b;
}

double rev_const_second(double x, double y) {
  return __enzyme_autodiff((void *)rosenbrock, enzyme_out, x, enzyme_const, y);
}

double rev_int_between(double x, int n, double y, double *dy) {
  Pair p = __enzyme_autodiff_pair((void *)mixed, x, n, y);
  *dy = p.b;
  return p.a;
}

void rev_float(float x, float y, float *dx, float *dy) {
  // float arguments travel promoted to double through `...`.
  Pair p = __enzyme_autodiff_pair((void *)cubef, x, y);
  *dx = (float)p.a;
  *dy = (float)p.b;
  *dx += 0 *
         __enzyme_autodiff_float((void *)cubef, enzyme_out, x, enzyme_const, y);
}

void rev_three(double a, double b, double c, double *grad) {
  Triple t = __enzyme_autodiff_triple((void *)three, a, b, c);
  grad[0] = t.a;
  grad[1] = t.b;
  grad[2] = t.c;
}

double rev_pointers(const double *x, double *dx, const double *w, int n) {
  // Default for a pointer: dup. w is constant.
  __enzyme_autodiff((void *)weighted_norm, x, dx, enzyme_const, w, n);
  return 0;
}

void rev_void_kernel(const double *in, double *din, double *out, double *dout,
                     int n) {
  __enzyme_autodiff_void((void *)stencil, enzyme_dup, in, din, enzyme_dupnoneed,
                         out, dout, enzyme_const, n);
}

// ---- forward mode ----------------------------------------------------------

double fwd_scalar(double x, double dx, double y, double dy) {
  return __enzyme_fwddiff((void *)rosenbrock, x, dx, y, dy);
}

double fwd_marked(double x, double dx, double y) {
  return __enzyme_fwddiff((void *)rosenbrock, enzyme_dup, x, dx, enzyme_const,
                          y);
}

float fwd_float(float x, float dx, float y) {
  return __enzyme_fwddiff_float((void *)cubef, x, dx, enzyme_const, y);
}

double fwd_pointers(const double *x, const double *dx, const double *w, int n) {
  return __enzyme_fwddiff((void *)weighted_norm, enzyme_dup, x, dx,
                          enzyme_const, w, enzyme_const, n);
}

void fwd_void_kernel(const double *in, const double *din, double *out,
                     double *dout, int n) {
  __enzyme_fwddiff_void((void *)stencil, enzyme_dup, in, din, enzyme_dup, out,
                        dout, n);
}

// ---- vector forward mode ---------------------------------------------------

void fwd_width_scalars(double x, double y, double *jac) {
  // Lanes: d/dx, d/dy, d/dx + d/dy.
  Triple t =
      __enzyme_fwddiff_triple((void *)rosenbrock, enzyme_width, 3, enzyme_dup,
                              x, 1.0, 0.0, 1.0, enzyme_dup, y, 0.0, 1.0, 1.0);
  jac[0] = t.a;
  jac[1] = t.b;
  jac[2] = t.c;
}

void fwd_width_dupv(const double *x, const double *w, int n, double *grad) {
  // Four lanes, each a unit direction, packed with a byte stride.
  double seeds[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  Quad q = __enzyme_fwddiff_quad((void *)weighted_norm, enzyme_width, 4,
                                 enzyme_dupv, sizeof(seeds[0]), x, seeds,
                                 enzyme_const, w, enzyme_const, n);
  grad[0] = q.a;
  grad[1] = q.b;
  grad[2] = q.c;
  grad[3] = q.d;
}

void fwd_width_scalar_dupv(double x, double y, double *jac) {
  double xs[2] = {1, 0}, ys[2] = {0, 1};
  Pair p = __enzyme_fwddiff_pair((void *)rosenbrock, enzyme_width, 2,
                                 enzyme_dupv, sizeof(double), x, xs,
                                 enzyme_dupv, sizeof(double), y, ys);
  jac[0] = p.a;
  jac[1] = p.b;
}

void fwd_width_void_kernel(const double *in, const double *din0,
                           const double *din1, double *out, double *dout0,
                           double *dout1, int n) {
  __enzyme_fwddiff_void((void *)stencil, enzyme_width, 2, enzyme_dup, in, din0,
                        din1, enzyme_dup, out, dout0, dout1, enzyme_const, n);
}

// ---- vector reverse mode ---------------------------------------------------

void rev_width_void_kernel(const double *in, double *din0, double *din1,
                           double *out, double *dout0, double *dout1, int n) {
  __enzyme_autodiff_void((void *)stencil, enzyme_width, 2, enzyme_dup, in,
                         din0, din1, enzyme_dup, out, dout0, dout1,
                         enzyme_const, n);
}

void rev_width_dupv(const double *x, const double *w, int n, double *grads) {
  // Three lanes of shadows, n doubles apart; every lane seeds the result 1.
  __enzyme_autodiff((void *)weighted_norm, enzyme_width, 3, enzyme_dupv,
                    n * sizeof(double), x, grads, enzyme_const, w,
                    enzyme_const, n);
}

void rev_width_scalars(double a, double b, double c, double *grads) {
  // Two lanes: each active scalar's adjoints come together (a0 a1 b0 b1).
  Quad q = __enzyme_autodiff_quad((void *)three, enzyme_width, 2, a, b,
                                  enzyme_const, c);
  grads[0] = q.a;
  grads[1] = q.b;
  grads[2] = q.c;
  grads[3] = q.d;
}

// ---- split mode ------------------------------------------------------------

double split_scalar(double x, double y, double dret, double *primal) {
  TapeAndValue tv =
      __enzyme_augmentfwd_both((void *)rosenbrock, x, enzyme_const, y);
  *primal = tv.value;
  return __enzyme_reverse((void *)rosenbrock, x, enzyme_const, y, dret,
                          tv.tape);
}

void split_kernel(const double *in, double *din, double *out, double *dout,
                  int n) {
  void *tape = __enzyme_augmentfwd((void *)stencil, enzyme_dup, in, din,
                                   enzyme_dup, out, dout, enzyme_const, n);
  // Between the sweeps the caller may do anything, such as setting seeds.
  for (int i = 0; i < n; ++i)
    dout[i] = i + 1;
  __enzyme_reverse_void((void *)stencil, enzyme_dup, in, din, enzyme_dup, out,
                        dout, enzyme_const, n, enzyme_tape, tape);
}
