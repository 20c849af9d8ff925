// PlanSelect: predicate pushdown, access paths, joins and the SELECT pipeline (see planner.h).
#include <algorithm>
#include <cmath>

#include "execution/grouping_sets.h"
#include "execution/recursive_union.h"
#include "optimizer/access_path.h"
#include "planner/plan_internal.h"
#include "planner/planner.h"

namespace meridian::exec {

double SortCost(double rows) { return 2.0 * kCpuOperatorCost * rows * std::log2(rows + 2); }

namespace {

// ORDER BY (unless an index already delivers it) and LIMIT/OFFSET on top of cur.
Built SortAndLimit(Built cur, BoundSelect* s, const std::string& sort_keys, bool ordered,
                   Builder* b);
Result<PlannedSelect> PlanSetOperation(std::unique_ptr<BoundSelect> s, bool instrument);

// PostgreSQL's remove_useless_groupby_columns: the plain GROUP BY columns whose table's primary
// key the GROUP BY holds (ColumnsDeterminedByGroupBy) are carried beside the hash key.
std::vector<bool> DependentGroupKeys(const BoundSelect& s) {
  std::vector<bool> dependent(s.group_by.size(), false);
  const std::vector<GroupedBy> grouped = ColumnsDeterminedByGroupBy(s);
  for (size_t i = 0; i < s.group_by.size(); ++i) {
    const BoundExpr& g = *s.group_by[i];
    if (g.kind != BoundKind::kColumn || g.depth != 0) continue;
    const auto c = static_cast<size_t>(g.index);
    dependent[i] = c < grouped.size() && grouped[c] == GroupedBy::kKeyed;
  }
  return dependent;
}

// The GROUP BY's distinct key combinations, PostgreSQL's estimate_num_groups in short: the
// product of the keys' distinct counts. A key carried beside the hash key (dependent) or held
// to one value by the WHERE (`key = constant or parameter`, directly or through column
// equalities: its equivalence class) counts 1; a plain column of a FROM table counts its
// ANALYZE distinct count (one more when it has NULLs). Nothing when some key is of none of
// these kinds (the caller keeps its default). Read before FROM planning takes the conjuncts.
std::optional<double> GroupsFromStatistics(const BoundSelect& s,
                                           const std::vector<BoundExprPtr>& conjuncts,
                                           const std::vector<bool>& dependent) {
  if (!s.grouping_sets.empty() || s.group_by.empty()) return std::nullopt;
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
  for (size_t i = 0; i < s.group_by.size(); ++i) {
    if (i < dependent.size() && dependent[i]) continue;
    const int col = column_of(*s.group_by[i]);
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

// SELECT min(c) or max(c) FROM one table [WHERE ...]: nothing else aggregated, grouped,
// windowed or locked; c a plain column of the table.
bool MinMaxFromIndex(const BoundSelect& s) {
  if (s.from.size() != 1 || s.from[0] == nullptr || !s.aggregated || !s.group_by.empty() ||
      s.having != nullptr || !s.windows.empty() || s.distinct || s.rid_table >= 0 ||
      s.aggregates.size() != 1) {
    return false;
  }
  const BoundExpr& a = *s.aggregates[0];
  if (a.kind != BoundKind::kAggregate || (a.agg != AggFunc::kMin && a.agg != AggFunc::kMax) ||
      a.has_filter || !a.agg_order.empty() || a.children.size() != 1) {
    return false;
  }
  const BoundExpr& c = *a.children[0];
  return c.kind == BoundKind::kColumn && c.depth == 0 && KeyFamily(c.type) != 0;
}

}  // namespace

Result<PlannedSelect> PlanSelectExplained(std::unique_ptr<BoundSelect> s, bool instrument) {
  if (s->set_op != ast::SetOp::kNone) return PlanSetOperation(std::move(s), instrument);
  Builder b(instrument);
  Built cur;
  bool ordered_by_index = false;
  // GROUP BY items the aggregate carries beside its key (read before FROM planning takes the
  // derived tables).
  const std::vector<bool> dependent = s->aggregated ? DependentGroupKeys(*s) : std::vector<bool>();

  // Which columns of the joined row the query reads.
  int total_cols = 0;
  for (size_t t = 0; t < s->from.size(); ++t) {
    total_cols += static_cast<int>(s->from[t] != nullptr ? s->from[t]->types().size()
                                                         : s->derived[t]->columns.size());
  }
  if (s->rid_table >= 0) ++total_cols;  // the target's rid (UPDATE ... FROM)
  std::vector<bool> used(static_cast<size_t>(total_cols), false);
  bool all_used = false;
  std::vector<BoundExprPtr> conjuncts = SplitConjuncts(std::move(s->where));
  if (s->aggregated) {
    for (const auto& g : s->group_by) CollectColumns(*g, &used, &all_used);
    for (const auto& a : s->aggregates) CollectColumns(*a, &used, &all_used);
    if (s->having) CollectColumns(*s->having, &used, &all_used);
  } else {
    for (const auto& p : s->projections) CollectColumns(*p, &used, &all_used);
    for (const auto& w : s->windows) CollectColumns(*w, &used, &all_used);
    for (const auto& f : s->set_functions) CollectColumns(*f, &used, &all_used);
  }
  for (const auto& c : conjuncts) CollectColumns(*c, &used, &all_used);
  const std::optional<double> stats_groups =
      s->aggregated ? GroupsFromStatistics(*s, conjuncts, dependent) : std::nullopt;

  if (s->from.empty()) {
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
    if (s->from.size() == 1 && !s->aggregated && !s->distinct && s->windows.empty() &&
        s->set_functions.empty() && !s->order_by.empty()) {
      for (const SortKey& k : s->order_by) {
        const BoundExpr& p = *s->projections[k.column];
        if (p.kind != BoundKind::kColumn || p.depth != 0 || k.nulls_first != k.descending) {
          wanted.clear();
          break;
        }
        wanted.push_back({p.index, k.descending});
      }
      // With a LIMIT, index order (wanted) or an R-tree's distance order (FromPlanner::Scan
      // looks at the one ORDER BY key) may save the sort.
      if (s->limit != nullptr && s->limit->kind == BoundKind::kConst && s->limit->value.IsInt()) {
        double skip = 0;
        if (s->offset != nullptr && s->offset->kind == BoundKind::kConst &&
            s->offset->value.IsInt()) {
          skip = static_cast<double>(s->offset->value.AsInt());
        }
        limit = static_cast<double>(s->limit->value.AsInt()) + skip;
      }
    }
    // min(c) / max(c) alone over one table (PostgreSQL's planagg): the first non-NULL c in
    // an index's order, when some index delivers it, is the answer; the aggregate stays on
    // top (NULL for no row). Costed as any ORDER BY c LIMIT 1.
    const bool min_max = MinMaxFromIndex(*s);
    if (min_max) {
      const BoundExpr& arg = *s->aggregates[0]->children[0];
      wanted = {{arg.index, s->aggregates[0]->agg == AggFunc::kMax}};
      limit = 1;
      BoundExprPtr not_null = BoundExpr::Make(BoundKind::kIsNull, Type::Boolean(), 0);
      not_null->negated = true;
      not_null->children.push_back(BoundExpr::Column(0, arg.index, arg.type, arg.name));
      conjuncts.push_back(std::move(not_null));
    }
    FromPlanner from(s.get(), &b, used, all_used);
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

  if (s->aggregated) {
    bool scalar = s->group_by.empty();
    const bool sets = !s->grouping_sets.empty();
    auto node = std::make_unique<PlanNode>();
    node->label = scalar ? "Aggregate" : "HashAggregate";
    auto key_list = [&](const std::vector<int>& keys) {
      std::string text;
      for (size_t i = 0; i < keys.size(); ++i) {
        text += (i ? ", " : "") + ExprToString(*s->group_by[static_cast<size_t>(keys[i])]);
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
      for (const std::vector<int>& set : s->grouping_sets) {
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
      for (size_t i = 0; i < s->group_by.size(); ++i) {
        if (!dependent[i]) keys.push_back(static_cast<int>(i));
      }
      node->details.push_back("Group Key: " + key_list(keys));
    }
    node->startup_cost = cur.node->total_cost + in_rows * kCpuOperatorCost;
    node->total_cost = node->startup_cost + node->rows * kCpuTupleCost;
    node->width = 8 * static_cast<int>(s->group_by.size() + s->aggregates.size());
    if (s->having != nullptr) node->details.push_back("Filter: " + ExprToString(*s->having));
    // The columns above that hold an aggregate's result show it in EXPLAIN.
    std::vector<std::string> labels;
    for (const BoundExprPtr& a : s->aggregates) labels.push_back("(" + ExprToString(*a) + ")");
    const int first = static_cast<int>(s->group_by.size());
    for (BoundExprPtr& p : s->projections) NameColumns(p.get(), first, labels);
    for (BoundExprPtr& w : s->windows) NameColumns(w.get(), first, labels);
    for (BoundExprPtr& f : s->set_functions) NameColumns(f.get(), first, labels);
    OperatorPtr op =
        sets ? OperatorPtr(std::make_unique<GroupingSetsAggregateOp>(
                   std::move(cur.op), std::move(s->group_by), std::move(s->grouping_sets),
                   std::move(s->aggregates)))
             : OperatorPtr(std::make_unique<HashAggregateOp>(
                   std::move(cur.op), std::move(s->group_by), std::move(s->aggregates), scalar));
    if (!sets && !scalar) static_cast<HashAggregateOp*>(op.get())->CarryDependentKeys(dependent);
    if (s->having != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(s->having));
    cur = b.Make(std::move(op), std::move(node), {&cur});
  }
  if (!s->windows.empty()) {
    MERIDIAN_ASSIGN_OR_RETURN(cur, PlanWindows(std::move(cur), s.get(), &b));
  }
  if (!s->set_functions.empty()) {
    // PostgreSQL's ProjectSet: its estimate is 10 rows per input row here (PostgreSQL
    // reads prorows, 100 or 1000, from pg_proc).
    auto node = std::make_unique<PlanNode>();
    node->label = "ProjectSet";
    node->rows = cur.node->rows * 10;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost = cur.node->total_cost + node->rows * kCpuOperatorCost;
    std::vector<std::string> labels;
    for (const BoundExprPtr& f : s->set_functions) labels.push_back(ExprToString(*f));
    for (BoundExprPtr& p : s->projections) NameColumns(p.get(), s->set_input, labels);
    OperatorPtr op = std::make_unique<ProjectSetOp>(std::move(cur.op), std::move(s->set_functions));
    cur = b.Make(std::move(op), std::move(node), {&cur});
  }
  const size_t total = s->projections.size();
  std::string sort_keys;
  for (size_t i = 0; i < s->order_by.size(); ++i) {
    const SortKey& k = s->order_by[i];
    sort_keys += (i ? ", " : "") +
                 SortKeyText(ExprToString(*s->projections[k.column]), k.descending, k.nulls_first);
  }
  std::vector<Type> out_types;
  for (const auto& p : s->projections) out_types.push_back(p->type);
  if (ExplainSubplans::Active() != nullptr) {
    // EXPLAIN numbers the select list's subqueries too (no Output lines name them: they print
    // under the top node).
    for (const auto& p : s->projections) (void)ExprToString(*p);
  }
  cur.op = std::make_unique<ProjectOp>(std::move(cur.op), std::move(s->projections));
  cur.node->width = RowWidth(out_types);
  if (s->distinct) {
    auto node = std::make_unique<PlanNode>();
    node->label = "HashAggregate";
    node->details.push_back("Group Key: (all output columns)");
    node->rows = cur.node->rows;
    node->startup_cost = cur.node->total_cost + cur.node->rows * kCpuOperatorCost;
    node->total_cost = node->startup_cost;
    node->width = cur.node->width;
    cur = b.Make(std::make_unique<DistinctOp>(std::move(cur.op), s->visible), std::move(node),
                 {&cur});
  }
  cur = SortAndLimit(std::move(cur), s.get(), sort_keys, ordered_by_index, &b);
  if (total > s->visible) cur.op = std::make_unique<TrimOp>(std::move(cur.op), s->visible);
  return PlannedSelect{std::move(cur.op), std::move(cur.node)};
}

namespace {

Built SortAndLimit(Built cur, BoundSelect* s, const std::string& sort_keys, bool ordered,
                   Builder* b) {
  if (!s->order_by.empty() && !ordered) {
    auto node = std::make_unique<PlanNode>();
    node->label = "Sort";
    node->details.push_back("Sort Key: " + sort_keys);
    node->rows = cur.node->rows;
    node->startup_cost = cur.node->total_cost + SortCost(cur.node->rows);
    node->total_cost = node->startup_cost + cur.node->rows * kCpuOperatorCost;
    node->width = cur.node->width;
    cur =
        b->Make(std::make_unique<SortOp>(std::move(cur.op), s->order_by), std::move(node), {&cur});
  }
  if (!s->distinct_on.empty()) {  // the first row of each run of equal DISTINCT ON keys
    auto node = std::make_unique<PlanNode>();
    node->label = "Unique";
    node->rows = std::max(1.0, cur.node->rows / 10);
    node->startup_cost = cur.node->startup_cost;
    node->total_cost = cur.node->total_cost + cur.node->rows * kCpuOperatorCost;
    node->width = cur.node->width;
    cur = b->Make(std::make_unique<DistinctOnOp>(std::move(cur.op), s->distinct_on),
                  std::move(node), {&cur});
  }
  if (s->limit != nullptr || s->offset != nullptr) {
    auto node = std::make_unique<PlanNode>();
    node->label = "Limit";
    double n = cur.node->rows;
    if (s->limit != nullptr && s->limit->kind == BoundKind::kConst && s->limit->value.IsInt()) {
      n = std::min(n, static_cast<double>(std::max<int64_t>(0, s->limit->value.AsInt())));
    }
    node->rows = n;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost =
        cur.node->startup_cost + (cur.node->total_cost - cur.node->startup_cost) *
                                     std::min(1.0, n / std::max(1.0, cur.node->rows));
    node->width = cur.node->width;
    cur = b->Make(
        std::make_unique<LimitOp>(std::move(cur.op), std::move(s->limit), std::move(s->offset)),
        std::move(node), {&cur});
  }
  return cur;
}

Result<PlannedSelect> PlanSetOperation(std::unique_ptr<BoundSelect> s, bool instrument) {
  Builder b(instrument);
  auto input = [&](std::unique_ptr<BoundSelect> side,
                   std::vector<BoundExprPtr> casts) -> Result<Built> {
    MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect p, PlanSelectExplained(std::move(side), instrument));
    Built built{std::move(p.root), std::move(p.explain)};
    if (!casts.empty())
      built.op = std::make_unique<ProjectOp>(std::move(built.op), std::move(casts));
    return built;
  };
  MERIDIAN_ASSIGN_OR_RETURN(Built cur, input(std::move(s->set_left), std::move(s->left_casts)));
  if (s->recursive) {
    // PostgreSQL's guess for the working table: ten times the non-recursive term's rows.
    s->work_table->estimated_rows = std::max(1.0, 10 * cur.node->rows);
    s->work_table->table = std::make_shared<WorkTable>();
    MERIDIAN_ASSIGN_OR_RETURN(Built right,
                              input(std::move(s->set_right), std::move(s->right_casts)));
    auto node = std::make_unique<PlanNode>();
    node->label = "Recursive Union";
    node->rows = cur.node->rows + 10 * right.node->rows;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost = cur.node->total_cost + 10 * right.node->total_cost;
    node->width = cur.node->width;
    auto op = std::make_unique<RecursiveUnionOp>(std::move(cur.op), std::move(right.op), s->set_all,
                                                 s->work_table->table);
    cur = b.Make(std::move(op), std::move(node), {&cur, &right});
  } else if (s->set_right != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(Built right,
                              input(std::move(s->set_right), std::move(s->right_casts)));
    auto node = std::make_unique<PlanNode>();
    const std::string all = s->set_all ? " All" : "";
    switch (s->set_op) {
      case ast::SetOp::kUnion:
        node->label = s->set_all ? "Append" : "HashSetOp Union";
        break;
      case ast::SetOp::kIntersect:
        node->label = "HashSetOp Intersect" + all;
        break;
      default:
        node->label = "HashSetOp Except" + all;
        break;
    }
    const double l = cur.node->rows, r = right.node->rows;
    node->rows = s->set_op == ast::SetOp::kUnion ? l + r : l;
    node->startup_cost =
        s->set_op == ast::SetOp::kUnion ? cur.node->startup_cost : right.node->total_cost;
    node->total_cost = cur.node->total_cost + right.node->total_cost + (l + r) * kCpuOperatorCost;
    node->width = cur.node->width;
    OperatorPtr op;
    if (s->set_op == ast::SetOp::kUnion && !s->set_all) {
      // Both inputs, then a DistinctOp over whole rows, which spills beyond work_mem.
      op = std::make_unique<DistinctOp>(
          std::make_unique<SetOpOp>(std::move(cur.op), std::move(right.op), s->set_op, true),
          s->columns.size());
    } else {
      op = std::make_unique<SetOpOp>(std::move(cur.op), std::move(right.op), s->set_op, s->set_all);
    }
    cur = b.Make(std::move(op), std::move(node), {&cur, &right});
  }
  std::string sort_keys;
  for (size_t i = 0; i < s->order_by.size(); ++i) {
    const SortKey& k = s->order_by[i];
    sort_keys += (i ? ", " : "") + s->columns[k.column].name + (k.descending ? " DESC" : "");
  }
  cur = SortAndLimit(std::move(cur), s.get(), sort_keys, false, &b);
  return PlannedSelect{std::move(cur.op), std::move(cur.node)};
}

}  // namespace

Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> select) {
  const size_t width = select->columns.size();
  MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect planned,
                            PlanSelectExplained(std::move(select), /*instrument=*/false));
  planned.root->PruneColumns(std::vector<bool>(width, true));  // the caller reads every column
  return std::move(planned.root);
}

}  // namespace meridian::exec
