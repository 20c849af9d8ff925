// Time zones for TIMESTAMPTZ (see meridian/datetime.h): IANA zones read from the system's TZif
// files (/usr/share/zoneinfo, RFC 8536: the 64-bit data block and the POSIX TZ rule in the
// footer for instants after the last transition), POSIX TZ strings ('UTC+3', 'EST5EDT,M3.2.0,
// M11.1.0'), and the session's zone per thread. No setenv("TZ"): sessions on different
// threads use different zones at the same time.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "meridian/datetime.h"

namespace meridian::datetime {
namespace {

constexpr int64_t kUnixEpochSeconds = 10957LL * 86400;  // 1970-01-01 - 2000-01-01
constexpr const char* kZoneDir = "/usr/share/zoneinfo";

std::string Lower(std::string_view s) {
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

// A POSIX TZ rule: std offset, optional dst offset and its start/end dates.
struct PosixRule {
  struct When {
    char kind = 'M';  // 'J' (1..365, no Feb 29), 'D' (0..365), 'M' (month.week.day)
    int a = 0, b = 0, c = 0;
    int64_t secs = 7200;  // local time of day of the change
  };
  int64_t std_offset = 0;  // seconds east of UTC
  bool has_dst = false;
  int64_t dst_offset = 0;
  When start, end;
};

// Reads [+-]hh[:mm[:ss]] (POSIX: west positive); returns seconds as written.
bool PosixOffset(std::string_view s, size_t* p, int64_t* out) {
  int sign = 1;
  if (*p < s.size() && (s[*p] == '+' || s[*p] == '-')) sign = s[(*p)++] == '-' ? -1 : 1;
  int64_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    size_t start = *p;
    while (*p < s.size() && std::isdigit(static_cast<unsigned char>(s[*p]))) {
      parts[i] = parts[i] * 10 + (s[(*p)++] - '0');
    }
    if (*p == start) return false;
    if (i == 2 || *p >= s.size() || s[*p] != ':') break;
    ++*p;
  }
  *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
  return true;
}

bool PosixName(std::string_view s, size_t* p) {
  if (*p < s.size() && s[*p] == '<') {
    size_t close = s.find('>', *p);
    if (close == std::string_view::npos) return false;
    *p = close + 1;
    return true;
  }
  size_t start = *p;
  while (*p < s.size() && std::isalpha(static_cast<unsigned char>(s[*p]))) ++*p;
  return *p - start >= 3;
}

bool PosixWhen(std::string_view s, size_t* p, PosixRule::When* w) {
  auto num = [&](int* out) {
    size_t start = *p;
    *out = 0;
    while (*p < s.size() && std::isdigit(static_cast<unsigned char>(s[*p]))) {
      *out = *out * 10 + (s[(*p)++] - '0');
    }
    return *p > start;
  };
  if (*p < s.size() && s[*p] == 'M') {
    ++*p;
    w->kind = 'M';
    if (!num(&w->a) || *p >= s.size() || s[(*p)++] != '.' || !num(&w->b) || *p >= s.size() ||
        s[(*p)++] != '.' || !num(&w->c)) {
      return false;
    }
  } else if (*p < s.size() && s[*p] == 'J') {
    ++*p;
    w->kind = 'J';
    if (!num(&w->a)) return false;
  } else {
    w->kind = 'D';
    if (!num(&w->a)) return false;
  }
  if (*p < s.size() && s[*p] == '/') {
    ++*p;
    if (!PosixOffset(s, p, &w->secs)) return false;
  }
  return true;
}

bool ParsePosix(std::string_view s, PosixRule* r) {
  size_t p = 0;
  if (!PosixName(s, &p)) return false;
  int64_t off = 0;
  if (!PosixOffset(s, &p, &off)) return false;
  r->std_offset = -off;
  if (p == s.size()) return true;
  if (!PosixName(s, &p)) return false;
  r->has_dst = true;
  r->dst_offset = r->std_offset + 3600;
  if (p < s.size() && s[p] != ',') {
    if (!PosixOffset(s, &p, &off)) return false;
    r->dst_offset = -off;
  }
  if (p == s.size()) {  // no rule: POSIX's default (US rules)
    r->start = {'M', 3, 2, 0, 7200};
    r->end = {'M', 11, 1, 0, 7200};
    return true;
  }
  if (s[p++] != ',' || !PosixWhen(s, &p, &r->start) || p >= s.size() || s[p++] != ',' ||
      !PosixWhen(s, &p, &r->end)) {
    return false;
  }
  return p == s.size();
}

// Days since 2000-01-01 of the rule date w in year.
int64_t RuleDay(const PosixRule::When& w, int64_t year) {
  switch (w.kind) {
    case 'J': {
      int64_t d = DaysFromCivil(year, 1, 1) + w.a - 1;
      const bool leap = DaysInMonth(year, 2) == 29;
      if (leap && w.a >= 60) ++d;
      return d;
    }
    case 'D':
      return DaysFromCivil(year, 1, 1) + w.a;
    default: {
      const int64_t first = DaysFromCivil(year, w.a, 1);
      const int dow = static_cast<int>(((first + 6) % 7 + 7) % 7);  // 2000-01-01 was Saturday
      int64_t day = first + (w.c - dow + 7) % 7 + (w.b - 1) * 7;
      const int64_t month_end = first + DaysInMonth(year, w.a);
      while (day >= month_end) day -= 7;
      return day;
    }
  }
}

int64_t RuleOffset(const PosixRule& r, int64_t utc_secs) {
  if (!r.has_dst) return r.std_offset;
  int64_t year = 0;
  int m = 0, d = 0;
  CivilFromDays(FloorDiv(utc_secs + r.std_offset, 86400), &year, &m, &d);
  const int64_t start = RuleDay(r.start, year) * 86400 + r.start.secs - r.std_offset;
  const int64_t end = RuleDay(r.end, year) * 86400 + r.end.secs - r.dst_offset;
  const bool dst = start < end ? (utc_secs >= start && utc_secs < end)
                               : !(utc_secs >= end && utc_secs < start);
  return dst ? r.dst_offset : r.std_offset;
}

class FixedZone : public TimeZone {
 public:
  FixedZone(std::string name, PosixRule rule) : name_(std::move(name)), rule_(rule) {}
  const std::string& name() const override { return name_; }
  int64_t OffsetAtUtc(int64_t utc_micros) const override {
    return RuleOffset(rule_, FloorDiv(utc_micros, 1000000));
  }

