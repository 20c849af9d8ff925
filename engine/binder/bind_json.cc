// Binding of the JSON operators (-> ->> #> #>> #- @> <@ ? ?| ?&, jsonb || and -, jsonb
// comparisons) and of the JSON functions that depend on their arguments' types (to_json,
// json_build_object/array, json_agg, json_object_agg, the set-returning json functions). The
// operators become calls of registered functions under PostgreSQL's function names
// (jsonb_object_field, jsonb_contains, ...; engine/function/json_functions.cc).
#include "binder/binder.h"
#include "binder/function_registry.h"
#include "binder/json_operators.h"
#include "binder/type_rules.h"

namespace meridian::exec {

// 42883 "operator does not exist: l op r" with PostgreSQL's hint (bind_expr.cc).
Status NoOperator(const std::string& op, Type l, Type r, uint32_t position);

namespace {

bool IsUnknown(const BoundExprPtr& e) { return e->type.id == TypeId::kUnknown; }

// A JSON object key: its text form (an explicit cast to text unless it is text already).
BoundExprPtr KeyText(BoundExprPtr a) {
  if (a->type.id == TypeId::kText) return a;
  auto c = BoundExpr::Make(BoundKind::kCast, Type::Text(), a->position);
  c->explicit_cast = true;
  c->children.push_back(std::move(a));
  return c;
}

bool IsJsonOperator(const std::string& name) {
  return name == "->" || name == "->>" || name == "#>" || name == "#>>" || name == "#-" ||
         name == "@>" || name == "<@" || name == "?" || name == "?|" || name == "?&";
}

bool IsTextArray(const Type& t) { return t.IsArray() && Type{t.element, -1}.IsString(); }

}  // namespace

Result<BoundExprPtr> Binder::MakeJsonCall(const char* name, std::vector<BoundExprPtr> args,
                                          Type type, uint32_t position) {
  const std::vector<const ScalarFunction*>* entries = FindScalarFunctions(name);
  if (entries == nullptr || entries->empty()) {
    return Status::Internal(std::string("json function ") + name + " is not registered");
  }
  auto e = BoundExpr::Make(BoundKind::kFunction, type, position);
  e->name = name;
  e->func = Func::kRegistered;
  e->scalar = entries->front();
  e->children = std::move(args);
  return e;
}

Result<BoundExprPtr> Binder::ToJsonExpr(BoundExprPtr a, bool jsonb) {
  const Type want = jsonb ? Type::Jsonb() : Type::Json();
  const uint32_t pos = a->position;
  if (IsUnknown(a)) {
    MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
  }
  if (a->type == want) return a;
  if (a->type.IsString()) {  // a JSON string of the text
    if (a->type.id == TypeId::kChar) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
    }
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(a));
    return MakeJsonCall(jsonb ? "to_jsonb" : "to_json", std::move(args), want, pos);
  }
  // json <-> jsonb and every other type: a cast node, whose CastValue writes to_json's form.
  auto e = BoundExpr::Make(BoundKind::kCast, want, pos);
  e->explicit_cast = true;
  e->children.push_back(std::move(a));
  return e;
}

