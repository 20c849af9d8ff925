// Stored expressions back to SQL text as PostgreSQL's ruleutils prints them in pretty mode
// (pg_get_constraintdef(oid, true), pg_get_expr(adbin, relid, true)): see deparse.h.
#include "binder/deparse.h"

#include <cctype>

#include "binder/json_operators.h"

namespace meridian::exec {

namespace {

// The type name a constant or cast is labelled with (format_type without the modifier for
// constants, as PostgreSQL's Consts of these types carry none).
std::string LabelName(Type t) {
  if (t.id == TypeId::kChar) return "bpchar";
  return Type{t.id, -1, t.element}.Name();
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// get_const_expr: integers plain unless negative ('-1'::integer), numerics plain when they look
// like a float literal, integral-looking numbers of other types with their label, everything
// else quoted with its label; booleans and NULL bare.
std::string ConstText(const Value& v, Type t, bool pretty) {
  if (v.IsNull()) return "NULL";
  if (v.IsBool()) return v.AsBool() ? "true" : "false";
  const std::string text = v.ToString();
  const bool negative = !text.empty() && text[0] == '-';
  bool digits = !text.empty();
  for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (t.id == TypeId::kInteger || t.id == TypeId::kSmallInt) {
    return negative ? Quote(text) + "::" + LabelName(t) : text;
  }
  if (t.id == TypeId::kNumeric && !negative && text.find_first_of(".eE") != std::string::npos) {
    return text;
  }
  if (t.IsNumeric() && digits) {  // an integer constant coerced to the type: 0::numeric
    return (pretty ? text : "(" + text + ")") + "::" + LabelName(t);
  }
  if (t.id == TypeId::kUnknown) return Quote(text);
  return Quote(text) + "::" + LabelName(t);
}

bool IsArithmetic(const BoundExpr& e, bool* high) {
  if (e.kind != BoundKind::kBinary) return false;
  switch (e.binary_op) {
    case ast::BinaryOp::kAdd:
    case ast::BinaryOp::kSub:
      *high = false;
      return true;
    case ast::BinaryOp::kMul:
    case ast::BinaryOp::kDiv:
    case ast::BinaryOp::kMod:
      *high = true;
      return true;
    default:
      return false;
  }
}

// a || b of arrays and the JSON operators are function calls printed as operators.
bool PrintsAsOperator(const BoundExpr& e) {
  return e.name == "||" || (e.func == Func::kRegistered && e.children.size() == 2 &&
                            JsonOperatorSymbol(e.name) != nullptr);
}

bool IsBool(const BoundExpr& e) {
  return (e.kind == BoundKind::kBinary &&
          (e.binary_op == ast::BinaryOp::kAnd || e.binary_op == ast::BinaryOp::kOr)) ||
         (e.kind == BoundKind::kUnary && e.unary_op == ast::UnaryOp::kNot);
}

// isSimpleNode: whether child needs no parentheses under parent (first: child is the left
// operand).
bool IsSimple(const BoundExpr& child, const BoundExpr& parent, bool first) {
  if (child.kind == BoundKind::kFunction && PrintsAsOperator(child)) {
    return IsBool(parent);  // j ->> 'k' is an operator: bare only under AND/OR/NOT
  }
  switch (child.kind) {
    case BoundKind::kConst:
    case BoundKind::kColumn:
    case BoundKind::kParam:
    case BoundKind::kFunction:
    case BoundKind::kAggregate:
    case BoundKind::kCase:
    case BoundKind::kArray:
    case BoundKind::kSubscript:
    case BoundKind::kCast:
      return true;
    default:
      break;
  }
  if (IsBool(child)) {
    if (!IsBool(parent) || parent.kind == BoundKind::kUnary) return false;
    // NOT and AND inside AND or OR, OR inside OR.
    if (child.kind == BoundKind::kUnary || child.binary_op == ast::BinaryOp::kAnd) return true;
    return parent.binary_op == ast::BinaryOp::kOr;
  }
  // Operators, IS NULL, IN, casts: bare under AND/OR/NOT.
  if (IsBool(parent)) return true;
  bool child_high = false, parent_high = false;
  if (IsArithmetic(child, &child_high) && IsArithmetic(parent, &parent_high)) {
    if (child_high && !parent_high) return true;
    if (!child_high && parent_high) return false;
    return first;  // (a - b) - c, not a - (b - c)
  }
  return false;
}

std::string ColumnName(const std::string& qualified) {
  const size_t dot = qualified.find('.');
  return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

std::string Deparse(const BoundExpr& e, bool pretty);

// An operand: pretty, parenthesized only where precedence needs it; otherwise as it is (every
// operator expression then brings its own parentheses).
std::string Child(const BoundExpr& child, const BoundExpr& parent, bool first, bool pretty) {
  std::string text = Deparse(child, pretty);
  return !pretty || IsSimple(child, parent, first) ? text : "(" + text + ")";
}

std::string List(const std::vector<BoundExprPtr>& items, size_t from, bool pretty) {
  std::string out;
  for (size_t i = from; i < items.size(); ++i) {
    if (i > from) out += ", ";
    out += Deparse(*items[i], pretty);
  }
  return out;
}

// The operator expressions: parenthesized as a whole unless pretty.
std::string Operator(const BoundExpr& e, bool pretty) {
  std::string body;
  switch (e.kind) {
    case BoundKind::kUnary:
      if (e.unary_op != ast::UnaryOp::kNot) {
        return "(- " + Child(*e.children[0], e, true, pretty) + ")";
      }
      body = "NOT " + Child(*e.children[0], e, true, pretty);
      break;
    case BoundKind::kBinary:
      if (IsBooleanTest(e)) {  // x IS [NOT] TRUE / FALSE, kept as written
        body = Child(*e.children[0], e, true, pretty) + " " + e.name;
        break;
      }
      if (const BoundExpr* cmp = JsonbComparisonCall(e)) {  // jsonb_cmp(a, b) op 0: a op b
        body = Child(*cmp->children[0], e, true, pretty) + " " + ast::OperatorName(e.binary_op) +
               " " + Child(*cmp->children[1], e, false, pretty);
        break;
      }
      body = Child(*e.children[0], e, true, pretty) + " " + ast::OperatorName(e.binary_op) + " " +
             Child(*e.children[1], e, false, pretty);
      break;
    case BoundKind::kIsNull:
      body = Child(*e.children[0], e, true, pretty) +
             (!e.name.empty() ? " " + e.name : (e.negated ? " IS NOT NULL" : " IS NULL"));
      break;
    case BoundKind::kInList:  // PostgreSQL stores x IN (a, b) as x = ANY (ARRAY[a, b])
      body = Child(*e.children[0], e, true, pretty) +
             (e.negated ? " <> ALL (ARRAY[" : " = ANY (ARRAY[") + List(e.children, 1, pretty) +
             "])";
      break;
    case BoundKind::kFunction: {  // a || b of arrays, the JSON operators
      const char* json = JsonOperatorSymbol(e.name);
      body = Child(*e.children[0], e, true, pretty) + " " + (json != nullptr ? json : "||") + " " +
             Child(*e.children[1], e, false, pretty);
      break;
    }
    default:  // kQuantifiedArray
      body = Child(*e.children[0], e, true, pretty) + " " + ast::OperatorName(e.binary_op) +
             (e.all ? " ALL (" : " ANY (") + Deparse(*e.children[1], pretty) + ")";
      break;
  }
  return pretty ? body : "(" + body + ")";
}

std::string Deparse(const BoundExpr& e, bool pretty) {
  switch (e.kind) {
    case BoundKind::kConst:
      return ConstText(e.value, e.type, pretty);
    case BoundKind::kColumn:
      return ColumnName(e.name);
    case BoundKind::kParam:
      return "$" + std::to_string(e.index + 1);
    case BoundKind::kUnary:
    case BoundKind::kBinary:
    case BoundKind::kIsNull:
    case BoundKind::kInList:
    case BoundKind::kQuantifiedArray:
      return Operator(e, pretty);
    case BoundKind::kFunction: {
      static constexpr const char* kBare[] = {
          "current_timestamp", "current_date", "localtimestamp", "current_user",
          "session_user",      "current_role", "current_schema", "current_catalog"};
      for (const char* bare : kBare) {
        if (e.name == bare && e.children.empty()) {
          std::string upper = bare;
          for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          return upper;
        }
      }
      if (PrintsAsOperator(e)) return Operator(e, pretty);
      if (e.func == Func::kRecordField) {
        return "(" + Deparse(*e.children[0], pretty) + ")." + e.name;
      }
      // PostgreSQL prints these as the SQL keywords they are.
      if (e.func == Func::kCoalesce || e.func == Func::kGreatest || e.func == Func::kLeast ||
          e.func == Func::kNullIf) {
        std::string upper = e.name;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return upper + "(" + List(e.children, 0, pretty) + ")";
      }
      return e.name + "(" + List(e.children, 0, pretty) + ")";
    }
    case BoundKind::kCast: {
      const std::string type = e.explicit_cast ? e.type.DisplayName() : LabelName(e.type);
      if (!pretty) return "(" + Deparse(*e.children[0], false) + ")::" + type;
      return Child(*e.children[0], e, true, pretty) + "::" + type;
    }
    case BoundKind::kCase: {
      std::string out = "CASE";
      size_t i = 0;
      if (e.has_operand) out += " " + Deparse(*e.children[i++], pretty);
      const size_t end = e.children.size() - (e.has_else ? 1 : 0);
      for (; i + 1 < end; i += 2) {
        out += " WHEN " + Deparse(*e.children[i], pretty) + " THEN " +
               Deparse(*e.children[i + 1], pretty);
      }
      if (e.has_else) out += " ELSE " + Deparse(*e.children.back(), pretty);
      return out + " END";
    }
    case BoundKind::kArray:
      return "ARRAY[" + List(e.children, 0, pretty) + "]";
    case BoundKind::kSubscript:
      return Deparse(*e.children[0], pretty) + "[" + Deparse(*e.children[1], pretty) +
             (e.children.size() > 2 ? ":" + Deparse(*e.children[2], pretty) : std::string()) + "]";
    default:
      break;
  }
  return "?";
}

}  // namespace

std::string DeparseExpr(const BoundExpr& e, bool pretty) { return Deparse(e, pretty); }

}  // namespace meridian::exec
