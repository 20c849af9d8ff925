// The physical operators of the executor (Volcano pull). Each is implemented in its own file:
// seq_scan.cc, values.cc, filter.cc, project.cc, nested_loop_join.cc, hash_aggregate.cc,
// distinct.cc, sort.cc, limit.cc. Row-producing operators only; INSERT/UPDATE/DELETE and DDL
// run as statements (modify_table.h, ddl.h) because they complete within one call.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "binder/bound_expr.h"
#include "catalog/table.h"
#include "execution/aggregate_state.h"
#include "execution/key_table.h"
#include "execution/operator.h"
#include "execution/spill.h"
#include "storage/btree.h"
#include "storage/heap_file.h"

namespace meridian::exec {

// Whether no expression of exprs evaluates a subquery (the operators' QuickRead).
inline bool NoSubquery(const std::vector<BoundExprPtr>& exprs) {
  return std::none_of(exprs.begin(), exprs.end(),
                      [](const BoundExprPtr& e) { return e != nullptr && e->ContainsSubquery(); });
}
inline bool NoSubquery(const BoundExprPtr& e) { return e == nullptr || !e->ContainsSubquery(); }

// An operator that reads one table's rows (full-width) and knows where each came from.
class RowSourceOp : public Operator {
 public:
  // The rid of the row Next returned last (for UPDATE/DELETE).
  storage::Rid last_rid() const { return rid_; }

 protected:
  storage::Rid rid_;
};

// Appends the rid of the row its child returned (read from scan, the access operator at the
// bottom of child, as LockRowsOp does) after the row's `width` columns, as an integer
// (RidValue): the target's rows of UPDATE ... FROM / DELETE ... USING carry it through joins.
class RidColumnOp : public Operator {
 public:
  RidColumnOp(OperatorPtr child, const RowSourceOp* scan, size_t width)
      : child_(std::move(child)), scan_(scan), width_(width) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override {
    return child_->Open(outer, exec);
  }
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;

 private:
  OperatorPtr child_;
  const RowSourceOp* scan_;
  size_t width_;
};
// A rid as RidColumnOp's integer, and back.
int64_t RidValue(storage::Rid rid);
storage::Rid RidOfValue(int64_t v);

// Full scan of a table's heap, decoding every visible tuple (only the columns PruneColumns
// asked for, when it was called). REQUIRES: the statement holds the table's lock during
// Open/Next (released between Fetch calls; the heap cursor and the copied page survive).
class SeqScanOp : public RowSourceOp {
 public:
  // Rows have the width the table had now (when planned): an ALTER TABLE ADD COLUMN
  // between two Fetch calls widens stored rows, never the rows this scan returns.
  explicit SeqScanOp(std::shared_ptr<catalog::Table> table)
      : table_(std::move(table)), width_(table_->types().size()) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  // A scan of a small user table may run as part of a quick write (PlanIsQuickWrite: a hot
  // row of a tiny table, pgbench_branches, TPC-C's district): under ExecControl::no_wait,
  // Open refuses with WouldBlock() when the heap holds more than kQuickScanPages pages (dead
  // versions not yet collected, or slots they left empty), and each page read is charged to
  // the quick budget (kQuickPageCost plus its tuples), so the work on a non-blocking thread
  // stays bounded.
  static constexpr int64_t kQuickScanRows = 1000;
  static constexpr uint32_t kQuickScanPages = 64;
  static constexpr int64_t kQuickPageCost = 4;
  bool SmallTable() const;
  // A small table's scan is a quick read too (TPC-C's warehouse and district, pgbench_branches):
  // bounded by the same page limit under no_wait.
  bool QuickRead() const override { return SmallTable(); }

 private:
  std::shared_ptr<catalog::Table> table_;
  size_t width_;
  ExecContext* exec_ = nullptr;
  storage::HeapFile::Cursor cursor_;
  storage::HeapFile::PageTuples page_;  // the page being returned, from next_tuple_ on
  size_t next_tuple_ = 0;
  bool prune_ = false;
  std::vector<bool> needed_;  // when prune_: the columns decoded (the others are NULL)
  int until_check_ = 0;
  size_t next_system_row_ = 0;
};

// Reads a table through one of its B+tree indexes (index_scan.cc). At Open it evaluates the
// key conditions (constants, outer references) into byte ranges of the index: the product of
// the equality/IN prefix, then an optional range on the next column; NULL never matches. Each
// entry's row is fetched from the heap and re-checked against the entry's key (a row changed
// between two Fetch calls is skipped), or, for an index-only scan, rebuilt from the key alone
// (columns outside the key are NULL; the planner only chooses it when none is needed).
struct KeyCondition;
class IndexScanOp : public RowSourceOp {
 public:
  IndexScanOp(std::shared_ptr<catalog::Table> table, std::shared_ptr<catalog::Index> index,
              std::vector<KeyCondition> keys, std::vector<BoundExprPtr> conds, bool reverse,
              bool index_only);
  ~IndexScanOp() override;
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  bool QuickRead() const override;
  // Decodes only the needed columns and the key's (re-checked on every fetched row); an
  // expression index keeps every column.
  void PruneColumns(const std::vector<bool>& needed) override;
  // Index-only: "Heap Fetches: N", the entries whose visibility was read from the heap (their
  // page not all-visible), summed over loops as PostgreSQL does.
  std::string AnalyzeDetail() const override;

