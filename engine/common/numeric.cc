// Exact decimal arithmetic on Numeric (see meridian/numeric.h). Intermediate results are
// unsigned 256-bit magnitudes plus a sign, so products and aligned operands of two 38-digit
// values are exact; Make() then rounds them back to at most 38 digits and scale 38.
#include "meridian/numeric.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace meridian::numeric {
namespace {

using u128 = unsigned __int128;

// An unsigned 256-bit integer: hi * 2^128 + lo.
struct U256 {
  u128 hi = 0;
  u128 lo = 0;
};

bool Less(const U256& a, const U256& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }
bool IsZero(const U256& a) { return a.hi == 0 && a.lo == 0; }

U256 AddU(const U256& a, const U256& b) {
  U256 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo ? 1 : 0);
  return r;
}

// a - b, a >= b.
U256 SubU(const U256& a, const U256& b) {
  U256 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1 : 0);
  return r;
}

U256 Mul128(u128 a, u128 b) {
  const uint64_t a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
  const uint64_t b0 = static_cast<uint64_t>(b), b1 = static_cast<uint64_t>(b >> 64);
  const u128 p00 = static_cast<u128>(a0) * b0, p01 = static_cast<u128>(a0) * b1;
  const u128 p10 = static_cast<u128>(a1) * b0, p11 = static_cast<u128>(a1) * b1;
  const u128 mid = (p00 >> 64) + static_cast<uint64_t>(p01) + static_cast<uint64_t>(p10);
  U256 r;
  r.lo = (mid << 64) | static_cast<uint64_t>(p00);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}

// a * m for a small multiplier; the caller keeps the product below 2^256.
U256 MulSmall(const U256& a, u128 m) {
  U256 lo = Mul128(a.lo, m);
  lo.hi += a.hi * m;
  return lo;
}

bool Bit(const U256& a, int i) {
  return i >= 128 ? ((a.hi >> (i - 128)) & 1) != 0 : ((a.lo >> i) & 1) != 0;
}

// n / d and n % d by shift and subtract; d > 0 and d < 2^255.
U256 DivMod(const U256& n, const U256& d, U256* rem) {
  U256 q, r;
  for (int i = 255; i >= 0; --i) {
    r.hi = (r.hi << 1) | (r.lo >> 127);
    r.lo = (r.lo << 1) | (Bit(n, i) ? 1 : 0);
    if (!Less(r, d)) {
      r = SubU(r, d);
      if (i >= 128) {
        q.hi |= static_cast<u128>(1) << (i - 128);
      } else {
        q.lo |= static_cast<u128>(1) << i;
      }
    }
  }
  *rem = r;
  return q;
}

// Division by a value below 2^64 (digit extraction): faster than DivMod.
U256 DivSmall(const U256& n, uint64_t d, uint64_t* rem) {
  U256 q;
  u128 r = 0;
  for (int half = 3; half >= 0; --half) {
    const u128 word = half >= 2 ? n.hi : n.lo;
    const uint64_t part = static_cast<uint64_t>(word >> (half % 2 == 1 ? 64 : 0));
    const u128 cur = (r << 64) | part;
    const u128 qd = cur / d;
    r = cur % d;
    u128& target = half >= 2 ? q.hi : q.lo;
    target |= qd << (half % 2 == 1 ? 64 : 0);
  }
  *rem = static_cast<uint64_t>(r);
  return q;
}

u128 Pow10(int k) {
  u128 p = 1;
  for (int i = 0; i < k; ++i) p *= 10;
  return p;
}

const u128 kLimit = Pow10(kNumericMaxDigits);  // |mantissa| < 10^38

U256 From(u128 v) { return U256{0, v}; }

// a * 10^k (k <= 76 and the product below 2^256: callers align values of at most 38 digits).
U256 Scale(U256 a, int k) {
  while (k > 0) {
    const int step = std::min(k, 19);
    a = MulSmall(a, Pow10(step));
    k -= step;
  }
  return a;
}

