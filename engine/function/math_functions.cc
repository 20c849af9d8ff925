// Registered math functions (binder/function_registry.h): exp, ln, log, log10, cbrt, pi,
// degrees, radians, the trigonometric functions, width_bucket, gcd, lcm, div, factorial —
// PostgreSQL 15's results and errors. The float8 forms only (a numeric argument is computed in
// double precision), except div and factorial, which are numeric as in PostgreSQL.
#include <cmath>
#include <numbers>

#include "binder/function_registry.h"
#include "function/builtin.h"
#include "meridian/numeric.h"

namespace meridian::exec {

namespace {

using Args = std::span<const Value>;

// PostgreSQL's sqlstates for bad logarithm and width_bucket arguments.
constexpr const char* kInvalidArgumentForLog = sqlstate::kInvalidArgumentForLogarithm;
constexpr const char* kInvalidArgumentForWidthBucket =
    sqlstate::kInvalidArgumentForWidthBucketFunction;

Status Overflow() {
  return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
}
Status Underflow() {
  return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
}

double D(const Value& v) { return v.AsDouble(); }

// A float8 result as PostgreSQL checks it: infinite from finite input overflows, zero from a
// non-zero result underflows (when the caller says the result cannot be exactly zero).
Result<Value> Checked(double r, double in, bool zero_is_underflow) {
  if (std::isinf(r) && !std::isinf(in)) return Overflow();
  if (r == 0.0 && zero_is_underflow && !std::isinf(in)) return Underflow();
  return Value::Double(r);
}

Result<Value> Exp(Args a, ExecContext*) {
  const double x = D(a[0]);
  if (std::isnan(x)) return Value::Double(x);
  return Checked(std::exp(x), x, !std::isinf(x));
}

Result<Value> LogOf(double x, double (*fn)(double)) {
  if (x == 0.0) return Status::Error(kInvalidArgumentForLog, "cannot take logarithm of zero");
  if (x < 0.0) {
    return Status::Error(kInvalidArgumentForLog, "cannot take logarithm of a negative number");
  }
  return Value::Double(fn(x));
}

Result<Value> Ln(Args a, ExecContext*) {
  return LogOf(D(a[0]), [](double x) { return std::log(x); });
}
Result<Value> Log10(Args a, ExecContext*) {
  return LogOf(D(a[0]), [](double x) { return std::log10(x); });
}
Result<Value> Cbrt(Args a, ExecContext*) { return Value::Double(std::cbrt(D(a[0]))); }
Result<Value> Pi(Args, ExecContext*) { return Value::Double(std::numbers::pi); }
Result<Value> Degrees(Args a, ExecContext*) {
  return Value::Double(D(a[0]) * (180.0 / std::numbers::pi));
}
Result<Value> Radians(Args a, ExecContext*) {
  return Value::Double(D(a[0]) * (std::numbers::pi / 180.0));
}

// sin, cos, ...: NaN in, NaN out; an argument outside the domain is 22003 as in PostgreSQL.
template <double (*Fn)(double), bool kUnitDomain>
Result<Value> Trig(Args a, ExecContext*) {
  const double x = D(a[0]);
  if (std::isnan(x)) return Value::Double(x);
  if ((kUnitDomain && (x < -1.0 || x > 1.0)) || (!kUnitDomain && std::isinf(x))) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "input is out of range");
  }
  return Value::Double(Fn(x));
}
double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }

Result<Value> AtanUnbounded(Args a, ExecContext*) { return Value::Double(std::atan(D(a[0]))); }
Result<Value> Atan2(Args a, ExecContext*) { return Value::Double(std::atan2(D(a[0]), D(a[1]))); }

// width_bucket(operand, low, high, count): 0 below the range, count + 1 at or above its end.
Result<Value> WidthBucket(Args a, ExecContext*) {
  const double x = D(a[0]), low = D(a[1]), high = D(a[2]);
  const int64_t count = a[3].AsInt();
  if (count <= 0) {
    return Status::Error(kInvalidArgumentForWidthBucket, "count must be greater than zero");
  }
  if (std::isnan(x) || std::isnan(low) || std::isnan(high)) {
    return Status::Error(kInvalidArgumentForWidthBucket,
                         "operand, lower bound, and upper bound cannot be NaN");
  }
  if (std::isinf(low) || std::isinf(high)) {
    return Status::Error(kInvalidArgumentForWidthBucket, "lower and upper bounds must be finite");
  }
  if (low == high) {
    return Status::Error(kInvalidArgumentForWidthBucket, "lower bound cannot equal upper bound");
  }
  int64_t bucket = 0;
  if (low < high) {
    if (x < low) {
      bucket = 0;
    } else if (x >= high) {
      bucket = count + 1;
    } else {
      bucket = static_cast<int64_t>((x - low) / (high - low) * static_cast<double>(count)) + 1;
    }
  } else {
    if (x > low) {
      bucket = 0;
    } else if (x <= high) {
      bucket = count + 1;
    } else {
      bucket = static_cast<int64_t>((low - x) / (low - high) * static_cast<double>(count)) + 1;
    }
  }
  if (bucket > INT32_MAX)
    return Status::Error(sqlstate::kNumericValueOutOfRange, "integer out of range");
  return Value::Int(bucket);
}

// gcd / lcm over integer or bigint (kMin..kMax the type's range, for the overflow checks).
template <int64_t kMin, int64_t kMax>
Status IntOverflow() {
  return Status::Error(sqlstate::kNumericValueOutOfRange,
                       kMax == INT32_MAX ? "integer out of range" : "bigint out of range");
}

