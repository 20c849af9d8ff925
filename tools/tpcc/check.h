// The twelve consistency conditions of TPC-C clause 3.3.2, each printed as PASS/FAIL with the
// number of offending warehouses, districts, orders or customers. The server computes
// aggregates with plain GROUP BY queries; the comparisons run here, so no statement needs a
// correlated subquery or an outer join.
#pragma once

#include "session.h"

namespace tpcc {

// Prints one line per condition; returns the number that failed. Throws DbError.
int CheckConsistency(Session& session);

}  // namespace tpcc
