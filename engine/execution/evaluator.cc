// Expression evaluation (see evaluator.h): operators, functions, CASE, IN and subqueries.
#include "execution/evaluator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "binder/function_registry.h"
#include "binder/type_rules.h"
#include "execution/hash_key.h"
#include "execution/pattern_match.h"
#include "execution/spill.h"

namespace meridian::exec {

namespace {

const ExecControl* Ctl(const EvalContext& ctx) {
  return ctx.exec != nullptr ? ctx.exec->ctl : nullptr;
}

Status DivisionByZero() { return Status::Error(sqlstate::kDivisionByZero, "division by zero"); }

Status OutOfRange(Type t) {
  return Status::Error(sqlstate::kNumericValueOutOfRange, t.Name() + " out of range");
}

std::string TextOf(const Value& v) {
  if (v.IsBool()) return v.AsBool() ? "true" : "false";
  return v.ToString();
}

// PostgreSQL's float8 rule: a result that overflows to infinity from finite inputs, or
// underflows to zero from non-zero inputs, is an error (22003), not a silent Infinity or 0.
Result<Value> CheckedDouble(double r, double x, double y, bool zero_ok) {
  if (std::isinf(r) && !std::isinf(x) && !std::isinf(y)) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  if (r == 0 && !zero_ok) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
  }
  return Value::Double(r);
}

// float4 results: computed in double (exact for one + - * / of floats), then PostgreSQL's
// float4 overflow/underflow checks.
Result<Value> CheckedReal(Result<Value> r, double x, double y, bool zero_ok) {
  if (!r.ok()) return r;
  const double d = r->AsDouble();
  const float f = static_cast<float>(d);
  if (std::isinf(f) && !std::isinf(x) && !std::isinf(y)) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  if (f == 0 && !zero_ok) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
  }
  return Value::Real(f);
}

Result<Value> NumericArithmetic(ast::BinaryOp op, const Value& a, const Value& b) {
  MERIDIAN_ASSIGN_OR_RETURN(Numeric x, ToNumericValue(a));
  MERIDIAN_ASSIGN_OR_RETURN(Numeric y, ToNumericValue(b));
  Result<Numeric> r = Status::Internal("bad arithmetic operator");
  switch (op) {
    case ast::BinaryOp::kAdd:
      r = numeric::Add(x, y);
      break;
    case ast::BinaryOp::kSub:
      r = numeric::Sub(x, y);
      break;
    case ast::BinaryOp::kMul:
      r = numeric::Mul(x, y);
      break;
    case ast::BinaryOp::kDiv:
      r = numeric::Div(x, y);
      break;
    case ast::BinaryOp::kMod:
      r = numeric::Mod(x, y);
      break;
    default:
      break;
  }
  if (!r.ok()) return r.status();
  return Value::Decimal(*r);
}

// date ± integer → date; date - date → integer (days).
Result<Value> DateArithmetic(ast::BinaryOp op, const Value& a, const Value& b) {
  if (a.IsDate() && b.IsDate()) {
    if (!datetime::IsFinite(a.AsDate()) || !datetime::IsFinite(b.AsDate())) {
      return Status::Error(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite dates");
    }
    return Value::Int(static_cast<int64_t>(a.AsDate().days) - b.AsDate().days);
  }
  const Date d = a.IsDate() ? a.AsDate() : b.AsDate();
  const int64_t n = a.IsDate() ? b.AsInt() : a.AsInt();
  MERIDIAN_ASSIGN_OR_RETURN(Date r, datetime::AddDays(d, op == ast::BinaryOp::kSub ? -n : n));
  return Value::DateVal(r);
}

bool IsTimeKind(const Value& v) {
  return v.IsInterval() || v.IsTime() || v.IsTimestamp() || v.IsTimestampTz();
}

// The binder's operators over timestamp, timestamptz, time and interval (bind_expr.cc's
// MakeArithmetic; a date operand has become a timestamp, except in date + time).
Result<Value> TimeArithmetic(ast::BinaryOp op, const Value& a, const Value& b) {
  const bool sub = op == ast::BinaryOp::kSub;
  if (a.IsInterval() && b.IsInterval()) {
    Interval y = b.AsInterval();
    if (sub) {
      MERIDIAN_ASSIGN_OR_RETURN(y, datetime::NegateInterval(y));
    }
    MERIDIAN_ASSIGN_OR_RETURN(Interval r, datetime::AddIntervals(a.AsInterval(), y));
    return Value::IntervalVal(r);
  }
  if (a.IsInterval() != b.IsInterval() && (a.IsNumber() || b.IsNumber())) {
    const Interval i = a.IsInterval() ? a.AsInterval() : b.AsInterval();
    const double f = a.IsInterval() ? b.AsNumber() : a.AsNumber();
    Result<Interval> r = op == ast::BinaryOp::kDiv ? datetime::DivideInterval(i, f)
                                                   : datetime::MultiplyInterval(i, f);
    if (!r.ok()) return r.status();
    return Value::IntervalVal(*r);
  }
  if (a.IsInterval() || b.IsInterval()) {  // point ± interval, interval + point
    const Value& point = a.IsInterval() ? b : a;
    Interval i = a.IsInterval() ? a.AsInterval() : b.AsInterval();
    if (sub) {
      MERIDIAN_ASSIGN_OR_RETURN(i, datetime::NegateInterval(i));
    }
    if (point.IsTimestamp()) {
      MERIDIAN_ASSIGN_OR_RETURN(Timestamp t, datetime::AddInterval(point.AsTimestamp(), i));
      return Value::TimestampVal(t);
    }
    if (point.IsTimestampTz()) {
      MERIDIAN_ASSIGN_OR_RETURN(
          TimestampTz t, datetime::AddInterval(point.AsTimestampTz(), i, datetime::CurrentZone()));
      return Value::TimestampTzVal(t);
    }
    if (point.IsTime()) return Value::TimeVal(datetime::AddInterval(point.AsTime(), i));
  }
  if (a.IsTimestamp() && b.IsTimestamp()) {
    MERIDIAN_ASSIGN_OR_RETURN(Interval r, datetime::Subtract(a.AsTimestamp(), b.AsTimestamp()));
    return Value::IntervalVal(r);
  }
  if (a.IsTimestampTz() && b.IsTimestampTz()) {
    MERIDIAN_ASSIGN_OR_RETURN(Interval r, datetime::Subtract(Timestamp{a.AsTimestampTz().micros},
                                                             Timestamp{b.AsTimestampTz().micros}));
    return Value::IntervalVal(r);
  }
  if (a.IsTime() && b.IsTime()) {
    return Value::IntervalVal(Interval{0, 0, a.AsTime().micros - b.AsTime().micros});
  }
  if ((a.IsDate() && b.IsTime()) || (a.IsTime() && b.IsDate())) {  // date + time
    const Date d = a.IsDate() ? a.AsDate() : b.AsDate();
    const int64_t t = a.IsTime() ? a.AsTime().micros : b.AsTime().micros;
    MERIDIAN_ASSIGN_OR_RETURN(Timestamp ts, datetime::CheckedToTimestamp(d));
    if (!datetime::IsFinite(ts)) return Value::TimestampVal(ts);
    MERIDIAN_RETURN_IF_ERROR(datetime::CheckTimestampRange(ts.micros + t));
    return Value::TimestampVal(Timestamp{ts.micros + t});
  }
  return Status::Internal("bad date/time operands");
}

Result<Value> Arithmetic(ast::BinaryOp op, const Value& a, const Value& b, Type type) {
  if (IsTimeKind(a) || IsTimeKind(b)) return TimeArithmetic(op, a, b);
  if (a.IsDate() || b.IsDate()) return DateArithmetic(op, a, b);
  if (type.id == TypeId::kNumeric) return NumericArithmetic(op, a, b);
  if (type.IsFloat()) {
    double x = a.AsNumber(), y = b.AsNumber();
    Result<Value> r = Status::Internal("bad arithmetic operator");
    bool zero_ok = true;
    switch (op) {
      case ast::BinaryOp::kAdd:
        r = CheckedDouble(x + y, x, y, true);
        break;
      case ast::BinaryOp::kSub:
        r = CheckedDouble(x - y, x, y, true);
        break;
      case ast::BinaryOp::kMul:
        zero_ok = x == 0 || y == 0;
        r = CheckedDouble(x * y, x, y, zero_ok);
        break;
      case ast::BinaryOp::kDiv:
        if (y == 0) return DivisionByZero();
        zero_ok = x == 0;
        r = CheckedDouble(x / y, x, y, zero_ok);
        break;
      case ast::BinaryOp::kMod:
        if (y == 0) return DivisionByZero();
        r = Value::Double(std::fmod(x, y));
        break;
      default:
        break;
    }
    if (type.id == TypeId::kReal) return CheckedReal(std::move(r), x, y, zero_ok);
    return r;
  }
  int64_t x = a.AsInt(), y = b.AsInt(), r = 0;
  switch (op) {
    case ast::BinaryOp::kAdd:
      if (__builtin_add_overflow(x, y, &r)) return OutOfRange(type);
      break;
    case ast::BinaryOp::kSub:
      if (__builtin_sub_overflow(x, y, &r)) return OutOfRange(type);
      break;
    case ast::BinaryOp::kMul:
      if (__builtin_mul_overflow(x, y, &r)) return OutOfRange(type);
      break;
    case ast::BinaryOp::kDiv:
      if (y == 0) return DivisionByZero();
      if (y == -1) {
        if (__builtin_sub_overflow(int64_t{0}, x, &r)) return OutOfRange(type);
      } else {
        r = x / y;
      }
      break;
    case ast::BinaryOp::kMod:
      if (y == 0) return DivisionByZero();
      r = (y == -1) ? 0 : x % y;
      break;
    default:
      return Status::Internal("bad arithmetic operator");
  }
  if (!CheckRange(r, type).ok()) return OutOfRange(type);
  return Value::Int(r);
}

// a IS NOT DISTINCT FROM b: NULL equals NULL and nothing else; rows field by field.
bool NotDistinct(const Value& a, const Value& b) {
  if (a.IsNull() || b.IsNull()) return a.IsNull() && b.IsNull();
  if (a.IsRecord() && b.IsRecord()) {
    const auto& x = a.AsRecord().fields;
    const auto& y = b.AsRecord().fields;
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!NotDistinct(x[i], y[i])) return false;
    }
    return true;
  }
  return CompareValues(a, b) == 0;
}

