// Statement parameters ($1, $2, ...) inside exec/: the table of parameter types that the binder
// fills while binding (declared by the caller, else taken from the first context that gives
// one, PostgreSQL's rules), and the conversion of the supplied values to those types when the
// statement starts. Evaluation reads the converted values from ExecContext::params.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "meridian/database.h"
#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::exec {

class ParamTypes {
 public:
  // No limit on $n: describing a statement, whose parameters are whatever it references.
  static constexpr size_t kNoLimit = SIZE_MAX;

  // declared: types of $1.. (Unknown = infer); supplied: number of values ($n beyond it is
  // 42P02), or kNoLimit.
  ParamTypes(const std::vector<Type>& declared, size_t supplied);
  // For an execution with these values and declared types.
  explicit ParamTypes(const StatementParams& params)
      : ParamTypes(params.types, params.values.size()) {}

  // The type of $n (1-based) so far: Unknown while not inferred. 42P02 "there is no parameter
  // $n" (at position) beyond the supplied values.
  Result<Type> Lookup(int n, uint32_t position);
  // Infers $n's type from a context that wants `to` (varchar(n) gives varchar) unless it is
  // known already; returns $n's type.
  Type Infer(int n, Type to);
  // The final types: still unknown ones become text; at least `supplied` entries.
  std::vector<Type> Finish() const;
  // The supplied values converted to the final types (22P02, 22003 on bad input).
  Result<std::vector<Value>> Convert(const std::vector<Value>& values) const;

 private:
  std::vector<Type> types_;  // index n - 1
  size_t supplied_;
};

}  // namespace meridian::exec
