#!/usr/bin/env python3
"""Random differentiable kernels for differential testing of Slope.

    generate.py SEED [COUNT] > kernels.cpp

writes a GoogleTest file with COUNT kernels drawn from SEED (the same seed
always gives the same file). Each kernel mixes what numeric code does --
loops over arrays, recurrences through memory, in-place updates, gathers and
scatters through index arrays, value-dependent branches and early exits,
local, stack and heap scratch arrays, helper functions (inlined, not
inlined, recursive), math library calls -- and its test checks Slope's
gradient against central differences and forward against reverse mode with
slope::testing::check_gradient. Values stay bounded and smooth near the
inputs: array writes and recurrences go through bounded functions, divisors
stay away from zero, logarithms and roots see positive arguments.

After them come two time loops over a struct of std::vectors (StateKernel),
drawn from a random stream of their own so that the kernels before them
stay what they were for every seed, and a time loop whose step reads a
vector in loops of their own and then updates it in place (StepKernel), on
a third stream, and a kernel of irreducible loops over in-place data (gotos
into loops, Duff's device: JumpKernel), on a fourth.
"""

import math
import re
import random
import sys

UNARY = [
    "std::sin({a})",
    "std::cos({a})",
    "std::tanh({a})",
    "std::atan({a})",
    "std::exp(std::sin({a}))",
    "gauss({a})",
    "std::log(1.0 + square({a}))",
    "std::log1p(std::exp(std::tanh({a})))",
    "std::sqrt(2.0 + square({a}))",
    "std::pow(1.5 + std::sin({a}), 1.3)",
    "std::cbrt(2.0 + std::cos({a}))",
    "std::erf({a})",
    "std::hypot({a}, 0.5)",
    "std::fabs({a})",
    "1.0 / (1.0 + square({a}))",
    "square({a})",
    "soft({a})",
    "std::expm1(0.5 * std::sin({a}))",
    "std::log2(3.0 + std::cos({a}))",
    "std::log10(1.0 + square({a}))",
    "std::exp2(std::tanh({a}))",
    "std::asinh({a})",
    "std::acos(0.9 * std::tanh({a}))",
    "std::asin(0.9 * std::sin({a}))",
    "std::cosh(std::tanh({a}))",
    "std::sinh(std::sin({a}))",
    "std::pow({a}, 2)",
    "std::pow(std::cos({a}), 3.0)",
    "std::max<double>({a}, 0.1)",
    "biggest({a}, 0.25)",
]

BINARY = [
    "({a} + {b})",
    "({a} - {b})",
    "({a} * {b})",
    "({a} / (1.5 + std::sin({b})))",
    "std::fmax({a}, {b})",
    "std::fmin({a}, {b})",
    "std::atan2({a}, 1.0 + square({b}))",
    "std::pow(1.0 + square({a}), 0.5 + 0.25 * std::sin({b}))",
    "pick({a}, {b})",
    "std::fma({a}, {b}, 0.5)",
    "std::min<double>({a}, {b})",
    "std::hypot({a}, {b})",
    "std::copysign({a}, 1.0)",
]

KINKS = ("fabs", "fmax", "fmin", "max", "min", "pick", "biggest", "copysign",
         "hypot")

# Keep what is stored and carried from one iteration to the next bounded.
BOUNDED = [
    "std::tanh({e})",
    "std::sin({e})",
    "0.5 * std::atan({e})",
    "ratio({e})",
]


def apart(first, second):
    """A phase for y whose wave is nowhere close to x's: waves of equal
    phase (mod 2*pi) would make y[i] == x[i], a tie that pick() and max()
    break with a jump central differences step across."""
    def close(a, b):
        turn = (0.37 * (a - b)) % (2 * math.pi)
        return min(turn, 2 * math.pi - turn) < 0.1
    while close(first, second):
        second = second % 99 + 1
    return second


