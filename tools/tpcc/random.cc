// TPC-C random inputs: see random.h.
#include "random.h"

namespace tpcc {

namespace {
const char* const kSyllables[] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                  "ESE", "ANTI",  "CALLY", "ATION", "EING"};
const char kAlnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
}  // namespace

NURandConstants LoadConstants(uint64_t seed) {
  std::mt19937_64 rng(seed);
  NURandConstants c;
  c.c_last = kLoadCLast;
  c.c_id = static_cast<int>(rng() % 1024);
  c.ol_i_id = static_cast<int>(rng() % 8192);
  return c;
}

NURandConstants RunConstants(uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  NURandConstants c;
  int delta;
  do {
    delta = 65 + static_cast<int>(rng() % 55);
  } while (delta == 96 || delta == 112);
  c.c_last = (kLoadCLast + delta) % 256;
  c.c_id = static_cast<int>(rng() % 1024);
  c.ol_i_id = static_cast<int>(rng() % 8192);
  return c;
}

int64_t Random::NURand(int a, int x, int y) {
  int c = a == 255 ? c_.c_last : a == 1023 ? c_.c_id : c_.ol_i_id;
  return (((Uniform(0, a) | Uniform(x, y)) + c) % (y - x + 1)) + x;
}

std::string Random::CustomerLastName() {
  return LastName(static_cast<int>(NURand(255, 0, 999)));
}

std::string Random::AString(int lo, int hi) {
  int n = static_cast<int>(Uniform(lo, hi));
  std::string s(n, ' ');
  for (char& ch : s) ch = kAlnum[Uniform(0, sizeof(kAlnum) - 2)];
  return s;
}

std::string Random::NString(int lo, int hi) {
  int n = static_cast<int>(Uniform(lo, hi));
  std::string s(n, ' ');
  for (char& ch : s) ch = static_cast<char>('0' + Uniform(0, 9));
  return s;
}

std::string Random::Data(int lo, int hi) {
  std::string s = AString(lo, hi);
  if (Uniform(1, 10) == 1) {
    size_t at = static_cast<size_t>(Uniform(0, static_cast<int64_t>(s.size()) - 8));
    s.replace(at, 8, "ORIGINAL");
  }
  return s;
}

std::string Random::State() {
  std::string s(2, ' ');
  for (char& ch : s) ch = static_cast<char>('A' + Uniform(0, 25));
  return s;
}

std::string Random::Decimal(int64_t lo, int64_t hi, int scale) {
  int64_t v = Uniform(lo, hi);
  bool negative = v < 0;
  if (negative) v = -v;
  std::string digits = std::to_string(v);
  if (scale > 0) {
    if (static_cast<int>(digits.size()) <= scale)
      digits.insert(0, static_cast<size_t>(scale + 1 - static_cast<int>(digits.size())), '0');
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  return negative ? "-" + digits : digits;
}

std::string LastName(int number) {
  return std::string(kSyllables[number / 100]) + kSyllables[(number / 10) % 10] +
         kSyllables[number % 10];
}

}  // namespace tpcc