Result<Value> Compare(ast::BinaryOp op, const Value& a, const Value& b) {
  int c = 0;
  if (a.IsRecord() && b.IsRecord()) {
    const bool ordering = op != ast::BinaryOp::kEq && op != ast::BinaryOp::kNe;
    MERIDIAN_ASSIGN_OR_RETURN(c, CompareRecords(a, b, ordering));
  } else {
    c = CompareValues(a, b);
  }
  switch (op) {
    case ast::BinaryOp::kEq:
      return Value::Bool(c == 0);
    case ast::BinaryOp::kNe:
      return Value::Bool(c != 0);
    case ast::BinaryOp::kLt:
      return Value::Bool(c < 0);
    case ast::BinaryOp::kLe:
      return Value::Bool(c <= 0);
    case ast::BinaryOp::kGt:
      return Value::Bool(c > 0);
    case ast::BinaryOp::kGe:
      return Value::Bool(c >= 0);
    default:
      return Status::Internal("bad comparison operator");
  }
}

// ---- math and string functions

// The UTF-8 characters of s, each as its byte sequence.
std::vector<std::string_view> Chars(const std::string& s) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < s.size();) {
    size_t j = i + 1;
    while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) ++j;
    out.emplace_back(s.data() + i, j - i);
    i = j;
  }
  return out;
}

// Characters [from, to) of cs (clamped) joined into a string.
std::string Join(const std::vector<std::string_view>& cs, int64_t from, int64_t to) {
  from = std::clamp<int64_t>(from, 0, static_cast<int64_t>(cs.size()));
  to = std::clamp<int64_t>(to, from, static_cast<int64_t>(cs.size()));
  std::string out;
  for (int64_t i = from; i < to; ++i) out.append(cs[i]);
  return out;
}

std::string AsciiLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// like_escape(pattern, escape): the pattern rewritten for LIKE (pattern_match.h), whose escape is
// '\'.
Result<Value> LikeEscape(const std::string& pattern, const std::string& escape) {
  std::vector<std::string_view> esc = Chars(escape);
  if (esc.size() > 1) {
    return Status::Error(sqlstate::kInvalidEscapeSequence, "invalid escape string")
        .WithHint("Escape string must be empty or one character.");
  }
  std::vector<std::string_view> cs = Chars(pattern);
  std::string out;
  for (size_t i = 0; i < cs.size(); ++i) {
    if (!esc.empty() && cs[i] == esc[0]) {
      out += '\\';  // a trailing escape stays a trailing '\', as in PostgreSQL
      if (i + 1 < cs.size()) out.append(cs[++i]);
    } else if (cs[i] == "\\") {
      out += "\\\\";
    } else {
      out.append(cs[i]);
    }
  }
  return Value::String(std::move(out));
}

Status TooLong() {
  return Status::Error(sqlstate::kProgramLimitExceeded, "requested length too large");
}

