// One benchmark kernel of the suite: a primal, Slope's reverse-mode
// gradient, and a gradient written by hand, over the same inputs. Each
// kernel file registers its cases (several sizes may share a kernel).
#ifndef SLOPE_BENCH_KERNEL_H
#define SLOPE_BENCH_KERNEL_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

class Kernel {
public:
  virtual ~Kernel() = default;
  virtual std::string name() const = 0;
  /// One evaluation of the objective.
  virtual void primal() = 0;
  /// One gradient by Slope into slopeGradient().
  virtual void slope() = 0;
  /// One gradient by hand into handGradient().
  virtual void hand() = 0;
  std::vector<double> &slopeGradient() { return SlopeGrad; }
  std::vector<double> &handGradient() { return HandGrad; }

protected:
  std::vector<double> SlopeGrad, HandGrad;
};

using KernelList = std::vector<std::unique_ptr<Kernel>>;
/// Adds a kernel's cases; Quick asks for small sizes (a correctness run).
using KernelFactory = std::function<void(KernelList &, bool Quick)>;

/// Registers \p Factory at static initialization (see each kernel file).
struct Registration {
  Registration(const char *Order, KernelFactory Factory);
};

/// The factories in registration order (sorted by their Order key).
std::vector<KernelFactory> registeredKernels();

/// Deterministic inputs: Scale·cos(0.37·i + Phase).
std::vector<double> wave(int Count, double Scale, double Phase = 0.1);

} // namespace bench

#endif
