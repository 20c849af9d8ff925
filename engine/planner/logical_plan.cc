// BuildLogicalPlan and LogicalPlanToString (see logical_plan.h).
#include "planner/logical_plan.h"

#include "optimizer/access_path.h"
#include "planner/explain.h"

namespace meridian::exec {

namespace {

// Puts node on top of *cur (its only child).
void Stack(LogicalOpPtr* cur, LogicalOpPtr node) {
  node->children.push_back(std::move(*cur));
  *cur = std::move(node);
}

std::unique_ptr<LogicalGet> Get(BoundSelect* block, size_t item) {
  auto get = std::make_unique<LogicalGet>();
  get->block = block;
  get->item = item;
  return get;
}

// The FROM list of s: Values, one Get, or Joins left-deep in FROM order. An ON on the first
// item (none is bound today) stays in s->join_on[0] for the lowering.
LogicalOpPtr BuildFrom(BoundSelect* s) {
  if (s->from.empty()) return std::make_unique<LogicalValues>();
  LogicalOpPtr cur = Get(s, 0);
  for (size_t i = 1; i < s->from.size(); ++i) {
    auto join = std::make_unique<LogicalJoin>();
    join->item = i;
    if (i < s->join_types.size()) join->type = s->join_types[i];
    if (i < s->join_on.size()) join->on = std::move(s->join_on[i]);
    join->children.push_back(std::move(cur));
    join->children.push_back(Get(s, i));
    cur = std::move(join);
  }
  s->join_types.clear();
  s->join_on.resize(std::min<size_t>(s->join_on.size(), 1));
  return cur;
}

// An Apply for the WHERE conjunct *c (taken from it) when it is [NOT] EXISTS or x [NOT] IN of
// a correlated subquery; else null.
std::unique_ptr<LogicalApply> MakeApply(BoundExprPtr* c, size_t position) {
  const BoundExpr& e = **c;
  if (e.subquery == nullptr || !e.subquery->correlated) return nullptr;
  const bool in = e.kind == BoundKind::kInSubquery && e.binary_op == ast::BinaryOp::kEq && !e.all;
  if (e.kind != BoundKind::kExists && !in) return nullptr;
  auto apply = std::make_unique<LogicalApply>();
  apply->type = e.negated ? ApplyType::kAnti : ApplyType::kSemi;
  apply->null_aware = in && e.negated;
  apply->position = position;
  apply->predicate = std::move(*c);
  return apply;
}

LogicalOpPtr BuildBlock(std::unique_ptr<BoundSelect> s, LogicalPlan* plan) {
  LogicalOpPtr cur;
  if (s->set_op != ast::SetOp::kNone) {
    auto set = std::make_unique<LogicalSetOperation>();
    set->op = s->set_op;
    set->all = s->set_all;
    set->recursive = s->recursive;
    set->work_table = s->work_table;
    set->left_casts = std::move(s->left_casts);
    set->right_casts = std::move(s->right_casts);
    set->columns = s->columns;
    set->children.push_back(BuildBlock(std::move(s->set_left), plan));
    if (s->set_right != nullptr) set->children.push_back(BuildBlock(std::move(s->set_right), plan));
    cur = std::move(set);
  } else {
    cur = BuildFrom(s.get());
    if (s->where != nullptr) {
      auto filter = std::make_unique<LogicalFilter>();
      std::vector<BoundExprPtr> conjuncts = SplitConjuncts(std::move(s->where));
      std::vector<std::unique_ptr<LogicalApply>> applies;
      for (size_t i = 0; i < conjuncts.size(); ++i) {
        auto apply = MakeApply(&conjuncts[i], i);
        if (apply != nullptr) {
          applies.push_back(std::move(apply));
        } else {
          filter->conjuncts.push_back(std::move(conjuncts[i]));
        }
      }
      // The first conjunct's Apply lowest: the lowering puts them back in that order.
      for (auto& apply : applies) Stack(&cur, std::move(apply));
      if (!filter->conjuncts.empty()) Stack(&cur, std::move(filter));
    }
    if (s->aggregated) {
      auto agg = std::make_unique<LogicalAggregate>();
      agg->dependent.assign(s->group_by.size(), false);  // the GROUP BY rule marks them
      agg->keys = std::move(s->group_by);
      agg->grouping_sets = std::move(s->grouping_sets);
      agg->aggregates = std::move(s->aggregates);
      Stack(&cur, std::move(agg));
      if (s->having != nullptr) {
        auto having = std::make_unique<LogicalFilter>();
        having->conjuncts.push_back(std::move(s->having));
        Stack(&cur, std::move(having));
      }
    }
    if (!s->windows.empty()) {
      auto window = std::make_unique<LogicalWindow>();
      window->calls = std::move(s->windows);
      window->input = s->window_input;
      Stack(&cur, std::move(window));
    }
    if (!s->set_functions.empty()) {
      auto set = std::make_unique<LogicalProjectSet>();
      set->calls = std::move(s->set_functions);
      set->input = s->set_input;
      Stack(&cur, std::move(set));
    }
    auto project = std::make_unique<LogicalProject>();
    project->exprs = std::move(s->projections);
    project->visible = s->visible;
    Stack(&cur, std::move(project));
    if (s->distinct) {
      auto distinct = std::make_unique<LogicalDistinct>();
      distinct->visible = s->visible;
      Stack(&cur, std::move(distinct));
    }
  }
  if (!s->order_by.empty()) {
    auto sort = std::make_unique<LogicalSort>();
    sort->keys = std::move(s->order_by);
    Stack(&cur, std::move(sort));
  }
  if (!s->distinct_on.empty()) {
    auto on = std::make_unique<LogicalDistinctOn>();
    on->columns = std::move(s->distinct_on);
    Stack(&cur, std::move(on));
  }
  if (s->limit != nullptr || s->offset != nullptr) {
    auto limit = std::make_unique<LogicalLimit>();
    limit->limit = std::move(s->limit);
    limit->offset = std::move(s->offset);
    Stack(&cur, std::move(limit));
  }
  plan->blocks.push_back(std::move(s));
  return cur;
}

void NameUnnamed(BoundExpr* e, std::vector<BoundExpr*>* named) {
  if (e->kind == BoundKind::kColumn && e->depth == 0 && e->name.empty()) {
    e->name = "#" + std::to_string(e->index);
    named->push_back(e);
  }
  for (BoundExprPtr& c : e->children) NameUnnamed(c.get(), named);
}

// e as EXPLAIN prints it, a column without a name (an aggregate's, window call's or
// set-returning call's result: the lowering names them) as #<its column number>.
std::string Text(const BoundExpr& e) {
  std::vector<BoundExpr*> named;
  NameUnnamed(const_cast<BoundExpr*>(&e), &named);  // the nodes own e; the names go again
  std::string text = ExprToString(e);
  for (BoundExpr* c : named) c->name.clear();
  return text;
}

std::string List(const std::vector<BoundExprPtr>& exprs) {
  std::string text;
  for (size_t i = 0; i < exprs.size(); ++i) text += (i ? ", " : "") + Text(*exprs[i]);
  return text;
}

std::string JoinName(ast::JoinType t) {
  switch (t) {
    case ast::JoinType::kComma:
    case ast::JoinType::kCross:
      return "Cross";
    case ast::JoinType::kInner:
      return "Inner";
    case ast::JoinType::kLeft:
      return "Left";
    case ast::JoinType::kRight:
      return "Right";
    case ast::JoinType::kFull:
      return "Full";
  }
  return "?";
}

std::string Keys(const std::vector<SortKey>& keys) {
  std::string text;
  for (size_t i = 0; i < keys.size(); ++i) {
    const SortKey& k = keys[i];
    text += (i ? ", " : "") + std::string("#") + std::to_string(k.column) +
            (k.descending ? " DESC" : "") +
            (k.nulls_first != k.descending ? (k.nulls_first ? " NULLS FIRST" : " NULLS LAST") : "");
  }
  return text;
}

std::string Describe(const LogicalOp& op) {
  switch (op.kind) {
    case LogicalKind::kGet: {
      const auto& get = op.As<LogicalGet>();
      const BoundSelect& b = *get.block;
      std::string text = "Get ";
      if (b.from[get.item] != nullptr) {
        text += b.from[get.item]->name();
        if (b.from_names[get.item] != b.from[get.item]->name())
          text += " " + b.from_names[get.item];
      } else {
        const BoundSelect& d = *b.derived[get.item];
        text += d.function != nullptr ? "function " + d.function->name + " "
                : d.work_table_scan   ? "work table "
                                      : "subquery ";
        text += b.from_names[get.item];
      }
      if (b.IsLateral(get.item)) text += " (lateral)";
      return text;
    }
    case LogicalKind::kValues:
      return "Values (one empty row)";
    case LogicalKind::kJoin: {
      const auto& join = op.As<LogicalJoin>();
      return JoinName(join.type) + " Join" + (join.on != nullptr ? " on " + Text(*join.on) : "");
    }
    case LogicalKind::kFilter:
      return "Filter " + List(op.As<LogicalFilter>().conjuncts);
    case LogicalKind::kAggregate: {
      const auto& agg = op.As<LogicalAggregate>();
      std::string text = "Aggregate";
      if (!agg.keys.empty()) {
        text += " keys [";
        for (size_t i = 0; i < agg.keys.size(); ++i) {
          text += (i ? ", " : "") + Text(*agg.keys[i]);
          if (i < agg.dependent.size() && agg.dependent[i]) text += " (dependent)";
        }
        text += "]";
      }
      if (!agg.grouping_sets.empty())
        text += " (" + std::to_string(agg.grouping_sets.size()) + " grouping sets)";
      text += " [" + List(agg.aggregates) + "]";
      if (agg.min_max) text += " (min/max from index order)";
      return text;
    }
    case LogicalKind::kWindow:
      return "Window [" + List(op.As<LogicalWindow>().calls) + "]";
    case LogicalKind::kProjectSet:
      return "ProjectSet [" + List(op.As<LogicalProjectSet>().calls) + "]";
    case LogicalKind::kProject: {
      const auto& p = op.As<LogicalProject>();
      std::string text = "Project " + List(p.exprs);
      if (p.exprs.size() > p.visible) {
        text += " (" + std::to_string(p.exprs.size() - p.visible) + " hidden)";
      }
      return text;
    }
    case LogicalKind::kDistinct:
      return "Distinct";
    case LogicalKind::kSort:
      return "Sort " + Keys(op.As<LogicalSort>().keys);
    case LogicalKind::kDistinctOn: {
      std::string text = "Distinct On";
      for (int c : op.As<LogicalDistinctOn>().columns) text += " #" + std::to_string(c);
      return text;
    }
    case LogicalKind::kLimit: {
      const auto& l = op.As<LogicalLimit>();
      std::string text = "Limit";
      if (l.limit != nullptr) text += " " + Text(*l.limit);
      if (l.offset != nullptr) text += " offset " + Text(*l.offset);
      return text;
    }
    case LogicalKind::kSetOperation: {
      const auto& set = op.As<LogicalSetOperation>();
      std::string text = set.recursive                      ? "Recursive Union"
                         : set.op == ast::SetOp::kUnion     ? "Union"
                         : set.op == ast::SetOp::kIntersect ? "Intersect"
                                                            : "Except";
      return text + (set.all ? " All" : "");
    }
    case LogicalKind::kApply: {
      const auto& apply = op.As<LogicalApply>();
      std::string text = apply.type == ApplyType::kSemi ? "Apply Semi" : "Apply Anti";
      if (apply.null_aware) text += " (null-aware)";
      text += " " + Text(*apply.predicate);
      if (apply.hashed) text += " (hashed)";
      return text;
    }
  }
  return "?";
}

void Print(const LogicalOp& op, int depth, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  *out += Describe(op) + "\n";
  for (const LogicalOpPtr& c : op.children) Print(*c, depth + 1, out);
}

// *slot's node as a T when it is of kind k (moving *slot to its child), else null.
template <class T>
T* Take(LogicalOpPtr** slot, LogicalKind k) {
  LogicalOp* op = (*slot)->get();
  if (op->kind != k) return nullptr;
  *slot = &op->children[0];
  return &op->As<T>();
}

}  // namespace

BoundSelect* LogicalBlock::FromBlock() const {
  const LogicalOp* op = from_slot != nullptr ? from_slot->get() : nullptr;
  while (op != nullptr && op->kind == LogicalKind::kJoin) op = op->children[0].get();
  return op != nullptr && op->kind == LogicalKind::kGet ? op->As<LogicalGet>().block : nullptr;
}

Result<LogicalBlock> UnpackBlock(LogicalOpPtr* top) {
  LogicalBlock b;
  LogicalOpPtr* slot = top;
  b.limit = Take<LogicalLimit>(&slot, LogicalKind::kLimit);
  b.distinct_on = Take<LogicalDistinctOn>(&slot, LogicalKind::kDistinctOn);
  b.sort = Take<LogicalSort>(&slot, LogicalKind::kSort);
  if ((*slot)->kind == LogicalKind::kSetOperation) {
    b.set = &(*slot)->As<LogicalSetOperation>();
    return b;
  }
  b.distinct = Take<LogicalDistinct>(&slot, LogicalKind::kDistinct);
  b.project = Take<LogicalProject>(&slot, LogicalKind::kProject);
  if (b.project == nullptr) return Status::Internal("logical plan: a block without Project");
  b.project_set = Take<LogicalProjectSet>(&slot, LogicalKind::kProjectSet);
  b.window = Take<LogicalWindow>(&slot, LogicalKind::kWindow);
  if ((*slot)->kind == LogicalKind::kFilter &&
      (*slot)->children[0]->kind == LogicalKind::kAggregate) {
    b.having = Take<LogicalFilter>(&slot, LogicalKind::kFilter);
  }
  b.aggregate = Take<LogicalAggregate>(&slot, LogicalKind::kAggregate);
  b.where = Take<LogicalFilter>(&slot, LogicalKind::kFilter);
  b.below_where = slot;
  while (LogicalApply* apply = Take<LogicalApply>(&slot, LogicalKind::kApply)) {
    b.applies.push_back(apply);
  }
  const LogicalKind k = (*slot)->kind;
  if (k != LogicalKind::kValues && k != LogicalKind::kGet && k != LogicalKind::kJoin) {
    return Status::Internal("logical plan: unexpected node below a block's pipeline");
  }
  b.from_slot = slot;
  return b;
}

LogicalPlan BuildLogicalPlan(std::unique_ptr<BoundSelect> select) {
  LogicalPlan plan;
  plan.width = select->columns.size();
  plan.root = BuildBlock(std::move(select), &plan);
  return plan;
}

std::string LogicalPlanToString(const LogicalOp& op) {
  std::string out;
  Print(op, 0, &out);
  return out;
}

}  // namespace meridian::exec
