// Index: the runtime state of one secondary or constraint index — its schema and its tree file,
// a B+tree or (USING rtree) an R*-tree. B+tree indexes are always non-unique trees at the
// storage level: an entry is (encoded key columns, encoded Rid), so several versions of one key
// coexist (MVCC) and uniqueness is enforced by the executor (a lookup before insert, NULLs
// distinct as in PostgreSQL). An R-tree index holds (point of the k indexed numeric columns as
// float64, Rid) per row version; a version with a NULL in an indexed column has no entry.
// An expression index keys some columns by an expression over the row (`lower(email)`), and a
// partial index holds entries only for rows its predicate accepts; both are evaluated through
// IndexExprs, which the query layers compile (the catalog cannot see the evaluator).
// Concurrency: an Index belongs to its Table and is used under that table's lock (shared to
// read, exclusive to change); the trees themselves are thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "meridian/thread_annotations.h"
#include "meridian/value.h"
#include "storage/btree.h"
#include "storage/heap_file.h"
#include "storage/rtree.h"

namespace meridian::catalog {

enum class IndexKind : uint8_t {
  kIndex = 0,       // CREATE [UNIQUE] INDEX
  kPrimaryKey = 1,  // PRIMARY KEY constraint (unique)
  kUnique = 2,      // UNIQUE constraint
};

// The index's access method (pg_am): a B+tree, or an R*-tree over 1..8 numeric columns.
enum class IndexMethod : uint8_t {
  kBtree = 0,
  kRtree = 1,
};

struct IndexSchema;
struct TableSchema;

// The compiled key expressions and predicate of an expression or partial index: built by the
// query layers from the stored SQL text (execution/index_exprs.cc), installed once per process
// with SetIndexExprCompiler. Immutable and thread-safe: evaluation keeps no state.
class IndexExprs {
 public:
  virtual ~IndexExprs() = default;
  // The value of key column k (an expression key) for a full table row.
  virtual Result<Value> Key(size_t k, const Row& row) const = 0;
  // True when the predicate holds for the row (NULL and false do not); true without one.
  virtual Result<bool> Matches(const Row& row) const = 0;
  // The table columns the expressions and the predicate read (ascending).
  virtual std::vector<int> Columns() const = 0;
  // Key column k as PostgreSQL's pg_get_indexdef prints it: the expression (pretty or plain
  // layout) in parentheses unless it reads as a function call (lower(email), COALESCE(x, 0)).
  virtual std::string Display(size_t k, bool pretty) const = 0;
  // The predicate as pg_get_indexdef prints it after WHERE (empty without one).
  virtual std::string PredicateDisplay(bool pretty) const = 0;
  // Key column k's type and its pg_attribute name (PostgreSQL's: lower, expr, expr1, ...).
  virtual Type KeyType(size_t k) const = 0;
  virtual std::string KeyName(size_t k) const = 0;
};

using IndexExprCompiler = std::function<Result<std::shared_ptr<const IndexExprs>>(
    const TableSchema& table, const IndexSchema& index)>;
// Installs the compiler (the daemon does, at startup, before any catalog opens).
void SetIndexExprCompiler(IndexExprCompiler compiler);
// Compiles index's expressions over table; XX000 when no compiler is installed.
Result<std::shared_ptr<const IndexExprs>> CompileIndexExprs(const TableSchema& table,
                                                            const IndexSchema& index);

// Key column k of an IndexSchema is an expression when columns[k] == kExpressionKey.
inline constexpr int kExpressionKey = -1;

struct IndexSchema {
  uint32_t id = 0;  // shares the relation id space with tables (file tables/<id>.btree)
  std::string name;
  std::string nsp = "public";  // its table's schema
  uint32_t table_id = 0;
  IndexKind kind = IndexKind::kIndex;
  bool unique = false;
  std::vector<int> columns;      // table column indexes, in key order
  std::vector<bool> descending;  // per key column (all false for an R-tree)
  IndexMethod method = IndexMethod::kBtree;
  // Per key column: the expression's SQL text as written (re-parsed and bound at open; shown
  // deparsed, IndexExprs::Display) when columns[k] == kExpressionKey, else empty. Empty
  // vector: no expression keys.
  std::vector<std::string> expressions;
  std::string predicate;  // a partial index's WHERE as written; empty: every row
  // Compiled expressions and predicate (set whenever NeedsEval(); null otherwise).
  std::shared_ptr<const IndexExprs> compiled;

