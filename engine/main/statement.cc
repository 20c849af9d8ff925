// StartStatement and the cursor kinds: SelectCursor (Volcano pull under per-Fetch shared
// table locks), DoneCursor (a statement that already completed: DML, DDL) and TextCursor
// (EXPLAIN's lines).
#include "main/statement.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "binder/binder.h"
#include "binder/params.h"
#include "catalog/namespace.h"
#include "catalog/table_lock.h"
#include "commands/ddl.h"
#include "commands/utility_statements.h"
#include "execution/modify_table.h"
#include "execution/recursive_union.h"
#include "function/sequence.h"
#include "main/ddl_undo.h"
#include "main/plan_cache.h"
#include "main/prepared.h"
#include "main/session_settings.h"
#include "main/transaction_block.h"
#include "optimizer/access_path.h"
#include "planner/planner.h"

namespace meridian::exec {

namespace {

// The WITH list of a SELECT / INSERT / UPDATE / DELETE (null for other statements).
const std::vector<ast::CommonTableExpr>* StatementWith(const ast::Statement& stmt) {
  switch (stmt.kind) {
    case ast::StatementKind::kSelect:
      return &stmt.select->with;
    case ast::StatementKind::kInsert:
      return &stmt.insert->with;
    case ast::StatementKind::kUpdate:
      return &stmt.update->with;
    case ast::StatementKind::kDelete:
      return &stmt.del->with;
    default:
      return nullptr;
  }
}

// The first data-modifying WITH query of stmt's WITH list, or null.
const ast::CommonTableExpr* FirstModifyingCte(const ast::Statement& stmt) {
  const std::vector<ast::CommonTableExpr>* with = StatementWith(stmt);
  if (with == nullptr) return nullptr;
  for (const ast::CommonTableExpr& cte : *with) {
    if (cte.statement != nullptr) return &cte;
  }
  return nullptr;
}

class DoneCursor : public QueryCursor {
 public:
  DoneCursor(std::string tag, uint64_t rows, std::string notice, std::string notice_state = {})
      : tag_(std::move(tag)),
        rows_(rows),
        notice_(std::move(notice)),
        notice_state_(std::move(notice_state)) {}
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  Result<bool> Fetch(size_t, size_t, ExecControl&, std::vector<Row>*) override { return false; }
  std::string CommandTag() const override { return tag_; }
  uint64_t RowCount() const override { return rows_; }
  std::string Notice() const override { return notice_; }
  std::string NoticeSqlstate() const override { return notice_state_; }

 private:
  std::vector<ColumnInfo> columns_;
  std::string tag_;
  uint64_t rows_;
  std::string notice_;
  std::string notice_state_;
};

// One text column of precomputed lines (EXPLAIN).
class TextCursor : public QueryCursor {
 public:
  TextCursor(std::string column, std::vector<std::string> lines, std::string tag)
      : columns_{ColumnInfo{std::move(column), Type::Text(), false}},
        lines_(std::move(lines)),
        tag_(std::move(tag)) {}
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  Result<bool> Fetch(size_t max_rows, size_t, ExecControl&, std::vector<Row>* out) override {
    while (next_ < lines_.size() && (max_rows == 0 || out->size() < max_rows)) {
      out->push_back(Row{Value::String(lines_[next_++])});
    }
    return next_ < lines_.size();
  }
  std::string CommandTag() const override { return tag_; }
  uint64_t RowCount() const override { return lines_.size(); }

 private:
  std::vector<ColumnInfo> columns_;
  std::vector<std::string> lines_;
  std::string tag_;
  size_t next_ = 0;
};

// The rows of INSERT / UPDATE / DELETE ... RETURNING, computed when the statement ran; the
// tag stays the statement's (INSERT 0 n, UPDATE n, DELETE n), as in PostgreSQL.
class ReturningCursor : public QueryCursor {
 public:
  ReturningCursor(std::vector<ColumnInfo> columns, std::vector<Row> rows, std::string tag,
                  uint64_t count)
      : columns_(std::move(columns)), rows_(std::move(rows)), tag_(std::move(tag)), count_(count) {}
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  Result<bool> Fetch(size_t max_rows, size_t, ExecControl&, std::vector<Row>* out) override {
    while (next_ < rows_.size() && (max_rows == 0 || out->size() < max_rows)) {
      out->push_back(std::move(rows_[next_++]));
    }
    return next_ < rows_.size();
  }
  std::string CommandTag() const override { return tag_; }
  uint64_t RowCount() const override { return count_; }

 private:
  std::vector<ColumnInfo> columns_;
  std::vector<Row> rows_;
  std::string tag_;
  uint64_t count_;
  size_t next_ = 0;
};

class SelectCursor : public QueryCursor {
 public:
  ~SelectCursor() override { Finish(); }
  catalog::LockSet& locks() { return locks_; }
  // A plan (its tree in root_) to give back to slot when the query is done.
  void CachePlan(std::unique_ptr<CachedPlan> plan, std::shared_ptr<PlanSlot> slot) {
    plan_ = std::move(plan);
    slot_ = std::move(slot);
  }
  void Init(std::vector<ColumnInfo> columns, OperatorPtr root, std::vector<Value> params,
            SessionSettings* settings, catalog::Catalog* catalog,
            std::shared_ptr<SessionSettings> own_settings,
            std::shared_ptr<catalog::Transaction> txn) {
    own_settings_ = std::move(own_settings);
    txn_ = std::move(txn);
    exec_.txn = txn_.get();
    if (txn_ != nullptr) snapshot_ = txn_->snapshot();
    columns_ = std::move(columns);
    root_ = std::move(root);
    exec_.params = std::move(params);
    exec_.settings = settings;
    exec_.catalog = catalog;
  }
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  std::string CommandTag() const override { return "SELECT " + std::to_string(rows_); }
  uint64_t RowCount() const override { return rows_; }

  // Runs the whole query now (SELECT ... FOR UPDATE: every row is locked, and a serialization
  // failure surfaces, before the first row reaches the client); Fetch then serves the rows.
  // An error goes back to StartStatement, which may run the statement again (40001 at READ
  // COMMITTED) or fails the transaction block itself, so it does not fail the block here.
  Status Materialize(ExecControl& ctl) {
    std::vector<Row> rows;
    MERIDIAN_RETURN_IF_ERROR(RunChunk(0, 0, ctl, &rows));
    buffered_ = std::move(rows);
    materialized_ = true;
    return Status::Ok();
  }

  Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                     std::vector<Row>* out) override {
    if (materialized_) {
      while (next_buffered_ < buffered_.size() && (max_rows == 0 || out->size() < max_rows)) {
        out->push_back(std::move(buffered_[next_buffered_++]));
      }
      return next_buffered_ < buffered_.size();
    }
    if (done_) return false;
    Status st = RunChunk(max_rows, max_bytes, ctl, out);
    // Refused under ExecControl::no_wait (a table lock not free, the quick budget spent): this
    // is the statement's first Fetch and nothing reached the client; the caller drops this
    // cursor and runs the statement again, so the transaction block stays as it was.
    if ((!opened_ || ctl.no_wait()) && ExecControl::IsWouldBlock(st)) return st;
    if (!st.ok()) {
      // An error inside a transaction block fails the block (25P02 until ROLLBACK).
      if (exec_.settings != nullptr) exec_.settings->txn_block().MarkFailed(txn_.get());
      return st;
    }
    return !done_;
  }

