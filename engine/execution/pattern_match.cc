// LIKE by anchored segments and PostgreSQL regular expressions on PCRE2 (see pattern_match.h).
#include "execution/pattern_match.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <utility>
#include <vector>

namespace meridian::exec {
namespace {

constexpr size_t kNpos = std::string_view::npos;

// ---- LIKE

// Work units (bytes compared) between two polls of ExecControl.
constexpr size_t kLikePollEvery = size_t{1} << 16;

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

size_t NextChar(std::string_view t, size_t i) {
  ++i;
  while (i < t.size() && IsContinuation(t[i])) ++i;
  return i;
}

// Where segment p (no unescaped '%') ends when matched at t[ti...], or kNpos.
size_t MatchSegmentAt(std::string_view t, size_t ti, std::string_view p) {
  for (size_t pi = 0; pi < p.size(); ++pi) {
    if (ti >= t.size()) return kNpos;
    char c = p[pi];
    if (c == '_') {
      ti = NextChar(t, ti);
      continue;
    }
    if (c == '\\' && pi + 1 < p.size()) c = p[++pi];
    if (t[ti] != c) return kNpos;
    ++ti;
  }
  return ti;
}

// How many characters segment p matches (each '_' one, each literal character one).
size_t SegmentChars(std::string_view p) {
  size_t n = 0;
  for (size_t pi = 0; pi < p.size(); ++pi) {
    if (p[pi] == '\\' && pi + 1 < p.size()) ++pi;  // the escaped byte is a literal
    if (!IsContinuation(p[pi])) ++n;
  }
  return n;
}

bool IsPlainLiteral(std::string_view p) {
  return p.find_first_of("_\\") == kNpos;
}

// Positions of the unescaped '%' in p.
void FindPercents(std::string_view p, std::vector<size_t>* out) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (p[i] == '%') {
      out->push_back(i);
    }
  }
}

// ---- regular expressions

constexpr uint32_t kMatchLimit = 5'000'000;   // backtracking steps before the DFA takes over
constexpr uint32_t kHeapLimitKib = 32 * 1024; // the interpreter's backtracking frames
constexpr size_t kJitStackMax = 4 << 20;
constexpr size_t kDfaWorkspaceMax = 1 << 20;  // ints
constexpr size_t kCacheBytes = 1 << 20;       // pattern bytes kept compiled per thread

Status InvalidRegex(const std::string& why) {
  return Status::Error(sqlstate::kInvalidRegularExpression, "invalid regular expression: " + why);
}

Status TooComplex() {
  return Status::Error(sqlstate::kStatementTooComplex,
                       "regular expression is too complex to evaluate")
      .WithHint("A backreference in a pattern that needs much backtracking cannot be bounded.");
}

std::string PcreMessage(int code) {
  PCRE2_UCHAR buf[256];
  int n = pcre2_get_error_message(code, buf, sizeof buf);
  return n < 0 ? "error " + std::to_string(code) : std::string(reinterpret_cast<char*>(buf));
}

// The options of ARE's leading "(?letters)"; false when the letters are not ARE options.
Result<bool> ApplyEmbeddedOptions(std::string_view letters, uint32_t* opts) {
  if (letters.empty() || letters.find_first_not_of("bceimnpqstwx") != kNpos) return false;
  for (char c : letters) {
    switch (c) {
      case 'b':
      case 'e':
        return Status::Error(sqlstate::kFeatureNotSupported,
                             "basic and extended regular expression flavors are not supported");
      case 'c':
        *opts &= ~PCRE2_CASELESS;
        break;
      case 'i':
        *opts |= PCRE2_CASELESS;
        break;
      case 'm':
      case 'n':  // newline-sensitive: '.' and [^...] stop at newlines, ^ and $ match at lines
        *opts = (*opts & ~(PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY)) | PCRE2_MULTILINE;
        break;
      case 'p':  // partial newline-sensitive: only '.' and [^...]
        *opts &= ~PCRE2_DOTALL;
        break;
      case 'w':  // inverse partial: only ^ and $
        *opts = (*opts & ~PCRE2_DOLLAR_ENDONLY) | PCRE2_MULTILINE;
        break;
      case 'q':
        *opts |= PCRE2_LITERAL;
        break;
      case 'x':
        *opts |= PCRE2_EXTENDED;
        break;
      default:  // s, t: the defaults
        break;
    }
  }
  return true;
}