u128 Magnitude(const Numeric& n) {
  return n.mantissa < 0 ? static_cast<u128>(-n.mantissa) : static_cast<u128>(n.mantissa);
}

Status Overflow() {
  return Status::Error(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
}

Status DivisionByZero() { return Status::Error(sqlstate::kDivisionByZero, "division by zero"); }

// Drops the last k digits of mag, rounding half away from zero (round) or truncating.
U256 DropDigits(U256 mag, int k, bool round) {
  if (k <= 0) return mag;
  uint64_t r = 0;
  int left = k - 1;
  while (left > 0) {
    const int step = std::min(left, 19);
    mag = DivSmall(mag, static_cast<uint64_t>(Pow10(step)), &r);
    left -= step;
  }
  mag = DivSmall(mag, 10, &r);
  if (round && r >= 5) mag = AddU(mag, From(1));
  return mag;
}

// The Numeric of sign * mag / 10^scale, rounded to at most 38 digits and scale 38.
Result<Numeric> Make(bool negative, U256 mag, int scale) {
  if (scale > kNumericMaxScale) {
    mag = DropDigits(mag, scale - kNumericMaxScale, true);
    scale = kNumericMaxScale;
  }
  while (mag.hi != 0 || mag.lo >= kLimit) {
    if (scale == 0) return Overflow();
    mag = DropDigits(mag, 1, true);
    --scale;
  }
  Numeric n;
  n.mantissa = static_cast<__int128>(mag.lo);
  if (negative) n.mantissa = -n.mantissa;
  n.scale = scale;
  return n;
}

// Signed 256-bit sum of two signed magnitudes.
void AddSigned(bool an, const U256& a, bool bn, const U256& b, bool* rn, U256* r) {
  if (an == bn) {
    *r = AddU(a, b);
    *rn = an;
  } else if (Less(a, b)) {
    *r = SubU(b, a);
    *rn = bn;
  } else {
    *r = SubU(a, b);
    *rn = an;
  }
  if (IsZero(*r)) *rn = false;
}

int DigitCount(u128 v) {
  int n = 1;
  while (v > UINT64_MAX) {  // 128-bit division is a library call: leave it soon
    v /= 10;
    ++n;
  }
  for (auto w = static_cast<uint64_t>(v); w >= 10; w /= 10) ++n;
  return n;
}

Status InvalidInput(std::string_view text) {
  return Status::Error(sqlstate::kInvalidTextRepresentation,
                       "invalid input syntax for type numeric: \"" + std::string(text) + "\"");
}

// PostgreSQL's NUMERIC_MIN_SIG_DIGITS and the base-10000 digit groups select_div_scale uses.
constexpr int kMinSigDigits = 16;

// weight (index of the first non-zero base-10000 group, 0 = units) and that group's value.
void GroupWeight(const Numeric& n, int* weight, int* first) {
  *weight = 0;
  *first = 0;
  if (n.mantissa == 0) return;
  const std::string d = Digits(n);
  const int e = static_cast<int>(d.size()) - n.scale;  // value = 0.d * 10^e
  const int p = e - 1;                                 // exponent of the first digit
  *weight = p >= 0 ? p / 4 : -((-p + 3) / 4);
  const int k = e - 4 * *weight;  // digits of the first group taken from d (1..4)
  int v = 0;
  for (int i = 0; i < k; ++i) v = v * 10 + (i < static_cast<int>(d.size()) ? d[i] - '0' : 0);
  *first = v;
}

}  // namespace

