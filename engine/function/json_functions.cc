// Registered functions of the json and jsonb types (binder/function_registry.h): the functions
// behind the JSON operators (under PostgreSQL's names: jsonb_object_field, jsonb_contains, ...,
// bound by binder/bind_json.cc), the constructors (to_json, json_build_object/array, the
// final functions of json_agg and json_object_agg), json(b)_typeof, json(b)_array_length,
// jsonb_pretty, json(b)_strip_nulls, jsonb_set and the arrays behind the set-returning
// json(b)_array_elements(_text) and json(b)_object_keys — PostgreSQL 15's results and errors.
// Values are JSON texts (meridian/json.h); a jsonb text is parsed again by each call.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "binder/function_registry.h"
#include "function/builtin.h"
#include "meridian/json.h"

namespace meridian::exec {

namespace {

using Args = std::span<const Value>;
using json::Node;

Result<Node> ParseArg(const Value& v, bool jsonb) { return json::Parse(v.AsString(), jsonb); }
// A json argument of a function that does not de-escape its strings (PostgreSQL's
// need_escapes = false): the syntax only.
Result<Node> ParseSyntax(const Value& v, bool jsonb) {
  return json::Parse(v.AsString(), jsonb, /*decode=*/false);
}

Value JsonbValue(const Node& n) { return Value::String(json::ToJsonb(n)); }

// The result of navigating to n: json keeps the text as written, jsonb prints the node.
Value Sub(const Node* n, const std::string& src, bool jsonb, bool text) {
  if (n == nullptr) return Value::Null();
  if (text) {
    if (n->kind == Node::kNull) return Value::Null();
    return Value::String(json::TextOf(*n, src, jsonb));
  }
  return Value::String(json::ValueText(*n, src, jsonb));
}

// A value's text found by json::FindField/FindElement (a sub-value of a json value is as
// written, of a jsonb value normalised already): ->'s result, or ->>'s (a string's contents,
// NULL for null).
Result<Value> FoundValue(std::string_view found, bool jsonb, bool text) {
  if (!text) return Value::String(std::string(found));
  if (found == "null") return Value::Null();
  if (!found.empty() && found[0] == '"') {
    if (found.find('\\') == std::string_view::npos) {
      return Value::String(std::string(found.substr(1, found.size() - 2)));
    }
    MERIDIAN_ASSIGN_OR_RETURN(Node n, json::Parse(found, jsonb));
    return Value::String(std::move(n.text));
  }
  return Value::String(std::string(found));
}

template <bool kJsonb, bool kText>
Result<Value> ObjectField(Args a, ExecContext*) {
  // json's field functions de-escape every string of the document (PostgreSQL's need_escapes):
  // a bad escape anywhere is an error; jsonb's text is clean.
  if (!kJsonb) MERIDIAN_RETURN_IF_ERROR(json::Validate(a[0].AsString(), /*strict=*/true));
  std::string_view found;
  if (!json::FindField(a[0].AsString(), a[1].AsString(), &found)) return Value::Null();
  return FoundValue(found, kJsonb, kText);
}

template <bool kJsonb, bool kText>
Result<Value> ArrayElement(Args a, ExecContext*) {
  if (!kJsonb) MERIDIAN_RETURN_IF_ERROR(json::Validate(a[0].AsString(), /*strict=*/true));
  const std::string& s = a[0].AsString();
  std::string_view found;
  if (json::FindElement(s, a[1].AsInt(), &found)) return FoundValue(found, kJsonb, kText);
  const size_t first = s.find_first_not_of(" \t\n\r");
  const bool scalar = first != std::string::npos && s[first] != '[' && s[first] != '{';
  // jsonb holds a top-level scalar as a one-element array: element 0 (or -1) is the scalar.
  if (kJsonb && scalar && (a[1].AsInt() == 0 || a[1].AsInt() == -1)) {
    return FoundValue(std::string_view(s).substr(first), kJsonb, kText);
  }
  return Value::Null();
}

// A text[] path's steps; false when one is NULL.
bool PathOf(const Value& v, std::vector<std::string>* out) {
  for (const Value& e : v.AsArray()) {
    if (e.IsNull()) return false;
    out->push_back(e.AsString());
  }
  return true;
}

template <bool kJsonb, bool kText>
Result<Value> ExtractPath(Args a, ExecContext*) {
  std::vector<std::string> path;
  if (!PathOf(a[1], &path)) return Value::Null();
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], kJsonb));
  return Sub(json::AtPath(n, path), a[0].AsString(), kJsonb, kText);
}

