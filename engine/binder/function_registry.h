// The registry of built-in scalar functions: each function is one ScalarFunction entry (name,
// argument kinds, result kind, evaluation) registered by its family's file in engine/function/
// (RegisterBuiltinFunctions, function/builtin.h). The binder resolves a call against the entries
// of its name (BindRegisteredFunction) and binds it as Func::kRegistered holding the entry; the
// evaluator evaluates the arguments and calls the entry's eval. Older functions still live in
// the Func switch (bind_function.cc, evaluator.cc) until they move here.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::exec {

struct ExecContext;

// Argument and result kinds, one character each:
//   't' text (an untyped literal too)      'i' integer      'l' bigint       'b' boolean
//   'N' numeric (integral arguments are not accepted: the float8 entry of the same name is)
//   'F' double precision (any number converts)   'x' any type (an untyped literal is text)
//   'y' bytea   'u' uuid   'j' json   'J' jsonb   'A' text[]   'p' point   'B' box
//   'r' regclass: a relation's name (text) or oid (bigint), as passed
//   'D' date   'S' timestamp (a date converts)   'Z' timestamptz   'V' interval
//   'I' integer[] (smallint[] converts)
//   'a' any array, 'e' any non-array (PostgreSQL's anycompatiblearray / anycompatible): the
//       'a' arguments' element types and the 'e' arguments' types have one common type (text
//       when all are untyped), to which they are converted; a result 'a' is its array type, a
//       result 'e' the type itself
struct ScalarFunction {
  const char* name;
  const char* args;  // one kind per argument
  size_t required;   // arguments past this many are optional
  char result;
  // Result<Value> eval(args, exec): args has one value per argument written (NULLs only when
  // strict is false); exec may be null (constant evaluation without a statement).
  Result<Value> (*eval)(std::span<const Value> args, ExecContext* exec);
  bool variadic = false;     // the last kind repeats: any number of further arguments
  bool strict = true;        // a NULL argument gives NULL without calling eval
  bool is_volatile = false;  // differs between calls with the same arguments (random, clock)
  // Depends on session settings (TimeZone): PostgreSQL's STABLE, so not in index expressions.
  bool is_stable = false;
};

// Adds entries (static storage: the registry keeps pointers). Entries of one name are tried in
// registration order. Called once at startup (RegisterBuiltinFunctions), before any session
// binds a statement: the registry does not change afterwards.
void RegisterScalarFunctions(std::span<const ScalarFunction> functions);
// The entries named name, in registration order; null when none. The list stays valid (the
// registry only grows, at startup).
const std::vector<const ScalarFunction*>* FindScalarFunctions(std::string_view name);
// The type a kind stands for ('x' has none: Unknown).
Type ScalarKindType(char kind);

}  // namespace meridian::exec
