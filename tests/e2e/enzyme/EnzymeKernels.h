// The C functions of the Enzyme ABI tests (EnzymeKernels.c,
// EnzymeRules.c), callable from the C++ test.
#ifndef SLOPE_TESTS_ENZYMEKERNELS_H
#define SLOPE_TESTS_ENZYMEKERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double a, b;
} Pair;
typedef struct {
  double a, b, c;
} Triple;
typedef struct {
  double a, b, c, d;
} Quad;
typedef struct {
  void *tape;
  double value;
} TapeAndValue;

double rosenbrock(double x, double y);
double mixed(double x, int n, double y);
float cubef(float x, float y);
double weighted_norm(const double *x, const double *w, int n);
void stencil(const double *in, double *out, int n);
double three(double a, double b, double c);

double rev_default_scalar(double x, double y);
double rev_const_second(double x, double y);
double rev_int_between(double x, int n, double y, double *dy);
void rev_float(float x, float y, float *dx, float *dy);
void rev_three(double a, double b, double c, double *grad);
double rev_pointers(const double *x, double *dx, const double *w, int n);
void rev_void_kernel(const double *in, double *din, double *out, double *dout,
                     int n);

double fwd_scalar(double x, double dx, double y, double dy);
double fwd_marked(double x, double dx, double y);
float fwd_float(float x, float dx, float y);
double fwd_pointers(const double *x, const double *dx, const double *w, int n);
void fwd_void_kernel(const double *in, const double *din, double *out,
                     double *dout, int n);

void fwd_width_scalars(double x, double y, double *jac);
void fwd_width_dupv(const double *x, const double *w, int n, double *grad);
void fwd_width_scalar_dupv(double x, double y, double *jac);
void fwd_width_void_kernel(const double *in, const double *din0,
                           const double *din1, double *out, double *dout0,
                           double *dout1, int n);

void rev_width_void_kernel(const double *in, double *din0, double *din1,
                           double *out, double *dout0, double *dout1, int n);
void rev_width_dupv(const double *x, const double *w, int n, double *grads);
void rev_width_scalars(double a, double b, double c, double *grads);

double split_scalar(double x, double y, double dret, double *primal);
void split_kernel(const double *in, double *din, double *out, double *dout,
                  int n);

// EnzymeRules.c: custom derivatives registered through Enzyme's globals.
double softclip(double x);
double uses_softclip(double x);
double rules_reverse(double x);
double rules_forward(double x, double dx);
double rules_forward_pair(double x, double dx);
double rules_reverse_direct(double x);
void square_into(const double *src, double *dest);
double uses_square_into(double x);
double rules_reverse_pointer(double x);
void rules_reverse_pointer_direct(double x, double *dx);
void rules_reverse_pointer_markers_by_address(double x, double *dx);
double rules_reverse_result_only(double x);
double rules_inactive(double x, int *calls);
int rules_tapes_outstanding(void);
void rules_reverse_overwritten(double *state, double *d_state, int n);
double rules_norm2_steps(double *state, int n);

#ifdef __cplusplus
}
#endif

#endif
