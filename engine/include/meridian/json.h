// JSON and JSONB text forms as PostgreSQL 15 has them: json_in's validation (22P02 "invalid
// input syntax for type json" with its DETAIL), jsonb's normalised form (object keys sorted by
// length, then bytes; the last of duplicate keys kept; ", " and ": " between items; numbers as
// numeric_out prints them), and the operations the JSON operators and functions share
// (navigation, containment, comparison, construction).
//
// A JSON value is held as a string (Value::String): json keeps the text as given, jsonb keeps
// its normalised text. Operations parse it into a Node tree.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"

namespace meridian::json {

struct Node {
  enum Kind : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };
  Kind kind = kNull;
  std::string text;               // kNumber: as written (jsonb: normalised); kString: decoded
  std::vector<std::string> keys;  // kObject: the keys, in order (jsonb: sorted, unique)
  std::vector<Node> items;        // kArray: the elements; kObject: the values (keys' order)
  size_t begin = 0, end = 0;      // the node's bytes in the parsed text (json's sub-values)
};

// json_in / jsonb_in. jsonb: strings must not contain \u0000 (22P05) and the tree is
// normalised (keys sorted, duplicates dropped, numbers in numeric_out's form). json with
// decode: its strings are de-escaped as PostgreSQL's field functions do (\u0000 22P05, unpaired
// surrogates 22P02); without, only the syntax is checked (json_array_length, json_typeof).
Result<Node> Parse(std::string_view text, bool jsonb, bool decode = true);
// Whether text is valid JSON (json_in: the syntax only, without building a tree); strict:
// also that every string de-escapes (no \u0000, no unpaired surrogate), as json's field
// functions require of the whole document.
Status Validate(std::string_view text, bool strict = false);

// jsonb_out: `{"a": 1, "b": [1, 2]}`.
std::string ToJsonb(const Node& n);
void AppendJsonb(const Node& n, std::string* out);
// A string in JSON form: quoted, with ", \, and control characters escaped (escape_json).
void AppendQuoted(std::string_view s, std::string* out);
std::string Quoted(std::string_view s);
// jsonb_pretty: four-space indentation, one item a line.
std::string Pretty(const Node& n);

// A number's text as a jsonb number (numeric_in then numeric_out: "1e2" → "100", "1.50" kept).
std::string NormalizeNumber(std::string_view number);
// Sorts an object's keys as jsonb does (length, then bytes), keeping the last of equal keys.
void NormalizeObject(Node* n);

// The value at key (last one of equal keys) of an object; null when absent or not an object.
const Node* Field(const Node& n, std::string_view key);
// The element at index of an array (negative: from the end); null when absent or not an array.
const Node* Element(const Node& n, long long index);
// The value at a path of keys or array indexes (#>): null when a step is missing; of a json
// object's repeated keys, the last one whose value has the rest of the path.
const Node* AtPath(const Node& n, const std::vector<std::string>& path);

// ->> / #>>: a string's contents, another value's JSON text (json: as written in src); the
// caller maps JSON null to SQL NULL.
std::string TextOf(const Node& n, std::string_view src, bool jsonb);
// A sub-value as a json or jsonb value's text: as written (json) or normalised (jsonb).
std::string ValueText(const Node& n, std::string_view src, bool jsonb);

// Without building a tree, on a text that is valid JSON (a json or jsonb value): the text of
// the value at key of the top-level object (the last of equal keys) or at index of the
// top-level array (negative: from the end). False when absent or of another kind.
bool FindField(std::string_view text, std::string_view key, std::string_view* value);
bool FindElement(std::string_view text, long long index, std::string_view* value);

// jsonb_typeof: "object", "array", "string", "number", "boolean", "null".
const char* TypeName(const Node& n);

// @>: whether a contains b (PostgreSQL's JsonbDeepContains, with the top-level rule that an
// array contains a scalar it has as an element).
bool Contains(const Node& a, const Node& b);
// Contains on a (valid) jsonb text: an object template looks up only its own keys in the text
// (json::FindField), parsing just those values; anything else parses the whole text.
Result<bool> ContainsText(std::string_view a, const Node& b);
// jsonb's B-tree order (compareJsonbContainers): three-way; numbers compare as numbers.
int Compare(const Node& a, const Node& b);
// A byte string whose memcmp order is Compare's (jsonb's B-tree order): ORDER BY a jsonb
// expression sorts by it.
std::string SortKey(const Node& n);
// Numeric comparison of two JSON number texts.
int CompareNumbers(std::string_view a, std::string_view b);

}  // namespace meridian::json
