// The simple query protocol: a Query message's statements run one after another (parse,
// start, fetch in pool steps), with COPY FROM STDIN / TO STDOUT inside it.
// docs/pgwire-protocol.md, "Message flow" 2 and "COPY".
#include <cstdio>

#include "pg_connection.h"
#include "pg_protocol.h"

namespace meridian::server::pgwire {

asio::awaitable<void> PgConnection::SimpleQuery(const std::string& sql) {
  std::shared_ptr<ExecControl> ctl;
  if (Status st = session_->BeginRequest("", &ctl); !st.ok()) {
    WriteErrorResponse(&out_, st);
    co_return;
  }
  WatchForDisconnect(ctl);
  if (sql.size() <= kQuickQueryBytes) {
    // A short text (BEGIN, COMMIT, END, SAVEPOINT ...: drivers send transaction control as a
    // simple Query) is parsed here; one quick statement runs here too, as a quick portal does
    // (StartPortal), a COMMIT's group awaited without a thread. Anything else, or a quick one
    // refused under no_wait, goes to the pool below, parsed already.
    auto parsed = session_->engine()->Parse(sql);
    if (!parsed.ok()) {
      WriteErrorResponse(&out_, parsed.status());
      StopWatching();
      session_->EndRequest();
      co_return;
    }
    std::unique_ptr<Request> request = std::move(parsed).value();
    if (request->size() == 1 && request->QuickWrite(0, /*deferred_commit=*/true)) {
      Status status = ctl->Check();
      std::string tag, notice, notice_state;
      if (status.ok()) {
        ctl->set_no_wait(true);
        ctl->set_defer_commit(true);
        auto started = request->Start(0, *ctl);
        if (started.ok()) {
          std::vector<Row> rows;
          auto fetched = (*started)->Fetch(kFetchRows, kFetchBytes, *ctl, &rows);
          if (!fetched.ok()) {
            status = fetched.status();
          } else {  // transaction control: no rows, done at once
            tag = (*started)->CommandTag();
            notice = (*started)->Notice();
            notice_state = (*started)->NoticeSqlstate();
          }
        } else {
          status = started.status();
        }
        ctl->set_no_wait(false);
      }
      if (std::unique_ptr<PendingCommit> commit = session_->engine()->TakePendingCommit()) {
        co_await WhenCommitDone(commit.get());
        if (Status committed = commit->Finish(); !committed.ok()) status = committed;
      }
      if (!ExecControl::IsWouldBlock(status)) {
        if (status.ok()) {
          if (!notice.empty()) WriteNoticeResponse(&out_, notice, notice_state);
          WriteCommandComplete(&out_, tag);
        } else {
          WriteErrorResponse(&out_, status);
        }
        AppendParameterChanges();
        StopWatching();
        session_->EndRequest();
        co_return;
      }
    }
    request_ = std::move(request);
  }
  // Each pool step parses (the first), starts a statement if none runs, fetches, and drops a
  // finished statement's cursor (and, after the last statement, the request): a short query is
  // one trip to the pool and back. COPY keeps its cursor until the copy ends.
  Status status;
  size_t statements = 0;
  for (size_t i = 0; status.ok() && (i == 0 || i < statements); ++i) {
    bool more = true, first = true, copy_out = false, copy_in = false;
    size_t copy_columns = 0;
    std::vector<ColumnInfo> columns;
    std::string tag, notice, notice_state;
    while (more && status.ok()) {
      co_await OnPool([&] {
        try {
          rows_.clear();
          if (request_ == nullptr || statements == 0) {
            if (request_ == nullptr) {  // else parsed on the network thread (short text)
              auto parsed = session_->engine()->Parse(sql);
              if (!parsed.ok()) {
                status = parsed.status();
                return;
              }
              request_ = std::move(parsed).value();
            }
            statements = request_->size();
            if (statements == 0) {
              more = false;
              request_.reset();
              return;
            }
          }
          if (cursor_ == nullptr) {
            if (status = ctl->Check(); !status.ok()) return;
            auto started = request_->Start(i, *ctl);
            if (!started.ok()) {
              status = started.status();
              return;
            }
            cursor_ = std::move(started).value();
            columns = cursor_->columns();
            copy_out = cursor_->copy_out();
            copy_columns = cursor_->copy_columns();
            copy_in = cursor_->copy_in() != nullptr;
          }
          auto fetched = cursor_->Fetch(kFetchRows, kFetchBytes, *ctl, &rows_);
          if (!fetched.ok()) {
            status = fetched.status();
            cursor_.reset();
            return;
          }
          more = *fetched;
          if (!more) {
            tag = cursor_->CommandTag();
            notice = cursor_->Notice();
            notice_state = cursor_->NoticeSqlstate();
            if (!copy_in) {
              cursor_.reset();
              if (i + 1 == statements) request_.reset();
            }
          }
        } catch (const std::exception& e) {
          status = Status::Internal(std::string("internal error: ") + e.what());
          cursor_.reset();
        }
      });
      if (!status.ok()) break;
      if (statements == 0) {
        WriteEmptyQueryResponse(&out_);
        break;
      }
      if (first && copy_out) WriteCopyOutResponse(&out_, copy_columns);
      if (first && !columns.empty()) WriteRowDescription(&out_, columns);
      first = false;
      {
        // Not across a co_await: the zone is the thread's, and the coroutine may move.
        datetime::ScopedTimeZone in_zone(session_->engine()->time_zone());
        for (const Row& row : rows_) {
          if (copy_out) {
            WriteCopyData(&out_, row[0].AsString());
          } else {
            WriteDataRow(&out_, row, columns, {});
          }
        }
      }
      if (out_.size() > kFlushBytes) co_await Flush();
    }
    if (!status.ok() || statements == 0) break;
    if (copy_out) WriteCopyDone(&out_);
    if (copy_in) {
      status = co_await CopyFromClient(ctl.get());
      if (closing_) {
        co_await OnPool([&] {
          cursor_.reset();
          request_.reset();
        });
        session_->EndRequest();
        co_return;
      }
      if (status.ok()) tag = cursor_->CommandTag();
      co_await OnPool([&] {
        cursor_.reset();
        if (i + 1 == statements) request_.reset();
      });
      if (!status.ok()) break;
    }
    if (!notice.empty()) WriteNoticeResponse(&out_, notice, notice_state);
    WriteCommandComplete(&out_, tag);
    AppendParameterChanges();
  }
  if (!status.ok()) {
    WriteErrorResponse(&out_, status);
    AppendParameterChanges();  // e.g. set_config() in a statement that failed later
  }
  if (cursor_ != nullptr || request_ != nullptr) {
    co_await OnPool([&] {
      cursor_.reset();
      request_.reset();
    });
  }
  rows_.clear();
  StopWatching();
  session_->EndRequest();
}

asio::awaitable<Status> PgConnection::CopyFromClient(ExecControl* ctl) {
  StopWatching();  // the client's messages are read here now
  CopyIn* sink = cursor_->copy_in();
  WriteCopyInResponse(&out_, sink->column_count());
  co_await Flush();
  // CopyData bodies are one byte stream (their boundaries mean nothing; pgbench sends a message
  // per row): they are gathered here and handed to the pool in chunks of kCopyChunk bytes, not
  // one pool hop per message.
  static constexpr size_t kCopyChunk = 256 * 1024;
  std::string pending;
  auto write_pending = [&]() -> asio::awaitable<Status> {
    Status status;
    if (!pending.empty()) {
      co_await OnPool([&] { status = sink->Write(pending, *ctl); });
      pending.clear();
    }
    co_return status;
  };
  while (true) {
    auto message = co_await ReadMessage(/*startup=*/false);
    if (!message) {  // a protocol violation, already answered with FATAL
      closing_ = true;
      co_return Status::Error(sqlstate::kProtocolViolation, "protocol violation during COPY");
    }
    Status status;
    switch (message->type) {
      case 'd':
        pending.append(message->body);
        if (pending.size() >= kCopyChunk) {
          status = co_await write_pending();
          if (!status.ok()) co_return status;  // the rest of the data is ignored by the loop
        }
        break;
      case 'c':
        status = co_await write_pending();
        if (!status.ok()) co_return status;
        co_await OnPool([&] { status = sink->Finish(*ctl); });
        co_return status;
      case 'f': {
        auto reason = DecodeCopyFail(message->body);
        if (!reason.ok()) {
          co_await Fatal(reason.status());
          closing_ = true;
          co_return reason.status();
        }
        co_return Status::Error(sqlstate::kQueryCanceled,
                                "COPY from stdin failed: " + std::string(*reason));
      }
      case 'H':
      case 'S':
        break;  // Flush and Sync mean nothing during COPY
      case 'X':
        close_reason_ = "client terminated";
        closing_ = true;
        co_return Status::Error(sqlstate::kQueryCanceled, "client terminated during COPY");
      default: {
        char hex[8];
        std::snprintf(hex, sizeof(hex), "0x%02X", static_cast<unsigned char>(message->type));
        co_return Status::Error(
            sqlstate::kProtocolViolation,
            std::string("unexpected message type ") + hex + " during COPY from stdin");
      }
    }
  }
}

}  // namespace meridian::server::pgwire