 private:
  std::string name_;
  PosixRule rule_;
};

class TzifZone : public TimeZone {
 public:
  const std::string& name() const override { return name_; }
  int64_t OffsetAtUtc(int64_t utc_micros) const override {
    const int64_t secs = FloorDiv(utc_micros, 1000000);
    if (times_.empty() || secs < times_.front()) return initial_offset_;
    if (secs >= times_.back() && has_footer_) return RuleOffset(footer_, secs);
    const size_t i = static_cast<size_t>(std::upper_bound(times_.begin(), times_.end(), secs) -
                                         times_.begin()) - 1;
    return offsets_[i];
  }
  static std::shared_ptr<const TimeZone> Load(const std::string& name, const std::string& path);

 private:
  std::string name_;
  std::vector<int64_t> times_;    // transitions, seconds since 2000-01-01 UTC
  std::vector<int64_t> offsets_;  // offset from each transition on
  int64_t initial_offset_ = 0;
  bool has_footer_ = false;
  PosixRule footer_;
};

int64_t BigEndian(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  if (n == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
  return static_cast<int64_t>(v);
}

std::shared_ptr<const TimeZone> TzifZone::Load(const std::string& name, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string data = ss.str();
  const auto* b = reinterpret_cast<const unsigned char*>(data.data());
  const size_t n = data.size();
  auto header = [&](size_t at, int64_t counts[6]) {
    if (at + 44 > n || std::memcmp(b + at, "TZif", 4) != 0) return false;
    for (int i = 0; i < 6; ++i) counts[i] = BigEndian(b + at + 20 + 4 * i, 4);
    return true;
  };
  int64_t c[6];
  if (!header(0, c)) return nullptr;
  // c: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  size_t at = 44;
  int time_size = 4;
  if (b[4] >= '2') {  // skip the 32-bit block, read the 64-bit one
    at += static_cast<size_t>(c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]);
    if (!header(at, c)) return nullptr;
    at += 44;
    time_size = 8;
  }
  const size_t block = static_cast<size_t>(c[3] * (time_size + 1) + c[4] * 6 + c[5] +
                                           c[2] * (time_size + 4) + c[1] + c[0]);
  if (at + block > n || c[4] < 1) return nullptr;
  auto zone = std::make_shared<TzifZone>();
  zone->name_ = name;
  const unsigned char* times = b + at;
  const unsigned char* idx = times + c[3] * time_size;
  const unsigned char* types = idx + c[3];
  auto type_offset = [&](int64_t t) { return BigEndian(types + 6 * t, 4); };
  zone->initial_offset_ = type_offset(0);
  for (int64_t i = 0; i < c[3]; ++i) {
    const int64_t t = idx[i];
    if (t >= c[4]) return nullptr;
    zone->times_.push_back(BigEndian(times + i * time_size, time_size) - kUnixEpochSeconds);
    zone->offsets_.push_back(type_offset(t));
  }
  at += block;
  if (time_size == 8 && at < n && b[at] == '\n') {
    const size_t end = data.find('\n', at + 1);
    if (end != std::string::npos && end > at + 1) {
      zone->has_footer_ = ParsePosix(std::string_view(data).substr(at + 1, end - at - 1),
                                     &zone->footer_);
    }
  }
  if (zone->times_.empty() && zone->has_footer_) zone->initial_offset_ = zone->footer_.std_offset;
  return zone;
}

// The file under kZoneDir for name, matching each path component case-insensitively.
std::string ZonePath(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string_view::npos) return "";
  std::string path = kZoneDir;
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) slash = name.size();
    const std::string part(name.substr(start, slash - start));
    if (part.empty()) return "";
    DIR* dir = opendir(path.c_str());
    if (dir == nullptr) return "";
    std::string found;
    while (dirent* e = readdir(dir)) {
      if (e->d_name == part) {
        found = part;
        break;
      }
      if (found.empty() && Lower(e->d_name) == Lower(part)) found = e->d_name;
    }
    closedir(dir);
    if (found.empty()) return "";
    path += "/" + found;
    start = slash + 1;
  }
  return path;
}

