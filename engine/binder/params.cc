// Parameter types and value conversion (see params.h). Conversion goes through CastValue, the
// same routine as CAST: strings use the target type's input rules, as PostgreSQL's text-format
// parameters do.
#include "binder/params.h"

#include <string>

#include "binder/type_rules.h"

namespace meridian::exec {

namespace {

// The type a parameter takes from a context wanting t: PostgreSQL's parameter types carry no
// modifier (the length of varchar(n) is checked where the value is assigned).
Type Unmodified(Type t) {
  t.modifier = -1;
  return t;
}

// The static type a supplied value has on its own; strings are unknown (input functions).
Type TypeOfValue(const Value& v) {
  if (v.IsBool()) return Type::Boolean();
  if (v.IsInt()) return Type::BigInt();
  if (v.IsDouble()) return Type::Double();
  if (v.IsBytea()) return Type::Bytea();  // a binary parameter of a bytea or uuid declaration
  if (v.IsUuid()) return Type::Uuid();
  return Type::Unknown();
}

}  // namespace

ParamTypes::ParamTypes(const std::vector<Type>& declared, size_t supplied) : supplied_(supplied) {
  for (const Type& t : declared) types_.push_back(Unmodified(t));
}

Result<Type> ParamTypes::Lookup(int n, uint32_t position) {
  if (n < 1 || static_cast<size_t>(n) > supplied_) {
    return Status::Error(sqlstate::kUndefinedParameter,
                         "there is no parameter $" + std::to_string(n))
        .WithPosition(position);
  }
  if (types_.size() < static_cast<size_t>(n)) types_.resize(n, Type::Unknown());
  return types_[n - 1];
}

Type ParamTypes::Infer(int n, Type to) {
  if (types_.size() < static_cast<size_t>(n)) types_.resize(n, Type::Unknown());
  Type& t = types_[n - 1];
  if (t.id == TypeId::kUnknown) t = Unmodified(to);
  return t;
}

std::vector<Type> ParamTypes::Finish() const {
  std::vector<Type> out = types_;
  if (supplied_ != kNoLimit && out.size() < supplied_) out.resize(supplied_, Type::Unknown());
  for (Type& t : out) {
    if (t.id == TypeId::kUnknown) t = Type::Text();
  }
  return out;
}

Result<std::vector<Value>> ParamTypes::Convert(const std::vector<Value>& values) const {
  std::vector<Type> types = Finish();
  std::vector<Value> out;
  out.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    const Type to = i < types.size() ? types[i] : Type::Text();
    MERIDIAN_ASSIGN_OR_RETURN(Value converted,
                              CastValue(v, TypeOfValue(v), to, /*explicit_cast=*/true));
    out.push_back(std::move(converted));
  }
  return out;
}

}  // namespace meridian::exec
