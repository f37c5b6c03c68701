// A two-layer perceptron written with Eigen (dynamic matrices mapped over
// the parameter array): h = tanh(W1·X + b1), loss = ½‖W2·h − T‖² over a
// batch. Gradient with respect to W1, b1 and W2; the hand-written one is
// the textbook backward pass, in Eigen too. Slope differentiates the two
// products with slope/eigen.hpp's rules, as a user of Eigen would.
#include "../Kernel.h"

#include <slope/slope.hpp>

#include <Eigen/Dense>
#include <slope/eigen.hpp>

#include <vector>

namespace {

using Matrix = Eigen::MatrixXd;
using MatrixMap = Eigen::Map<Matrix>;
using ConstMatrixMap = Eigen::Map<const Matrix>;

/// params: [W1 (hidden × in), b1 (hidden), W2 (out × hidden)], column-major.
double mlpLoss(const double *params, const double *inputs,
               const double *targets, int in, int hidden, int out, int batch) {
  ConstMatrixMap W1(params, hidden, in);
  Eigen::Map<const Eigen::VectorXd> b1(params + hidden * in, hidden);
  ConstMatrixMap W2(params + hidden * in + hidden, out, hidden);
  ConstMatrixMap X(inputs, in, batch), T(targets, out, batch);
  Matrix H = ((W1 * X).colwise() + b1).array().tanh().matrix();
  return 0.5 * (W2 * H - T).squaredNorm();
}

void mlpByHand(const double *params, const double *inputs,
               const double *targets, int in, int hidden, int out, int batch,
               double *gradient) {
  ConstMatrixMap W1(params, hidden, in);
  Eigen::Map<const Eigen::VectorXd> b1(params + hidden * in, hidden);
  ConstMatrixMap W2(params + hidden * in + hidden, out, hidden);
  ConstMatrixMap X(inputs, in, batch), T(targets, out, batch);
  Matrix H = ((W1 * X).colwise() + b1).array().tanh().matrix();
  Matrix R = W2 * H - T;
  Matrix DZ =
      ((W2.transpose() * R).array() * (1 - H.array().square())).matrix();
  MatrixMap(gradient, hidden, in).noalias() += DZ * X.transpose();
  Eigen::Map<Eigen::VectorXd>(gradient + hidden * in, hidden) +=
      DZ.rowwise().sum();
  MatrixMap(gradient + hidden * in + hidden, out, hidden).noalias() +=
      R * H.transpose();
}

class EigenMlp : public bench::Kernel {
public:
  EigenMlp(int In, int Hidden, int Out, int Batch)
      : In(In), Hidden(Hidden), Out(Out), Batch(Batch),
        Params(bench::wave(Hidden * In + Hidden + Out * Hidden, 0.2)),
        Inputs(bench::wave(In * Batch, 1.0, 0.7)),
        Targets(bench::wave(Out * Batch, 0.5, 1.9)) {
    SlopeGrad.resize(Params.size());
    HandGrad.resize(Params.size());
  }
  std::string name() const override {
    return "eigen mlp " + std::to_string(In) + "-" + std::to_string(Hidden) +
           "-" + std::to_string(Out) + " batch " + std::to_string(Batch);
  }
  void primal() override {
    Value = mlpLoss(Params.data(), Inputs.data(), Targets.data(), In, Hidden,
                    Out, Batch);
  }
  void slope() override {
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    slope::grad<mlpLoss>(slope::dup(Params.data(), SlopeGrad.data()),
                         slope::constant(Inputs.data()),
                         slope::constant(Targets.data()), In, Hidden, Out,
                         Batch);
  }
  void hand() override {
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    mlpByHand(Params.data(), Inputs.data(), Targets.data(), In, Hidden, Out,
              Batch, HandGrad.data());
  }

private:
  int In, Hidden, Out, Batch;
  std::vector<double> Params, Inputs, Targets;
  double Value = 0;
};

bench::Registration Register("8 eigen mlp", [](bench::KernelList &List,
                                               bool Quick) {
  List.push_back(Quick ? std::make_unique<EigenMlp>(6, 5, 3, 4)
                       : std::make_unique<EigenMlp>(64, 64, 8, 32));
});

} // namespace
