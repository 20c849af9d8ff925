// TPC-C's random inputs (clause 2.1.6 and 4.3.2): uniform numbers, NURand with the C constants,
// a-strings, n-strings, data strings with 10% "ORIGINAL", zip codes and the last-name syllables.
// Each thread owns its Random (not thread-safe).
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace tpcc {

// The C constants of NURand (clause 2.1.6). Loading uses kLoadCLast; a run takes a C_LAST whose
// distance from it lies in [65, 119] and is neither 96 nor 112 (clause 2.1.6.1).
struct NURandConstants {
  int c_last = 0;   // A = 255
  int c_id = 0;     // A = 1023
  int ol_i_id = 0;  // A = 8191
};
inline constexpr int kLoadCLast = 157;
NURandConstants LoadConstants(uint64_t seed);
NURandConstants RunConstants(uint64_t seed);

class Random {
 public:
  Random(uint64_t seed, NURandConstants c) : rng_(seed), c_(c) {}

  int64_t Uniform(int64_t lo, int64_t hi) {  // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  double Real() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  int64_t NURand(int a, int x, int y);
  int CustomerId() { return static_cast<int>(NURand(1023, 1, 3000)); }
  int ItemId() { return static_cast<int>(NURand(8191, 1, 100000)); }
  // A run-time last name: syllables of NURand(255, 0, 999).
  std::string CustomerLastName();

  std::string AString(int lo, int hi);  // random letters and digits, length in [lo, hi]
  std::string NString(int lo, int hi);  // random digits
  std::string Data(int lo, int hi);     // an a-string, 10% of them holding "ORIGINAL"
  std::string Zip() { return NString(4, 4) + "11111"; }
  std::string State();                  // two letters
  // A decimal with `scale` digits after the point, uniform over [lo, hi] in those units.
  std::string Decimal(int64_t lo, int64_t hi, int scale);

  std::mt19937_64& engine() { return rng_; }

 private:
  std::mt19937_64 rng_;
  NURandConstants c_;
};

// The last name of clause 4.3.2.3 for a number in [0, 999] ("BARBARBAR" for 0).
std::string LastName(int number);

}  // namespace tpcc