// a @> b (Contained: b <@ a swapped); the template b is parsed, a is searched.
template <bool kSwap>
Result<Value> Contains(Args a, ExecContext*) {
  const Value& doc = a[kSwap ? 1 : 0];
  MERIDIAN_ASSIGN_OR_RETURN(Node t, ParseArg(a[kSwap ? 0 : 1], true));
  MERIDIAN_ASSIGN_OR_RETURN(bool c, json::ContainsText(doc.AsString(), t));
  return Value::Bool(c);
}

// jsonb[s]: one #> step (an object's key, or an array index written as text).
Result<Value> Subscript(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  return Sub(json::AtPath(n, {a[1].AsString()}), a[0].AsString(), true, false);
}

// The bytea that ORDER BY a jsonb expression sorts by (json::SortKey).
Result<Value> SortKeyFn(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  return Value::ByteaVal(json::SortKey(n));
}

Result<Value> Cmp(Args a, ExecContext*) {
  if (a[0].AsString() == a[1].AsString()) return Value::Int(0);
  MERIDIAN_ASSIGN_OR_RETURN(Node x, ParseArg(a[0], true));
  MERIDIAN_ASSIGN_OR_RETURN(Node y, ParseArg(a[1], true));
  return Value::Int(json::Compare(x, y));
}

// ?: a key of the top-level object, or a string element of the top-level array (or scalar).
bool HasKey(const Node& n, const std::string& key) {
  if (n.kind == Node::kObject) return json::Field(n, key) != nullptr;
  if (n.kind == Node::kArray) {
    for (const Node& e : n.items) {
      if (e.kind == Node::kString && e.text == key) return true;
    }
    return false;
  }
  return n.kind == Node::kString && n.text == key;
}

Result<Value> Exists(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  return Value::Bool(HasKey(n, a[1].AsString()));
}

template <bool kAll>
Result<Value> ExistsSome(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  for (const Value& k : a[1].AsArray()) {
    if (k.IsNull()) continue;  // NULL keys are skipped, as PostgreSQL does
    const bool has = HasKey(n, k.AsString());
    if (has && !kAll) return Value::Bool(true);
    if (!has && kAll) return Value::Bool(false);
  }
  return Value::Bool(kAll);
}

// jsonb || jsonb: objects merge (the right's keys win), arrays concatenate, and anything else
// is wrapped in an array first.
Result<Value> Concat(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node x, ParseArg(a[0], true));
  MERIDIAN_ASSIGN_OR_RETURN(Node y, ParseArg(a[1], true));
  if (x.kind == Node::kObject && y.kind == Node::kObject) {
    for (size_t i = 0; i < y.keys.size(); ++i) {
      x.keys.push_back(y.keys[i]);
      x.items.push_back(y.items[i]);
    }
    json::NormalizeObject(&x);
    return JsonbValue(x);
  }
  Node out;
  out.kind = Node::kArray;
  for (Node* p : {&x, &y}) {
    if (p->kind == Node::kArray) {
      for (Node& e : p->items) out.items.push_back(std::move(e));
    } else {
      out.items.push_back(std::move(*p));
    }
  }
  return JsonbValue(out);
}

Status CannotDeleteFromScalar() {
  return Status::Error(sqlstate::kInvalidParameterValue, "cannot delete from scalar");
}

void DeleteKey(Node* n, const std::string& key) {
  if (n->kind == Node::kObject) {
    for (size_t i = 0; i < n->keys.size(); ++i) {
      if (n->keys[i] == key) {
        n->keys.erase(n->keys.begin() + static_cast<long>(i));
        n->items.erase(n->items.begin() + static_cast<long>(i));
        return;
      }
    }
    return;
  }
  std::vector<Node> kept;
  for (Node& e : n->items) {
    if (!(e.kind == Node::kString && e.text == key)) kept.push_back(std::move(e));
  }
  n->items = std::move(kept);
}

