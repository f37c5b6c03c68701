// Sparsity patterns of Jacobians and Hessians, and the column colouring
// that compresses them: columns that share no row get one colour, and one
// Jacobian-vector product along the sum of a colour's unit vectors gives
// every one of their entries (Curtis, Powell and Reid).
#ifndef SLOPE_SPARSITY_HPP
#define SLOPE_SPARSITY_HPP

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace slope {

/// The positions of a matrix that may be nonzero, row by row (compressed
/// sparse rows): row i's columns are column[row_start[i]..row_start[i+1]),
/// ascending. Values computed for a pattern come in the same order.
struct Sparsity {
  std::size_t rows = 0, columns = 0;
  std::vector<std::size_t> row_start{0};
  std::vector<std::size_t> column;

  std::size_t nonzeros() const { return column.size(); }

  /// From (row, column) pairs in any order; repeats count once.
  static Sparsity
  from_entries(std::size_t rows, std::size_t columns,
               std::vector<std::pair<std::size_t, std::size_t>> entries) {
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    Sparsity s;
    s.rows = rows;
    s.columns = columns;
    s.row_start.assign(rows + 1, 0);
    for (auto [i, j] : entries) {
      ++s.row_start[i + 1];
      s.column.push_back(j);
    }
    for (std::size_t i = 0; i < rows; ++i)
      s.row_start[i + 1] += s.row_start[i];
    return s;
  }

  /// An n x n band: entries (i, j) with i - lower <= j <= i + upper.
  static Sparsity banded(std::size_t n, std::size_t lower, std::size_t upper) {
    Sparsity s;
    s.rows = s.columns = n;
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t first = i >= lower ? i - lower : 0;
      std::size_t last = std::min(n - 1, i + upper);
      for (std::size_t j = first; j <= last; ++j)
        s.column.push_back(j);
      s.row_start.push_back(s.column.size());
    }
    return s;
  }
};

/// A colour for every column such that columns sharing a row differ
/// (greedy, in column order); the number of colours is one more than the
/// largest.
inline std::vector<std::size_t> colour_columns(const Sparsity &pattern) {
  // Rows of each column (the transposed pattern).
  std::vector<std::size_t> start(pattern.columns + 1, 0);
  for (std::size_t j : pattern.column)
    ++start[j + 1];
  for (std::size_t j = 0; j < pattern.columns; ++j)
    start[j + 1] += start[j];
  std::vector<std::size_t> rows(pattern.nonzeros()), next(start);
  for (std::size_t i = 0; i < pattern.rows; ++i)
    for (std::size_t k = pattern.row_start[i]; k < pattern.row_start[i + 1];
         ++k)
      rows[next[pattern.column[k]]++] = i;

  const std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> colour(pattern.columns, none);
  // forbidden[c] == j: colour c is taken by a neighbour of column j.
  std::vector<std::size_t> forbidden(pattern.columns + 1, none);
  for (std::size_t j = 0; j < pattern.columns; ++j) {
    for (std::size_t r = start[j]; r < start[j + 1]; ++r) {
      std::size_t i = rows[r];
      for (std::size_t k = pattern.row_start[i]; k < pattern.row_start[i + 1];
           ++k)
        if (std::size_t c = colour[pattern.column[k]]; c != none)
          forbidden[c] = j;
    }
    std::size_t c = 0;
    while (forbidden[c] == j)
      ++c;
    colour[j] = c;
  }
  return colour;
}

} // namespace slope

#endif
