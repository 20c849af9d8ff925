// The Volcano-style physical operator interface and the contexts expressions evaluate in.
// An operator tree is owned by one running statement and used by one thread at a time (it may
// change threads between calls). Open (re)starts it; Next produces one row at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meridian/database.h"
#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::catalog {
class Catalog;
class Transaction;
}  // namespace meridian::catalog

namespace meridian::exec {

class SessionSettings;

// Per-statement execution state shared by its operators. ctl is re-pointed at every Fetch
// (the caller's ExecControl) and is polled between rows. params: the values of $1..$n,
// already converted to the parameters' types (binder/params.h).
// settings: the session's run-time parameters and identity (current_setting, set_config,
// current_user, ...); catalog: for the system-catalog functions (::regclass, format_type, ...).
// txn: the transaction the statement runs in, with the snapshot its scans read (null: no
// MVCC filtering, e.g. system tables only); writers record their versions in it.
// run: this execution's number, unique in the process; what an execution keeps in a plan
// (an uncorrelated subquery's rows) is only valid in the run that stored it, because a cached
// plan (plan_cache.h) runs again with new values and new snapshots.
struct ExecContext {
  ExecControl* ctl = nullptr;
  std::vector<Value> params;
  SessionSettings* settings = nullptr;
  catalog::Catalog* catalog = nullptr;
  catalog::Transaction* txn = nullptr;
  uint64_t run = NextRun();
  // INSERT / UPDATE / DELETE ... RETURNING: where the executor puts the returned rows (null
  // when the statement has no RETURNING).
  std::vector<Row>* returned = nullptr;

  static uint64_t NextRun() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
};

// Where an expression finds its column values: row at depth 0, outer->row at depth 1, ...
struct EvalContext {
  const Row* row = nullptr;
  const EvalContext* outer = nullptr;
  ExecContext* exec = nullptr;
};

class Operator {
 public:
  virtual ~Operator() = default;
  // (Re)starts the operator. outer: the enclosing query's row context (correlated subqueries;
  // null at top level); it and exec must stay valid until the operator is exhausted or
  // re-opened.
  virtual Status Open(const EvalContext* outer, ExecContext* exec) = 0;
  // Produces the next row into *row (overwriting what it held; its storage may be reused);
  // false at the end.
  virtual Result<bool> Next(Row* row) = 0;
  // Column pruning, at most once after planning and before Open: the consumer reads only the
  // output columns i with needed[i] (needed has the output width), so the operator may leave the
  // others NULL and pass narrower needs on to its inputs (a scan then decodes only what is
  // needed). The default keeps every column and tells its inputs nothing: they produce all of
  // theirs. Overrides must count every column their own expressions read.
  virtual void PruneColumns(const std::vector<bool>& needed) { (void)needed; }
  // Whether the operator may run as part of a quick statement (Request::QuickRead) on a thread
  // that must not block: it evaluates no subquery, waits for nothing under ExecControl::no_wait
  // (a lock refuses with WouldBlock), and its work is bounded by the rows its scans read, which
  // they charge to the quick budget (ExecControl::SpendQuick: past it, WouldBlock). Index scans
  // of any key shape, small tables' heap scans (a grown heap refuses at Open), and the
  // operators above them that hold no other source of work (filter, projection, trim, joins,
  // aggregation, sort, distinct, limit) can say yes; function scans, recursion, windows and
  // R-tree scans say no.
  virtual bool QuickRead() const { return false; }
  // A line EXPLAIN ANALYZE prints under the node once it ran (a sort's method and memory or
  // disk, as PostgreSQL's "Sort Method: ..."); empty for none.
  virtual std::string AnalyzeDetail() const { return {}; }
};

using OperatorPtr = std::unique_ptr<Operator>;

// How often (in rows) long-running loops poll ExecControl::Check.
inline constexpr int kCheckInterval = 256;

}  // namespace meridian::exec