std::string Digits(const Numeric& n) {
  // Blocks of 19 digits by one 128-bit division each, then 64-bit arithmetic: a digit at a
  // time in 128 bits costs a library call per digit (most of a numeric GROUP BY key's cost).
  constexpr uint64_t k1e19 = 10000000000000000000ULL;
  u128 v = Magnitude(n);
  char buf[48];
  size_t pos = sizeof(buf);
  while (v > UINT64_MAX) {
    auto low = static_cast<uint64_t>(v % k1e19);
    v /= k1e19;
    for (int i = 0; i < 19; ++i, low /= 10) buf[--pos] = static_cast<char>('0' + low % 10);
  }
  auto w = static_cast<uint64_t>(v);
  do {
    buf[--pos] = static_cast<char>('0' + w % 10);
    w /= 10;
  } while (w != 0);
  return std::string(buf + pos, sizeof(buf) - pos);
}

Numeric FromInt(int64_t v) { return Numeric{static_cast<__int128>(v), 0}; }

Result<Numeric> Parse(std::string_view text) {
  size_t i = 0, end = text.size();
  while (i < end && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  while (end > i && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  std::string_view s = text.substr(i, end - i);
  std::string lower;
  for (char c : s) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "nan" || lower == "infinity" || lower == "+infinity" || lower == "-infinity" ||
      lower == "inf" || lower == "+inf" || lower == "-inf") {
    return Status::NotSupported("numeric NaN and Infinity are not supported");
  }
  size_t p = 0;
  bool negative = false;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) negative = s[p++] == '-';
  U256 mag;
  int digits = 0, frac = 0;
  bool any = false, point = false;
  for (; p < s.size(); ++p) {
    const char c = s[p];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any = true;
    if (point) ++frac;
    if (digits > 0 || c != '0') ++digits;
    if (digits > 2 * kNumericMaxDigits) return Overflow();
    mag = AddU(MulSmall(mag, 10), From(static_cast<u128>(c - '0')));
  }
  if (!any) return InvalidInput(text);
  int64_t exponent = 0;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    bool eneg = false;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) eneg = s[p++] == '-';
    if (p >= s.size() || s[p] < '0' || s[p] > '9') return InvalidInput(text);
    for (; p < s.size() && s[p] >= '0' && s[p] <= '9'; ++p) {
      exponent = exponent * 10 + (s[p] - '0');
      if (exponent > 1000) return InvalidInput(text);  // PostgreSQL's NUMERIC_MAX_DISPLAY_SCALE
    }
    if (eneg) exponent = -exponent;
  }
  if (p != s.size()) return InvalidInput(text);
  int64_t scale = frac - exponent;
  if (scale < 0) {
    if (digits - scale > 2 * kNumericMaxDigits) return Overflow();
    mag = Scale(mag, static_cast<int>(-scale));
    scale = 0;
  }
  if (scale > 2 * kNumericMaxDigits + kNumericMaxScale) return Numeric{0, kNumericMaxScale};
  return Make(negative && !IsZero(mag), mag, static_cast<int>(scale));
}

Result<Numeric> FromDouble(double d) {
  if (d != d || d - d != 0) {
    return Status::NotSupported("numeric NaN and Infinity are not supported");
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.15g", d);  // PostgreSQL: DBL_DIG significant digits
  return Parse(buf);
}

std::string ToString(const Numeric& n) {
  std::string d = Digits(n);
  if (static_cast<int>(d.size()) <= n.scale) {
    d.insert(0, static_cast<size_t>(n.scale) + 1 - d.size(), '0');
  }
  if (n.scale > 0) d.insert(d.size() - static_cast<size_t>(n.scale), ".");
  if (n.mantissa < 0) d.insert(0, "-");
  return d;
}

double ToDouble(const Numeric& n) { return std::strtod(ToString(n).c_str(), nullptr); }

Result<int64_t> ToInt(const Numeric& n, int64_t lo, int64_t hi, const std::string& type_name) {
  U256 mag = DropDigits(From(Magnitude(n)), n.scale, true);
  const __int128 v = n.mantissa < 0 ? -static_cast<__int128>(mag.lo) : mag.lo;
  if (mag.hi != 0 || v < lo || v > hi) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, type_name + " out of range");
  }
  return static_cast<int64_t>(v);
}

