// Formats a ClientError as psql prints an ErrorResponse: "ERROR:  <SQLSTATE>: <message>", then,
// when the error has a position, "LINE n: <source line>" with a caret under the character, then
// DETAIL and HINT lines.
#pragma once

#include <string>
#include <string_view>

#include "meridian/client/client_error.h"

namespace meridian::shell {

// sql is the request text the error's position refers to (may be empty). Ends with '\n'.
std::string FormatError(const client::ClientError& error, std::string_view sql);

// Just the "LINE n: ..." and caret lines for a 1-based character position (empty when the
// position is 0 or outside sql). Long lines are cut around the position as libpq does.
std::string FormatErrorPosition(std::string_view sql, uint32_t position);

}  // namespace meridian::shell
