// Binding of UPDATE (SET assignments coerced to the column types, DEFAULT, WHERE) and of
// DELETE (WHERE), each over a scope holding just the target table, or with FROM / USING over
// the joined row of the FROM items and the target (BindModifyJoin).
#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

Status Binder::BindAssignments(const std::vector<ast::Assignment>& list,
                               const catalog::Table& table, int target_offset,
                               std::vector<BoundAssignment>* out) {
  const catalog::TableSchema& schema = table.schema();
  Scope* scope = scope_;
  std::vector<bool> subscripted;  // parallel to the entries this call adds to *out
  const size_t first = out->size();
  for (const ast::Assignment& a : list) {
    int c = schema.FindColumn(a.column);
    if (c < 0) {
      return Status::Error(
                 sqlstate::kUndefinedColumn,
                 "column \"" + a.column + "\" of relation \"" + schema.name + "\" does not exist")
          .WithPosition(a.loc.position);
    }
    MERIDIAN_RETURN_IF_ERROR(CheckTargetField(a, schema.columns[c]));
    // col[i] = v after col[j] = w assigns into the result of the first (PostgreSQL's
    // rewriter nests them so); any other second assignment to a column is 42601.
    BoundAssignment* earlier = nullptr;
    for (size_t i = first; i < out->size(); ++i) {
      if ((*out)[i].column != c) continue;
      if (!subscripted[i - first] || a.subscripts.empty()) {
        return Status::Error(sqlstate::kSyntaxError,
                             "multiple assignments to same column \"" + a.column + "\"")
            .WithPosition(a.loc.position);
      }
      earlier = &(*out)[i];
    }
    const catalog::Column& col = schema.columns[c];
    BoundExprPtr e;
    if (!a.subscripts.empty()) {
      rules_ = ExprRules{"UPDATE", false, true, true};
      BoundExprPtr current;
      if (earlier != nullptr) {
        current = std::move(earlier->value);
      } else {
        for (const ScopeTable& st : scope_->tables) {
          if (st.offset == target_offset && st.table.get() == &table) NoteColumn(st, c);
        }
        current = BoundExpr::Column(0, target_offset + c, col.type, col.name);
        current->position = a.loc.position;
      }
      MERIDIAN_ASSIGN_OR_RETURN(e, BindArrayAssignment(a, col, std::move(current), a.value.get()));
      if (earlier != nullptr) {
        earlier->value = std::move(e);
        continue;
      }
    } else if (a.value == nullptr) {
      if (col.default_expr != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(e, BindDefault(*col.default_expr, col.type, col.name));
        scope_ = scope;
      } else {
        e = BoundExpr::Const(Value::Null(), col.type);
      }
    } else {
      rules_ = ExprRules{"UPDATE", false, true, true};
      MERIDIAN_ASSIGN_OR_RETURN(e, BindExpr(*a.value));
      MERIDIAN_ASSIGN_OR_RETURN(e, Coerce(std::move(e), col.type, true, col.name));
    }
    out->push_back({c, std::move(e)});
    subscripted.push_back(!a.subscripts.empty());
  }
  return Status::Ok();
}