 private:
  // Up to max_rows rows / max_bytes bytes (0: no limit) into out; the statement's table locks
  // are released after each chunk, and the plan after an error.
  // A cursor read lazily reads with its own statement's snapshot, even when later statements
  // of its READ COMMITTED transaction took newer ones between two fetches (PostgreSQL: a
  // portal keeps its snapshot); left open after a chunk, it holds that snapshot against
  // garbage collection (TxnManager::HoldSnapshot) until it finishes.
  Status RunChunk(size_t max_rows, size_t max_bytes, ExecControl& ctl, std::vector<Row>* out) {
    // Statements since the last chunk may have written what rests on commits not yet durable
    // (a plain UPDATE reads through them); this query sees its transaction's own writes.
    if (opened_ && txn_ != nullptr) MERIDIAN_RETURN_IF_ERROR(txn_->AwaitDependencies(&ctl));
    if (txn_ != nullptr) txn_->SwapSnapshot(&snapshot_);
    Status st = Run(max_rows, max_bytes, ctl, out);
    if (txn_ != nullptr) txn_->SwapSnapshot(&snapshot_);
    locks_.ReleaseAll();
    // Refused for reading more rows than a quick read may: the plan goes back to its cache
    // marked not quick, so later executions go to the pool at once instead of wasting a
    // budget's work each time (until DDL or ANALYZE replans it).
    if (plan_ != nullptr && ExecControl::IsWouldBlock(st) && ctl.quick_budget_spent()) {
      plan_->quick_read = false;
      plan_->quick_write = false;  // a locking read's
    }
    if (!st.ok()) Finish();
    if (!done_ && !held_ && txn_ != nullptr) {
      // No other statement of the transaction ran since this one's snapshot: nothing it needs
      // was collectable yet.
      txn_->manager()->HoldSnapshot(snapshot_.read_ts);
      held_ = true;
    }
    return st;
  }

  Status Run(size_t max_rows, size_t max_bytes, ExecControl& ctl, std::vector<Row>* out) {
    exec_.ctl = &ctl;
    MERIDIAN_RETURN_IF_ERROR(ctl.Check());
    MERIDIAN_RETURN_IF_ERROR(locks_.AcquireAll(&ctl));
    if (!opened_) {
      MERIDIAN_RETURN_IF_ERROR(root_->Open(nullptr, &exec_));
      opened_ = true;
    }
    size_t n = 0, bytes = 0;
    Row row;
    while ((max_rows == 0 || n < max_rows) && (max_bytes == 0 || bytes < max_bytes)) {
      if ((n + 1) % kCheckInterval == 0) MERIDIAN_RETURN_IF_ERROR(ctl.Check());
      MERIDIAN_ASSIGN_OR_RETURN(bool more, root_->Next(&row));
      if (!more) {
        Finish();
        return Status::Ok();
      }
      for (const Value& v : row) bytes += v.ByteSize();
      out->push_back(std::move(row));
      ++n;
      ++rows_;
    }
    return Status::Ok();
  }
  void Finish() {
    done_ = true;
    if (held_) {
      txn_->manager()->ReleaseSnapshot(snapshot_.read_ts);
      held_ = false;
    }
    // Drops the plan's table references early, or returns the plan to its statement's cache.
    if (slot_ != nullptr && plan_ != nullptr && root_ != nullptr) {
      plan_->root = std::move(root_);
      slot_->Give(std::move(plan_));
    }
    root_.reset();
    plan_.reset();
  }

  catalog::LockSet locks_;
  std::shared_ptr<SessionSettings> own_settings_;  // when the statement has no session
  std::shared_ptr<catalog::Transaction> txn_;      // its snapshot is what the scans read
  txn::Snapshot snapshot_;  // this statement's, installed in txn_ for each chunk
  bool held_ = false;       // snapshot_ is held in the TxnManager (open after a chunk)
  bool materialized_ = false;
  std::vector<Row> buffered_;  // the rows of a materialized query
  size_t next_buffered_ = 0;
  std::vector<ColumnInfo> columns_;
  OperatorPtr root_;
  std::unique_ptr<CachedPlan> plan_;  // the rest of a cacheable plan (root_ is its tree)
  std::shared_ptr<PlanSlot> slot_;    // where the plan goes back when done; null: not cached
  ExecContext exec_;
  bool opened_ = false;
  bool done_ = false;
  uint64_t rows_ = 0;
};

// Plans what a bound INSERT, UPDATE or DELETE reads, under its locks: the access path of the
// WHERE, or with FROM / USING the join of the FROM items and the target (an INSERT's source
// was planned by the binder).
Status PlanModify(BoundInsert*) { return Status::Ok(); }
Status PlanModify(BoundMatch* bound) {
  if (bound->join != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(bound->join_plan, PlanSelect(std::move(bound->join)));
    return Status::Ok();
  }
  PlanMatches(bound);
  return Status::Ok();
}

// Binds (bind(binder) → the bound statement), takes the locks, plans and executes. An ALTER
// TABLE that published a new schema of a table between binding and locking makes it bind again
// under the new one (the locks then keep further ALTERs out until the statement ends). plans: a
// prepared statement's cache (plan_cache.h): its valid plan skips binding and planning, unless
// DDL or ANALYZE came before the locks were taken (then it binds anew); the plan goes back to
// the slot when the statement ends, whether it succeeded or not.
// RETURNING's result: the columns of the bound statement's list and the rows it produced.
struct Returned {
  std::vector<ColumnInfo> columns;
  std::vector<Row> rows;
};

template <typename Bound, typename BindFn>
Result<uint64_t> RunModify(const BindFn& bind, const StatementParams& params, ExecControl& ctl,
                           Result<uint64_t> (*execute)(Bound&, ExecContext*),
                           SessionSettings* settings, catalog::Catalog* catalog,
                           catalog::Transaction* txn, const std::shared_ptr<PlanSlot>& plans,
                           Returned* returned) {
  struct Held {  // the plan in use; back to the slot at every exit when it may be kept
    std::unique_ptr<CachedPlan> plan;
    PlanSlot* slot = nullptr;  // null: not cacheable
    ~Held() {
      if (plan == nullptr) return;
      plan->locks.ReleaseAll();
      if (slot != nullptr) slot->Give(std::move(plan));
    }
  } held;
  if (plans != nullptr) held.plan = plans->Take(catalog->schema_version(), params);
  bool fresh = held.plan == nullptr;
  if (!fresh) held.slot = plans.get();
  while (true) {
    if (fresh) {
      held.slot = nullptr;
      held.plan = std::make_unique<CachedPlan>();
      CachedPlan& plan = *held.plan;
      plan.schema_version = catalog->schema_version();  // before binding (plan_cache.h)
      plan.declared = params.types;
      plan.supplied = params.values.size();
      plan.types = ParamTypes(params);
      Binder binder(catalog, &plan.locks, &plan.types);
      if (settings != nullptr) binder.set_session(settings->session_id());
      Result<std::unique_ptr<Bound>> bound = bind(binder);
      if (!bound.ok()) return bound.status();
      plan.modify = std::move(bound).value();
      if (plans != nullptr) {
        plans->NotePlanned();
        if (!binder.read_system_tables()) held.slot = plans.get();
      }
    }
    CachedPlan& plan = *held.plan;
    Bound& bound = *std::get<std::unique_ptr<Bound>>(plan.modify);
    MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, plan.types.Convert(params.values));
    MERIDIAN_RETURN_IF_ERROR(plan.locks.AcquireAll(&ctl));
    if (plan.locks.SchemaChanged() ||
        (!fresh && catalog->schema_version() != plan.schema_version)) {
      held.plan.reset();  // releases the locks
      fresh = true;
      continue;
    }
    if (fresh) {
      MERIDIAN_RETURN_IF_ERROR(PlanModify(&bound));
      plan.quick_write = PlanIsQuickWrite(plan);
    }
    ExecContext exec{&ctl, std::move(values), settings, catalog, txn};
    if (!bound.returning.empty()) {
      returned->columns = bound.returning.columns;
      exec.returned = &returned->rows;
    }
    Result<uint64_t> n = execute(bound, &exec);
    // Refused for meeting more rows than a quick write may: not tried on the network thread
    // again while this plan lasts (the pool runs it at once).
    if (!n.ok() && ExecControl::IsWouldBlock(n.status()) && ctl.quick_budget_spent()) {
      plan.quick_write = false;
    }
    return n;
  }
}

// RETURNING rows may rest on a committing transaction whose row the statement took over
// (early lock release, docs/txn.md section 3): they reach the client once it is
// published.
Status AwaitBeforeRows(catalog::Transaction* txn, const Returned& ret, const ExecControl& ctl) {
  if (ret.columns.empty() || txn == nullptr) return Status::Ok();
  return txn->AwaitDependencies(&ctl);
}

Result<std::unique_ptr<QueryCursor>> ModifyCursor(std::string tag, uint64_t n, Returned ret) {
  if (ret.columns.empty()) {
    return std::unique_ptr<QueryCursor>(std::make_unique<DoneCursor>(std::move(tag), n, ""));
  }
  return std::unique_ptr<QueryCursor>(std::make_unique<ReturningCursor>(
      std::move(ret.columns), std::move(ret.rows), std::move(tag), n));
}

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string Ms(double ms) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f ms", ms);
  return buf;
}

