// Registered string functions (binder/function_registry.h): md5, concat_ws, format,
// regexp_replace, regexp_match, regexp_split_to_array, ascii, chr, starts_with, quote_literal,
// quote_nullable, to_hex, octet_length, bit_length — PostgreSQL 15's results and errors.
#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "binder/function_registry.h"
#include "catalog/system_tables.h"
#include "execution/operator.h"
#include "execution/pattern_match.h"
#include "function/builtin.h"
#include "meridian/parser/utf8.h"

namespace meridian::exec {

namespace {

using Args = std::span<const Value>;

const ExecControl* Ctl(ExecContext* exec) { return exec == nullptr ? nullptr : exec->ctl; }

Status InvalidParameter(const std::string& message) {
  return Status::Error(sqlstate::kInvalidParameterValue, message);
}

size_t NextChar(std::string_view s, size_t i) {
  ++i;
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}

Result<Value> Md5(Args a, ExecContext*) {
  const std::string& s = a[0].AsString();
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(s.data(), s.size(), digest, &len, EVP_md5(), nullptr) != 1) {
    return Status::Internal("could not compute MD5 hash");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return Value::String(std::move(out));
}

// concat_ws(sep, VARIADIC "any"): NULL arguments are skipped; a NULL separator gives NULL.
Result<Value> ConcatWs(Args a, ExecContext*) {
  if (a[0].IsNull()) return Value::Null();
  const std::string sep = a[0].ToString();
  std::string out;
  bool first = true;
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i].IsNull()) continue;
    if (!first) out += sep;
    out += a[i].ToString();
    first = false;
  }
  return Value::String(std::move(out));
}

std::string QuoteLiteralText(const std::string& s) {
  const bool backslash = s.find('\\') != std::string::npos;
  std::string out = backslash ? "E'" : "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  return out + "'";
}

// format(fmt, VARIADIC "any"): %[n$][-][width]{s|I|L} and %%; width may be * or *n$.
Result<Value> Format(Args a, ExecContext*) {
  if (a[0].IsNull()) return Value::Null();
  const std::string fmt = a[0].ToString();
  const size_t nargs = a.size() - 1;
  size_t next = 0;  // the next argument taken without a position
  std::string out;
  auto too_few = [] { return InvalidParameter("too few arguments for format()"); };
  // A number at fmt[*i]; nullopt when none. 22023 when it overflows.
  auto number = [&](size_t* i) -> Result<std::optional<size_t>> {
    if (*i >= fmt.size() || fmt[*i] < '0' || fmt[*i] > '9') return std::optional<size_t>();
    size_t n = 0;
    while (*i < fmt.size() && fmt[*i] >= '0' && fmt[*i] <= '9') {
      n = n * 10 + static_cast<size_t>(fmt[*i] - '0');
      if (n > 100000000) return InvalidParameter("number is out of range");
      ++*i;
    }
    return std::optional<size_t>(n);
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (++i >= fmt.size()) return InvalidParameter("unterminated format() type specifier");
    if (fmt[i] == '%') {
      out += '%';
      continue;
    }
    // Optional argument position n$.
    std::optional<size_t> position;
    {
      size_t j = i;
      MERIDIAN_ASSIGN_OR_RETURN(std::optional<size_t> n, number(&j));
      if (n && j < fmt.size() && fmt[j] == '$') {
        if (*n == 0)
          return InvalidParameter("format specifies argument 0, but arguments are numbered from 1");
        position = *n;
        i = j + 1;
      }
    }
    bool left = false;
    while (i < fmt.size() && fmt[i] == '-') {
      left = true;
      ++i;
    }
    int64_t width = 0;
    if (i < fmt.size() && fmt[i] == '*') {
      ++i;
      size_t j = i;
      MERIDIAN_ASSIGN_OR_RETURN(std::optional<size_t> n, number(&j));
      size_t which = next;
      if (n && j < fmt.size() && fmt[j] == '$') {
        if (*n == 0)
          return InvalidParameter("format specifies argument 0, but arguments are numbered from 1");
        which = *n - 1;
        i = j + 1;
      } else {
        ++next;
      }
      if (which >= nargs) return too_few();
      const Value& w = a[1 + which];
      if (!w.IsNull()) {
        if (!w.IsInt()) return InvalidParameter("width argument must be an integer");  // PG: cast
        width = w.AsInt();
      }
      next = std::max(next, which + 1);
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(std::optional<size_t> n, number(&i));
      if (n) width = static_cast<int64_t>(*n);
    }
    if (width < 0) {
      left = true;
      width = -width;
    }
    if (i >= fmt.size()) return InvalidParameter("unterminated format() type specifier");
    const char type = fmt[i];
    if (type != 's' && type != 'I' && type != 'L') {
      return InvalidParameter(std::string("unrecognized format() type specifier \"") + type + "\"")
          .WithHint("For a single \"%\" use \"%%\".");
    }
    const size_t which = position ? *position - 1 : next;
    if (which >= nargs) return too_few();
    next = which + 1;
    const Value& v = a[1 + which];
    std::string piece;
    if (type == 's') {
      piece = v.IsNull() ? "" : v.ToString();
    } else if (type == 'I') {
      if (v.IsNull()) {
        return Status::Error(sqlstate::kNullValueNotAllowed,
                             "null values cannot be formatted as an SQL identifier");
      }
      piece = catalog::QuoteIdent(v.ToString());  // as quote_ident
    } else {
      piece = v.IsNull() ? "NULL" : QuoteLiteralText(v.ToString());
    }
    size_t chars = 0;
    for (size_t k = 0; k < piece.size(); k = NextChar(piece, k)) ++chars;
    const std::string pad(static_cast<size_t>(width) > chars ? width - chars : 0, ' ');
    out += left ? piece + pad : pad + piece;
  }
  return Value::String(std::move(out));
}

