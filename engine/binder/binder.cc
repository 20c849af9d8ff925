// Binder core: table lookup, column resolution through nested scopes, subquery planning,
// coercions and output column names.
#include "binder/binder.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "binder/type_rules.h"
#include "catalog/system_tables.h"
#include "planner/planner.h"

namespace meridian::exec {

namespace {

// A write to table may check or change the tables its foreign keys connect it to (parents
// for the child-side checks, children and their children for the actions): they are read
// under the statement's shared locks too, so no DDL changes them meanwhile.
void LockForeignKeyTables(const catalog::Catalog& catalog,
                          const std::shared_ptr<catalog::Table>& table, catalog::LockSet* locks) {
  std::vector<uint32_t> todo{table->id()};
  std::set<uint32_t> seen{table->id()};
  while (!todo.empty()) {
    const uint32_t id = todo.back();
    todo.pop_back();
    std::shared_ptr<catalog::Table> t = id == table->id() ? table : catalog.FindById(id);
    if (t == nullptr) continue;
    if (id != table->id()) locks->Add(t, catalog::LockMode::kShared);
    for (const catalog::ForeignKey& fk : t->schema().foreign_keys) {
      if (seen.insert(fk.ref_table).second) todo.push_back(fk.ref_table);
    }
    for (const catalog::Catalog::Reference& ref : catalog.ReferencesTo(id)) {
      if (seen.insert(ref.table->id()).second) todo.push_back(ref.table->id());
    }
  }
}

}  // namespace

Result<std::shared_ptr<catalog::Table>> Binder::LookupTable(const std::string& schema_in,
                                                            const std::string& name_in,
                                                            const ast::Location& loc,
                                                            catalog::LockMode mode) {
  // name_in may be a written name (ast::QualifyName) carrying its schema.
  std::string schema = schema_in, name = name_in;
  if (schema.empty()) ast::SplitName(name_in, &schema, &name);
  const std::string display = schema.empty() ? name : schema + "." + name;
  auto undefined = [&] {
    return Status::Error(sqlstate::kUndefinedTable, "relation \"" + display + "\" does not exist")
        .WithPosition(loc.position);
  };
  if (schema.empty() || schema == "pg_catalog" || schema == "information_schema") {
    // Built from the catalog for this statement; private to it, so it needs no lock.
    if (auto system = catalog::SystemTables::Build(*catalog_, schema, name, session_)) {
      if (mode == catalog::LockMode::kExclusive) {
        return Status::Error(sqlstate::kInsufficientPrivilege,
                             "permission denied: \"" + name + "\" is a system catalog")
            .WithPosition(loc.position);
      }
      read_system_tables_ = true;
      return system;
    }
    if (!schema.empty()) return undefined();
  }
  const std::string written = ast::QualifyName(schema, name);
  std::shared_ptr<catalog::Table> table = catalog_->Find(written);
  if (table == nullptr) {
    if (mode == catalog::LockMode::kExclusive && catalog_->FindView(written, session_) != nullptr) {
      return CannotChangeView(name, loc.position);
    }
    // A sequence reads as its one-row relation (last_value, log_cnt, is_called), built now
    // like a system table: such a statement is never cached.
    if (std::shared_ptr<catalog::Sequence> seq = catalog_->FindSequence(written)) {
      if (mode == catalog::LockMode::kExclusive) {
        return Status::Error(sqlstate::kWrongObjectType, "cannot change sequence \"" + name + "\"")
            .WithPosition(loc.position);
      }
      read_system_tables_ = true;
      return catalog::SystemTables::SequenceRelation(*seq);
    }
    return undefined();
  }
  NoteRelation(table->id());
  // kExclusive marks a write target; under MVCC writers share the table lock too (they meet
  // at row write locks), so only DDL takes it exclusively.
  if (mode == catalog::LockMode::kExclusive) LockForeignKeyTables(*catalog_, table, locks_);
  locks_->Add(table, catalog::LockMode::kShared);
  return table;
}

Binder::ScopeTable Binder::TableScope(std::string name, std::shared_ptr<catalog::Table> table,
                                      int offset) {
  const catalog::TableSchema& schema = table->schema();
  ScopeTable st = SchemaScope(schema, std::move(table), offset);
  st.name = std::move(name);
  return st;
}

Binder::ScopeTable Binder::SchemaScope(const catalog::TableSchema& schema,
                                       std::shared_ptr<catalog::Table> table, int offset) {
  ScopeTable st{schema.name, std::move(table), offset, {}, false, {}, {}, {}};
  for (const catalog::Column& c : schema.columns) {
    // A dropped column keeps its place in the row but has no name: nothing can refer to it,
    // and * skips it.
    st.columns.push_back({c.dropped ? std::string() : c.name, c.type, !c.not_null});
  }
  return st;
}

int Binder::ScopeTable::Find(const std::string& column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return static_cast<int>(i);
  }
  return -1;
}