// "Update on t [alias]" / "Delete on t [alias]" over the access path their WHERE would use,
// or with FROM / USING over the plan of the join.
Result<std::unique_ptr<PlanNode>> DescribeModify(const char* verb, BoundMatch* bound) {
  const std::shared_ptr<catalog::Table>& table = bound->table;
  const std::string on =
      table->name() + (bound->alias.empty() ? std::string() : " " + bound->alias);
  if (bound->join != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect planned,
                              PlanSelectExplained(std::move(bound->join), false));
    auto top = std::make_unique<PlanNode>();
    top->label = std::string(verb) + " on " + on;
    top->modify = true;
    top->startup_cost = planned.explain->startup_cost;
    top->total_cost = planned.explain->total_cost;
    top->children.push_back(std::move(planned.explain));
    return top;
  }
  AccessPlan plan = ChooseMatchPath(table, std::move(bound->where));
  auto scan = std::make_unique<PlanNode>();
  if (plan.kind == AccessPlan::Kind::kSeqScan) {
    scan->label = "Seq Scan on " + on;
  } else {
    scan->label = "Index Scan using " + plan.index->name() + " on " + on;
  }
  std::string conds;
  for (size_t i = 0; i < plan.index_conds.size(); ++i) {
    conds += (i ? " AND " : "") + ExprToString(*plan.index_conds[i]);
  }
  if (!conds.empty()) scan->details.push_back("Index Cond: " + conds);
  std::string filter;
  for (size_t i = 0; i < plan.residual.size(); ++i) {
    filter += (i ? " AND " : "") + ExprToString(*plan.residual[i]);
  }
  if (!filter.empty()) scan->details.push_back("Filter: " + filter);
  scan->startup_cost = plan.startup_cost;
  scan->total_cost = plan.total_cost;
  scan->rows = plan.rows;
  scan->width = RowWidth(table->types());
  auto top = std::make_unique<PlanNode>();
  top->label = std::string(verb) + " on " + on;
  top->modify = true;
  top->startup_cost = scan->startup_cost;
  top->total_cost = scan->total_cost + scan->rows * kCpuTupleCost;
  top->children.push_back(std::move(scan));
  return top;
}

Result<std::unique_ptr<QueryCursor>> StartInTxn(const ast::Statement& stmt,
                                                catalog::Catalog* catalog, ExecControl& ctl,
                                                const StatementParams& params,
                                                SessionSettings* settings,
                                                std::shared_ptr<SessionSettings> own_settings,
                                                const std::shared_ptr<catalog::Transaction>& txn,
                                                const std::shared_ptr<PlanSlot>& plans = nullptr);

// CREATE / ALTER / DROP SEQUENCE (sequence.cc).
Result<std::unique_ptr<QueryCursor>> StartSequenceDdl(const ast::Statement& stmt,
                                                      catalog::Catalog* catalog) {
  std::string notice;
  switch (stmt.kind) {
    case ast::StatementKind::kCreateSequence:
      MERIDIAN_RETURN_IF_ERROR(ExecuteCreateSequence(*stmt.sequence, catalog, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("CREATE SEQUENCE", 0, std::move(notice)));
    case ast::StatementKind::kAlterSequence:
      MERIDIAN_RETURN_IF_ERROR(ExecuteAlterSequence(*stmt.sequence, catalog, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("ALTER SEQUENCE", 0, std::move(notice)));
    default:
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropSequence(*stmt.drop_table, catalog, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("DROP SEQUENCE", 0, std::move(notice)));
  }
}

void EnterModifyingScope(Binder& binder, const std::vector<ast::CommonTableExpr>& list, size_t k,
                         const std::vector<ModifyingCte>* done);
Status RunModifyingCtes(const std::vector<ast::CommonTableExpr>& list,
                        const StatementParams& params, ExecControl& ctl, SessionSettings* settings,
                        catalog::Catalog* catalog, catalog::Transaction* txn,
                        std::vector<ModifyingCte>* done);
Status DescribeModifyingCtes(const std::vector<ast::CommonTableExpr>& list, size_t only,
                             catalog::Catalog* catalog, catalog::LockSet* locks, ParamTypes* types,
                             SessionSettings* settings, std::vector<ModifyingCte>* done);

// EXPLAIN's node of a data-modifying WITH query's INSERT / UPDATE / DELETE, bound by binder.
Result<std::unique_ptr<PlanNode>> ModifyPlanNode(Binder& binder, const ast::Statement& s) {
  switch (s.kind) {
    case ast::StatementKind::kUpdate: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundUpdate> bound, binder.BindUpdate(*s.update));
      return DescribeModify("Update", bound.get());
    }
    case ast::StatementKind::kDelete: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundDelete> bound, binder.BindDelete(*s.del));
      return DescribeModify("Delete", bound.get());
    }
    default: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundInsert> bound, binder.BindInsert(*s.insert));
      auto node = std::make_unique<PlanNode>();
      node->modify = true;
      node->label = "Insert on " + s.insert->table;
      return node;
    }
  }
}

