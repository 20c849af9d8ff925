// StartStatement and the two cursor kinds: SelectCursor (Volcano pull under per-Fetch shared
// table locks) and DoneCursor (a statement that already completed: DML, DDL).
#include "exec/statement.h"

#include "catalog/table_lock.h"
#include "exec/binder.h"
#include "exec/ddl.h"
#include "exec/modify_table.h"
#include "exec/planner.h"

namespace meridian::exec {

namespace {

class DoneCursor : public QueryCursor {
 public:
  DoneCursor(std::string tag, uint64_t rows, std::string notice)
      : tag_(std::move(tag)), rows_(rows), notice_(std::move(notice)) {}
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  Result<bool> Fetch(size_t, size_t, ExecControl&, std::vector<Row>*) override { return false; }
  std::string CommandTag() const override { return tag_; }
  uint64_t RowCount() const override { return rows_; }
  std::string Notice() const override { return notice_; }

 private:
  std::vector<ColumnInfo> columns_;
  std::string tag_;
  uint64_t rows_;
  std::string notice_;
};

class SelectCursor : public QueryCursor {
 public:
  catalog::LockSet& locks() { return locks_; }
  void Init(std::vector<ColumnInfo> columns, OperatorPtr root) {
    columns_ = std::move(columns);
    root_ = std::move(root);
  }
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  std::string CommandTag() const override { return "SELECT " + std::to_string(rows_); }
  uint64_t RowCount() const override { return rows_; }

  Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                     std::vector<Row>* out) override {
    if (done_) return false;
    Status st = Run(max_rows, max_bytes, ctl, out);
    locks_.ReleaseAll();
    if (!st.ok()) Finish();
    if (!st.ok()) return st;
    return !done_;
  }

 private:
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
    root_.reset();  // drops the plan's table references early
  }

  catalog::LockSet locks_;
  std::vector<ColumnInfo> columns_;
  OperatorPtr root_;
  ExecContext exec_;
  bool opened_ = false;
  bool done_ = false;
  uint64_t rows_ = 0;
};

template <typename Bound>
Result<uint64_t> RunModify(Result<std::unique_ptr<Bound>> bound, catalog::LockSet& locks,
                           ExecControl& ctl, Result<uint64_t> (*execute)(Bound&, ExecContext*)) {
  if (!bound.ok()) return bound.status();
  MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
  ExecContext exec{&ctl};
  Result<uint64_t> n = execute(**bound, &exec);
  locks.ReleaseAll();
  return n;
}

}  // namespace

Result<std::unique_ptr<QueryCursor>> StartStatement(const ast::Statement& stmt,
                                                    catalog::Catalog* catalog, ExecControl& ctl) {
  MERIDIAN_RETURN_IF_ERROR(ctl.Check());
  switch (stmt.kind) {
    case ast::StatementKind::kSelect: {
      auto cursor = std::make_unique<SelectCursor>();
      Binder binder(catalog, &cursor->locks());
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound,
                                binder.BindSelect(*stmt.select));
      std::vector<ColumnInfo> columns = bound->columns;
      MERIDIAN_ASSIGN_OR_RETURN(OperatorPtr root, PlanSelect(std::move(bound)));
      cursor->Init(std::move(columns), std::move(root));
      return std::unique_ptr<QueryCursor>(std::move(cursor));
    }
    case ast::StatementKind::kInsert: {
      catalog::LockSet locks;
      Binder binder(catalog, &locks);
      MERIDIAN_ASSIGN_OR_RETURN(
          uint64_t n, RunModify(binder.BindInsert(*stmt.insert), locks, ctl, &ExecuteInsert));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("INSERT 0 " + std::to_string(n), n, ""));
    }
    case ast::StatementKind::kUpdate: {
      catalog::LockSet locks;
      Binder binder(catalog, &locks);
      MERIDIAN_ASSIGN_OR_RETURN(
          uint64_t n, RunModify(binder.BindUpdate(*stmt.update), locks, ctl, &ExecuteUpdate));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("UPDATE " + std::to_string(n), n, ""));
    }
    case ast::StatementKind::kDelete: {
      catalog::LockSet locks;
      Binder binder(catalog, &locks);
      MERIDIAN_ASSIGN_OR_RETURN(
          uint64_t n, RunModify(binder.BindDelete(*stmt.del), locks, ctl, &ExecuteDelete));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("DELETE " + std::to_string(n), n, ""));
    }
    case ast::StatementKind::kCreateTable: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteCreateTable(*stmt.create_table, catalog, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("CREATE TABLE", 0, std::move(notice)));
    }
    case ast::StatementKind::kDropTable: {
      std::string notice;
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropTable(*stmt.drop_table, catalog, ctl, &notice));
      return std::unique_ptr<QueryCursor>(
          std::make_unique<DoneCursor>("DROP TABLE", 0, std::move(notice)));
    }
  }
  return Status::NotSupported("this statement is not supported yet")
      .WithPosition(stmt.loc.position);
}

}  // namespace meridian::exec