 private:
  Status BuildRanges(const EvalContext& ctx);

  std::shared_ptr<catalog::Table> table_;
  size_t width_;  // as SeqScanOp's
  std::shared_ptr<catalog::Index> index_;
  std::vector<KeyCondition> keys_;
  std::vector<BoundExprPtr> conds_;  // owns what keys_ points to
  bool reverse_;
  bool index_only_;
  ExecContext* exec_ = nullptr;
  std::vector<storage::ScanRange> ranges_;
  size_t next_range_ = 0;
  bool dedupe_ = false;                   // OR intervals may overlap: skip repeated rids
  std::unordered_set<std::string> seen_;  // encoded rids returned (when dedupe_)
  bool cursor_open_ = false;
  storage::BTree::Cursor cursor_;
  std::string key_, value_, bytes_;
  int until_check_ = 0;
  uint64_t removal_epoch_ = 0;  // the heap's removal_epoch() before the cursor opened
  uint64_t heap_fetches_ = 0;   // index-only: entries checked in the heap (not all-visible)
  bool key_needed_ = true;      // PruneColumns: the consumer reads a key column
  bool prune_ = false;
  std::vector<bool> needed_;  // when prune_: the columns decoded (the others are NULL)
};

// An R-tree index scan (index_scan_rtree.cc): the rows whose point over the index's columns
// lies in the query box (one KeyRange per index column, bounds evaluated at Open; an open end
// is infinite, a strict end is taken as closed), then conds re-checked on each row on the
// box's boundary (they own what box points to; a row strictly inside passes them all). The matching
// rids are collected at Open and visited in heap order; each row is read from the heap and checked
// against the snapshot as IndexScanOp does. One interval of a key column's values; a missing end is
// unbounded (NULLs never qualify).
struct KeyRange {
  const BoundExpr* lower = nullptr;
  bool lower_inclusive = true;
  const BoundExpr* upper = nullptr;
  bool upper_inclusive = true;
};

// The version at rid into *bytes: false when it was reclaimed meanwhile (its index entry
// outlived it within one statement) or txn's snapshot does not see it (txn null: every one).
Result<bool> FetchVisibleVersion(catalog::Table& table, storage::Rid rid,
                                 const catalog::Transaction* txn, std::string* bytes);

//
// Nearest-neighbour mode (nearest set, box empty): rows in increasing Euclidean distance of
// their point from the point nearest evaluates to at Open (a float8[]: element j is the
// coordinate of index dimension point_dims[j]; a missing one is 0) — best-first
// RTree::Nearest, fetched in batches that grow fourfold (each a fresh search that skips the
// rids already handed out), so ORDER BY ... LIMIT k needs no sort.
class RTreeScanOp : public RowSourceOp {
 public:
  RTreeScanOp(std::shared_ptr<catalog::Table> table, std::shared_ptr<catalog::Index> index,
              std::vector<KeyRange> box, std::vector<BoundExprPtr> conds,
              const BoundExpr* nearest = nullptr, std::vector<int> point_dims = {},
              const BoundExpr* geo_query = nullptr, bool index_only = false);
  ~RTreeScanOp() override;
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  // Index-only: "Heap Fetches: N" (see IndexScanOp).
  std::string AnalyzeDetail() const override;
  // Notes whether the consumer reads an indexed column (else an index-only entry that surely
  // passes yields a row of NULLs without decoding its box).
  void PruneColumns(const std::vector<bool>& needed) override;

 private:
  // Nearest mode: the next batch of rids in distance order into rids_; false at the end.
  Result<bool> NextBatch();
  // Box mode: the entries "entry op query_" into rids_, sorted by rid without repeats (and
  // their boxes into boxes_ when index-only).
  Status SearchQuery(storage::RTree* tree, storage::RTreeOp op);
  // Index-only: the row of the entry's box alone (other columns NULL); false when the box
  // does not hold an indexed value exactly (an infinite coordinate, a fraction for an integer).
  bool RowFromEntry(const storage::Box& box, Row* row) const;
  // Whether a row whose index box is b passes the scan's conditions without evaluating them.
  bool SurelyPasses(const storage::Box& b) const;

