// The built-in types as pg_type lists them (pg_type.cc): oid, name, format_type's name, length,
// category and array type. Every Type the engine has is here (Type::PgOid gives its oid), and
// a few that only catalogs use (name, oid, regclass, int2vector, ...).
#pragma once

#include <cstdint>
#include <span>

#include "meridian/value.h"

namespace meridian::catalog::system {

struct BuiltinType {
  int64_t oid;
  const char* name;      // typname
  const char* display;   // format_type
  int len;               // typlen: -1 variable length, -2 C string
  const char* category;  // typcategory
  int64_t array_oid;     // typarray (0: none)
};

// In pg_type's row order.
std::span<const BuiltinType> BuiltinTypes();
// The built-in type with this oid (not an array type's), or nullptr.
const BuiltinType* FindBuiltinType(int64_t oid);
// pg_type.typlen of a type (-1 for the array and unknown ones).
int TypLen(Type t);

}  // namespace meridian::catalog::system