struct RegexFlags {
  bool global = false;
  bool icase = false;
};

Result<RegexFlags> ParseRegexFlags(Args a, size_t index) {
  RegexFlags f;
  if (a.size() <= index) return f;
  for (char c : a[index].AsString()) {
    switch (c) {
      case 'g':
        f.global = true;
        break;
      case 'i':
        f.icase = true;
        break;
      case 'c':
        f.icase = false;
        break;
      default:
        return InvalidParameter(std::string("invalid regular expression option: \"") + c + "\"");
    }
  }
  return f;
}

// regexp_replace(source, pattern, replacement [, flags]): \1..\9 insert a subexpression's
// match, \& the whole match, \\ a backslash.
Result<Value> RegexpReplace(Args a, ExecContext* exec) {
  const std::string& text = a[0].AsString();
  const std::string& pattern = a[1].AsString();
  const std::string& repl = a[2].AsString();
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, ParseRegexFlags(a, 3));
  std::string out;
  size_t copied = 0, search = 0;
  while (search <= text.size()) {
    MERIDIAN_ASSIGN_OR_RETURN(std::optional<RegexGroups> m,
                              RegexFind(text, pattern, flags.icase, search, Ctl(exec)));
    if (!m) break;
    const auto [begin, end] = *(*m)[0];
    out.append(text, copied, begin - copied);
    for (size_t k = 0; k < repl.size(); ++k) {
      if (repl[k] != '\\' || k + 1 == repl.size()) {
        out += repl[k];
        continue;
      }
      const char c = repl[++k];
      if (c >= '1' && c <= '9') {
        const size_t g = static_cast<size_t>(c - '0');
        if (g < m->size() && (*m)[g])
          out.append(text, (*m)[g]->first, (*m)[g]->second - (*m)[g]->first);
      } else if (c == '&') {
        out.append(text, begin, end - begin);
      } else if (c == '\\') {
        out += '\\';
      } else {
        out += '\\';
        out += c;
      }
    }
    copied = end;
    if (!flags.global) break;
    search = end > begin ? end : NextChar(text, end);
    if (end == begin && end < text.size()) {  // an empty match: keep the character it stood on
      out.append(text, copied, search - copied);
      copied = search;
    }
  }
  out.append(text, std::min(copied, text.size()), std::string::npos);
  return Value::String(std::move(out));
}

// regexp_match(string, pattern [, flags]): the subexpressions' matches (or the whole match when
// the pattern has none) as text[]; NULL when nothing matches.
Result<Value> RegexpMatch(Args a, ExecContext* exec) {
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, ParseRegexFlags(a, 2));
  if (flags.global) {
    return InvalidParameter("regexp_match() does not support the \"global\" option")
        .WithHint("Use the regexp_matches function instead.");
  }
  const std::string& text = a[0].AsString();
  MERIDIAN_ASSIGN_OR_RETURN(std::optional<RegexGroups> m,
                            RegexFind(text, a[1].AsString(), flags.icase, 0, Ctl(exec)));
  if (!m) return Value::Null();
  std::vector<Value> out;
  for (size_t g = m->size() > 1 ? 1 : 0; g < m->size(); ++g) {
    const auto& span = (*m)[g];
    out.push_back(span ? Value::String(text.substr(span->first, span->second - span->first))
                       : Value::Null());
  }
  return Value::Array(std::move(out));
}