  bool IsConstraint() const { return kind != IndexKind::kIndex; }
  bool HasExpressions() const {
    for (int c : columns) {
      if (c == kExpressionKey) return true;
    }
    return false;
  }
  bool IsPartial() const { return !predicate.empty(); }
  bool NeedsEval() const { return HasExpressions() || IsPartial(); }
  // A plain index over table columns only: every row has an entry of those columns' values
  // (what foreign keys, index nested loops and ON CONFLICT (cols) may rely on).
  bool IsPlain() const { return !NeedsEval(); }
  bool IsRtree() const { return method == IndexMethod::kRtree; }
};

// The 6-byte index value of a heap row id: page then slot, big-endian (so rid order is byte
// order).
std::string EncodeRid(storage::Rid rid);
storage::Rid DecodeRid(std::string_view bytes);

// A number as an R-tree coordinate: its float64 value (rounded to nearest, so the map is
// monotonic and a closed box over rounded bounds holds every row the exact bounds hold), NaN as
// +infinity (PostgreSQL sorts NaN above every number). False for NULL and non-numbers.
bool RTreeCoordinate(const Value& v, double* out);
// A point or box value (its text, meridian/geometry.h) as a 2-D R-tree box (a point is a
// degenerate box); false for NULL, a non-string and a NaN coordinate (such rows are not indexed).
bool RTreeGeometry(const Value& v, storage::Box* box);
// The dimensions of an R-tree index: 2 for an index on one point or box column, else one per
// (numeric) column.
uint32_t RTreeDims(const IndexSchema& index, const TableSchema& table);

class Index {
 public:
  Index(IndexSchema schema, std::unique_ptr<storage::BTree> tree);
  Index(IndexSchema schema, std::unique_ptr<storage::RTree> rtree);
  ~Index();

  const IndexSchema& schema() const { return schema_; }
  const std::string& name() const { return schema_.name; }
  // The B+tree of a B+tree index (null for an R-tree index, or once closed).
  storage::BTree* tree() { return tree_.get(); }
  // The R*-tree of an R-tree index (null for a B+tree index, or once closed).
  storage::RTree* rtree() { return rtree_.get(); }
  // Whichever tree the index has (null once closed): flushing, checkpoint images.
  storage::IndexFile* file();

  // R-tree: the row's point over the indexed columns into *box; false when one is NULL (the
  // row is not indexed).
  bool RowPoint(const Row& row, storage::Box* box) const;

  // The key columns' values of a full table row (expression keys evaluated), and their
  // encoded key. Fails only when an expression key's evaluation does.
  Result<std::vector<Value>> KeyValues(const Row& row) const;
  Result<std::string> EncodeKey(const Row& row) const;
  // True when a key column of row is NULL (NULLs never conflict in a unique index).
  Result<bool> KeyHasNull(const Row& row) const;
  // True when the row has an entry: always, but for a partial index whose predicate rejects it.
  Result<bool> Covers(const Row& row) const;

  // Adds the row version's entry (none for an R-tree row with a NULL coordinate). A B+tree
  // ignores a pair already present; an R-tree would store it twice, so recovery's catch-up
  // passes if_absent (a search first).
  Status Insert(const Row& row, storage::Rid rid, bool if_absent = false);
  // Removes the entry; Corruption when it is missing (and the row has one).
  Status Erase(const Row& row, storage::Rid rid);
  // Removes the entry if present (garbage collection: a version of a failed statement may
  // lack some entries).
  Status Remove(const Row& row, storage::Rid rid);
  // Rids stored under the encoded key.
  Result<std::vector<std::string>> Lookup(const std::string& key);
  // The mutex that serialises unique checks of one key with the insertion of its entry (so two
  // writers of the same key cannot both miss each other); striped by key hash.
  std::mutex& KeyLock(std::string_view key) {
    return key_locks_[std::hash<std::string_view>{}(key) % kKeyLockStripes];
  }

  // Crash consistency of the file (docs/txn.md section 5). Its pages reach the disk
  // as whole checkpoint images (BufferPool::SetNoSteal); any other write first makes the
  // marker file durable ("may be inconsistent: rebuild after a crash"). Watch installs that
  // hook on the current tree; MarkUnsafe creates the marker (once); outside_writes counts the
  // hook's calls; ClearUnsafe removes the marker when no such write happened since the count
  // was seen (the checkpoint reads it before taking its image).
  // marked: the marker file exists now.
  void Watch(storage::FileSystem* fs, std::string marker_path, std::string dir, bool marked);
  Status MarkUnsafe();
  uint64_t outside_writes() const;
  Status ClearUnsafe(uint64_t outside_writes_seen);

  // Flushes and closes the file; later use fails.
  Status Close();
  // After Close: continue with a new (empty) tree (TRUNCATE).
  void Reset(std::unique_ptr<storage::BTree> tree) { tree_ = std::move(tree); }
  void Reset(std::unique_ptr<storage::RTree> rtree) { rtree_ = std::move(rtree); }

 private:
  static constexpr size_t kKeyLockStripes = 64;
  const IndexSchema schema_;
  std::unique_ptr<storage::BTree> tree_;   // B+tree index
  std::unique_ptr<storage::RTree> rtree_;  // R-tree index
  std::mutex key_locks_[kKeyLockStripes];
  mutable Mutex unsafe_mu_;
  storage::FileSystem* fs_ GUARDED_BY(unsafe_mu_) = nullptr;  // set by Watch
  std::string marker_path_ GUARDED_BY(unsafe_mu_);            // set by Watch
  std::string dir_ GUARDED_BY(unsafe_mu_);                    // set by Watch
  bool marked_ GUARDED_BY(unsafe_mu_) = false;                // the marker file exists
  uint64_t outside_writes_ GUARDED_BY(unsafe_mu_) = 0;
};

}  // namespace meridian::catalog