Result<std::unique_ptr<QueryCursor>> Explain(const ast::Statement& stmt, bool analyze,
                                             catalog::Catalog* catalog, ExecControl& ctl,
                                             const StatementParams& params,
                                             SessionSettings* settings,
                                             const std::shared_ptr<catalog::Transaction>& txn,
                                             bool costs, bool timing, bool summary) {
  const Clock::time_point plan_start = Clock::now();
  std::unique_ptr<PlanNode> root;
  std::vector<std::string> extra;
  ParamTypes types(params);
  // Subqueries planned from here on carry their plans; collection stops before anything runs
  // (an ANALYZE of UPDATE/DELETE/INSERT plans the statement again to execute it, and those
  // plans are not printed: its subplans print without figures).
  ExplainSubplans subplans;
  subplans.analyze = analyze && stmt.kind == ast::StatementKind::kSelect;
  ExplainSubplans::Scope collecting(&subplans);
  // Data-modifying WITH queries: their plans ("CTE name" under the top node); the statement's
  // references read their rows, which an ANALYZE of a SELECT makes by running them first (an
  // ANALYZE of INSERT / UPDATE / DELETE runs the whole statement through StartInTxn).
  std::vector<ModifyingCte> modifying;
  std::vector<std::pair<std::string, std::unique_ptr<PlanNode>>> cte_plans;
  if (FirstModifyingCte(stmt) != nullptr) {
    const std::vector<ast::CommonTableExpr>& list = *StatementWith(stmt);
    for (size_t k = 0; k < list.size(); ++k) {
      if (list[k].statement == nullptr) continue;
      catalog::LockSet locks;
      Binder binder(catalog, &locks, &types);
      if (settings != nullptr) binder.set_session(settings->session_id());
      EnterModifyingScope(binder, list, k, &modifying);
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<PlanNode> node,
                                ModifyPlanNode(binder, *list[k].statement));
      cte_plans.emplace_back(list[k].name, std::move(node));
      // Each later query reads the ones before it: described (no rows) so far.
      catalog::LockSet described_locks;
      MERIDIAN_RETURN_IF_ERROR(
          DescribeModifyingCtes(list, k, catalog, &described_locks, &types, settings, &modifying));
    }
    if (analyze && stmt.kind == ast::StatementKind::kSelect) {
      MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, types.Convert(params.values));
      StatementParams typed{std::move(values), types.Finish()};
      modifying.clear();
      MERIDIAN_RETURN_IF_ERROR(
          RunModifyingCtes(list, typed, ctl, settings, catalog, txn.get(), &modifying));
      for (size_t i = 0; i < cte_plans.size() && i < modifying.size(); ++i) {
        PlanNode::Actual& actual = cte_plans[i].second->actual;  // its RETURNING rows
        actual.loops = 1;
        actual.rows = modifying[i].slot->table->rows.size();
      }
    }
  }
  switch (stmt.kind) {
    case ast::StatementKind::kSelect: {
      catalog::LockSet locks;
      Binder binder(catalog, &locks, &types);
      if (settings != nullptr) binder.set_session(settings->session_id());
      binder.set_modifying_ctes(&modifying);
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound,
                                binder.BindSelect(*stmt.select));
      MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, types.Convert(params.values));
      const size_t width = bound->columns.size();
      MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect planned,
                                PlanSelectExplained(std::move(bound), analyze));
      planned.root->PruneColumns(std::vector<bool>(width, true));  // as PlanSelect does
      root = std::move(planned.explain);
      collecting.Stop();
      const double planning_ms = MsSince(plan_start);
      if (analyze) {
        MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
        ExecContext exec{&ctl, std::move(values), settings, catalog, txn.get()};
        const Clock::time_point run_start = Clock::now();
        MERIDIAN_RETURN_IF_ERROR(planned.root->Open(nullptr, &exec));
        Row row;
        uint64_t n = 0;
        while (true) {
          if (++n % kCheckInterval == 0) MERIDIAN_RETURN_IF_ERROR(ctl.Check());
          MERIDIAN_ASSIGN_OR_RETURN(bool more, planned.root->Next(&row));
          if (!more) break;
        }
        const double run_ms = MsSince(run_start);
        locks.ReleaseAll();
        extra.push_back("Planning Time: " + Ms(planning_ms));
        extra.push_back("Execution Time: " + Ms(run_ms));
      }
      break;
    }
    case ast::StatementKind::kUpdate:
    case ast::StatementKind::kDelete: {
      const bool update = stmt.kind == ast::StatementKind::kUpdate;
      catalog::LockSet locks;
      Binder binder(catalog, &locks, &types);
      if (settings != nullptr) binder.set_session(settings->session_id());
      binder.set_modifying_ctes(&modifying);
      if (update) {
        MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundUpdate> bound,
                                  binder.BindUpdate(*stmt.update));
        // The SET list's subqueries are numbered too (no line names them: they print under
        // the top node).
        for (const BoundAssignment& a : bound->assignments) (void)ExprToString(*a.value);
        MERIDIAN_ASSIGN_OR_RETURN(root, DescribeModify("Update", bound.get()));
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundDelete> bound, binder.BindDelete(*stmt.del));
        MERIDIAN_ASSIGN_OR_RETURN(root, DescribeModify("Delete", bound.get()));
      }
      collecting.Stop();
      if (analyze) {
        const Clock::time_point run_start = Clock::now();
        MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<QueryCursor> done,
                                  StartInTxn(stmt, catalog, ctl, params, settings, nullptr, txn));
        root->actual.loops = 1;
        root->actual.rows = 0;
        root->actual.total_ms = MsSince(run_start);
        root->actual.first_row_ms = root->actual.total_ms;
        extra.push_back("Rows affected: " + std::to_string(done->RowCount()));
        extra.push_back("Execution Time: " + Ms(root->actual.total_ms));
      }
      break;
    }
    case ast::StatementKind::kInsert: {
      root = std::make_unique<PlanNode>();
      root->modify = true;
      root->label = "Insert on " + stmt.insert->table +
                    (stmt.insert->alias.empty() ? "" : " " + stmt.insert->alias);
      if (stmt.insert->on_conflict != nullptr) {
        // PostgreSQL's lines for ON CONFLICT: the action and the arbiter indexes.
        catalog::LockSet locks;
        Binder binder(catalog, &locks, &types);
        if (settings != nullptr) binder.set_session(settings->session_id());
        binder.set_modifying_ctes(&modifying);
        MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundInsert> bound,
                                  binder.BindInsert(*stmt.insert));
        const BoundOnConflict& oc = *bound->on_conflict;
        root->details.push_back(std::string("Conflict Resolution: ") +
                                (oc.do_update ? "UPDATE" : "NOTHING"));
        std::string arbiters;
        for (const std::shared_ptr<catalog::Index>& index : oc.arbiters) {
          arbiters += (arbiters.empty() ? "" : ", ") + index->name();
        }
        // Without a target (DO NOTHING on any unique index) PostgreSQL names none.
        const ast::OnConflict& target = *stmt.insert->on_conflict;
        if (!arbiters.empty() && (!target.columns.empty() || !target.constraint.empty())) {
          root->details.push_back("Conflict Arbiter Indexes: " + arbiters);
        }
        if (oc.where != nullptr) {
          root->details.push_back("Conflict Filter: " + ExprToString(*oc.where));
        }
      }
      collecting.Stop();
      if (analyze) {
        const Clock::time_point run_start = Clock::now();
        MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<QueryCursor> done,
                                  StartInTxn(stmt, catalog, ctl, params, settings, nullptr, txn));
        root->actual.loops = 1;
        root->actual.total_ms = MsSince(run_start);
        root->actual.first_row_ms = root->actual.total_ms;
        extra.push_back("Rows affected: " + std::to_string(done->RowCount()));
        extra.push_back("Execution Time: " + Ms(root->actual.total_ms));
      }
      break;
    }
    default:
      return Status::NotSupported("EXPLAIN of this statement is not supported")
          .WithPosition(stmt.loc.position);
  }
  collecting.Stop();
  std::vector<std::string> lines = RenderPlan(*root, analyze, costs, timing, &subplans);
  if (!cte_plans.empty()) {
    // "CTE name" and its plan right after the top node's lines, as PostgreSQL prints them: a
    // plan rendered at the top moves one level down (and two columns in).
    size_t at = 1 + root->details.size() + (analyze && !root->actual.detail.empty() ? 1 : 0);
    std::vector<std::string> block;
    for (auto& [name, node] : cte_plans) {
      block.push_back("  CTE " + name);
      std::vector<std::string> cte_lines = RenderPlan(*node, analyze, costs, timing, nullptr);
      for (size_t i = 0; i < cte_lines.size(); ++i) {
        block.push_back((i == 0 ? "    ->  " : "        ") + cte_lines[i]);
      }
    }
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(std::min(at, lines.size())),
                 block.begin(), block.end());
  }
  for (std::string& e : extra) {
    const bool summary_line = e.starts_with("Planning Time:") || e.starts_with("Execution Time:");
    if (!summary_line || summary) lines.push_back(std::move(e));
  }
  return std::unique_ptr<QueryCursor>(
      std::make_unique<TextCursor>("QUERY PLAN", std::move(lines), "EXPLAIN"));
}

}  // namespace

namespace {

// StartSelect; modifying: the statement's data-modifying WITH queries that ran (their
// RETURNING rows), or null. A query reading them runs at once (Materialize): the statement
// that wrote them may commit before the client fetches.
Result<std::unique_ptr<QueryCursor>> StartSelectWith(
    const ast::SelectStmt& select, catalog::Catalog* catalog, const StatementParams& params,
    SessionSettings* settings, std::shared_ptr<SessionSettings> own_settings,
    std::shared_ptr<catalog::Transaction> txn, ExecControl* ctl,
    const std::shared_ptr<PlanSlot>& plans, const std::vector<ModifyingCte>* modifying) {
  const uint64_t schema_version = catalog->schema_version();  // before binding (plan_cache.h)
  std::unique_ptr<CachedPlan> plan;
  if (plans != nullptr) plan = plans->Take(schema_version, params);
  bool cacheable = plan != nullptr;
  if (plan == nullptr) {
    do {  // again when an ALTER TABLE changed a table while it was bound and planned
      plan = std::make_unique<CachedPlan>();
      plan->schema_version = schema_version;
      plan->declared = params.types;
      plan->supplied = params.values.size();
      plan->types = ParamTypes(params);
      Binder binder(catalog, &plan->locks, &plan->types);
      if (settings != nullptr) binder.set_session(settings->session_id());
      binder.set_modifying_ctes(modifying);
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound, binder.BindSelect(select));
      plan->columns = bound->columns;
      plan->locks_rows = bound->LocksRows();
      MERIDIAN_ASSIGN_OR_RETURN(plan->root, PlanSelect(std::move(bound)));
      plan->quick_read = PlanIsQuickRead(*plan);
      plan->quick_write = PlanIsQuickWrite(*plan);
      cacheable = plans != nullptr && !binder.read_system_tables();
      if (plans != nullptr) plans->NotePlanned();
    } while (plan->locks.SchemaChanged());
  }
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, plan->types.Convert(params.values));
  auto cursor = std::make_unique<SelectCursor>();
  cursor->locks().AddAll(plan->locks);
  const bool locks_rows = plan->locks_rows;
  cursor->Init(plan->columns, std::move(plan->root), std::move(values), settings, catalog,
               std::move(own_settings), std::move(txn));
  if (cacheable) cursor->CachePlan(std::move(plan), plans);
  if ((locks_rows || modifying != nullptr) && ctl != nullptr) {
    MERIDIAN_RETURN_IF_ERROR(cursor->Materialize(*ctl));
  }
  return std::unique_ptr<QueryCursor>(std::move(cursor));
}

}  // namespace

