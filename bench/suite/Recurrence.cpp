// A scalar recurrence without math calls, 10⁶ steps:
// x ← r·x·(1 - x) + c·x²/(1 + x²); gradient of the final x with respect
// to r, c and x0.
#include "Kernel.h"

#include <slope/slope.hpp>

#include <vector>

namespace {

double recurrence(double x, double r, double c, int steps) {
  for (int s = 0; s < steps; ++s)
    x = r * x * (1 - x) + c * x * x / (1 + x * x);
  return x;
}

/// Keeps every x, then runs the chain rule backwards.
void recurrenceByHand(double x, double r, double c, int steps, double *grad,
                      std::vector<double> &xs) {
  xs.resize(steps);
  for (int s = 0; s < steps; ++s) {
    xs[s] = x;
    x = r * x * (1 - x) + c * x * x / (1 + x * x);
  }
  double bx = 1, br = 0, bc = 0;
  for (int s = steps - 1; s >= 0; --s) {
    double v = xs[s], q = 1 + v * v;
    br += bx * v * (1 - v);
    bc += bx * v * v / q;
    bx *= r * (1 - 2 * v) + c * 2 * v / (q * q);
  }
  grad[0] = bx;
  grad[1] = br;
  grad[2] = bc;
}

class Recurrence : public bench::Kernel {
public:
  explicit Recurrence(int Steps) : Steps(Steps) {
    SlopeGrad.resize(3);
    HandGrad.resize(3);
  }
  std::string name() const override {
    return "recurrence " + std::to_string(Steps);
  }
  void primal() override { Value = recurrence(X0, R, C, Steps); }
  void slope() override {
    auto [DX, DR, DC] = slope::grad<recurrence>(X0, R, C, Steps);
    SlopeGrad = {DX, DR, DC};
  }
  void hand() override {
    recurrenceByHand(X0, R, C, Steps, HandGrad.data(), Xs);
  }

private:
  int Steps;
  // r = 1 makes 0 a neutrally stable fixed point: x decays like 1/step and
  // the adjoint like 1/step², staying a normal double over 10⁶ steps. At a
  // stable fixed point (r = 2.9) it fell below 1e-308 within ~7,000 steps,
  // and the rest of both reverse sweeps timed subnormal arithmetic.
  double X0 = 0.3, R = 1.0, C = 0.05, Value = 0;
  std::vector<double> Xs;
};

bench::Registration Register("6 recurrence", [](bench::KernelList &Out,
                                                bool Quick) {
  Out.push_back(std::make_unique<Recurrence>(Quick ? 1000 : 1000000));
});

} // namespace