const Binder::ScopeTable::Merged* Binder::ScopeTable::FindMerged(const std::string& column) const {
  for (const Merged& m : merged) {
    if (m.name == column) return &m;
  }
  return nullptr;
}

Result<BoundExprPtr> Binder::UnqualifiedColumn(const ScopeTable& st, int c, int depth,
                                               uint32_t pos) {
  const ColumnInfo& col = st.columns[c];
  NoteColumn(st, c);
  auto value = BoundExpr::Column(depth, st.offset + c, col.type, st.name + "." + col.name);
  value->position = pos;
  if (static_cast<size_t>(c) < st.shapes.size()) value->shape = st.shapes[c];
  // Each RIGHT / FULL JOIN ... USING that merged this column, in join order: the right side's
  // column, or COALESCE(the value so far, the right side's column).
  for (const ScopeTable::Merged& m : st.merged) {
    if (m.name != col.name) continue;
    auto right = BoundExpr::Column(depth, m.right_index, m.right_type, m.right_name);
    right->position = pos;
    if (!m.full) {
      value = std::move(right);
      continue;
    }
    auto e = std::make_unique<BoundExpr>();
    e->kind = BoundKind::kFunction;
    e->type = m.type;
    e->position = pos;
    e->func = Func::kCoalesce;
    e->name = "coalesce";
    MERIDIAN_ASSIGN_OR_RETURN(value, Coerce(std::move(value), m.type, false, ""));
    MERIDIAN_ASSIGN_OR_RETURN(right, Coerce(std::move(right), m.type, false, ""));
    e->children.push_back(std::move(value));
    e->children.push_back(std::move(right));
    value = std::move(e);
  }
  return value;
}

// The system column tableoid of a table in FROM (qualified by expr.table, or the only table of
// the innermost scope that has tables): the table's pg_class oid, a constant. Null when no
// table qualifies (or a FROM item has a column of that name), so the name resolves as any.
Result<BoundExprPtr> Binder::BindTableOid(const ast::Expr& expr) {
  for (const Scope* s = scope_; s != nullptr; s = s->parent) {
    const ScopeTable* found = nullptr;
    for (const ScopeTable& st : s->tables) {
      if (!expr.table.empty() && st.name != expr.table) continue;
      if (st.Find(expr.name) >= 0 || st.table == nullptr) return BoundExprPtr();
      if (found != nullptr) {
        return Status::Error(sqlstate::kAmbiguousColumn,
                             "column reference \"" + expr.name + "\" is ambiguous")
            .WithPosition(expr.loc.position);
      }
      found = &st;
    }
    if (found != nullptr) {
      return BoundExpr::Const(Value::Int(catalog::SystemTables::TableOid(*found->table)),
                              Type::BigInt(), expr.loc.position);
    }
  }
  return BoundExprPtr();
}