  // Index-only (box modes, planned only when every needed column is an index column whose
  // value the entry holds exactly): an entry whose heap page is all-visible, with no slot freed
  // since Open (HeapFile::removal_epoch), is answered from its box without the heap.
  bool index_only_ = false;
  std::vector<storage::Box> boxes_;  // index-only: boxes_[i] is rids_[i]'s entry
  uint64_t removal_epoch_ = 0;
  uint64_t heap_fetches_ = 0;
  bool entry_needed_ = true;  // PruneColumns: the consumer reads an indexed column

  const BoundExpr* nearest_;
  // An index on a point or box column: the point or box the conditions compare it with (a
  // run-time constant); the scan finds the entries overlapping it widened by geo::kEpsilon
  // and re-checks every row. Nearest mode there: nearest_ is a point value.
  const BoundExpr* geo_query_;
  // Box mode there: how a row's box B relates to the exact query box geo_exact_ when its one
  // condition surely holds without evaluating it (0: never known, 1 B inside, 2 B overlapping,
  // 3 B containing it); the fuzz of && @> <@ only widens what the exact tests accept.
  int geo_sure_ = 0;
  storage::Box geo_exact_;
  std::vector<int> point_dims_;
  std::vector<double> point_;  // nearest mode: the query point, one coordinate per dimension
  size_t found_ = 0;           // nearest mode: entries handed out in distance order so far
  size_t batch_ = 0;           // nearest mode: size of the next search
  bool exhausted_ = false;     // nearest mode: the last search found every entry
  std::unordered_set<uint64_t> handed_;  // nearest mode: rids (page << 16 | slot) handed out
  std::shared_ptr<catalog::Table> table_;
  size_t width_;
  std::shared_ptr<catalog::Index> index_;
  std::vector<KeyRange> box_;
  std::vector<BoundExprPtr> conds_;
  ExecContext* exec_ = nullptr;
  EvalContext ctx_;
  storage::Box query_;              // the box at Open
  std::vector<storage::Rid> rids_;  // matches of the box, in rid order
  size_t next_ = 0;
  std::string bytes_;
  int until_check_ = 0;
};

// Rows of expressions (VALUES, and the single empty row of SELECT without FROM).
class ValuesOp : public Operator {
 public:
  explicit ValuesOp(std::vector<std::vector<BoundExprPtr>> rows) : rows_(std::move(rows)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  // One row whose expressions evaluate no subquery (an INSERT of it is a quick write).
  bool OneRowWithoutSubquery() const;

 private:
  std::vector<std::vector<BoundExprPtr>> rows_;
  EvalContext ctx_;
  size_t next_ = 0;
};

// The values of one set-returning call for one set of argument values: unnest(array) one per
// element, generate_series(a, b [, step]) one per number, generate_subscripts(array, dim [,
// reverse]) the subscripts of dimension dim (1 for Meridian's one-dimensional arrays). A NULL
// argument gives no values (the functions are strict).
class SetFunctionIterator {
 public:
  // Starts over; 22023 for a zero step.
  Status Start(const BoundExpr& call, std::vector<Value> args);
  // The next value into *v; false once done.
  bool Next(Value* v);

 private:
  Func func_ = Func::kUnnest;
  std::vector<Value> args_;
  bool done_ = true;
  size_t next_ = 0;      // unnest: next element
  int64_t current_ = 0;  // generate_series / generate_subscripts: next value
  int64_t stop_ = 0, step_ = 1;
};

// FunctionScanOp: the rows of a set-returning call in FROM, one column. Its arguments are
// evaluated at Open in the enclosing query's context (they may be correlated).
class FunctionScanOp : public Operator {
 public:
  explicit FunctionScanOp(BoundExprPtr call) : call_(std::move(call)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;

 private:
  BoundExprPtr call_;
  SetFunctionIterator values_;
  uint64_t produced_ = 0;
  ExecContext* exec_ = nullptr;
};

// ProjectSetOp: set-returning calls of a select list (BoundSelect::set_functions). Per input
// row, the calls (arguments over that row) run in lockstep: output row k is the input row
// followed by each call's k-th value (NULL once that call is done), until every call is done;
// an input row for which every call gives nothing gives no row (PostgreSQL 10's ProjectSet).
class ProjectSetOp : public Operator {
 public:
  ProjectSetOp(OperatorPtr child, std::vector<BoundExprPtr> calls)
      : child_(std::move(child)), calls_(std::move(calls)), values_(calls_.size()) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;