// Copies a bracket expression starting at p[i] == '[' and returns the index after it.
size_t CopyBracket(std::string_view p, size_t i, std::string* out) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;  // a leading ']' is a member
  while (j < p.size() && p[j] != ']') {
    if (p[j] == '[' && j + 1 < p.size() && (p[j + 1] == ':' || p[j + 1] == '.' || p[j + 1] == '=')) {
      const char kind = p[j + 1];
      size_t end = p.find(std::string{kind, ']'}, j + 2);
      j = end == kNpos ? p.size() : end + 2;
      continue;
    }
    if (p[j] == '\\') ++j;
    ++j;
  }
  j = std::min(j + 1, p.size());
  out->append(p.substr(i, j - i));
  return j;
}

// PostgreSQL ARE syntax → PCRE2 pattern and compile options.
Result<std::string> TranslateAre(std::string_view p, uint32_t* opts) {
  if (p.substr(0, 4) == "***=") {
    *opts |= PCRE2_LITERAL;
    return std::string(p.substr(4));
  }
  if (p.substr(0, 4) == "***:") p.remove_prefix(4);
  if (p.substr(0, 2) == "(?") {
    size_t close = p.find(')');
    if (close != kNpos) {
      MERIDIAN_ASSIGN_OR_RETURN(bool applied, ApplyEmbeddedOptions(p.substr(2, close - 2), opts));
      if (applied) p.remove_prefix(close + 1);
    }
  }
  if (*opts & PCRE2_LITERAL) return std::string(p);
  std::string out;
  out.reserve(p.size() + 16);
  for (size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '[') {
      if (p.substr(i, 7) == "[[:<:]]") {
        out += "\\b(?=\\w)";
        i += 7;
      } else if (p.substr(i, 7) == "[[:>:]]") {
        out += "\\b(?<=\\w)";
        i += 7;
      } else {
        i = CopyBracket(p, i, &out);
      }
      continue;
    }
    if (c != '\\' || i + 1 >= p.size()) {
      out += c;
      ++i;
      continue;
    }
    const char e = p[i + 1];
    i += 2;
    switch (e) {
      case 'm':
        out += "\\b(?=\\w)";
        break;
      case 'M':
        out += "\\b(?<=\\w)";
        break;
      case 'y':
        out += "\\b";
        break;
      case 'Y':
        out += "\\B";
        break;
      case 'Z':
        out += "\\z";
        break;
      case 'B':  // ARE: a synonym for backslash
        out += "\\\\";
        break;
      case 'v':
        out += "\\x0b";
        break;
      case 'u':
      case 'U': {
        const size_t digits = e == 'u' ? 4 : 8;
        size_t n = 0;
        while (n < digits && i + n < p.size() && std::isxdigit(static_cast<unsigned char>(p[i + n]))) {
          ++n;
        }
        if (n != digits) return InvalidRegex("invalid escape \\ sequence");
        out += "\\x{" + std::string(p.substr(i, n)) + "}";
        i += n;
        break;
      }
      default:
        out += '\\';
        out += e;
        break;
    }
  }
  return out;
}

struct CompiledRegex {
  pcre2_code* code = nullptr;
  bool jit = false;
  uint32_t captures = 0;
  // The DFA matcher refuses PCRE2_MATCH_INVALID_UTF: it gets its own compilation, made the
  // first time a match falls back to it (a compiled pattern is used by one thread).
  std::string translated;
  uint32_t options = 0;
  mutable pcre2_code* dfa_code = nullptr;
  ~CompiledRegex() {
    pcre2_code_free(code);
    pcre2_code_free(dfa_code);
  }
};

// Per-thread matching state: contexts, JIT stack, match data and DFA workspace, plus the
// most recently used compiled patterns.
struct ThreadRegexState {
  pcre2_match_context* mctx = nullptr;
  pcre2_jit_stack* jit_stack = nullptr;
  pcre2_match_data* md = nullptr;
  std::vector<int> dfa_workspace = std::vector<int>(4096);
  std::vector<std::pair<std::string, std::shared_ptr<const CompiledRegex>>> cache;  // MRU first
  size_t cache_bytes = 0;

  ThreadRegexState() {
    mctx = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(mctx, kMatchLimit);
    pcre2_set_heap_limit(mctx, kHeapLimitKib);
    jit_stack = pcre2_jit_stack_create(32 * 1024, kJitStackMax, nullptr);
    if (jit_stack != nullptr) pcre2_jit_stack_assign(mctx, nullptr, jit_stack);
    md = pcre2_match_data_create(16, nullptr);
  }
  ~ThreadRegexState() {
    pcre2_match_data_free(md);
    pcre2_jit_stack_free(jit_stack);
    pcre2_match_context_free(mctx);
  }
};