Result<Value> Delete(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  if (n.kind != Node::kObject && n.kind != Node::kArray) return CannotDeleteFromScalar();
  DeleteKey(&n, a[1].AsString());
  return JsonbValue(n);
}

Result<Value> DeleteKeys(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  if (n.kind != Node::kObject && n.kind != Node::kArray) return CannotDeleteFromScalar();
  for (const Value& k : a[1].AsArray()) {
    if (!k.IsNull()) DeleteKey(&n, k.AsString());
  }
  return JsonbValue(n);
}

Result<Value> DeleteIndex(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  if (n.kind == Node::kObject) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "cannot delete from object using integer index");
  }
  if (n.kind != Node::kArray) return CannotDeleteFromScalar();
  long long i = a[1].AsInt();
  const auto size = static_cast<long long>(n.items.size());
  if (i < 0) i += size;
  if (i >= 0 && i < size) n.items.erase(n.items.begin() + static_cast<long>(i));
  return JsonbValue(n);
}

// A path step into an array: an integer, else 22P02 as PostgreSQL's jsonb_set/#- report it.
Result<long long> ArrayStep(const std::string& step, size_t position) {
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(step.c_str(), &end, 10);
  if (step.empty() || *end != '\0' || errno != 0) {
    return Status::Error(sqlstate::kInvalidTextRepresentation,
                         "path element at position " + std::to_string(position) +
                             " is not an integer: \"" + step + "\"");
  }
  return i;
}

// #-: removes the value at the path (nothing when the path is missing).
Status DeletePath(Node* n, const std::vector<std::string>& path, size_t level) {
  if (level >= path.size()) return Status::Ok();
  const bool last = level + 1 == path.size();
  if (n->kind == Node::kObject) {
    for (size_t i = 0; i < n->keys.size(); ++i) {
      if (n->keys[i] != path[level]) continue;
      if (last) {
        n->keys.erase(n->keys.begin() + static_cast<long>(i));
        n->items.erase(n->items.begin() + static_cast<long>(i));
        return Status::Ok();
      }
      return DeletePath(&n->items[i], path, level + 1);
    }
    return Status::Ok();
  }
  if (n->kind == Node::kArray) {
    MERIDIAN_ASSIGN_OR_RETURN(long long i, ArrayStep(path[level], level + 1));
    const auto size = static_cast<long long>(n->items.size());
    if (i < 0) i += size;
    if (i < 0 || i >= size) return Status::Ok();
    if (last) {
      n->items.erase(n->items.begin() + static_cast<long>(i));
      return Status::Ok();
    }
    return DeletePath(&n->items[static_cast<size_t>(i)], path, level + 1);
  }
  return Status::Ok();
}

Result<Value> DeletePathFn(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  if (n.kind != Node::kObject && n.kind != Node::kArray) {
    return Status::Error(sqlstate::kInvalidParameterValue, "cannot delete path in scalar");
  }
  std::vector<std::string> path;
  if (!PathOf(a[1], &path))
    return Status::Error(sqlstate::kNullValueNotAllowed, "path element at position 1 is null");
  MERIDIAN_RETURN_IF_ERROR(DeletePath(&n, path, 0));
  return JsonbValue(n);
}

// How SetPath treats the path's last step: jsonb_set replaces (kReplace, kReplaceOrAdd: adds
// a missing one), jsonb_insert adds before or after an array element, or a missing key.
enum class SetMode { kReplace, kReplaceOrAdd, kInsertBefore, kInsertAfter };

