// Hand-vectorized SSE2 code: doubles broadcast with integer shuffles
// (_mm_shuffle_epi32 on bit casts, as Eigen's matrix products do), loaded
// and stored through __m128i. The optimizer then moves the doubles as
// integers; Slope must follow them (FloatRetyping.h). Both modes against
// central differences.
#include "Check.h"

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>

namespace {

/// Σ_i a[2i..2i+1] · (b[i], b[i]) with b[i] broadcast by integer shuffles.
double broadcastDot(const double *b, const double *a, int n) {
  __m128d Sum = _mm_setzero_pd();
  for (int i = 0; i + 2 <= n; i += 2) {
    __m128d Pair = _mm_loadu_pd(b + i);
    __m128d Low =
        _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(Pair), 0x44));
    __m128d High =
        _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(Pair), 0xEE));
    Sum = _mm_add_pd(Sum, _mm_mul_pd(_mm_loadu_pd(a + 2 * i), Low));
    Sum = _mm_add_pd(Sum, _mm_mul_pd(_mm_loadu_pd(a + 2 * i + 2), High));
  }
  double Lanes[2];
  _mm_storeu_pd(Lanes, Sum);
  return Lanes[0] + 2 * Lanes[1];
}

/// Swaps the halves of each pair of b through __m128i loads and stores,
/// squares them in place, and sums a weighted result.
double integerMoves(double *b, const double *w, int n) {
  for (int i = 0; i + 2 <= n; i += 2) {
    __m128i Bits = _mm_loadu_si128(reinterpret_cast<const __m128i *>(b + i));
    __m128i Swapped = _mm_shuffle_epi32(Bits, 0x4E);
    __m128d Values = _mm_castsi128_pd(Swapped);
    Values = _mm_mul_pd(Values, Values);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(b + i),
                     _mm_castpd_si128(Values));
  }
  double Result = 0;
  for (int i = 0; i < n; ++i)
    Result += w[i] * b[i] * b[i];
  return Result;
}

/// ∂F(b, a, n)/∂b against central differences, in both modes.
template <auto F>
void checkBothModes(std::vector<double> b, std::vector<double> a) {
  int N = static_cast<int>(b.size());
  std::vector<double> db(b.size(), 0.0), Copy = b;
  std::vector<double> Expected = check::arrayDifferences(
      [&](double *B) { return F(B, a.data(), N); }, b.data(), N);
  slope::grad<F>(slope::dup(Copy.data(), db.data()), slope::constant(a.data()),
                 N);
  for (int i = 0; i < N; ++i) {
    EXPECT_TRUE(check::near(db[i], Expected[i], 1e-7, 1e-9))
        << "b[" << i << "]";
    std::vector<double> Tb(b.size(), 0.0), Fresh = b;
    Tb[i] = 1;
    double T = slope::derivative<F>(slope::dup(Fresh.data(), Tb.data()),
                                    slope::constant(a.data()), N);
    EXPECT_TRUE(check::near(T, Expected[i], 1e-7, 1e-9))
        << "forward b[" << i << "]";
  }
}

} // namespace

TEST(Simd, BroadcastByIntegerShuffle) {
  checkBothModes<broadcastDot>(check::wave(8, 1.3), check::wave(16, 0.8));
}

TEST(Simd, DoublesLoadedAndStoredAsIntegers) {
  checkBothModes<integerMoves>(check::wave(8, 1.1), check::wave(8, 0.6));
}

#else
TEST(Simd, BroadcastByIntegerShuffle) { GTEST_SKIP() << "no SSE2"; }
#endif