// round(x, n) with PostgreSQL's numeric rule (half away from zero) on the value's 15-digit
// decimal form, as a float8 → numeric cast would see it.
double RoundTo(double x, int64_t n) {
  if (!std::isfinite(x)) return x;
  n = std::clamp<int64_t>(n, -400, 400);
  const double p = std::pow(10.0, static_cast<double>(n < 0 ? -n : n));
  if (std::isinf(p)) return n < 0 ? 0.0 : x;
  double scaled = n >= 0 ? x * p : x / p;
  if (std::isinf(scaled)) return x;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.15g", scaled);
  double out = std::round(std::strtod(buf, nullptr));
  out = n >= 0 ? out / p : out * p;
  return out == 0 ? 0.0 : out;  // numeric has no -0
}

Result<Value> EvalNumericMath(const BoundExpr& e, const std::vector<Value>& v) {
  if (e.func == Func::kMod) return Arithmetic(ast::BinaryOp::kMod, v[0], v[1], e.type);
  const Numeric& n = v[0].AsDecimal();
  Result<Numeric> r = Status::Internal("unknown numeric function");
  switch (e.func) {
    case Func::kRound:
      r = numeric::Round(n, 0);
      break;
    case Func::kRoundTo:
      r = numeric::Round(n, v[1].AsInt());
      break;
    case Func::kTrunc:
      r = numeric::Trunc(n, 0);
      break;
    case Func::kTruncTo:
      r = numeric::Trunc(n, v[1].AsInt());
      break;
    case Func::kFloor:
      r = numeric::Floor(n);
      break;
    case Func::kCeil:
      r = numeric::Ceil(n);
      break;
    case Func::kSign:
      r = numeric::FromInt(numeric::Sign(n));
      break;
    default:
      break;
  }
  if (!r.ok()) return r.status();
  return Value::Decimal(*r);
}

// trunc(x, n) of a double: the digits after the n-th decimal dropped.
double TruncTo(double x, int64_t n) {
  if (!std::isfinite(x)) return x;
  n = std::clamp<int64_t>(n, -400, 400);
  const double p = std::pow(10.0, static_cast<double>(n < 0 ? -n : n));
  if (std::isinf(p)) return n < 0 ? 0.0 : x;
  const double out = n >= 0 ? std::trunc(x * p) / p : std::trunc(x / p) * p;
  return out == 0 ? 0.0 : out;
}

