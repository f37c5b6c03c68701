// Kernel registration and shared input helpers.
#include "Kernel.h"

#include <cmath>
#include <map>

namespace bench {
namespace {
std::map<std::string, KernelFactory> &byOrder() {
  static std::map<std::string, KernelFactory> Factories;
  return Factories;
}
} // namespace

Registration::Registration(const char *Order, KernelFactory Factory) {
  byOrder()[Order] = std::move(Factory);
}

std::vector<KernelFactory> registeredKernels() {
  std::vector<KernelFactory> Factories;
  for (auto &[Order, Factory] : byOrder())
    Factories.push_back(Factory);
  return Factories;
}

std::vector<double> wave(int Count, double Scale, double Phase) {
  std::vector<double> V(Count);
  for (int I = 0; I < Count; ++I)
    V[I] = Scale * std::cos(0.37 * I + Phase);
  return V;
}

} // namespace bench
