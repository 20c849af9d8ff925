// NUMERIC / DECIMAL values: exact decimals held as a 128-bit integer mantissa and a decimal
// scale (value = mantissa / 10^scale), with PostgreSQL 15's arithmetic, rounding (half away
// from zero), division scale (select_div_scale) and text forms. At most 38 significant digits
// and a scale of at most 38: a result beyond that is 22003 "value overflows numeric format"
// (PostgreSQL allows 131072 digits before the point and 16383 after). No NaN or Infinity.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "meridian/status.h"

namespace meridian {

inline constexpr int kNumericMaxDigits = 38;
inline constexpr int kNumericMaxScale = 38;

struct Numeric {
  __int128 mantissa = 0;  // |mantissa| < 10^38
  int32_t scale = 0;      // 0..kNumericMaxScale; the display scale (PostgreSQL's dscale)

  // Structural equality (1.0 and 1.00 differ); SQL equality is Compare() == 0.
  friend bool operator==(const Numeric&, const Numeric&) = default;
};

namespace numeric {

Numeric FromInt(int64_t v);
// PostgreSQL's float8 → numeric: the value's 15-significant-digit decimal form.
// 22P02-free; 0A000 for NaN/Infinity, 22003 when it does not fit.
Result<Numeric> FromDouble(double d);
// numeric_in: [+-]digits[.digits][e[+-]digits], blanks around; 22P02 on bad input.
Result<Numeric> Parse(std::string_view text);
// numeric_out: "-12.50" (display scale digits after the point).
std::string ToString(const Numeric& n);
double ToDouble(const Numeric& n);
// Rounded half away from zero; 22003 "<type_name> out of range" outside [lo, hi].
Result<int64_t> ToInt(const Numeric& n, int64_t lo, int64_t hi, const std::string& type_name);

int Compare(const Numeric& a, const Numeric& b);
Result<Numeric> Add(const Numeric& a, const Numeric& b);
Result<Numeric> Sub(const Numeric& a, const Numeric& b);
Result<Numeric> Mul(const Numeric& a, const Numeric& b);
// Scale as PostgreSQL's select_div_scale (at least 16 significant digits), rounded; 22012.
Result<Numeric> Div(const Numeric& a, const Numeric& b);
// Square root rounded (half up) to rscale digits after the point (PostgreSQL's sqrt_var);
// 2201F for a negative a.
Result<Numeric> Sqrt(const Numeric& a, int rscale);
// Truncated division's remainder, sign of a, scale max(a, b); 22012.
Result<Numeric> Mod(const Numeric& a, const Numeric& b);
Numeric Negate(const Numeric& a);
Numeric Abs(const Numeric& a);
int Sign(const Numeric& a);

// round(x, digits) / trunc(x, digits): digits may be negative; result scale max(digits, 0).
Result<Numeric> Round(const Numeric& a, int64_t digits);
Result<Numeric> Trunc(const Numeric& a, int64_t digits);
Result<Numeric> Floor(const Numeric& a);
Result<Numeric> Ceil(const Numeric& a);

// Typmod (precision p, scale s) as PostgreSQL encodes it minus VARHDRSZ: (p << 16) | s.
inline int32_t MakeTypmod(int32_t precision, int32_t scale) { return (precision << 16) | scale; }
inline int32_t TypmodPrecision(int32_t typmod) { return (typmod >> 16) & 0xFFFF; }
inline int32_t TypmodScale(int32_t typmod) { return typmod & 0xFFFF; }
// Applies NUMERIC(p,s): rounds to s digits, then 22003 "numeric field overflow" when the
// integer part has more than p - s digits. typmod < 0: unconstrained (value unchanged).
Result<Numeric> ApplyTypmod(const Numeric& a, int32_t typmod);

// The decimal digits of |n| without leading zeros ("0" for zero).
std::string Digits(const Numeric& n);

}  // namespace numeric
}  // namespace meridian