 private:
  OperatorPtr child_;
  std::vector<BoundExprPtr> calls_;
  std::vector<SetFunctionIterator> values_;
  EvalContext ctx_;
  Row input_;
  bool have_input_ = false;
  uint64_t produced_ = 0;
};

class FilterOp : public Operator {
 public:
  FilterOp(OperatorPtr child, BoundExprPtr predicate)
      : child_(std::move(child)), predicate_(std::move(predicate)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  bool QuickRead() const override { return child_->QuickRead() && NoSubquery(predicate_); }

 private:
  OperatorPtr child_;
  BoundExprPtr predicate_;
  EvalContext ctx_;
};

// SELECT ... FOR UPDATE / FOR SHARE: passes its child's rows on after taking the row write lock
// of each (lock-only: the version stays visible) through the transaction. scan is the table's
// access operator at the bottom of child (its last_rid names the row). A row another running
// transaction holds is waited for (NOWAIT: 55P03; SKIP LOCKED: skipped); a row replaced by a
// transaction that committed after the snapshot is 40001 (the server reruns a READ COMMITTED
// statement with a new snapshot).
class LockRowsOp : public Operator {
 public:
  LockRowsOp(OperatorPtr child, const RowSourceOp* scan, std::shared_ptr<catalog::Table> table,
             bool nowait, bool skip_locked)
      : child_(std::move(child)),
        scan_(scan),
        table_(std::move(table)),
        nowait_(nowait),
        skip_locked_(skip_locked) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  // Bounded like its scan; under ExecControl::no_wait a row another transaction holds refuses
  // with WouldBlock (Transaction::WaitFor). A plan that locks rows is never a quick read, only
  // a quick write inside a block (PlanIsQuickWrite), whose refusal undoes its lock marks.
  bool QuickRead() const override { return child_->QuickRead(); }

 private:
  OperatorPtr child_;
  const RowSourceOp* scan_;
  std::shared_ptr<catalog::Table> table_;
  bool nowait_, skip_locked_;
  ExecContext* exec_ = nullptr;
};

class ProjectOp : public Operator {
 public:
  ProjectOp(OperatorPtr child, std::vector<BoundExprPtr> exprs)
      : child_(std::move(child)), exprs_(std::move(exprs)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  bool QuickRead() const override;

 private:
  OperatorPtr child_;
  std::vector<BoundExprPtr> exprs_;
  std::vector<bool> skip_;  // PruneColumns: unread copies of input columns, output as NULL
  EvalContext ctx_;
  Row input_;
};

// Keeps the first n columns of each row (drops hidden ORDER BY columns).
class TrimOp : public Operator {
 public:
  TrimOp(OperatorPtr child, size_t n) : child_(std::move(child)), n_(n) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override {
    return child_->Open(outer, exec);
  }
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override { child_->PruneColumns(needed); }
  bool QuickRead() const override { return child_->QuickRead(); }

 private:
  OperatorPtr child_;
  size_t n_;
};

// The join kinds the operators implement (FROM is a left-deep chain: left = the tables so far,
// right = the next table).
enum class JoinKind { kInner, kLeft, kRight, kFull };

// Nested-loop join. Materialised mode (the default): the right input is read once per Open and
// kept in memory; every left row meets every right row. Rescan mode (index nested-loop join, a
// LATERAL item): the right input is re-opened for every left row with that row as its outer
// context (depth 1), so an index scan or a LATERAL subquery on the right can read the left
// row's values; only inner and left joins.
// condition (over the joined row; null = true) decides a match; unmatched left rows (left/full)
// and right rows (right/full) come out NULL-extended.
class NestedLoopJoinOp : public Operator {
 public:
  NestedLoopJoinOp(OperatorPtr left, OperatorPtr right, JoinKind kind = JoinKind::kInner,
                   BoundExprPtr condition = nullptr, bool rescan = false, size_t left_width = 0,
                   size_t right_width = 0)
      : left_(std::move(left)),
        right_(std::move(right)),
        kind_(kind),
        condition_(std::move(condition)),
        rescan_(rescan),
        left_width_(left_width),
        right_width_(right_width) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  // Passes each side the columns read above and by the condition. In rescan mode the left
  // side keeps every column: the right side reads the current left row as its outer row.
  void PruneColumns(const std::vector<bool>& needed) override;
  // Both sides quick: their scans charge every row and every rescan to the quick budget.
  bool QuickRead() const override {
    return left_->QuickRead() && right_->QuickRead() && NoSubquery(condition_);
  }
  // As HashJoinOp::SetOutputOrder (the condition is remapped); inner and left joins only.
  bool SetOutputOrder(std::vector<uint32_t> out);

 private:
  // The next right row for the current left row (the materialised one in place, or read into
  // *buffer when rescanning); null at the end.
  Result<const Row*> NextRight(Row* buffer);
  Result<bool> Matches(const Row& joined);

