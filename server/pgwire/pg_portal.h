// Portal: a prepared statement bound by the extended protocol's Bind (its parameter values and
// the result formats asked for), and its cursor state once started by the first Describe or
// Execute: the result columns and their formats, rows fetched ahead and not yet sent, an error
// of a fetch done ahead, the final command tag and notice. Start and Fetch call the engine: the
// caller runs them on the worker pool, or on the network thread under ExecControl::no_wait for a
// quick statement (quick()). The object itself is touched by one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "meridian/database.h"

namespace meridian::server::pgwire {

class Portal {
 public:
  // request null: the statement text was empty (Execute answers EmptyQueryResponse).
  Portal(std::shared_ptr<Request> request, StatementParams params,
         std::vector<int16_t> result_formats);

  // Statement 0 is a prepared quick read or quick write (Request::QuickRead, QuickWrite; the
  // connection takes a commit it starts: PendingCommit).
  bool quick() const;
  // Binds and plans the statement with the parameters and starts it under ctl; resolves the
  // result formats per column. Started afterwards even when it fails. A COPY is 0A000 here.
  Status Start(ExecControl& ctl);
  // Replaces the buffer with up to want rows (about max_bytes) of the cursor. At the cursor's
  // end: finished, the tag and notice kept, the cursor dropped; an error is kept (error(),
  // TakeError) and the cursor dropped.
  void Fetch(size_t want, size_t max_bytes, ExecControl& ctl);
  // Back to the state Bind left: nothing started, nothing fetched (a quick start refused under
  // no_wait goes to the pool after all).
  void Unstart();
  void MarkStarted() { started_ = true; }
  // The statement's cursor finished but its outcome is st after all (a deferred COMMIT that
  // failed): Execute reports st instead of the tag.
  void Fail(Status st) { error_ = std::move(st); }
  // Execute sent every row and CommandComplete: a later Execute sends the tag only.
  void MarkDone();

  // The buffered rows not yet sent; Consume(n) marks the first n of them sent.
  std::span<const Row> pending() const;
  void Consume(size_t n) { buffered_next_ += n; }
  const Status& error() const { return error_; }
  // The error of a fetch done ahead (at Describe), reported by Execute; cleared here.
  Status TakeError();

  bool empty() const { return empty_; }
  bool started() const { return started_; }
  bool finished() const { return finished_; }  // the cursor has ended (rows may be buffered)
  bool done() const { return done_; }          // finished and every row sent
  // A cursor is open: it may hold locks or a transaction, so it is destroyed on the pool.
  bool has_cursor() const { return cursor_ != nullptr; }
  const std::vector<ColumnInfo>& columns() const { return columns_; }
  const std::vector<int16_t>& formats() const { return formats_; }  // per result column
  const std::string& tag() const { return tag_; }
  const std::string& notice() const { return notice_; }
  const std::string& notice_state() const { return notice_state_; }  // WARNING's SQLSTATE

 private:
  std::shared_ptr<Request> request_;
  StatementParams params_;
  std::vector<int16_t> result_formats_;  // as sent in Bind; resolved per column at start
  std::vector<int16_t> formats_;
  std::unique_ptr<QueryCursor> cursor_;
  std::vector<Row> buffered_;  // fetched, not yet sent: rows [buffered_next_, size())
  size_t buffered_next_ = 0;
  Status error_;
  bool started_ = false;
  bool finished_ = false;
  bool done_ = false;
  bool empty_ = false;
  std::vector<ColumnInfo> columns_;
  std::string tag_;
  std::string notice_;
  std::string notice_state_;  // empty for NOTICE
};

}  // namespace meridian::server::pgwire
