// The join-order enumerator (optimizer/join_order.h) on made-up estimates: the dynamic program
// finds the cheapest order a brute-force search over every permutation finds (under the same
// cross-product rule), hash joins build on the smaller input, cross products come last, ties
// keep FROM order, a forced first relation stays first, and the greedy fallback covers large
// groups.
#include "optimizer/join_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace meridian::exec {
namespace {

JoinPred Equi(int a, int b, double sel, int col_a = -1, int col_b = -1) {
  JoinPred p;
  p.rels = (uint64_t{1} << a) | (uint64_t{1} << b);
  p.selectivity = sel;
  p.equality = true;
  p.side_rels[0] = uint64_t{1} << a;
  p.side_rels[1] = uint64_t{1} << b;
  p.side_column[0] = col_a;
  p.side_column[1] = col_b;
  return p;
}

JoinRel Rel(double rows, double cost) {
  JoinRel r;
  r.rows = rows;
  r.cost = cost;
  return r;
}

// The cost of joining rels in exactly this order (each step's cheapest method).
double OrderCost(const std::vector<JoinRel>& rels, const std::vector<JoinPred>& preds,
                 const std::vector<int>& order) {
  uint64_t set = uint64_t{1} << order[0];
  double cost = rels[order[0]].cost;
  for (size_t i = 1; i < order.size(); ++i) {
    const int r = order[i];
    std::vector<const JoinPred*> step;
    for (const JoinPred& p : preds) {
      const uint64_t both = set | (uint64_t{1} << r);
      if ((p.rels >> r & 1) != 0 && (p.rels & set) != 0 && (p.rels & ~both) == 0) {
        step.push_back(&p);
      }
    }
    cost = CostJoinStep(set, JoinRows(rels, preds, set), cost, rels[r], r, step,
                        JoinRows(rels, preds, set | (uint64_t{1} << r)), true, true)
               .cost;
    set |= uint64_t{1} << r;
  }
  return cost;
}

// Whether order adds a relation without a predicate to the ones before while a connected one
// was left (the enumerator never does).
bool AvoidableCrossProduct(const std::vector<JoinPred>& preds, const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  uint64_t set = uint64_t{1} << order[0];
  for (int i = 1; i < n; ++i) {
    auto connected = [&](int r) {
      for (const JoinPred& p : preds) {
        const uint64_t both = set | (uint64_t{1} << r);
        if ((p.rels >> r & 1) != 0 && (p.rels & set) != 0 && (p.rels & ~both) == 0) return true;
      }
      return false;
    };
    bool any = false;
    for (int j = i; j < n; ++j) any |= connected(order[j]);
    if (any && !connected(order[i])) return true;
    set |= uint64_t{1} << order[i];
  }
  return false;
}

TEST(JoinOrderTest, DynamicProgramFindsTheCheapestPermutation) {
  std::mt19937 rng(11);
  for (int round = 0; round < 60; ++round) {
    const int n = 3 + round % 4;  // 3..6 relations
    std::vector<JoinRel> rels;
    for (int r = 0; r < n; ++r) {
      const double rows = std::pow(10.0, 1 + static_cast<double>(rng() % 50) / 10);
      JoinRel rel = Rel(rows, rows * 0.02 + 1);
      if (rng() % 2 == 0) rel.probes.push_back({0, 1 + static_cast<double>(rng() % 20)});
      rels.push_back(rel);
    }
    std::vector<JoinPred> preds;
    for (int r = 1; r < n; ++r) {  // a random tree plus a few extra edges
      const int other = static_cast<int>(rng() % r);
      preds.push_back(Equi(other, r, 1.0 / std::min(rels[r].rows, rels[other].rows), -1, 0));
    }
    if (n > 3 && rng() % 2 == 0) preds.push_back(Equi(0, n - 1, 0.1));
    const JoinOrder got = ChooseJoinOrder(rels, preds, -1);
    ASSERT_EQ(got.rels.size(), static_cast<size_t>(n));
    ASSERT_EQ(got.steps.size(), static_cast<size_t>(n - 1));
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    double best = -1;
    do {
      if (AvoidableCrossProduct(preds, order)) continue;
      const double c = OrderCost(rels, preds, order);
      if (best < 0 || c < best) best = c;
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_NEAR(got.cost, best, 1e-6 * best) << "round " << round;
    EXPECT_NEAR(OrderCost(rels, preds, got.rels), got.cost, 1e-6 * best) << "round " << round;
    EXPECT_FALSE(AvoidableCrossProduct(preds, got.rels)) << "round " << round;
  }
}

TEST(JoinOrderTest, StartsFromTheSelectiveSide) {
  // A chain big(0) - mid(1) - tiny(2) written big first: the tiny relation comes first and
  // the mid table is reached through its index.
  std::vector<JoinRel> rels = {Rel(1e6, 20000), Rel(1e4, 200), Rel(3, 50)};
  rels[0].probes.push_back({0, 10});
  rels[1].probes.push_back({0, 1});
  std::vector<JoinPred> preds = {Equi(1, 0, 1e-4, 0, 0), Equi(2, 1, 1e-4, 1, 0)};
  const JoinOrder got = ChooseJoinOrder(rels, preds, -1);
  ASSERT_EQ(got.rels, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(got.steps[0].method, JoinMethod::kIndexNestedLoop);
  EXPECT_LT(got.cost, OrderCost(rels, preds, {0, 1, 2}) / 10);
}

TEST(JoinOrderTest, HashJoinBuildsOnTheSmallerInput) {
  const JoinRel big = Rel(1e6, 20000), small = Rel(100, 2);
  const JoinPred p = Equi(0, 1, 1e-6);
  const std::vector<const JoinPred*> preds = {&p};
  // Rows so far are big, the new relation small: build on the new one.
  JoinStepChoice c = CostJoinStep(1, 1e6, 20000, small, 1, preds, 100, true, true);
  EXPECT_EQ(c.method, JoinMethod::kHash);
  EXPECT_FALSE(c.build_left);
  // The other way round: build on the rows so far, unless the join kind forbids swapping.
  c = CostJoinStep(1, 100, 2, big, 1, preds, 100, true, true);
  EXPECT_EQ(c.method, JoinMethod::kHash);
  EXPECT_TRUE(c.build_left);
  c = CostJoinStep(1, 100, 2, big, 1, preds, 100, /*allow_swap=*/false, true);
  EXPECT_FALSE(c.build_left);
  // No equality: only a nested loop is possible.
  JoinPred range = p;
  range.equality = false;
  const std::vector<const JoinPred*> ranges = {&range};
  EXPECT_EQ(CostJoinStep(1, 100, 2, big, 1, ranges, 100, true, true).method,
            JoinMethod::kNestedLoop);
}

TEST(JoinOrderTest, RTreeProbes) {
  // An R-tree probe's cost: a descent per left row, the table's pages that all the rescans
  // find rows on (Mackert–Lohman over left_rows * matched rows) at a random read each, and an
  // entry, a tuple and a re-check per row found; plus emitting the output rows.
  auto rtree_cost = [](double left_rows, double left_cost, double matched, double pages,
                       double out_rows) {
    const double found = left_rows * matched;
    return left_cost + left_rows * 1.25 + pages * (1 - std::exp(-found / pages)) * 4.0 +
           found * (0.005 + 0.01 + 0.0025) + out_rows * 0.01;
  };
  // 200 boxes so far (relation 0) joined with 1e5 points on 1000 pages (relation 1) by
  // `p <@ b`: a geometric condition with PostgreSQL's contjoinsel 0.001, the points' column 2
  // on side 1.
  JoinRel points = Rel(1e5, 1000);
  JoinPred in_box = Equi(0, 1, 0.001, -1, 2);
  in_box.equality = false;
  in_box.geometric = true;
  const std::vector<const JoinPred*> geo = {&in_box};
  // Without an R-tree on the column: a nested loop over every pair.
  JoinStepChoice c = CostJoinStep(1, 200, 2, points, 1, geo, 2e4, true, true);
  EXPECT_EQ(c.method, JoinMethod::kNestedLoop);
  const double pairs = c.cost;
  // An R-tree on column 2: each box finds 1e5 * 0.001 = 100 points by an index nested loop.
  JoinRel::Probe rtree;
  rtree.column = 2;
  rtree.prefix_rows = 1e5;
  rtree.geometry = true;
  rtree.heap_pages = 1000;
  points.probes.push_back(rtree);
  c = CostJoinStep(1, 200, 2, points, 1, geo, 2e4, true, true);
  EXPECT_EQ(c.method, JoinMethod::kIndexNestedLoop);
  EXPECT_NEAR(c.cost, rtree_cost(200, 2, 100, 1000, 2e4), 1e-6);
  EXPECT_LT(c.cost, pairs);
  // The R-tree is on another column, or the condition is no geometric one: no probe.
  points.probes[0].column = 3;
  EXPECT_EQ(CostJoinStep(1, 200, 2, points, 1, geo, 2e4, true, true).method,
            JoinMethod::kNestedLoop);
  points.probes[0].column = 2;
  JoinPred other = in_box;
  other.geometric = false;
  const std::vector<const JoinPred*> not_geo = {&other};
  EXPECT_EQ(CostJoinStep(1, 200, 2, points, 1, not_geo, 2e4, true, true).method,
            JoinMethod::kNestedLoop);

  // An R-tree over numeric columns 0 and 1 (x, y): range bounds from the left rows on both
  // (x BETWEEN lo AND hi AND y BETWEEN lo AND hi) keep 0.005 each.
  JoinRel xy = Rel(1e5, 1000);
  JoinRel::Probe box;
  box.column = 0;
  box.prefix_rows = 1e5;
  box.box_columns = {0, 1};
  box.open_ok = {false, false};
  box.heap_pages = 1000;
  xy.probes.push_back(box);
  std::vector<JoinPred> bounds;
  for (int col : {0, 0, 1, 1}) {
    JoinPred b = Equi(0, 1, 1.0 / 3, -1, col);
    b.equality = false;
    b.range = true;
    bounds.push_back(b);
  }
  std::vector<const JoinPred*> all;
  for (const JoinPred& b : bounds) all.push_back(&b);
  c = CostJoinStep(1, 200, 2, xy, 1, all, 200, true, true);
  EXPECT_EQ(c.method, JoinMethod::kIndexNestedLoop);
  EXPECT_NEAR(c.cost, rtree_cost(200, 2, 1e5 * 0.005 * 0.005, 1000, 200), 1e-6);
  // Bounds on one column are no box of a 2-column R-tree.
  const std::vector<const JoinPred*> x_only = {all[0], all[1]};
  EXPECT_EQ(CostJoinStep(1, 200, 2, xy, 1, x_only, 200, true, true).method,
            JoinMethod::kNestedLoop);
  // A third column z that the bounds leave open: the scan would miss rows with a NULL z, so
  // no probe unless z is NOT NULL.
  xy.probes[0].box_columns = {0, 1, 2};
  xy.probes[0].open_ok = {false, false, false};
  EXPECT_EQ(CostJoinStep(1, 200, 2, xy, 1, all, 200, true, true).method, JoinMethod::kNestedLoop);
  xy.probes[0].open_ok = {false, false, true};
  c = CostJoinStep(1, 200, 2, xy, 1, all, 200, true, true);
  EXPECT_EQ(c.method, JoinMethod::kIndexNestedLoop);
  EXPECT_NEAR(c.cost, rtree_cost(200, 2, 1e5 * 0.005 * 0.005, 1000, 200), 1e-6);
  EXPECT_EQ(CostJoinStep(1, 200, 2, xy, 1, x_only, 200, true, true).method,
            JoinMethod::kNestedLoop);
}

TEST(JoinOrderTest, CrossProductsComeLastAndTiesKeepFromOrder) {
  // 1 is joined to nothing: it must not split 0 and 2 although it is the smallest.
  std::vector<JoinRel> rels = {Rel(1000, 20), Rel(2, 1), Rel(1000, 20)};
  std::vector<JoinPred> preds = {Equi(0, 2, 1e-3)};
  JoinOrder got = ChooseJoinOrder(rels, preds, -1);
  EXPECT_NE(got.rels[1], 1);
  // Identical relations without predicates: FROM order.
  rels = {Rel(10, 1), Rel(10, 1), Rel(10, 1), Rel(10, 1)};
  got = ChooseJoinOrder(rels, {}, -1);
  EXPECT_EQ(got.rels, (std::vector<int>{0, 1, 2, 3}));
  // A forced first relation (the joins before an outer join) stays first.
  rels = {Rel(1e6, 20000), Rel(10, 1), Rel(1e4, 100)};
  preds = {Equi(0, 1, 1e-1), Equi(1, 2, 1e-4)};
  got = ChooseJoinOrder(rels, preds, 0);
  EXPECT_EQ(got.rels[0], 0);
  got = ChooseJoinOrder(rels, preds, -1);
  EXPECT_NE(got.rels[0], 0);
}

TEST(JoinOrderTest, GreedyBeyondTheDynamicProgram) {
  // A chain of 14 relations (2^14 subsets would be too many): every relation once, each step
  // joined by a predicate, the smallest relation first.
  const int n = kMaxDpRelations + 4;
  std::vector<JoinRel> rels;
  std::vector<JoinPred> preds;
  for (int r = 0; r < n; ++r) {
    const double rows = r == 9 ? 5 : 1000.0 * (r + 1);
    rels.push_back(Rel(rows, rows / 50));
    if (r > 0) preds.push_back(Equi(r - 1, r, 1.0 / 1000));
  }
  const JoinOrder got = ChooseJoinOrder(rels, preds, -1);
  ASSERT_EQ(got.rels.size(), static_cast<size_t>(n));
  std::vector<int> sorted = got.rels;
  std::sort(sorted.begin(), sorted.end());
  for (int r = 0; r < n; ++r) EXPECT_EQ(sorted[r], r);
  EXPECT_EQ(got.rels[0], 9);
  EXPECT_FALSE(AvoidableCrossProduct(preds, got.rels));
  EXPECT_EQ(ChooseJoinOrder(rels, preds, 3).rels[0], 3);
}

}  // namespace
}  // namespace meridian::exec