// jsonb_set / jsonb_insert at the path; a missing intermediate step leaves the document as it
// was.
Status SetPath(Node* n, const std::vector<std::string>& path, size_t level, const Node& value,
               SetMode mode) {
  const bool last = level + 1 == path.size();
  const bool insert = mode == SetMode::kInsertBefore || mode == SetMode::kInsertAfter;
  const bool create = mode != SetMode::kReplace;
  if (n->kind == Node::kObject) {
    for (size_t i = 0; i < n->keys.size(); ++i) {
      if (n->keys[i] != path[level]) continue;
      if (last) {
        if (insert) {
          return Status::Error(sqlstate::kInvalidParameterValue, "cannot replace existing key")
              .WithHint("Try using the function jsonb_set to replace key value.");
        }
        n->items[i] = value;
        return Status::Ok();
      }
      return SetPath(&n->items[i], path, level + 1, value, mode);
    }
    if (last && create) {
      n->keys.push_back(path[level]);
      n->items.push_back(value);
      json::NormalizeObject(n);
    }
    return Status::Ok();
  }
  if (n->kind == Node::kArray) {
    MERIDIAN_ASSIGN_OR_RETURN(long long i, ArrayStep(path[level], level + 1));
    const auto size = static_cast<long long>(n->items.size());
    if (i < 0) i += size;
    if (last && insert) {  // before (or after) element i; past either end: at that end
      long long at = mode == SetMode::kInsertAfter && i >= 0 && i < size ? i + 1 : i;
      at = std::min(std::max(at, 0LL), size);
      n->items.insert(n->items.begin() + static_cast<long>(at), value);
      return Status::Ok();
    }
    if (i >= 0 && i < size) {
      if (last) {
        n->items[static_cast<size_t>(i)] = value;
        return Status::Ok();
      }
      return SetPath(&n->items[static_cast<size_t>(i)], path, level + 1, value, mode);
    }
    if (last && create) {  // before the start: prepended; past the end: appended
      if (i < 0) {
        n->items.insert(n->items.begin(), value);
      } else {
        n->items.push_back(value);
      }
    }
    return Status::Ok();
  }
  return Status::Ok();
}

template <bool kInsert>
Result<Value> JsonbSet(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  MERIDIAN_ASSIGN_OR_RETURN(Node value, ParseArg(a[2], true));
  const bool flag = a.size() >= 4 && a[3].AsBool();  // create_missing / insert_after
  const bool add = a.size() < 4 || flag;
  const SetMode mode = kInsert ? (flag ? SetMode::kInsertAfter : SetMode::kInsertBefore)
                               : (add ? SetMode::kReplaceOrAdd : SetMode::kReplace);
  if (n.kind != Node::kObject && n.kind != Node::kArray) {
    return Status::Error(sqlstate::kInvalidParameterValue, "cannot set path in scalar");
  }
  std::vector<std::string> path;
  if (!PathOf(a[1], &path))
    return Status::Error(sqlstate::kNullValueNotAllowed, "path element at position 1 is null");
  if (path.empty()) return a[0];
  MERIDIAN_RETURN_IF_ERROR(SetPath(&n, path, 0, value, mode));
  return JsonbValue(n);
}

// json(b)_extract_path(j, VARIADIC steps): the value at the path (strict: a NULL step gives NULL).
template <bool kJsonb, bool kText>
Result<Value> ExtractPathVariadic(Args a, ExecContext*) {
  std::vector<std::string> path;
  for (size_t i = 1; i < a.size(); ++i) path.push_back(a[i].AsString());
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], kJsonb));
  return Sub(json::AtPath(n, path), a[0].AsString(), kJsonb, kText);
}

template <bool kJsonb>
Result<Value> TypeOf(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseSyntax(a[0], kJsonb));
  return Value::String(json::TypeName(n));
}

template <bool kJsonb>
Result<Value> ArrayLength(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseSyntax(a[0], kJsonb));
  if (n.kind == Node::kObject) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "cannot get array length of a non-array");
  }
  if (n.kind != Node::kArray)
    return Status::Error(sqlstate::kInvalidParameterValue, "cannot get array length of a scalar");
  return Value::Int(static_cast<int64_t>(n.items.size()));
}

Result<Value> Pretty(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], true));
  return Value::String(json::Pretty(n));
}

void StripNulls(Node* n) {
  if (n->kind == Node::kObject) {
    std::vector<std::string> keys;
    std::vector<Node> items;
    for (size_t i = 0; i < n->keys.size(); ++i) {
      if (n->items[i].kind == Node::kNull) continue;
      StripNulls(&n->items[i]);
      keys.push_back(std::move(n->keys[i]));
      items.push_back(std::move(n->items[i]));
    }
    n->keys = std::move(keys);
    n->items = std::move(items);
  } else if (n->kind == Node::kArray) {
    for (Node& e : n->items) StripNulls(&e);
  }
}

