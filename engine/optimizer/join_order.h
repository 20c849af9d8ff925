// Join order by cost: a Selinger-style dynamic program over subsets of the relations of one
// inner-join group (left-deep; each step joins one relation to the result so far), with a
// greedy fallback for large groups. Works on estimates only (no expressions, no catalog), so
// the planner (plan_join.cc) describes relations and predicates and builds the chosen order.
#pragma once

#include <cstdint>
#include <vector>

namespace meridian::exec {

enum class JoinMethod { kNestedLoop, kHash, kIndexNestedLoop };

// One input of the join group: a table's scan with its own filters, a derived table, or the
// result of the joins before an outer join (then it is forced first).
struct JoinRel {
  double rows = 1;  // rows its scan yields, after its pushed-down filters
  double cost = 0;  // total cost of that scan
  // Index probes an index nested-loop join may use: the index's first column not fixed to one
  // value by the relation's own filters (the relation's column number), the rows one
  // lookup finds, and the rows sharing the fixed prefix (what a range on the column narrows).
  struct Probe {
    int column = -1;
    double matched = 0;
    double prefix_rows = 0;
    // An R-tree (matched unused; see CostJoinStep for its cost): on a point or box column
    // (geometry, `column` is it), probed by a geometric join condition; or over numeric columns
    // (box_columns, `column` the first), probed by range bounds from the left rows on at least two
    // of them (its only one for a 1-column index), every column left open NOT NULL (open_ok).
    bool geometry = false;
    std::vector<int> box_columns = {};
    std::vector<bool> open_ok = {};
    double heap_pages = 1;  // an R-tree's table pages (what its rescans read over all left rows)
  };
  std::vector<Probe> probes;
};

// A condition over two or more relations of the group.
struct JoinPred {
  uint64_t rels = 0;       // relations it reads (bit i = relation i)
  double selectivity = 1;  // fraction of the cross product it keeps
  // An equality whose two sides read disjoint relation sets is a hash key between them; a
  // side that is one relation's plain column names it (else -1), for index probes.
  bool equality = false;
  // A comparison (<, <=, >, >=) of the same kind, sides as for equality: a range bound an
  // index nested-loop join may use on the probe column (`ol_o_id < d_next_o_id`).
  bool range = false;
  // A geometric operator an R-tree on a point or box column serves (&&, @>, <@, ~=), sides as
  // for equality: an index nested-loop join may probe the R-tree on the column side.
  bool geometric = false;
  uint64_t side_rels[2] = {0, 0};
  int side_column[2] = {-1, -1};
};

struct JoinStepChoice {
  JoinMethod method = JoinMethod::kNestedLoop;
  // Hash join only: build the hash table on the rows so far and probe with the new relation
  // (the smaller input is the build side).
  bool build_left = false;
  double cost = 0;  // total cost including both inputs
};

// Groups larger than this are ordered greedily (2^n subsets otherwise).
inline constexpr int kMaxDpRelations = 10;

// Cost of joining rows so far (left_rels, left_rows, left_cost) with relation r, given the
// predicates this step applies (every one reads r and only relations of left_rels | r) and
// the step's output rows. allow_swap: inner join (the build side may be either input);
// allow_index: the kind permits an index nested-loop join (inner or left).
JoinStepChoice CostJoinStep(uint64_t left_rels, double left_rows, double left_cost,
                            const JoinRel& rel, int r, const std::vector<const JoinPred*>& preds,
                            double out_rows, bool allow_swap, bool allow_index);

struct JoinOrder {
  std::vector<int> rels;              // join order; rels[0] is scanned first
  std::vector<JoinStepChoice> steps;  // steps[i - 1] joins rels[i]
  double rows = 0;
  double cost = 0;
};

// Rows of the join of the relations in set: product of their rows and the selectivities of
// every predicate inside set (so every order of one set has the same estimate).
double JoinRows(const std::vector<JoinRel>& rels, const std::vector<JoinPred>& preds, uint64_t set);

// The cheapest left-deep order of all relations. first >= 0 forces that relation first.
// A relation joined by no predicate to the ones before it (a cross product) is only
// considered when no connected one is left. Equal costs keep the lower relation numbers first.
JoinOrder ChooseJoinOrder(const std::vector<JoinRel>& rels, const std::vector<JoinPred>& preds,
                          int first);

}  // namespace meridian::exec