  OperatorPtr left_, right_;
  JoinKind kind_;
  BoundExprPtr condition_;
  bool rescan_;
  size_t left_width_, right_width_;
  std::vector<uint32_t> out_;  // SetOutputOrder's slots; empty: left then right columns
  const EvalContext* outer_ = nullptr;
  ExecContext* exec_ = nullptr;
  EvalContext left_ctx_;  // rescan: the right side's outer context (the current left row)
  std::vector<Row> right_rows_;
  std::vector<bool> right_matched_;
  bool materialised_ = false;
  Row left_row_;
  bool have_left_ = false;
  bool left_matched_ = false;
  size_t right_pos_ = 0;
  bool left_done_ = false;
  size_t unmatched_pos_ = 0;  // right/full: emitting unmatched right rows
  int until_check_ = 0;
};

// Right and full joins end by emitting, one per call, the right rows no left row matched,
// NULL-extended on the left; false when none is left. *pos walks rows (nested_loop_join.cc).
bool NextUnmatchedRight(const std::vector<Row>& rows, const std::vector<bool>& matched,
                        size_t left_width, size_t* pos, Row* out);

// A join's SetOutputOrder: true when out is a permutation of [0, width) and condition (null:
// none) holds no subquery; then condition's columns of the joined row are moved to their
// slots out[c]. False, changing nothing, otherwise.
bool PermuteJoinCondition(BoundExpr* condition, const std::vector<uint32_t>& out, size_t width);
// The columns read, in the joined row's order, from those read in SetOutputOrder's slots.
std::vector<bool> UnpermuteColumns(const std::vector<bool>& used, const std::vector<uint32_t>& out);

// Hash join on equality keys: the right input is read once per Open into a hash table keyed by
// its key values (rows with a NULL key never match); each left row probes it. residual (over the
// joined row) must also hold. Join kinds and NULL extension as NestedLoopJoinOp; output rows
// come in left-input order, a left row's matches in right-input order.
// Layout (hash_join.cc): a KeyTable from key to the first and last of its rows (chained through
// next_ in input order), the right rows' stored columns (only those the consumer or the residual
// reads, after PruneColumns) in one flat array, so a probe costs one table access and a match
// one read of its row.
// Beyond twice work_mem (PostgreSQL's hash_mem_multiplier), a grace hash join: the right rows
// go to 16 partitions by a hash of their key (HashSpill, two sides), then the left rows too (a
// left row with a NULL key is emitted NULL-extended or dropped at once), and each partition is
// joined with its own table, repartitioned by the next 4 hash bits when its right rows still
// do not fit; a partition whose right rows all share one key (no split can help) is joined
// chunk by chunk: each chunk that fits meets all of the partition's left rows, a bit per left
// row remembering a match for the NULL extension of left/full joins. Output order is then per
// partition.
class HashJoinOp : public Operator {
 public:
  HashJoinOp(OperatorPtr left, OperatorPtr right, std::vector<BoundExprPtr> left_keys,
             std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, JoinKind kind,
             size_t left_width, size_t right_width);
  ~HashJoinOp() override;
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  // "Buckets: N  Batches: N  Memory Usage: NkB" (PostgreSQL's Hash node figures).
  std::string AnalyzeDetail() const override;
  bool QuickRead() const override {
    return left_->QuickRead() && right_->QuickRead() && NoSubquery(left_keys_) &&
           NoSubquery(right_keys_) && NoSubquery(residual_);
  }
  // Writes column c of each joined row (left columns, then right) to slot out[c], so that the
  // planner's return to FROM order needs no projection above; the residual is remapped to
  // those slots. False, changing nothing, unless out permutes the joined row's columns and the
  // residual holds no subquery (PermuteJoinCondition). Before PruneColumns and Open.
  bool SetOutputOrder(std::vector<uint32_t> out);

 private:
  Status Build();
  // The key of row under keys (evaluated with ctx); false when a key value is NULL. Integer
  // mode: *int_key; else the encoded key in *key.
  Result<bool> KeyOf(const std::vector<BoundExprPtr>& keys, const Row& row, int64_t* int_key,
                     std::string* key);
  // *row = the left row (or NULLs when left is null) joined with right row pos (or NULLs when
  // pos is kNone).
  void Join(const Row* left, uint32_t pos, Row* row) const;
  // The same with the right row's stored_ values at stored (null: NULLs).
  void JoinStored(const Row* left, const Value* stored, Row* row) const;
  bool TracksRight() const { return kind_ == JoinKind::kRight || kind_ == JoinKind::kFull; }
  bool KeepsLeft() const { return kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull; }