class Kernel:
    """One kernel: a signature, its arguments in the test, and a body."""

    def __init__(self, rng, name, helpers):
        self.rng = rng
        self.name = name
        self.helpers = helpers  # names of helper functions usable here
        self.lines = []
        self.depth = 1
        self.counter = 0
        self.shape = rng.choice(["xy", "xy", "inplace", "void", "gather"])
        # Float arrays (the kernel computes in double between loads and
        # stores) are checked with a looser tolerance.
        self.real = "float" if rng.random() < 0.2 else "double"
        # Float kernels are templates over their element type R: the double
        # instance is checked as tightly as any kernel, the float one
        # (differences step ~5e-3 in float) loosely.
        self.elem = "R" if self.real == "float" else "double"
        # Float differences take steps of about 5e-3: kinks (min, max, |x|)
        # that close to the inputs would make them, not Slope, wrong.
        smooth = [u for u in UNARY if not any(k in u for k in KINKS)]
        self.unary = smooth if self.real == "float" else UNARY
        self.binary = [b for b in BINARY if not any(k in b for k in KINKS)] \
            if self.real == "float" else BINARY
        self.has_y = self.shape in ("xy", "void", "gather")
        self.has_s = self.shape in ("xy", "inplace", "gather")

    # -- expressions ---------------------------------------------------
    def const(self):
        return repr(round(self.rng.uniform(-1.5, 1.5), 2))

    def scalar(self, body):
        """The scalar argument s: a constant kept off every number the
        kernel's body compares it with (max(s, 0.1), fmin(acc, s) where
        acc = 0.5 * s, a break on s > 0.95), where central differences
        would step across the jump of the derivative. Halves and doubles
        of each literal are avoided too, and 0."""
        literals = {float(v) for v in re.findall(r"(?<![\w.])\d+\.\d+", body)}
        kinks = {0.0}
        for v in literals:
            kinks |= {v, -v, 2 * v, -2 * v, v / 2, -v / 2}
        while True:
            value = self.const()
            if all(abs(float(value) - t) > 0.02 for t in kinks):
                return value

    def leaves(self, index):
        out = ["acc"]
        if self.has_s:
            out.append("s")
        if index:
            i = index
            out += [f"x[{i}]", f"x[({i} + 1) % n]", f"x[n - 1 - {i}]"]
            if self.has_y:
                out += [f"y[{i}]", f"y[({i} + 2) % n]"]
            if self.shape == "gather":
                out.append(f"x[idx[{i}]]")
        else:
            out += ["x[0]", "x[n - 1]"]
            if self.has_y:
                out.append("y[n / 2]")
        return out

    def expr(self, leaves, depth=3):
        r = self.rng.random()
        if depth == 0 or r < 0.25:
            if self.rng.random() < 0.15:
                return self.const()
            return self.rng.choice(leaves)
        if r < 0.55:
            return self.rng.choice(self.unary).format(
                a=self.expr(leaves, depth - 1))
        if r < 0.62 and self.helpers and self.real == "double":
            helper = self.rng.choice(self.helpers)
            return helper.call(self.expr(leaves, depth - 1),
                               self.expr(leaves, depth - 1))
        return self.rng.choice(self.binary).format(
            a=self.expr(leaves, depth - 1), b=self.expr(leaves, depth - 1))

    def bounded(self, leaves, depth=3):
        return self.rng.choice(BOUNDED).format(e=self.expr(leaves, depth))

    # -- statements ----------------------------------------------------
    def emit(self, line):
        self.lines.append("  " * self.depth + line)

    def fresh(self, stem):
        self.counter += 1
        return f"{stem}{self.counter}"

    def writable(self):
        return "y" if self.has_y else "x"

    def statement(self):
        kinds = [self.accumulate, self.elementwise, self.recurrence,
                 self.branch, self.nested, self.local_array, self.heap_array,
                 self.early_exit, self.while_loop, self.switch_loop,
                 self.scatter, self.struct_local, self.array_helper,
                 self.reverse_loop, self.pointer_walk, self.do_while,
                 self.algorithms, self.lambda_capture, self.matrix_local,
                 self.out_params, self.guarded_call, self.recursive_array,
                 self.largest_reference, self.bulk_copy, self.permute,
                 self.pointer_select, self.pointer_writes, self.return_inside,
                 self.table_lookup, self.computed_index, self.segments]
        if self.real == "float":
            kinds.remove(self.largest_reference)
            kinds.remove(self.computed_index)
        # In place: memory read and then changed by a later write (a later
        # iteration, loop or sweep), which the reverse sweep must not load
        # again. Drawn as often as all the kinds above together.
        in_place = [self.gauss_seidel, self.read_ahead, self.read_behind,
                    self.repeated_sweeps, self.stencil_2d, self.branch_ahead,
                    self.switch_ahead, self.counts_ahead, self.guard_ahead,
                    self.index_clear, self.scatter_rewrite, self.copy_update,
                    self.tail_walk, self.scan_twice]
        if self.rng.random() < 0.5:
            kinds = in_place
        self.rng.choice(kinds)()

    def accumulate(self):
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += 0.25 * {self.bounded(self.leaves('i'))};")

    def elementwise(self):
        w = self.writable()
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  {w}[i] = {self.bounded(self.leaves('i'))};")

    def recurrence(self):
        w = self.writable()
        self.emit("for (int i = 1; i < n; ++i)")
        leaves = self.leaves("i") + [f"{w}[i - 1]"] * 3
        self.emit(f"  {w}[i] = {self.bounded(leaves)};")

    def reverse_loop(self):
        w = self.writable()
        self.emit("for (int i = n - 2; i >= 0; --i)")
        leaves = self.leaves("i") + [f"{w}[i + 1]"] * 2
        self.emit(f"  {w}[i] = 0.5 * {w}[i] + 0.5 * {self.bounded(leaves)};")

    def branch(self):
        leaves = self.leaves(None)
        self.emit(f"if ({self.expr(leaves, 2)} > {self.const()}) {{")
        self.depth += 1
        self.emit(f"acc = {self.bounded(leaves)};")
        self.statement()
        self.depth -= 1
        self.emit("} else {")
        self.depth += 1
        self.emit(f"acc -= 0.5 * {self.expr(leaves)};")
        self.depth -= 1
        self.emit("}")

    def nested(self):
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit("  for (int j = 0; j <= i; ++j)")
        leaves = self.leaves("i") + ["x[j]", "x[j]"]
        self.emit(f"    acc += 0.1 * {self.bounded(leaves)};")

    def local_array(self):
        t = self.fresh("t")
        self.emit(f"double {t}[8];")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  {t}[i] = {self.bounded(self.leaves('i'))};")
        self.emit("for (int i = 0; i < n; ++i)")
        leaves = self.leaves("i") + [f"{t}[n - 1 - i]"] * 3
        self.emit(f"  acc += 0.2 * {self.bounded(leaves)};")

    def heap_array(self):
        h = self.fresh("h")
        if self.rng.random() < 0.5:
            self.emit(f"std::vector<double> {h}(n);")
            free = None
        else:
            self.emit(f"double *{h} = static_cast<double *>("
                      "std::malloc(n * sizeof(double)));")
            free = f"std::free({h});"
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  {h}[i] = {self.bounded(self.leaves('i'))};")
        self.emit("for (int i = 1; i < n; ++i)")
        leaves = self.leaves("i") + [f"{h}[i - 1]"] * 2
        self.emit(f"  {h}[i] = {self.bounded(leaves + [f'{h}[i]'])};")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += 0.3 * {h}[i] * {self.bounded(self.leaves('i'), 2)};")
        if free:
            self.emit(free)

    def early_exit(self):
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit(f"  if ({self.expr(self.leaves('i'), 1)} > 0.95)")
        self.emit("    break;")
        self.emit(f"  acc += 0.5 * {self.bounded(self.leaves('i'))};")
        self.emit("}")
        if self.shape != "void" and self.rng.random() < 0.3:
            self.emit("if (acc > 40.0)")
            self.emit(f"  return {self.result()};")

    def while_loop(self):
        t, m = self.fresh("t"), self.fresh("m")
        self.emit(f"double {t} = acc;")
        self.emit(f"int {m} = 0;")
        self.emit(f"while ({m} < n + 2) {{")
        leaves = [t, t, t] + self.leaves(None)
        self.emit(f"  {t} = {self.bounded(leaves)};")
        self.emit(f"  ++{m};")
        self.emit("}")
        self.emit(f"acc += {t};")

    def switch_loop(self):
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit("  switch (i % 3) {")
        for case in ("case 0", "case 1", "default"):
            self.emit(f"  {case}:")
            self.emit(f"    acc += 0.3 * {self.bounded(self.leaves('i'), 2)};")
            self.emit("    break;")
        self.emit("  }")
        self.emit("}")

    def scatter(self):
        w = self.writable()
        target = "idx[i]" if self.shape == "gather" else "(3 * i + 1) % n"
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  {w}[{target}] += 0.5 * {self.bounded(self.leaves('i'))};")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  {w}[i] = {self.bounded([f'{w}[i]'] * 2 + ['s' if self.has_s else '0.3'])};")

    def struct_local(self):
        p = self.fresh("p")
        leaves = self.leaves(None)
        self.emit(f"Pair {p}{{{self.expr(leaves, 2)}, {self.expr(leaves, 2)}}};")
        self.emit(f"{p} = rotate({p}, {self.expr(leaves, 1)});")
        self.emit(f"acc += {p}.first * {p}.second;")

    def array_helper(self):
        w = self.writable()
        self.emit(f"smoothInPlace({w}, n, {self.expr(self.leaves(None), 1)});")

    def pointer_walk(self):
        self.emit(f"for (const {self.elem} *p = x; p != x + n; ++p)")
        leaves = ["*p", "*p", "acc"] + (["s"] if self.has_s else [])
        self.emit(f"  acc += 0.3 * {self.bounded(leaves)};")

    def do_while(self):
        k = self.fresh("k")
        self.emit(f"int {k} = 0;")
        self.emit("do {")
        leaves = [f"x[{k}]", f"x[{k}]", "acc"]
        self.emit(f"  acc = 0.8 * acc + 0.2 * {self.bounded(leaves)};")
        self.emit(f"  {k} += 2;")
        self.emit(f"}} while ({k} < n);")

    def algorithms(self):
        leaves = ["v", "v", "acc"] + (["s"] if self.has_s else [])
        r = self.rng.random()
        if r < 0.4:
            self.emit("acc += std::accumulate(x, x + n, 0.0, "
                      f"[&](double sum, double v) {{ return sum + 0.2 * "
                      f"{self.bounded(leaves)}; }});")
        elif r < 0.7:
            other = "y" if self.has_y else "x"
            self.emit(f"acc += 0.1 * std::inner_product(x, x + n, {other}, "
                      "0.0);")
        else:
            w = self.writable()
            self.emit(f"std::transform(x, x + n, {w}, [&](double v) {{ "
                      f"return {self.bounded(leaves)}; }});")

    def lambda_capture(self):
        f = self.fresh("f")
        scale = self.expr(self.leaves(None), 1)
        self.emit(f"double scale{self.counter} = {scale};")
        leaves = ["v", "v", f"scale{self.counter}"]
        self.emit(f"auto {f} = [&](double v) {{ return "
                  f"{self.bounded(leaves)}; }};")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += 0.2 * {f}(x[i]);")

    def matrix_local(self):
        m = self.fresh("m")
        self.emit(f"double {m}[3][3];")
        self.emit("for (int r = 0; r < 3; ++r)")
        self.emit("  for (int c = 0; c < 3; ++c)")
        leaves = ["x[(r + c) % n]", "x[(r * c) % n]", "acc"]
        self.emit(f"    {m}[r][c] = {self.bounded(leaves)};")
        self.emit(f"acc += {m}[0][0] * ({m}[1][1] * {m}[2][2] - "
                  f"{m}[1][2] * {m}[2][1]) - {m}[0][1] * {m}[1][0];")

    def out_params(self):
        a, b = self.fresh("sn"), self.fresh("cs")
        self.emit(f"double {a}, {b};")
        self.emit(f"sinCos({self.expr(self.leaves(None), 2)}, {a}, {b});")
        self.emit(f"acc += {a} * {b};")

    def guarded_call(self):
        self.emit("try {")
        self.emit(f"  acc += 0.5 * checkedRoot({self.expr(self.leaves(None), 2)});")
        self.emit("} catch (const std::domain_error &) {")
        self.emit("  acc = 0;")
        self.emit("}")

    def recursive_array(self):
        self.emit(f"acc += 0.3 * sumOfSines(x, n);")

    def largest_reference(self):
        self.emit("for (int i = 0; i + 1 < n; ++i)")
        self.emit(f"  acc += 0.4 * std::max(x[i], x[i + 1]) * "
                  f"{self.bounded(self.leaves('i'), 1)};")

    def bulk_copy(self):
        w = self.writable()
        t = self.fresh("c")
        self.emit(f"{self.elem} {t}[8];")
        r = self.rng.random()
        if r < 0.3:
            self.emit(f"std::copy({w}, {w} + n, {t});")
        elif r < 0.6:
            self.emit(f"std::memcpy({t}, {w}, n * sizeof({self.elem}));")
        else:
            self.emit(f"std::copy(x, x + n, {t});")
        self.emit("for (int i = 0; i < n; ++i)")
        leaves = self.leaves("i") + [f"{t}[i]", f"{t}[n - 1 - i]"]
        self.emit(f"  {w}[i] = {self.bounded(leaves)};")
        if self.rng.random() < 0.5:
            self.emit(f"std::fill({t}, {t} + n, {self.elem}(0.5));")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += 0.3 * {t}[i] * {self.bounded(self.leaves('i'), 1)};")

    def permute(self):
        w = self.writable()
        if self.rng.random() < 0.5:
            self.emit(f"std::reverse({w}, {w} + n);")
        else:
            self.emit("for (int i = 0; i + 1 < n; i += 2)")
            self.emit(f"  std::swap({w}[i], {w}[i + 1]);")

    def pointer_select(self):
        w = self.writable()
        t = self.fresh("q")
        self.emit(f"{self.elem} {t}[8] = {{}};")
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit(f"  {self.elem} *dst = (i % 2 == 0) ? {w} : {t};")
        self.emit(f"  dst[i] = {self.bounded(self.leaves('i'))};")
        self.emit("}")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += 0.2 * {t}[i];")

    def pointer_writes(self):
        w = self.writable()
        self.emit(f"for ({self.elem} *p = {w} + 1; p < {w} + n; ++p)")
        self.emit(f"  *p = {self.bounded(['p[-1]', '*p', 'acc'])};")

    def return_inside(self):
        if self.shape == "void":
            return self.accumulate()
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit(f"  acc += 0.3 * {self.bounded(self.leaves('i'))};")
        self.emit(f"  if (x[i] > 0.85)")
        self.emit(f"    return {self.result()};")
        self.emit("}")

    def table_lookup(self):
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += kTable[i % 8] * {self.bounded(self.leaves('i'))};")

    def computed_index(self):
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit("  int k = static_cast<int>(std::fabs(x[i]) * 7.0) % n;")
        leaves = self.leaves("i") + ["x[k]", "x[k]"]
        self.emit(f"  acc += 0.3 * {self.bounded(leaves)};")
        self.emit("}")

    def segments(self):
        # Row starts from the index array: a CSR-like nested loop.
        self.emit("for (int r = 0; r + 1 < n; r += 2) {")
        self.emit("  double row = 0;")
        self.emit("  for (int p = r; p < std::min(n, r + 1 + idx[r] % 3); ++p)"
                  if self.shape == "gather" else
                  "  for (int p = r; p < std::min(n, r + 2); ++p)")
        leaves = ["x[p]", "x[p]", "row", "acc"]
        self.emit(f"    row += {self.bounded(leaves)};")
        self.emit("  acc += 0.2 * row;")
        self.emit("}")

    # -- in place --------------------------------------------------------
    def gauss_seidel(self):
        w = self.writable()
        self.emit("for (int i = 1; i + 1 < n; ++i)")
        leaves = self.leaves("i") + [f"{w}[i - 1]", f"{w}[i + 1]"] * 2
        self.emit(f"  {w}[i] = {self.bounded(leaves)};")

    def read_ahead(self):
        w = self.writable()
        k = self.rng.choice([1, 2, 3])
        self.emit(f"for (int i = 0; i + {k} < n; ++i)")
        leaves = self.leaves("i") + [f"{w}[i + {k}]"] * 3
        self.emit(f"  {w}[i] = 0.5 * {w}[i] + 0.5 * {self.bounded(leaves)};")

    def read_behind(self):
        w = self.writable()
        k = self.rng.choice([1, 2])
        self.emit(f"for (int i = n - 1; i >= {k}; --i)")
        leaves = self.leaves("i") + [f"{w}[i - {k}]"] * 3
        self.emit(f"  {w}[i] = 0.5 * {w}[i] + 0.5 * {self.bounded(leaves)};")

    def repeated_sweeps(self):
        # A forward recurrence, swept again a number of times known only
        # at run time.
        w = self.writable()
        self.emit("for (int sweep = 0; sweep < 1 + n % 3; ++sweep)")
        self.emit("  for (int i = 1; i < n; ++i)")
        leaves = self.leaves("i") + [f"{w}[i - 1]"] * 3
        self.emit(f"    {w}[i] = 0.5 * {w}[i] + 0.5 * {self.bounded(leaves)};")

    def stencil_2d(self):
        # Gauss-Seidel on the array as a 2 × (n / 2) grid.
        w = self.writable()
        self.emit("for (int r = 0; r < 2; ++r)")
        self.emit("  for (int c = 1; c + 1 < n / 2; ++c) {")
        self.emit("    int k = r * (n / 2) + c;")
        leaves = [f"{w}[k - 1]", f"{w}[k + 1]", f"{w}[(1 - r) * (n / 2) + c]",
                  f"{w}[k]", "acc"]
        self.emit(f"    {w}[k] = {self.bounded(leaves)};")
        self.emit("  }")

    def selectors(self):
        # Floating-point memory the branches below read and the next
        # iteration overwrites. Its values stay 0.1 or more away from every
        # threshold, so central differences never step across a jump (a
        # condition on the inputs themselves would, now and then).
        f = self.fresh("sel")
        self.emit(f"double {f}[8] = {{0.3, -0.2, 0.7, -0.4, 0.1, 0.8, -0.3, 0.6}};")
        return f

    def branch_ahead(self):
        # The condition reads what the next iteration overwrites.
        w, f = self.writable(), self.selectors()
        self.emit("for (int i = 0; i + 1 < n; ++i) {")
        self.emit(f"  if ({f}[i + 1] > 0.0)")
        leaves = self.leaves("i") + [f"{w}[i + 1]"] * 2
        self.emit(f"    {w}[i] = {self.bounded(leaves)};")
        self.emit("  else")
        self.emit(f"    {w}[i] = 0.5 * {w}[i] + 0.25 * {w}[i + 1];")
        self.emit(f"  {f}[i] = -{f}[i + 1];")
        self.emit("}")

    def switch_ahead(self):
        w, f = self.writable(), self.selectors()
        self.emit("for (int i = 0; i + 1 < n; ++i) {")
        self.emit(f"  switch (static_cast<int>(2.0 + 2.0 * {f}[i + 1])) {{")
        for case in range(3):
            leaves = self.leaves("i") + [f"{w}[i + 1]"] * 2
            self.emit(f"  case {case + 1}:")
            self.emit(f"    {w}[i] = {self.bounded(leaves, 2)};")
            self.emit("    break;")
        self.emit("  default:")
        self.emit(f"    {w}[i] = 0.5 * {w}[i];")
        self.emit("  }")
        self.emit(f"  {f}[i] = 0.5 - {f}[i + 1];")
        self.emit("}")

    def counts_ahead(self):
        # Inner trip counts from an array a later iteration rewrites.
        t = self.fresh("cnt")
        self.emit(f"int {t}[8] = {{2, 1, 3, 0, 2, 1, 3, 2}};")
        self.emit("for (int i = 0; i + 1 < n; ++i) {")
        self.emit(f"  int m = {t}[i + 1];")
        self.emit("  for (int j = 0; j < m; ++j)")
        leaves = self.leaves("i") + ["x[(i + j) % n]"] * 2
        self.emit(f"    acc += 0.2 * {self.bounded(leaves, 2)};")
        self.emit(f"  {t}[i] = (m + i) % 3;")
        self.emit("}")

    def guard_ahead(self):
        # The same, where the later write empties the inner loop.
        t = self.fresh("cnt")
        self.emit(f"int {t}[8] = {{1, 2, 2, 1, 3, 1, 2, 1}};")
        self.emit("for (int i = 0; i + 1 < n; ++i) {")
        self.emit(f"  int m = {t}[i + 1];")
        self.emit("  for (int j = 0; j < m; ++j)")
        leaves = ["acc", "acc", "x[(i + j) % n]", "x[i]"]
        self.emit(f"    acc = 0.6 * acc + 0.4 * {self.bounded(leaves, 2)};")
        self.emit(f"  {t}[i] = 0;")
        self.emit("}")

    def index_clear(self):
        # Gathers through an index array the loop clears behind itself.
        t = self.fresh("ix")
        self.emit(f"int {t}[8] = {{3, 1, 4, 0, 2, 7, 5, 6}};")
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit(f"  int k = {t}[i] % n;")
        leaves = self.leaves("i") + ["x[k]", "x[k]"]
        self.emit(f"  acc += 0.3 * {self.bounded(leaves)};")
        self.emit("  if (i > 0)")
        self.emit(f"    {t}[i - 1] = 0;")
        self.emit("}")

    def scatter_rewrite(self):
        # Scatters through an index array the next iteration rewrites.
        w = self.writable()
        t = self.fresh("ix")
        self.emit(f"int {t}[8] = {{5, 2, 7, 1, 0, 3, 6, 4}};")
        self.emit("for (int i = 0; i < n; ++i) {")
        self.emit(f"  {w}[{t}[i] % n] = 0.5 * {w}[{t}[i] % n] + "
                  f"0.5 * {self.bounded(self.leaves('i'), 2)};")
        self.emit("  if (i > 0)")
        self.emit(f"    {t}[i - 1] = ({t}[i - 1] + 1) % 8;")
        self.emit("}")

    def copy_update(self):
        # A bulk copy, then stores into the copy in the loop reading it.
        w = self.writable()
        t = self.fresh("u")
        self.emit(f"{self.elem} {t}[8];")
        self.emit(f"std::memcpy({t}, {w}, n * sizeof({self.elem}));")
        self.emit("for (int i = 0; i + 1 < n; ++i)")
        leaves = self.leaves("i") + [f"{t}[i + 1]", f"{t}[i]"] * 2
        self.emit(f"  {t}[i] = {self.bounded(leaves)};")
        self.emit("for (int i = 0; i < n; ++i)")
        self.emit(f"  acc += 0.3 * {t}[i];")

    def tail_walk(self):
        # Tail recursion the optimizer turns into an in-place loop.
        w = self.writable()
        self.emit(f"acc = tailWalk({w}, 0, n, acc);")

    def scan_twice(self):
        w = self.writable()
        self.emit("for (int pass = 0; pass < 2; ++pass)")
        self.emit("  for (int i = 1; i < n; ++i)")
        self.emit(f"    {w}[i] = std::tanh({w}[i] + 0.5 * {w}[i - 1]);")

    def result(self):
        leaves = self.leaves(None)
        return f"acc + {self.expr(leaves, 2)}"

    # -- whole kernel --------------------------------------------------
    def source(self):
        self.lines = []
        init = "0.5 * s" if self.has_s else self.const()
        self.emit(f"double acc = {init};")
        for _ in range(self.rng.randint(2, 5)):
            self.statement()
        ret = "void" if self.shape == "void" else self.elem
        params = {
            "xy": "const R *x, R *y, int n, R s",
            "inplace": "R *x, int n, R s",
            "void": "const R *x, R *y, int n",
            "gather": "const R *x, const int *idx, R *y, int n, R s",
        }[self.shape].replace("R", self.elem)
        body = "\n".join(self.lines)
        if ret == "void":
            w = self.writable()
            tail = f"  {w}[0] += acc;"
        else:
            tail = f"  return {self.result()};"
        head = "template <class R>\n" if self.elem == "R" else ""
        self.text = f"{head}{ret} {self.name}({params}) {{\n{body}\n{tail}\n}}\n"
        return self.text

    def test(self, n, seed):
        args = {
            "xy": "slope::dup(x.data(), dx.data(), n), "
                  "slope::dup(y.data(), dy.data(), n), n, s",
            "inplace": "slope::dup(x.data(), dx.data(), n), n, s",
            "void": "slope::dup(x.data(), dx.data(), n), "
                    "slope::dup(y.data(), dy.data(), n), n",
            "gather": "slope::dup(x.data(), dx.data(), n), "
                      "slope::constant(idx.data(), n), "
                      "slope::dup(y.data(), dy.data(), n), n, s",
        }[self.shape]
        phases = (self.rng.randint(1, 99), self.rng.randint(1, 99))
        phases = (phases[0], apart(phases[0], phases[1]))
        shuffle, s = self.rng.randint(1, 99), self.scalar(
            self.text + "".join(h.source() for h in self.helpers))
        checks = [("double", self.name, "")]
        if self.elem == "R":
            checks = [("double", f"{self.name}<double>", ""),
                      ("float", f"{self.name}<float>",
                       "slope::testing::Tolerance{5e-2, 1e-3}, ")]
        out = f"TEST(Fuzz{seed}, {self.name}) {{\n  const int n = {n};\n" \
              f"  std::vector<int> idx = shuffled(n, {shuffle});\n" \
              "  (void)idx;\n"
        for real, target, tolerance in checks:
            out += (
                "  {\n"
                f"    std::vector<{real}> x = wave<{real}>(n, {phases[0]}), "
                f"y = wave<{real}>(n, {phases[1]});\n"
                f"    std::vector<{real}> dx(n), dy(n);\n"
                f"    {real} s = {s};\n"
                "    (void)y; (void)dy; (void)s;\n"
                f"    EXPECT_TRUE(slope::testing::check_gradient<{target}>("
                f"{tolerance}{args}));\n  }}\n")
        return out + "}\n"