// json_strip_nulls writes json's compact form (no spaces); jsonb_strip_nulls the jsonb form.
void AppendCompact(const Node& n, std::string* out) {
  if (n.kind == Node::kArray || n.kind == Node::kObject) {
    const bool obj = n.kind == Node::kObject;
    out->push_back(obj ? '{' : '[');
    for (size_t i = 0; i < n.items.size(); ++i) {
      if (i > 0) out->push_back(',');
      if (obj) {
        json::AppendQuoted(n.keys[i], out);
        out->push_back(':');
      }
      AppendCompact(n.items[i], out);
    }
    out->push_back(obj ? '}' : ']');
    return;
  }
  json::AppendJsonb(n, out);
}

template <bool kJsonb>
Result<Value> StripNullsFn(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], kJsonb));
  StripNulls(&n);
  if (kJsonb) return JsonbValue(n);
  std::string out;
  AppendCompact(n, &out);
  return Value::String(std::move(out));
}

// to_json(text) / to_jsonb(text): a JSON string.
Result<Value> QuoteText(Args a, ExecContext*) {
  return Value::String(json::Quoted(a[0].AsString()));
}

// A JSON object of keys (text, not NULL: the callers checked) and values (json texts; NULL is
// null): jsonb normalised, json written as PostgreSQL's builders write it, between open and
// close ("{" and "}" for json_build_object, "{ " and " }" for json_object_agg).
template <bool kJsonb>
Result<Value> ObjectOf(const std::vector<std::pair<const Value*, const Value*>>& pairs,
                       const char* open, const char* close) {
  Node obj;
  obj.kind = Node::kObject;
  std::string out = open;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string value = pairs[i].second->IsNull() ? "null" : pairs[i].second->AsString();
    if (kJsonb) {
      MERIDIAN_ASSIGN_OR_RETURN(Node v, json::Parse(value, true));
      obj.keys.push_back(pairs[i].first->AsString());
      obj.items.push_back(std::move(v));
    } else {
      if (i > 0) out += ", ";
      json::AppendQuoted(pairs[i].first->AsString(), &out);
      out += " : ";
      out += value;
    }
  }
  if (kJsonb) {
    json::NormalizeObject(&obj);
    return JsonbValue(obj);
  }
  return Value::String(out + close);
}

// json_build_object(k1, v1, ...): the binder passed keys as text and values as json texts.
template <bool kJsonb>
Result<Value> BuildObject(Args a, ExecContext*) {
  std::vector<std::pair<const Value*, const Value*>> pairs;
  for (size_t i = 0; i + 1 < a.size(); i += 2) {
    if (a[i].IsNull()) {
      if (kJsonb) {
        return Status::Error(sqlstate::kInvalidParameterValue,
                             "argument " + std::to_string(i + 1) + ": key must not be null");
      }
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "argument " + std::to_string(i + 1) + " cannot be null")
          .WithHint("Object keys should be text.");
    }
    pairs.emplace_back(&a[i], &a[i + 1]);
  }
  return ObjectOf<kJsonb>(pairs, "{", "}");
}

// json_build_array(v1, ...) and json_agg's final function (values are json texts; NULL is null).
// json (not jsonb) puts "\n " before each element but the first of json_agg over records and
// arrays (kStructured), as PostgreSQL's json_agg_transfn does.
template <bool kJsonb, bool kStructured = false>
Result<Value> ArrayOf(const Value* values, size_t n) {
  if (kJsonb) {
    Node arr;
    arr.kind = Node::kArray;
    for (size_t i = 0; i < n; ++i) {
      if (values[i].IsNull()) {
        arr.items.emplace_back();
        continue;
      }
      MERIDIAN_ASSIGN_OR_RETURN(Node v, json::Parse(values[i].AsString(), true));
      arr.items.push_back(std::move(v));
    }
    return JsonbValue(arr);
  }
  std::string out = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    if (kStructured && i > 0 && !values[i].IsNull()) out += "\n ";
    out += values[i].IsNull() ? "null" : values[i].AsString();
  }
  return Value::String(out + "]");
}

template <bool kJsonb>
Result<Value> BuildArray(Args a, ExecContext*) {
  return ArrayOf<kJsonb>(a.data(), a.size());
}

template <bool kJsonb, bool kStructured = false>
Result<Value> AggFinal(Args a, ExecContext*) {
  const std::vector<Value>& v = a[0].AsArray();
  return ArrayOf<kJsonb, kStructured>(v.data(), v.size());
}

