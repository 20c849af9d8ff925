// Binding of one-dimensional arrays: ARRAY[...] and ARRAY(subquery), x op ANY|ALL (array),
// subscripts and slices, || with arrays, the array functions (array_to_string, array_upper,
// array_length, cardinality, ...) and the set-returning functions in FROM (unnest,
// generate_series). Columns may hold arrays too (stored by storage/tuple.h); no index key may.
#include <optional>

#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

namespace {

bool IsUnknown(const BoundExprPtr& e) { return e->type.id == TypeId::kUnknown; }

}  // namespace

bool IsJsonEachName(const std::string& n);  // bind_json.cc

Result<BoundExprPtr> Binder::BindArray(const ast::Expr& expr, Type cast_to) {
  const uint32_t pos = expr.loc.position;
  if (expr.subquery != nullptr) {  // ARRAY(subquery): every row's single column
    std::vector<ColumnInfo> columns;
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<SubqueryPlan> plan,
                              BindSubqueryPlan(*expr.subquery, &columns));
    if (columns.size() != 1) {
      return Status::Error(sqlstate::kSyntaxError, "subquery must return only one column")
          .WithPosition(pos);
    }
    Type element = plan->type.id == TypeId::kUnknown ? Type::Text() : plan->type;
    if (element.IsArray()) {
      return Status::NotSupported("multidimensional arrays are not supported yet")
          .WithPosition(pos);
    }
    auto e = BoundExpr::Make(BoundKind::kArray, Type::Array(element), pos);
    e->subquery = std::move(plan);
    return e;
  }
  std::vector<BoundExprPtr> elements;
  std::vector<BoundExprPtr*> slots;
  bool all_unknown = true;
  for (const ast::ExprPtr& c : expr.children) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr element, BindExpr(*c));
    if (!IsUnknown(element)) all_unknown = false;
    elements.push_back(std::move(element));
  }
  Type element_type = Type::Unknown();
  if (cast_to.IsArray() && all_unknown) {
    // ARRAY['1', '2']::int[] and ARRAY[]::int[]: the elements take the element type.
    element_type = cast_to.Element();
    for (BoundExprPtr& element : elements) {
      MERIDIAN_ASSIGN_OR_RETURN(element, Coerce(std::move(element), element_type, false, ""));
    }
  } else {
    if (elements.empty()) {
      return Status::Error(sqlstate::kIndeterminateDatatype, "cannot determine type of empty array")
          .WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[].")
          .WithPosition(pos);
    }
    for (BoundExprPtr& element : elements) slots.push_back(&element);
    MERIDIAN_RETURN_IF_ERROR(UnifyTypes(slots, "ARRAY", &element_type));
  }
  if (element_type.IsArray()) {
    return Status::NotSupported("multidimensional arrays are not supported yet").WithPosition(pos);
  }
  auto e = BoundExpr::Make(BoundKind::kArray, Type::Array(element_type), pos);
  e->children = std::move(elements);
  if (!cast_to.IsArray() || e->type == cast_to) return e;
  if (!CanCast(e->type, cast_to)) {
    return Status::Error(sqlstate::kCannotCoerce,
                         "cannot cast type " + e->type.Name() + " to " + cast_to.Name())
        .WithPosition(pos);
  }
  auto cast = BoundExpr::Make(BoundKind::kCast, cast_to, pos);
  cast->explicit_cast = true;
  cast->children.push_back(std::move(e));
  return cast;
}