class StateKernel:
    """A time loop over a struct of std::vectors (a simulation's state):
    vectors the steps only read beside ones they write, a scalar field the
    steps update, buffers swapped, std::copy between vectors, gathers
    through an index vector. Its gradient with respect to the whole state
    is checked against central differences in both modes (checkState)."""

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.stub = Kernel(rng, name, [])
        self.stub.unary = [u for u in UNARY if not any(k in u for k in KINKS)]
        self.stub.binary = [b for b in BINARY
                            if not any(k in b for k in KINKS)]

    def expr(self, leaves):
        return self.rng.choice(BOUNDED).format(e=self.stub.expr(leaves, 2))

    def step(self):
        vectors = ["st.a", "st.b", "st.c"]
        w = self.rng.choice(["st.a", "st.b"])
        other = self.rng.choice(vectors)
        kind = self.rng.choice(["update", "update", "recurrence", "gather",
                                "swap", "copy", "field", "read_only"])
        if kind == "update":
            leaves = [f"{v}[i]" for v in vectors] + ["st.h"]
            return ["for (int i = 0; i < n; ++i)",
                    f"  {w}[i] = 0.5 * {w}[i] + 0.5 * {self.expr(leaves)};"]
        if kind == "recurrence":
            leaves = [f"{w}[i - 1]", f"{w}[i]", f"{other}[i]", "st.h"]
            return ["for (int i = 1; i < n; ++i)",
                    f"  {w}[i] = {self.expr(leaves)};"]
        if kind == "gather":
            leaves = [f"{other}[st.idx[i]]", f"{w}[i]", "st.h"]
            return ["for (int i = 0; i < n; ++i)",
                    f"  {w}[i] += 0.25 * {self.expr(leaves)};"]
        if kind == "swap":
            return ["std::swap(st.a, st.b);"]
        if kind == "copy":
            source = "st.a" if w == "st.b" else "st.b"
            return [f"std::copy({source}.begin(), {source}.end(), "
                    f"{w}.begin());"]
        if kind == "field":
            return [f"st.h = 0.9 * st.h + 0.05 * std::tanh({other}[n / 2]);"]
        leaves = [f"st.c[i]", f"{w}[i]", "st.h"]
        return ["for (int i = 0; i < n; ++i)",
                f"  {w}[i] += 0.1 * {self.expr(leaves)} / (1.5 + st.c[i] * "
                "st.c[i]);"]

    def source(self):
        body = []
        for _ in range(self.rng.randint(2, 4)):
            body += ["    " + line for line in self.step()]
        steps = "\n".join(body)
        return (f"double {self.name}(State &st, int steps) {{\n"
                "  int n = int(st.a.size());\n"
                "  for (int t = 0; t < steps; ++t) {\n"
                f"{steps}\n  }}\n"
                "  return stateSum(st);\n}\n")

    def test(self, n, seed):
        phases = [self.rng.randint(1, 99) for _ in range(3)]
        shuffle, steps = self.rng.randint(1, 99), self.rng.randint(1, 4)
        return (f"TEST(Fuzz{seed}, {self.name}) {{\n"
                f"  checkState<{self.name}>(makeState({n}, {phases[0]}, "
                f"{phases[1]}, {phases[2]}, {shuffle}), {steps});\n}}\n")