// regexp_split_to_array(string, pattern [, flags]): the pieces between matches; an empty match
// at the start or end of the string or right after the previous match does not split.
Result<Value> RegexpSplitToArray(Args a, ExecContext* exec) {
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, ParseRegexFlags(a, 2));
  if (flags.global) {
    return InvalidParameter("regexp_split_to_array() does not support the \"global\" option");
  }
  const std::string& text = a[0].AsString();
  std::vector<Value> out;
  size_t piece = 0, search = 0;
  while (search <= text.size()) {
    MERIDIAN_ASSIGN_OR_RETURN(std::optional<RegexGroups> m,
                              RegexFind(text, a[1].AsString(), flags.icase, search, Ctl(exec)));
    if (!m) break;
    const auto [begin, end] = *(*m)[0];
    if (begin == end && (begin == 0 || begin >= text.size() || begin == piece)) {
      if (begin >= text.size()) break;
      search = NextChar(text, begin);
      continue;
    }
    out.push_back(Value::String(text.substr(piece, begin - piece)));
    piece = end;
    search = end > begin ? end : NextChar(text, end);
  }
  out.push_back(Value::String(text.substr(std::min(piece, text.size()))));
  return Value::Array(std::move(out));
}

// The byte offset of 1-based character position pos (PostgreSQL 15's start arguments); 22023
// for a position below 1.
Result<size_t> StartOffset(const std::string& text, int64_t pos) {
  if (pos < 1) {
    return InvalidParameter("invalid value for parameter \"start\": " + std::to_string(pos));
  }
  size_t at = 0;
  for (int64_t c = 1; c < pos && at < text.size(); ++c) at = NextChar(text, at);
  return pos > 1 && at >= text.size() ? text.size() + 1 : at;
}

// Calls visit(groups) for each successive non-overlapping match from byte offset start (an
// empty match moves on by one character) until it returns false.
template <typename Visit>
Status EachMatch(const std::string& text, const std::string& pattern, bool icase, size_t start,
                 ExecContext* exec, Visit visit) {
  size_t search = start;
  while (search <= text.size()) {
    MERIDIAN_ASSIGN_OR_RETURN(std::optional<RegexGroups> m,
                              RegexFind(text, pattern, icase, search, Ctl(exec)));
    if (!m) break;
    if (!visit(*m)) break;
    const auto [begin, end] = *(*m)[0];
    search = end > begin ? end : NextChar(text, end);
  }
  return Status::Ok();
}

Result<RegexFlags> NoGlobalFlags(Args a, size_t index, const char* function) {
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, ParseRegexFlags(a, index));
  if (flags.global) {
    return InvalidParameter(std::string(function) + "() does not support the \"global\" option");
  }
  return flags;
}

// regexp_count(string, pattern [, start [, flags]]): how many non-overlapping matches.
Result<Value> RegexpCount(Args a, ExecContext* exec) {
  const std::string& text = a[0].AsString();
  MERIDIAN_ASSIGN_OR_RETURN(size_t start, StartOffset(text, a.size() > 2 ? a[2].AsInt() : 1));
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, NoGlobalFlags(a, 3, "regexp_count"));
  int64_t n = 0;
  MERIDIAN_RETURN_IF_ERROR(EachMatch(text, a[1].AsString(), flags.icase, start, exec,
                                     [&](const RegexGroups&) { return ++n > 0; }));
  return Value::Int(n);
}

// regexp_like(string, pattern [, flags]): whether it matches.
Result<Value> RegexpLike(Args a, ExecContext* exec) {
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, NoGlobalFlags(a, 2, "regexp_like"));
  MERIDIAN_ASSIGN_OR_RETURN(std::optional<RegexGroups> m,
                            RegexFind(a[0].AsString(), a[1].AsString(), flags.icase, 0, Ctl(exec)));
  return Value::Bool(m.has_value());
}

