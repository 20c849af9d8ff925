// The scalar function registry (function_registry.h).
#include "binder/function_registry.h"

#include <map>
#include <mutex>
#include <string>

namespace meridian::exec {

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::vector<const ScalarFunction*>, std::less<>> by_name;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry;  // never destroyed: used until exit
  return *registry;
}

}  // namespace

void RegisterScalarFunctions(std::span<const ScalarFunction> functions) {
  Registry& r = TheRegistry();
  std::lock_guard lock(r.mu);
  for (const ScalarFunction& f : functions) r.by_name[f.name].push_back(&f);
}

const std::vector<const ScalarFunction*>* FindScalarFunctions(std::string_view name) {
  Registry& r = TheRegistry();
  std::lock_guard lock(r.mu);
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : &it->second;
}

Type ScalarKindType(char kind) {
  switch (kind) {
    case 't':
      return Type::Text();
    case 'i':
      return Type::Integer();
    case 'l':
      return Type::BigInt();
    case 'b':
      return Type::Boolean();
    case 'N':
      return Type::Numeric();
    case 'F':
      return Type::Double();
    case 'y':
      return Type::Bytea();
    case 'u':
      return Type::Uuid();
    case 'A':
      return Type{TypeId::kArray, -1, TypeId::kText};
    case 'j':
      return Type::Json();
    case 'J':
      return Type::Jsonb();
    case 'p':
      return Type::Point();
    case 'B':
      return Type::Box();
    case 'D':
      return Type::Date();
    case 'S':
      return Type::Timestamp();
    case 'Z':
      return Type::TimestampTz();
    case 'V':
      return Type::Interval();
    default:
      return Type::Unknown();
  }
}

}  // namespace meridian::exec
