// FromPlanner: FROM scans with pushed-down conjuncts, inner-join groups in the order
// ChooseJoinOrder picks, outer joins in place, each join by nested loop, hash join or index
// nested-loop join (by estimated cost), plus the Builder and expression helpers of
// plan_internal.h.
#include <algorithm>
#include <cmath>

#include "execution/recursive_union.h"
#include "optimizer/equivalence.h"
#include "planner/plan_internal.h"
#include "planner/planner.h"

namespace meridian::exec {

namespace {

JoinKind KindOf(ast::JoinType t) {
  switch (t) {
    case ast::JoinType::kLeft:
      return JoinKind::kLeft;
    case ast::JoinType::kRight:
      return JoinKind::kRight;
    case ast::JoinType::kFull:
      return JoinKind::kFull;
    default:
      return JoinKind::kInner;
  }
}

std::string JoinSuffix(JoinKind k) {
  switch (k) {
    case JoinKind::kLeft:
      return " Left Join";
    case JoinKind::kRight:
      return " Right Join";
    case JoinKind::kFull:
      return " Full Join";
    case JoinKind::kInner:
      break;
  }
  return "";
}

// Rescan side of an index nested-loop join runs one level deeper: the left row becomes its
// outer row. from_left: depth-0 references are the left row's (→ depth 1); references to
// enclosing queries go one level further out either way.
void ShiftForRescan(BoundExpr* e, bool from_left) {
  if (e->kind == BoundKind::kColumn && (e->depth > 0 || from_left)) ++e->depth;
  for (BoundExprPtr& c : e->children) ShiftForRescan(c.get(), from_left);
}

}  // namespace

Built Builder::Make(OperatorPtr op, std::unique_ptr<PlanNode> node, std::vector<Built*> children) {
  for (Built* c : children) node->children.push_back(std::move(c->node));
  if (instrument_) op = std::make_unique<InstrumentOp>(std::move(op), &node->actual);
  return {std::move(op), std::move(node)};
}

void CollectColumns(const BoundExpr& e, std::vector<bool>* used, bool* all) {
  if (e.kind == BoundKind::kColumn && e.depth == 0) {
    if (static_cast<size_t>(e.index) < used->size()) (*used)[e.index] = true;
  }
  if (e.subquery != nullptr && e.subquery->correlated) *all = true;
  for (const BoundExprPtr& c : e.children) CollectColumns(*c, used, all);
}

namespace {

void CollectColumnsAt(const BoundExpr& e, int depth, std::vector<bool>* used, bool* all) {
  if (e.kind == BoundKind::kColumn && e.depth == depth) {
    if (static_cast<size_t>(e.index) < used->size()) (*used)[e.index] = true;
  }
  if (e.subquery != nullptr && e.subquery->correlated) *all = true;
  for (const BoundExprPtr& c : e.children) CollectColumnsAt(*c, depth, used, all);
}

}  // namespace

void CollectOuterColumns(const BoundSelect& s, int depth, std::vector<bool>* used, bool* all) {
  auto expr = [&](const BoundExprPtr& e) {
    if (e != nullptr) CollectColumnsAt(*e, depth, used, all);
  };
  auto exprs = [&](const std::vector<BoundExprPtr>& list) {
    for (const BoundExprPtr& e : list) expr(e);
  };
  expr(s.function);
  expr(s.where);
  expr(s.having);
  expr(s.limit);
  expr(s.offset);
  exprs(s.join_on);
  exprs(s.group_by);
  exprs(s.aggregates);
  exprs(s.windows);
  exprs(s.projections);
  // FROM subqueries and set operation inputs bind at s's level; a LATERAL item one deeper.
  for (size_t i = 0; i < s.derived.size(); ++i) {
    if (s.derived[i] != nullptr) {
      CollectOuterColumns(*s.derived[i], depth + (s.IsLateral(i) ? 1 : 0), used, all);
    }
  }
  if (s.set_left != nullptr) CollectOuterColumns(*s.set_left, depth, used, all);
  if (s.set_right != nullptr) CollectOuterColumns(*s.set_right, depth, used, all);
}

void Rebase(BoundExpr* e, int offset) {
  if (e->kind == BoundKind::kColumn && e->depth == 0) e->index -= offset;
  for (BoundExprPtr& c : e->children) Rebase(c.get(), offset);
}

void Remap(BoundExpr* e, const std::vector<int>& pos) {
  if (e->kind == BoundKind::kColumn && e->depth == 0) e->index = pos[e->index];
  for (BoundExprPtr& c : e->children) Remap(c.get(), pos);
}

std::string Conditions(const std::vector<BoundExprPtr>& conds) {
  std::string out;
  for (size_t i = 0; i < conds.size(); ++i) {
    if (i > 0) out += " AND ";
    out += ExprToString(*conds[i]);
  }
  return conds.size() > 1 ? "(" + out + ")" : out;
}

void AddFilterLine(PlanNode* node, const std::vector<BoundExprPtr>& conds) {
  if (conds.empty()) return;
  const bool had = !node->filter.empty();
  for (const BoundExprPtr& c : conds) node->filter.push_back(ExprToString(*c));
  std::string line = "Filter: ";
  if (node->filter.size() > 1) line += "(";
  for (size_t i = 0; i < node->filter.size(); ++i) line += (i ? " AND " : "") + node->filter[i];
  if (node->filter.size() > 1) line += ")";
  if (had) {
    for (std::string& d : node->details) {
      if (d.starts_with("Filter: ")) {
        d = std::move(line);
        return;
      }
    }
  }
  node->details.push_back(std::move(line));
}

FromPlanner::FromPlanner(BoundSelect* s, Builder* builder, std::vector<bool> used, bool all_used,
                         std::vector<ast::JoinType> join_types, std::vector<BoundExprPtr> join_on,
                         const std::vector<SortKey>& order_by,
                         const std::vector<BoundExprPtr>& projections)
    : s_(s),
      b_(builder),
      join_types_(std::move(join_types)),
      join_on_(std::move(join_on)),
      order_by_(order_by),
      projections_(projections),
      used_(std::move(used)),
      all_used_(all_used) {
  int total = 0;
  for (size_t t = 0; t < s_->from.size(); ++t) {
    offsets_.push_back(total);
    const int width = static_cast<int>(s_->from[t] != nullptr ? s_->from[t]->types().size()
                                                              : s_->derived[t]->columns.size());
    for (int c = 0; c < width; ++c) {
      column_types_.push_back(s_->from[t] != nullptr ? s_->from[t]->types()[c]
                                                     : s_->derived[t]->columns[c].type);
      table_of_.push_back(static_cast<int>(t));
    }
    widths_.push_back(width);
    if (static_cast<int>(t) == s_->rid_table) {  // its scan appends the rid (RidColumnOp)
      ++widths_.back();
      column_types_.push_back(Type::BigInt());
      table_of_.push_back(static_cast<int>(t));
    }
    total += widths_.back();
  }
  derived_built_.resize(s_->from.size());
  derived_rows_.assign(s_->from.size(), 1);
  used_.resize(static_cast<size_t>(total), false);
  for (const BoundExprPtr& on : join_on_) {
    if (on != nullptr) CollectColumns(*on, &used_, &all_used_);
  }
  // A LATERAL item reads the items before it as its depth-1 row.
  for (size_t t = 0; t < s_->from.size(); ++t) {
    if (s_->IsLateral(t)) CollectOuterColumns(*s_->derived[t], 1, &used_, &all_used_);
  }
}

std::vector<bool> FromPlanner::TablesOf(const BoundExpr& c, bool* correlated) const {
  std::vector<bool> cols(used_.size(), false);
  CollectColumns(c, &cols, correlated);
  std::vector<bool> tables(s_->from.size(), false);
  for (size_t t = 0; t < s_->from.size(); ++t) {
    for (int col = offsets_[t]; col < offsets_[t] + widths_[t]; ++col) {
      if (cols[col]) tables[t] = true;
    }
  }
  return tables;
}

Result<Built> FromPlanner::Plan(std::vector<BoundExprPtr> where,
                                const std::vector<AccessPlan::OrderColumn>& wanted,
                                std::optional<double> limit, bool* ordered) {
  const size_t n = s_->from.size();
  auto kind_of = [&](size_t i) {
    return i == 0 || i >= join_types_.size() ? JoinKind::kInner : KindOf(join_types_[i]);
  };
  // ON of an inner join is more WHERE, but holds below the outer joins after it: limit is
  // the last FROM item whose outer join can NULL-extend the conjunct's tables (WHERE: all).
  // An outer join keeps its ON for itself.
  struct Conjunct {
    BoundExprPtr expr;
    size_t limit;
  };
  std::vector<Conjunct> conjuncts;
  for (BoundExprPtr& c : where) conjuncts.push_back({std::move(c), n - 1});
  std::vector<std::vector<BoundExprPtr>> outer_on(n);
  for (size_t i = 0; i < n && i < join_on_.size(); ++i) {
    if (join_on_[i] == nullptr) continue;
    std::vector<BoundExprPtr> conj = SplitConjuncts(std::move(join_on_[i]));
    if (kind_of(i) == JoinKind::kInner) {
      for (BoundExprPtr& c : conj) conjuncts.push_back({std::move(c), i});
    } else {
      outer_on[i] = std::move(conj);
    }
  }
  // The last outer join up to item limit that NULL-extends table t (-1: none). A conjunct
  // reading t holds only from that join on (below it, it would drop rows the outer join keeps).
  auto extended_by = [&](size_t t, size_t limit) {
    int last_join = -1;
    for (size_t i = 1; i <= limit; ++i) {
      const JoinKind k = kind_of(i);
      if (((k == JoinKind::kLeft || k == JoinKind::kFull) && i == t) ||
          ((k == JoinKind::kRight || k == JoinKind::kFull) && t < i)) {
        last_join = static_cast<int>(i);
      }
    }
    return last_join;
  };
  // Equalities implied by the others (equivalence.h), from the conjuncts that hold for every
  // result row: none reads a table an outer join NULL-extends, none holds a subquery.
  {
    std::vector<const BoundExpr*> exprs;
    std::vector<bool> eligible;
    for (const Conjunct& c : conjuncts) {
      bool correlated = false;
      std::vector<bool> tables = TablesOf(*c.expr, &correlated);
      bool ok = !correlated && !c.expr->ContainsSubquery();
      for (size_t t = 0; ok && t < n; ++t) ok = !tables[t] || extended_by(t, n - 1) < 0;
      exprs.push_back(c.expr.get());
      eligible.push_back(ok);
    }
    DerivedEqualities derived = DeriveEqualities(exprs, eligible);
    std::vector<Conjunct> kept;
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (!derived.drop[i]) kept.push_back(std::move(conjuncts[i]));
    }
    for (BoundExprPtr& e : derived.added) kept.push_back({std::move(e), n - 1});
    conjuncts = std::move(kept);
  }
  // after_outer[i]: filters right after outer join i; before_outer[i]: right before it.
  std::vector<std::vector<BoundExprPtr>> pushed(n), outer_step(n), after_outer(n), before_outer(n);
  // A LEFT join's ON `inner = outer` with `outer = constant` holding for every result row
  // also filters the NULL-extended side by `inner = constant` (PostgreSQL's outer-join
  // equivalence): a row of it can only match outer rows that the WHERE keeps.
  {
    std::vector<const BoundExpr*> constant_of(used_.size(), nullptr);
    for (const Conjunct& c : conjuncts) {
      const BoundExpr& e = *c.expr;
      if (e.kind != BoundKind::kBinary || e.binary_op != ast::BinaryOp::kEq) continue;
      for (int s = 0; s < 2; ++s) {
        const BoundExpr& col = *e.children[s];
        const BoundExpr& k = *e.children[1 - s];
        if (col.kind != BoundKind::kColumn || col.depth != 0 ||
            (k.kind != BoundKind::kConst && k.kind != BoundKind::kParam) ||
            KeyFamily(col.type) == 0 || KeyFamily(col.type) != KeyFamily(k.type) ||
            extended_by(static_cast<size_t>(table_of_[col.index]), n - 1) >= 0) {
          continue;
        }
        constant_of[col.index] = &k;
      }
    }
    for (size_t i = 1; i < n; ++i) {
      if (kind_of(i) != JoinKind::kLeft) continue;
      for (const BoundExprPtr& c : outer_on[i]) {
        if (c->kind != BoundKind::kBinary || c->binary_op != ast::BinaryOp::kEq) continue;
        for (int s = 0; s < 2; ++s) {
          const BoundExpr& in = *c->children[s];
          const BoundExpr& out = *c->children[1 - s];
          if (in.kind != BoundKind::kColumn || in.depth != 0 || out.kind != BoundKind::kColumn ||
              out.depth != 0 || table_of_[in.index] != static_cast<int>(i) ||
              table_of_[out.index] >= static_cast<int>(i) || in.type != out.type ||
              constant_of[out.index] == nullptr) {
            continue;
          }
          const BoundExpr& k = *constant_of[out.index];
          BoundExprPtr eq = BoundExpr::Make(BoundKind::kBinary, Type::Boolean(), c->position);
          eq->binary_op = ast::BinaryOp::kEq;
          eq->children.push_back(BoundExpr::Column(0, in.index - offsets_[i], in.type, in.name));
          BoundExprPtr value = BoundExpr::Make(k.kind, k.type, k.position);
          value->value = k.value;
          value->index = k.index;
          eq->children.push_back(std::move(value));
          pushed[i].push_back(std::move(eq));
        }
      }
    }
  }
  std::vector<Cond> conds;         // for the inner-join groups
  std::vector<BoundExprPtr> last;  // must wait until every join is done
  for (Conjunct& conjunct : conjuncts) {
    BoundExprPtr& c = conjunct.expr;
    bool correlated = false;
    std::vector<bool> tables = TablesOf(*c, &correlated);
    if (correlated) {
      // Its subquery reads the FROM-order row: it waits until the row is put back in order,
      // before the first RIGHT or FULL join after its own join, or at the end.
      size_t j = conjunct.limit + 1;
      while (j < n && kind_of(j) != JoinKind::kRight && kind_of(j) != JoinKind::kFull) ++j;
      (j < n ? before_outer[j] : last).push_back(std::move(c));
      continue;
    }
    int count = 0, first = -1, need = -1;
    bool touches_nullable = false;
    if (std::find(tables.begin(), tables.end(), true) == tables.end()) {
      tables[0] = true;  // a constant condition goes with the first table
    }
    for (size_t t = 0; t < n; ++t) {
      if (!tables[t]) continue;
      ++count;
      if (first < 0) first = static_cast<int>(t);
      const int ext = extended_by(t, conjunct.limit);
      need = std::max({need, static_cast<int>(t), ext});
      touches_nullable |= ext >= 0;
    }
    if (count == 1 && !touches_nullable) {
      Rebase(c.get(), offsets_[first]);
      pushed[first].push_back(std::move(c));
    } else if (kind_of(static_cast<size_t>(need)) != JoinKind::kInner) {
      after_outer[need].push_back(std::move(c));  // reads only tables up to that outer join
    } else {
      conds.push_back({std::move(c), std::move(tables), static_cast<size_t>(need)});
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (BoundExprPtr& c : outer_on[i]) {
      bool correlated = false;
      std::vector<bool> tables = TablesOf(*c, &correlated);
      bool only_right = tables[i];
      for (size_t t = 0; t < n; ++t) only_right &= (t == i) || !tables[t];
      // Filtering the NULL-extended side of a LEFT join before joining is the same as in ON.
      if (!correlated && only_right && kind_of(i) == JoinKind::kLeft) {
        Rebase(c.get(), offsets_[i]);
        pushed[i].push_back(std::move(c));
      } else {
        outer_step[i].push_back(std::move(c));
      }
    }
  }
  if (ordered != nullptr) *ordered = false;
  Partial cur;
  if (n == 1) {
    MERIDIAN_ASSIGN_OR_RETURN(cur.built, Scan(0, std::move(pushed[0]), wanted, limit, ordered));
    cur.layout = {0};
  }
  // Relations of one group are bits of a 64-bit set (the prefix takes one).
  constexpr size_t kMaxGroup = 63;
  for (size_t i = n == 1 ? 1 : 0; i < n;) {
    if (s_->IsLateral(i)) {
      std::vector<BoundExprPtr> step;
      if (kind_of(i) == JoinKind::kInner) {
        for (Cond& c : conds) {
          if (c.done || c.need != i) continue;
          c.done = true;
          step.push_back(std::move(c.expr));
        }
      } else {
        step = std::move(outer_step[i]);
      }
      MERIDIAN_RETURN_IF_ERROR(JoinLateral(&cur, i, std::move(pushed[i]), std::move(step)));
      AddFilter(&cur, std::move(after_outer[i]));
      ++i;
      continue;
    }
    if (kind_of(i) == JoinKind::kInner) {
      size_t end = i + 1;
      while (end < n && kind_of(end) == JoinKind::kInner && !s_->IsLateral(end) &&
             end - i < kMaxGroup) {
        ++end;
      }
      MERIDIAN_RETURN_IF_ERROR(PlanGroup(&cur, i, end, &pushed, &conds));
      i = end;
      continue;
    }
    // An outer join: the tables before it in FROM order on the left, its own table on the
    // right, by the cheapest method its kind allows.
    RestoreOrder(&cur);
    AddFilter(&cur, std::move(before_outer[i]));
    const JoinKind kind = kind_of(i);
    MERIDIAN_ASSIGN_OR_RETURN(JoinRel rel, DescribeTable(i, &pushed[i]));
    std::vector<int> rel_of(n, 0);
    rel_of[i] = 1;
    std::vector<JoinRel> rels(2);
    rels[0].rows = cur.built.node->rows;
    rels[0].cost = cur.built.node->total_cost;
    rels[1] = rel;
    std::vector<JoinPred> preds;
    std::vector<const JoinPred*> applied;
    for (const BoundExprPtr& c : outer_step[i]) preds.push_back(DescribePred(*c, rel_of, rels));
    for (const JoinPred& p : preds) {
      if (p.rels == 3) applied.push_back(&p);
    }
    const double left_rows = std::max(1.0, rels[0].rows);
    const double right_rows = std::max(1.0, rels[1].rows);
    double rows = JoinRows(rels, preds, 3);
    if (kind == JoinKind::kLeft || kind == JoinKind::kFull) rows = std::max(rows, left_rows);
    if (kind == JoinKind::kRight || kind == JoinKind::kFull) rows = std::max(rows, right_rows);
    const JoinStepChoice choice =
        CostJoinStep(1, rels[0].rows, rels[0].cost, rels[1], 1, applied, rows,
                     /*allow_swap=*/false, /*allow_index=*/kind == JoinKind::kLeft);
    MERIDIAN_ASSIGN_OR_RETURN(cur, Join(std::move(cur), i, kind, std::move(pushed[i]),
                                        std::move(outer_step[i]), choice, rows));
    AddFilter(&cur, std::move(after_outer[i]));
    ++i;
  }
  RestoreOrder(&cur);
  {  // a joined semi Apply's SubPlan goes
    std::vector<BoundExprPtr> kept;
    for (BoundExprPtr& c : last) {
      bool joined = false;
      for (const SemiJoin& sj : semis_) joined |= sj.joined && c.get() == sj.predicate;
      if (!joined) kept.push_back(std::move(c));
    }
    last = std::move(kept);
  }
  AddFilter(&cur, std::move(last));
  return std::move(cur.built);
}

Status FromPlanner::JoinLateral(Partial* cur, size_t t, std::vector<BoundExprPtr> pushed,
                                std::vector<BoundExprPtr> conds) {
  // The item's plan reads the row of every FROM item before it, in FROM column order.
  RestoreOrder(cur);
  const JoinKind kind = t < join_types_.size() ? KindOf(join_types_[t]) : JoinKind::kInner;
  MERIDIAN_ASSIGN_OR_RETURN(Built right, DerivedScan(t, std::move(pushed)));
  derived_rows_[t] = right.node->rows;
  Partial out;
  out.layout = cur->layout;
  out.layout.push_back(static_cast<int>(t));
  const std::vector<int> out_pos = Positions(out.layout);
  auto node = std::make_unique<PlanNode>();
  node->label = "Nested Loop" + JoinSuffix(kind);
  if (!conds.empty()) node->details.push_back("Join Filter: " + Conditions(conds));
  for (BoundExprPtr& c : conds) Remap(c.get(), out_pos);
  const double left_rows = std::max(1.0, cur->built.node->rows);
  node->rows = left_rows * std::max(1.0, right.node->rows) *
               std::pow(0.5, static_cast<double>(conds.size()));
  if (kind == JoinKind::kLeft) node->rows = std::max(node->rows, left_rows);
  node->startup_cost = cur->built.node->startup_cost + right.node->startup_cost;
  node->total_cost =
      cur->built.node->total_cost + left_rows * right.node->total_cost + node->rows * kCpuTupleCost;
  node->width = cur->built.node->width + right.node->width;
  auto op = std::make_unique<NestedLoopJoinOp>(
      std::move(cur->built.op), std::move(right.op), kind, JoinConjuncts(std::move(conds)),
      /*rescan=*/true, static_cast<size_t>(LayoutWidth(cur->layout)),
      static_cast<size_t>(widths_[t]));
  out.built = b_->Make(std::move(op), std::move(node), {&cur->built, &right});
  *cur = std::move(out);
  return Status::Ok();
}

void FromPlanner::AddFilter(Partial* p, std::vector<BoundExprPtr> conds) {
  if (conds.empty()) return;
  Built& cur = p->built;
  AddFilterLine(cur.node.get(), conds);
  cur.node->rows = std::max(1.0, cur.node->rows * std::pow(0.5, static_cast<double>(conds.size())));
  cur.op = std::make_unique<FilterOp>(std::move(cur.op), JoinConjuncts(std::move(conds)));
}

void FromPlanner::RestoreOrder(Partial* p) const {
  std::vector<int> sorted = p->layout;
  std::sort(sorted.begin(), sorted.end());
  if (sorted == p->layout) return;
  const std::vector<int> pos = Positions(p->layout);
  std::vector<BoundExprPtr> columns;
  std::vector<uint32_t> slots(static_cast<size_t>(LayoutWidth(p->layout)));
  for (int t : sorted) {
    for (int c = offsets_[t]; c < offsets_[t] + widths_[t]; ++c) {
      slots[static_cast<size_t>(pos[c])] = static_cast<uint32_t>(columns.size());
      columns.push_back(BoundExpr::Column(0, pos[c], column_types_[c], ""));
    }
  }
  // The join on top writes its rows in FROM order itself when it can (no projection pass);
  // else a projection puts them back.
  Operator* top = p->built.op.get();
  bool written_in_order = false;
  if (auto* hash = dynamic_cast<HashJoinOp*>(top)) {
    written_in_order = hash->SetOutputOrder(slots);
  } else if (auto* loop = dynamic_cast<NestedLoopJoinOp*>(top)) {
    written_in_order = loop->SetOutputOrder(slots);
  }
  if (!written_in_order) {
    p->built.op = std::make_unique<ProjectOp>(std::move(p->built.op), std::move(columns));
  }
  p->layout = std::move(sorted);
}

std::vector<int> FromPlanner::Positions(const std::vector<int>& layout) const {
  std::vector<int> pos(used_.size(), -1);
  int next = 0;
  for (int t : layout) {
    for (int c = offsets_[t]; c < offsets_[t] + widths_[t]; ++c) pos[c] = next++;
  }
  return pos;
}

int FromPlanner::TableWidth(size_t t) const {
  return widths_[t] - (static_cast<int>(t) == s_->rid_table ? 1 : 0);
}

int FromPlanner::LayoutWidth(const std::vector<int>& layout) const {
  int w = 0;
  for (int t : layout) w += widths_[t];
  return w;
}

double FromPlanner::Distinct(size_t t, int col) const {
  const catalog::Table* table = s_->from[t].get();
  // A semi join's unique-ified inner side: one row per key (its GROUP BY's groups).
  for (const SemiJoin& sj : semis_) {
    if (sj.item == t) return std::max(1.0, derived_rows_[t]);
  }
  if (table == nullptr) return std::max(1.0, derived_rows_[t] / 10);
  const double table_rows = std::max<double>(1, static_cast<double>(table->live_rows()));
  std::shared_ptr<const catalog::TableStats> stats = table->stats();
  if (col >= 0 && stats != nullptr && static_cast<size_t>(col) < stats->columns.size() &&
      stats->columns[col].distinct >= 1) {
    return std::min(table_rows, stats->columns[col].distinct);
  }
  for (const auto& index : table->IndexSnapshot()) {
    const catalog::IndexSchema& x = index->schema();
    if (x.unique && x.IsPlain() && x.columns.size() == 1 && x.columns[0] == col) {
      return table_rows;
    }
  }
  return std::max(1.0, table_rows / 10);
}

Result<JoinRel> FromPlanner::DescribeTable(size_t t, std::vector<BoundExprPtr>* pushed) {
  JoinRel rel;
  if (s_->from[t] == nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(derived_built_[t], DerivedScan(t, std::move(*pushed)));
    pushed->clear();
    rel.rows = derived_rows_[t] = derived_built_[t].node->rows;
    rel.cost = derived_built_[t].node->total_cost;
    return rel;
  }
  const std::shared_ptr<catalog::Table>& table = s_->from[t];
  AccessRequest req;
  req.table = table;
  req.conjuncts = std::move(*pushed);
  if (!all_used_) {
    req.needed_columns.assign(used_.begin() + offsets_[t],
                              used_.begin() + offsets_[t] + TableWidth(t));
  }
  const AccessEstimate estimate = EstimateAccessPath(req);
  *pushed = std::move(req.conjuncts);
  rel.rows = estimate.rows;
  rel.cost = estimate.total_cost;
  // Columns the pushed filters fix to one value (col = constant, parameter or outer column).
  std::vector<bool> fixed(static_cast<size_t>(widths_[t]), false);
  for (const BoundExprPtr& c : *pushed) {
    if (c->kind != BoundKind::kBinary || c->binary_op != ast::BinaryOp::kEq) continue;
    for (int side = 0; side < 2; ++side) {
      const BoundExpr& col = *c->children[side];
      bool other_reads_row = false, correlated = false;
      std::vector<bool> cols;
      c->children[1 - side]->MarkColumnsRead(&cols, &correlated);
      for (bool b : cols) other_reads_row |= b;
      if (col.kind == BoundKind::kColumn && col.depth == 0 && !other_reads_row && !correlated &&
          !c->children[1 - side]->ContainsSubquery() && col.index < widths_[t]) {
        fixed[col.index] = true;
      }
    }
  }
  const double table_rows = std::max<double>(1, static_cast<double>(table->live_rows()));
  for (const auto& index : table->IndexSnapshot()) {
    const catalog::IndexSchema& x = index->schema();
    // Expression and partial indexes are not probed by joins (only by their own table's
    // conditions, access_path.cc).
    if (!x.IsPlain()) continue;
    if (x.IsRtree()) {
      // Probed by geometric conditions (a point or box column) or by range bounds on its
      // numeric columns from the left rows, never by an equality alone.
      JoinRel::Probe probe;
      probe.column = x.columns[0];
      probe.prefix_rows = table_rows;
      probe.heap_pages = EstimatedHeapPages(*table);
      const std::vector<catalog::Column>& columns = table->schema().columns;
      if (x.columns.size() == 1 && columns[x.columns[0]].type.IsGeometric()) {
        probe.geometry = true;
      } else {
        probe.box_columns = x.columns;
        for (int c : x.columns) probe.open_ok.push_back(columns[c].not_null);
      }
      rel.probes.push_back(std::move(probe));
      continue;
    }
    size_t k = 0;
    while (k + 1 < x.columns.size() && fixed[x.columns[k]]) ++k;
    const int probe = x.columns[k];
    const bool unique_hit = x.unique && k + 1 == x.columns.size();
    // Rows of the filtered scan that share one value of the probe column (an estimate).
    const double per_value =
        k == 0 ? table_rows / Distinct(t, probe)
               : std::max(1.0, rel.rows / std::max(1.0, std::min(rel.rows, Distinct(t, probe))));
    const double prefix_rows = k == 0 ? table_rows : std::max(1.0, rel.rows);
    JoinRel::Probe p;
    p.column = probe;
    p.matched = unique_hit ? 1.0 : per_value;
    p.prefix_rows = prefix_rows;
    rel.probes.push_back(std::move(p));
  }
  return rel;
}

JoinPred FromPlanner::DescribePred(const BoundExpr& c, const std::vector<int>& rel_of,
                                   const std::vector<JoinRel>& rels) const {
  JoinPred p;
  auto rels_of = [&](const BoundExpr& e) {
    bool correlated = false;
    std::vector<bool> tables = TablesOf(e, &correlated);
    uint64_t set = 0;
    for (size_t t = 0; t < tables.size(); ++t) {
      if (tables[t]) set |= uint64_t{1} << rel_of[t];
    }
    return set;
  };
  p.rels = rels_of(c);
  // The relations each operand reads, and the column when it is one relation's plain column.
  auto fill_sides = [&] {
    for (int s = 0; s < 2; ++s) {
      const BoundExpr& side = *c.children[s];
      p.side_rels[s] = rels_of(side);
      if (side.kind == BoundKind::kColumn && side.depth == 0) {
        p.side_column[s] = side.index - offsets_[static_cast<size_t>(table_of_[side.index])];
      }
    }
  };
  // PostgreSQL's defaults: an equality keeps 1/(larger distinct count) of the cross product,
  // another comparison a third, anything else a half.
  p.selectivity = 0.5;
  if (std::optional<double> g = GeometryOperatorSelectivity(c)) {
    // && @> <@ ~= of two sides over disjoint relations: an R-tree on a plain column side may
    // be probed with the other side's value.
    p.selectivity = *g;
    fill_sides();
    p.geometric = !c.ContainsSubquery() && p.side_rels[0] != 0 && p.side_rels[1] != 0 &&
                  (p.side_rels[0] & p.side_rels[1]) == 0;
    return p;
  }
  if (c.kind != BoundKind::kBinary) return p;
  switch (c.binary_op) {
    case ast::BinaryOp::kLt:
    case ast::BinaryOp::kLe:
    case ast::BinaryOp::kGt:
    case ast::BinaryOp::kGe:
      p.selectivity = 1.0 / 3;
      fill_sides();
      p.range = !c.ContainsSubquery() && KeyFamily(c.children[0]->type) != 0 &&
                KeyFamily(c.children[0]->type) == KeyFamily(c.children[1]->type) &&
                p.side_rels[0] != 0 && p.side_rels[1] != 0 &&
                (p.side_rels[0] & p.side_rels[1]) == 0;
      return p;
    case ast::BinaryOp::kEq:
      break;
    default:
      return p;
  }
  double distinct = -1;
  for (int s = 0; s < 2; ++s) {
    const BoundExpr& side = *c.children[s];
    p.side_rels[s] = rels_of(side);
    if (side.kind == BoundKind::kColumn && side.depth == 0) {
      const size_t t = static_cast<size_t>(table_of_[side.index]);
      const int col = side.index - offsets_[t];
      p.side_column[s] = col;
      // A relation cannot show more distinct values than it has rows.
      const double d = std::min(Distinct(t, col), std::max(1.0, rels[rel_of[t]].rows));
      distinct = std::max(distinct, d);
    }
  }
  p.selectivity = distinct > 0 ? 1.0 / distinct : 0.005;
  p.equality = !c.ContainsSubquery() && KeyFamily(c.children[0]->type) != 0 &&
               KeyFamily(c.children[0]->type) == KeyFamily(c.children[1]->type) &&
               p.side_rels[0] != 0 && p.side_rels[1] != 0 && (p.side_rels[0] & p.side_rels[1]) == 0;
  return p;
}

namespace {

// A lower and an upper bound of one column by the same other relations (`ol_o_id >=
// d_next_o_id - 20 AND ol_o_id < d_next_o_id`) keep PostgreSQL's default range selectivity
// (0.005) together, as a range with constant ends does, instead of a third each: the pair's
// first predicate carries it, the second keeps everything.
void PairRangeBounds(const std::vector<const BoundExpr*>& conds, std::vector<JoinPred>* preds) {
  struct Bound {
    size_t pred;
    uint64_t rel, other;
    int column;
    bool upper;
  };
  std::vector<Bound> bounds;
  for (size_t i = 0; i < preds->size(); ++i) {
    const JoinPred& p = (*preds)[i];
    if (!p.range) continue;
    const int s = p.side_column[0] >= 0 ? 0 : p.side_column[1] >= 0 ? 1 : -1;
    if (s < 0 || (p.side_rels[s] & (p.side_rels[s] - 1)) != 0) continue;  // one relation's column
    const ast::BinaryOp op = conds[i]->binary_op;
    const bool less = op == ast::BinaryOp::kLt || op == ast::BinaryOp::kLe;
    bounds.push_back({i, p.side_rels[s], p.side_rels[1 - s], p.side_column[s], less == (s == 0)});
  }
  std::vector<bool> paired(preds->size(), false);
  for (const Bound& a : bounds) {
    for (const Bound& b : bounds) {
      if (paired[a.pred] || paired[b.pred] || a.pred == b.pred || a.upper || !b.upper ||
          a.rel != b.rel || a.other != b.other || a.column != b.column) {
        continue;
      }
      paired[a.pred] = paired[b.pred] = true;
      (*preds)[a.pred].selectivity = 0.005;
      (*preds)[b.pred].selectivity = 1;
    }
  }
}

}  // namespace

Status FromPlanner::PlanGroup(Partial* prefix, size_t begin, size_t end,
                              std::vector<std::vector<BoundExprPtr>>* pushed,
                              std::vector<Cond>* conds) {
  const size_t n = s_->from.size();
  const bool has_prefix = prefix->built.op != nullptr;
  // Relations: the prefix (when there is one), then the group's tables.
  std::vector<JoinRel> rels;
  std::vector<int> rel_of(n, -1);
  std::vector<size_t> table_of_rel;
  if (has_prefix) {
    JoinRel p;
    p.rows = prefix->built.node->rows;
    p.cost = prefix->built.node->total_cost;
    rels.push_back(p);
    table_of_rel.push_back(n);  // not a table
    for (int t : prefix->layout) rel_of[t] = 0;
  }
  for (size_t t = begin; t < end; ++t) {
    rel_of[t] = static_cast<int>(rels.size());
    table_of_rel.push_back(t);
    MERIDIAN_ASSIGN_OR_RETURN(JoinRel rel, DescribeTable(t, &(*pushed)[t]));
    rels.push_back(std::move(rel));
  }
  std::vector<JoinPred> preds;
  std::vector<Cond*> group_conds;
  for (Cond& c : *conds) {
    if (c.done || c.need < begin || c.need >= end) continue;
    group_conds.push_back(&c);
    preds.push_back(DescribePred(*c.expr, rel_of, rels));
  }
  {
    std::vector<const BoundExpr*> exprs;
    for (const Cond* c : group_conds) exprs.push_back(c->expr.get());
    PairRangeBounds(exprs, &preds);
  }
  JoinOrder order = ChooseJoinOrder(rels, preds, has_prefix ? 0 : -1);
  if (!semis_.empty() && semis_.front().item >= begin && semis_.back().item < end) {
    // Semi joins (SemiJoin): their items are the group's last relations, in semis_ order.
    // Each subset of them (all and none beyond 4) is joined with the rest of the group, and
    // the hashed SubPlans of the others filter its rows; the cheapest wins, fewer joins on a
    // tie (the filter was the plan before semi joins).
    const size_t m = semis_.size();
    const size_t kept = rels.size() - m;
    const uint64_t all = (uint64_t{1} << m) - 1;
    std::vector<uint64_t> masks;
    for (uint64_t mask = 0; mask <= all; mask = m <= 4 || mask == all ? mask + 1 : all) {
      masks.push_back(mask);
    }
    struct Subset {
      std::vector<JoinRel> rels;
      std::vector<JoinPred> preds;
      std::vector<size_t> tables;  // FROM table of each relation
      JoinOrder order;
      double cost = 0;
      uint64_t mask = 0;
    };
    std::optional<Subset> best;
    for (const uint64_t mask : masks) {
      Subset sub;
      sub.mask = mask;
      std::vector<int> index(rels.size(), -1);  // relation -> its number in the subset
      for (size_t r = 0; r < rels.size(); ++r) {
        if (r >= kept && (mask >> (r - kept) & 1) == 0) continue;
        index[r] = static_cast<int>(sub.rels.size());
        sub.rels.push_back(rels[r]);
        sub.tables.push_back(table_of_rel[r]);
      }
      auto remap = [&](uint64_t bits, uint64_t* out) {
        *out = 0;
        for (size_t r = 0; r < rels.size(); ++r) {
          if ((bits >> r & 1) == 0) continue;
          if (index[r] < 0) return false;
          *out |= uint64_t{1} << index[r];
        }
        return true;
      };
      for (const JoinPred& p : preds) {
        JoinPred q = p;
        if (remap(p.rels, &q.rels) && remap(p.side_rels[0], &q.side_rels[0]) &&
            remap(p.side_rels[1], &q.side_rels[1])) {
          sub.preds.push_back(q);
        }
      }
      sub.order = ChooseJoinOrder(sub.rels, sub.preds, has_prefix ? 0 : -1);
      sub.cost = sub.order.cost;
      const double rows = sub.order.rows;
      for (size_t j = 0; j < m; ++j) {
        if ((mask >> j & 1) != 0) continue;
        const SemiJoin& semi = semis_[j];
        const double per_row = std::min(rows, static_cast<double>(semi.switch_after));
        sub.cost += per_row * semi.per_row_cost;
        if (rows > per_row) sub.cost += semi.build_cost + rows * kCpuOperatorCost;
      }
      if (!best || sub.cost < best->cost) best = std::move(sub);
    }
    // The SubPlans not joined stay in the final filter: their items and conditions go.
    std::vector<Cond*> group_kept;
    for (Cond* c : group_conds) {
      bool dropped = false;
      for (size_t j = 0; j < m; ++j) {
        dropped |= (best->mask >> j & 1) == 0 && c->tables[semis_[j].item];
      }
      if (dropped) {
        c->done = true;
      } else {
        group_kept.push_back(c);
      }
    }
    group_conds = std::move(group_kept);
    for (size_t j = 0; j < m; ++j) {
      semis_[j].joined = (best->mask >> j & 1) != 0;
      if (!semis_[j].joined) (*pushed)[semis_[j].item].clear();
    }
    rels = std::move(best->rels);
    preds = std::move(best->preds);
    table_of_rel = std::move(best->tables);
    order = std::move(best->order);
  }
  Partial cur;
  std::vector<bool> present(n, false);
  for (size_t k = 0; k < order.rels.size(); ++k) {
    const size_t t = table_of_rel[order.rels[k]];
    if (t == n) {
      cur = std::move(*prefix);
      for (int pt : cur.layout) present[pt] = true;
      continue;
    }
    present[t] = true;
    if (k == 0) {
      if (s_->from[t] == nullptr) {
        cur.built = std::move(derived_built_[t]);
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(cur.built,
                                  Scan(t, std::move((*pushed)[t]), {}, std::nullopt, nullptr));
      }
      cur.layout = {static_cast<int>(t)};
      continue;
    }
    std::vector<BoundExprPtr> step;
    for (Cond* c : group_conds) {
      bool ready = !c->done;
      for (size_t x = 0; ready && x < n; ++x) ready = !c->tables[x] || present[x];
      if (!ready) continue;
      c->done = true;
      step.push_back(std::move(c->expr));
    }
    uint64_t set = 0;
    for (size_t j = 0; j <= k; ++j) set |= uint64_t{1} << order.rels[j];
    MERIDIAN_ASSIGN_OR_RETURN(
        cur, Join(std::move(cur), t, JoinKind::kInner, std::move((*pushed)[t]), std::move(step),
                  order.steps[k - 1], JoinRows(rels, preds, set)));
  }
  // Every condition of the group reads two of its relations, so the steps took them all; a
  // single relation's group still filters here.
  std::vector<BoundExprPtr> rest;
  for (Cond* c : group_conds) {
    if (!c->done) {
      c->done = true;
      rest.push_back(std::move(c->expr));
    }
  }
  if (!rest.empty()) {
    const std::vector<int> pos = Positions(cur.layout);
    for (BoundExprPtr& c : rest) Remap(c.get(), pos);
    AddFilter(&cur, std::move(rest));
  }
  *prefix = std::move(cur);
  return Status::Ok();
}

namespace {

// The FROM-row column of the derived select d that its output column k is: a plain column of
// its select list, or when d is grouped a group key that is a plain column; null otherwise.
const BoundExpr* DerivedSource(const BoundSelect& d, int k) {
  if (k < 0 || static_cast<size_t>(k) >= d.visible) return nullptr;
  const BoundExpr* e = d.projections[static_cast<size_t>(k)].get();
  if (e->kind != BoundKind::kColumn || e->depth != 0) return nullptr;
  // A set-returning call's column (after the FROM row) is no FROM-row column.
  if (!d.set_functions.empty() && e->index >= d.set_input) return nullptr;
  if (!d.aggregated) return e;
  // Under grouping sets a key is NULL in the sets without it: no filter on it moves below.
  if (static_cast<size_t>(e->index) >= d.group_by.size() || !d.grouping_sets.empty()) {
    return nullptr;
  }
  const BoundExpr* g = d.group_by[static_cast<size_t>(e->index)].get();
  return g->kind == BoundKind::kColumn && g->depth == 0 ? g : nullptr;
}

// c reads only d's output columns that DerivedSource maps, constants and parameters, through
// operators, casts, IS NULL and IN lists (no function, subquery or outer reference).
bool PushableInto(const BoundSelect& d, const BoundExpr& c) {
  switch (c.kind) {
    case BoundKind::kColumn:
      return c.depth == 0 && DerivedSource(d, c.index) != nullptr;
    case BoundKind::kConst:
    case BoundKind::kParam:
      return true;
    case BoundKind::kUnary:
    case BoundKind::kBinary:
    case BoundKind::kCast:
    case BoundKind::kIsNull:
    case BoundKind::kInList:
      break;
    default:
      return false;
  }
  if (c.subquery != nullptr) return false;
  for (const BoundExprPtr& ch : c.children) {
    if (!PushableInto(d, *ch)) return false;
  }
  return true;
}

void RebindToSource(const BoundSelect& d, BoundExpr* c) {
  if (c->kind == BoundKind::kColumn) {
    const BoundExpr* src = DerivedSource(d, c->index);
    c->index = src->index;
    c->type = src->type;
    c->name = src->name;
  }
  for (BoundExprPtr& ch : c->children) RebindToSource(d, ch.get());
}

// Conditions on a derived table's output that only read columns passed through from its
// FROM row (a grouped one's group keys) go into its WHERE, where they can become index keys
// and shrink what it aggregates (PostgreSQL's qual pushdown into subqueries): `(SELECT o_w_id,
// ..., max(o_id) FROM orders GROUP BY o_w_id, o_d_id) o ... WHERE o_w_id = $1` reads one
// warehouse. Not into set operations, LIMIT/OFFSET, window functions, DISTINCT ON or locking
// reads. The others stay for the Subquery Scan's filter.
void PushIntoDerived(BoundSelect* d, std::vector<BoundExprPtr>* conjuncts) {
  if (d->set_op != ast::SetOp::kNone || d->function != nullptr || d->limit != nullptr ||
      d->offset != nullptr || !d->windows.empty() || !d->distinct_on.empty() || d->rid_table >= 0 ||
      d->LocksRows()) {
    return;
  }
  std::vector<BoundExprPtr> where = SplitConjuncts(std::move(d->where));
  std::vector<BoundExprPtr> kept;
  for (BoundExprPtr& c : *conjuncts) {
    if (PushableInto(*d, *c)) {
      RebindToSource(*d, c.get());
      // One the derived select already has (`o_w_id = $1` inside, and the same from a LEFT
      // join's equivalence outside) is not tested twice.
      const bool known = std::any_of(where.begin(), where.end(),
                                     [&](const BoundExprPtr& w) { return w->Equals(*c); });
      if (!known) where.push_back(std::move(c));
    } else {
      kept.push_back(std::move(c));
    }
  }
  *conjuncts = std::move(kept);
  d->where = JoinConjuncts(std::move(where));
}

}  // namespace

Result<Built> FromPlanner::DerivedScan(size_t t, std::vector<BoundExprPtr> conjuncts) {
  if (s_->derived[t]->work_table_scan) {  // a recursive query's reference to itself
    const WorkTableSlot& slot = *s_->derived[t]->work_table;
    std::shared_ptr<WorkTable> work = slot.table;
    auto node = std::make_unique<PlanNode>();
    node->label = (slot.cte ? "CTE Scan on " : "WorkTable Scan on ") + s_->from_names[t];
    node->rows = slot.estimated_rows;
    for (size_t i = 0; i < conjuncts.size(); ++i) node->rows = std::max(1.0, node->rows * 0.5);
    node->total_cost = slot.estimated_rows * kCpuTupleCost;
    node->width = 8 * static_cast<int>(s_->derived[t]->columns.size());
    OperatorPtr op = std::make_unique<WorkTableScanOp>(std::move(work));
    if (!conjuncts.empty()) {
      AddFilterLine(node.get(), conjuncts);
      op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
    }
    return b_->Make(std::move(op), std::move(node));
  }
  if (s_->derived[t]->function != nullptr) {  // unnest(...), generate_series(...) in FROM
    BoundExprPtr call = std::move(s_->derived[t]->function);
    auto node = std::make_unique<PlanNode>();
    node->label = "Function Scan on " + call->name;
    if (s_->from_names[t] != call->name) node->label += " " + s_->from_names[t];
    node->rows = 1000;  // PostgreSQL's default estimate for a set-returning function (prorows)
    for (size_t i = 0; i < conjuncts.size(); ++i) node->rows *= 0.5;
    node->total_cost = 10 + (conjuncts.empty() ? 0 : 1000 * kCpuOperatorCost);
    node->width = 32;
    OperatorPtr op = std::make_unique<FunctionScanOp>(std::move(call));
    if (!conjuncts.empty()) {
      AddFilterLine(node.get(), conjuncts);
      op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
    }
    return b_->Make(std::move(op), std::move(node));
  }
  PushIntoDerived(s_->derived[t].get(), &conjuncts);
  MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect sub,
                            PlanSelectExplained(std::move(s_->derived[t]), b_->instrument()));
  Built inner{std::move(sub.root), std::move(sub.explain)};
  // A semi join's unique-ified inner side shows as its aggregate, as PostgreSQL's
  // JOIN_UNIQUE_INNER path does (no Subquery Scan).
  const bool semi_item =
      std::any_of(semis_.begin(), semis_.end(), [&](const SemiJoin& sj) { return sj.item == t; });
  if (semi_item && conjuncts.empty()) return inner;
  auto node = std::make_unique<PlanNode>();
  node->label = "Subquery Scan on " + s_->from_names[t];
  double sel = 1;
  for (size_t i = 0; i < conjuncts.size(); ++i) sel *= 0.5;
  node->rows = std::max(1.0, inner.node->rows * sel);
  node->startup_cost = inner.node->startup_cost;
  node->total_cost = inner.node->total_cost + inner.node->rows * kCpuOperatorCost;
  node->width = inner.node->width;
  OperatorPtr op = std::move(inner.op);
  if (!conjuncts.empty()) {
    AddFilterLine(node.get(), conjuncts);
    op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
  }
  return b_->Make(std::move(op), std::move(node), {&inner});
}

