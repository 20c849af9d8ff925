// A small JSON writer and a reader that flattens a document's numbers into dotted paths
// ("transactions.new_order.latency_ms.p99" -> 12.5), enough for --json and --compare.
#pragma once

#include <map>
#include <string>

namespace tpcc {

// JSON string literal of s, quotes included.
std::string JsonString(const std::string& s);

// Numbers (and booleans as 0/1) of a JSON text by dotted path; array elements by index.
// Returns false on a syntax error.
bool FlattenJsonNumbers(const std::string& text, std::map<std::string, double>* out);

}  // namespace tpcc
