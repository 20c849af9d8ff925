// The R* choices (Beckmann et al. 1990, sections 4.1 and 4.2): ChooseSubtree (least overlap
// enlargement among the 32 least area enlargements when the children are leaves, least area
// enlargement above) and the split (axis by least margin sum, then the distribution with
// least overlap, ties by least total volume).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "storage/rtree.h"
#include "storage/rtree_page.h"

namespace meridian::storage {

namespace {
// R* paper: overlap enlargement is computed only for the p = 32 entries with the least area
// enlargement ("nearly minimum overlap cost").
constexpr size_t kOverlapCandidates = 32;

// Entry indexes sorted along dimension d by lower end (by_hi: upper end), ties by the other.
void SortAlong(const std::vector<REntry>& es, size_t d, bool by_hi, std::vector<size_t>* order) {
  std::iota(order->begin(), order->end(), size_t{0});
  std::sort(order->begin(), order->end(), [&](size_t x, size_t y) {
    const Box& bx = es[x].box;
    const Box& by = es[y].box;
    const double kx = by_hi ? bx.hi[d] : bx.lo[d], ky = by_hi ? by.hi[d] : by.lo[d];
    const double tx = by_hi ? bx.lo[d] : bx.hi[d], ty = by_hi ? by.lo[d] : by.hi[d];
    return kx < ky || (kx == ky && tx < ty);
  });
}
}  // namespace

size_t RTree::ChooseSubtree(const RTreePage& p, const Box& e) const {
  const size_t n = p.count();
  double area[kRMaxCapacity], grown[kRMaxCapacity];
  std::fill(area, area + n, 1.0);
  std::fill(grown, grown + n, 1.0);
  for (size_t d = 0; d < dims_; ++d) {
    const double* lo = p.lo(d);
    const double* hi = p.hi(d);
    const double el = e.lo[d], eh = e.hi[d];
    for (size_t i = 0; i < n; ++i) {
      area[i] *= hi[i] - lo[i];
      grown[i] *= std::max(hi[i], eh) - std::min(lo[i], el);
    }
  }
  // Least area enlargement, ties by least area.
  auto better = [&](size_t i, size_t j) {
    double ei = grown[i] - area[i], ej = grown[j] - area[j];
    return ei < ej || (ei == ej && area[i] < area[j]);
  };
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (better(i, best)) best = i;
  }
  if (p.level() != 1) return best;
  // The children are leaves: least overlap enlargement. An entry already containing e
  // enlarges nothing, so the least-area one among those is the answer.
  if (grown[best] == area[best] && p.GetBox(best).Contains(e, dims_)) return best;
  size_t cand[kRMaxCapacity];
  std::iota(cand, cand + n, size_t{0});
  const size_t c = std::min(n, kOverlapCandidates);
  std::partial_sort(cand, cand + c, cand + n, better);
  // Overlap enlargement of candidate k: sum over the other entries j of
  // vol(G ∩ Bj) - vol(Bk ∩ Bj) with G = Bk ∪ e. Both terms are 0 unless Bj meets G, and in a
  // node few entries do, so a vectorizable mask pass over the coordinate arrays finds those
  // first. The sum is never negative (G contains Bk), so the first candidate (in order of
  // area enlargement) with none is the answer.
  alignas(64) uint8_t meets[kRMaxCapacity + 8];
  size_t choice = cand[0];
  double choice_delta = 0;
  for (size_t ci = 0; ci < c; ++ci) {
    const size_t k = cand[ci];
    Box g = p.GetBox(k);
    const Box bk = g;
    g.Extend(e, dims_);
    std::memset(meets, 1, n);
    for (size_t d = 0; d < dims_; ++d) {
      const double* lo = p.lo(d);
      const double* hi = p.hi(d);
      const double gl = g.lo[d], gh = g.hi[d];
      for (size_t j = 0; j < n; ++j) {
        meets[j] &= static_cast<uint8_t>((lo[j] < gh) & (hi[j] > gl));
      }
    }
    meets[k] = 0;  // the entry's overlap with itself does not count
    // Every term is >= 0 (G contains Bk), so a candidate stops counting once its sum reaches
    // the best so far: it cannot win a strict <. The coordinates are read in place (a Box
    // copy per entry met was 5% of insert time).
    double delta = 0;
    for (size_t j = 0; j < n; ++j) {
      if (meets[j] == 0) continue;
      // Box::OverlapVolume of b and entry j (the same arithmetic: 0 at the first empty side).
      auto overlap = [&](const Box& b) {
        double v = 1;
        for (size_t d = 0; d < dims_; ++d) {
          const double len = std::min(b.hi[d], p.hi(d)[j]) - std::max(b.lo[d], p.lo(d)[j]);
          if (len <= 0) return 0.0;
          v *= len;
        }
        return v;
      };
      delta += overlap(g) - overlap(bk);
      if (ci > 0 && delta >= choice_delta) break;
    }
    // Candidates come in order of (enlargement, area), so a strict < keeps R*'s tie-breaks.
    if (ci == 0 || delta < choice_delta) {
      choice = k;
      choice_delta = delta;
    }
    if (choice_delta == 0) break;
  }
  return choice;
}

void RTree::Split(RNode node, RNode* a, RNode* b) const {
  const size_t n = node.entries.size();
  const size_t m = min_fill_;
  const size_t dims = dims_;
  std::vector<REntry>& es = node.entries;
  std::vector<size_t> order(n);
  std::vector<Box> pre(n + 1), suf(n + 1);
  struct Choice {
    double margin = 0, overlap = 0, volume = 0;
    bool by_hi = false;
    size_t k = 0;
  };
  Choice best_axis_choice;
  size_t best_axis = 0;
  double best_margin = 0;
  for (size_t d = 0; d < dims; ++d) {
    Choice axis;
    bool have = false;
    double margin_sum = 0;
    for (int by_hi = 0; by_hi < 2; ++by_hi) {
      SortAlong(es, d, by_hi != 0, &order);
      pre[0] = Box::Empty();
      for (size_t i = 0; i < n; ++i) {
        pre[i + 1] = pre[i];
        pre[i + 1].Extend(es[order[i]].box, dims);
      }
      suf[n] = Box::Empty();
      for (size_t i = n; i-- > 0;) {
        suf[i] = suf[i + 1];
        suf[i].Extend(es[order[i]].box, dims);
      }
      for (size_t k = m; k + m <= n; ++k) {
        margin_sum += pre[k].Margin(dims) + suf[k].Margin(dims);
        double ov = pre[k].OverlapVolume(suf[k], dims);
        double vol = pre[k].Volume(dims) + suf[k].Volume(dims);
        if (!have || ov < axis.overlap || (ov == axis.overlap && vol < axis.volume)) {
          axis = {0, ov, vol, by_hi != 0, k};
          have = true;
        }
      }
    }
    if (d == 0 || margin_sum < best_margin) {
      best_margin = margin_sum;
      best_axis = d;
      best_axis_choice = axis;
    }
  }
  // Redo the chosen sort and cut it at k.
  const size_t d = best_axis;
  const bool by_hi = best_axis_choice.by_hi;
  SortAlong(es, d, by_hi, &order);
  a->level = b->level = node.level;
  a->entries.clear();
  b->entries.clear();
  for (size_t i = 0; i < n; ++i) {
    (i < best_axis_choice.k ? a : b)->entries.push_back(es[order[i]]);
  }
}

}  // namespace meridian::storage