Result<std::unique_ptr<QueryCursor>> StartSelect(
    const ast::SelectStmt& select, catalog::Catalog* catalog, const StatementParams& params,
    SessionSettings* settings, std::shared_ptr<SessionSettings> own_settings,
    std::shared_ptr<catalog::Transaction> txn, ExecControl* ctl,
    const std::shared_ptr<PlanSlot>& plans) {
  return StartSelectWith(select, catalog, params, settings, std::move(own_settings), std::move(txn),
                         ctl, plans, nullptr);
}

namespace {

// ------------------------------------------------------------ data-modifying WITH queries
//
// WITH x AS (INSERT / UPDATE / DELETE ... [RETURNING ...]) statement: each such query runs
// once, to its end, in written order, before the statement (whether or not, and however much,
// the statement reads it); its RETURNING rows go to a work table that the statement's
// references read (ModifyingCte, binder.h). All of them and the statement run in the one
// command of the statement's snapshot, so none sees another's changes to its tables, as in
// PostgreSQL (docs/txn.md "Commands"). Their plans are not cached.

// Runs INSERT / UPDATE / DELETE s without a plan cache, its binder first given to prepare;
// *ret gets its RETURNING columns and rows.
template <typename Prepare>
Result<uint64_t> RunModifyStatement(const ast::Statement& s, const Prepare& prepare,
                                    const StatementParams& params, ExecControl& ctl,
                                    SessionSettings* settings, catalog::Catalog* catalog,
                                    catalog::Transaction* txn, Returned* ret) {
  switch (s.kind) {
    case ast::StatementKind::kInsert:
      return RunModify(
          [&](Binder& b) {
            prepare(b);
            return b.BindInsert(*s.insert);
          },
          params, ctl, &ExecuteInsert, settings, catalog, txn, nullptr, ret);
    case ast::StatementKind::kUpdate:
      return RunModify(
          [&](Binder& b) {
            prepare(b);
            return b.BindUpdate(*s.update);
          },
          params, ctl, &ExecuteUpdate, settings, catalog, txn, nullptr, ret);
    default:
      return RunModify(
          [&](Binder& b) {
            prepare(b);
            return b.BindDelete(*s.del);
          },
          params, ctl, &ExecuteDelete, settings, catalog, txn, nullptr, ret);
  }
}

// The RETURNING columns of INSERT / UPDATE / DELETE s (empty without RETURNING).
Result<std::vector<ColumnInfo>> ReturningColumns(Binder& binder, const ast::Statement& s) {
  switch (s.kind) {
    case ast::StatementKind::kInsert: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundInsert> bound, binder.BindInsert(*s.insert));
      return bound->returning.columns;
    }
    case ast::StatementKind::kUpdate: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundUpdate> bound, binder.BindUpdate(*s.update));
      return bound->returning.columns;
    }
    default: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundDelete> bound, binder.BindDelete(*s.del));
      return bound->returning.columns;
    }
  }
}

// The scope of the data-modifying query list[k]'s statement: the queries before it (under
// WITH RECURSIVE the whole list) and the rows of those that ran (done).
void EnterModifyingScope(Binder& binder, const std::vector<ast::CommonTableExpr>& list, size_t k,
                         const std::vector<ModifyingCte>* done) {
  binder.set_modifying_ctes(done);
  binder.PushWith(list, list[k].recursive ? list.size() : k);
}

// A data-modifying query's entry: its RETURNING columns (none: no RETURNING) and an empty
// work table.
ModifyingCte MakeModifyingCte(const ast::CommonTableExpr& cte, std::vector<ColumnInfo> columns) {
  ModifyingCte m;
  m.cte = &cte;
  m.returning = !columns.empty();
  m.columns = std::move(columns);
  m.slot = std::make_shared<WorkTableSlot>();
  m.slot->cte = true;
  m.slot->table = std::make_shared<WorkTable>();
  return m;
}

// Runs the data-modifying queries of list (their entries appended to *done).
Status RunModifyingCtes(const std::vector<ast::CommonTableExpr>& list,
                        const StatementParams& params, ExecControl& ctl, SessionSettings* settings,
                        catalog::Catalog* catalog, catalog::Transaction* txn,
                        std::vector<ModifyingCte>* done) {
  for (size_t k = 0; k < list.size(); ++k) {
    if (list[k].statement == nullptr) continue;
    Returned ret;
    MERIDIAN_RETURN_IF_ERROR(RunModifyStatement(
                                 *list[k].statement,
                                 [&](Binder& b) { EnterModifyingScope(b, list, k, done); }, params,
                                 ctl, settings, catalog, txn, &ret)
                                 .status());
    ModifyingCte m = MakeModifyingCte(list[k], std::move(ret.columns));
    m.slot->estimated_rows = std::max<double>(1, static_cast<double>(ret.rows.size()));
    RowStore& store = m.slot->table->rows;
    store.Reset(0, "");  // held in memory, as RETURNING's rows already are
    for (const Row& row : ret.rows) MERIDIAN_RETURN_IF_ERROR(store.Append(row));
    MERIDIAN_RETURN_IF_ERROR(store.Finish());
    done->push_back(std::move(m));
  }
  return Status::Ok();
}

// Binds the data-modifying queries of list (only: just list[only]; SIZE_MAX: all) without
// running them (parameter types and locks shared): their columns, for describing the
// statement; the work tables stay empty.
Status DescribeModifyingCtes(const std::vector<ast::CommonTableExpr>& list, size_t only,
                             catalog::Catalog* catalog, catalog::LockSet* locks, ParamTypes* types,
                             SessionSettings* settings, std::vector<ModifyingCte>* done) {
  for (size_t k = 0; k < list.size(); ++k) {
    if (list[k].statement == nullptr || (only != SIZE_MAX && k != only)) continue;
    Binder binder(catalog, locks, types);
    if (settings != nullptr) binder.set_session(settings->session_id());
    EnterModifyingScope(binder, list, k, done);
    MERIDIAN_ASSIGN_OR_RETURN(std::vector<ColumnInfo> columns,
                              ReturningColumns(binder, *list[k].statement));
    done->push_back(MakeModifyingCte(list[k], std::move(columns)));
  }
  return Status::Ok();
}

// A SELECT / INSERT / UPDATE / DELETE with data-modifying WITH queries: they run first, then
// the statement reads their RETURNING rows.
Result<std::unique_ptr<QueryCursor>> StartWithModifying(
    const ast::Statement& stmt, catalog::Catalog* catalog, ExecControl& ctl,
    const StatementParams& given, SessionSettings* settings,
    std::shared_ptr<SessionSettings> own_settings,
    const std::shared_ptr<catalog::Transaction>& txn) {
  // Every part sees $n with the type the whole statement gives it.
  StatementParams params = given;
  if (!given.values.empty()) {
    MERIDIAN_ASSIGN_OR_RETURN(StatementDescription d,
                              DescribeStatement(stmt, catalog, given.types, settings));
    params.types = std::move(d.param_types);
  }
  std::vector<ModifyingCte> done;
  MERIDIAN_RETURN_IF_ERROR(
      RunModifyingCtes(*StatementWith(stmt), params, ctl, settings, catalog, txn.get(), &done));
  if (stmt.kind == ast::StatementKind::kSelect) {
    return StartSelectWith(*stmt.select, catalog, params, settings, std::move(own_settings), txn,
                           &ctl, nullptr, &done);
  }
  Returned ret;
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t n, RunModifyStatement(
                                            stmt, [&](Binder& b) { b.set_modifying_ctes(&done); },
                                            params, ctl, settings, catalog, txn.get(), &ret));
  const std::string tag = stmt.kind == ast::StatementKind::kInsert   ? "INSERT 0 "
                          : stmt.kind == ast::StatementKind::kUpdate ? "UPDATE "
                                                                     : "DELETE ";
  return ModifyCursor(tag + std::to_string(n), n, std::move(ret));
}