Result<Value> EvalMath(const BoundExpr& e, const std::vector<Value>& v) {
  if (e.type.id == TypeId::kNumeric) return EvalNumericMath(e, v);
  const double x = v[0].AsNumber();
  switch (e.func) {
    case Func::kRound:
      return Value::Double(std::nearbyint(x));
    case Func::kRoundTo:
      return Value::Double(RoundTo(x, v[1].AsInt()));
    case Func::kTrunc:
      return Value::Double(std::trunc(x));
    case Func::kTruncTo:
      return Value::Double(TruncTo(x, v[1].AsInt()));
    case Func::kFloor:
      return Value::Double(std::floor(x));
    case Func::kCeil:
      return Value::Double(std::ceil(x));
    case Func::kSign:
      return Value::Double(x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
    case Func::kSqrt:
      if (x < 0)
        return Status::Error(sqlstate::kInvalidArgumentForPowerFunction,
                             "cannot take square root of a negative number");
      return Value::Double(std::sqrt(x));
    case Func::kPower: {
      const double y = v[1].AsNumber();
      if (x == 0 && y < 0) {
        return Status::Error(sqlstate::kInvalidArgumentForPowerFunction,
                             "zero raised to a negative power is undefined");
      }
      if (x < 0 && std::floor(y) != y) {
        return Status::Error(sqlstate::kInvalidArgumentForPowerFunction,
                             "a negative number raised to a non-integer power yields a complex "
                             "result");
      }
      return CheckedDouble(std::pow(x, y), x, y, x == 0 || std::isinf(y));
    }
    case Func::kMod:
      return Arithmetic(ast::BinaryOp::kMod, v[0], v[1], e.type);
    default:
      break;
  }
  return Status::Internal("unknown math function");
}

Result<Value> EvalString(const BoundExpr& e, const std::vector<Value>& v, const ExecControl* ctl) {
  const std::string s = v[0].AsString();
  switch (e.func) {
    case Func::kSubstring: {
      const int64_t start = v[1].AsInt();
      int64_t end = std::numeric_limits<int64_t>::max();
      if (v.size() > 2) {
        if (v[2].AsInt() < 0) {
          return Status::Error(sqlstate::kSubstringError, "negative substring length not allowed");
        }
        end = start + v[2].AsInt();  // int32 arguments: no overflow in int64
      }
      std::vector<std::string_view> cs = Chars(s);
      return Value::String(Join(cs, std::max<int64_t>(start, 1) - 1, end - 1));
    }
    case Func::kSubstringRegex: {
      MERIDIAN_ASSIGN_OR_RETURN(std::optional<std::string> m,
                                RegexSubstring(s, v[1].AsString(), ctl));
      if (!m) return Value::Null();
      return Value::String(std::move(*m));
    }
    case Func::kStrpos: {
      const size_t at = s.find(v[1].AsString());
      if (at == std::string::npos) return Value::Int(0);
      return Value::Int(static_cast<int64_t>(CharLength(s.substr(0, at))) + 1);
    }
    case Func::kBTrim:
    case Func::kLTrim:
    case Func::kRTrim: {
      std::vector<std::string_view> cs = Chars(s);
      const std::string set_text = v.size() > 1 ? v[1].AsString() : " ";
      std::vector<std::string_view> set = Chars(set_text);
      auto in_set = [&](std::string_view c) {
        return std::find(set.begin(), set.end(), c) != set.end();
      };
      int64_t from = 0, to = static_cast<int64_t>(cs.size());
      if (e.func != Func::kRTrim) {
        while (from < to && in_set(cs[from])) ++from;
      }
      if (e.func != Func::kLTrim) {
        while (to > from && in_set(cs[to - 1])) --to;
      }
      return Value::String(Join(cs, from, to));
    }
    case Func::kReplace: {
      const std::string from = v[1].AsString(), to = v[2].AsString();
      if (from.empty()) return v[0];
      std::string out;
      size_t i = 0;
      for (size_t at; (at = s.find(from, i)) != std::string::npos; i = at + from.size()) {
        out.append(s, i, at - i).append(to);
      }
      out.append(s, i, std::string::npos);
      return Value::String(std::move(out));
    }
    case Func::kLeft:
    case Func::kRight: {
      std::vector<std::string_view> cs = Chars(s);
      const int64_t len = static_cast<int64_t>(cs.size()), n = v[1].AsInt();
      const int64_t keep = n >= 0 ? n : len + n;
      return Value::String(e.func == Func::kLeft ? Join(cs, 0, keep) : Join(cs, len - keep, len));
    }
    case Func::kRepeat: {
      const int64_t n = v[1].AsInt();
      if (n <= 0 || s.empty()) return Value::String("");
      if (static_cast<double>(s.size()) * static_cast<double>(n) >= 0x3fffffff) return TooLong();
      std::string out;
      out.reserve(s.size() * static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) out += s;
      return Value::String(std::move(out));
    }
    case Func::kLPad:
    case Func::kRPad: {
      const int64_t len = std::max<int64_t>(v[1].AsInt(), 0);
      if (len * 4 >= 0x3fffffff) return TooLong();
      std::vector<std::string_view> cs = Chars(s);
      const std::string fill_text = v.size() > 2 ? v[2].AsString() : " ";
      std::vector<std::string_view> fill = Chars(fill_text);
      if (static_cast<int64_t>(cs.size()) >= len || fill.empty()) {
        return Value::String(Join(cs, 0, len));
      }
      std::string pad;
      for (int64_t i = 0; i < len - static_cast<int64_t>(cs.size()); ++i) {
        pad.append(fill[static_cast<size_t>(i) % fill.size()]);
      }
      return Value::String(e.func == Func::kLPad ? pad + s : s + pad);
    }
    case Func::kReverse: {
      std::vector<std::string_view> cs = Chars(s);
      std::string out;
      for (auto it = cs.rbegin(); it != cs.rend(); ++it) out.append(*it);
      return Value::String(std::move(out));
    }
    case Func::kLikeEscape:
      return LikeEscape(s, v[1].AsString());
    case Func::kSplitPart: {
      // PostgreSQL 15: field n (1-based; negative counts from the end) of s split at delim;
      // '' when there is no such field; an empty delim makes s the only field.
      const std::string& delim = v[1].AsString();
      const int64_t n = v[2].AsInt();
      if (n == 0)
        return Status::Error(sqlstate::kInvalidParameterValue, "field position must not be zero");
      std::vector<std::string> fields;
      if (delim.empty()) {
        fields.push_back(s);
      } else {
        size_t i = 0;
        for (size_t at; (at = s.find(delim, i)) != std::string::npos; i = at + delim.size()) {
          fields.push_back(s.substr(i, at - i));
        }
        fields.push_back(s.substr(i));
      }
      const auto count = static_cast<int64_t>(fields.size());
      const int64_t index = n > 0 ? n - 1 : count + n;
      if (index < 0 || index >= count) return Value::String("");
      return Value::String(std::move(fields[static_cast<size_t>(index)]));
    }
    case Func::kTranslate: {
      // Each character of s found in from becomes the one at its place in to, or goes when
      // to is shorter; the first occurrence in from counts.
      const std::vector<std::string_view> from = Chars(v[1].AsString());
      const std::vector<std::string_view> to = Chars(v[2].AsString());
      std::string out;
      for (std::string_view c : Chars(s)) {
        const auto it = std::find(from.begin(), from.end(), c);
        if (it == from.end()) {
          out.append(c);
        } else if (const auto k = static_cast<size_t>(it - from.begin()); k < to.size()) {
          out.append(to[k]);
        }
      }
      return Value::String(std::move(out));
    }
    case Func::kInitcap: {
      std::string out = s;
      bool in_word = false;
      for (char& c : out) {
        const unsigned char u = static_cast<unsigned char>(c);
        c = static_cast<char>(in_word ? std::tolower(u) : std::toupper(u));
        in_word = std::isalnum(u) || u >= 0x80;
      }
      return Value::String(std::move(out));
    }
    default:
      break;
  }
  return Status::Internal("unknown string function");
}

// Drops a hashed subquery's table (a new run, or one past its memory budget).
void ClearHashed(SubqueryPlan::Hashed& h) {
  h.built = false;
  std::unordered_set<std::string>().swap(h.keys);
  std::unordered_map<std::string, Value>().swap(h.values);
  std::unordered_map<std::string, bool>().swap(h.groups);
}

// A correlated subquery through its hashed form (SubqueryPlan::Hashed): false while the
// per-row plan is still due (the first switch_after calls of a run, or always once a table of
// this plan outgrew twice work_mem, PostgreSQL's hash_mem_multiplier, unless the budget grew
// since); else the table is built (at the first such call) and *key holds the outer row's
// key, empty when a part is NULL.
Result<bool> HashedLookupKey(const BoundExpr& e, const EvalContext& ctx, std::string* key) {
  SubqueryPlan::Hashed& h = *e.subquery->hashed;
  const uint64_t run = ctx.exec != nullptr ? ctx.exec->run : 0;
  if (h.run != run) {
    h.run = run;
    h.calls = 0;
    ClearHashed(h);
  }
  const size_t budget = 2 * WorkMemBytes(ctx.exec);
  if (h.outgrew_budget != 0 && budget <= h.outgrew_budget) return false;
  if (!h.built) {
    if (++h.calls <= h.switch_after) return false;
    MERIDIAN_RETURN_IF_ERROR(h.root->Open(&ctx, ctx.exec));
    const size_t k = h.outer_keys.size();
    size_t held = 0;  // estimated bytes of the table: keys, values and per-entry overhead
    constexpr size_t kEntryBytes = 64;  // a hash node, its bucket slot and a string header
    Row row;
    std::string group;
    int until_check = kCheckInterval;
    while (true) {
      if (held > budget) {
        ClearHashed(h);
        h.outgrew_budget = budget;
        return false;
      }
      MERIDIAN_ASSIGN_OR_RETURN(bool more, h.root->Next(&row));
      if (!more) break;
      if (--until_check <= 0 && ctx.exec != nullptr && ctx.exec->ctl != nullptr) {
        MERIDIAN_RETURN_IF_ERROR(ctx.exec->ctl->Check());
        until_check = kCheckInterval;
      }
      group.clear();
      bool null = false;
      for (size_t i = 0; i < k && !null; ++i) {
        null = row[i].IsNull();
        AppendKeyValue(row[i], &group);
      }
      if (null) continue;  // a NULL key equals no outer key
      switch (h.form) {
        case HashedForm::kScalar:
          held += kEntryBytes + group.size() + sizeof(Value) + row[k].ByteSize();
          h.values.emplace(group, std::move(row[k]));
          break;
        case HashedForm::kIn: {
          held += 2 * (kEntryBytes + group.size()) + row[k].ByteSize();
          bool& saw_null = h.groups[group];
          if (row[k].IsNull()) {
            saw_null = true;
          } else {
            AppendKeyValue(row[k], &group);
            h.keys.insert(group);
          }
          break;
        }
        default:
          held += kEntryBytes + group.size();
          h.keys.insert(group);
          break;
      }
    }
    h.built = true;
  }
  key->clear();
  for (const BoundExprPtr& part : h.outer_keys) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*part, ctx));
    if (v.IsNull()) {  // NULL = anything is never true
      key->clear();
      return true;
    }
    AppendKeyValue(v, key);
  }
  return true;
}