// json_object_agg's final function: the keys (text) and values (json) of the group's rows.
template <bool kJsonb>
Result<Value> ObjectAggFinal(Args a, ExecContext*) {
  const std::vector<Value>& keys = a[0].AsArray();
  const std::vector<Value>& values = a[1].AsArray();
  std::vector<std::pair<const Value*, const Value*>> pairs;
  for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
    if (keys[i].IsNull())
      return Status::Error(sqlstate::kInvalidParameterValue, "field name must not be null");
    pairs.emplace_back(&keys[i], &values[i]);
  }
  return ObjectOf<kJsonb>(pairs, "{ ", " }");
}

// The values behind json(b)_array_elements(_text), as a text[] that the binder's unnest walks.
template <bool kJsonb, bool kText>
Result<Value> ArrayElements(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], kJsonb));
  if (n.kind == Node::kObject) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "cannot extract elements from an object");
  }
  if (n.kind != Node::kArray) {
    return Status::Error(sqlstate::kInvalidParameterValue, "cannot extract elements from a scalar");
  }
  std::vector<Value> out;
  out.reserve(n.items.size());
  for (const Node& e : n.items) out.push_back(Sub(&e, a[0].AsString(), kJsonb, kText));
  return Value::Array(std::move(out));
}

// json(b)_each(_text): one (key, value) array per member, spread over two columns by
// FunctionScanOp.
template <bool kJsonb, bool kText>
Result<Value> Each(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], kJsonb));
  if (n.kind != Node::kObject) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         std::string("cannot call ") +
                             (kJsonb ? (kText ? "jsonb_each_text" : "jsonb_each")
                                     : (kText ? "json_each_text" : "json_each")) +
                             " on a non-object");
  }
  std::vector<Value> out;
  out.reserve(n.keys.size());
  for (size_t i = 0; i < n.keys.size(); ++i) {
    std::vector<Value> pair;
    pair.push_back(Value::String(n.keys[i]));
    pair.push_back(Sub(&n.items[i], a[0].AsString(), kJsonb, kText));
    out.push_back(Value::Array(std::move(pair)));
  }
  return Value::Array(std::move(out));
}

template <bool kJsonb>
Result<Value> ObjectKeys(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Node n, ParseArg(a[0], kJsonb));
  const char* fn = kJsonb ? "jsonb_object_keys" : "json_object_keys";
  if (n.kind == Node::kArray) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         std::string("cannot call ") + fn + " on an array");
  }
  if (n.kind != Node::kObject) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         std::string("cannot call ") + fn + " on a scalar");
  }
  std::vector<Value> out;
  for (const std::string& k : n.keys) out.push_back(Value::String(k));
  return Value::Array(std::move(out));
}