// regexp_substr(string, pattern [, start [, N [, flags [, subexpr]]]]): the N-th match (or its
// subexpr-th parenthesized part); NULL when there is none.
Result<Value> RegexpSubstr(Args a, ExecContext* exec) {
  const std::string& text = a[0].AsString();
  MERIDIAN_ASSIGN_OR_RETURN(size_t start, StartOffset(text, a.size() > 2 ? a[2].AsInt() : 1));
  const int64_t nth = a.size() > 3 ? a[3].AsInt() : 1;
  if (nth < 1) return InvalidParameter("invalid value for parameter \"n\": " + std::to_string(nth));
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, NoGlobalFlags(a, 4, "regexp_substr"));
  const int64_t subexpr = a.size() > 5 ? a[5].AsInt() : 0;
  if (subexpr < 0) {
    return InvalidParameter("invalid value for parameter \"subexpr\": " + std::to_string(subexpr));
  }
  int64_t seen = 0;
  Value out = Value::Null();
  MERIDIAN_RETURN_IF_ERROR(
      EachMatch(text, a[1].AsString(), flags.icase, start, exec, [&](const RegexGroups& m) {
        if (++seen < nth) return true;
        const size_t g = static_cast<size_t>(subexpr);
        if (g < m.size() && m[g]) {
          out = Value::String(text.substr(m[g]->first, m[g]->second - m[g]->first));
        }
        return false;
      }));
  return out;
}

Result<Value> Ascii(Args a, ExecContext*) {
  const std::string& s = a[0].AsString();
  if (s.empty()) return Value::Int(0);
  const auto b = static_cast<unsigned char>(s[0]);
  if (b < 0x80) return Value::Int(b);
  const size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
  int64_t cp = b & (len == 4 ? 0x07 : len == 3 ? 0x0F : 0x1F);
  for (size_t i = 1; i < len && i < s.size(); ++i) cp = (cp << 6) | (s[i] & 0x3F);
  return Value::Int(cp);
}

Result<Value> Chr(Args a, ExecContext*) {
  const int64_t cp = a[0].AsInt();
  if (cp == 0) {
    return Status::Error(sqlstate::kProgramLimitExceeded, "null character not permitted");
  }
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return Status::Error(sqlstate::kProgramLimitExceeded,
                         "requested character too large for encoding: " + std::to_string(cp));
  }
  std::string out;
  parser::AppendUtf8(static_cast<uint32_t>(cp), &out);
  return Value::String(std::move(out));
}

Result<Value> StartsWith(Args a, ExecContext*) {
  return Value::Bool(a[0].AsString().starts_with(a[1].AsString()));
}

Result<Value> QuoteLiteral(Args a, ExecContext*) {
  return Value::String(QuoteLiteralText(a[0].ToString()));
}

Result<Value> QuoteNullable(Args a, ExecContext*) {
  return Value::String(a[0].IsNull() ? "NULL" : QuoteLiteralText(a[0].ToString()));
}

template <typename Unsigned>
Result<Value> ToHex(Args a, ExecContext*) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llx",
                static_cast<unsigned long long>(static_cast<Unsigned>(a[0].AsInt())));
  return Value::String(buf);
}

Result<Value> OctetLength(Args a, ExecContext*) {
  return Value::Int(static_cast<int64_t>(a[0].AsString().size()));
}

Result<Value> BitLength(Args a, ExecContext*) {
  return Value::Int(static_cast<int64_t>(a[0].AsString().size()) * 8);
}

// regexp_instr(string, pattern [, start [, N [, endoption [, flags [, subexpr]]]]]): the
// character position where the Nth match (or its subexpression) begins, or the one after its
// end when endoption is 1; 0 when there is none.
Result<Value> RegexpInstr(Args a, ExecContext* exec) {
  const std::string& text = a[0].AsString();
  MERIDIAN_ASSIGN_OR_RETURN(size_t start, StartOffset(text, a.size() > 2 ? a[2].AsInt() : 1));
  const int64_t nth = a.size() > 3 ? a[3].AsInt() : 1;
  if (nth < 1) return InvalidParameter("invalid value for parameter \"n\": " + std::to_string(nth));
  const int64_t end_option = a.size() > 4 ? a[4].AsInt() : 0;
  if (end_option != 0 && end_option != 1) {
    return InvalidParameter("invalid value for parameter \"endoption\": " +
                            std::to_string(end_option));
  }
  MERIDIAN_ASSIGN_OR_RETURN(RegexFlags flags, NoGlobalFlags(a, 5, "regexp_instr"));
  const int64_t subexpr = a.size() > 6 ? a[6].AsInt() : 0;
  if (subexpr < 0) {
    return InvalidParameter("invalid value for parameter \"subexpr\": " + std::to_string(subexpr));
  }
  int64_t seen = 0;
  size_t at = std::string::npos;  // byte offset of the answer
  MERIDIAN_RETURN_IF_ERROR(
      EachMatch(text, a[1].AsString(), flags.icase, start, exec, [&](const RegexGroups& m) {
        if (++seen < nth) return true;
        const size_t g = static_cast<size_t>(subexpr);
        if (g < m.size() && m[g]) at = end_option == 1 ? m[g]->second : m[g]->first;
        return false;
      }));
  if (at == std::string::npos) return Value::Int(0);
  int64_t chars = 1;
  for (size_t i = 0; i < at; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  }
  return Value::Int(chars);
}