class StepKernel(StateKernel):
    """A time loop whose step reads a vector in loops of their own (a
    stencil, a gather, a reduction) and then updates it in place in a loop
    of its own -- the shape whose reads the reverse sweep may load again
    after putting back what the update overwrote. Sometimes the update
    covers fewer elements, runs backwards or stores conditionally, or the
    buffers are swapped after it: those must stay right as well."""

    def source(self):
        x = self.rng.choice(["st.a", "st.b"])
        y = "st.b" if x == "st.a" else "st.a"
        reads = [f"{x}[i - 1]", f"{x}[i + 1]", f"{x}[st.idx[i]]", f"{y}[i]",
                 "st.h"]
        # Every read enters the result whatever the random parts draw.
        body = ["for (int i = 1; i + 1 < n; ++i)",
                f"  st.c[i] = {self.expr(reads)} + 0.3 * {x}[i - 1] * "
                f"{x}[i + 1] - 0.2 * {x}[st.idx[i]];",
                "for (int i = 0; i < n; ++i)",
                f"  acc += 0.1 * {x}[i] * "
                f"{self.expr([f'{x}[i]', 'st.c[i]', 'acc'])};"]
        update = (f"0.5 * {x}[i] + 0.5 * std::tanh(st.c[i]) * "
                  f"{self.expr(['st.c[i]', f'{x}[i]'])}")
        shape = self.rng.choice(["plain", "plain", "shorter", "backwards",
                                 "conditional", "swap", "two"])
        if shape == "shorter":
            body += ["for (int i = 0; i < n - 1 - t % 2; ++i)"]
        elif shape == "backwards":
            body += ["for (int i = n - 1; i >= 0; --i)"]
        else:
            body += ["for (int i = 0; i < n; ++i)"]
        if shape == "conditional":
            body += [f"  if (st.c[i] > 0.0)", f"    {x}[i] = {update};"]
        else:
            body += [f"  {x}[i] = {update};"]
        if shape == "swap":
            body += ["std::swap(st.a, st.b);"]
        if shape == "two":
            body += ["for (int i = 0; i < n; ++i)",
                     f"  {y}[i] = 0.5 * {y}[i] + 0.25 * "
                     f"{self.expr([f'{x}[i]', 'st.c[i]'])};"]
        steps = "\n".join("    " + line for line in body)
        return (f"double {self.name}(State &st, int steps) {{\n"
                "  int n = int(st.a.size());\n"
                "  double acc = 0;\n"
                "  for (int t = 0; t < steps; ++t) {\n"
                f"{steps}\n  }}\n"
                "  return acc + stateSum(st);\n}\n")


