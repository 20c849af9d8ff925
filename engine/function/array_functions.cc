// Evaluation of array expressions (see evaluator.h EvalArrayExpr): ARRAY[...], x op ANY|ALL
// (array) with three-valued results, a[i] and a[i:j], and the array functions. Arrays are
// one-dimensional with lower bound 1, so array_lower is 1 and array_upper the length.
#include <algorithm>
#include <cmath>
#include <optional>

#include "binder/function_registry.h"
#include "binder/type_rules.h"
#include "execution/evaluator.h"
#include "function/builtin.h"

namespace meridian::exec {

namespace {

// x op ANY (array): true when some element's comparison is true; x op ALL: false when some
// element's is false; otherwise NULL when a comparison was NULL, else false (ANY) / true
// (ALL). An empty array gives false (ANY) / true (ALL) even for a NULL x; a NULL array NULL.
Result<Value> QuantifiedArray(const BoundExpr& e, const Value& x, const Value& array) {
  if (array.IsNull()) return Value::Null();
  const std::vector<Value>& elements = array.AsArray();
  if (elements.empty()) return Value::Bool(e.all);
  if (x.IsNull()) return Value::Null();
  bool saw_null = false;
  for (const Value& v : elements) {
    if (v.IsNull()) {
      saw_null = true;
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(Value holds, CompareOp(e.binary_op, x, v));
    if (holds.AsBool() != e.all) return Value::Bool(!e.all);
  }
  if (saw_null) return Value::Null();
  return Value::Bool(e.all);
}

// a[i] (NULL outside 1..length) or a[i:j] (the elements in both bounds; {} when none).
Result<Value> Subscript(const std::vector<Value>& v) {
  for (const Value& x : v) {
    if (x.IsNull()) return Value::Null();
  }
  const std::vector<Value>& elements = v[0].AsArray();
  const int64_t n = static_cast<int64_t>(elements.size());
  if (v.size() == 2) {
    const int64_t i = v[1].AsInt();
    if (i < 1 || i > n) return Value::Null();
    return elements[static_cast<size_t>(i - 1)];
  }
  const int64_t lo = std::max<int64_t>(v[1].AsInt(), 1);
  const int64_t hi = std::min<int64_t>(v[2].AsInt(), n);
  std::vector<Value> out;
  for (int64_t i = lo; i <= hi; ++i) out.push_back(elements[static_cast<size_t>(i - 1)]);
  return Value::Array(std::move(out));
}

// The text of an element as array_to_string writes it (booleans t/f, as array_out).
std::string ElementText(const Value& v) { return v.ToString(); }

// PostgreSQL's MaxArraySize: the most elements an array may have.
constexpr int64_t kMaxArraySize = 134217727;

// array_set_element / array_set_slice for one-dimensional arrays whose lower bound is 1 (the
// only ones Meridian has): v is array, i, [j,] value. Past the end the array grows with NULLs;
// a NULL array is an empty one. A result whose lower bound would not be 1 (i < 1, or i > 1 into
// an empty array) is 0A000 where PostgreSQL makes an array with those bounds.
Result<Value> ArraySet(const std::vector<Value>& v) {
  const bool slice = v.size() == 4;
  for (size_t k = 1; k + 1 < v.size(); ++k) {
    if (v[k].IsNull()) {
      return Status::Error(sqlstate::kNullValueNotAllowed,
                           "array subscript in assignment must not be null");
    }
  }
  const Value& value = v.back();
  // A NULL source leaves the array as it is; a NULL array becomes an empty one first, as in
  // PostgreSQL's slice assignment.
  if (slice && value.IsNull()) return v[0].IsNull() ? Value::Array({}) : v[0];
  std::vector<Value> out = v[0].IsNull() ? std::vector<Value>{} : v[0].AsArray();
  const int64_t lo = v[1].AsInt();
  const int64_t hi = slice ? v[2].AsInt() : lo;
  if (slice && hi < lo) {
    return Status::Error(sqlstate::kArraySubscriptError,
                         "upper bound cannot be less than lower bound");
  }
  if (lo < 1 || (out.empty() && lo > 1)) {
    return Status::NotSupported("array lower bounds other than 1 are not supported");
  }
  if (hi > kMaxArraySize) {
    return Status::Error(
        sqlstate::kProgramLimitExceeded,
        "array size exceeds the maximum allowed (" + std::to_string(kMaxArraySize) + ")");
  }
  if (slice && static_cast<int64_t>(value.AsArray().size()) < hi - lo + 1) {
    return Status::Error(sqlstate::kArraySubscriptError, "source array too small");
  }
  if (static_cast<int64_t>(out.size()) < hi) out.resize(static_cast<size_t>(hi), Value::Null());
  for (int64_t k = lo; k <= hi; ++k) {
    out[static_cast<size_t>(k - 1)] = slice ? value.AsArray()[static_cast<size_t>(k - lo)] : value;
  }
  return Value::Array(std::move(out));
}

Result<Value> ArrayFunction(const BoundExpr& e, const std::vector<Value>& v) {
  switch (e.func) {
    case Func::kArraySet:
      return ArraySet(v);
    case Func::kArrayToString: {
      // NULL elements are skipped, or written as the third argument when it is not NULL.
      if (v[0].IsNull() || v[1].IsNull()) return Value::Null();
      const bool null_text = v.size() == 3 && !v[2].IsNull();
      std::string out;
      bool first = true;
      for (const Value& x : v[0].AsArray()) {
        if (x.IsNull() && !null_text) continue;
        if (!first) out += v[1].AsString();
        first = false;
        out += x.IsNull() ? v[2].AsString() : ElementText(x);
      }
      return Value::String(std::move(out));
    }
    case Func::kArrayUpper:
    case Func::kArrayLower:
    case Func::kArrayLength: {
      // Only dimension 1 exists; an empty array has no dimensions (NULL, as PostgreSQL).
      if (v[0].IsNull() || v[1].IsNull()) return Value::Null();
      const int64_t n = static_cast<int64_t>(v[0].AsArray().size());
      if (v[1].AsInt() != 1 || n == 0) return Value::Null();
      return Value::Int(e.func == Func::kArrayLower ? 1 : n);
    }
    case Func::kCardinality:
      if (v[0].IsNull()) return Value::Null();
      return Value::Int(static_cast<int64_t>(v[0].AsArray().size()));
    case Func::kArrayCat: {  // a NULL array acts as an empty one
      if (v[0].IsNull()) return v[1];
      if (v[1].IsNull()) return v[0];
      std::vector<Value> out = v[0].AsArray();
      out.insert(out.end(), v[1].AsArray().begin(), v[1].AsArray().end());
      return Value::Array(std::move(out));
    }
    case Func::kArrayAppend: {
      std::vector<Value> out = v[0].IsNull() ? std::vector<Value>() : v[0].AsArray();
      out.push_back(v[1]);
      return Value::Array(std::move(out));
    }
    case Func::kArrayPrepend: {
      std::vector<Value> out{v[0]};
      if (!v[1].IsNull()) out.insert(out.end(), v[1].AsArray().begin(), v[1].AsArray().end());
      return Value::Array(std::move(out));
    }
    case Func::kArrayPosition: {  // first position IS NOT DISTINCT FROM the value, else NULL
      if (v[0].IsNull()) return Value::Null();
      const std::vector<Value>& elements = v[0].AsArray();
      for (size_t i = 0; i < elements.size(); ++i) {
        const bool same = elements[i].IsNull() || v[1].IsNull()
                              ? elements[i].IsNull() && v[1].IsNull()
                              : CompareValues(elements[i], v[1]) == 0;
        if (same) return Value::Int(static_cast<int64_t>(i + 1));
      }
      return Value::Null();
    }
    case Func::kStringToArray: {
      // string_to_array(s, delimiter [, null_string]): a NULL delimiter splits into
      // characters, an empty one gives the whole string; an empty s gives {}.
      if (v[0].IsNull()) return Value::Null();
      const std::string& s = v[0].AsString();
      std::vector<std::string> parts;
      if (s.empty()) return Value::Array({});
      if (v[1].IsNull()) {
        for (size_t i = 0; i < s.size();) {
          size_t len = 1;
          while (i + len < s.size() && (static_cast<unsigned char>(s[i + len]) & 0xC0) == 0x80) {
            ++len;
          }
          parts.push_back(s.substr(i, len));
          i += len;
        }
      } else if (v[1].AsString().empty()) {
        parts.push_back(s);
      } else {
        const std::string& d = v[1].AsString();
        size_t start = 0;
        while (true) {
          const size_t at = s.find(d, start);
          if (at == std::string::npos) {
            parts.push_back(s.substr(start));
            break;
          }
          parts.push_back(s.substr(start, at - start));
          start = at + d.size();
        }
      }
      std::vector<Value> out;
      for (std::string& p : parts) {
        const bool is_null = v.size() == 3 && !v[2].IsNull() && p == v[2].AsString();
        out.push_back(is_null ? Value::Null() : Value::String(std::move(p)));
      }
      return Value::Array(std::move(out));
    }
    case Func::kCube: {
      if (v[0].IsNull()) return Value::Null();
      for (const Value& x : v[0].AsArray()) {
        if (x.IsNull()) {
          return Status::Error(sqlstate::kNullValueNotAllowed,
                               "cannot work with arrays containing NULLs");
        }
      }
      return v[0];
    }
    case Func::kCubeDistance: {
      if (v[0].IsNull() || v[1].IsNull()) return Value::Null();
      const std::vector<Value>& a = v[0].AsArray();
      const std::vector<Value>& b = v[1].AsArray();
      double sum = 0;
      for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const double x = i < a.size() && !a[i].IsNull() ? a[i].AsNumber() : 0.0;
        const double y = i < b.size() && !b[i].IsNull() ? b[i].AsNumber() : 0.0;
        sum += (x - y) * (x - y);
      }
      return Value::Double(std::sqrt(sum));
    }
    default:
      break;
  }
  return Status::NotSupported("set-returning function " + e.name +
                              "() is supported only in FROM and at the top of a select list");
}

}  // namespace

Result<Value> EvalArrayExpr(const BoundExpr& e, const EvalContext& ctx) {
  std::vector<Value> v;
  v.reserve(e.children.size());
  for (const BoundExprPtr& c : e.children) {
    MERIDIAN_ASSIGN_OR_RETURN(Value x, Eval(*c, ctx));
    v.push_back(std::move(x));
  }
  switch (e.kind) {
    case BoundKind::kArray:
      return Value::Array(std::move(v));
    case BoundKind::kQuantifiedArray:
      return QuantifiedArray(e, v[0], v[1]);
    case BoundKind::kSubscript:
      return Subscript(v);
    default:
      return ArrayFunction(e, v);
  }
}

namespace {

// PostgreSQL's array_contain_compare: every element of b equals some element of a. A NULL
// element of b matches nothing (so '{1,NULL}' @> '{NULL}' is false); NULLs in a are skipped.
bool ArrayContains(const std::vector<Value>& a, const std::vector<Value>& b) {
  for (const Value& y : b) {
    if (y.IsNull()) return false;
    bool found = false;
    for (const Value& x : a) {
      if (!x.IsNull() && CompareValues(x, y) == 0) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

// Called by name with other values (arraycontains(1, 2)): no such function in PostgreSQL.
Status NotArrays(std::span<const Value> args) {
  if (args[0].IsArray() && args[1].IsArray()) return Status::Ok();
  return Status::Error(sqlstate::kUndefinedFunction,
                       "the array operators' functions take two arrays");
}

Result<Value> EvalArrayContains(std::span<const Value> args, ExecContext*) {
  MERIDIAN_RETURN_IF_ERROR(NotArrays(args));
  return Value::Bool(ArrayContains(args[0].AsArray(), args[1].AsArray()));
}

Result<Value> EvalArrayContained(std::span<const Value> args, ExecContext*) {
  MERIDIAN_RETURN_IF_ERROR(NotArrays(args));
  return Value::Bool(ArrayContains(args[1].AsArray(), args[0].AsArray()));
}

// a && b: some non-NULL element is in both.
Result<Value> EvalArrayOverlap(std::span<const Value> args, ExecContext*) {
  MERIDIAN_RETURN_IF_ERROR(NotArrays(args));
  for (const Value& x : args[0].AsArray()) {
    if (x.IsNull()) continue;
    for (const Value& y : args[1].AsArray()) {
      if (!y.IsNull() && CompareValues(x, y) == 0) return Value::Bool(true);
    }
  }
  return Value::Bool(false);
}

// Whether two elements of one type are the same for array_remove / array_replace: NULL matches
// NULL (IS NOT DISTINCT FROM), as PostgreSQL's do.
bool SameElement(const Value& x, const Value& y) {
  if (x.IsNull() || y.IsNull()) return x.IsNull() && y.IsNull();
  return CompareValues(x, y) == 0;
}

// array_remove(array, element): the array without the elements equal to element.
Result<Value> EvalArrayRemove(std::span<const Value> args, ExecContext*) {
  if (args[0].IsNull()) return Value::Null();
  std::vector<Value> out;
  for (const Value& x : args[0].AsArray()) {
    if (!SameElement(x, args[1])) out.push_back(x);
  }
  return Value::Array(std::move(out));
}

// array_replace(array, from, to): every element equal to from becomes to.
Result<Value> EvalArrayReplace(std::span<const Value> args, ExecContext*) {
  if (args[0].IsNull()) return Value::Null();
  std::vector<Value> out = args[0].AsArray();
  for (Value& x : out) {
    if (SameElement(x, args[1])) x = args[2];
  }
  return Value::Array(std::move(out));
}

// array_fill(value, dims [, lower bounds]): one-dimensional arrays with lower bound 1 only
// (Meridian's arrays); other shapes are 0A000.
Result<Value> EvalArrayFill(std::span<const Value> args, ExecContext*) {
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].IsNull()) {
      return Status::Error(sqlstate::kNullValueNotAllowed,
                           "dimension array or low bound array cannot be null");
    }
  }
  const std::vector<Value>& dims = args[1].AsArray();
  for (size_t i = 1; i < args.size(); ++i) {
    for (const Value& d : args[i].AsArray()) {
      if (d.IsNull()) {
        return Status::Error(sqlstate::kNullValueNotAllowed, "dimension values cannot be null");
      }
    }
  }
  if (args.size() == 3 && args[2].AsArray().size() != dims.size()) {
    return Status::Error(sqlstate::kArraySubscriptError, "wrong number of array subscripts")
        .WithDetail("Low bound array has different size than dimensions array.");
  }
  if (dims.empty()) return Value::Array({});
  if (dims.size() > 1) return Status::NotSupported("multidimensional arrays are not supported");
  if (args.size() == 3 && args[2].AsArray()[0].AsInt() != 1) {
    return Status::NotSupported("arrays whose lower bound is not 1 are not supported");
  }
  // At most kMaxArraySize elements, as PostgreSQL, and at most 1 GiB of values (PostgreSQL's
  // largest allocation), so one call cannot take the daemon's memory.
  const int64_t most = std::min<int64_t>(kMaxArraySize, (int64_t{1} << 30) / sizeof(Value));
  const int64_t n = dims[0].AsInt();
  if (n < 0 || n > most) {
    return Status::Error(sqlstate::kProgramLimitExceeded,
                         "array size exceeds the maximum allowed (" + std::to_string(most) + ")");
  }
  return Value::Array(std::vector<Value>(static_cast<size_t>(n), args[0]));
}

// array_dims(array): "[1:n]"; NULL for an empty array.
Result<Value> EvalArrayDims(std::span<const Value> args, ExecContext*) {
  const size_t n = args[0].AsArray().size();
  if (n == 0) return Value::Null();
  return Value::String("[1:" + std::to_string(n) + "]");
}

constexpr ScalarFunction kArrayFunctions[] = {
    {"array_remove", "ae", 2, 'a', EvalArrayRemove, false, /*strict=*/false},
    {"array_replace", "aee", 3, 'a', EvalArrayReplace, false, /*strict=*/false},
    {"array_fill", "eII", 2, 'a', EvalArrayFill, false, /*strict=*/false},
    {"array_dims", "a", 1, 't', EvalArrayDims},
};

// The functions behind the array operators @>, <@ and && (bind_array.cc binds the operators to
// them after checking that both sides are arrays of comparable elements).
constexpr ScalarFunction kArrayOperatorFunctions[] = {
    {"arraycontains", "xx", 2, 'b', EvalArrayContains},
    {"arraycontained", "xx", 2, 'b', EvalArrayContained},
    {"arrayoverlap", "xx", 2, 'b', EvalArrayOverlap},
};

}  // namespace

void RegisterArrayFunctions() {
  RegisterScalarFunctions(kArrayOperatorFunctions);
  RegisterScalarFunctions(kArrayFunctions);
}

}  // namespace meridian::exec