Status Binder::BindModifyJoin(const std::vector<ast::TableRef>& from, const ast::Expr* where,
                              const std::string& alias, Scope* scope, BoundMatch* out) {
  auto join = std::make_unique<BoundSelect>();
  int offset = 0;
  MERIDIAN_RETURN_IF_ERROR(BindFromList(from, scope, join.get(), &offset));
  // The target comes last: the FROM items join among themselves first (a RIGHT or FULL join
  // there never NULL-extends the target), as PostgreSQL joins them to the target.
  for (size_t i = 0; i < scope->tables.size(); ++i) {
    if (scope->tables[i].name == alias) {
      // PostgreSQL reports no position here.
      return Status::Error(sqlstate::kDuplicateAlias,
                           "table name \"" + alias + "\" specified more than once");
    }
  }
  out->target_offset = offset;
  scope->tables.push_back(TableScope(alias, out->table, offset));
  join->rid_table = static_cast<int>(join->from.size());
  join->from.push_back(out->table);
  join->derived.push_back(nullptr);
  join->from_names.push_back(alias);
  join->join_types.push_back(ast::JoinType::kComma);

  ScopeSwitch enter(this, scope);
  correlated_.assign(1, false);
  for (size_t i = 0; i < from.size(); ++i) {
    rules_ = ExprRules{"JOIN/ON", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr on, BindJoinCondition(from[i], i));
    join->join_on.push_back(std::move(on));
  }
  join->join_on.push_back(nullptr);
  if (where != nullptr) {
    rules_ = ExprRules{"WHERE", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(join->where, BindBoolean(*where, "WHERE"));
    MERIDIAN_ASSIGN_OR_RETURN(out->recheck, BindBoolean(*where, "WHERE"));
  }
  // The join's result is its whole row: every column, then the rid.
  int index = 0;
  for (const ScopeTable& st : scope->tables) {
    for (const ColumnInfo& c : st.columns) {
      join->projections.push_back(BoundExpr::Column(0, index++, c.type, c.name));
      join->columns.push_back(c);
    }
  }
  join->projections.push_back(BoundExpr::Column(0, index, Type::BigInt(), "ctid"));
  join->columns.push_back({"ctid", Type::BigInt(), false});
  join->visible = join->projections.size();
  out->join = std::move(join);
  return Status::Ok();
}

Result<std::unique_ptr<BoundUpdate>> Binder::BindUpdate(const ast::UpdateStmt& stmt) {
  WithScope with(this, stmt.with);  // WITH ... UPDATE: seen by FROM, SET, WHERE, RETURNING
  return BindUpdateBody(stmt);
}

Result<std::unique_ptr<BoundUpdate>> Binder::BindUpdateBody(const ast::UpdateStmt& stmt) {
  auto out = std::make_unique<BoundUpdate>();
  write_verb_ = "update";
  MERIDIAN_ASSIGN_OR_RETURN(out->table,
                            LookupTable(stmt.table, stmt.table_loc, catalog::LockMode::kExclusive));
  const catalog::TableSchema& schema = out->table->schema();
  out->alias = stmt.alias;
  const std::string name = stmt.alias.empty() ? schema.name : stmt.alias;
  Scope scope;
  if (stmt.from.empty()) {
    scope.tables.push_back(TableScope(name, out->table, 0));
  } else {
    MERIDIAN_RETURN_IF_ERROR(BindModifyJoin(stmt.from, stmt.where.get(), name, &scope, out.get()));
  }
  ScopeSwitch enter(this, &scope);
  correlated_.assign(1, false);

  MERIDIAN_RETURN_IF_ERROR(BindAssignments(stmt.assignments, *out->table,
                                           stmt.from.empty() ? 0 : out->target_offset,
                                           &out->assignments));
  if (stmt.where != nullptr && stmt.from.empty()) {
    rules_ = ExprRules{"WHERE", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(out->where, BindBoolean(*stmt.where, "WHERE"));
    MERIDIAN_ASSIGN_OR_RETURN(out->recheck, BindBoolean(*stmt.where, "WHERE"));
  }
  MERIDIAN_ASSIGN_OR_RETURN(out->checks, BindChecks(out->table));
  MERIDIAN_RETURN_IF_ERROR(CheckIdentityAssignments(stmt.assignments, *out->table));
  if (stmt.from.empty()) {
    MERIDIAN_RETURN_IF_ERROR(BindReturning(stmt.returning, out->table, &out->returning, name));
  } else {
    MERIDIAN_RETURN_IF_ERROR(BindJoinReturning(stmt.returning, scope, &out->returning));
  }
  return out;
}

Result<std::unique_ptr<BoundDelete>> Binder::BindDelete(const ast::DeleteStmt& stmt) {
  WithScope with(this, stmt.with);  // WITH ... DELETE: seen by USING, WHERE, RETURNING
  return BindDeleteBody(stmt);
}

Result<std::unique_ptr<BoundDelete>> Binder::BindDeleteBody(const ast::DeleteStmt& stmt) {
  auto out = std::make_unique<BoundDelete>();
  write_verb_ = "delete from";
  MERIDIAN_ASSIGN_OR_RETURN(out->table,
                            LookupTable(stmt.table, stmt.table_loc, catalog::LockMode::kExclusive));
  out->alias = stmt.alias;
  const std::string name = stmt.alias.empty() ? out->table->name() : stmt.alias;
  Scope scope;
  if (stmt.using_from.empty()) {
    scope.tables.push_back(TableScope(name, out->table, 0));
  } else {
    MERIDIAN_RETURN_IF_ERROR(
        BindModifyJoin(stmt.using_from, stmt.where.get(), name, &scope, out.get()));
  }
  ScopeSwitch enter(this, &scope);
  correlated_.assign(1, false);
  if (stmt.where != nullptr && stmt.using_from.empty()) {
    rules_ = ExprRules{"WHERE", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(out->where, BindBoolean(*stmt.where, "WHERE"));
    MERIDIAN_ASSIGN_OR_RETURN(out->recheck, BindBoolean(*stmt.where, "WHERE"));
  }
  if (stmt.using_from.empty()) {
    MERIDIAN_RETURN_IF_ERROR(BindReturning(stmt.returning, out->table, &out->returning, name));
  } else {
    MERIDIAN_RETURN_IF_ERROR(BindJoinReturning(stmt.returning, scope, &out->returning));
  }
  return out;
}

}  // namespace meridian::exec
