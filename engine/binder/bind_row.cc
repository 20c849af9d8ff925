// Record values: whole-row references (`SELECT t FROM t`, `row_to_json(t)`) and ROW(a, b, ...).
// Both bind as a Func::kRow call whose children are the fields and whose shape names and types
// them; the evaluator builds a Value::Record of the children's values. Field selection
// `(t).col` binds as the field's own expression, or reads the field at run time where the
// binder knows only the record's shape (a derived table's column: Func::kRecordField).
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
    if (c < st.shapes.size()) f->shape = st.shapes[c];
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

namespace {

bool SameShape(const RecordShape& a, const RecordShape& b) {
  return &a == &b || (a.names == b.names && a.types == b.types);
}

}  // namespace

std::shared_ptr<const RecordShape> Binder::ShapeOf(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn) return e.shape;
  if (e.kind == BoundKind::kFunction && e.func == Func::kRow) return e.shape;
  if (e.kind != BoundKind::kCase) return nullptr;
  // Every result of the CASE that is not a NULL must be a record of one shape.
  std::shared_ptr<const RecordShape> out;
  const size_t first = e.has_operand ? 1 : 0;
  const size_t end = e.children.size() - (e.has_else ? 1 : 0);
  std::vector<const BoundExpr*> results;
  for (size_t i = first + 1; i < end; i += 2) results.push_back(e.children[i].get());
  if (e.has_else) results.push_back(e.children.back().get());
  for (const BoundExpr* r : results) {
    if (r->kind == BoundKind::kConst && r->value.IsNull()) continue;
    std::shared_ptr<const RecordShape> shape = ShapeOf(*r);
    if (shape == nullptr || (out != nullptr && !SameShape(*out, *shape))) return nullptr;
    out = std::move(shape);
  }
  return out;
}

std::vector<std::shared_ptr<const RecordShape>> Binder::OutputShapes(const BoundSelect& select) {
  std::vector<std::shared_ptr<const RecordShape>> out;
  if (select.set_op != ast::SetOp::kNone) {
    if (select.set_left == nullptr || select.set_right == nullptr) return out;
    out = OutputShapes(*select.set_left);
    const std::vector<std::shared_ptr<const RecordShape>> right = OutputShapes(*select.set_right);
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] == nullptr) continue;
      if (i >= right.size() || right[i] == nullptr || !SameShape(*out[i], *right[i])) {
        out[i] = nullptr;
      }
    }
    return out;
  }
  if (select.function != nullptr || select.work_table_scan) return out;
  bool any = false;
  for (size_t i = 0; i < select.visible && i < select.projections.size(); ++i) {
    out.push_back(select.columns[i].type.id == TypeId::kRecord ? ShapeOf(*select.projections[i])
                                                               : nullptr);
    any = any || out.back() != nullptr;
  }
  if (!any) out.clear();
  return out;
}

BoundExprPtr Binder::FieldOf(BoundExprPtr record, const RecordShape& shape, size_t i,
                             uint32_t pos) {
  // The ROW(...) the record is (a whole row, or written): the field's own expression.
  if (record->kind == BoundKind::kFunction && record->func == Func::kRow) {
    return std::move(record->children[i]);
  }
  // Else the field read at run time (a derived table's column, a whole row on the
  // NULL-extended side of an outer join: NULL when the record is).
  auto e = BoundExpr::Make(BoundKind::kFunction, shape.types[i], pos);
  e->func = Func::kRecordField;
  e->name = shape.names[i];
  e->children.push_back(std::move(record));
  e->children.push_back(BoundExpr::Const(Value::Int(static_cast<int64_t>(i)), Type::Integer()));
  return e;
}

Status Binder::BindFieldStar(const ast::Expr& x, BoundSelect* out,
                             std::vector<const ast::Expr*>* item_asts) {
  const uint32_t pos = x.loc.position;
  const ast::Expr& operand = *x.children[0];
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr record, BindExpr(operand));
  if (record->type.id != TypeId::kRecord) {
    return Status::Error(sqlstate::kWrongObjectType,
                         "type " + record->type.Name() + " is not composite")
        .WithPosition(pos);
  }
  const std::shared_ptr<const RecordShape> shape = ShapeOf(*record);
  if (shape == nullptr) {
    return Status::Error(sqlstate::kWrongObjectType, "record type has not been registered")
        .WithPosition(pos);
  }
  for (size_t i = 0; i < shape->names.size(); ++i) {
    if (i > 0) {
      MERIDIAN_ASSIGN_OR_RETURN(record, BindExpr(operand));
    }
    out->columns.push_back({shape->names[i], shape->types[i], true});
    out->projections.push_back(FieldOf(std::move(record), *shape, i, pos));
    item_asts->push_back(nullptr);
  }
  return Status::Ok();
}

Result<BoundExprPtr> Binder::BindFieldSelect(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const ast::Expr& operand = *expr.children[0];
  if (expr.star) {  // (expr).* inside an expression, as PostgreSQL
    return Status::NotSupported("row expansion via \"*\" is not supported here").WithPosition(pos);
  }
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr record, BindExpr(operand));
  if (record->type.id != TypeId::kRecord) {
    return Status::Error(sqlstate::kWrongObjectType, "column notation ." + expr.name +
                                                         " applied to type " + record->type.Name() +
                                                         ", which is not a composite type")
        .WithPosition(pos);
  }
  // A record whose fields the binder cannot see (a scalar subquery's, an array element's, a
  // field of a derived table's record column): PostgreSQL's 42703 too.
  std::shared_ptr<const RecordShape> shape = ShapeOf(*record);
  if (shape == nullptr) {
    return Status::Error(sqlstate::kUndefinedColumn,
                         "could not identify column \"" + expr.name + "\" in record data type")
        .WithPosition(pos);
  }
  for (size_t i = 0; i < shape->names.size(); ++i) {
    if (shape->names[i] == expr.name) return FieldOf(std::move(record), *shape, i, pos);
  }
  const bool whole_row = record->kind != BoundKind::kColumn &&
                         ((operand.kind == ast::ExprKind::kColumnRef && operand.table.empty()) ||
                          (operand.kind == ast::ExprKind::kStar && !operand.table.empty()));
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