Result<BoundExprPtr> Binder::BindQuantifiedArray(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr x, BindExpr(*expr.children[0]));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr array, BindExpr(*expr.children[1]));
  if (IsUnknown(array)) {  // x = ANY ('{1,2}'): the literal is an array of x's type
    Type element = IsUnknown(x) ? Type::Text() : x->type;
    if (element.id == TypeId::kVarchar) element = Type::Text();
    MERIDIAN_ASSIGN_OR_RETURN(
        array, Coerce(std::move(array), Type::Array(Type{element.id, -1}), false, ""));
  }
  if (!array->type.IsArray()) {
    return Status::Error(sqlstate::kWrongObjectType,
                         std::string("op ANY/ALL (array) requires array on right side"))
        .WithPosition(pos);
  }
  const Type element = array->type.Element();
  if (IsUnknown(x)) {
    Type target = element.id == TypeId::kVarchar ? Type::Text() : Type{element.id, -1};
    MERIDIAN_ASSIGN_OR_RETURN(x, Coerce(std::move(x), target, false, ""));
  }
  if (!Comparable(x->type, element)) {
    return Status::Error(sqlstate::kUndefinedFunction,
                         std::string("operator does not exist: ") + x->type.Name() + " " +
                             ast::OperatorName(expr.binary_op) + " " + element.Name())
        .WithHint(
            "No operator matches the given name and argument types. You might need to add "
            "explicit type casts.")
        .WithPosition(pos);
  }
  auto e = BoundExpr::Make(BoundKind::kQuantifiedArray, Type::Boolean(), pos);
  e->binary_op = expr.binary_op;
  e->all = expr.all;
  e->children.push_back(std::move(x));
  e->children.push_back(std::move(array));
  return e;
}

Result<BoundExprPtr> Binder::BindSubscript(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr array, BindExpr(*expr.children[0]));
  if (array->type.id == TypeId::kJsonb) {
    // j[s]: one #> step, s a text or an integer (as its text); no slices.
    if (expr.slice) {
      return Status::Error(sqlstate::kDatatypeMismatch, "jsonb subscript does not support slices")
          .WithPosition(expr.children.back()->loc.position);
    }
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr index, BindExpr(*expr.children[1]));
    if (!index->type.IsString() && !index->type.IsIntegral() && !IsUnknown(index)) {
      return Status::Error(sqlstate::kDatatypeMismatch,
                           "subscript type " + index->type.Name() + " is not supported")
          .WithHint("jsonb subscript must be coercible to either integer or text.")
          .WithPosition(index->position);
    }
    if (index->type.id != TypeId::kText) {
      auto text = BoundExpr::Make(BoundKind::kCast, Type::Text(), index->position);
      text->explicit_cast = true;
      text->children.push_back(std::move(index));
      index = std::move(text);
    }
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(array));
    args.push_back(std::move(index));
    return MakeJsonCall("jsonb_subscript", std::move(args), Type::Jsonb(), pos);
  }
  if (array->type.id == TypeId::kPoint && !expr.slice) {  // p[0], p[1]: x and y
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr index, BindExpr(*expr.children[1]));
    return BindPointSubscript(std::move(array), std::move(index), pos);
  }
  if (array->type.id == TypeId::kText && !expr.slice && expr.children.size() == 2) {
    // The catalogs' names are text here; PostgreSQL's name subscripts as a char array from 0
    // (pg_dump's `typname[0] = '_'`): name[i] is the i-th byte, NULL past the end.
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr index, BindArrayIndex(*expr.children[1]));
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(array));
    args.push_back(std::move(index));
    return MakeJsonCall("name_subscript", std::move(args), Type::Text(), pos);
  }
  if (!array->type.IsArray()) {
    return Status::Error(sqlstate::kDatatypeMismatch,
                         "cannot subscript type " + array->type.Name() +
                             " because it does not support subscripting")
        .WithPosition(pos);
  }
  auto e =
      BoundExpr::Make(BoundKind::kSubscript, expr.slice ? array->type : array->type.Element(), pos);
  e->children.push_back(std::move(array));
  for (size_t i = 1; i < expr.children.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr index, BindArrayIndex(*expr.children[i]));
    e->children.push_back(std::move(index));
  }
  return e;
}

Result<BoundExprPtr> Binder::BindArrayIndex(const ast::Expr& expr) {
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr index, BindExpr(expr));
  if (!IsUnknown(index) && !index->type.IsIntegral()) {
    return Status::Error(sqlstate::kDatatypeMismatch, "array subscript must have type integer")
        .WithPosition(index->position);
  }
  return Coerce(std::move(index), Type::Integer(), false, "");
}

Status Binder::CheckTargetField(const ast::Assignment& a, const catalog::Column& col) {
  if (a.field.empty()) return Status::Ok();
  // After a subscript of a column that is no array, the subscript is what is refused.
  if (a.field_after > 0 && !col.type.IsArray()) return Status::Ok();
  const Type type = a.field_after == 0 ? col.type : col.type.Element();
  return Status::Error(sqlstate::kDatatypeMismatch,
                       "cannot assign to field \"" + a.field + "\" of column \"" + col.name +
                           "\" because its type " + type.Name() + " is not a composite type")
      .WithPosition(a.loc.position);
}

