// Pattern matching with bounded time and stack: LIKE/ILIKE without backtracking, and
// PostgreSQL's regular expressions (~, ~*, substring(s FROM pattern)) on PCRE2 with match
// limits and a polynomial fallback, so no pattern can crash the daemon or run unbounded.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meridian/database.h"
#include "meridian/status.h"

namespace meridian::exec {

// SQL LIKE: '%' any run of characters, '_' one UTF-8 character, '\' makes the next byte
// literal (a trailing '\' is itself). The pattern is cut at each '%' into segments of fixed
// character length; the first is anchored at the start, the last at the end, and each middle
// one is placed at its leftmost occurrence after the previous (leftmost placement never loses a
// match). Time O(|text| * longest segment) at worst, constant stack. ctl (may be null) is
// polled while searching, so a cancel or statement timeout ends a long match (57014).
Result<bool> LikeMatch(std::string_view text, std::string_view pattern, const ExecControl* ctl);

// ~ / ~* / !~ / !~*: whether pattern matches anywhere in text. The pattern is PostgreSQL's ARE
// syntax, translated for PCRE2 (\m \M \y \Y \Z, [[:<:]] [[:>:]], the ***= and ***: directors and
// leading embedded options; '.' matches a newline and '$' only the end, as in ARE). Matching runs
// PCRE2's JIT under a match limit; when a pattern exhausts it (catastrophic backtracking) the
// answer comes from PCRE2's DFA matcher, whose time is polynomial. 2201B for an invalid
// pattern, 54001 when neither matcher can decide (a backreference in a pathological pattern).
Result<bool> RegexMatch(std::string_view text, const std::string& pattern, bool icase,
                        const ExecControl* ctl);

// substring(text FROM pattern): the first parenthesized subexpression's match when the pattern
// has one (nullopt when it took no part), else the whole match; nullopt when nothing matches.
Result<std::optional<std::string>> RegexSubstring(std::string_view text, const std::string& pattern,
                                                  const ExecControl* ctl);

// The offsets [begin, end) of a match (element 0) and of each parenthesized subexpression
// (nullopt for one that took no part).
using RegexGroups = std::vector<std::optional<std::pair<size_t, size_t>>>;

// The first match of pattern (ARE, as for ~) in text starting at byte offset start or later
// (anchors still refer to the whole text); nullopt when there is none. Same limits as
// RegexMatch; a pattern with subexpressions that exhausts the backtracking limit is 54001.
Result<std::optional<RegexGroups>> RegexFind(std::string_view text, const std::string& pattern,
                                             bool icase, size_t start, const ExecControl* ctl);

}  // namespace meridian::exec