Result<BoundExprPtr> Binder::BindJsonOperator(const std::string& op, BoundExprPtr l, BoundExprPtr r,
                                              uint32_t pos) {
  // An untyped literal on the left of a JSON operator: PostgreSQL cannot choose between json
  // and jsonb (or, for @> <@ ?| ?& with another untyped literal, anyarray) (42725).
  const bool ambiguous =
      op == "->" || op == "->>" || op == "#>" || op == "#>>" ||
      ((op == "@>" || op == "<@" || op == "?|" || op == "?&") && IsUnknown(r));  // arrays too
  if (IsUnknown(l) && ambiguous) {
    return Status::Error(sqlstate::kAmbiguousFunction,
                         "operator is not unique: unknown " + op + " " +
                             (IsUnknown(r) ? "unknown" : r->type.Name()))
        .WithHint(
            "Could not choose a best candidate operator. You might need to add explicit type "
            "casts.")
        .WithPosition(pos);
  }
  if (IsUnknown(l)) {
    MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), Type::Jsonb(), false, ""));
  }
  const bool json = l->type.id == TypeId::kJson, jsonb = l->type.id == TypeId::kJsonb;
  const Type lt = l->type, rt = r->type;
  const bool rtext = rt.IsString() || IsUnknown(r);
  const bool rint = rt.id == TypeId::kInteger || rt.id == TypeId::kSmallInt;
  const bool rarray = IsTextArray(rt) || IsUnknown(r);
  const char* fn = nullptr;
  Type result = Type::Boolean();
  Type rwant = Type::Text();
  if (op == "->" || op == "->>") {
    const bool text = op == "->>";
    if ((json || jsonb) && (rtext || rint)) {
      if (rint) {
        fn = jsonb ? (text ? "jsonb_array_element_text" : "jsonb_array_element")
                   : (text ? "json_array_element_text" : "json_array_element");
        rwant = Type::Integer();
      } else {
        fn = jsonb ? (text ? "jsonb_object_field_text" : "jsonb_object_field")
                   : (text ? "json_object_field_text" : "json_object_field");
      }
      result = text ? Type::Text() : lt;
    }
  } else if (op == "#>" || op == "#>>") {
    if ((json || jsonb) && rarray) {
      const bool text = op == "#>>";
      fn = jsonb ? (text ? "jsonb_extract_path_text_op" : "jsonb_extract_path_op")
                 : (text ? "json_extract_path_text_op" : "json_extract_path_op");
      rwant = Type::Array(Type::Text());
      result = text ? Type::Text() : lt;
    }
  } else if (jsonb) {
    if (op == "#-" && rarray) {
      fn = "jsonb_delete_path";
      rwant = Type::Array(Type::Text());
      result = Type::Jsonb();
    } else if ((op == "@>" || op == "<@") && (rt.id == TypeId::kJsonb || IsUnknown(r))) {
      fn = op == "@>" ? "jsonb_contains" : "jsonb_contained";
      rwant = Type::Jsonb();
    } else if (op == "?" && rtext) {
      fn = "jsonb_exists";
    } else if ((op == "?|" || op == "?&") && rarray) {
      fn = op == "?|" ? "jsonb_exists_any" : "jsonb_exists_all";
      rwant = Type::Array(Type::Text());
    }
  }
  if (fn == nullptr) {
    return NoOperator(op, lt, IsUnknown(r) ? Type::Unknown() : rt, pos);
  }
  if (r->type != rwant) {
    MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), rwant, false, ""));
  }
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(l));
  args.push_back(std::move(r));
  return MakeJsonCall(fn, std::move(args), result, pos);
}

Result<BoundExprPtr> Binder::BindJsonbBinary(ast::BinaryOp op, BoundExprPtr* l, BoundExprPtr* r,
                                             uint32_t pos) {
  const bool lj = (*l)->type.id == TypeId::kJsonb, rj = (*r)->type.id == TypeId::kJsonb;
  if (!lj && !rj) return BoundExprPtr();
  std::vector<BoundExprPtr> args;
  if (op == ast::BinaryOp::kConcat) {  // jsonb || jsonb
    if (!(lj || IsUnknown(*l)) || !(rj || IsUnknown(*r))) return BoundExprPtr();
    for (BoundExprPtr* p : {l, r}) {
      if (IsUnknown(*p)) {
        MERIDIAN_ASSIGN_OR_RETURN(*p, Coerce(std::move(*p), Type::Jsonb(), false, ""));
      }
      args.push_back(std::move(*p));
    }
    return MakeJsonCall("jsonb_concat", std::move(args), Type::Jsonb(), pos);
  }
  if (op == ast::BinaryOp::kSub && lj) {  // jsonb - text | int | text[]
    const Type rt = (*r)->type;
    const char* fn = nullptr;
    Type want = Type::Text();
    if (rt.IsString() || IsUnknown(*r)) {
      fn = "jsonb_delete";
    } else if (rt.id == TypeId::kInteger || rt.id == TypeId::kSmallInt) {
      fn = "jsonb_delete_index";
      want = Type::Integer();
    } else if (IsTextArray(rt)) {
      fn = "jsonb_delete_keys";
      want = Type::Array(Type::Text());
    }
    if (fn == nullptr) return NoOperator("-", (*l)->type, rt, pos);
    if ((*r)->type != want) {
      MERIDIAN_ASSIGN_OR_RETURN(*r, Coerce(std::move(*r), want, false, ""));
    }
    args.push_back(std::move(*l));
    args.push_back(std::move(*r));
    return MakeJsonCall(fn, std::move(args), Type::Jsonb(), pos);
  }
  const bool cmp = op == ast::BinaryOp::kEq || op == ast::BinaryOp::kNe ||
                   op == ast::BinaryOp::kLt || op == ast::BinaryOp::kLe ||
                   op == ast::BinaryOp::kGt || op == ast::BinaryOp::kGe;
  if (cmp && (lj || IsUnknown(*l)) && (rj || IsUnknown(*r))) {
    // jsonb_cmp(a, b) op 0: jsonb's own order (numbers compare as numbers).
    for (BoundExprPtr* p : {l, r}) {
      if (IsUnknown(*p)) {
        MERIDIAN_ASSIGN_OR_RETURN(*p, Coerce(std::move(*p), Type::Jsonb(), false, ""));
      }
      args.push_back(std::move(*p));
    }
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr c,
                              MakeJsonCall("jsonb_cmp", std::move(args), Type::Integer(), pos));
    auto e = BoundExpr::Make(BoundKind::kBinary, Type::Boolean(), pos);
    e->binary_op = op;
    e->children.push_back(std::move(c));
    auto zero = BoundExpr::Make(BoundKind::kConst, Type::Integer(), pos);
    zero->value = Value::Int(0);
    e->children.push_back(std::move(zero));
    return e;
  }
  return BoundExprPtr();
}

