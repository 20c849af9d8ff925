// The plan cache of a prepared statement: its statement bound and planned once, reused by later
// executions. A SELECT keeps its operator tree (Operator::Open restarts every operator);
// INSERT, UPDATE and DELETE keep their bound statement with its row source planned (INSERT's
// VALUES or SELECT tree, the access path of UPDATE's / DELETE's WHERE). Parameter values reach a
// plan only through ExecContext::params, which the planner never reads, and what one run keeps
// in a plan (an uncorrelated subquery's rows) is tied to that run (ExecContext::run).
//
// A cached plan is valid while Catalog::schema_version() is the one it was bound at (any DDL,
// TRUNCATE or ANALYZE changes it) and the execution supplies the same declared parameter types
// and number of values. A DML plan is checked again once the statement holds its table locks
// (DDL waits for those): a version changed meanwhile makes it bind and plan anew, so it never
// writes through a stale table, index or column position. Plans that read system tables are
// never cached (their rows are built from the catalog per statement). One execution uses a plan
// at a time: Take hands it out and the run gives it back when it is done (a SELECT's cursor when
// the query ends, DML when the statement ends, failed or not); a second portal of the same
// statement meanwhile plans its own.
#pragma once

#include <atomic>
#include <memory>
#include <variant>
#include <vector>

#include "binder/bound_statement.h"
#include "binder/params.h"
#include "catalog/table_lock.h"
#include "execution/operator.h"
#include "meridian/database.h"
#include "meridian/thread_annotations.h"

namespace meridian::exec {

struct CachedPlan {
  uint64_t schema_version = 0;
  std::vector<Type> declared;                // the declared parameter types it was bound with
  size_t supplied = 0;                       // the number of parameter values it was bound with
  ParamTypes types{std::vector<Type>{}, 0};  // final parameter types, for the values
  catalog::LockSet locks;                    // its tables (shared locks), never held while cached
  // A SELECT:
  std::vector<ColumnInfo> columns;
  bool locks_rows = false;
  bool quick_read = false;   // Request::QuickRead's conditions hold (set by PlanIsQuickRead)
  bool quick_write = false;  // Request::QuickWrite's plan conditions hold (PlanIsQuickWrite;
                             // for a SELECT: it locks rows, as a quick read would read them)
  OperatorPtr root;
  // An INSERT, UPDATE or DELETE: the bound statement, planned.
  std::variant<std::monostate, std::unique_ptr<BoundInsert>, std::unique_ptr<BoundUpdate>,
               std::unique_ptr<BoundDelete>>
      modify;
};

// Whether a planned SELECT is a quick read (Request::QuickRead): no row locks, and its tree
// says so (Operator::QuickRead: index scans and small tables' scans under operators that add
// no other work, no subquery); its work is bounded at run time by ExecControl::SpendQuick.
// A run refused for spending that budget clears quick_read on the plan (statement.cc).
bool PlanIsQuickRead(const CachedPlan& plan);

// Whether a planned INSERT, UPDATE or DELETE is a quick write (Request::QuickWrite): an INSERT
// of one VALUES row without ON CONFLICT, or an UPDATE/DELETE whose rows are found by a quick
// scan (an index scan of any key shape, within the quick budget) or by a heap scan of a small
// table (SeqScanOp::SmallTable; it refuses under no_wait when the heap has grown); no
// expression of it (values, WHERE, SET, RETURNING, CHECK, defaults) evaluates a subquery.
// A planned SELECT is a quick write when it locks rows (FOR UPDATE/SHARE) and its tree is a
// quick read's (Operator::QuickRead): TPC-C's New-Order locks its district and stock rows so.
bool PlanIsQuickWrite(const CachedPlan& plan);

class PlanSlot {
 public:
  // The cached plan if it is valid for this execution (it leaves the slot, counted as reused),
  // else null.
  std::unique_ptr<CachedPlan> Take(uint64_t schema_version, const StatementParams& params);
  // Gives a plan back after a run; kept unless the slot holds one already.
  void Give(std::unique_ptr<CachedPlan> plan);
  // Whether the slot holds a plan valid at schema_version that is a quick read.
  bool HoldsQuickRead(uint64_t schema_version);
  // Whether the idle plan is valid at schema_version and a quick write (PlanIsQuickWrite).
  bool HoldsQuickWrite(uint64_t schema_version);
  // Counts an execution that bound and planned.
  void NotePlanned() { planned_.fetch_add(1, std::memory_order_relaxed); }
  PlanCacheStats stats() const {
    return {reused_.load(std::memory_order_relaxed), planned_.load(std::memory_order_relaxed)};
  }

 private:
  Mutex mu_;
  std::unique_ptr<CachedPlan> idle_ GUARDED_BY(mu_);
  std::atomic<uint64_t> reused_{0};
  std::atomic<uint64_t> planned_{0};
};

}  // namespace meridian::exec
