// Type names, OIDs and the text form of values (PostgreSQL's output functions).
#include "meridian/value.h"

#include <charconv>
#include <cmath>

namespace meridian {

std::string Type::Name() const {
  switch (id) {
    case TypeId::kUnknown:
      return "unknown";
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInteger:
      return "integer";
    case TypeId::kBigInt:
      return "bigint";
    case TypeId::kDouble:
      return "double precision";
    case TypeId::kText:
      return "text";
    case TypeId::kVarchar:
      return "character varying";
  }
  return "unknown";
}

std::string Type::DisplayName() const {
  if (id == TypeId::kVarchar && modifier >= 0) {
    return Name() + "(" + std::to_string(modifier) + ")";
  }
  return Name();
}

uint32_t Type::PgOid() const {
  switch (id) {
    case TypeId::kUnknown:
      return 705;
    case TypeId::kBoolean:
      return 16;
    case TypeId::kInteger:
      return 23;
    case TypeId::kBigInt:
      return 20;
    case TypeId::kDouble:
      return 701;
    case TypeId::kText:
      return 25;
    case TypeId::kVarchar:
      return 1043;
  }
  return 705;
}

std::optional<Type> Type::FromParamOid(uint32_t oid) {
  switch (oid) {
    case 0:
    case 705:   // unknown
    case 1700:  // numeric
      return Unknown();
    case 16:
      return Boolean();
    case 21:  // int2
    case 23:
      return Integer();
    case 20:
      return BigInt();
    case 700:  // float4
    case 701:
      return Double();
    case 19:  // name
    case 25:
    case 1042:  // bpchar
      return Text();
    case 1043:
      return Varchar(-1);
    default:
      return std::nullopt;
  }
}

std::string Value::ToString() const {
  switch (rep_.index()) {
    case 0:
      return "";
    case 1:
      return AsBool() ? "t" : "f";
    case 2:
      return std::to_string(AsInt());
    case 3: {
      double d = AsDouble();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof(buf), d);  // shortest round-trip form
      return std::string(buf, r.ptr);
    }
    default:
      return AsString();
  }
}

}  // namespace meridian