Result<std::unique_ptr<QueryCursor>> StartInTxn(const ast::Statement& stmt,
                                                catalog::Catalog* catalog, ExecControl& ctl,
                                                const StatementParams& params,
                                                SessionSettings* settings,
                                                std::shared_ptr<SessionSettings> own_settings,
                                                const std::shared_ptr<catalog::Transaction>& txn,
                                                const std::shared_ptr<PlanSlot>& plans) {
  catalog::Transaction* const t = txn.get();
  if (FirstModifyingCte(stmt) != nullptr) {
    return StartWithModifying(stmt, catalog, ctl, params, settings, std::move(own_settings), txn);
  }
  switch (stmt.kind) {
    case ast::StatementKind::kSelect:
      return StartSelect(*stmt.select, catalog, params, settings, std::move(own_settings), txn,
                         &ctl, plans);
    case ast::StatementKind::kInsert: {
      Returned ret;
      MERIDIAN_ASSIGN_OR_RETURN(
          uint64_t n, RunModify([&](Binder& b) { return b.BindInsert(*stmt.insert); }, params, ctl,
                                &ExecuteInsert, settings, catalog, t, plans, &ret));
      MERIDIAN_RETURN_IF_ERROR(AwaitBeforeRows(t, ret, ctl));
      return ModifyCursor("INSERT 0 " + std::to_string(n), n, std::move(ret));
    }
    case ast::StatementKind::kUpdate: {
      Returned ret;
      MERIDIAN_ASSIGN_OR_RETURN(
          uint64_t n, RunModify([&](Binder& b) { return b.BindUpdate(*stmt.update); }, params, ctl,
                                &ExecuteUpdate, settings, catalog, t, plans, &ret));
      MERIDIAN_RETURN_IF_ERROR(AwaitBeforeRows(t, ret, ctl));
      return ModifyCursor("UPDATE " + std::to_string(n), n, std::move(ret));
    }
    case ast::StatementKind::kDelete: {
      Returned ret;
      MERIDIAN_ASSIGN_OR_RETURN(
          uint64_t n, RunModify([&](Binder& b) { return b.BindDelete(*stmt.del); }, params, ctl,
                                &ExecuteDelete, settings, catalog, t, plans, &ret));
      MERIDIAN_RETURN_IF_ERROR(AwaitBeforeRows(t, ret, ctl));
      return ModifyCursor("DELETE " + std::to_string(n), n, std::move(ret));
    }
    case ast::StatementKind::kCreateTable: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteCreateTable(*stmt.create_table, catalog, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("CREATE TABLE", 0, std::move(notice)));
    }
    case ast::StatementKind::kCreateTableAs: {
      std::string notice;
      uint64_t n = 0;
      MERIDIAN_RETURN_IF_ERROR(
          ExecuteCreateTableAs(*stmt.create_table_as, catalog, ctl, settings, t, &notice, &n));
      // PostgreSQL's tags: SELECT n, or CREATE TABLE AS (WITH NO DATA, IF NOT EXISTS skipped).
      std::string tag = stmt.create_table_as->with_data && notice.empty()
                            ? "SELECT " + std::to_string(n)
                            : std::string("CREATE TABLE AS");
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>(std::move(tag), n, std::move(notice)));
    }
    case ast::StatementKind::kAlterTable: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(
          ExecuteAlterTable(*stmt.alter_table, catalog, ctl, settings, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("ALTER TABLE", 0, std::move(notice)));
    }
    case ast::StatementKind::kLock:
      MERIDIAN_RETURN_IF_ERROR(ExecuteLock(*stmt.lock, catalog, ctl,
                                           settings != nullptr && settings->in_transaction(),
                                           settings != nullptr ? settings->session_id() : 0));
      return std::unique_ptr<QueryCursor>(std::make_unique<DoneCursor>("LOCK TABLE", 0, ""));
    case ast::StatementKind::kTruncate: {
      MERIDIAN_RETURN_IF_ERROR(ExecuteTruncate(*stmt.truncate, catalog, ctl));
      return std::unique_ptr<QueryCursor>(std::make_unique<DoneCursor>("TRUNCATE TABLE", 0, ""));
    }
    case ast::StatementKind::kDropTable: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropTable(*stmt.drop_table, catalog, ctl, settings, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("DROP TABLE", 0, std::move(notice)));
    }
    case ast::StatementKind::kCreateView: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteCreateView(*stmt.create_view, catalog, settings, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("CREATE VIEW", 0, std::move(notice)));
    }
    case ast::StatementKind::kDropView: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropView(*stmt.drop_table, catalog, settings, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("DROP VIEW", 0, std::move(notice)));
    }
    case ast::StatementKind::kCreateIndex: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteCreateIndex(*stmt.create_index, catalog, ctl, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("CREATE INDEX", 0, std::move(notice)));
    }
    case ast::StatementKind::kDropIndex: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropIndex(*stmt.drop_index, catalog, ctl, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("DROP INDEX", 0, std::move(notice)));
    }
    case ast::StatementKind::kAnalyze: {
      if (stmt.analyze->vacuum && settings->txn_block().active()) {
        return Status::Error(sqlstate::kActiveSqlTransaction,
                             "VACUUM cannot run inside a transaction block");
      }
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteAnalyze(*stmt.analyze, catalog, ctl, &notice));
      return std::unique_ptr<QueryCursor>(std::make_unique<DoneCursor>(
          stmt.analyze->vacuum ? "VACUUM" : "ANALYZE", 0, std::move(notice)));
    }
    case ast::StatementKind::kCreateSequence:
    case ast::StatementKind::kAlterSequence:
    case ast::StatementKind::kDropSequence:
      return StartSequenceDdl(stmt, catalog);
    case ast::StatementKind::kCreateSchema:
    case ast::StatementKind::kDropSchema:
    case ast::StatementKind::kAlterSchema: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteSchemaStatement(stmt, catalog, ctl, settings, &notice));
      const char* tag = stmt.kind == ast::StatementKind::kCreateSchema ? "CREATE SCHEMA"
                        : stmt.kind == ast::StatementKind::kDropSchema ? "DROP SCHEMA"
                                                                       : "ALTER SCHEMA";
      return std::unique_ptr<QueryCursor>(std::make_unique<DoneCursor>(tag, 0, std::move(notice)));
    }
    case ast::StatementKind::kExplain:
      return Explain(*stmt.explained, stmt.explain_analyze, catalog, ctl, params, settings, txn,
                     stmt.explain_costs, stmt.explain_timing,
                     stmt.explain_summary.value_or(stmt.explain_analyze));
    case ast::StatementKind::kSet:
    case ast::StatementKind::kShow:
    case ast::StatementKind::kReset:
      return ExecuteVariable(stmt, settings);
    case ast::StatementKind::kCopy:
      return StartCopy(*stmt.copy, catalog, settings, std::move(own_settings), txn);
    case ast::StatementKind::kTransaction:
    case ast::StatementKind::kPrepare:
    case ast::StatementKind::kExecute:
    case ast::StatementKind::kDeallocate:
      break;  // StartStatement runs them
  }
  return Status::NotSupported("this statement is not supported yet")
      .WithPosition(stmt.loc.position);
}

// A read-only autocommit query's cursor that ends its transaction when the query is done
// (last row fetched, an error, or the cursor dropped unfinished).
class AutocommitCursor : public QueryCursor {
 public:
  AutocommitCursor(std::unique_ptr<QueryCursor> inner, std::shared_ptr<catalog::Transaction> txn)
      : inner_(std::move(inner)), txn_(std::move(txn)) {}
  ~AutocommitCursor() override { End(); }
  const std::vector<ColumnInfo>& columns() const override { return inner_->columns(); }
  Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                     std::vector<Row>* out) override {
    Result<bool> more = inner_->Fetch(max_rows, max_bytes, ctl, out);
    if (!more.ok() || !*more) End();
    return more;
  }
  std::string CommandTag() const override { return inner_->CommandTag(); }
  uint64_t RowCount() const override { return inner_->RowCount(); }
  std::string Notice() const override { return inner_->Notice(); }
  std::string NoticeSqlstate() const override { return inner_->NoticeSqlstate(); }
  bool copy_out() const override { return inner_->copy_out(); }
  size_t copy_columns() const override { return inner_->copy_columns(); }

 private:
  void End() {
    if (txn_ == nullptr) return;
    // Only read-only queries get this cursor; a FOR UPDATE mark it could not release names an
    // aborted id, which every reader and writer treats as no mark (CleanAborted).
    [[maybe_unused]] Status ended = txn_->EndReadOnly();
    txn_.reset();
  }
  std::unique_ptr<QueryCursor> inner_;
  std::shared_ptr<catalog::Transaction> txn_;
};