// Where each unit of s starts (code points of UTF-8 text, or bytes), then s.size().
template <bool kBytes>
std::vector<size_t> UnitStarts(const std::string& s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if (kBytes || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

// overlay(s, r, start [, count]) (also OVERLAY(s PLACING r FROM start [FOR count])): s with
// count units from start replaced by r, count defaulting to r's length; units are characters
// of text or bytes of bytea (PostgreSQL's text_overlay / byteaoverlay).
template <bool kBytes>
Result<Value> Overlay(Args a, ExecContext*) {
  const std::string& s = kBytes ? a[0].AsBytea() : a[0].AsString();
  const std::string& r = kBytes ? a[1].AsBytea() : a[1].AsString();
  const int64_t start = a[2].AsInt();
  const int64_t count =
      a.size() > 3 ? a[3].AsInt() : static_cast<int64_t>(UnitStarts<kBytes>(r).size()) - 1;
  if (start <= 0) {
    return Status::Error(sqlstate::kSubstringError, "negative substring length not allowed");
  }
  const int64_t after = start + count;  // the first unit kept after r, 1-based
  if (after > std::numeric_limits<int32_t>::max() || after < std::numeric_limits<int32_t>::min()) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "integer out of range");
  }
  const std::vector<size_t> units = UnitStarts<kBytes>(s);
  const int64_t n = static_cast<int64_t>(units.size()) - 1;
  const size_t head_end = units[static_cast<size_t>(std::min(start - 1, n))];
  const size_t tail_start = units[static_cast<size_t>(std::clamp<int64_t>(after - 1, 0, n))];
  std::string out = s.substr(0, head_end);
  out += r;
  out += s.substr(tail_start);
  return kBytes ? Value::ByteaVal(std::move(out)) : Value::String(std::move(out));
}

constexpr ScalarFunction kStringFunctions[] = {
    {"md5", "t", 1, 't', &Md5},
    {"concat_ws", "tx", 2, 't', &ConcatWs, /*variadic=*/true, /*strict=*/false},
    {"format", "tx", 1, 't', &Format, /*variadic=*/true, /*strict=*/false},
    {"regexp_replace", "tttt", 3, 't', &RegexpReplace},
    {"regexp_match", "ttt", 2, 'A', &RegexpMatch},
    {"regexp_split_to_array", "ttt", 2, 'A', &RegexpSplitToArray},
    {"regexp_count", "ttit", 2, 'i', &RegexpCount},
    {"regexp_like", "ttt", 2, 'b', &RegexpLike},
    {"regexp_substr", "ttiiti", 2, 't', &RegexpSubstr},
    {"regexp_instr", "ttiiiti", 2, 'i', &RegexpInstr},
    {"ascii", "t", 1, 'i', &Ascii},
    {"chr", "i", 1, 't', &Chr},
    {"starts_with", "tt", 2, 'b', &StartsWith},
    {"quote_literal", "x", 1, 't', &QuoteLiteral},
    {"quote_nullable", "x", 1, 't', &QuoteNullable, false, /*strict=*/false},
    {"to_hex", "i", 1, 't', &ToHex<uint32_t>},
    {"to_hex", "l", 1, 't', &ToHex<uint64_t>},
    {"octet_length", "t", 1, 'i', &OctetLength},
    {"bit_length", "t", 1, 'i', &BitLength},
    {"overlay", "ttii", 3, 't', &Overlay<false>},
    {"overlay", "yyii", 3, 'y', &Overlay<true>},  // bytea's, after text's for untyped input
};

}  // namespace

void RegisterStringFunctions() { RegisterScalarFunctions(kStringFunctions); }

}  // namespace meridian::exec