std::mutex g_mu;
std::map<std::string, std::shared_ptr<const TimeZone>>& Cache() {
  static auto* cache = new std::map<std::string, std::shared_ptr<const TimeZone>>();
  return *cache;
}

thread_local const TimeZone* t_current = nullptr;

}  // namespace

const TimeZone& UtcZone() {
  static const auto* utc = new FixedZone("UTC", PosixRule{});
  return *utc;
}

std::shared_ptr<const TimeZone> FindTimeZone(std::string_view name) {
  const std::string l = Lower(name);
  if (l == "utc" || l == "gmt" || l == "z" || l == "etc/utc" || l == "zulu" ||
      l == "universal" || l == "etc/gmt" || l == "etc/universal") {
    return std::shared_ptr<const TimeZone>(&UtcZone(), [](const TimeZone*) {});
  }
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = Cache().find(std::string(name));
  if (it != Cache().end()) return it->second;
  std::shared_ptr<const TimeZone> zone;
  const std::string path = ZonePath(name);
  if (!path.empty()) {
    // The name as the file is spelled (SHOW TimeZone shows 'Europe/Berlin' for europe/berlin).
    zone = TzifZone::Load(path.substr(std::strlen(kZoneDir) + 1), path);
  }
  if (zone == nullptr) {
    PosixRule rule;
    std::string posix(name);
    // A bare offset ('+02', '-5') is POSIX too: hours west of UTC, as PostgreSQL reads it.
    if (!posix.empty() && (posix[0] == '+' || posix[0] == '-' ||
                           std::isdigit(static_cast<unsigned char>(posix[0])))) {
      posix = "<x>" + posix;
    }
    if (ParsePosix(posix, &rule)) zone = std::make_shared<FixedZone>(std::string(name), rule);
  }
  if (zone != nullptr) Cache().emplace(std::string(name), zone);
  return zone;
}

const TimeZone& CurrentZone() { return t_current != nullptr ? *t_current : UtcZone(); }

ScopedTimeZone::ScopedTimeZone(std::shared_ptr<const TimeZone> zone)
    : zone_(std::move(zone)), previous_(t_current) {
  if (zone_ != nullptr) t_current = zone_.get();
}

ScopedTimeZone::~ScopedTimeZone() { t_current = previous_; }

int64_t OffsetForLocal(const TimeZone& zone, int64_t local_micros) {
  constexpr int64_t kDay = 86400LL * 1000000;
  const int64_t before = zone.OffsetAtUtc(local_micros - kDay);
  const int64_t after = zone.OffsetAtUtc(local_micros + kDay);
  if (before == after) {
    const int64_t at = zone.OffsetAtUtc(local_micros - before * 1000000);
    return at;
  }
  const int64_t before_time = local_micros - before * 1000000;
  const int64_t after_time = local_micros - after * 1000000;
  const bool before_valid = zone.OffsetAtUtc(before_time) == before;
  const bool after_valid = zone.OffsetAtUtc(after_time) == after;
  if (before_valid && !after_valid) return before;
  if (after_valid && !before_valid) return after;
  // A skipped local time (spring forward) reads with the offset before the change, a repeated
  // one (fall back) with the offset after it, as PostgreSQL's DetermineTimeZoneOffset.
  return before_time > after_time ? before : after;
}

}  // namespace meridian::datetime