// Retries of one statement after serialization failures (each waited for the transaction that
// won, so progress is guaranteed; the bound only guards against a livelock).
constexpr int kMaxStatementRetries = 100;

}  // namespace

namespace {

// A statement's cursor with the notices its parsing raised, when it has none of its own.
class NoticeCursor : public QueryCursor {
 public:
  NoticeCursor(std::unique_ptr<QueryCursor> inner, std::string notice)
      : inner_(std::move(inner)), notice_(std::move(notice)) {}
  const std::vector<ColumnInfo>& columns() const override { return inner_->columns(); }
  Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                     std::vector<Row>* out) override {
    return inner_->Fetch(max_rows, max_bytes, ctl, out);
  }
  std::string CommandTag() const override { return inner_->CommandTag(); }
  uint64_t RowCount() const override { return inner_->RowCount(); }
  std::string Notice() const override { return notice_; }
  CopyIn* copy_in() override { return inner_->copy_in(); }
  bool copy_out() const override { return inner_->copy_out(); }
  size_t copy_columns() const override { return inner_->copy_columns(); }

 private:
  std::unique_ptr<QueryCursor> inner_;
  std::string notice_;
};

// The command a READ ONLY transaction refuses (25006, PostgreSQL's wording), or null.
const char* WriteCommandName(const ast::Statement& stmt) {
  using K = ast::StatementKind;
  switch (stmt.kind) {
    case K::kInsert:
      return "INSERT";
    case K::kUpdate:
      return "UPDATE";
    case K::kDelete:
      return "DELETE";
    case K::kCreateTable:
      return "CREATE TABLE";
    case K::kCreateTableAs:
      return "CREATE TABLE AS";
    case K::kAlterTable:
      return "ALTER TABLE";
    case K::kDropTable:
      return "DROP TABLE";
    case K::kCreateView:
      return "CREATE VIEW";
    case K::kDropView:
      return "DROP VIEW";
    case K::kTruncate:
      return "TRUNCATE TABLE";
    case K::kCreateIndex:
      return "CREATE INDEX";
    case K::kDropIndex:
      return "DROP INDEX";
    case K::kCreateSequence:
      return "CREATE SEQUENCE";
    case K::kAlterSequence:
      return "ALTER SEQUENCE";
    case K::kDropSequence:
      return "DROP SEQUENCE";
    case K::kCopy:
      return stmt.copy->from ? "COPY FROM" : nullptr;
    case K::kExplain:  // plain EXPLAIN only plans
      return stmt.explain_analyze ? WriteCommandName(*stmt.explained) : nullptr;
    case K::kSelect: {
      // A data-modifying WITH query: refused under the statement's name, as PostgreSQL does.
      if (FirstModifyingCte(stmt) != nullptr) return "SELECT";
      const ast::SelectStmt& sel = *stmt.select;
      if (sel.locking.empty() || sel.from.empty()) return nullptr;  // no row to lock
      switch (sel.locking.front().strength) {
        case ast::LockingClause::Strength::kUpdate:
          return "SELECT FOR UPDATE";
        case ast::LockingClause::Strength::kNoKeyUpdate:
          return "SELECT FOR NO KEY UPDATE";
        case ast::LockingClause::Strength::kShare:
          return "SELECT FOR SHARE";
        case ast::LockingClause::Strength::kKeyShare:
          return "SELECT FOR KEY SHARE";
      }
      return nullptr;
    }
    default:
      return nullptr;
  }
}

Status CheckWritable(const ast::Statement& stmt, const catalog::Transaction& txn) {
  if (!txn.read_only()) return Status::Ok();
  const char* command = WriteCommandName(stmt);
  if (command == nullptr) return Status::Ok();
  return Status::Error(sqlstate::kReadOnlySqlTransaction,
                       std::string("cannot execute ") + command + " in a read-only transaction");
}

// COPY FROM's data parsed in the session's time zone.
class ZoneCopyIn : public CopyIn {
 public:
  ZoneCopyIn(CopyIn* inner, std::shared_ptr<const datetime::TimeZone> zone,
             std::shared_ptr<const catalog::SearchPath> path)
      : inner_(inner), zone_(std::move(zone)), path_(std::move(path)) {}
  size_t column_count() const override { return inner_->column_count(); }
  Status Write(std::string_view data, ExecControl& ctl) override {
    datetime::ScopedTimeZone in_zone(zone_);
    catalog::ScopedSearchPath in_path(path_.get());
    return inner_->Write(data, ctl);
  }
  Status Finish(ExecControl& ctl) override {
    datetime::ScopedTimeZone in_zone(zone_);
    catalog::ScopedSearchPath in_path(path_.get());
    return inner_->Finish(ctl);
  }

 private:
  CopyIn* inner_;
  std::shared_ptr<const datetime::TimeZone> zone_;
  std::shared_ptr<const catalog::SearchPath> path_;
};

// A cursor whose Fetch (and COPY FROM's input) runs in the session's time zone (timestamptz
// text and arithmetic).
class ZoneCursor : public QueryCursor {
 public:
  ZoneCursor(std::unique_ptr<QueryCursor> inner, std::shared_ptr<const datetime::TimeZone> zone,
             std::shared_ptr<const catalog::SearchPath> path)
      : inner_(std::move(inner)), zone_(std::move(zone)), path_(std::move(path)) {
    if (inner_->copy_in() != nullptr) copy_in_.emplace(inner_->copy_in(), zone_, path_);
  }
  const std::vector<ColumnInfo>& columns() const override { return inner_->columns(); }
  Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                     std::vector<Row>* out) override {
    datetime::ScopedTimeZone in_zone(zone_);
    catalog::ScopedSearchPath in_path(path_.get());
    return inner_->Fetch(max_rows, max_bytes, ctl, out);
  }
  std::string CommandTag() const override { return inner_->CommandTag(); }
  uint64_t RowCount() const override { return inner_->RowCount(); }
  std::string Notice() const override { return inner_->Notice(); }
  std::string NoticeSqlstate() const override { return inner_->NoticeSqlstate(); }
  CopyIn* copy_in() override { return copy_in_ ? &*copy_in_ : nullptr; }
  bool copy_out() const override { return inner_->copy_out(); }
  size_t copy_columns() const override { return inner_->copy_columns(); }

 private:
  std::unique_ptr<QueryCursor> inner_;
  std::shared_ptr<const datetime::TimeZone> zone_;
  std::shared_ptr<const catalog::SearchPath> path_;
  std::optional<ZoneCopyIn> copy_in_;
};

Result<std::unique_ptr<QueryCursor>> StartStatementImpl(const ast::Statement& stmt,
                                                        catalog::Catalog* catalog, ExecControl& ctl,
                                                        const StatementParams& params,
                                                        SessionSettings* settings,
                                                        const std::shared_ptr<PlanSlot>& plans);

}  // namespace

Result<std::unique_ptr<QueryCursor>> StartStatement(const ast::Statement& stmt,
                                                    catalog::Catalog* catalog, ExecControl& ctl,
                                                    const StatementParams& params,
                                                    SessionSettings* settings,
                                                    const std::shared_ptr<PlanSlot>& plans) {
  std::shared_ptr<const datetime::TimeZone> zone;
  std::shared_ptr<const catalog::SearchPath> path;
  if (settings != nullptr) {
    zone = settings->time_zone();
    path = settings->search_path();
  }
  Result<std::unique_ptr<QueryCursor>> cursor = [&]() -> Result<std::unique_ptr<QueryCursor>> {
    datetime::ScopedTimeZone in_zone(zone);
    catalog::ScopedSearchPath in_path(path.get());
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<QueryCursor> c,
                              StartStatementImpl(stmt, catalog, ctl, params, settings, plans));
    // SET TimeZone changes the zone of the statements after it, not of its own cursor.
    if (zone == nullptr || (c->columns().empty() && c->copy_in() == nullptr)) return c;
    return std::unique_ptr<QueryCursor>(std::make_unique<ZoneCursor>(std::move(c), zone, path));
  }();
  if (stmt.notices.empty() || !cursor.ok() || !(*cursor)->Notice().empty()) return cursor;
  std::string notice;
  for (const std::string& n : stmt.notices) notice += (notice.empty() ? "" : "\n") + n;
  return std::unique_ptr<QueryCursor>(
      std::make_unique<NoticeCursor>(std::move(cursor).value(), std::move(notice)));
}

