// The plan cache of a prepared statement: its SELECT bound and planned once, the operator tree
// reused by later executions (Operator::Open restarts every operator; parameter values reach
// the tree through ExecContext::params, which the planner never reads).
//
// A cached plan is valid while Catalog::schema_version() is the one it was bound at (any DDL
// or ANALYZE changes it) and the execution supplies the same declared parameter types and
// number of values. Plans that read system tables are never cached (their rows are built from
// the catalog per statement). One execution uses a plan at a time: Take hands it out, the
// cursor gives it back when it is done; a second portal of the same statement meanwhile plans
// its own.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "catalog/table_lock.h"
#include "exec/operator.h"
#include "exec/params.h"
#include "meridian/database.h"

namespace meridian::exec {

struct CachedPlan {
  uint64_t schema_version = 0;
  std::vector<Type> declared;                // the declared parameter types it was bound with
  size_t supplied = 0;                       // the number of parameter values it was bound with
  ParamTypes types{std::vector<Type>{}, 0};  // final parameter types, for the values
  std::vector<ColumnInfo> columns;
  catalog::LockSet locks;  // its tables (shared locks), never held while cached
  bool locks_rows = false;
  bool quick_read = false;  // Request::QuickRead's conditions hold (set by PlanIsQuickRead)
  OperatorPtr root;
};

// Whether a planned SELECT is a quick read (Request::QuickRead): no row locks, and its tree is
// an equality lookup on every column of a unique index under projections and filters that
// evaluate no subquery.
bool PlanIsQuickRead(const CachedPlan& plan);

class PlanSlot {
 public:
  // The cached plan if it is valid for this execution (it leaves the slot), else null.
  std::unique_ptr<CachedPlan> Take(uint64_t schema_version, const StatementParams& params);
  // Gives a plan back after a run; kept unless the slot holds one already.
  void Give(std::unique_ptr<CachedPlan> plan);
  // Whether the slot holds a plan valid at schema_version that is a quick read.
  bool HoldsQuickRead(uint64_t schema_version);

 private:
  std::mutex mu_;
  std::unique_ptr<CachedPlan> idle_;  // guarded by mu_
};

}  // namespace meridian::exec
