// Box: an axis-aligned box of 1 to 8 float64 dimensions (a point is a box with lo == hi), and
// the geometry the R*-tree needs (volume, margin, union, intersection, containment, distance).
// The number of dimensions is the tree's; a Box carries kRTreeMaxDims slots and functions take
// the dimension count. Plain value type, no locking.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <span>

namespace meridian::storage {

inline constexpr size_t kRTreeMaxDims = 8;

struct Box {
  double lo[kRTreeMaxDims] = {};
  double hi[kRTreeMaxDims] = {};

  static Box Point(std::span<const double> p) {
    Box b;
    for (size_t d = 0; d < p.size() && d < kRTreeMaxDims; ++d) b.lo[d] = b.hi[d] = p[d];
    return b;
  }
  static Box Of(std::span<const double> lo, std::span<const double> hi) {
    Box b;
    for (size_t d = 0; d < lo.size() && d < kRTreeMaxDims; ++d) {
      b.lo[d] = lo[d];
      b.hi[d] = hi[d];
    }
    return b;
  }
  // The identity of Extend: lo = +inf, hi = -inf.
  static Box Empty() {
    Box b;
    std::fill(std::begin(b.lo), std::end(b.lo), std::numeric_limits<double>::infinity());
    std::fill(std::begin(b.hi), std::end(b.hi), -std::numeric_limits<double>::infinity());
    return b;
  }
  void Extend(const Box& o, size_t dims) {
    for (size_t d = 0; d < dims; ++d) {
      lo[d] = std::min(lo[d], o.lo[d]);
      hi[d] = std::max(hi[d], o.hi[d]);
    }
  }
  bool Contains(const Box& o, size_t dims) const {
    for (size_t d = 0; d < dims; ++d) {
      if (o.lo[d] < lo[d] || o.hi[d] > hi[d]) return false;
    }
    return true;
  }
  bool Overlaps(const Box& o, size_t dims) const {
    for (size_t d = 0; d < dims; ++d) {
      if (o.lo[d] > hi[d] || o.hi[d] < lo[d]) return false;
    }
    return true;
  }
  bool Equals(const Box& o, size_t dims) const {
    return std::memcmp(lo, o.lo, dims * sizeof(double)) == 0 &&
           std::memcmp(hi, o.hi, dims * sizeof(double)) == 0;
  }
  double Volume(size_t dims) const {
    double v = 1;
    for (size_t d = 0; d < dims; ++d) v *= hi[d] - lo[d];
    return v;
  }
  double Margin(size_t dims) const {
    double m = 0;
    for (size_t d = 0; d < dims; ++d) m += hi[d] - lo[d];
    return m;
  }
  double Center(size_t d) const { return (lo[d] + hi[d]) * 0.5; }
  // Volume of the intersection with o (0 when they do not overlap).
  double OverlapVolume(const Box& o, size_t dims) const {
    double v = 1;
    for (size_t d = 0; d < dims; ++d) {
      double len = std::min(hi[d], o.hi[d]) - std::max(lo[d], o.lo[d]);
      if (len <= 0) return 0;
      v *= len;
    }
    return v;
  }
  // Squared Euclidean distance from point p (dims coordinates) to the box (0 inside it).
  double MinDist2(const double* p, size_t dims) const {
    double s = 0;
    for (size_t d = 0; d < dims; ++d) {
      double x = p[d] < lo[d] ? lo[d] - p[d] : (p[d] > hi[d] ? p[d] - hi[d] : 0.0);
      s += x * x;
    }
    return s;
  }
};

}  // namespace meridian::storage
