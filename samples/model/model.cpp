// A model as a class: its loss is a const member function, its parameters
// are fields. slope::grad<&Model::loss> takes the object first, as
// slope::dup(model, gradient) -- the gradient is a Model too -- and the
// data as a const std::vector<double>&.
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

struct Model {
  double amplitude = 1.0, rate = 0.1, offset = 0.0;

  double predict(double t) const {
    return amplitude * std::exp(-rate * t) + offset;
  }
  /// Mean squared error over samples (t_i, y_i) stored as pairs.
  double loss(const std::vector<double> &samples) const {
    double sum = 0;
    std::size_t n = samples.size() / 2;
    for (std::size_t i = 0; i < n; ++i) {
      double r = predict(samples[2 * i]) - samples[2 * i + 1];
      sum += r * r;
    }
    return sum / n;
  }
};

int main() {
  // Data from amplitude 2, rate 0.5, offset 0.3.
  std::vector<double> samples;
  for (int i = 0; i < 20; ++i) {
    double t = 0.25 * i;
    samples.push_back(t);
    samples.push_back(2.0 * std::exp(-0.5 * t) + 0.3);
  }
  Model model;
  double before = model.loss(samples);
  for (int step = 0; step < 3000; ++step) {
    Model gradient{0, 0, 0};
    slope::grad<&Model::loss>(slope::dup(model, gradient),
                              slope::constant(&samples));
    model.amplitude -= 0.1 * gradient.amplitude;
    model.rate -= 0.1 * gradient.rate;
    model.offset -= 0.1 * gradient.offset;
  }
  double after = model.loss(samples);
  std::printf("loss %.3g -> %.3g; amplitude %.4f rate %.4f offset %.4f\n",
              before, after, model.amplitude, model.rate, model.offset);
  return after < 1e-6 && std::fabs(model.rate - 0.5) < 1e-2 ? 0 : 1;
}