class JumpKernel:
    """Irreducible control flow over in-place data: loops entered in the
    middle by a goto, Duff's device (a switch into a do-while), and a loop
    with two entries walking backwards. The loops update x in place,
    reading ahead or behind, so what a later pass overwrites must not be
    loaded again. Which entry runs depends on n and on a selector array,
    never on the inputs (central differences would step across it)."""

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.stub = Kernel(rng, name, [])
        self.stub.shape, self.stub.has_y, self.stub.has_s = \
            "inplace", False, True
        self.counter = 0

    def expr(self, leaves):
        return self.rng.choice(BOUNDED).format(e=self.stub.expr(leaves, 2))

    def entry(self):
        """A condition that picks an entry: n's parity or a selector."""
        if self.rng.random() < 0.5:
            return f"n % 2 == {self.rng.choice([0, 1])}"
        return f"sel[n % 4] > 0.0"

    def goto_middle(self, k):
        ahead = self.rng.choice([1, 2])
        leaves = ["acc", "s", f"x[k{k}]", f"x[(k{k} + {ahead}) % n]"]
        return [f"int k{k} = 0;",
                f"if ({self.entry()})",
                f"  goto middle{k};",
                f"top{k}:",
                f"x[k{k}] = 0.5 * x[k{k}] + 0.5 * "
                f"{self.expr(leaves)};",
                f"middle{k}:",
                f"acc += 0.25 * {self.expr(leaves)};",
                f"if (++k{k} < n)",
                f"  goto top{k};"]

    def duff(self, k):
        leaves = ["acc", "s", f"x[k{k} % n]", f"x[(k{k} + 1) % n]"]
        return [f"int k{k} = 0;",
                f"switch (n % 3) {{",
                "case 0:",
                "  do {",
                f"    x[k{k}] = 0.5 * x[k{k}] + 0.5 * "
                f"{self.expr(leaves + [f'x[k{k}]'])};",
                f"    ++k{k};",
                "  case 2:",
                f"    acc += 0.2 * {self.expr(leaves)};",
                "  case 1:",
                f"    acc = 0.8 * acc + 0.2 * {self.expr(leaves)};",
                f"  }} while (k{k} < n);",
                "}"]

    def two_entries(self, k):
        leaves = ["acc", "s", f"x[k{k}]", f"x[(k{k} + n - 1) % n]"]
        return [f"int k{k} = n - 1;",
                f"if ({self.entry()})",
                f"  goto second{k};",
                f"first{k}:",
                f"acc = 0.7 * acc + 0.3 * {self.expr(leaves)};",
                f"second{k}:",
                f"x[k{k}] = 0.5 * x[k{k}] + 0.25 * x[(k{k} + n - 1) % n] + "
                f"0.25 * {self.expr(leaves)};",
                f"if (--k{k} >= 0)",
                f"  goto first{k};"]

    def source(self):
        body = ["double sel[4] = {0.4, -0.3, 0.6, -0.5};", "double acc = 0.5 * s;"]
        kinds = [self.goto_middle, self.duff, self.two_entries]
        for k in range(self.rng.randint(1, 3)):
            body += self.rng.choice(kinds)(k)
        body += ["double r = acc;",
                 "for (int i = 0; i < n; ++i)",
                 "  r += (0.5 + 0.25 * i) * x[i];",
                 "return r;"]
        lines = "\n".join("  " + line for line in body)
        self.text = (f"double {self.name}(double *x, int n, double s) {{\n"
                     f"{lines}\n}}\n")
        return self.text

    def test(self, n, seed):
        phase, s = self.rng.randint(1, 99), self.stub.scalar(self.text)
        return (f"TEST(Fuzz{seed}, {self.name}) {{\n"
                f"  const int n = {n};\n"
                f"  std::vector<double> x = wave<double>(n, {phase}), dx(n);\n"
                f"  EXPECT_TRUE(slope::testing::check_gradient<{self.name}>("
                f"slope::dup(x.data(), dx.data(), n), n, {s}));\n}}\n")