Result<BoundExprPtr> Binder::BindArrayAssignment(const ast::Assignment& a,
                                                 const catalog::Column& col, BoundExprPtr current,
                                                 const ast::Expr* value_expr, BoundExprPtr value) {
  const uint32_t pos = a.loc.position;
  if (!col.type.IsArray()) {
    return Status::Error(sqlstate::kDatatypeMismatch,
                         "cannot subscript type " + col.type.Name() +
                             " because it does not support subscripting")
        .WithPosition(pos);
  }
  if (value == nullptr && value_expr == nullptr) {
    return Status::NotSupported("cannot set an array element to DEFAULT").WithPosition(pos);
  }
  if (a.subscripts.size() > 1) {
    return Status::NotSupported("multidimensional arrays are not supported").WithPosition(pos);
  }
  const ast::Assignment::Subscript& sub = a.subscripts[0];
  const bool slice = sub.upper != nullptr;
  auto e = BoundExpr::Make(BoundKind::kFunction, col.type, pos);
  e->name = "array_set";
  e->func = Func::kArraySet;
  e->children.push_back(std::move(current));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr lower, BindArrayIndex(*sub.lower));
  e->children.push_back(std::move(lower));
  if (slice) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr upper, BindArrayIndex(*sub.upper));
    e->children.push_back(std::move(upper));
  }
  if (value == nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(value, BindExpr(*value_expr));
  }
  const Type want = slice ? col.type : col.type.Element();
  // The value is assigned to an element (or, for a slice, to the array type) as an assignment
  // cast allows; another type is PostgreSQL's 42804 for subscripted assignment.
  if (!IsUnknown(value) && !CanAssign(value->type, want)) {
    return Status::Error(sqlstate::kDatatypeMismatch,
                         "subscripted assignment to \"" + col.name + "\" requires type " +
                             want.Name() + " but expression is of type " + value->type.Name())
        .WithHint("You will need to rewrite or cast the expression.")
        .WithPosition(pos);
  }
  MERIDIAN_ASSIGN_OR_RETURN(value, Coerce(std::move(value), want, true, col.name));
  e->children.push_back(std::move(value));
  return e;
}

Result<BoundExprPtr> Binder::MakeArrayConcat(BoundExprPtr l, BoundExprPtr r, uint32_t position) {
  // array || array, array || element, element || array; an unknown literal beside an array
  // is read as an array of its type, as PostgreSQL resolves anyarray || unknown.
  if (IsUnknown(l)) {
    MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), r->type, false, ""));
  }
  if (IsUnknown(r)) {
    MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), l->type, false, ""));
  }
  Func func = Func::kArrayCat;
  std::optional<Type> common;
  if (l->type.IsArray() && r->type.IsArray()) {
    common = CommonType(l->type, r->type);
  } else if (l->type.IsArray()) {
    func = Func::kArrayAppend;
    std::optional<Type> e = CommonType(l->type.Element(), r->type);
    if (e) common = Type::Array(*e);
  } else {
    func = Func::kArrayPrepend;
    std::optional<Type> e = CommonType(l->type, r->type.Element());
    if (e) common = Type::Array(*e);
  }
  if (!common) {
    return Status::Error(sqlstate::kUndefinedFunction,
                         "operator does not exist: " + l->type.Name() + " || " + r->type.Name())
        .WithPosition(position);
  }
  const Type element = common->Element();
  MERIDIAN_ASSIGN_OR_RETURN(l,
                            Coerce(std::move(l), l->type.IsArray() ? *common : element, false, ""));
  MERIDIAN_ASSIGN_OR_RETURN(r,
                            Coerce(std::move(r), r->type.IsArray() ? *common : element, false, ""));
  auto e = BoundExpr::Make(BoundKind::kFunction, *common, position);
  e->func = func;
  e->name = "||";
  e->children.push_back(std::move(l));
  e->children.push_back(std::move(r));
  return e;
}

