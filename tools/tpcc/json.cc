// JSON helpers (json.h): a recursive-descent reader that keeps only numbers.
#include "json.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace tpcc {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

namespace {

class Reader {
 public:
  Reader(const std::string& text, std::map<std::string, double>* out) : t_(text), out_(out) {}
  bool Document() {
    if (!Value("")) return false;
    Skip();
    return i_ == t_.size();
  }

 private:
  void Skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  static std::string Join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  bool String(std::string* s) {
    if (i_ >= t_.size() || t_[i_] != '"') return false;
    for (++i_; i_ < t_.size() && t_[i_] != '"'; ++i_) {
      if (t_[i_] == '\\' && ++i_ >= t_.size()) return false;
      s->push_back(t_[i_]);
    }
    if (i_ >= t_.size()) return false;
    ++i_;
    return true;
  }
  bool Value(const std::string& path) {
    Skip();
    if (i_ >= t_.size()) return false;
    char c = t_[i_];
    if (c == '{') {
      ++i_;
      Skip();
      if (i_ < t_.size() && t_[i_] == '}') return ++i_, true;
      while (true) {
        Skip();
        std::string key;
        if (!String(&key)) return false;
        Skip();
        if (i_ >= t_.size() || t_[i_++] != ':') return false;
        if (!Value(Join(path, key))) return false;
        Skip();
        if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
        if (i_ < t_.size() && t_[i_] == '}') return ++i_, true;
        return false;
      }
    }
    if (c == '[') {
      ++i_;
      Skip();
      if (i_ < t_.size() && t_[i_] == ']') return ++i_, true;
      for (int n = 0;; ++n) {
        if (!Value(Join(path, std::to_string(n)))) return false;
        Skip();
        if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
        if (i_ < t_.size() && t_[i_] == ']') return ++i_, true;
        return false;
      }
    }
    if (c == '"') {
      std::string ignored;
      return String(&ignored);
    }
    for (const char* word : {"true", "false", "null"}) {
      std::string w(word);
      if (t_.compare(i_, w.size(), w) == 0) {
        i_ += w.size();
        if (w != "null") (*out_)[path] = w == "true" ? 1 : 0;
        return true;
      }
    }
    const char* begin = t_.c_str() + i_;
    char* end = nullptr;
    double v = std::strtod(begin, &end);
    if (end == begin) return false;
    i_ += static_cast<size_t>(end - begin);
    (*out_)[path] = v;
    return true;
  }

  const std::string& t_;
  std::map<std::string, double>* out_;
  size_t i_ = 0;
};

}  // namespace

bool FlattenJsonNumbers(const std::string& text, std::map<std::string, double>* out) {
  return Reader(text, out).Document();
}

}  // namespace tpcc