// [NOT] EXISTS through its hash set: none while the per-row plan is due.
Result<std::optional<bool>> HashedExistsProbe(const BoundExpr& e, const EvalContext& ctx) {
  std::string key;
  MERIDIAN_ASSIGN_OR_RETURN(bool hashed, HashedLookupKey(e, ctx, &key));
  if (!hashed) return std::optional<bool>();
  return std::optional<bool>(!key.empty() && e.subquery->hashed->keys.count(key) != 0);
}

// A scalar aggregate subquery through its map: the outer key's group's value, or the select
// list over no rows; none while the per-row plan is due.
Result<std::optional<Value>> HashedScalarProbe(const BoundExpr& e, const EvalContext& ctx) {
  std::string key;
  MERIDIAN_ASSIGN_OR_RETURN(bool hashed, HashedLookupKey(e, ctx, &key));
  if (!hashed) return std::optional<Value>();
  const SubqueryPlan::Hashed& h = *e.subquery->hashed;
  if (!key.empty()) {
    auto it = h.values.find(key);
    if (it != h.values.end()) return std::optional<Value>(it->second);
  }
  MERIDIAN_ASSIGN_OR_RETURN(Value empty, Eval(*h.empty, ctx));
  return std::optional<Value>(std::move(empty));
}

// x [NOT] IN (subquery) through its groups: an empty group gives false (NOT IN: true); in a
// non-empty one, x found gives true, else a NULL x or a NULL y gives NULL, else false. None
// while the per-row plan is due.
Result<std::optional<Value>> HashedInProbe(const BoundExpr& e, const Value& x,
                                           const EvalContext& ctx) {
  std::string key;
  MERIDIAN_ASSIGN_OR_RETURN(bool hashed, HashedLookupKey(e, ctx, &key));
  if (!hashed) return std::optional<Value>();
  const SubqueryPlan::Hashed& h = *e.subquery->hashed;
  auto group = key.empty() ? h.groups.end() : h.groups.find(key);
  if (group == h.groups.end()) return std::optional<Value>(Value::Bool(e.negated));
  if (x.IsNull()) return std::optional<Value>(Value::Null());
  AppendKeyValue(x, &key);
  if (h.keys.count(key) != 0) return std::optional<Value>(Value::Bool(!e.negated));
  return std::optional<Value>(group->second ? Value::Null() : Value::Bool(e.negated));
}

// Runs a subquery plan (or reads its cache) and returns the first column of its rows; for
// scalar and EXISTS subqueries it stops after two rows / one row.
Result<const std::vector<Value>*> RunSubquery(const BoundExpr& e, const EvalContext& ctx,
                                              size_t limit) {
  SubqueryPlan& plan = *e.subquery;
  const uint64_t run = ctx.exec != nullptr ? ctx.exec->run : 0;
  if (plan.cached && plan.cached_run == run) return &plan.rows;
  plan.rows.clear();
  // The sorted lookup of x IN (subquery) is built from rows: it goes with them.
  plan.lookup = SubqueryPlan::Lookup::kUnbuilt;
  plan.sorted.clear();
  plan.sorted_saw_null = false;
  MERIDIAN_RETURN_IF_ERROR(plan.root->Open(&ctx, ctx.exec));
  Row row;
  while (plan.rows.size() < limit) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, plan.root->Next(&row));
    if (!more) break;
    plan.rows.push_back(row.empty() ? Value::Null() : std::move(row[0]));
  }
  if (!plan.correlated) {
    plan.cached = true;
    plan.cached_run = run;
  }
  return &plan.rows;
}

Result<Value> EvalInList(const BoundExpr& e, const EvalContext& ctx) {
  MERIDIAN_ASSIGN_OR_RETURN(Value x, Eval(*e.children[0], ctx));
  if (x.IsNull()) return Value::Null();
  bool saw_null = false;
  for (size_t i = 1; i < e.children.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e.children[i], ctx));
    if (v.IsNull()) {
      saw_null = true;
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(Value eq, Compare(ast::BinaryOp::kEq, x, v));
      if (eq.AsBool()) return Value::Bool(!e.negated);
    }
  }
  if (saw_null) return Value::Null();
  return Value::Bool(e.negated);
}