Result<Built> FromPlanner::Scan(size_t t, std::vector<BoundExprPtr> conjuncts,
                                const std::vector<AccessPlan::OrderColumn>& wanted,
                                std::optional<double> limit, bool* ordered) {
  if (s_->from[t] == nullptr) {
    if (ordered != nullptr) *ordered = false;
    return DerivedScan(t, std::move(conjuncts));
  }
  const std::shared_ptr<catalog::Table>& table = s_->from[t];
  AccessRequest req;
  req.table = table;
  req.conjuncts = std::move(conjuncts);
  if (!all_used_) {
    req.needed_columns.assign(used_.begin() + offsets_[t],
                              used_.begin() + offsets_[t] + TableWidth(t));
  }
  req.wanted_order = wanted;
  req.limit = limit;
  // One ascending ORDER BY key that is not a column, under a LIMIT: maybe an R-tree distance.
  if (ordered != nullptr && wanted.empty() && limit && order_by_.size() == 1 &&
      !order_by_[0].descending && !order_by_[0].nulls_first) {
    req.nearest = projections_[order_by_[0].column].get();
  }
  // One ORDER BY key that is not a column, under a LIMIT: maybe an expression index's key.
  if (ordered != nullptr && wanted.empty() && limit && order_by_.size() == 1 &&
      order_by_[0].descending == order_by_[0].nulls_first) {
    req.order_expr = projections_[order_by_[0].column].get();
    req.order_descending = order_by_[0].descending;
  }
  AccessPlan plan = ChooseAccessPath(std::move(req), ordered);
  auto node = std::make_unique<PlanNode>();
  // "on fact f" when the table has an alias, as PostgreSQL prints it.
  std::string on = " on " + table->name();
  if (t < s_->from_names.size() && s_->from_names[t] != table->name()) {
    on += " " + s_->from_names[t];
  }
  switch (plan.kind) {
    case AccessPlan::Kind::kSeqScan:
      node->label = "Seq Scan" + on;
      break;
    case AccessPlan::Kind::kIndexScan:
      node->label = std::string(plan.reverse ? "Index Scan Backward" : "Index Scan") + " using " +
                    plan.index->name() + on;
      break;
    case AccessPlan::Kind::kIndexOnlyScan:
      node->label = std::string(plan.reverse ? "Index Only Scan Backward" : "Index Only Scan") +
                    " using " + plan.index->name() + on;
      break;
  }
  if (!plan.index_conds.empty()) {
    node->details.push_back("Index Cond: " + Conditions(plan.index_conds));
  }
  if (plan.order_by != nullptr) {
    // In parentheses, unless the expression prints in its own (an operator: `(p <-> q)`).
    std::string key = ExprToString(*plan.order_by);
    int depth = 0;
    bool wrapped = key.size() >= 2 && key.front() == '(' && key.back() == ')';
    for (size_t i = 0; wrapped && i + 1 < key.size(); ++i) {
      depth += key[i] == '(' ? 1 : key[i] == ')' ? -1 : 0;
      if (depth == 0) wrapped = false;  // `(a) + (b)`: the first group closes early
    }
    node->details.push_back("Order By: " + (wrapped ? key : "(" + key + ")"));
  }
  AddFilterLine(node.get(), plan.residual);
  node->startup_cost = plan.startup_cost;
  node->total_cost = plan.total_cost;
  node->rows = plan.rows;
  node->width = RowWidth(table->types());
  BoundExprPtr residual = JoinConjuncts(std::move(plan.residual));
  std::unique_ptr<RowSourceOp> scan = MakeAccessOperator(table, &plan);
  const RowSourceOp* scan_ptr = scan.get();
  OperatorPtr op = std::move(scan);
  if (residual != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(residual));
  const bool rid_column = static_cast<int>(t) == s_->rid_table;  // UPDATE ... FROM's target
  if (t < s_->lock_rows.size() && s_->lock_rows[t]) {
    // FOR UPDATE/SHARE: the rows passing the filter are locked; EXPLAIN prints a LockRows node
    // above the scan, as PostgreSQL does (its one LockRows sits above the whole join).
    Built scan_built = b_->Make(std::move(op), std::move(node));
    auto lock_node = std::make_unique<PlanNode>();
    lock_node->label = "LockRows";
    lock_node->startup_cost = scan_built.node->startup_cost;
    lock_node->total_cost = scan_built.node->total_cost;
    lock_node->rows = scan_built.node->rows;
    lock_node->width = scan_built.node->width;
    OperatorPtr lock = std::make_unique<LockRowsOp>(std::move(scan_built.op), scan_ptr, table,
                                                    s_->lock_nowait, s_->lock_skip_locked);
    if (rid_column) {
      lock = std::make_unique<RidColumnOp>(std::move(lock), scan_ptr, table->types().size());
    }
    return b_->Make(std::move(lock), std::move(lock_node), {&scan_built});
  }
  if (rid_column) {  // rows name their rid
    op = std::make_unique<RidColumnOp>(std::move(op), scan_ptr, table->types().size());
  }
  return b_->Make(std::move(op), std::move(node));
}