int Compare(const Numeric& a, const Numeric& b) {
  const int sa = Sign(a), sb = Sign(b);
  if (sa != sb) return sa < sb ? -1 : 1;
  const int s = std::max(a.scale, b.scale);
  const U256 x = Scale(From(Magnitude(a)), s - a.scale);
  const U256 y = Scale(From(Magnitude(b)), s - b.scale);
  const int c = Less(x, y) ? -1 : (Less(y, x) ? 1 : 0);
  return sa < 0 ? -c : c;
}

Result<Numeric> Add(const Numeric& a, const Numeric& b) {
  const int s = std::max(a.scale, b.scale);
  bool rn = false;
  U256 r;
  AddSigned(a.mantissa < 0, Scale(From(Magnitude(a)), s - a.scale), b.mantissa < 0,
            Scale(From(Magnitude(b)), s - b.scale), &rn, &r);
  return Make(rn, r, s);
}

Result<Numeric> Sub(const Numeric& a, const Numeric& b) { return Add(a, Negate(b)); }

Result<Numeric> Mul(const Numeric& a, const Numeric& b) {
  const U256 r = Mul128(Magnitude(a), Magnitude(b));
  return Make(!IsZero(r) && ((a.mantissa < 0) != (b.mantissa < 0)), r, a.scale + b.scale);
}

Result<Numeric> Sqrt(const Numeric& a, int rscale) {
  if (a.mantissa < 0) {
    return Status::Error(sqlstate::kInvalidArgumentForPowerFunction,
                         "cannot take square root of a negative number");
  }
  rscale = std::clamp(rscale, 0, kNumericMaxScale);
  // sqrt(m / 10^s) * 10^rscale = sqrt(m * 10^(2 rscale - s)), rounded half up.
  const int k = 2 * rscale - a.scale;
  U256 x = From(Magnitude(a));
  if (k >= 0) {
    x = Scale(x, k);
  } else {
    x = DropDigits(x, -k, false);
  }
  if (IsZero(x)) return Numeric{0, rscale};
  // Newton's iteration from above: r = floor(sqrt(x)).
  int bits = 255;
  while (!Bit(x, bits)) --bits;
  U256 r;
  const int half = bits / 2 + 1;
  if (half >= 128) {
    r.hi = u128{1} << (half - 128);
  } else {
    r.lo = u128{1} << half;
  }
  while (true) {
    U256 rem;
    U256 next = AddU(r, DivMod(x, r, &rem));
    uint64_t unused = 0;
    next = DivSmall(next, 2, &unused);
    if (!Less(next, r)) break;
    r = next;
  }
  // Round: up when x > r^2 + r, i.e. x >= (r + 1/2)^2.
  const U256 square = Mul128(r.lo, r.lo);
  if (Less(AddU(square, r), x)) r = AddU(r, From(1));
  return Make(false, r, rscale);
}

Result<Numeric> Div(const Numeric& a, const Numeric& b) {
  if (b.mantissa == 0) return DivisionByZero();
  int w1 = 0, f1 = 0, w2 = 0, f2 = 0;
  GroupWeight(a, &w1, &f1);
  GroupWeight(b, &w2, &f2);
  int qweight = w1 - w2;
  if (f1 <= f2) --qweight;
  int rscale = kMinSigDigits - qweight * 4;
  rscale = std::max({rscale, a.scale, b.scale, 0});
  rscale = std::min(rscale, kNumericMaxScale);
  if (a.mantissa == 0) return Numeric{0, rscale};
  // Integer digits of the quotient, at most: keep the whole result within 38 digits.
  const int qdigits =
      (DigitCount(Magnitude(a)) - a.scale) - (DigitCount(Magnitude(b)) - b.scale) + 1;
  if (qdigits > kNumericMaxDigits) return Overflow();
  rscale = std::min(rscale, kNumericMaxDigits - std::max(qdigits, 0));
  rscale = std::max({rscale, 0});
  const int e = rscale + b.scale - a.scale;
  U256 num = From(Magnitude(a));
  U256 den = From(Magnitude(b));
  if (e >= 0) {
    num = Scale(num, e);
  } else {
    den = Scale(den, -e);
  }
  U256 rem;
  U256 q = DivMod(num, den, &rem);
  // Half away from zero: round up when 2 * rem >= den.
  if (!Less(AddU(rem, rem), den)) q = AddU(q, From(1));
  return Make(!IsZero(q) && ((a.mantissa < 0) != (b.mantissa < 0)), q, rscale);
}

