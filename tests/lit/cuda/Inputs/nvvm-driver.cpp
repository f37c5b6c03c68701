// Host driver for nvvm-numeric.cu: runs the device derivatives (rewritten
// to CPU intrinsics) and checks them against central differences of the
// same device primals, and the singular points against exact values.
#include <cmath>
#include <cstdio>

double doubles(double x, double y);
float floats(float x);
void entry(double *out, const double *in, float *fo, const float *fi,
           double *singular, double *body);

static int failures = 0;

static void expect(const char *what, double ad, double ref, double tol) {
  bool ok = std::fabs(ad - ref) <= tol * (1 + std::fabs(ref));
  std::printf("%s %s: AD %.10g reference %.10g\n", ok ? "ok" : "FAIL", what,
              ad, ref);
  failures += !ok;
}

int main() {
  double in[2] = {1.7, 2.3}, out[3], singular[2], body[1];
  float fi[1] = {0.8f}, fo[2];
  entry(out, in, fo, fi, singular, body);
  double h = 1e-6;
  double dx = (doubles(in[0] + h, in[1]) - doubles(in[0] - h, in[1])) / (2 * h);
  double dy = (doubles(in[0], in[1] + h) - doubles(in[0], in[1] - h)) / (2 * h);
  expect("d/dx reverse", out[0], dx, 1e-6);
  expect("d/dy reverse", out[1], dy, 1e-6);
  expect("d/dx forward", out[2], dx, 1e-6);
  float hf = 1e-2f;
  double fd = (double(floats(fi[0] + hf)) - double(floats(fi[0] - hf))) / (2 * hf);
  expect("float reverse", fo[0], fd, 2e-3);
  expect("float forward", fo[1], fd, 2e-3);
  expect("singular reverse", singular[0], 1.0, 0);
  expect("singular forward", singular[1], 1.0, 0);
  expect("kernel body reverse", body[0], 4 * in[0] + 1, 1e-15);
  return failures;
}