// x op ANY (subquery): true when some row's comparison is true; x op ALL: false when some
// row's is false; otherwise NULL when a comparison was NULL, else false (ANY) / true (ALL). An
// empty subquery gives false (ANY) / true (ALL) even for a NULL x. NOT IN negates = ANY.
Result<Value> EvalInSubquery(const BoundExpr& e, const EvalContext& ctx) {
  MERIDIAN_ASSIGN_OR_RETURN(Value x, Eval(*e.children[0], ctx));
  if (e.subquery->hashed != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(std::optional<Value> v, HashedInProbe(e, x, ctx));
    if (v) return std::move(*v);
  }
  MERIDIAN_ASSIGN_OR_RETURN(const std::vector<Value>* rows,
                            RunSubquery(e, ctx, std::numeric_limits<size_t>::max()));
  auto result = [&](std::optional<bool> b) {
    if (!b) return Value::Null();
    return Value::Bool(*b != e.negated);
  };
  if (rows->empty()) return result(e.all);
  if (x.IsNull()) return result(std::nullopt);
  SubqueryPlan& plan = *e.subquery;
  if (e.binary_op == ast::BinaryOp::kEq && !e.all && !plan.correlated) {
    if (plan.lookup == SubqueryPlan::Lookup::kUnbuilt) {
      // Values of one kind (integers or doubles) only, where CompareValues is the = it uses.
      plan.lookup = SubqueryPlan::Lookup::kSorted;
      for (const Value& v : *rows) {
        if (v.IsNull()) {
          plan.sorted_saw_null = true;
        } else if ((v.IsInt() || v.IsDouble()) &&
                   (plan.sorted.empty() || v.IsInt() == plan.sorted.front().IsInt())) {
          plan.sorted.push_back(v);
        } else {
          plan.lookup = SubqueryPlan::Lookup::kScan;
          break;
        }
      }
      if (plan.lookup == SubqueryPlan::Lookup::kSorted) {
        std::sort(plan.sorted.begin(), plan.sorted.end(),
                  [](const Value& a, const Value& b) { return CompareValues(a, b) < 0; });
      } else {
        plan.sorted.clear();
      }
    }
    const bool same_kind = plan.sorted.empty() || x.IsInt() == plan.sorted.front().IsInt();
    if (plan.lookup == SubqueryPlan::Lookup::kSorted && (x.IsInt() || x.IsDouble()) && same_kind) {
      const bool found = std::binary_search(
          plan.sorted.begin(), plan.sorted.end(), x,
          [](const Value& a, const Value& b) { return CompareValues(a, b) < 0; });
      if (found) return result(true);
      return result(plan.sorted_saw_null ? std::nullopt : std::optional<bool>(false));
    }
  }
  bool saw_null = false;
  for (const Value& v : *rows) {
    if (v.IsNull()) {
      saw_null = true;
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(Value holds, Compare(e.binary_op, x, v));
    if (holds.AsBool() != e.all) return result(!e.all);
  }
  if (saw_null) return result(std::nullopt);
  return result(e.all);
}

// The value of an operand without a copy when it is a leaf: a column of this or an enclosing
// row, a constant or a parameter; anything else (and a reference Eval would reject, so that
// it reports the error) is evaluated into *scratch. Lives as long as those and *scratch.
Result<const Value*> EvalOperand(const BoundExpr& e, const EvalContext& ctx, Value* scratch) {
  switch (e.kind) {
    case BoundKind::kConst:
      return &e.value;
    case BoundKind::kColumn: {
      const EvalContext* c = &ctx;
      for (int d = 0; d < e.depth && c != nullptr; ++d) c = c->outer;
      if (c != nullptr && c->row != nullptr && e.index >= 0 &&
          e.index < static_cast<int>(c->row->size())) {
        return &(*c->row)[static_cast<size_t>(e.index)];
      }
      break;
    }
    case BoundKind::kParam:
      if (ctx.exec != nullptr && e.index >= 0 &&
          e.index < static_cast<int>(ctx.exec->params.size())) {
        return &ctx.exec->params[static_cast<size_t>(e.index)];
      }
      break;
    default:
      break;
  }
  MERIDIAN_ASSIGN_OR_RETURN(*scratch, Eval(e, ctx));
  return static_cast<const Value*>(scratch);
}

bool IsComparison(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kEq:
    case ast::BinaryOp::kNe:
    case ast::BinaryOp::kLt:
    case ast::BinaryOp::kLe:
    case ast::BinaryOp::kGt:
    case ast::BinaryOp::kGe:
      return true;
    default:
      return false;
  }
}

// Compare's answer for a comparison operator and CompareValues' result.
bool ComparisonHolds(ast::BinaryOp op, int c) {
  switch (op) {
    case ast::BinaryOp::kEq:
      return c == 0;
    case ast::BinaryOp::kNe:
      return c != 0;
    case ast::BinaryOp::kLt:
      return c < 0;
    case ast::BinaryOp::kLe:
      return c <= 0;
    case ast::BinaryOp::kGt:
      return c > 0;
    default:
      return c >= 0;
  }
}

// expr (a comparison, IsComparison) is TRUE: its operands read in place and its answer kept
// as a bool (EvalBinary's Compare, without building a Value for it). Both operands are
// evaluated, as EvalBinary does.
Result<bool> ComparisonIsTrue(const BoundExpr& expr, const EvalContext& ctx) {
  Value scratch_a, scratch_b;
  MERIDIAN_ASSIGN_OR_RETURN(const Value* a, EvalOperand(*expr.children[0], ctx, &scratch_a));
  MERIDIAN_ASSIGN_OR_RETURN(const Value* b, EvalOperand(*expr.children[1], ctx, &scratch_b));
  if (a->IsNull() || b->IsNull()) return false;
  if (a->IsInt() && b->IsInt()) {
    const int64_t x = a->AsInt(), y = b->AsInt();
    return ComparisonHolds(expr.binary_op, x < y ? -1 : (x > y ? 1 : 0));
  }
  return ComparisonHolds(expr.binary_op, CompareValues(*a, *b));
}

Result<Value> EvalCase(const BoundExpr& e, const EvalContext& ctx) {
  size_t i = 0;
  Value operand;
  if (e.has_operand) {
    MERIDIAN_ASSIGN_OR_RETURN(operand, Eval(*e.children[0], ctx));
    i = 1;
  }
  size_t end = e.children.size() - (e.has_else ? 1 : 0);
  for (; i + 1 < end; i += 2) {
    bool match = false;
    if (e.has_operand) {
      MERIDIAN_ASSIGN_OR_RETURN(Value w, Eval(*e.children[i], ctx));
      if (!operand.IsNull() && !w.IsNull()) {
        MERIDIAN_ASSIGN_OR_RETURN(Value eq, Compare(ast::BinaryOp::kEq, operand, w));
        match = eq.AsBool();
      }
    } else {
      // Not EvalPredicate: a WHEN condition is one expression, its AND evaluated in full.
      const BoundExpr& when = *e.children[i];
      if (when.kind == BoundKind::kBinary && IsComparison(when.binary_op)) {
        MERIDIAN_ASSIGN_OR_RETURN(match, ComparisonIsTrue(when, ctx));
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(Value w, Eval(when, ctx));
        match = !w.IsNull() && w.IsBool() && w.AsBool();
      }
    }
    if (match) return Eval(*e.children[i + 1], ctx);
  }
  if (e.has_else) return Eval(*e.children.back(), ctx);
  return Value::Null();
}

Result<Value> EvalRegistered(const BoundExpr& e, const EvalContext& ctx) {
  // Up to four arguments (every fixed-arity entry) live on the stack: no allocation per row.
  constexpr size_t kInline = 4;
  std::array<Value, kInline> inline_args;
  std::vector<Value> many;
  const size_t n = e.children.size();
  if (n > kInline) many.resize(n);
  Value* args = n > kInline ? many.data() : inline_args.data();
  for (size_t i = 0; i < n; ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(args[i], Eval(*e.children[i], ctx));
    if (args[i].IsNull() && e.scalar->strict) return Value::Null();
  }
  return e.scalar->eval(std::span<const Value>(args, n), ctx.exec);
}