Result<BoundExprPtr> Binder::BindArrayFunction(const std::string& name,
                                               std::vector<BoundExprPtr>* args_ptr,
                                               uint32_t position) {
  std::vector<BoundExprPtr>& args = *args_ptr;
  auto make = [&](Func func, Type type) {
    auto e = BoundExpr::Make(BoundKind::kFunction, type, position);
    e->func = func;
    e->name = name;
    e->children = std::move(args);
    return e;
  };
  auto coerce = [&](size_t i, Type to) -> Status {
    MERIDIAN_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), to, false, ""));
    return Status::Ok();
  };
  auto is_array = [&](size_t i) { return i < args.size() && args[i]->type.IsArray(); };
  auto is_int = [&](size_t i) {
    return i < args.size() && (args[i]->type.IsIntegral() || IsUnknown(args[i]));
  };
  auto is_text = [&](size_t i) {
    return i < args.size() && (args[i]->type.IsString() || IsUnknown(args[i]));
  };
  if ((name == "@>" || name == "<@" || name == "&&") && args.size() == 2 &&
      (is_array(0) || is_array(1))) {
    // anyarray op anyarray: an untyped side takes the other's type; elements must compare.
    if (IsUnknown(args[0])) MERIDIAN_RETURN_IF_ERROR(coerce(0, args[1]->type));
    if (IsUnknown(args[1])) MERIDIAN_RETURN_IF_ERROR(coerce(1, args[0]->type));
    if (!is_array(0) || !is_array(1) ||
        !Comparable(args[0]->type.Element(), args[1]->type.Element())) {
      return Status::Error(sqlstate::kUndefinedFunction,
                           "operator does not exist: " + args[0]->type.Name() + " " + name + " " +
                               args[1]->type.Name())
          .WithHint(
              "No operator matches the given name and argument types. You might need to add "
              "explicit type casts.")
          .WithPosition(position);
    }
    const char* fn = name == "@>"   ? "arraycontains"
                     : name == "<@" ? "arraycontained"
                                    : "arrayoverlap";
    return MakeJsonCall(fn, std::move(args), Type::Boolean(), position);
  }
  if (name == "array_to_string") {
    if ((args.size() != 2 && args.size() != 3) || !is_array(0) || !is_text(1) ||
        (args.size() == 3 && !is_text(2))) {
      return NoFunction(name, args, position);
    }
    for (size_t i = 1; i < args.size(); ++i) MERIDIAN_RETURN_IF_ERROR(coerce(i, Type::Text()));
    return make(Func::kArrayToString, Type::Text());
  }
  if (name == "array_upper" || name == "array_lower" || name == "array_length") {
    if (args.size() != 2 || !is_array(0) || !is_int(1)) {
      return NoFunction(name, args, position);
    }
    MERIDIAN_RETURN_IF_ERROR(coerce(1, Type::Integer()));
    return make(name == "array_upper"   ? Func::kArrayUpper
                : name == "array_lower" ? Func::kArrayLower
                                        : Func::kArrayLength,
                Type::Integer());
  }
  // cube(numbers[]) is the point as float8[] here (no cube type); cube_distance(a, b) their
  // Euclidean distance, a missing coordinate counting as 0 (as the cube extension's).
  const Type points = Type::Array(Type::Double());
  auto numbers = [&](size_t i) {
    return is_array(i) &&
           (args[i]->type.Element().IsNumeric() || args[i]->type.Element().id == TypeId::kUnknown);
  };
  if (name == "cube") {
    if (args.size() != 1 || !numbers(0)) return NoFunction(name, args, position);
    MERIDIAN_RETURN_IF_ERROR(coerce(0, points));
    return make(Func::kCube, points);
  }
  if (name == "cube_distance") {
    if (args.size() != 2 || !numbers(0) || !numbers(1)) return NoFunction(name, args, position);
    MERIDIAN_RETURN_IF_ERROR(coerce(0, points));
    MERIDIAN_RETURN_IF_ERROR(coerce(1, points));
    return make(Func::kCubeDistance, Type::Double());
  }
  if (name == "cardinality") {
    if (args.size() != 1 || !is_array(0)) return NoFunction(name, args, position);
    return make(Func::kCardinality, Type::Integer());
  }
  if (name == "array_cat" || name == "array_append" || name == "array_prepend") {
    const bool ok = args.size() == 2 && (name == "array_cat"      ? is_array(0) && is_array(1)
                                         : name == "array_append" ? is_array(0)
                                                                  : is_array(1));
    if (!ok) return NoFunction(name, args, position);
    // array_append(anyarray, anyelement): an unknown element takes the element type (|| would
    // read it as an array).
    if (name == "array_append" && IsUnknown(args[1])) {
      MERIDIAN_RETURN_IF_ERROR(coerce(1, args[0]->type.Element()));
    }
    if (name == "array_prepend" && IsUnknown(args[0])) {
      MERIDIAN_RETURN_IF_ERROR(coerce(0, args[1]->type.Element()));
    }
    BoundExprPtr l = std::move(args[0]), r = std::move(args[1]);
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e,
                              MakeArrayConcat(std::move(l), std::move(r), position));
    e->name = name;
    return e;
  }
  if (name == "array_position") {
    if (args.size() != 2 || !is_array(0)) return NoFunction(name, args, position);
    const Type element = args[0]->type.Element();
    if (IsUnknown(args[1])) MERIDIAN_RETURN_IF_ERROR(coerce(1, element));
    if (!Comparable(element, args[1]->type)) return NoFunction(name, args, position);
    return make(Func::kArrayPosition, Type::Integer());
  }
  if (name == "string_to_array") {
    if ((args.size() != 2 && args.size() != 3) || !is_text(0) || !is_text(1) ||
        (args.size() == 3 && !is_text(2))) {
      return NoFunction(name, args, position);
    }
    for (size_t i = 0; i < args.size(); ++i) MERIDIAN_RETURN_IF_ERROR(coerce(i, Type::Text()));
    return make(Func::kStringToArray, Type::Array(Type::Text()));
  }
  if (name == "unnest" || name == "generate_series" || name == "generate_subscripts" ||
      IsJsonSetFunctionName(name)) {
    if (IsJsonEachName(name)) {  // a record per row: only in FROM here
      return Status::NotSupported(name +
                                  "() in the select list is not supported yet (use it in FROM)")
          .WithPosition(position);
    }
    if (!rules_.set_functions) {
      return Status::NotSupported(std::string("set-returning functions are not allowed in ") +
                                  rules_.clause)
          .WithPosition(position);
    }
    return BindSetFunction(name, std::move(args), position);
  }
  return BoundExprPtr();
}

