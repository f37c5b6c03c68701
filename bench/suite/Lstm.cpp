// ADBench's LSTM loss (diagonal weights), l = 2 layers, c = 1024 steps,
// b = 14 units: per layer and unit f = σ(x·Wf + bf), i = σ(h·Wi + bi),
// o = σ(x·Wo + bo), g = tanh(h·Wc + bc); c ← c·f + i·g; h ← o·tanh(c). The
// input is x ⊙ in_w, the prediction h_L ⊙ out_w + out_b, the loss
// -Σ_t Σ_i y_{t+1,i}·(ŷ_{t,i} - logsumexp ŷ_t) / ((c - 1)·b). Gradient with
// respect to the layer parameters and the three extra vectors.
#include "Kernel.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// main: per layer [Wf Wi Wo Wc bf bi bo bc] (b each); extra: [in_w out_w
/// out_b]; state: per layer [h c], updated; seq: c × b.
double lstmLoss(int l, int c, int b, const double *main, const double *extra,
                double *state, const double *seq, double *scratch) {
  double *input = scratch, *ypred = scratch + b;
  double total = 0;
  for (int t = 0; t + 1 < c; ++t) {
    for (int i = 0; i < b; ++i)
      input[i] = seq[t * b + i] * extra[i];
    for (int layer = 0; layer < l; ++layer) {
      const double *w = main + layer * 8 * b;
      double *h = state + layer * 2 * b, *cell = h + b;
      for (int i = 0; i < b; ++i) {
        double f = sigmoid(input[i] * w[i] + w[4 * b + i]);
        double in = sigmoid(h[i] * w[b + i] + w[5 * b + i]);
        double o = sigmoid(input[i] * w[2 * b + i] + w[6 * b + i]);
        double g = std::tanh(h[i] * w[3 * b + i] + w[7 * b + i]);
        cell[i] = cell[i] * f + in * g;
        h[i] = o * std::tanh(cell[i]);
        input[i] = h[i];
      }
    }
    double m = -INFINITY;
    for (int i = 0; i < b; ++i) {
      ypred[i] = input[i] * extra[b + i] + extra[2 * b + i];
      m = std::max(m, ypred[i]);
    }
    double s = 0;
    for (int i = 0; i < b; ++i)
      s += std::exp(ypred[i] - m);
    double lse = m + std::log(s);
    for (int i = 0; i < b; ++i)
      total += seq[(t + 1) * b + i] * (ypred[i] - lse);
  }
  return -total / ((c - 1) * b);
}

/// What the reverse sweep needs of one layer at one step.
enum Saved { X, HPrev, CPrev, F, In, O, G, TanhC, SavedCount };

