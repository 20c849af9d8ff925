// Canonical key bytes: one tag byte per value, then a fixed or length-prefixed payload.
#include "execution/hash_key.h"

#include <cstring>

#include "storage/key_codec.h"

namespace meridian::exec {

void AppendKeyValue(const Value& v, std::string* out) {
  if (v.IsNull()) {
    out->push_back('N');
  } else if (v.IsBool()) {
    out->push_back(v.AsBool() ? 'T' : 'F');
  } else if (v.IsInt()) {
    out->push_back('I');
    int64_t i = v.AsInt();
    out->append(reinterpret_cast<const char*>(&i), sizeof(i));
  } else if (v.IsDouble()) {
    out->push_back('D');
    double d = v.AsDouble();
    if (d == 0) d = 0;  // -0.0 and 0.0 are the same key
    out->append(reinterpret_cast<const char*>(&d), sizeof(d));
  } else if (v.IsInterval()) {  // equal spans ('1 day', '24 hours') are equal, as interval_eq
    out->push_back('V');
    const __int128 span = datetime::IntervalSpan(v.AsInterval());
    out->append(reinterpret_cast<const char*>(&span), sizeof(span));
  } else if (v.IsDecimal() || v.IsDate() || v.IsTimestamp() || v.IsReal() || v.IsTimestampTz() ||
             v.IsTime()) {
    // The order-preserving index encoding: normalized, so 1.5 and 1.50 are the same key.
    out->push_back('K');
    storage::AppendKeyValue(v, false, out);
  } else if (v.IsArray()) {  // element count, then each element's key
    out->push_back('A');
    uint32_t n = static_cast<uint32_t>(v.AsArray().size());
    out->append(reinterpret_cast<const char*>(&n), sizeof(n));
    for (const Value& e : v.AsArray()) AppendKeyValue(e, out);
  } else if (v.IsRecord()) {  // field count, then each field's key
    out->push_back('R');
    uint32_t n = static_cast<uint32_t>(v.AsRecord().fields.size());
    out->append(reinterpret_cast<const char*>(&n), sizeof(n));
    for (const Value& f : v.AsRecord().fields) AppendKeyValue(f, out);
  } else if (v.IsUuid()) {
    out->push_back('U');
    out->append(reinterpret_cast<const char*>(v.AsUuid().bytes.data()), 16);
  } else if (v.IsBytea()) {
    out->push_back('B');
    uint32_t n = static_cast<uint32_t>(v.AsBytea().size());
    out->append(reinterpret_cast<const char*>(&n), sizeof(n));
    out->append(v.AsBytea());
  } else {
    out->push_back('S');
    uint32_t n = static_cast<uint32_t>(v.AsString().size());
    out->append(reinterpret_cast<const char*>(&n), sizeof(n));
    out->append(v.AsString());
  }
}

std::string EncodeKey(const std::vector<Value>& values) {
  std::string out;
  for (const Value& v : values) AppendKeyValue(v, &out);
  return out;
}

}  // namespace meridian::exec