Result<BoundExprPtr> Binder::BindSetFunction(const std::string& name,
                                             std::vector<BoundExprPtr> args, uint32_t pos) {
  auto fn = BoundExpr::Make(BoundKind::kFunction, Type::Unknown(), pos);
  fn->name = name;
  if (IsJsonSetFunctionName(name)) return BindJsonSetFunction(name, std::move(args), pos);
  if (name == "unnest") {
    if (args.size() != 1 || !args[0]->type.IsArray()) return NoFunction(name, args, pos);
    fn->func = Func::kUnnest;
    fn->type = args[0]->type.Element();
  } else if (name == "generate_series" && args.size() == 3 &&
             (args[0]->type.IsDateTime() || args[1]->type.IsDateTime())) {
    // generate_series(start, stop, interval) over timestamp or timestamptz (a date, or a
    // mix, goes as timestamptz, PostgreSQL's preferred type of the two).
    const bool plain = (args[0]->type.id == TypeId::kTimestamp || IsUnknown(args[0])) &&
                       (args[1]->type.id == TypeId::kTimestamp || IsUnknown(args[1]));
    const Type type = plain ? Type::Timestamp() : Type::TimestampTz();
    for (int i = 0; i < 2; ++i) {
      const TypeId id = args[i]->type.id;
      if (!IsUnknown(args[i]) && id != TypeId::kTimestamp && id != TypeId::kTimestampTz &&
          id != TypeId::kDate) {
        return NoFunction(name, args, pos);
      }
      MERIDIAN_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), type, false, ""));
    }
    if (args[2]->type.id != TypeId::kInterval && !IsUnknown(args[2])) {
      return NoFunction(name, args, pos);
    }
    MERIDIAN_ASSIGN_OR_RETURN(args[2], Coerce(std::move(args[2]), Type::Interval(), false, ""));
    fn->func = Func::kGenerateSeries;
    fn->type = type;
  } else if (name == "generate_series") {
    if (args.size() != 2 && args.size() != 3) return NoFunction(name, args, pos);
    Type type = Type::Integer();
    for (BoundExprPtr& a : args) {
      if (!a->type.IsIntegral() && !IsUnknown(a)) return NoFunction(name, args, pos);
      if (a->type.id == TypeId::kBigInt) type = Type::BigInt();
    }
    for (BoundExprPtr& a : args) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), type, false, ""));
    }
    fn->func = Func::kGenerateSeries;
    fn->type = type;
  } else if (name == "generate_subscripts") {
    if (args.size() < 2 || args.size() > 3 || !args[0]->type.IsArray() ||
        (!args[1]->type.IsIntegral() && !IsUnknown(args[1])) ||
        (args.size() == 3 && args[2]->type.id != TypeId::kBoolean && !IsUnknown(args[2]))) {
      return NoFunction(name, args, pos);
    }
    MERIDIAN_ASSIGN_OR_RETURN(args[1], Coerce(std::move(args[1]), Type::Integer(), false, ""));
    if (args.size() == 3) {
      MERIDIAN_ASSIGN_OR_RETURN(args[2], Coerce(std::move(args[2]), Type::Boolean(), false, ""));
    }
    fn->func = Func::kGenerateSubscripts;
    fn->type = Type::Integer();
  } else {
    return BoundExprPtr();
  }
  fn->children = std::move(args);
  return fn;
}

