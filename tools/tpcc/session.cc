// Rows accessors, decimal parsing and the driver switch of session.h.
#include "session.h"

#include <cstdlib>

namespace tpcc {

namespace {
const std::string kEmpty;
}  // namespace

const std::string& Rows::text(size_t r, size_t c) const {
  const Cell& cell = rows.at(r).at(c);
  return cell ? *cell : kEmpty;
}

int64_t Rows::Int(size_t r, size_t c) const {
  const Cell& cell = rows.at(r).at(c);
  return cell ? std::strtoll(cell->c_str(), nullptr, 10) : 0;
}

double Rows::Num(size_t r, size_t c) const {
  const Cell& cell = rows.at(r).at(c);
  return cell ? std::strtod(cell->c_str(), nullptr) : 0.0;
}

int64_t Rows::Cents(size_t r, size_t c) const {
  const Cell& cell = rows.at(r).at(c);
  return cell ? ParseCents(*cell) : 0;
}

int64_t ParseCents(std::string_view text) {
  bool negative = false;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int64_t whole = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) whole = whole * 10 + (text[i] - '0');
  int64_t frac = 0;
  int digits = 0;
  bool round_up = false;
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
      if (digits < 2) frac = frac * 10 + (text[i] - '0');
      else if (digits == 2) round_up = text[i] >= '5';
    }
  }
  if (digits == 1) frac *= 10;
  int64_t cents = whole * 100 + frac + (round_up ? 1 : 0);
  return negative ? -cents : cents;
}

std::string ConnectParams::Describe() const {
  if (driver == "pg" && !conninfo.empty()) return "pg \"" + conninfo + "\"";
  int p = port != 0 ? port : (driver == "pg" ? 5433 : 7432);
  return driver + " " + host + ":" + std::to_string(p);
}

std::unique_ptr<Session> Connect(const ConnectParams& params) {
  if (params.driver == "pg") return ConnectPg(params);
  return ConnectGrpc(params);
}

}  // namespace tpcc