Result<BoundExprPtr> Binder::BindColumnRef(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  if (!rules_.columns) {
    if (std::string(rules_.clause) == "DEFAULT") {
      return Status::NotSupported("cannot use column reference in DEFAULT expression")
          .WithPosition(pos);
    }
    return Status::Error(
               sqlstate::kInvalidColumnReference,
               std::string("argument of ") + rules_.clause + " must not contain variables")
        .WithPosition(pos);
  }
  const std::string display = expr.table.empty() ? expr.name : expr.table + "." + expr.name;
  if (expr.kind == ast::ExprKind::kStar) {  // t.* in an expression: the whole row of t
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr row, WholeRowByName(expr.table, pos));
    if (row != nullptr) return row;
    return Status::Error(sqlstate::kUndefinedTable,
                         "missing FROM-clause entry for table \"" + expr.table + "\"")
        .WithPosition(pos);
  }
  if (expr.name == "tableoid") {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr oid, BindTableOid(expr));
    if (oid != nullptr) return oid;
  }
  for (const Scope* s = scope_; s != nullptr; s = s->parent) {
    if (s->tables.empty()) continue;
    const ScopeTable* found_table = nullptr;
    int found_column = -1;
    for (const ScopeTable& st : s->tables) {
      if (!expr.table.empty() && st.name != expr.table) continue;
      int c = st.Find(expr.name);
      if (expr.table.empty() && c >= 0 &&
          std::find(st.using_hidden.begin(), st.using_hidden.end(), expr.name) !=
              st.using_hidden.end()) {
        continue;  // merged by USING into an earlier table's column
      }
      if (!expr.table.empty() && c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn, "column " + display + " does not exist")
            .WithPosition(pos);
      }
      if (c < 0) continue;
      if (found_table != nullptr) {
        return Status::Error(sqlstate::kAmbiguousColumn,
                             "column reference \"" + expr.name + "\" is ambiguous")
            .WithPosition(pos);
      }
      found_table = &st;
      found_column = c;
    }
    if (found_table != nullptr) {
      int depth = scope_->level - s->level;
      if (depth > 0) s->read_from_below = true;
      for (int l = s->level + 1; l <= scope_->level; ++l) correlated_[l] = true;
      if (expr.table.empty()) return UnqualifiedColumn(*found_table, found_column, depth, pos);
      const ColumnInfo& col = found_table->columns[found_column];
      NoteColumn(*found_table, found_column);
      auto e = BoundExpr::Column(depth, found_table->offset + found_column, col.type,
                                 found_table->name + "." + col.name);
      e->position = pos;
      if (static_cast<size_t>(found_column) < found_table->shapes.size()) {
        e->shape = found_table->shapes[found_column];
      }
      return e;
    }
  }
  if (!expr.table.empty()) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "missing FROM-clause entry for table \"" + expr.table + "\"")
        .WithPosition(pos);
  }
  // No column of that name at any level: a FROM item's name is a whole-row reference, as in
  // PostgreSQL (columns win over table names).
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr row, WholeRowByName(expr.name, pos));
  if (row != nullptr) return row;
  return Status::Error(sqlstate::kUndefinedColumn, "column \"" + expr.name + "\" does not exist")
      .WithPosition(pos);
}

Result<std::unique_ptr<SubqueryPlan>> Binder::BindSubqueryPlan(const ast::SelectStmt& stmt,
                                                               std::vector<ColumnInfo>* columns,
                                                               HashedForm form, bool defer,
                                                               bool semi) {
  if (!rules_.subqueries) {
    // PostgreSQL: "cannot use subquery in DEFAULT expression" / "... in EXECUTE parameter".
    const std::string clause = rules_.clause;
    return Status::NotSupported("cannot use subquery in " +
                                (clause == "EXECUTE parameters"  ? std::string("EXECUTE parameter")
                                 : clause == "check constraints" ? std::string("check constraint")
                                                                 : clause + " expression"))
        .WithPosition(stmt.loc.position);
  }
  // Binds the subquery with the expression rules of a query of its own (again for the hashed
  // form's bindings below).
  auto bind = [&]() {
    const ExprRules saved_rules = std::exchange(rules_, ExprRules{});
    const bool saved_in_aggregate = std::exchange(in_aggregate_, false);
    const char* saved_in_window = std::exchange(in_window_, nullptr);
    ++sublink_depth_;
    auto bound = BindSelectInScope(stmt);
    --sublink_depth_;
    rules_ = saved_rules;
    in_aggregate_ = saved_in_aggregate;
    in_window_ = saved_in_window;
    return bound;
  };
  const int level = scope_ == nullptr ? 0 : scope_->level + 1;
  auto bound = bind();
  if (!bound.ok()) return bound.status();
  auto plan = std::make_unique<SubqueryPlan>();
  plan->correlated = correlated_.size() > static_cast<size_t>(level) && correlated_[level];
  *columns = (*bound)->columns;
  if (!columns->empty()) plan->type = (*columns)[0].type;
  // Which hashed form the subquery may get: a correlated scalar one only when it aggregates
  // without GROUP BY, an IN only when it does not aggregate (planner/decorrelate.cc decides).
  if (!plan->correlated ||
      (form == HashedForm::kScalar && (!(*bound)->aggregated || !(*bound)->group_by.empty())) ||
      (form == HashedForm::kIn && (*bound)->aggregated)) {
    form = HashedForm::kNone;
  }
  ExplainSubplans* explaining = ExplainSubplans::Active();
  if (explaining != nullptr) {
    // EXPLAIN prints the subquery's plan (its operators instrumented for ANALYZE).
    MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect planned,
                              PlanSelectExplained(std::move(*bound), explaining->analyze));
    planned.root->PruneColumns(std::vector<bool>(columns->size(), true));  // as PlanSelect does
    plan->root = std::move(planned.root);
    plan->explain = std::move(planned.explain);
    if (form == HashedForm::kNone) return plan;
  } else if (form == HashedForm::kNone) {
    MERIDIAN_ASSIGN_OR_RETURN(plan->root, PlanSelect(std::move(*bound)));
    return plan;
  }
  // The per-row plan, and from a second binding the hashed form when the correlation allows
  // one (planner/decorrelate.cc); a scalar one reads the value over no rows from a third.
  double per_row_cost = 1.0;
  if (plan->explain != nullptr) {
    per_row_cost = plan->explain->total_cost;
  } else {
    MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect per_row, PlanSelectExplained(std::move(*bound), false));
    per_row.root->PruneColumns(std::vector<bool>(columns->size(), true));  // as PlanSelect does
    plan->root = std::move(per_row.root);
    if (per_row.explain != nullptr) per_row_cost = per_row.explain->total_cost;
  }
  // EXPLAIN prints the per-row plan only: the hashed form's subqueries are not numbered.
  ExplainSubplans::Scope not_explained(nullptr);
  auto again = bind();
  if (!again.ok()) return plan;
  std::unique_ptr<BoundSelect> spare;
  // A scalar one reads its value over no rows from a third binding; a deferred EXISTS / IN
  // gets one for the unique-ified inner side the lowering may join instead (decorrelate.cc,
  // UniqueInner).
  if (form == HashedForm::kScalar || (defer && semi && form != HashedForm::kNone)) {
    auto third = bind();
    if (!third.ok()) return plan;
    spare = std::move(*third);
  }
  if (defer) {
    // A WHERE conjunct of a SELECT: the decorrelation rule builds the hashed form, if any.
    plan->deferred = std::make_unique<SubqueryPlan::Deferred>();
    plan->deferred->form = form;
    plan->deferred->select = std::move(*again);
    plan->deferred->spare = std::move(spare);
    plan->deferred->per_row_cost = per_row_cost;
    return plan;
  }
  plan->hashed = Decorrelate(form, std::move(*again), std::move(spare), per_row_cost);
  return plan;
}