Status Binder::ExtractSetFunctions(BoundExprPtr* expr, BoundSelect* out, const char* inside) {
  BoundExpr& e = **expr;
  const bool set_call = e.kind == BoundKind::kFunction &&
                        (e.func == Func::kUnnest || e.func == Func::kGenerateSeries ||
                         e.func == Func::kGenerateSubscripts);
  if (!set_call) {
    // PostgreSQL refuses them where only some rows would evaluate them.
    const char* here = inside;
    if (here == nullptr && (e.kind == BoundKind::kCase ||
                            (e.kind == BoundKind::kFunction && e.func == Func::kCoalesce))) {
      here = "CASE or COALESCE";
    }
    for (BoundExprPtr& c : e.children) {
      MERIDIAN_RETURN_IF_ERROR(ExtractSetFunctions(&c, out, here));
    }
    return Status::Ok();
  }
  if (inside != nullptr) {
    return Status::NotSupported(std::string("set-returning functions are not allowed in ") + inside)
        .WithPosition(e.position);
  }
  for (BoundExprPtr& c : e.children) {
    MERIDIAN_RETURN_IF_ERROR(
        ExtractSetFunctions(&c, out, "the arguments of another set-returning function"));
  }
  size_t j = 0;
  while (j < out->set_functions.size() && !out->set_functions[j]->Equals(e)) ++j;
  auto ref = BoundExpr::Column(0, out->set_input + static_cast<int>(j), e.type, e.name);
  ref->position = e.position;
  if (j == out->set_functions.size()) out->set_functions.push_back(std::move(*expr));
  *expr = std::move(ref);
  return Status::Ok();
}

