// ChooseJoinOrder: dynamic programming over relation subsets (greedy beyond kMaxDpRelations)
// with the per-step costs of nested loop, hash join (either build side) and index nested loop.
#include "optimizer/join_order.h"

#include <algorithm>
#include <cmath>

#include "optimizer/access_path.h"

namespace meridian::exec {

namespace {

uint64_t Bit(int r) { return uint64_t{1} << r; }

// Strictly cheaper, ignoring rounding noise: equal costs keep the earlier candidate.
bool Cheaper(double a, double b) { return a < b - 1e-9 * std::max(1.0, b); }

// The predicates a step from set left to relation r applies: they read r, something of left,
// and nothing else.
std::vector<const JoinPred*> StepPreds(const std::vector<JoinPred>& preds, uint64_t left, int r) {
  std::vector<const JoinPred*> out;
  const uint64_t both = left | Bit(r);
  for (const JoinPred& p : preds) {
    if ((p.rels & Bit(r)) != 0 && (p.rels & left) != 0 && (p.rels & ~both) == 0) {
      out.push_back(&p);
    }
  }
  return out;
}

// Relations outside set that some predicate connects to set (without needing a third one).
std::vector<int> Connected(const std::vector<JoinPred>& preds, uint64_t set, int n) {
  std::vector<int> out;
  for (int r = 0; r < n; ++r) {
    if ((set & Bit(r)) != 0) continue;
    const uint64_t both = set | Bit(r);
    for (const JoinPred& p : preds) {
      if ((p.rels & Bit(r)) != 0 && (p.rels & set) != 0 && (p.rels & ~both) == 0) {
        out.push_back(r);
        break;
      }
    }
  }
  if (out.empty()) {  // only cross products are left
    for (int r = 0; r < n; ++r) {
      if ((set & Bit(r)) == 0) out.push_back(r);
    }
  }
  return out;
}

JoinOrder Greedy(const std::vector<JoinRel>& rels, const std::vector<JoinPred>& preds, int first) {
  const int n = static_cast<int>(rels.size());
  int start = first;
  if (start < 0) {
    start = 0;
    for (int r = 1; r < n; ++r) {
      if (Cheaper(rels[r].rows, rels[start].rows)) start = r;
    }
  }
  JoinOrder order;
  order.rels.push_back(start);
  uint64_t set = Bit(start);
  double rows = rels[start].rows;
  double cost = rels[start].cost;
  while (static_cast<int>(order.rels.size()) < n) {
    int best_r = -1;
    JoinStepChoice best;
    double best_rows = 0;
    for (int r : Connected(preds, set, n)) {
      const double out = JoinRows(rels, preds, set | Bit(r));
      JoinStepChoice c = CostJoinStep(set, rows, cost, rels[r], r, StepPreds(preds, set, r), out,
                                      /*allow_swap=*/true, /*allow_index=*/true);
      if (best_r < 0 || Cheaper(c.cost, best.cost)) {
        best_r = r;
        best = c;
        best_rows = out;
      }
    }
    order.rels.push_back(best_r);
    order.steps.push_back(best);
    set |= Bit(best_r);
    rows = best_rows;
    cost = best.cost;
  }
  order.rows = rows;
  order.cost = cost;
  return order;
}

}  // namespace

JoinStepChoice CostJoinStep(uint64_t left_rels, double left_rows, double left_cost,
                            const JoinRel& rel, int r, const std::vector<const JoinPred*>& preds,
                            double out_rows, bool allow_swap, bool allow_index) {
  const double right_rows = std::max(1.0, rel.rows);
  left_rows = std::max(1.0, left_rows);
  const double emit = out_rows * kCpuTupleCost;
  const double nconds = static_cast<double>(preds.size());
  // Nested loop: the new relation is read once and kept in memory (PostgreSQL's Material
  // charge, two operators a row); every pair is tested. So a one-row relation is the inner
  // side, not the outer one that would keep a whole table in memory.
  JoinStepChoice best;
  best.method = JoinMethod::kNestedLoop;
  best.cost = left_cost + rel.cost + right_rows * 2 * kCpuOperatorCost +
              left_rows * right_rows * kCpuOperatorCost * (1 + nconds) + emit;

  double keys = 0;
  double matched = -1;     // rows per index lookup on the best probe column
  double rtree_pages = 0;  // > 0: that probe is an R-tree's, over a table of this many pages
  for (const JoinPred* p : preds) {
    if (!p->equality) continue;
    for (int s = 0; s < 2; ++s) {
      const int o = 1 - s;
      if (p->side_rels[s] != Bit(r) || (p->side_rels[o] & ~left_rels) != 0 ||
          p->side_rels[o] == 0) {
        continue;
      }
      keys += 1;
      for (const JoinRel::Probe& probe : rel.probes) {
        if (probe.column == p->side_column[s] && (matched < 0 || probe.matched < matched)) {
          matched = probe.matched;
        }
      }
      break;
    }
  }
  if (keys > 0) {
    // Hash join: inserting a row costs a tuple plus hashing its keys; probing hashes the keys.
    const double per_build = kCpuTupleCost + keys * kCpuOperatorCost;
    const double per_probe = keys * kCpuOperatorCost;
    const double residual = out_rows * (nconds - keys) * kCpuOperatorCost;
    const double inputs = left_cost + rel.cost + emit + residual;
    const double build_right = inputs + right_rows * per_build + left_rows * per_probe;
    if (Cheaper(build_right, best.cost)) best = {JoinMethod::kHash, false, build_right};
    const double build_left = inputs + left_rows * per_build + right_rows * per_probe;
    if (allow_swap && Cheaper(build_left, best.cost)) best = {JoinMethod::kHash, true, build_left};
  }
  if (matched < 0 && allow_index) {
    // No equality probe: conditions from the left rows that a parameterized scan of an index
    // on r takes. The side of p on r is `column` and its other side reads only left rows.
    auto probes_with = [&](const JoinPred* p, int column) {
      for (int s = 0; s < 2; ++s) {
        const int o = 1 - s;
        if (p->side_rels[s] == Bit(r) && p->side_column[s] == column && p->side_rels[o] != 0 &&
            (p->side_rels[o] & ~left_rels) == 0) {
          return true;
        }
      }
      return false;
    };
    auto bounds_on = [&](int column) {
      int bounds = 0;
      for (const JoinPred* p : preds) bounds += p->range && probes_with(p, column) ? 1 : 0;
      return bounds;
    };
    // PostgreSQL's default range selectivities: a third for one bound, 0.005 for both.
    auto range_sel = [](int bounds) { return bounds > 1 ? 0.005 : bounds == 1 ? 1.0 / 3 : 1.0; };
    for (const JoinRel::Probe& probe : rel.probes) {
      if (probe.prefix_rows <= 0) continue;
      double m = -1;
      if (probe.geometry) {
        // An R-tree on a point or box column: the rows one geometric condition keeps per left
        // row (its join selectivity, PostgreSQL's areajoinsel / contjoinsel / eqjoinsel).
        for (const JoinPred* p : preds) {
          if (p->geometric && probes_with(p, probe.column)) {
            const double g = std::max(1.0, probe.prefix_rows * p->selectivity);
            if (m < 0 || g < m) m = g;
          }
        }
      } else if (!probe.box_columns.empty()) {
        // An R-tree over numeric columns: a box whose sides come from the left rows, its
        // selectivity the product of its dimensions' (as RTreeCandidate estimates it).
        double sel = 1;
        size_t bounded = 0;
        bool open_ok = true;
        for (size_t k = 0; k < probe.box_columns.size(); ++k) {
          const int bounds = bounds_on(probe.box_columns[k]);
          sel *= range_sel(bounds);
          if (bounds > 0) {
            ++bounded;
          } else {
            open_ok &= probe.open_ok[k];
          }
        }
        if (open_ok && bounded >= std::min<size_t>(2, probe.box_columns.size())) {
          m = std::max(1.0, probe.prefix_rows * sel);
        }
      } else {
        // A B+tree: bounds on the probe column narrow the rows sharing the index's fixed prefix.
        const int bounds = bounds_on(probe.column);
        if (bounds > 0) m = std::max(1.0, probe.prefix_rows * range_sel(bounds));
      }
      if (m >= 0 && (matched < 0 || m < matched)) {
        matched = m;
        rtree_pages = probe.geometry || !probe.box_columns.empty() ? probe.heap_pages : 0;
      }
    }
  }
  if (matched >= 0 && allow_index) {
    // Index nested loop: one descent and the matching heap rows per left row.
    double cost =
        left_cost + left_rows * (1.25 + matched * (kRandomPageCost + kCpuTupleCost)) + emit;
    if (rtree_pages > 0) {
      // An R-tree's rescans (each a box search whose rids are read in heap order) read the
      // table's pages once over all left rows, as PostgreSQL prices a repeated index scan
      // (index_pages_fetched with loop_count): Mackert–Lohman's distinct pages of all the
      // rows found, a random read each; per row an entry, a tuple and the re-check.
      const double found = left_rows * matched;
      const double pages = rtree_pages * (1.0 - std::exp(-found / rtree_pages));
      cost = left_cost + left_rows * 1.25 + pages * kRandomPageCost +
             found * (kCpuIndexTupleCost + kCpuTupleCost + kCpuOperatorCost) + emit;
    }
    if (Cheaper(cost, best.cost)) best = {JoinMethod::kIndexNestedLoop, false, cost};
  }
  return best;
}

double JoinRows(const std::vector<JoinRel>& rels, const std::vector<JoinPred>& preds,
                uint64_t set) {
  double rows = 1;
  for (size_t r = 0; r < rels.size(); ++r) {
    if ((set & Bit(static_cast<int>(r))) != 0) rows *= std::max(1.0, rels[r].rows);
  }
  for (const JoinPred& p : preds) {
    if ((p.rels & ~set) == 0) rows *= p.selectivity;
  }
  return std::max(1.0, rows);
}

JoinOrder ChooseJoinOrder(const std::vector<JoinRel>& rels, const std::vector<JoinPred>& preds,
                          int first) {
  const int n = static_cast<int>(rels.size());
  if (n == 0) return {};
  if (n > kMaxDpRelations) return Greedy(rels, preds, first);

  struct Entry {
    bool valid = false;
    double cost = 0;
    int last = -1;  // relation joined last
    JoinStepChoice step;
  };
  const uint64_t full = Bit(n) - 1;
  std::vector<double> rows(full + 1, 1);
  for (uint64_t set = 1; set <= full; ++set) rows[set] = JoinRows(rels, preds, set);
  std::vector<Entry> best(full + 1);
  for (int r = 0; r < n; ++r) {
    if (first >= 0 && r != first) continue;
    best[Bit(r)].valid = true;
    best[Bit(r)].cost = rels[r].cost;
    best[Bit(r)].last = r;
  }
  // A subset's predecessors are numerically smaller, so one ascending pass is enough.
  for (uint64_t set = 1; set < full; ++set) {
    if (!best[set].valid) continue;
    for (int r : Connected(preds, set, n)) {
      const uint64_t next = set | Bit(r);
      JoinStepChoice c = CostJoinStep(set, rows[set], best[set].cost, rels[r], r,
                                      StepPreds(preds, set, r), rows[next],
                                      /*allow_swap=*/true, /*allow_index=*/true);
      Entry& e = best[next];
      if (!e.valid || Cheaper(c.cost, e.cost)) {
        e.valid = true;
        e.cost = c.cost;
        e.last = r;
        e.step = c;
      }
    }
  }
  JoinOrder order;
  order.rows = rows[full];
  order.cost = best[full].cost;
  for (uint64_t set = full; set != 0;) {
    const Entry& e = best[set];
    order.rels.push_back(e.last);
    set &= ~Bit(e.last);
    if (set != 0) order.steps.push_back(e.step);
  }
  std::reverse(order.rels.begin(), order.rels.end());
  std::reverse(order.steps.begin(), order.steps.end());
  return order;
}

}  // namespace meridian::exec