ThreadRegexState& State() {
  thread_local ThreadRegexState state;
  return state;
}

Result<std::shared_ptr<const CompiledRegex>> Compile(const std::string& pattern, bool icase) {
  ThreadRegexState& st = State();
  std::string key = (icase ? "i:" : "c:") + pattern;
  for (size_t i = 0; i < st.cache.size(); ++i) {
    if (st.cache[i].first == key) {
      std::rotate(st.cache.begin(), st.cache.begin() + i, st.cache.begin() + i + 1);
      return st.cache.front().second;
    }
  }
  uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY |
                  PCRE2_UCP | (icase ? PCRE2_CASELESS : 0);
  MERIDIAN_ASSIGN_OR_RETURN(std::string translated, TranslateAre(pattern, &opts));
  if (opts & PCRE2_LITERAL) {
    opts &= PCRE2_LITERAL | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_CASELESS;
  }
  int err = 0;
  PCRE2_SIZE err_at = 0;
  auto re = std::make_shared<CompiledRegex>();
  re->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(), opts,
                           &err, &err_at, nullptr);
  if (re->code == nullptr) return InvalidRegex(PcreMessage(err));
  re->jit = pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0;
  pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &re->captures);
  re->translated = std::move(translated);
  re->options = opts & ~PCRE2_MATCH_INVALID_UTF;
  // Keep recently used patterns up to kCacheBytes of pattern text (the newest always stays).
  st.cache.insert(st.cache.begin(), {std::move(key), re});
  st.cache_bytes += st.cache.front().first.size();
  while (st.cache.size() > 1 && st.cache_bytes > kCacheBytes) {
    st.cache_bytes -= st.cache.back().first.size();
    st.cache.pop_back();
  }
  return std::shared_ptr<const CompiledRegex>(re);
}

bool IsLimitError(int rc) {
  return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
         rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
         rc == PCRE2_ERROR_NOMEMORY;
}

// Backtracking match into st.md: the JIT first, then the interpreter when the JIT's stack ran
// out. >= 0: a match; PCRE2_ERROR_NOMATCH; or a limit error.
int Backtrack(const CompiledRegex& re, std::string_view text, ThreadRegexState& st,
              size_t start = 0) {
  auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  int rc = PCRE2_ERROR_JIT_STACKLIMIT;
  if (re.jit) rc = pcre2_jit_match(re.code, subject, text.size(), start, 0, st.md, st.mctx);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
    rc = pcre2_match(re.code, subject, text.size(), start, PCRE2_NO_JIT, st.md, st.mctx);
  }
  return rc;
}

// PCRE2's DFA matcher: no backtracking, the longest match at the leftmost position.
Result<int> Dfa(const CompiledRegex& re, std::string_view text, ThreadRegexState& st,
                const ExecControl* ctl, size_t start = 0) {
  if (ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(ctl->Check());
  if (re.dfa_code == nullptr) {
    int err = 0;
    PCRE2_SIZE err_at = 0;
    re.dfa_code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(re.translated.data()),
                                re.translated.size(), re.options, &err, &err_at, nullptr);
    if (re.dfa_code == nullptr) return InvalidRegex(PcreMessage(err));
  }
  auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  for (;;) {
    int rc = pcre2_dfa_match(re.dfa_code, subject, text.size(), start, 0, st.md, st.mctx,
                             st.dfa_workspace.data(), st.dfa_workspace.size());
    if (rc == PCRE2_ERROR_DFA_WSSIZE && st.dfa_workspace.size() < kDfaWorkspaceMax) {
      st.dfa_workspace.resize(st.dfa_workspace.size() * 4);
      continue;
    }
    if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) return rc;
    if (rc == PCRE2_ERROR_DFA_UITEM || rc == PCRE2_ERROR_DFA_WSSIZE || IsLimitError(rc)) {
      return TooComplex();
    }
    return InvalidRegex(PcreMessage(rc));
  }
}

Result<int> Run(const CompiledRegex& re, std::string_view text, ThreadRegexState& st,
                const ExecControl* ctl) {
  int rc = Backtrack(re, text, st);
  if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) return rc;
  if (IsLimitError(rc)) return Dfa(re, text, st, ctl);
  return InvalidRegex(PcreMessage(rc));
}

}  // namespace