void Binder::KeepHashedIn(SubqueryPlan* plan, const Type& x) {
  if (HashesAsEqual(x, plan->type)) return;
  plan->hashed.reset();
  plan->deferred.reset();
}

Result<BoundExprPtr> Binder::Coerce(BoundExprPtr e, Type to, bool assignment,
                                    const std::string& column) {
  InferParamType(e.get(), to);
  if (e->type == to) return e;
  // Arrays: the same array type when the elements' types are the same (int[] from numeric[]
  // casts every element); an element modifier (varchar(n)[]) is checked element by element.
  if (e->type.IsArray() && to.IsArray() && e->type.element == to.element && to.modifier < 0) {
    return e;
  }
  const bool arrays = e->type.IsArray() || to.IsArray();
  // Same type: nothing to do unless the target's modifier constrains the value (varchar(n),
  // char(n), numeric(p,s), timestamp(p)).
  if (!arrays && e->type.id == to.id && (to.modifier < 0 || to.id == TypeId::kBoolean)) return e;
  if (!arrays && e->type.id == to.id && to.id != TypeId::kVarchar && to.id != TypeId::kChar &&
      to.id != TypeId::kNumeric && to.id != TypeId::kTimestamp && to.id != TypeId::kTimestampTz &&
      to.id != TypeId::kTime) {
    return e;
  }
  if (e->type.id == TypeId::kVarchar && to.id == TypeId::kVarchar && to.modifier >= 0 &&
      e->type.modifier >= 0 && e->type.modifier <= to.modifier) {
    return e;
  }
  if (e->type.IsArray() && to.IsArray() && e->type.element == to.element &&
      e->type.element == TypeId::kVarchar && e->type.modifier >= 0 &&
      e->type.modifier <= to.modifier) {
    return e;
  }
  bool allowed = assignment ? CanAssign(e->type, to) : CanCast(e->type, to);
  if (!allowed) {
    if (assignment) {
      return Status::Error(sqlstate::kDatatypeMismatch,
                           "column \"" + column + "\" is of type " + to.DisplayName() +
                               " but expression is of type " + e->type.DisplayName())
          .WithHint("You will need to rewrite or cast the expression.")
          .WithPosition(e->position);
    }
    return Status::Error(sqlstate::kCannotCoerce,
                         "cannot cast type " + e->type.Name() + " to " + to.Name())
        .WithPosition(e->position);
  }
  if (e->kind == BoundKind::kConst) {
    auto v = CastValue(e->value, e->type, to, !assignment);
    if (!v.ok()) return Status(v.status()).WithPositionIfUnset(e->position);
    return BoundExpr::Const(std::move(v).value(), to, e->position);
  }
  auto cast = std::make_unique<BoundExpr>();
  cast->kind = BoundKind::kCast;
  cast->type = to;
  cast->position = e->position;
  cast->explicit_cast = !assignment;
  cast->children.push_back(std::move(e));
  return cast;
}