Result<BoundExprPtr> Binder::BindJsonFunction(const std::string& name,
                                              std::vector<BoundExprPtr>* args, uint32_t pos) {
  if (IsJsonOperator(name) && args->size() == 2) {
    return BindJsonOperator(name, std::move((*args)[0]), std::move((*args)[1]), pos);
  }
  if (name == "row_to_json") {
    // row_to_json(record [, pretty]): to_json of the record; pretty only as a constant false.
    const bool pretty = args->size() == 2;
    if ((args->size() != 1 && !pretty) || (*args)[0]->type.id != TypeId::kRecord ||
        (pretty && (*args)[1]->type.id != TypeId::kBoolean &&
         (*args)[1]->type.id != TypeId::kUnknown)) {
      return NoFunction(name, *args, pos);
    }
    if (pretty && ((*args)[1]->kind != BoundKind::kConst || (*args)[1]->value.IsNull() ||
                   !((*args)[1]->value.IsBool() && !(*args)[1]->value.AsBool()))) {
      return Status::NotSupported("row_to_json with pretty = true is not supported yet")
          .WithPosition(pos);
    }
    return ToJsonExpr(std::move((*args)[0]), false);
  }
  const bool to = name == "to_json" || name == "to_jsonb";
  const bool obj = name == "json_build_object" || name == "jsonb_build_object";
  const bool arr = name == "json_build_array" || name == "jsonb_build_array";
  if (!to && !obj && !arr) return BoundExprPtr();
  const bool jsonb = name == "to_jsonb" || name.rfind("jsonb_", 0) == 0;
  const Type want = jsonb ? Type::Jsonb() : Type::Json();
  if (to) {
    if (args->size() != 1) return NoFunction(name, *args, pos);
    return ToJsonExpr(std::move((*args)[0]), jsonb);
  }
  if (obj && args->size() % 2 != 0) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "argument list must have even number of elements")
        .WithHint("The arguments of " + name + "() must consist of alternating keys and values.")
        .WithPosition(pos);
  }
  std::vector<BoundExprPtr> out;
  for (size_t i = 0; i < args->size(); ++i) {
    BoundExprPtr a = std::move((*args)[i]);
    if (obj && i % 2 == 0) {  // a key: its text form
      if (a->type.IsArray() || a->type.IsJson()) {
        return Status::Error(sqlstate::kInvalidParameterValue,
                             "key value must be scalar, not array, composite, or json")
            .WithPosition(pos);
      }
      a = KeyText(std::move(a));
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(a, ToJsonExpr(std::move(a), jsonb));
    }
    out.push_back(std::move(a));
  }
  return MakeJsonCall(name.c_str(), std::move(out), want, pos);
}

Result<BoundExprPtr> Binder::BindJsonAggregate(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const std::string& name = expr.name;
  const bool jsonb = name.rfind("jsonb", 0) == 0;
  const bool object = name.find("object") != std::string::npos;
  if (expr.children.size() != (object ? 2u : 1u) || expr.star) {
    std::vector<BoundExprPtr> none;
    return NoFunction(name, none, pos);
  }
  // array_agg of each argument (the key as text, the value as json), then a final function
  // that writes the array as a JSON array or object (NULL for no rows, as PostgreSQL).
  std::vector<BoundExprPtr> aggs;
  bool structured = false;  // json_agg over records or arrays (json_agg_structured_finalfn)
  for (size_t i = 0; i < expr.children.size(); ++i) {
    in_aggregate_ = true;
    auto bound = BindExpr(*expr.children[i]);
    in_aggregate_ = false;
    if (!bound.ok()) return bound.status();
    BoundExprPtr a = std::move(bound).value();
    structured = a->type.id == TypeId::kRecord || a->type.IsArray();
    if (expr.distinct && NoEqualityType(a->type)) return NoEquality(a->type, pos);
    if (object && i == 0) {
      a = KeyText(std::move(a));
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(a, ToJsonExpr(std::move(a), jsonb));
    }
    auto agg = BoundExpr::Make(BoundKind::kAggregate, Type::Array(a->type), pos);
    agg->name = "array_agg";
    agg->agg = AggFunc::kArrayAgg;
    agg->distinct = expr.distinct;
    agg->children.push_back(std::move(a));
    MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, agg.get(), false));
    aggs.push_back(std::move(agg));
  }
  const std::string final_name =
      name == "json_agg" && structured ? "json_agg_structured_finalfn" : name + "_finalfn";
  return MakeJsonCall(final_name.c_str(), std::move(aggs), jsonb ? Type::Jsonb() : Type::Json(),
                      pos);
}