Result<FromPlanner::Partial> FromPlanner::Join(Partial left, size_t t, JoinKind kind,
                                               std::vector<BoundExprPtr> pushed,
                                               std::vector<BoundExprPtr> conds,
                                               JoinStepChoice choice, double rows) {
  // The right side: table t's scan (a derived table was planned while estimating).
  const bool is_derived = s_->from[t] == nullptr;
  const std::vector<int> left_pos = Positions(left.layout);
  const std::vector<int> right_pos = Positions({static_cast<int>(t)});
  std::vector<bool> in_left(s_->from.size(), false);
  for (int x : left.layout) in_left[x] = true;
  const size_t left_width = static_cast<size_t>(LayoutWidth(left.layout));
  const size_t right_width = static_cast<size_t>(widths_[t]);

  // Equality conditions between the left tables and this one: hash or index keys.
  struct Equi {
    size_t cond;
    bool right_first;   // children[0] is the right side
    bool right_column;  // the right side is a plain column of t
  };
  std::vector<Equi> equis;
  auto side = [&](const BoundExpr& e) {  // 1 left only, 2 right only, 0 neither/both/other
    bool corr = false;
    std::vector<bool> tables = TablesOf(e, &corr);
    bool any_left = false, any_right = tables[t];
    for (size_t k = 0; k < tables.size(); ++k) {
      if (!tables[k] || k == t) continue;
      if (!in_left[k]) return 0;
      any_left = true;
    }
    if (any_left && !any_right) return 1;
    if (any_right && !any_left) return 2;
    return 0;
  };
  // Comparisons (<, <=, >, >=) of a column of t with an expression of the left rows: range
  // bounds of a parameterized index scan (`ol_o_id < d_next_o_id`) in an index nested loop
  // (a B+tree's range or an R-tree's box); geometric conditions are added below.
  std::vector<size_t> ranges;
  for (size_t i = 0; i < conds.size(); ++i) {
    const BoundExpr& c = *conds[i];
    if (c.kind != BoundKind::kBinary || c.ContainsSubquery() ||
        (c.binary_op != ast::BinaryOp::kLt && c.binary_op != ast::BinaryOp::kLe &&
         c.binary_op != ast::BinaryOp::kGt && c.binary_op != ast::BinaryOp::kGe)) {
      continue;
    }
    const BoundExpr& a = *c.children[0];
    const BoundExpr& z = *c.children[1];
    if (KeyFamily(a.type) == 0 || KeyFamily(a.type) != KeyFamily(z.type)) continue;
    const int sa = side(a), sz = side(z);
    const BoundExpr& right_side = sa == 2 ? a : z;
    if (((sa == 1 && sz == 2) || (sa == 2 && sz == 1)) && right_side.kind == BoundKind::kColumn &&
        right_side.depth == 0) {
      ranges.push_back(i);
    }
  }
  // Geometric conditions (&& @> <@ ~=) between a point or box column of t and a value of the
  // left rows: the query of a parameterized R-tree scan in an index nested loop.
  for (size_t i = 0; i < conds.size(); ++i) {
    const BoundExpr& c = *conds[i];
    if (!GeometryOperatorSelectivity(c) || c.ContainsSubquery()) continue;
    const BoundExpr& a = *c.children[0];
    const BoundExpr& z = *c.children[1];
    const int sa = side(a), sz = side(z);
    const BoundExpr& right_side = sa == 2 ? a : z;
    if (((sa == 1 && sz == 2) || (sa == 2 && sz == 1)) && right_side.kind == BoundKind::kColumn &&
        right_side.depth == 0) {
      ranges.push_back(i);
    }
  }
  for (size_t i = 0; i < conds.size(); ++i) {
    const BoundExpr& c = *conds[i];
    if (c.kind != BoundKind::kBinary || c.binary_op != ast::BinaryOp::kEq || c.ContainsSubquery()) {
      continue;
    }
    const BoundExpr& a = *c.children[0];
    const BoundExpr& z = *c.children[1];
    if (KeyFamily(a.type) == 0 || KeyFamily(a.type) != KeyFamily(z.type)) continue;
    const int sa = side(a), sz = side(z);
    if (!((sa == 1 && sz == 2) || (sa == 2 && sz == 1))) continue;
    const BoundExpr& right_side = sa == 2 ? a : z;
    equis.push_back({i, sa == 2, right_side.kind == BoundKind::kColumn && right_side.depth == 0});
  }
  JoinMethod method = choice.method;
  if (equis.empty() && ranges.empty() && method != JoinMethod::kNestedLoop) {
    method = JoinMethod::kNestedLoop;
  }
  if (method == JoinMethod::kHash && equis.empty()) method = JoinMethod::kNestedLoop;
  if (method == JoinMethod::kIndexNestedLoop) {
    bool any_column = !ranges.empty();
    for (const Equi& e : equis) any_column |= e.right_column;
    if (!any_column || is_derived) method = JoinMethod::kNestedLoop;
  }
  const bool build_left = method == JoinMethod::kHash && choice.build_left;

  Partial out;
  if (build_left) {
    out.layout.push_back(static_cast<int>(t));
    out.layout.insert(out.layout.end(), left.layout.begin(), left.layout.end());
  } else {
    out.layout = left.layout;
    out.layout.push_back(static_cast<int>(t));
  }
  const std::vector<int> out_pos = Positions(out.layout);
  auto node = std::make_unique<PlanNode>();
  node->rows = rows;
  node->startup_cost = left.built.node->startup_cost;
  node->total_cost = choice.cost;
  node->width = left.built.node->width +
                (is_derived ? derived_built_[t].node->width : RowWidth(s_->from[t]->types()));
  auto right_scan = [&](std::vector<BoundExprPtr> scan_conds) -> Result<Built> {
    if (is_derived) return std::move(derived_built_[t]);
    return Scan(t, std::move(scan_conds), {}, std::nullopt, nullptr);
  };
  OperatorPtr op;
  Built right;
  if (method == JoinMethod::kHash) {
    std::vector<BoundExprPtr> residual, left_keys, right_keys;
    std::vector<bool> is_equi(conds.size(), false);
    for (const Equi& e : equis) is_equi[e.cond] = true;
    std::string hash_text;
    for (const Equi& e : equis) {
      hash_text += (hash_text.empty() ? "" : " AND ") + ExprToString(*conds[e.cond]);
      BoundExprPtr& a = conds[e.cond]->children[0];
      BoundExprPtr& z = conds[e.cond]->children[1];
      BoundExprPtr r = std::move(e.right_first ? a : z);
      BoundExprPtr l = std::move(e.right_first ? z : a);
      Remap(r.get(), right_pos);
      Remap(l.get(), left_pos);
      left_keys.push_back(std::move(l));
      right_keys.push_back(std::move(r));
    }
    for (size_t i = 0; i < conds.size(); ++i) {
      if (is_equi[i]) continue;
      Remap(conds[i].get(), out_pos);
      residual.push_back(std::move(conds[i]));
    }
    node->label = "Hash" + (kind == JoinKind::kInner ? std::string(" Join") : JoinSuffix(kind));
    node->details.push_back("Hash Cond: " + (equis.size() > 1 ? "(" + hash_text + ")" : hash_text));
    if (!residual.empty()) node->details.push_back("Join Filter: " + Conditions(residual));
    MERIDIAN_ASSIGN_OR_RETURN(right, right_scan(std::move(pushed)));
    if (build_left) {  // probe with the new table, build on the rows so far (an inner join)
      op = std::make_unique<HashJoinOp>(
          std::move(right.op), std::move(left.built.op), std::move(right_keys),
          std::move(left_keys), JoinConjuncts(std::move(residual)), kind, right_width, left_width);
      out.built = b_->Make(std::move(op), std::move(node), {&right, &left.built});
      return out;
    }
    op = std::make_unique<HashJoinOp>(
        std::move(left.built.op), std::move(right.op), std::move(left_keys), std::move(right_keys),
        JoinConjuncts(std::move(residual)), kind, left_width, right_width);
  } else if (method == JoinMethod::kIndexNestedLoop) {
    // The right side is re-read per left row; its key conditions read the left row as depth 1.
    std::vector<BoundExprPtr> residual;
    std::vector<bool> is_key(conds.size(), false);
    for (BoundExprPtr& c : pushed) ShiftForRescan(c.get(), /*from_left=*/false);
    for (const Equi& e : equis) {
      if (!e.right_column) continue;
      is_key[e.cond] = true;
      BoundExprPtr& a = conds[e.cond]->children[0];
      BoundExprPtr& z = conds[e.cond]->children[1];
      BoundExpr* r = (e.right_first ? a : z).get();
      BoundExpr* l = (e.right_first ? z : a).get();
      Remap(r, right_pos);
      Remap(l, left_pos);
      ShiftForRescan(r, /*from_left=*/false);
      ShiftForRescan(l, /*from_left=*/true);
      pushed.push_back(std::move(conds[e.cond]));
    }
    // Range bounds and geometric conditions from the left row go to the scan as well; the
    // access path makes them index keys when they follow its equality prefix (or bound an
    // R-tree's box, or query an R-tree on a point or box column), else filters of the
    // rescanned side.
    for (size_t i : ranges) {
      is_key[i] = true;
      for (BoundExprPtr& child : conds[i]->children) {
        const bool from_left = side(*child) == 1;
        Remap(child.get(), from_left ? left_pos : right_pos);
        ShiftForRescan(child.get(), from_left);
      }
      pushed.push_back(std::move(conds[i]));
    }
    for (size_t i = 0; i < conds.size(); ++i) {
      if (is_key[i]) continue;
      Remap(conds[i].get(), out_pos);
      residual.push_back(std::move(conds[i]));
    }
    node->label = "Nested Loop" + JoinSuffix(kind);
    if (!residual.empty()) node->details.push_back("Join Filter: " + Conditions(residual));
    MERIDIAN_ASSIGN_OR_RETURN(right, Scan(t, std::move(pushed), {}, std::nullopt, nullptr));
    op = std::make_unique<NestedLoopJoinOp>(std::move(left.built.op), std::move(right.op), kind,
                                            JoinConjuncts(std::move(residual)), /*rescan=*/true,
                                            left_width, right_width);
  } else {
    node->label = "Nested Loop" + JoinSuffix(kind);
    if (!conds.empty()) node->details.push_back("Join Filter: " + Conditions(conds));
    for (BoundExprPtr& c : conds) Remap(c.get(), out_pos);
    MERIDIAN_ASSIGN_OR_RETURN(right, right_scan(std::move(pushed)));
    op = std::make_unique<NestedLoopJoinOp>(std::move(left.built.op), std::move(right.op), kind,
                                            JoinConjuncts(std::move(conds)), false, left_width,
                                            right_width);
  }
  out.built = b_->Make(std::move(op), std::move(node), {&left.built, &right});
  return out;
}

}  // namespace meridian::exec