Result<bool> LikeMatch(std::string_view t, std::string_view p, const ExecControl* ctl) {
  thread_local std::vector<size_t> percents;
  percents.clear();
  FindPercents(p, &percents);
  if (percents.empty()) return MatchSegmentAt(t, 0, p) == t.size();
  // First segment at the start, last at the end.
  size_t pos = MatchSegmentAt(t, 0, p.substr(0, percents.front()));
  if (pos == kNpos) return false;
  std::string_view last = p.substr(percents.back() + 1);
  size_t suffix = t.size();
  for (size_t n = SegmentChars(last); n > 0; --n) {
    if (suffix == 0) return false;
    do {
      --suffix;
    } while (suffix > 0 && IsContinuation(t[suffix]));
  }
  if (suffix < pos || MatchSegmentAt(t, suffix, last) != t.size()) return false;
  // Middle segments, each at its leftmost place in t[pos, suffix).
  std::string_view window = t.substr(0, suffix);
  size_t work = 0;
  for (size_t k = 0; k + 1 < percents.size(); ++k) {
    std::string_view seg = p.substr(percents[k] + 1, percents[k + 1] - percents[k] - 1);
    if (seg.empty()) continue;
    if (IsPlainLiteral(seg)) {
      size_t at = window.find(seg, pos);
      if (at == kNpos) return false;
      pos = at + seg.size();
      continue;
    }
    size_t end = kNpos;
    for (size_t q = pos; q <= window.size(); q = NextChar(window, q)) {
      end = MatchSegmentAt(window, q, seg);
      if (end != kNpos) break;
      work += seg.size();
      if (work >= kLikePollEvery) {
        work = 0;
        if (ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(ctl->Check());
      }
      if (q == window.size()) break;
    }
    if (end == kNpos) return false;
    pos = end;
  }
  return true;
}

Result<bool> RegexMatch(std::string_view text, const std::string& pattern, bool icase,
                        const ExecControl* ctl) {
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegex> re, Compile(pattern, icase));
  MERIDIAN_ASSIGN_OR_RETURN(int rc, Run(*re, text, State(), ctl));
  return rc != PCRE2_ERROR_NOMATCH;
}

Result<std::optional<std::string>> RegexSubstring(std::string_view text, const std::string& pattern,
                                                  const ExecControl* ctl) {
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegex> re, Compile(pattern, false));
  ThreadRegexState& st = State();
  int rc = Backtrack(*re, text, st);
  if (IsLimitError(rc)) {
    // The DFA reports no subexpressions: it can answer only for a pattern without them.
    if (re->captures > 0) return TooComplex();
    MERIDIAN_ASSIGN_OR_RETURN(rc, Dfa(*re, text, st, ctl));
  } else if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
    return InvalidRegex(PcreMessage(rc));
  }
  if (rc == PCRE2_ERROR_NOMATCH) return std::optional<std::string>();
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(st.md);
  const size_t group = re->captures > 0 ? 1 : 0;
  if (ov[2 * group] == PCRE2_UNSET) return std::optional<std::string>();
  return std::optional<std::string>(
      std::string(text.substr(ov[2 * group], ov[2 * group + 1] - ov[2 * group])));
}

Result<std::optional<RegexGroups>> RegexFind(std::string_view text, const std::string& pattern,
                                             bool icase, size_t start, const ExecControl* ctl) {
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegex> re, Compile(pattern, icase));
  ThreadRegexState& st = State();
  int rc = Backtrack(*re, text, st, start);
  if (IsLimitError(rc)) {
    if (re->captures > 0) return TooComplex();  // the DFA reports no subexpressions
    MERIDIAN_ASSIGN_OR_RETURN(rc, Dfa(*re, text, st, ctl, start));
  } else if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
    return InvalidRegex(PcreMessage(rc));
  }
  if (rc == PCRE2_ERROR_NOMATCH) return std::optional<RegexGroups>();
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(st.md);
  RegexGroups out;
  // The DFA's match (no subexpressions) is its longest at the leftmost start: ovector pair 0.
  const uint32_t groups = re->captures;
  // rc: pairs set; 0 when the match data holds fewer pairs than the pattern has groups.
  const uint32_t set = rc == 0 ? pcre2_get_ovector_count(st.md) : static_cast<uint32_t>(rc);
  for (uint32_t g = 0; g <= groups; ++g) {
    if (g >= set || ov[2 * g] == PCRE2_UNSET) {
      out.push_back(std::nullopt);
    } else {
      out.push_back(std::make_pair(static_cast<size_t>(ov[2 * g]), static_cast<size_t>(ov[2 * g + 1])));
    }
  }
  return std::optional<RegexGroups>(std::move(out));
}

}  // namespace meridian::exec
