// WITH RECURSIVE's operators (recursive_union.cc). RecursiveUnionOp evaluates `non-recursive
// term UNION [ALL] recursive term` by PostgreSQL's iteration: the non-recursive term's rows
// form the first working table; each run of the recursive term reads the working table
// through its WorkTableScanOp and its new rows (without UNION's duplicates) become the next
// one, until a run adds none. Every row is returned as it is produced, so a LIMIT above stops
// the iteration early. Working and intermediate tables hold up to work_mem each, the rest in
// temporary files (RowStore); UNION's set of rows seen stays in memory (as PostgreSQL's hash
// table does), under the daemon's memory limit. Polls ExecControl every iteration and every
// kCheckInterval rows, so statement_timeout, cancel and the memory limit (53200,
// memory_guard.h) end a recursion that never stops.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "execution/operator.h"
#include "execution/spill.h"

namespace meridian::exec {

// Rows appended once and then read, any number of times, in append order: in memory up to a
// byte budget, the rest in a SpillFile.
class RowStore {
 public:
  // Empties the store. budget: bytes of rows held in memory before later ones go to a
  // temporary file in spill_dir (empty spill_dir: never spill).
  void Reset(size_t budget, std::string spill_dir);
  Status Append(const Row& row);
  Status Finish();  // after the last Append, before reading
  bool empty() const { return count_ == 0; }
  uint64_t size() const { return count_; }
  uint64_t spilled_bytes() const;

  class Reader {
   public:
    explicit Reader(const RowStore* store) : store_(store) {}
    Result<bool> Next(Row* row);

   private:
    const RowStore* store_;
    size_t pos_ = 0;
    std::unique_ptr<SpillFile::Reader> file_;
  };

 private:
  std::vector<Row> rows_;
  size_t held_bytes_ = 0;
  size_t budget_ = 0;
  std::string dir_;
  std::unique_ptr<SpillFile> file_;
  uint64_t count_ = 0;
};

// The working table of one recursive query: written by its RecursiveUnionOp between two runs
// of the recursive term, read by the term's WorkTableScanOp. Shared by the two operators.
struct WorkTable {
  RowStore rows;
};

class RecursiveUnionOp : public Operator {
 public:
  RecursiveUnionOp(OperatorPtr non_recursive, OperatorPtr recursive, bool all,
                   std::shared_ptr<WorkTable> work)
      : non_recursive_(std::move(non_recursive)),
        recursive_(std::move(recursive)),
        all_(all),
        work_(std::move(work)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  std::string AnalyzeDetail() const override;

 private:
  // The rows of the run that ended become the working table, and the recursive term runs
  // again; false when that run produced no rows (the recursion is over).
  Result<bool> NextIteration();
  // Whether row is new (UNION ALL: always); remembers it.
  Result<bool> Keep(const Row& row);
  Status Poll();

  OperatorPtr non_recursive_, recursive_;
  bool all_;
  std::shared_ptr<WorkTable> work_;
  const EvalContext* outer_ = nullptr;
  ExecContext* exec_ = nullptr;
  RowStore intermediate_;  // rows of the current run, the next working table
  bool in_recursive_ = false;
  bool done_ = false;
  std::unordered_set<std::string> seen_;  // UNION: every row returned, encoded
  size_t budget_ = 0;
  std::string spill_dir_;
  uint64_t iterations_ = 0;
  uint64_t peak_spilled_ = 0;
  int until_check_ = 0;
};

// The recursive term's reference to its query: the rows of the working table.
class WorkTableScanOp : public Operator {
 public:
  explicit WorkTableScanOp(std::shared_ptr<WorkTable> work) : work_(std::move(work)) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;

 private:
  std::shared_ptr<WorkTable> work_;
  std::unique_ptr<RowStore::Reader> reader_;
};

}  // namespace meridian::exec