void lstmByHand(int l, int c, int b, const double *main, const double *extra,
                const double *state0, const double *seq, double *dmain,
                double *dextra, std::vector<double> &tape) {
  tape.resize(static_cast<size_t>(c) * l * SavedCount * b);
  std::vector<double> state(state0, state0 + 2 * l * b), input(b), top(c * b);
  auto saved = [&](int t, int layer, Saved s) {
    return &tape[((static_cast<size_t>(t) * l + layer) * SavedCount + s) * b];
  };
  for (int t = 0; t + 1 < c; ++t) {
    for (int i = 0; i < b; ++i)
      input[i] = seq[t * b + i] * extra[i];
    for (int layer = 0; layer < l; ++layer) {
      const double *w = main + layer * 8 * b;
      double *h = &state[layer * 2 * b], *cell = h + b;
      for (int i = 0; i < b; ++i) {
        double f = sigmoid(input[i] * w[i] + w[4 * b + i]);
        double in = sigmoid(h[i] * w[b + i] + w[5 * b + i]);
        double o = sigmoid(input[i] * w[2 * b + i] + w[6 * b + i]);
        double g = std::tanh(h[i] * w[3 * b + i] + w[7 * b + i]);
        saved(t, layer, X)[i] = input[i];
        saved(t, layer, HPrev)[i] = h[i];
        saved(t, layer, CPrev)[i] = cell[i];
        saved(t, layer, F)[i] = f;
        saved(t, layer, In)[i] = in;
        saved(t, layer, O)[i] = o;
        saved(t, layer, G)[i] = g;
        cell[i] = cell[i] * f + in * g;
        double tc = std::tanh(cell[i]);
        saved(t, layer, TanhC)[i] = tc;
        h[i] = o * tc;
        input[i] = h[i];
      }
    }
    std::copy(input.begin(), input.end(), &top[t * b]);
  }
  double scale = -1.0 / ((c - 1) * b);
  std::vector<double> dhCarry(l * b, 0.0), dcCarry(l * b, 0.0), dh(b), ypred(b);
  for (int t = c - 2; t >= 0; --t) {
    const double *hTop = &top[t * b], *y = &seq[(t + 1) * b];
    double m = -INFINITY, s = 0, ySum = 0;
    for (int i = 0; i < b; ++i) {
      ypred[i] = hTop[i] * extra[b + i] + extra[2 * b + i];
      m = std::max(m, ypred[i]);
      ySum += y[i];
    }
    for (int i = 0; i < b; ++i)
      s += std::exp(ypred[i] - m);
    for (int i = 0; i < b; ++i) {
      double soft = std::exp(ypred[i] - m) / s;
      double dy = scale * (y[i] - soft * ySum);
      dextra[b + i] += dy * hTop[i];
      dextra[2 * b + i] += dy;
      dh[i] = dy * extra[b + i];
    }
    for (int layer = l - 1; layer >= 0; --layer) {
      const double *w = main + layer * 8 * b;
      double *dw = dmain + layer * 8 * b;
      for (int i = 0; i < b; ++i) {
        double x = saved(t, layer, X)[i], hp = saved(t, layer, HPrev)[i];
        double cp = saved(t, layer, CPrev)[i], f = saved(t, layer, F)[i];
        double in = saved(t, layer, In)[i], o = saved(t, layer, O)[i];
        double g = saved(t, layer, G)[i], tc = saved(t, layer, TanhC)[i];
        double dhi = dh[i] + dhCarry[layer * b + i];
        double dO = dhi * tc;
        double dc = dcCarry[layer * b + i] + dhi * o * (1 - tc * tc);
        double dzf = dc * cp * f * (1 - f), dzi = dc * g * in * (1 - in);
        double dzo = dO * o * (1 - o), dzg = dc * in * (1 - g * g);
        dw[i] += dzf * x;
        dw[4 * b + i] += dzf;
        dw[b + i] += dzi * hp;
        dw[5 * b + i] += dzi;
        dw[2 * b + i] += dzo * x;
        dw[6 * b + i] += dzo;
        dw[3 * b + i] += dzg * hp;
        dw[7 * b + i] += dzg;
        dcCarry[layer * b + i] = dc * f;
        dhCarry[layer * b + i] = dzi * w[b + i] + dzg * w[3 * b + i];
        dh[i] = dzf * w[i] + dzo * w[2 * b + i]; // to the layer below
      }
    }
    for (int i = 0; i < b; ++i)
      dextra[i] += dh[i] * seq[t * b + i];
  }
}

class Lstm : public bench::Kernel {
public:
  Lstm(int L, int C, int B)
      : L(L), C(C), B(B), Main(bench::wave(8 * L * B, 0.8)),
        Extra(bench::wave(3 * B, 0.9, 0.4)),
        State0(bench::wave(2 * L * B, 0.3, 1.1)), State(2 * L * B),
        DState(2 * L * B), Scratch(2 * B), DScratch(2 * B) {
    // A one-hot-like sequence, as in ADBench's character data.
    Seq.assign(C * B, 0.0);
    for (int T = 0; T < C; ++T)
      Seq[T * B + (T * 7 + 3) % B] = 1.0;
    SlopeGrad.resize(Main.size() + Extra.size());
    HandGrad.resize(Main.size() + Extra.size());
  }
  std::string name() const override {
    return "lstm l=" + std::to_string(L) + " c=" + std::to_string(C);
  }
  void primal() override {
    State = State0;
    Value = lstmLoss(L, C, B, Main.data(), Extra.data(), State.data(),
                     Seq.data(), Scratch.data());
  }
  void slope() override {
    State = State0;
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    std::fill(DState.begin(), DState.end(), 0.0);
    std::fill(DScratch.begin(), DScratch.end(), 0.0);
    double *DMain = SlopeGrad.data(), *DExtra = DMain + Main.size();
    slope::grad<lstmLoss>(L, C, B, slope::dup(Main.data(), DMain),
                          slope::dup(Extra.data(), DExtra),
                          slope::dup(State.data(), DState.data()),
                          slope::constant(Seq.data()),
                          slope::dup(Scratch.data(), DScratch.data()));
  }
  void hand() override {
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    lstmByHand(L, C, B, Main.data(), Extra.data(), State0.data(), Seq.data(),
               HandGrad.data(), HandGrad.data() + Main.size(), Tape);
  }

private:
  int L, C, B;
  std::vector<double> Main, Extra, State0, State, DState, Scratch, DScratch,
      Seq, Tape;
  double Value = 0;
};

bench::Registration Register("3 lstm", [](bench::KernelList &Out, bool Quick) {
  Out.push_back(Quick ? std::make_unique<Lstm>(2, 20, 5)
                      : std::make_unique<Lstm>(2, 1024, 14));
});

} // namespace