class Helper:
    """A scalar helper function kernels may call."""

    def __init__(self, rng, name):
        self.name = name
        self.kind = rng.choice(["inline", "noinline", "recursive"])
        stub = Kernel(rng, name, [])
        leaves = ["a", "b", "a", "b"]
        self.body = stub.expr(leaves, 2)
        self.step = stub.bounded(["a", "b", "a"])

    def call(self, a, b):
        if self.kind == "recursive":
            return f"{self.name}({a}, {b}, 3)"
        return f"{self.name}({a}, {b})"

    def source(self):
        if self.kind == "recursive":
            return (f"__attribute__((noinline)) double {self.name}"
                    f"(double a, double b, int depth) {{\n"
                    f"  if (depth == 0)\n    return {self.body};\n"
                    f"  return {self.name}({self.step}, b, depth - 1);\n}}\n")
        attr = "__attribute__((noinline)) " if self.kind == "noinline" else \
            "inline "
        return f"{attr}double {self.name}(double a, double b) {{\n" \
               f"  return {self.body};\n}}\n"


PRELUDE = """\
// Generated by tests/fuzz/generate.py {seed} {count}; do not edit.
#include <slope/testing.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {{

constexpr double kTable[8] = {{0.5, -0.25, 1.0, 0.75, -0.5, 0.125, 2.0, -1.0}};

inline double square(double v) {{ return v * v; }}
inline double gauss(double v) {{ return std::exp(-0.5 * v * v); }}
inline double ratio(double v) {{ return v / std::sqrt(1.0 + v * v); }}
inline double pick(double a, double b) {{ return a > b ? a : 0.5 * b; }}
__attribute__((noinline)) double soft(double v) {{
  return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
}}

struct Pair {{
  double first, second;
}};
Pair rotate(Pair p, double angle) {{
  double c = std::cos(angle), s = std::sin(angle);
  return {{c * p.first - s * p.second, s * p.first + c * p.second}};
}}

template <class T> std::vector<T> wave(int n, int phase) {{
  std::vector<T> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = static_cast<T>(0.9 * std::sin(0.7 * i + 0.37 * phase));
  return v;
}}

// Returns a reference to the larger argument (a select of pointers).
inline const double &biggest(const double &a, const double &b) {{
  return a < b ? b : a;
}}

__attribute__((noinline)) void sinCos(double a, double &s, double &c) {{
  s = std::sin(a);
  c = std::cos(a);
}}

// Throws for arguments the kernels never pass (code with cleanups).
__attribute__((noinline)) double checkedRoot(double v) {{
  if (!(v > -1e6))
    throw std::domain_error("checkedRoot");
  return std::sqrt(1.0 + v * v);
}}

template <class T> double sumOfSines(const T *v, int n) {{
  if (n == 0)
    return 0;
  return std::sin(v[0]) * v[0] + sumOfSines(v + 1, n - 1);
}}

template <class T>
__attribute__((noinline)) void smoothInPlace(T *v, int n, double w) {{
  for (int i = 1; i < n; ++i)
    v[i] = std::tanh(v[i] + 0.3 * w * v[i - 1]);
}}

// Tail recursion over an array, changed in place as it goes.
template <class T> double tailWalk(T *v, int i, int n, double acc) {{
  if (i + 1 >= n)
    return acc;
  v[i] = static_cast<T>(std::tanh(v[i] + 0.5 * v[i + 1] * acc));
  return tailWalk(v, i + 1, n, 0.8 * acc + 0.2 * v[i]);
}}

std::vector<int> shuffled(int n, int seed) {{
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  std::shuffle(v.begin(), v.end(), std::mt19937(seed));
  return v;
}}

// The state of StateKernel's time loops.
struct State {{
  std::vector<double> a, b, c;
  std::vector<int> idx;
  double h;
}};

State makeState(int n, int pa, int pb, int pc, int shuffle) {{
  return {{wave<double>(n, pa), wave<double>(n, pb), wave<double>(n, pc),
          shuffled(n, shuffle), 0.3}};
}}

double stateSum(const State &st) {{
  double r = st.h;
  for (std::size_t i = 0; i < st.a.size(); ++i)
    r += (1 + 0.5 * i) * st.a[i] + (0.5 + 0.25 * i) * st.b[i] * st.c[i];
  return r;
}}

std::vector<double *> stateValues(State &st) {{
  std::vector<double *> out;
  for (std::vector<double> *v : {{&st.a, &st.b, &st.c}})
    for (double &e : *v)
      out.push_back(&e);
  out.push_back(&st.h);
  return out;
}}

State zeroState(const State &st) {{
  State z = st;
  for (double *v : stateValues(z))
    *v = 0;
  return z;
}}

// The gradient of F(state, steps) with respect to every value of the
// state: reverse mode and forward mode against central differences.
template <double (*F)(State &, int)> void checkState(State init, int steps) {{
  State at = init, shadow = zeroState(init);
  slope::grad<F>(slope::dup(at, shadow), steps);
  std::vector<double *> adjoints = stateValues(shadow);
  for (std::size_t k = 0; k < adjoints.size(); ++k) {{
    auto value = [&](double offset) {{
      State moved = init;
      *stateValues(moved)[k] += offset;
      return F(moved, steps);
    }};
    double step = 1e-5;
    double central = (value(step) - value(-step)) / (2 * step);
    EXPECT_NEAR(*adjoints[k], central, 1e-6 + 1e-5 * std::fabs(central))
        << "reverse, value " << k;
    State from = init, tangent = zeroState(init);
    *stateValues(tangent)[k] = 1;
    double forward = slope::derivative<F>(slope::dup(from, tangent), steps);
    EXPECT_NEAR(forward, central, 1e-6 + 1e-5 * std::fabs(central))
        << "forward, value " << k;
  }}
}}

"""