Result<Value> EvalFunction(const BoundExpr& e, const EvalContext& ctx) {
  if (e.func == Func::kRegistered) return EvalRegistered(e, ctx);
  if (e.func >= Func::kVersion) return EvalSystemFunction(e, ctx);
  if (e.func >= Func::kArrayToString) return EvalArrayExpr(e, ctx);
  switch (e.func) {
    case Func::kPgTypeof:
      return e.value;
    case Func::kCoalesce:
      for (const BoundExprPtr& c : e.children) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c, ctx));
        if (!v.IsNull()) return v;
      }
      return Value::Null();
    case Func::kNullIf: {
      MERIDIAN_ASSIGN_OR_RETURN(Value a, Eval(*e.children[0], ctx));
      MERIDIAN_ASSIGN_OR_RETURN(Value b, Eval(*e.children[1], ctx));
      if (!a.IsNull() && !b.IsNull() && CompareValues(a, b) == 0) return Value::Null();
      return a;
    }
    case Func::kGreatest:
    case Func::kLeast: {
      Value best = Value::Null();
      for (const BoundExprPtr& c : e.children) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c, ctx));
        if (v.IsNull()) continue;
        const int cmp = best.IsNull() ? 0 : CompareValues(v, best);
        if (best.IsNull() || (e.func == Func::kGreatest ? cmp > 0 : cmp < 0)) best = std::move(v);
      }
      return best;
    }
    case Func::kRow: {
      std::vector<Value> fields;
      fields.reserve(e.children.size());
      for (const BoundExprPtr& c : e.children) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c, ctx));
        fields.push_back(std::move(v));
      }
      return Value::Record(e.shape, std::move(fields));
    }
    case Func::kRecordField: {
      MERIDIAN_ASSIGN_OR_RETURN(Value r, Eval(*e.children[0], ctx));
      if (r.IsNull()) return Value::Null();
      const RecordValue& record = r.AsRecord();
      const size_t k = static_cast<size_t>(e.children[1]->value.AsInt());
      if (k >= record.fields.size()) {
        return Status::Error(sqlstate::kDatatypeMismatch, "record has no field \"" + e.name + "\"");
      }
      return record.fields[k];
    }
    case Func::kConcat: {
      std::string out;
      for (const BoundExprPtr& c : e.children) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c, ctx));
        if (!v.IsNull()) out += v.ToString();
      }
      return Value::String(std::move(out));
    }
    default:
      break;
  }
  if (e.func >= Func::kRound && e.func < Func::kVersion) {
    std::vector<Value> args;
    for (const BoundExprPtr& c : e.children) {
      MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c, ctx));
      if (v.IsNull()) return Value::Null();
      args.push_back(std::move(v));
    }
    if (e.func <= Func::kMod) return EvalMath(e, args);
    return EvalString(e, args, Ctl(ctx));
  }
  MERIDIAN_ASSIGN_OR_RETURN(Value a, Eval(*e.children[0], ctx));
  if (a.IsNull()) return Value::Null();
  switch (e.func) {
    case Func::kAbs:
      if (a.IsDouble()) return Value::Double(std::fabs(a.AsDouble()));
      if (a.IsReal()) return Value::Real(std::fabs(a.AsReal()));
      if (a.IsDecimal()) return Value::Decimal(numeric::Abs(a.AsDecimal()));
      if (a.AsInt() < 0) {
        int64_t r = 0;
        if (__builtin_sub_overflow(int64_t{0}, a.AsInt(), &r)) return OutOfRange(e.type);
        MERIDIAN_RETURN_IF_ERROR(CheckRange(r, e.type));
        return Value::Int(r);
      }
      return a;
    case Func::kLength:
      if (a.IsBytea()) return Value::Int(static_cast<int64_t>(a.AsBytea().size()));
      return Value::Int(static_cast<int64_t>(CharLength(a.AsString())));
    case Func::kLower:
    case Func::kUpper: {
      std::string s = a.AsString();
      for (char& c : s) {
        c = static_cast<char>(e.func == Func::kLower ? std::tolower(static_cast<unsigned char>(c))
                                                     : std::toupper(static_cast<unsigned char>(c)));
      }
      return Value::String(std::move(s));
    }
    default:
      break;
  }
  return Status::Internal("unknown function");
}

Result<Value> EvalBinary(const BoundExpr& e, const EvalContext& ctx) {
  ast::BinaryOp op = e.binary_op;
  if (op == ast::BinaryOp::kAnd || op == ast::BinaryOp::kOr) {
    bool is_and = op == ast::BinaryOp::kAnd;
    MERIDIAN_ASSIGN_OR_RETURN(Value a, Eval(*e.children[0], ctx));
    if (!a.IsNull() && a.AsBool() != is_and) return a;  // FALSE AND x, TRUE OR x
    MERIDIAN_ASSIGN_OR_RETURN(Value b, Eval(*e.children[1], ctx));
    if (!b.IsNull() && b.AsBool() != is_and) return b;
    if (a.IsNull() || b.IsNull()) return Value::Null();
    return Value::Bool(is_and);
  }
  // Leaf operands (columns, constants, parameters) are read in place, not copied.
  Value scratch_a, scratch_b;
  MERIDIAN_ASSIGN_OR_RETURN(const Value* pa, EvalOperand(*e.children[0], ctx, &scratch_a));
  MERIDIAN_ASSIGN_OR_RETURN(const Value* pb, EvalOperand(*e.children[1], ctx, &scratch_b));
  const Value& a = *pa;
  const Value& b = *pb;
  if (op == ast::BinaryOp::kIsDistinctFrom || op == ast::BinaryOp::kIsNotDistinctFrom) {
    return Value::Bool(NotDistinct(a, b) == (op == ast::BinaryOp::kIsNotDistinctFrom));
  }
  if (a.IsNull() || b.IsNull()) return Value::Null();
  switch (op) {
    case ast::BinaryOp::kAdd:
    case ast::BinaryOp::kSub:
    case ast::BinaryOp::kMul:
    case ast::BinaryOp::kDiv:
    case ast::BinaryOp::kMod:
      return Arithmetic(op, a, b, e.type);
    case ast::BinaryOp::kConcat:
      if (e.type.id == TypeId::kBytea) return Value::ByteaVal(a.AsBytea() + b.AsBytea());
      return Value::String(TextOf(a) + TextOf(b));
    case ast::BinaryOp::kLike:
    case ast::BinaryOp::kNotLike:
    case ast::BinaryOp::kILike:
    case ast::BinaryOp::kNotILike: {
      const bool icase = op == ast::BinaryOp::kILike || op == ast::BinaryOp::kNotILike;
      MERIDIAN_ASSIGN_OR_RETURN(
          bool m, icase ? LikeMatch(AsciiLower(TextOf(a)), AsciiLower(TextOf(b)), Ctl(ctx))
                        : LikeMatch(TextOf(a), TextOf(b), Ctl(ctx)));
      return Value::Bool(op == ast::BinaryOp::kLike || op == ast::BinaryOp::kILike ? m : !m);
    }
    case ast::BinaryOp::kRegexMatch:
    case ast::BinaryOp::kRegexNotMatch:
    case ast::BinaryOp::kRegexIMatch:
    case ast::BinaryOp::kRegexNotIMatch: {
      const bool icase = op == ast::BinaryOp::kRegexIMatch || op == ast::BinaryOp::kRegexNotIMatch;
      MERIDIAN_ASSIGN_OR_RETURN(bool m, RegexMatch(TextOf(a), TextOf(b), icase, Ctl(ctx)));
      return Value::Bool(
          op == ast::BinaryOp::kRegexMatch || op == ast::BinaryOp::kRegexIMatch ? m : !m);
    }
    default:
      return Compare(op, a, b);
  }
}

}  // namespace

