// PlanSelect: predicate pushdown, access paths, joins and the SELECT pipeline (see planner.h).
#include <algorithm>
#include <cmath>

#include "execution/grouping_sets.h"
#include "execution/recursive_union.h"
#include "optimizer/access_path.h"
#include "planner/logical_plan.h"
#include "planner/plan_internal.h"
#include "planner/planner.h"

namespace meridian::exec {

double SortCost(double rows) { return 2.0 * kCpuOperatorCost * rows * std::log2(rows + 2); }

namespace {

// ORDER BY (unless an index already delivers it), DISTINCT ON and LIMIT/OFFSET of block b on
// top of cur.
Built SortAndLimit(Built cur, const LogicalBlock& b, const std::string& sort_keys, bool ordered,
                   Builder* builder);
Result<Built> LowerSetOperation(const LogicalBlock& block, Builder* b);
Result<Built> LowerBlock(LogicalOpPtr* top, Builder* b);

// The GROUP BY's distinct key combinations, PostgreSQL's estimate_num_groups in short: the
// product of the keys' distinct counts. A key carried beside the hash key (dependent) or held
// to one value by the WHERE (`key = constant or parameter`, directly or through column
// equalities: its equivalence class) counts 1; a plain column of a FROM table counts its
// ANALYZE distinct count (one more when it has NULLs). Nothing when some key is of none of
// these kinds (the caller keeps its default). Read before FROM planning takes the conjuncts.
std::optional<double> GroupsFromStatistics(const BoundSelect& s, const LogicalAggregate& agg,
                                           const std::vector<BoundExprPtr>& conjuncts) {
  const std::vector<bool>& dependent = agg.dependent;
  if (!agg.grouping_sets.empty() || agg.keys.empty()) return std::nullopt;
  // Each joined-row column's FROM item and column number there.
  std::vector<std::pair<size_t, int>> source;
  for (size_t t = 0; t < s.from.size(); ++t) {
    const size_t width =
        s.from[t] != nullptr ? s.from[t]->types().size() : s.derived[t]->columns.size();
    for (size_t c = 0; c < width; ++c) source.emplace_back(t, static_cast<int>(c));
  }
  // Equivalence classes of the WHERE's column equalities; a class with a constant member is
  // fixed.
  std::vector<size_t> parent(source.size());
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto column_of = [&](const BoundExpr& e) -> int {
    return e.kind == BoundKind::kColumn && e.depth == 0 && e.index >= 0 &&
                   static_cast<size_t>(e.index) < source.size()
               ? e.index
               : -1;
  };
  std::vector<int> constant_columns;
  for (const BoundExprPtr& c : conjuncts) {
    if (c->kind != BoundKind::kBinary || c->binary_op != ast::BinaryOp::kEq) continue;
    const int l = column_of(*c->children[0]), r = column_of(*c->children[1]);
    if (l >= 0 && r >= 0) {
      parent[find(static_cast<size_t>(l))] = find(static_cast<size_t>(r));
      continue;
    }
    const int col = l >= 0 ? l : r;
    const BoundExpr& other = *c->children[l >= 0 ? 1 : 0];
    if (col >= 0 && (other.kind == BoundKind::kParam ||
                     (other.kind == BoundKind::kConst && !other.value.IsNull()))) {
      constant_columns.push_back(col);
    }
  }
  std::vector<bool> fixed(source.size(), false);
  for (int c : constant_columns) fixed[find(static_cast<size_t>(c))] = true;
  double groups = 1;
  for (size_t i = 0; i < agg.keys.size(); ++i) {
    if (i < dependent.size() && dependent[i]) continue;
    const int col = column_of(*agg.keys[i]);
    if (col < 0) return std::nullopt;
    if (fixed[find(static_cast<size_t>(col))]) continue;
    const auto [t, c] = source[static_cast<size_t>(col)];
    if (s.from[t] == nullptr) return std::nullopt;  // a derived table's column
    const std::shared_ptr<const catalog::TableStats> stats = s.from[t]->stats();
    if (stats == nullptr || static_cast<size_t>(c) >= stats->columns.size()) return std::nullopt;
    const catalog::ColumnStats& cs = stats->columns[static_cast<size_t>(c)];
    if (cs.distinct < 1 && cs.null_frac <= 0) return std::nullopt;
    groups *= std::max(1.0, cs.distinct + (cs.null_frac > 0 ? 1 : 0));
  }
  return groups;
}

// The FROM list's join types and ON conditions, per FROM item, from the logical Joins.
void CollectJoins(LogicalOp* op, std::vector<ast::JoinType>* types, std::vector<BoundExprPtr>* on) {
  if (op->kind != LogicalKind::kJoin) return;
  auto& join = op->As<LogicalJoin>();
  CollectJoins(join.children[0].get(), types, on);
  (*types)[join.item] = join.type;
  (*on)[join.item] = std::move(join.on);
}

// The semi Applies of block lb that the decorrelation rule gave a unique-ified inner side
// (LogicalApply::unique_inner), each appended to s's FROM list as a derived item joined by
// `outer_key_i = its column i` (SemiJoin::equalities); FromPlanner joins it or keeps the
// hashed filter by cost (plan_join.cc). None when the block's shape would make the wider
// joined row or the other FROM plan differ: outer or LATERAL joins, locking, UPDATE ... FROM,
// windows or set-returning calls (their rows extend the joined row), a LIMIT or min/max
// (stops early), a single table whose index may deliver the ORDER BY.
std::vector<FromPlanner::SemiJoin> SemiJoinItems(LogicalBlock* lb, BoundSelect* s,
                                                 std::vector<ast::JoinType>* join_types,
                                                 std::vector<BoundExprPtr>* join_on) {
  std::vector<FromPlanner::SemiJoin> out;
  if (s == nullptr || s->rid_table >= 0 || s->LocksRows() || lb->window != nullptr ||
      lb->project_set != nullptr || lb->limit != nullptr ||
      (lb->aggregate != nullptr && lb->aggregate->min_max) ||
      (lb->sort != nullptr && s->from.size() == 1)) {
    return out;
  }
  for (size_t i = 0; i < s->from.size(); ++i) {
    const ast::JoinType jt = (*join_types)[i];
    if (s->IsLateral(i) || (jt != ast::JoinType::kComma && jt != ast::JoinType::kInner &&
                            jt != ast::JoinType::kCross)) {
      return out;
    }
  }
  for (LogicalApply* apply : lb->applies) {
    if (apply->unique_inner == nullptr) continue;
    int offset = 0;
    for (size_t t = 0; t < s->from.size(); ++t) {
      offset += static_cast<int>(s->from[t] != nullptr ? s->from[t]->types().size()
                                                       : s->derived[t]->columns.size());
    }
    FromPlanner::SemiJoin semi;
    semi.item = s->from.size();
    semi.predicate = apply->predicate.get();
    const SubqueryPlan::Hashed& h = *apply->predicate->subquery->hashed;
    semi.build_cost = h.build_cost;
    semi.per_row_cost = h.per_row_cost;
    semi.switch_after = h.switch_after;
    std::unique_ptr<BoundSelect> inner = std::move(apply->unique_inner);
    for (size_t k = 0; k < apply->outer_keys.size(); ++k) {
      const ColumnInfo& col = inner->columns[k];
      auto eq = BoundExpr::Make(BoundKind::kBinary, Type::Boolean(), 0);
      eq->binary_op = ast::BinaryOp::kEq;
      eq->children.push_back(std::move(apply->outer_keys[k]));
      eq->children.push_back(
          BoundExpr::Column(0, offset + static_cast<int>(k), col.type, col.name));
      semi.equalities.push_back(std::move(eq));
    }
    apply->outer_keys.clear();
    s->derived.resize(s->from.size());
    s->from_names.resize(s->from.size());
    s->from.push_back(nullptr);
    s->derived.push_back(std::move(inner));
    s->from_names.push_back("ANY_subquery");
    join_types->push_back(ast::JoinType::kInner);
    join_on->push_back(nullptr);
    out.push_back(std::move(semi));
  }
  return out;
}

Result<Built> LowerBlock(LogicalOpPtr* top, Builder* builder) {
  MERIDIAN_ASSIGN_OR_RETURN(LogicalBlock lb, UnpackBlock(top));
  if (lb.set != nullptr) return LowerSetOperation(lb, builder);
  Builder& b = *builder;
  Built cur;
  bool ordered_by_index = false;
  BoundSelect* s = lb.FromBlock();  // null: no FROM list
  LogicalAggregate* agg = lb.aggregate;
  std::vector<BoundExprPtr>& projections = lb.project->exprs;
  std::vector<BoundExprPtr> no_exprs;
  std::vector<BoundExprPtr>& windows = lb.window != nullptr ? lb.window->calls : no_exprs;
  std::vector<BoundExprPtr>& set_functions =
      lb.project_set != nullptr ? lb.project_set->calls : no_exprs;
  const std::vector<SortKey> no_keys;
  const std::vector<SortKey>& order_by = lb.sort != nullptr ? lb.sort->keys : no_keys;
  const bool distinct = lb.distinct != nullptr;
  BoundExprPtr* having = lb.having != nullptr ? &lb.having->conjuncts[0] : nullptr;

  // The FROM list's join types and ON conditions (the logical Joins').
  std::vector<ast::JoinType> join_types;
  std::vector<BoundExprPtr> join_on;
  if (s != nullptr) {
    join_types.assign(s->from.size(), ast::JoinType::kComma);
    join_on.resize(s->from.size());
    if (!s->join_on.empty()) join_on[0] = std::move(s->join_on[0]);
    CollectJoins(lb.from_slot->get(), &join_types, &join_on);
  }
  // Hashed semi Applies that may be joined instead (their unique-ified inner sides become
  // FROM items after the others); FromPlanner chooses by cost.
  std::vector<FromPlanner::SemiJoin> semi_joins = SemiJoinItems(&lb, s, &join_types, &join_on);

  // Which columns of the joined row the query reads.
  int total_cols = 0;
  for (size_t t = 0; s != nullptr && t < s->from.size(); ++t) {
    total_cols += static_cast<int>(s->from[t] != nullptr ? s->from[t]->types().size()
                                                         : s->derived[t]->columns.size());
  }
  if (s != nullptr && s->rid_table >= 0) ++total_cols;  // the target's rid (UPDATE ... FROM)
  std::vector<bool> used(static_cast<size_t>(total_cols), false);
  bool all_used = false;
  std::vector<BoundExprPtr> conjuncts;
  if (lb.where != nullptr) conjuncts = std::move(lb.where->conjuncts);
  // An Apply is still a conjunct of the final filter (a SubPlan, hashed when the decorrelation
  // rule gave it that form), back at its place among the WHERE's conjuncts.
  for (auto it = lb.applies.rbegin(); it != lb.applies.rend(); ++it) {
    const size_t at = std::min((*it)->position, conjuncts.size());
    conjuncts.insert(conjuncts.begin() + static_cast<std::ptrdiff_t>(at),
                     std::move((*it)->predicate));
  }
  // A joinable semi Apply's equalities `outer_key = inner side` join its FROM item.
  for (FromPlanner::SemiJoin& semi : semi_joins) {
    for (BoundExprPtr& eq : semi.equalities) conjuncts.push_back(std::move(eq));
    semi.equalities.clear();
  }
  if (agg != nullptr) {
    for (const auto& g : agg->keys) CollectColumns(*g, &used, &all_used);
    for (const auto& a : agg->aggregates) CollectColumns(*a, &used, &all_used);
    if (having != nullptr) CollectColumns(**having, &used, &all_used);
  } else {
    for (const auto& p : projections) CollectColumns(*p, &used, &all_used);
    for (const auto& w : windows) CollectColumns(*w, &used, &all_used);
    for (const auto& f : set_functions) CollectColumns(*f, &used, &all_used);
  }
  for (const auto& c : conjuncts) CollectColumns(*c, &used, &all_used);
  const std::optional<double> stats_groups =
      agg != nullptr && s != nullptr ? GroupsFromStatistics(*s, *agg, conjuncts) : std::nullopt;

  if (s == nullptr) {
    std::vector<std::vector<BoundExprPtr>> one_empty_row(1);
    auto node = std::make_unique<PlanNode>();
    node->label = "Result";
    node->rows = 1;
    node->total_cost = 0.01;
    OperatorPtr op = std::make_unique<ValuesOp>(std::move(one_empty_row));
    if (!conjuncts.empty()) {
      node->details.push_back("One-Time Filter: " + Conditions(conjuncts));
      op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
    }
    cur = b.Make(std::move(op), std::move(node));
  } else {
    // A single-table query may take its ORDER BY (and LIMIT) from an index.
    std::vector<AccessPlan::OrderColumn> wanted;
    std::optional<double> limit;
    if (s->from.size() == 1 && agg == nullptr && !distinct && windows.empty() &&
        set_functions.empty() && !order_by.empty()) {
      for (const SortKey& k : order_by) {
        const BoundExpr& p = *projections[k.column];
        if (p.kind != BoundKind::kColumn || p.depth != 0 || k.nulls_first != k.descending) {
          wanted.clear();
          break;
        }
        wanted.push_back({p.index, k.descending});
      }
      // With a LIMIT, index order (wanted) or an R-tree's distance order (FromPlanner::Scan
      // looks at the one ORDER BY key) may save the sort.
      const BoundExpr* lim = lb.limit != nullptr ? lb.limit->limit.get() : nullptr;
      const BoundExpr* off = lb.limit != nullptr ? lb.limit->offset.get() : nullptr;
      if (lim != nullptr && lim->kind == BoundKind::kConst && lim->value.IsInt()) {
        double skip = 0;
        if (off != nullptr && off->kind == BoundKind::kConst && off->value.IsInt()) {
          skip = static_cast<double>(off->value.AsInt());
        }
        limit = static_cast<double>(lim->value.AsInt()) + skip;
      }
    }
    // min(c) / max(c) alone over one table (the planagg rule, logical_rewrite.cc, marked the
    // aggregate and added `c IS NOT NULL`): the first non-NULL c in an index's order, when
    // some index delivers it, is the answer; the aggregate stays on top (NULL for no row).
    // Costed as any ORDER BY c LIMIT 1.
    const bool min_max = agg != nullptr && agg->min_max;
    if (min_max) {
      const BoundExpr& arg = *agg->aggregates[0]->children[0];
      wanted = {{arg.index, agg->aggregates[0]->agg == AggFunc::kMax}};
      limit = 1;
    }
    FromPlanner from(s, &b, used, all_used, std::move(join_types), std::move(join_on), order_by,
                     projections);
    for (FromPlanner::SemiJoin& semi : semi_joins) from.AddSemiJoin(std::move(semi));
    MERIDIAN_ASSIGN_OR_RETURN(cur,
                              from.Plan(std::move(conjuncts), wanted, limit, &ordered_by_index));
    if (min_max && ordered_by_index) {
      auto node = std::make_unique<PlanNode>();
      node->label = "Limit";
      node->rows = 1;
      node->startup_cost = cur.node->startup_cost;
      node->total_cost = cur.node->startup_cost + (cur.node->total_cost - cur.node->startup_cost) /
                                                      std::max(1.0, cur.node->rows);
      node->width = cur.node->width;
      cur = b.Make(std::make_unique<LimitOp>(
                       std::move(cur.op), BoundExpr::Const(Value::Int(1), Type::BigInt()), nullptr),
                   std::move(node), {&cur});
    }
    if (min_max) ordered_by_index = false;  // (the FROM rows' order, not the aggregate's)
  }

  if (agg != nullptr) {
    bool scalar = agg->keys.empty();
    const bool sets = !agg->grouping_sets.empty();
    auto node = std::make_unique<PlanNode>();
    node->label = scalar ? "Aggregate" : "HashAggregate";
    auto key_list = [&](const std::vector<int>& keys) {
      std::string text;
      for (size_t i = 0; i < keys.size(); ++i) {
        text += (i ? ", " : "") + ExprToString(*agg->keys[static_cast<size_t>(keys[i])]);
      }
      return text;
    };
    const double in_rows = cur.node->rows;
    // From the keys' statistics and the WHERE's equalities when they tell (clamped to the
    // input rows), else a tenth of the input up to 200.
    const double group_rows = stats_groups ? std::max(1.0, std::min(*stats_groups, in_rows))
                                           : std::max(1.0, std::min(200.0, in_rows / 10));
    node->rows = scalar ? 1 : group_rows;
    if (sets) {
      // PostgreSQL's layout: a hashed set per "Hash Key:", then "Group Key: ()" for the empty
      // ones (MixedAggregate when there is one).
      node->rows = 0;
      std::vector<std::string> empty;
      for (const std::vector<int>& set : agg->grouping_sets) {
        if (set.empty()) {
          node->label = "MixedAggregate";
          empty.push_back("Group Key: ()");
          node->rows += 1;
        } else {
          node->details.push_back("Hash Key: " + key_list(set));
          node->rows += group_rows;
        }
      }
      for (std::string& e : empty) node->details.push_back(std::move(e));
    } else if (!scalar) {
      std::vector<int> keys;
      for (size_t i = 0; i < agg->keys.size(); ++i) {
        if (!agg->dependent[i]) keys.push_back(static_cast<int>(i));
      }
      node->details.push_back("Group Key: " + key_list(keys));
    }
    node->startup_cost = cur.node->total_cost + in_rows * kCpuOperatorCost;
    node->total_cost = node->startup_cost + node->rows * kCpuTupleCost;
    node->width = 8 * static_cast<int>(agg->keys.size() + agg->aggregates.size());
    if (having != nullptr) node->details.push_back("Filter: " + ExprToString(**having));
    // The columns above that hold an aggregate's result show it in EXPLAIN.
    std::vector<std::string> labels;
    for (const BoundExprPtr& a : agg->aggregates) labels.push_back("(" + ExprToString(*a) + ")");
    const int first = static_cast<int>(agg->keys.size());
    for (BoundExprPtr& p : projections) NameColumns(p.get(), first, labels);
    for (BoundExprPtr& w : windows) NameColumns(w.get(), first, labels);
    for (BoundExprPtr& f : set_functions) NameColumns(f.get(), first, labels);
    OperatorPtr op =
        sets ? OperatorPtr(std::make_unique<GroupingSetsAggregateOp>(
                   std::move(cur.op), std::move(agg->keys), std::move(agg->grouping_sets),
                   std::move(agg->aggregates)))
             : OperatorPtr(std::make_unique<HashAggregateOp>(
                   std::move(cur.op), std::move(agg->keys), std::move(agg->aggregates), scalar));
    if (!sets && !scalar)
      static_cast<HashAggregateOp*>(op.get())->CarryDependentKeys(agg->dependent);
    if (having != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(*having));
    cur = b.Make(std::move(op), std::move(node), {&cur});
  }
  if (!windows.empty()) {
    MERIDIAN_ASSIGN_OR_RETURN(cur, PlanWindows(std::move(cur), &windows, lb.window->input,
                                               &set_functions, &projections, &b));
  }
  if (!set_functions.empty()) {
    // PostgreSQL's ProjectSet: its estimate is 10 rows per input row here (PostgreSQL
    // reads prorows, 100 or 1000, from pg_proc).
    auto node = std::make_unique<PlanNode>();
    node->label = "ProjectSet";
    node->rows = cur.node->rows * 10;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost = cur.node->total_cost + node->rows * kCpuOperatorCost;
    std::vector<std::string> labels;
    for (const BoundExprPtr& f : set_functions) labels.push_back(ExprToString(*f));
    for (BoundExprPtr& p : projections) NameColumns(p.get(), lb.project_set->input, labels);
    OperatorPtr op = std::make_unique<ProjectSetOp>(std::move(cur.op), std::move(set_functions));
    cur = b.Make(std::move(op), std::move(node), {&cur});
  }
  const size_t total = projections.size();
  const size_t visible = lb.project->visible;
  std::string sort_keys;
  for (size_t i = 0; i < order_by.size(); ++i) {
    const SortKey& k = order_by[i];
    sort_keys += (i ? ", " : "") +
                 SortKeyText(ExprToString(*projections[k.column]), k.descending, k.nulls_first);
  }
  std::vector<Type> out_types;
  for (const auto& p : projections) out_types.push_back(p->type);
  if (ExplainSubplans::Active() != nullptr) {
    // EXPLAIN numbers the select list's subqueries too (no Output lines name them: they print
    // under the top node).
    for (const auto& p : projections) (void)ExprToString(*p);
  }
  cur.op = std::make_unique<ProjectOp>(std::move(cur.op), std::move(projections));
  cur.node->width = RowWidth(out_types);
  if (distinct) {
    auto node = std::make_unique<PlanNode>();
    node->label = "HashAggregate";
    node->details.push_back("Group Key: (all output columns)");
    node->rows = cur.node->rows;
    node->startup_cost = cur.node->total_cost + cur.node->rows * kCpuOperatorCost;
    node->total_cost = node->startup_cost;
    node->width = cur.node->width;
    cur = b.Make(std::make_unique<DistinctOp>(std::move(cur.op), lb.distinct->visible),
                 std::move(node), {&cur});
  }
  cur = SortAndLimit(std::move(cur), lb, sort_keys, ordered_by_index, &b);
  if (total > visible) cur.op = std::make_unique<TrimOp>(std::move(cur.op), visible);
  return cur;
}

Built SortAndLimit(Built cur, const LogicalBlock& lb, const std::string& sort_keys, bool ordered,
                   Builder* b) {
  if (lb.sort != nullptr && !ordered) {
    auto node = std::make_unique<PlanNode>();
    node->label = "Sort";
    node->details.push_back("Sort Key: " + sort_keys);
    node->rows = cur.node->rows;
    node->startup_cost = cur.node->total_cost + SortCost(cur.node->rows);
    node->total_cost = node->startup_cost + cur.node->rows * kCpuOperatorCost;
    node->width = cur.node->width;
    cur = b->Make(std::make_unique<SortOp>(std::move(cur.op), lb.sort->keys), std::move(node),
                  {&cur});
  }
  if (lb.distinct_on != nullptr) {  // the first row of each run of equal DISTINCT ON keys
    auto node = std::make_unique<PlanNode>();
    node->label = "Unique";
    node->rows = std::max(1.0, cur.node->rows / 10);
    node->startup_cost = cur.node->startup_cost;
    node->total_cost = cur.node->total_cost + cur.node->rows * kCpuOperatorCost;
    node->width = cur.node->width;
    cur = b->Make(std::make_unique<DistinctOnOp>(std::move(cur.op), lb.distinct_on->columns),
                  std::move(node), {&cur});
  }
  if (lb.limit != nullptr) {
    auto node = std::make_unique<PlanNode>();
    node->label = "Limit";
    double n = cur.node->rows;
    const BoundExpr* lim = lb.limit->limit.get();
    if (lim != nullptr && lim->kind == BoundKind::kConst && lim->value.IsInt()) {
      n = std::min(n, static_cast<double>(std::max<int64_t>(0, lim->value.AsInt())));
    }
    node->rows = n;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost =
        cur.node->startup_cost + (cur.node->total_cost - cur.node->startup_cost) *
                                     std::min(1.0, n / std::max(1.0, cur.node->rows));
    node->width = cur.node->width;
    cur = b->Make(std::make_unique<LimitOp>(std::move(cur.op), std::move(lb.limit->limit),
                                            std::move(lb.limit->offset)),
                  std::move(node), {&cur});
  }
  return cur;
}

Result<Built> LowerSetOperation(const LogicalBlock& lb, Builder* b) {
  LogicalSetOperation& set = *lb.set;
  auto input = [&](LogicalOpPtr* side, std::vector<BoundExprPtr> casts) -> Result<Built> {
    MERIDIAN_ASSIGN_OR_RETURN(Built built, LowerBlock(side, b));
    if (!casts.empty())
      built.op = std::make_unique<ProjectOp>(std::move(built.op), std::move(casts));
    return built;
  };
  MERIDIAN_ASSIGN_OR_RETURN(Built cur, input(&set.children[0], std::move(set.left_casts)));
  if (set.recursive) {
    // PostgreSQL's guess for the working table: ten times the non-recursive term's rows.
    set.work_table->estimated_rows = std::max(1.0, 10 * cur.node->rows);
    set.work_table->table = std::make_shared<WorkTable>();
    MERIDIAN_ASSIGN_OR_RETURN(Built right, input(&set.children[1], std::move(set.right_casts)));
    auto node = std::make_unique<PlanNode>();
    node->label = "Recursive Union";
    node->rows = cur.node->rows + 10 * right.node->rows;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost = cur.node->total_cost + 10 * right.node->total_cost;
    node->width = cur.node->width;
    auto op = std::make_unique<RecursiveUnionOp>(std::move(cur.op), std::move(right.op), set.all,
                                                 set.work_table->table);
    cur = b->Make(std::move(op), std::move(node), {&cur, &right});
  } else if (set.children.size() > 1) {
    MERIDIAN_ASSIGN_OR_RETURN(Built right, input(&set.children[1], std::move(set.right_casts)));
    auto node = std::make_unique<PlanNode>();
    const std::string all = set.all ? " All" : "";
    switch (set.op) {
      case ast::SetOp::kUnion:
        node->label = set.all ? "Append" : "HashSetOp Union";
        break;
      case ast::SetOp::kIntersect:
        node->label = "HashSetOp Intersect" + all;
        break;
      default:
        node->label = "HashSetOp Except" + all;
        break;
    }
    const double l = cur.node->rows, r = right.node->rows;
    node->rows = set.op == ast::SetOp::kUnion ? l + r : l;
    node->startup_cost =
        set.op == ast::SetOp::kUnion ? cur.node->startup_cost : right.node->total_cost;
    node->total_cost = cur.node->total_cost + right.node->total_cost + (l + r) * kCpuOperatorCost;
    node->width = cur.node->width;
    OperatorPtr op;
    if (set.op == ast::SetOp::kUnion && !set.all) {
      // Both inputs, then a DistinctOp over whole rows, which spills beyond work_mem.
      op = std::make_unique<DistinctOp>(
          std::make_unique<SetOpOp>(std::move(cur.op), std::move(right.op), set.op, true),
          set.columns.size());
    } else {
      op = std::make_unique<SetOpOp>(std::move(cur.op), std::move(right.op), set.op, set.all);
    }
    cur = b->Make(std::move(op), std::move(node), {&cur, &right});
  }
  std::string sort_keys;
  const std::vector<SortKey> no_keys;
  const std::vector<SortKey>& order_by = lb.sort != nullptr ? lb.sort->keys : no_keys;
  for (size_t i = 0; i < order_by.size(); ++i) {
    const SortKey& k = order_by[i];
    sort_keys += (i ? ", " : "") + set.columns[k.column].name + (k.descending ? " DESC" : "");
  }
  return SortAndLimit(std::move(cur), lb, sort_keys, false, b);
}

}  // namespace

Result<PlannedSelect> LowerLogicalPlan(LogicalPlan* plan, bool instrument) {
  Builder b(instrument);
  MERIDIAN_ASSIGN_OR_RETURN(Built cur, LowerBlock(&plan->root, &b));
  return PlannedSelect{std::move(cur.op), std::move(cur.node)};
}

Result<PlannedSelect> PlanSelectExplained(std::unique_ptr<BoundSelect> select, bool instrument) {
  LogicalPlan plan = BuildLogicalPlan(std::move(select));
  RewriteLogicalPlan(&plan);
  return LowerLogicalPlan(&plan, instrument);
}

Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> select) {
  const size_t width = select->columns.size();
  MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect planned,
                            PlanSelectExplained(std::move(select), /*instrument=*/false));
  planned.root->PruneColumns(std::vector<bool>(width, true));  // the caller reads every column
  return std::move(planned.root);
}

}  // namespace meridian::exec