def main():
    seed = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    rng = random.Random(seed)
    helpers = [Helper(rng, f"helper{i}") for i in range(3)]
    out = [PRELUDE.format(seed=seed, count=count)]
    out += [h.source() + "\n" for h in helpers]
    tests = []
    for k in range(count):
        kernel = Kernel(rng, f"kernel{k}", helpers)
        out.append(kernel.source() + "\n")
        tests.append(kernel.test(rng.choice([1, 2, 3, 5, 8]), seed))
    # Their own random stream: the kernels above stay what they were for
    # every seed.
    state_rng = random.Random(seed * 7919 + 17)
    for k in range(2):
        kernel = StateKernel(state_rng, f"stateKernel{k}")
        out.append(kernel.source() + "\n")
        tests.append(kernel.test(state_rng.choice([1, 2, 3, 5, 8]), seed))
    # And the in-place steps, on a stream of their own too.
    step_rng = random.Random(seed * 104729 + 31)
    kernel = StepKernel(step_rng, "stepKernel")
    out.append(kernel.source() + "\n")
    tests.append(kernel.test(step_rng.choice([3, 5, 8]), seed))
    # Irreducible loops over in-place data, on a fourth stream.
    jump_rng = random.Random(seed * 15485863 + 7)
    kernel = JumpKernel(jump_rng, "jumpKernel")
    out.append(kernel.source() + "\n")
    tests.append(kernel.test(jump_rng.choice([1, 2, 3, 5, 8]), seed))
    out.append("} // namespace\n\n")
    out += [t + "\n" for t in tests]
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
