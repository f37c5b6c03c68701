// A custom rule of the wrong shape is a compile error that spells out the
// signature Slope expects.
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include %s 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <cmath>

double scale(double x, double k) { return k * x; }
// Forgot the tangent of k.
slope::Dual<double> scaleForward(double x, double dx, double k) {
  return {k * x, k * dx};
}
std::tuple<double, double> scalePullback(double x, double k, double dy) {
  return {k * dy, x * dy};
}
// CHECK: error: implicit instantiation of undefined template 'slope::detail::expected_forward_rule_signature<slope::Dual<double> (double, double, double, double)>'
// CHECK: custom-rule-signature.cpp:[[# @LINE + 1]]:1: note: in instantiation of template class 'slope::detail::CustomRule<&scale, &scaleForward, &scalePullback>' requested here
SLOPE_CUSTOM_DERIVATIVE(scale, scaleForward, scalePullback);