namespace {

// PostgreSQL's internal type name, which names a column computed by a cast.
std::string CastColumnName(const std::string& type_name) {
  if (type_name == "integer") return "int4";
  if (type_name == "smallint") return "int2";
  if (type_name == "bigint") return "int8";
  if (type_name == "double precision") return "float8";
  if (type_name == "real") return "float4";
  if (type_name == "boolean") return "bool";
  if (type_name == "char") return "bpchar";
  return type_name;
}

// FigureColnameInternal: strength 2 for real names, 1 for fallbacks, 0 for none.
int FigureName(const ast::Expr& e, std::string* name) {
  switch (e.kind) {
    case ast::ExprKind::kFunction:
      // A JSON operator (a call of the function named "->", ...) names no column, as no
      // operator does.
      if (!e.name.empty() && std::ispunct(static_cast<unsigned char>(e.name[0])) &&
          e.name[0] != '_') {
        return 0;
      }
      *name = e.name;
      return 2;
    case ast::ExprKind::kColumnRef:
      *name = e.name;
      return 2;
    case ast::ExprKind::kCast: {
      int strength = e.children.empty() ? 0 : FigureName(*e.children[0], name);
      if (strength <= 1) {
        *name = CastColumnName(e.cast_type.name);
        return 1;
      }
      return strength;
    }
    case ast::ExprKind::kCase:
      *name = "case";
      return 1;
    case ast::ExprKind::kExists:
      *name = "exists";
      return 2;
    case ast::ExprKind::kArray:
      *name = "array";
      return 2;
    case ast::ExprKind::kSubscript:  // a[1] is named after a
      return FigureName(*e.children[0], name);
    case ast::ExprKind::kFieldSelect:  // (t).col is named col
      *name = e.name;
      return 2;
    case ast::ExprKind::kLiteral:
      if (e.literal_kind == ast::LiteralKind::kBool) {
        *name = "bool";
        return 1;
      }
      return 0;
    case ast::ExprKind::kSubquery:
      if (e.subquery != nullptr && !e.subquery->items.empty()) {
        const ast::SelectItem& item = e.subquery->items[0];
        if (!item.alias.empty()) {
          *name = item.alias;
        } else if (item.expr != nullptr) {
          *name = Binder::OutputName(*item.expr);
        }
        return 2;
      }
      return 0;
    default:
      return 0;
  }
}

}  // namespace

std::string Binder::OutputName(const ast::Expr& expr) {
  std::string name;
  if (FigureName(expr, &name) > 0) return name;
  return "?column?";
}

std::string Binder::IndexColumnName(const ast::Expr& expr) {
  std::string name;
  if (FigureName(expr, &name) > 0) return name;
  return "expr";
}

Result<BoundExprPtr> Binder::BindStandalone(Scope* scope, ExprRules rules,
                                            const std::function<Result<BoundExprPtr>()>& bind) {
  ExprRules saved_rules = rules_;
  ParamTypes* saved_params = params_;
  Result<BoundExprPtr> bound = [&] {
    ScopeSwitch enter(this, scope);
    correlated_.assign(1, false);
    rules_ = rules;
    params_ = nullptr;
    return bind();
  }();
  rules_ = saved_rules;
  params_ = saved_params;
  return bound;
}

Result<BoundExprPtr> Binder::BindDefault(const ast::Expr& expr, Type type,
                                         const std::string& column) {
  Scope empty;
  auto bound = BindStandalone(&empty, ExprRules{"DEFAULT", false, false, false},
                              [&] { return BindExpr(expr); });
  if (!bound.ok()) return bound.status();
  return Coerce(std::move(bound).value(), type, /*assignment=*/true, column);
}

}  // namespace meridian::exec