  // Spilling (hash_join.cc): the stages Next goes through.
  enum class Stage : uint8_t {
    kProbe,           // left rows meet the table (the left input, or a partition's file)
    kRightUnmatched,  // right/full: the table's right rows no left row matched
    kPartitionLeft,   // spilled: left rows to their partitions' files
    kNullRight,       // spilled, right/full: right rows with a NULL key
    kNextBatch,       // spilled: the next partition's table
    kLeftUnmatched,   // left/full, a partition joined chunk by chunk: its unmatched left rows
    kDone
  };
  struct Spill;
  Result<bool> Probe(Row* row);
  void ResetTable();
  size_t RowCost(const Value* stored, size_t key_bytes) const;
  uint64_t HashOf(int64_t int_key, std::string_view key) const;
  Status StartSpill(const std::vector<bool>& keyed_rows, const std::vector<int64_t>& int_keys);
  Status SpillRight(Row* r, bool keyed, int64_t int_key, const std::string& key);
  Result<bool> PartitionLeft(Row* row);
  Result<bool> LoadBuild();
  Status NextBatch();
  Status AfterBatch();
  Result<bool> SameKeys(const SpillFile& file);
  // ExecControl::Check() every kCheckInterval calls (invariant 3).
  Status Poll();

  OperatorPtr left_, right_;
  std::vector<BoundExprPtr> left_keys_, right_keys_;
  BoundExprPtr residual_;
  std::vector<uint32_t> out_;  // SetOutputOrder's slots; empty: left then right columns
  JoinKind kind_;
  size_t left_width_, right_width_;
  bool int_keys_;  // one key, integral on both sides: KeyTable's integer mode
  const EvalContext* outer_ = nullptr;
  ExecContext* exec_ = nullptr;
  bool built_ = false;
  Stage stage_ = Stage::kProbe;
  static constexpr uint32_t kNone = 0xFFFFFFFF;
  std::vector<uint32_t> stored_;    // the right columns kept, in order (all before pruning)
  std::vector<uint32_t> unstored_;  // the others (NULL in output rows)
  struct Chain {
    uint32_t head = 0;  // the key's first right row
    uint32_t tail = 0;  // and its last: a key with one row needs no look at next_
  };
  KeyTable<Chain> table_;
  HugeVector<uint32_t> next_;  // per right row: the next row with its key (after tail: unset)
  // stored_.size() values per right row, in input order.
  HugeVector<Value> right_values_;
  std::vector<bool> right_matched_;  // right/full joins: per right row
  std::unique_ptr<Spill> spill_;     // beyond work_mem: partitions on disk (hash_join.cc)

  // The next left row, from the read-ahead batch (refilled by FillAhead).
  Result<bool> NextLeft(Row* row);
  void FillAhead();

  // Probe-side read-ahead: left rows are read in batches (1, 2, 4, ... up to kReadAhead rows,
  // so a LIMIT stops it early) and the table slot of each one's key is prefetched, so the cache
  // misses of a batch overlap. An error of the left input is kept until the rows before it are
  // joined, so it surfaces where it would without read-ahead.
  static constexpr size_t kReadAhead = 32;
  std::vector<Row> ahead_;
  size_t ahead_pos_ = 0, ahead_size_ = 0, ahead_limit_ = 1;
  Status ahead_error_;
  bool ahead_end_ = false;
  Row left_row_;
  bool have_left_ = false;
  bool left_matched_ = false;
  // The current left row's candidates: match_ (kNone: none left) up to match_tail_.
  uint32_t match_ = kNone, match_tail_ = kNone;
  std::string probe_key_;
  size_t unmatched_pos_ = 0;  // right/full: next right row to consider for NULL extension
  int until_check_ = 0;
};

// Hash aggregation: output rows are the GROUP BY values followed by the aggregate results,
// one row per group (exactly one row when there is no GROUP BY). Groups are found through a
// KeyTable (integer mode for one integral GROUP BY expression, NULL its own group); without
// GROUP BY every row goes to group 0 with no lookup. Key values and states are kept in flat
// arrays (one allocation per array, not per group). Beyond work_mem (groups counted at their
// fixed size plus their key values' bytes; string_agg/array_agg contents are not counted),
// rows of groups not yet in memory go to one of 16 spill files by a hash of their key (rows of
// groups in memory still aggregate there); after the in-memory groups are returned, each file
// is aggregated the same way, spilling again by the next 4 bits of the hash if it must
// (PostgreSQL 13's hash aggregation). Groups come in first-seen order when nothing spilled.
class HashAggregateOp : public Operator {
 public:
  HashAggregateOp(OperatorPtr child, std::vector<BoundExprPtr> groups,
                  std::vector<BoundExprPtr> aggregates, bool scalar);
  ~HashAggregateOp() override;
  // Groups by groups[keys[0]], groups[keys[1]], ... only (from the next Open; all of them at
  // first); its rows are those keys' values, then the aggregates (GroupingSetsAggregateOp).
  void SelectKeys(std::vector<size_t> keys, bool scalar);
  // Plain GROUP BY only: the groups_ marked dependent are determined by the others (a FROM
  // table's primary key is among them, PostgreSQL's remove_useless_groupby_columns), so they
  // are left out of the hash key and taken from each group's first row; rows still hold every
  // GROUP BY value in order.
  void CarryDependentKeys(const std::vector<bool>& dependent);
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  std::string AnalyzeDetail() const override;
  bool QuickRead() const override {
    return child_->QuickRead() && NoSubquery(groups_) && NoSubquery(aggregates_);
  }
  // The last run's batches (1 + spill files read), peak group memory and spill bytes.
  uint64_t Batches() const;
  size_t PeakBytes() const;
  uint64_t DiskBytes() const;