namespace {

// Whether a statement may send the client rows. A plain INSERT, UPDATE or DELETE (no
// RETURNING) sends a row count only: its snapshot may read the not yet durable commits its
// transaction depends on instead of waiting for them (catalog::Transaction::
// TakeStatementSnapshot; docs/txn.md section 3).
bool ShowsRows(const ast::Statement& stmt) {
  switch (stmt.kind) {
    case ast::StatementKind::kInsert:
      return !stmt.insert->returning.empty();
    case ast::StatementKind::kUpdate:
      return !stmt.update->returning.empty();
    case ast::StatementKind::kDelete:
      return !stmt.del->returning.empty();
    default:
      return true;
  }
}

Result<std::unique_ptr<QueryCursor>> StartStatementImpl(const ast::Statement& stmt,
                                                        catalog::Catalog* catalog, ExecControl& ctl,
                                                        const StatementParams& params,
                                                        SessionSettings* settings,
                                                        const std::shared_ptr<PlanSlot>& plans) {
  MERIDIAN_RETURN_IF_ERROR(ctl.Check());
  // Without a session (tools, tests) the statement gets default settings of its own.
  std::shared_ptr<SessionSettings> own_settings;
  if (settings == nullptr) {
    own_settings = std::make_shared<SessionSettings>("meridian", "meridian", "");
    settings = own_settings.get();
  }
  // PREPARE, EXECUTE, DEALLOCATE (prepared.cc); EXECUTE comes back here with its statement.
  if (IsPreparedCommand(stmt.kind)) {
    return StartPreparedCommand(stmt, catalog, ctl, settings);
  }
  TransactionBlock& block = settings->txn_block();
  if (stmt.kind == ast::StatementKind::kTransaction) {
    std::string notice, notice_state;
    Result<std::string> tag =
        block.Execute(*stmt.transaction, catalog, *settings, &notice, &notice_state, &ctl);
    if (!tag.ok()) {
      // Any error inside a block fails it, as in PostgreSQL; a COMMIT refused under no_wait
      // (it would wait) runs again where waiting is allowed.
      if (!ExecControl::IsWouldBlock(tag.status())) block.Fail();
      return tag.status();
    }
    return std::unique_ptr<QueryCursor>(std::make_unique<DoneCursor>(
        std::move(tag).value(), 0, std::move(notice), std::move(notice_state)));
  }
  if (stmt.kind == ast::StatementKind::kCopy && stmt.copy->from) {
    // COPY FROM STDIN inserts when the data is complete: it enters the transaction then.
    if (block.failed()) return block.Enter(catalog, *settings).status();
    if (block.active() ? block.read_only() : settings->default_read_only()) {
      const Status st = Status::Error(sqlstate::kReadOnlySqlTransaction,
                                      "cannot execute COPY FROM in a read-only transaction");
      block.Fail();
      return st;
    }
    return StartCopy(*stmt.copy, catalog, settings, std::move(own_settings), nullptr);
  }
  const bool shows_rows = ShowsRows(stmt);
  MERIDIAN_ASSIGN_OR_RETURN(TransactionBlock::StatementTxn stx,
                            block.Enter(catalog, *settings, &ctl, shows_rows));
  if (Status writable = CheckWritable(stmt, *stx.txn); !writable.ok()) {
    return block.Leave(catalog, *settings, stx, std::move(writable));
  }
  // DDL inside a block: what its undo needs, noted before it runs (ddl_undo.h).
  const DdlBefore ddl_before = stx.autocommit ? DdlBefore{} : NoteBeforeDdl(stmt, catalog);
  for (int attempt = 0;; ++attempt) {
    Result<std::unique_ptr<QueryCursor>> cursor =
        StartInTxn(stmt, catalog, ctl, params, settings, own_settings, stx.txn, plans);
    if (!cursor.ok() && cursor.status().sqlstate() == sqlstate::kSerializationFailure &&
        block.CanRetry(stx) && attempt < kMaxStatementRetries) {
      // Nothing reached the client yet: undo the statement and run it on a new snapshot.
      if (Status undone = stx.txn->RollbackTo(stx.mark); !undone.ok()) {
        return block.Leave(catalog, *settings, stx, std::move(undone));
      }
      MERIDIAN_RETURN_IF_ERROR(stx.txn->RefreshSnapshot(&ctl, shows_rows));
      continue;
    }
    if (cursor.ok() && stx.autocommit && !stx.txn->wrote() &&
        (!(*cursor)->columns().empty() || (*cursor)->copy_out())) {
      // A query read lazily: its transaction stays open (so garbage collection keeps the
      // versions its snapshot needs) until the last row is fetched or the cursor goes.
      return std::unique_ptr<QueryCursor>(
          std::make_unique<AutocommitCursor>(std::move(cursor).value(), stx.txn));
    }
    if (cursor.ok() && !stx.autocommit) block.AddDdlUndo(MakeDdlUndo(stmt, ddl_before, catalog));
    MERIDIAN_RETURN_IF_ERROR(block.Leave(catalog, *settings, stx, cursor.status()));
    return cursor;
  }
}

}  // namespace

Result<StatementDescription> DescribeStatement(const ast::Statement& stmt,
                                               catalog::Catalog* catalog,
                                               const std::vector<Type>& param_types,
                                               SessionSettings* settings) {
  datetime::ScopedTimeZone in_zone(settings != nullptr ? settings->time_zone() : nullptr);
  catalog::ScopedSearchPath in_path(settings != nullptr ? settings->search_path().get() : nullptr);
  if (stmt.kind == ast::StatementKind::kExecute) {
    return DescribeExecute(*stmt.execute, param_types, settings);
  }
  StatementDescription out;
  ParamTypes types(param_types, ParamTypes::kNoLimit);
  catalog::LockSet locks;  // binding only records the tables; nothing is locked
  std::vector<ModifyingCte> modifying;
  if (FirstModifyingCte(stmt) != nullptr) {
    MERIDIAN_RETURN_IF_ERROR(DescribeModifyingCtes(*StatementWith(stmt), SIZE_MAX, catalog, &locks,
                                                   &types, settings, &modifying));
  }
  Binder binder(catalog, &locks, &types);
  if (settings != nullptr) binder.set_session(settings->session_id());
  binder.set_modifying_ctes(&modifying);
  switch (stmt.kind) {
    case ast::StatementKind::kSelect: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound,
                                binder.BindSelect(*stmt.select));
      out.columns = bound->columns;
      break;
    }
    case ast::StatementKind::kInsert: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundInsert> bound,
                                binder.BindInsert(*stmt.insert));
      out.columns = bound->returning.columns;
      break;
    }
    case ast::StatementKind::kUpdate: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundUpdate> bound,
                                binder.BindUpdate(*stmt.update));
      out.columns = bound->returning.columns;
      break;
    }
    case ast::StatementKind::kDelete: {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundDelete> bound, binder.BindDelete(*stmt.del));
      out.columns = bound->returning.columns;
      break;
    }
    case ast::StatementKind::kExplain: {
      MERIDIAN_ASSIGN_OR_RETURN(out,
                                DescribeStatement(*stmt.explained, catalog, param_types, settings));
      out.columns = {ColumnInfo{"QUERY PLAN", Type::Text(), false}};
      return out;
    }
    case ast::StatementKind::kShow:
      out.columns = ShowColumns(*stmt.variable);
      break;
    default:
      break;  // DDL: no parameters, no rows
  }
  out.param_types = types.Finish();
  return out;
}

}  // namespace meridian::exec
