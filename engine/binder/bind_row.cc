// Record values: whole-row references (`SELECT t FROM t`, `row_to_json(t)`) and ROW(a, b, ...).
// Both bind as a Func::kRow call whose children are the fields and whose shape names and types
// them; the evaluator builds a Value::Record of the children's values. Field selection
// `(t).col` binds as the field's own expression.
#include "binder/binder.h"

namespace meridian::exec {

namespace {

BoundExprPtr MakeRowCall(std::vector<BoundExprPtr> fields, std::shared_ptr<RecordShape> shape,
                         uint32_t pos) {
  auto e = BoundExpr::Make(BoundKind::kFunction, Type::Record(), pos);
  e->name = "row";
  e->func = Func::kRow;
  e->children = std::move(fields);
  e->shape = std::move(shape);
  return e;
}

}  // namespace

Result<BoundExprPtr> Binder::WholeRowRef(const ScopeTable& st, int depth, uint32_t pos) {
  auto shape = std::make_shared<RecordShape>();
  std::vector<BoundExprPtr> fields;
  int not_null = -1;  // a column that is NULL only when the row is NULL-extended
  for (size_t c = 0; c < st.columns.size(); ++c) {
    const ColumnInfo& col = st.columns[c];
    if (col.name.empty()) continue;  // a dropped column
    NoteColumn(st, static_cast<int>(c));
    if (not_null < 0 && !col.nullable) not_null = static_cast<int>(c);
    auto f = BoundExpr::Column(depth, st.offset + static_cast<int>(c), col.type,
                               st.name + "." + col.name);
    f->position = pos;
    fields.push_back(std::move(f));
    shape->names.push_back(col.name);
    shape->types.push_back(col.type);
  }
  BoundExprPtr row = MakeRowCall(std::move(fields), std::move(shape), pos);
  if (!st.nullable || not_null < 0) return row;
  // On the NULL-extended side of an outer join the whole row is NULL, as PostgreSQL's
  // whole-row Var (not a record of NULLs): CASE WHEN <not-null column> IS NULL THEN NULL ELSE
  // ROW(...) END.
  auto test = BoundExpr::Make(BoundKind::kIsNull, Type::Boolean(), pos);
  test->children.push_back(BoundExpr::Column(depth, st.offset + not_null, st.columns[not_null].type,
                                             st.name + "." + st.columns[not_null].name));
  auto e = BoundExpr::Make(BoundKind::kCase, Type::Record(), pos);
  e->has_else = true;
  e->children.push_back(std::move(test));
  e->children.push_back(BoundExpr::Const(Value::Null(), Type::Record(), pos));
  e->children.push_back(std::move(row));
  return e;
}

Result<BoundExprPtr> Binder::WholeRowByName(const std::string& name, uint32_t pos) {
  for (const Scope* s = scope_; s != nullptr; s = s->parent) {
    for (const ScopeTable& st : s->tables) {
      if (st.name != name) continue;
      const int depth = scope_->level - s->level;
      if (depth > 0) s->read_from_below = true;
      for (int l = s->level + 1; l <= scope_->level; ++l) correlated_[l] = true;
      return WholeRowRef(st, depth, pos);
    }
  }
  return BoundExprPtr();
}

Result<BoundExprPtr> Binder::BindRowConstructor(std::vector<BoundExprPtr> args, uint32_t pos) {
  auto shape = std::make_shared<RecordShape>();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), Type::Text(), false, ""));
    }
    shape->names.push_back("f" + std::to_string(i + 1));
    shape->types.push_back(args[i]->type);
  }
  return MakeRowCall(std::move(args), std::move(shape), pos);
}

Result<BoundExprPtr> Binder::BindFieldSelect(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const ast::Expr& operand = *expr.children[0];
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr record, BindExpr(operand));
  if (record->type.id != TypeId::kRecord) {
    return Status::Error(sqlstate::kWrongObjectType, "column notation ." + expr.name +
                                                         " applied to type " + record->type.Name() +
                                                         ", which is not a composite type")
        .WithPosition(pos);
  }
  // The ROW(...) the record is, also inside the CASE of a whole row on the NULL-extended side
  // of an outer join (whose columns are then NULL too, as the field must be).
  BoundExpr* row = record.get();
  if (row->kind == BoundKind::kCase && row->has_else && row->children.size() == 3) {
    row = row->children[2].get();
  }
  if (row->kind != BoundKind::kFunction || row->func != Func::kRow || row->shape == nullptr) {
    return Status::NotSupported("selecting a field of this record value is not supported yet")
        .WithPosition(pos);
  }
  for (size_t i = 0; i < row->shape->names.size(); ++i) {
    if (row->shape->names[i] == expr.name) return std::move(row->children[i]);
  }
  const bool whole_row = (operand.kind == ast::ExprKind::kColumnRef && operand.table.empty()) ||
                         (operand.kind == ast::ExprKind::kStar && !operand.table.empty());
  if (whole_row) {
    const std::string& table = operand.kind == ast::ExprKind::kStar ? operand.table : operand.name;
    return Status::Error(sqlstate::kUndefinedColumn,
                         "column " + table + "." + expr.name + " does not exist")
        .WithPosition(pos);
  }
  return Status::Error(sqlstate::kUndefinedColumn,
                       "could not identify column \"" + expr.name + "\" in record data type")
      .WithPosition(pos);
}

}  // namespace meridian::exec