 private:
  // Aggregates the rows next gives into the in-memory groups, spilling as described above.
  Status Consume(const std::function<Result<bool>(Row*)>& next);
  // The group of the row in ctx_.row, created with its key values when new and create is set,
  // else kNone; without create, *hash is the key's hash (for the spill file).
  Result<uint32_t> GroupOf(bool create, uint64_t* hash);
  Status NewGroup();
  void ResetGroups();

  OperatorPtr child_;
  std::vector<BoundExprPtr> groups_;
  std::vector<BoundExprPtr> aggregates_;
  std::vector<size_t> active_;   // the groups_ grouped by (SelectKeys)
  std::vector<size_t> carried_;  // the groups_ carried beside the key (CarryDependentKeys)
  bool scalar_;
  bool int_keys_;  // one GROUP BY expression of an integral type
  EvalContext ctx_;
  bool consumed_ = false;
  static constexpr uint32_t kNone = 0xFFFFFFFF;
  KeyTable<uint32_t> index_;     // key → group
  uint32_t null_group_ = kNone;  // integer mode: the group of a NULL key
  size_t group_count_ = 0;
  // Per group: the active_ values, or with carried_ every groups_ value in order.
  std::vector<Value> group_values_;
  std::vector<AggState> states_;  // aggregates_.size() per group
  std::vector<Value> scratch_;    // per GROUP BY expression (EvalRef)
  std::vector<const Value*> key_refs_;
  std::string key_;
  size_t next_ = 0;
  // Spilling (see above).
  struct Spill;
  std::unique_ptr<Spill> spill_;
};

// UNION ALL, INTERSECT [ALL], EXCEPT [ALL] of two inputs with the same column types (rows are
// compared as a whole, NULLs equal). UNION ALL streams left then right (UNION is planned as a
// DistinctOp over it, spilling beyond work_mem); the others read the right input into a hash
// table of row counts first, then stream the left input. Beyond work_mem (distinct right rows,
// and for EXCEPT the distinct left rows returned) both inputs go to 16 partitions by a hash of
// the row (HashSpill, two sides: right rows as their key and count, left rows whole) and each
// partition is done the same way, split by the next 4 hash bits when its right rows still do
// not fit. When EXCEPT's returned rows fill work_mem, the rest of the left rows (those not in
// the table) are partitioned with no right rows: all that is left to do is to drop duplicates.
class SetOpOp : public Operator {
 public:
  SetOpOp(OperatorPtr left, OperatorPtr right, ast::SetOp op, bool all);
  ~SetOpOp() override;
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  // INTERSECT and EXCEPT: "Batches: N  Memory Usage: NkB" (and Disk Usage when spilled).
  std::string AnalyzeDetail() const override;

 private:
  Status Check();
  // Adds count to key's entry (a new entry costs its bytes).
  void Count(const std::string& key, int64_t count);
  Status LoadRight();
  // The rest of the current left rows to partitions (those whose key is in counts_ dropped).
  Status SpillLeft(Row* row, const std::string& key);
  Result<bool> NextLeft(Row* row);
  Result<bool> NextPartition();

  OperatorPtr left_, right_;
  ast::SetOp op_;
  bool all_;
  ExecContext* exec_ = nullptr;
  bool right_loaded_ = false;
  bool left_done_ = false;
  // Right row key -> copies left to match; EXCEPT (without ALL): -1 for a left row returned.
  std::unordered_map<std::string, int64_t> counts_;
  size_t budget_ = 0;
  bool can_spill_ = false;
  size_t held_bytes_ = 0, peak_bytes_ = 0;
  std::unique_ptr<HashSpill> parts_;  // side 0: right (key, count), side 1: left rows
  std::unique_ptr<SpillFile> left_file_;
  std::unique_ptr<SpillFile::Reader> left_reader_;
  int until_check_ = 0;
};

// Drops rows whose first n columns equal an earlier row's.
class DistinctOp : public Operator {
 public:
  DistinctOp(OperatorPtr child, size_t n) : child_(std::move(child)), n_(n) {}
  ~DistinctOp() override;
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  bool QuickRead() const override { return child_->QuickRead(); }