Result<std::unique_ptr<BoundSelect>> Binder::BindFunctionSource(const ast::TableRef& ref,
                                                                const std::string& name) {
  const ast::Expr& call = *ref.function;
  const uint32_t pos = call.loc.position;
  // The arguments see the enclosing queries, not the FROM list they are in (no LATERAL).
  Scope scope;
  scope.parent = scope_;
  scope.level = scope_ == nullptr ? 0 : scope_->level + 1;
  if (correlated_.size() <= static_cast<size_t>(scope.level)) {
    correlated_.resize(scope.level + 1, false);
  }
  ExprRules saved_rules = rules_;
  rules_ = ExprRules{"FROM", false, true, true};
  std::vector<BoundExprPtr> args;
  {
    ScopeSwitch enter(this, &scope);
    for (const ast::ExprPtr& c : call.children) {
      auto a = BindExpr(*c);
      if (!a.ok()) {
        rules_ = saved_rules;
        return a.status();
      }
      args.push_back(std::move(a).value());
    }
  }
  rules_ = saved_rules;
  BoundExprPtr fn;
  if (call.name == "pg_partition_ancestors" && args.size() == 1 &&
      (args[0]->type.IsIntegral() || IsUnknown(args[0]))) {
    // No table is partitioned, so no relation has ancestors: no rows, as generate_series(oid,
    // 0) gives for every oid (psql's \d asks).
    MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::BigInt(), false, ""));
    BoundExprPtr zero = BoundExpr::Make(BoundKind::kConst, Type::BigInt(), pos);
    zero->value = Value::Int(0);
    args.push_back(std::move(zero));
    MERIDIAN_ASSIGN_OR_RETURN(fn, BindSetFunction("generate_series", std::move(args), pos));
    fn->name = call.name;
  } else if (call.name == "pg_options_to_table" && args.size() == 1 &&
             (args[0]->type == Type::Array(Type::Text()) || IsUnknown(args[0]))) {
    // (option_name, option_value) per "name=value" element of a reloptions-style text[]:
    // unnest over the pairs, spread over two columns as json_each's are.
    MERIDIAN_ASSIGN_OR_RETURN(args[0],
                              Coerce(std::move(args[0]), Type::Array(Type::Text()), false, ""));
    MERIDIAN_ASSIGN_OR_RETURN(
        BoundExprPtr pairs,
        MakeJsonCall("pg_options_to_table_array", std::move(args), Type::Array(Type::Text()), pos));
    fn = BoundExpr::Make(BoundKind::kFunction, Type::Text(), pos);
    fn->name = call.name;
    fn->func = Func::kUnnest;
    fn->children.push_back(std::move(pairs));
  } else {
    MERIDIAN_ASSIGN_OR_RETURN(fn, BindSetFunction(call.name, std::move(args), pos));
  }
  if (fn == nullptr) {
    return Status::NotSupported("function " + call.name +
                                "() in FROM is not supported (only unnest, generate_series and "
                                "generate_subscripts)")
        .WithPosition(pos);
  }
  const bool options = call.name == "pg_options_to_table";
  const size_t available = IsJsonEachName(call.name) || options ? 2 : 1;
  if (ref.column_aliases.size() > available) {
    return Status::Error(sqlstate::kInvalidColumnReference,
                         "table \"" + name + "\" has " + std::to_string(available) +
                             " columns available but " + std::to_string(ref.column_aliases.size()) +
                             " columns specified")
        .WithPosition(ref.loc.position);
  }
  auto out = std::make_unique<BoundSelect>();
  // PostgreSQL names the column of a scalar function in FROM after the alias when there is
  // one (FROM unnest(a) AS x gives column x), else after the function.
  std::string column = !ref.column_aliases.empty() ? ref.column_aliases[0] : name;
  if (ref.column_aliases.empty() && IsJsonSetFunctionName(call.name) &&
      call.name.find("keys") == std::string::npos) {
    column = "value";  // the function's OUT parameter
  }
  if (options) {
    const size_t aliases = ref.column_aliases.size();
    out->columns.push_back(
        ColumnInfo{aliases > 0 ? ref.column_aliases[0] : "option_name", Type::Text(), true});
    out->columns.push_back(
        ColumnInfo{aliases > 1 ? ref.column_aliases[1] : "option_value", Type::Text(), true});
    out->visible = 2;
    out->function = std::move(fn);
    return out;
  }
  if (IsJsonEachName(call.name)) {  // (key text, value json|jsonb|text)
    const bool text = call.name.find("_text") != std::string::npos;
    const Type value = text                               ? Type::Text()
                       : call.name.rfind("jsonb", 0) == 0 ? Type::Jsonb()
                                                          : Type::Json();
    const size_t aliases = ref.column_aliases.size();
    out->columns.push_back(
        ColumnInfo{aliases > 0 ? ref.column_aliases[0] : "key", Type::Text(), true});
    out->columns.push_back(ColumnInfo{aliases > 1 ? ref.column_aliases[1] : "value", value, true});
    out->visible = 2;
    out->function = std::move(fn);
    return out;
  }
  out->columns.push_back(ColumnInfo{column, fn->type, true});
  out->visible = 1;
  out->function = std::move(fn);
  return out;
}

}  // namespace meridian::exec