constexpr ScalarFunction kJsonFunctions[] = {
    // The functions of the operators (binder/bind_json.cc).
    {"json_object_field", "jt", 2, 'j', &ObjectField<false, false>},
    {"jsonb_object_field", "Jt", 2, 'J', &ObjectField<true, false>},
    {"json_object_field_text", "jt", 2, 't', &ObjectField<false, true>},
    {"jsonb_object_field_text", "Jt", 2, 't', &ObjectField<true, true>},
    {"json_array_element", "ji", 2, 'j', &ArrayElement<false, false>},
    {"jsonb_array_element", "Ji", 2, 'J', &ArrayElement<true, false>},
    {"json_array_element_text", "ji", 2, 't', &ArrayElement<false, true>},
    {"jsonb_array_element_text", "Ji", 2, 't', &ArrayElement<true, true>},
    {"json_extract_path_op", "jA", 2, 'j', &ExtractPath<false, false>},
    {"jsonb_extract_path_op", "JA", 2, 'J', &ExtractPath<true, false>},
    {"json_extract_path_text_op", "jA", 2, 't', &ExtractPath<false, true>},
    {"jsonb_extract_path_text_op", "JA", 2, 't', &ExtractPath<true, true>},
    {"jsonb_contains", "JJ", 2, 'b', &Contains<false>},
    {"jsonb_contained", "JJ", 2, 'b', &Contains<true>},
    {"jsonb_exists", "Jt", 2, 'b', &Exists},
    {"jsonb_exists_any", "JA", 2, 'b', &ExistsSome<false>},
    {"jsonb_exists_all", "JA", 2, 'b', &ExistsSome<true>},
    {"jsonb_concat", "JJ", 2, 'J', &Concat},
    {"jsonb_delete", "Jt", 2, 'J', &Delete},
    {"jsonb_delete_index", "Ji", 2, 'J', &DeleteIndex},
    {"jsonb_delete_keys", "JA", 2, 'J', &DeleteKeys},
    {"jsonb_delete_path", "JA", 2, 'J', &DeletePathFn},
    {"jsonb_cmp", "JJ", 2, 'i', &Cmp},
    {"jsonb_subscript", "Jt", 2, 'J', &Subscript},
    {"jsonb_sortkey", "J", 1, 'y', &SortKeyFn},
    // Constructors (called by the binder with arguments already in JSON form).
    {"to_json", "t", 1, 'j', &QuoteText},
    {"to_jsonb", "t", 1, 'J', &QuoteText},
    {"json_build_object", "x", 0, 'j', &BuildObject<false>, true, false},
    {"jsonb_build_object", "x", 0, 'J', &BuildObject<true>, true, false},
    {"json_build_array", "x", 0, 'j', &BuildArray<false>, true, false},
    {"jsonb_build_array", "x", 0, 'J', &BuildArray<true>, true, false},
    {"json_agg_finalfn", "x", 1, 'j', &AggFinal<false>},
    {"jsonb_agg_finalfn", "x", 1, 'J', &AggFinal<true>},
    {"json_agg_structured_finalfn", "x", 1, 'j', &AggFinal<false, true>},
    {"json_object_agg_finalfn", "xx", 2, 'j', &ObjectAggFinal<false>},
    {"jsonb_object_agg_finalfn", "xx", 2, 'J', &ObjectAggFinal<true>},
    // Plain functions.
    {"json_extract_path", "jt", 2, 'j', &ExtractPathVariadic<false, false>, true},
    {"jsonb_extract_path", "Jt", 2, 'J', &ExtractPathVariadic<true, false>, true},
    {"json_extract_path_text", "jt", 2, 't', &ExtractPathVariadic<false, true>, true},
    {"jsonb_extract_path_text", "Jt", 2, 't', &ExtractPathVariadic<true, true>, true},
    {"json_typeof", "j", 1, 't', &TypeOf<false>},
    {"jsonb_typeof", "J", 1, 't', &TypeOf<true>},
    {"json_array_length", "j", 1, 'i', &ArrayLength<false>},
    {"jsonb_array_length", "J", 1, 'i', &ArrayLength<true>},
    {"jsonb_pretty", "J", 1, 't', &Pretty},
    {"json_strip_nulls", "j", 1, 'j', &StripNullsFn<false>},
    {"jsonb_strip_nulls", "J", 1, 'J', &StripNullsFn<true>},
    {"jsonb_set", "JAJb", 3, 'J', &JsonbSet<false>},
    {"jsonb_insert", "JAJb", 3, 'J', &JsonbSet<true>},
    // The arrays walked by the set-returning functions (binder/bind_json.cc).
    {"json_array_elements_array", "j", 1, 'A', &ArrayElements<false, false>},
    {"jsonb_array_elements_array", "J", 1, 'A', &ArrayElements<true, false>},
    {"json_array_elements_text_array", "j", 1, 'A', &ArrayElements<false, true>},
    {"jsonb_array_elements_text_array", "J", 1, 'A', &ArrayElements<true, true>},
    {"json_object_keys_array", "j", 1, 'A', &ObjectKeys<false>},
    {"json_each_array", "j", 1, 'A', &Each<false, false>},
    {"jsonb_each_array", "J", 1, 'A', &Each<true, false>},
    {"json_each_text_array", "j", 1, 'A', &Each<false, true>},
    {"jsonb_each_text_array", "J", 1, 'A', &Each<true, true>},
    {"jsonb_object_keys_array", "J", 1, 'A', &ObjectKeys<true>},
};

}  // namespace

void RegisterJsonFunctions() { RegisterScalarFunctions(kJsonFunctions); }

}  // namespace meridian::exec