 private:
  OperatorPtr child_;
  size_t n_;
  std::unordered_set<std::string> seen_;
  // Beyond work_mem, rows with keys not yet seen are set aside by key hash and deduplicated
  // file by file afterwards (HashSpill), each file with a fresh set.
  ExecContext* exec_ = nullptr;
  size_t budget_ = 0;
  size_t held_bytes_ = 0;
  bool can_spill_ = false;
  std::unique_ptr<HashSpill> spill_;
  std::unique_ptr<SpillFile> file_;
  std::unique_ptr<SpillFile::Reader> reader_;
  uint64_t read_ = 0;
};

// DISTINCT ON: of rows sorted on the key columns, the first of each run of equal keys (NULLs
// equal each other, as in PostgreSQL's grouping).
class DistinctOnOp : public Operator {
 public:
  DistinctOnOp(OperatorPtr child, std::vector<int> columns)
      : child_(std::move(child)), columns_(std::move(columns)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  bool QuickRead() const override { return child_->QuickRead(); }

 private:
  OperatorPtr child_;
  std::vector<int> columns_;
  std::vector<Value> last_;  // the key of the last row returned
  bool have_last_ = false;
};

struct SortKey {
  int column = 0;
  bool descending = false;
  bool nulls_first = false;
};

// The order of two values under one ORDER BY key: < 0 when x sorts first, 0 when tied (NULLs
// tie with each other and go first exactly when nulls_first). Sort and aggregate ORDER BY.
int CompareSortKey(const Value& x, const Value& y, bool descending, bool nulls_first);

// Sorts its whole input on the first Next (sort.cc): in memory while the rows fit the
// session's work_mem, else as an external merge sort: each time the rows held reach
// work_mem they are sorted and written to a temporary file (a run, SpillFile), and the runs
// and the rows still held are merged as they are read. Stable (equal keys keep their input
// order) either way.
class SpillFile;
class SortOp : public Operator {
 public:
  SortOp(OperatorPtr child, std::vector<SortKey> keys);
  ~SortOp() override;
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  std::string AnalyzeDetail() const override;
  bool QuickRead() const override { return child_->QuickRead(); }

 private:
  bool Less(const Row& a, const Row& b) const;
  // The merge heap's order of sources a and b by their current rows (std heap: true when a
  // comes out after b; a tie goes to the lower source, the earlier input).
  bool HeapAfter(size_t a, size_t b) const;
  Status SortHeld();   // rows_ in key order (a stable merge sort in steps, polling cancel)
  Status SpillHeld();  // rows_ sorted into a new run; rows_ emptied
  Status MergeRuns(size_t first);  // runs_[first..] merged into one run in their place
  // Readers on runs_[first..] (and, with_held, rows_ from next_) for NextMerged.
  Status StartMerge(size_t first, bool with_held);
  static constexpr size_t kMergeFan = 16;
  Result<bool> NextMerged(Row* row);

  OperatorPtr child_;
  std::vector<SortKey> keys_;
  ExecContext* exec_ = nullptr;
  std::vector<Row> rows_;
  size_t held_bytes_ = 0;  // estimate of rows_' memory
  size_t peak_bytes_ = 0;
  bool sorted_ = false;
  size_t next_ = 0;
  // External sort: the runs on disk, and per source (each run, then rows_ from next_) its
  // current row; heap_ orders the sources with a current row by it.
  std::vector<std::unique_ptr<SpillFile>> runs_;
  std::vector<int> levels_;  // per run: how many merge passes made it
  struct Source;
  std::vector<Source> sources_;
  std::vector<size_t> heap_;
  uint64_t spilled_bytes_ = 0;
};

// LIMIT/OFFSET; the counts are evaluated at Open (they may not reference columns).
class LimitOp : public Operator {
 public:
  LimitOp(OperatorPtr child, BoundExprPtr limit, BoundExprPtr offset)
      : child_(std::move(child)), limit_(std::move(limit)), offset_(std::move(offset)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  bool QuickRead() const override {
    return child_->QuickRead() && NoSubquery(limit_) && NoSubquery(offset_);
  }

 private:
  OperatorPtr child_;
  BoundExprPtr limit_, offset_;
  int64_t remaining_ = -1;  // -1: no limit
  int64_t skip_ = 0;
};

}  // namespace meridian::exec