Result<Numeric> Mod(const Numeric& a, const Numeric& b) {
  if (b.mantissa == 0) return DivisionByZero();
  const int s = std::max(a.scale, b.scale);
  U256 rem;
  DivMod(Scale(From(Magnitude(a)), s - a.scale), Scale(From(Magnitude(b)), s - b.scale), &rem);
  return Make(a.mantissa < 0 && !IsZero(rem), rem, s);
}

Numeric Negate(const Numeric& a) { return Numeric{-a.mantissa, a.scale}; }
Numeric Abs(const Numeric& a) {
  return Numeric{a.mantissa < 0 ? -a.mantissa : a.mantissa, a.scale};
}
int Sign(const Numeric& a) { return a.mantissa < 0 ? -1 : (a.mantissa > 0 ? 1 : 0); }

namespace {

Result<Numeric> RoundOrTrunc(const Numeric& a, int64_t digits, bool round) {
  digits = std::clamp<int64_t>(digits, -2 * kNumericMaxDigits, kNumericMaxScale);
  const int d = static_cast<int>(digits);
  const bool negative = a.mantissa < 0;
  U256 mag = From(Magnitude(a));
  if (d >= a.scale) return Make(negative, Scale(mag, d - a.scale), d);
  mag = DropDigits(mag, a.scale - d, round);
  if (d < 0) {
    if (IsZero(mag)) return Numeric{0, 0};
    if (DigitCount(mag.lo) - d > kNumericMaxDigits || mag.hi != 0) return Overflow();
    mag = Scale(mag, -d);
  }
  return Make(negative && !IsZero(mag), mag, std::max(d, 0));
}

}  // namespace

Result<Numeric> Round(const Numeric& a, int64_t digits) { return RoundOrTrunc(a, digits, true); }
Result<Numeric> Trunc(const Numeric& a, int64_t digits) { return RoundOrTrunc(a, digits, false); }

Result<Numeric> Floor(const Numeric& a) {
  MERIDIAN_ASSIGN_OR_RETURN(Numeric t, Trunc(a, 0));
  if (a.mantissa < 0 && Compare(t, a) != 0) return Sub(t, FromInt(1));
  return t;
}

Result<Numeric> Ceil(const Numeric& a) {
  MERIDIAN_ASSIGN_OR_RETURN(Numeric t, Trunc(a, 0));
  if (a.mantissa > 0 && Compare(t, a) != 0) return Add(t, FromInt(1));
  return t;
}

Result<Numeric> ApplyTypmod(const Numeric& a, int32_t typmod) {
  if (typmod < 0) return a;
  const int precision = TypmodPrecision(typmod), scale = TypmodScale(typmod);
  MERIDIAN_ASSIGN_OR_RETURN(Numeric r, Round(a, scale));
  if (r.mantissa != 0 && DigitCount(Magnitude(r)) - r.scale > precision - scale) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "numeric field overflow")
        .WithDetail("A field with precision " + std::to_string(precision) + ", scale " +
                    std::to_string(scale) + " must round to an absolute value less than " +
                    (precision == scale ? "1" : "10^" + std::to_string(precision - scale)) + ".");
  }
  return r;
}

}  // namespace meridian::numeric