template <int64_t kMin, int64_t kMax>
Result<int64_t> GcdOf(int64_t x, int64_t y) {
  // |kMin| does not fit: gcd(kMin, 0) and gcd(kMin, kMin) overflow, as in PostgreSQL.
  if ((x == kMin && (y == 0 || y == kMin)) || (y == kMin && x == 0)) {
    return IntOverflow<kMin, kMax>();
  }
  __int128 p = x < 0 ? -static_cast<__int128>(x) : x;
  __int128 q = y < 0 ? -static_cast<__int128>(y) : y;
  while (q != 0) {
    const __int128 r = p % q;
    p = q;
    q = r;
  }
  return static_cast<int64_t>(p);
}

template <int64_t kMin, int64_t kMax>
Result<Value> Gcd(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(int64_t g, (GcdOf<kMin, kMax>(a[0].AsInt(), a[1].AsInt())));
  return Value::Int(g);
}

template <int64_t kMin, int64_t kMax>
Result<Value> Lcm(Args a, ExecContext*) {
  const int64_t x = a[0].AsInt(), y = a[1].AsInt();
  if (x == 0 || y == 0) return Value::Int(0);
  MERIDIAN_ASSIGN_OR_RETURN(int64_t g, (GcdOf<kMin, kMax>(x, y)));
  __int128 l = static_cast<__int128>(x / g) * y;
  if (l < 0) l = -l;
  if (l > kMax) return IntOverflow<kMin, kMax>();
  return Value::Int(static_cast<int64_t>(l));
}

// div(a, b): the integer quotient of numerics, truncated toward zero.
Result<Value> Div(Args a, ExecContext*) {
  if (numeric::Sign(a[1].AsDecimal()) == 0) {
    return Status::Error(sqlstate::kDivisionByZero, "division by zero");
  }
  MERIDIAN_ASSIGN_OR_RETURN(Numeric q, numeric::Div(a[0].AsDecimal(), a[1].AsDecimal()));
  MERIDIAN_ASSIGN_OR_RETURN(Numeric t, numeric::Trunc(q, 0));
  return Value::Decimal(t);
}

// factorial(n): numeric; 22003 for a negative n and past what numeric holds.
Result<Value> Factorial(Args a, ExecContext*) {
  const int64_t n = a[0].AsInt();
  if (n < 0) {
    return Status::Error(sqlstate::kNumericValueOutOfRange,
                         "factorial of a negative number is undefined");
  }
  if (n > 32177)
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
  Numeric r = numeric::FromInt(1);
  for (int64_t i = 2; i <= n; ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(r, numeric::Mul(r, numeric::FromInt(i)));
  }
  return Value::Decimal(r);
}

// scale(numeric): its display scale; min_scale: the fewest digits after the point that keep
// its value; trim_scale: the value with that scale.
int MinScale(const Numeric& n) {
  int s = n.scale;
  __int128 m = n.mantissa;
  while (s > 0 && m % 10 == 0) {
    m /= 10;
    --s;
  }
  return s;
}
Result<Value> Scale(Args a, ExecContext*) { return Value::Int(a[0].AsDecimal().scale); }
Result<Value> MinScaleOf(Args a, ExecContext*) { return Value::Int(MinScale(a[0].AsDecimal())); }
Result<Value> TrimScale(Args a, ExecContext*) {
  const Numeric& n = a[0].AsDecimal();
  Numeric t = n;
  while (t.scale > MinScale(n)) {
    t.mantissa /= 10;
    --t.scale;
  }
  return Value::Decimal(t);
}

constexpr ScalarFunction kMathFunctions[] = {
    {"exp", "F", 1, 'F', &Exp},
    {"ln", "F", 1, 'F', &Ln},
    {"log", "F", 1, 'F', &Log10},
    {"log10", "F", 1, 'F', &Log10},
    {"cbrt", "F", 1, 'F', &Cbrt},
    {"pi", "", 0, 'F', &Pi},
    {"degrees", "F", 1, 'F', &Degrees},
    {"radians", "F", 1, 'F', &Radians},
    {"sin", "F", 1, 'F', &Trig<Sin, false>},
    {"cos", "F", 1, 'F', &Trig<Cos, false>},
    {"tan", "F", 1, 'F', &Trig<Tan, false>},
    {"asin", "F", 1, 'F', &Trig<Asin, true>},
    {"acos", "F", 1, 'F', &Trig<Acos, true>},
    {"atan", "F", 1, 'F', &AtanUnbounded},
    {"atan2", "FF", 2, 'F', &Atan2},
    {"width_bucket", "FFFi", 4, 'i', &WidthBucket},
    {"gcd", "ii", 2, 'i', &Gcd<INT32_MIN, INT32_MAX>},
    {"gcd", "ll", 2, 'l', &Gcd<INT64_MIN, INT64_MAX>},
    {"lcm", "ii", 2, 'i', &Lcm<INT32_MIN, INT32_MAX>},
    {"lcm", "ll", 2, 'l', &Lcm<INT64_MIN, INT64_MAX>},
    {"div", "nn", 2, 'N', &Div},
    {"factorial", "l", 1, 'N', &Factorial},
    {"scale", "n", 1, 'i', &Scale},
    {"min_scale", "n", 1, 'i', &MinScaleOf},
    {"trim_scale", "n", 1, 'N', &TrimScale},
};

}  // namespace

void RegisterMathFunctions() { RegisterScalarFunctions(kMathFunctions); }

}  // namespace meridian::exec