const char* JsonOperatorSymbol(std::string_view f) {
  struct Entry {
    const char* function;
    const char* op;
  };
  static constexpr Entry kOperators[] = {
      {"json_object_field", "->"},
      {"jsonb_object_field", "->"},
      {"json_array_element", "->"},
      {"jsonb_array_element", "->"},
      {"json_object_field_text", "->>"},
      {"jsonb_object_field_text", "->>"},
      {"json_array_element_text", "->>"},
      {"jsonb_array_element_text", "->>"},
      {"json_extract_path_op", "#>"},
      {"jsonb_extract_path_op", "#>"},
      {"json_extract_path_text_op", "#>>"},
      {"jsonb_extract_path_text_op", "#>>"},
      {"jsonb_delete_path", "#-"},
      {"arraycontains", "@>"},
      {"arraycontained", "<@"},
      {"arrayoverlap", "&&"},
      {"jsonb_contains", "@>"},
      {"jsonb_contained", "<@"},
      {"jsonb_exists", "?"},
      {"jsonb_exists_any", "?|"},
      {"jsonb_exists_all", "?&"},
      {"jsonb_concat", "||"},
      {"jsonb_delete", "-"},
      {"jsonb_delete_index", "-"},
      {"jsonb_delete_keys", "-"},
  };
  for (const Entry& e : kOperators) {
    if (f == e.function) return e.op;
  }
  return GeometryOperatorSymbol(f);
}

const BoundExpr* JsonbComparisonCall(const BoundExpr& e) {
  if (e.kind != BoundKind::kBinary || e.children.size() != 2) return nullptr;
  const BoundExpr& call = *e.children[0];
  const BoundExpr& zero = *e.children[1];
  if (call.kind != BoundKind::kFunction || call.func != Func::kRegistered ||
      call.name != "jsonb_cmp" || zero.kind != BoundKind::kConst) {
    return nullptr;
  }
  return &call;
}

bool IsJsonAggregateName(const std::string& n) {
  return n == "json_agg" || n == "jsonb_agg" || n == "json_object_agg" || n == "jsonb_object_agg";
}

bool IsJsonEachName(const std::string& n) {
  return n == "json_each" || n == "jsonb_each" || n == "json_each_text" || n == "jsonb_each_text";
}

bool IsJsonSetFunctionName(const std::string& n) {
  return IsJsonEachName(n) || n == "json_array_elements" || n == "jsonb_array_elements" ||
         n == "json_array_elements_text" || n == "jsonb_array_elements_text" ||
         n == "json_object_keys" || n == "jsonb_object_keys";
}

Result<BoundExprPtr> Binder::BindJsonSetFunction(const std::string& name,
                                                 std::vector<BoundExprPtr> args, uint32_t pos) {
  const bool jsonb = name.rfind("jsonb", 0) == 0;
  const Type in = jsonb ? Type::Jsonb() : Type::Json();
  if (args.size() != 1 || !(args[0]->type == in || IsUnknown(args[0]))) {
    return NoFunction(name, args, pos);
  }
  if (IsUnknown(args[0])) {
    MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), in, false, ""));
  }
  // unnest over the array of the values: each element is the JSON (or plain) text.
  const std::string array_name = name + "_array";
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr values, MakeJsonCall(array_name.c_str(), std::move(args),
                                                              Type::Array(Type::Text()), pos));
  auto fn = BoundExpr::Make(BoundKind::kFunction, Type::Text(), pos);
  fn->name = name;
  fn->func = Func::kUnnest;
  const bool text =
      name.find("_text") != std::string::npos || name.find("keys") != std::string::npos;
  // json(b)_each: each element is a (key, value) pair that FunctionScanOp spreads over two
  // columns; the call's type is the key's.
  fn->type = text || IsJsonEachName(name) ? Type::Text() : in;
  fn->children.push_back(std::move(values));
  return fn;
}

}  // namespace meridian::exec