Result<const std::vector<Value>*> SubqueryRows(const BoundExpr& e, const EvalContext& ctx) {
  return RunSubquery(e, ctx, std::numeric_limits<size_t>::max());
}

Result<Value> CompareOp(ast::BinaryOp op, const Value& a, const Value& b) {
  return Compare(op, a, b);
}

Result<Value> Eval(const BoundExpr& e, const EvalContext& ctx) {
  switch (e.kind) {
    case BoundKind::kConst:
      return e.value;
    case BoundKind::kColumn: {
      const EvalContext* c = &ctx;
      for (int d = 0; d < e.depth && c != nullptr; ++d) c = c->outer;
      if (c == nullptr || c->row == nullptr || e.index >= static_cast<int>(c->row->size())) {
        return Status::Internal("column reference \"" + e.name + "\" out of context");
      }
      return (*c->row)[e.index];
    }
    case BoundKind::kUnary: {
      MERIDIAN_ASSIGN_OR_RETURN(Value a, Eval(*e.children[0], ctx));
      if (a.IsNull()) return a;
      switch (e.unary_op) {
        case ast::UnaryOp::kNot:
          return Value::Bool(!a.AsBool());
        case ast::UnaryOp::kPlus:
          return a;
        case ast::UnaryOp::kNeg:
          if (a.IsDouble()) return Value::Double(-a.AsDouble());
          if (a.IsReal()) return Value::Real(-a.AsReal());
          if (a.IsDecimal()) return Value::Decimal(numeric::Negate(a.AsDecimal()));
          if (a.IsInterval()) {
            MERIDIAN_ASSIGN_OR_RETURN(Interval i, datetime::NegateInterval(a.AsInterval()));
            return Value::IntervalVal(i);
          }
          return Arithmetic(ast::BinaryOp::kSub, Value::Int(0), a, e.type);
      }
      return Status::Internal("bad unary operator");
    }
    case BoundKind::kBinary:
      return EvalBinary(e, ctx);
    case BoundKind::kIsNull: {
      Value scratch;
      MERIDIAN_ASSIGN_OR_RETURN(const Value* operand, EvalOperand(*e.children[0], ctx, &scratch));
      const Value& a = *operand;
      if (a.IsRecord()) {  // a row IS NULL when every field is, IS NOT NULL when none is
        for (const Value& f : a.AsRecord().fields) {
          if (f.IsNull() != !e.negated) return Value::Bool(false);
        }
        return Value::Bool(true);
      }
      return Value::Bool(a.IsNull() != e.negated);
    }
    case BoundKind::kFunction:
      return EvalFunction(e, ctx);
    case BoundKind::kAggregate:
      return Status::Internal("aggregate evaluated outside of an aggregation");
    case BoundKind::kWindow:
      return Status::Internal("window function evaluated outside of a window");
    case BoundKind::kCast: {
      Value scratch;
      MERIDIAN_ASSIGN_OR_RETURN(const Value* a, EvalOperand(*e.children[0], ctx, &scratch));
      return CastValue(*a, e.children[0]->type, e.type, e.explicit_cast);
    }
    case BoundKind::kCase:
      return EvalCase(e, ctx);
    case BoundKind::kInList:
      return EvalInList(e, ctx);
    case BoundKind::kSubquery: {
      if (e.subquery->hashed != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(std::optional<Value> v, HashedScalarProbe(e, ctx));
        if (v) return std::move(*v);
      }
      MERIDIAN_ASSIGN_OR_RETURN(const std::vector<Value>* rows, RunSubquery(e, ctx, 2));
      if (rows->size() > 1) {
        return Status::Error(sqlstate::kCardinalityViolation,
                             "more than one row returned by a subquery used as an expression");
      }
      return rows->empty() ? Value::Null() : (*rows)[0];
    }
    case BoundKind::kExists: {
      if (e.subquery->hashed != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(std::optional<bool> found, HashedExistsProbe(e, ctx));
        if (found) return Value::Bool(*found != e.negated);
      }
      MERIDIAN_ASSIGN_OR_RETURN(const std::vector<Value>* rows, RunSubquery(e, ctx, 1));
      return Value::Bool(rows->empty() == e.negated);
    }
    case BoundKind::kInSubquery:
      return EvalInSubquery(e, ctx);
    case BoundKind::kArray:
      if (e.subquery != nullptr) {  // ARRAY(subquery): every row, in order
        MERIDIAN_ASSIGN_OR_RETURN(const std::vector<Value>* rows,
                                  RunSubquery(e, ctx, std::numeric_limits<size_t>::max()));
        return Value::Array(*rows);
      }
      return EvalArrayExpr(e, ctx);
    case BoundKind::kQuantifiedArray:
    case BoundKind::kSubscript:
      return EvalArrayExpr(e, ctx);
    case BoundKind::kParam:
      if (ctx.exec == nullptr || e.index >= static_cast<int>(ctx.exec->params.size())) {
        return Status::Internal("no value for parameter $" + std::to_string(e.index + 1));
      }
      return ctx.exec->params[e.index];
  }
  return Status::Internal("unknown expression kind");
}

Result<bool> EvalPredicate(const BoundExpr& expr, const EvalContext& ctx) {
  // A condition's top-level AND stops at the first operand that is not TRUE, as PostgreSQL
  // evaluates a qualification list: the rest is not evaluated (nor can it fail) for that row.
  if (expr.kind == BoundKind::kBinary && expr.binary_op == ast::BinaryOp::kAnd) {
    MERIDIAN_ASSIGN_OR_RETURN(bool left, EvalPredicate(*expr.children[0], ctx));
    if (!left) return false;
    return EvalPredicate(*expr.children[1], ctx);
  }
  // A comparison, the usual filter.
  if (expr.kind == BoundKind::kBinary && IsComparison(expr.binary_op)) {
    return ComparisonIsTrue(expr, ctx);
  }
  MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(expr, ctx));
  return !v.IsNull() && v.IsBool() && v.AsBool();
}

}  // namespace meridian::exec
