// Library calls that cannot influence a result (output, formatting,
// clocks, random numbers, assertions) need no derivative code, even when
// they are passed active values; the derivative is that of the rest.
#include "Expect.h"

#include <slope/slope.hpp>

#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <ostream>
#include <string>

namespace {

// A stream without a buffer: output goes nowhere.
std::ostream Log(nullptr);

double logged(double X) {
  Log << "x = " << X << std::endl;
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "%g", X * 2);
  std::printf("%s", "");
  std::string Text = std::to_string(X);
  assert(X > -1e300);
  return X * std::sin(X) + (Text.empty() ? 1.0 : 0.0) +
         (Buffer[0] == '\0' ? 1.0 : 0.0);
}

double timedAndRandom(double X) {
  auto Start = std::chrono::steady_clock::now();
  std::time_t Now = std::time(nullptr);
  double Noise = std::rand() % 2 == 2 ? 1.0 : 0.0; // never taken
  std::clock_t Ticks = std::clock();
  (void)Start, (void)Now, (void)Ticks;
  if (std::isnan(X))
    std::abort();
  return std::exp(X) + Noise;
}

} // namespace

TEST(LibraryCalls, OutputAndFormattingAreInactive) {
  check::expectFirstArg<logged>(0.9, std::sin(0.9) + 0.9 * std::cos(0.9),
                                1e-15);
}

TEST(LibraryCalls, ClocksRandomNumbersAndAbortAreInactive) {
  check::expectFirstArg<timedAndRandom>(0.4, std::exp(0.4), 1e-15);
}
