// Handlers and stream reactors of the Sql service; see sql_service.h for the threading model.
#include "grpc/sql_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <asio/post.hpp>
#include <chrono>
#include <mutex>

#include "grpc/error_mapping.h"
#include "grpc/grpc_auth.h"

namespace meridian::server {

// What SqlService::Shutdown and a session stream's reactor share; the reactor is null once
// OnDone ran.
struct SessionStreamState {
  class Reactor {
   public:
    // Requires mu: calls Finish once (no later call does anything).
    virtual void FinishLocked(grpc::Status status) = 0;
    // Requires mu: the server's stop while the stream waits for a request. Finish alone would
    // leave the read pending until the client sends or gRPC's shutdown deadline cancels it.
    virtual void StopLocked() = 0;

   protected:
    ~Reactor() = default;
  };
  std::mutex mu;
  Reactor* reactor = nullptr;  // guarded by mu
  bool reading = false;        // guarded by mu: waiting for a request
  bool finished = false;       // guarded by mu: Finish was called
  bool stopping = false;       // guarded by mu: finish after this request
};

namespace {

void ToProtoType(const Type& t, v1::ColumnType* out) {
  out->set_name(t.Name());
  out->set_type_mod(t.modifier);
  out->set_pg_oid(t.PgOid());
}

void ToProtoValue(const Value& v, v1::Value* out) {
  if (v.IsNull()) {
    out->set_null_value(true);
  } else if (v.IsBool()) {
    out->set_bool_value(v.AsBool());
  } else if (v.IsInt()) {
    out->set_int_value(v.AsInt());
  } else if (v.IsDouble()) {
    out->set_double_value(v.AsDouble());
  } else if (v.IsString()) {
    out->set_text_value(v.AsString());
  } else if (v.IsBytea()) {
    out->set_bytes_value(v.AsBytea());
  } else {
    // numeric, date, timestamp, timestamptz, time, interval, real, uuid: their PostgreSQL text form
    // (the column type says which).
    out->set_text_value(v.ToString());
  }
}

void ToProtoColumns(const std::vector<ColumnInfo>& columns, v1::ResultMetadata* out) {
  for (const ColumnInfo& col : columns) {
    auto* c = out->add_columns();
    c->set_name(col.name);
    ToProtoType(col.type, c->mutable_type());
    c->set_nullable(col.nullable);
  }
}

// Declared parameter types by pg_oid (0 = infer).
template <typename Types>
Status DeclaredTypesFromProto(const Types& types, std::vector<Type>* out) {
  for (int i = 0; i < types.size(); ++i) {
    const uint32_t oid = types.Get(i).pg_oid();
    std::optional<Type> t = Type::FromParamOid(oid);
    if (!t) {
      return Status::NotSupported("parameter $" + std::to_string(i + 1) + ": type with OID " +
                                  std::to_string(oid) + " is not supported");
    }
    out->push_back(*t);
  }
  return Status::Ok();
}

// The request's parameter values and declared types (by pg_oid; 0 = infer).
Status ParamsFromProto(const v1::ExecuteRequest& req, StatementParams* out) {
  for (const v1::Value& v : req.params()) {
    switch (v.kind_case()) {
      case v1::Value::kBoolValue:
        out->values.push_back(Value::Bool(v.bool_value()));
        break;
      case v1::Value::kIntValue:
        out->values.push_back(Value::Int(v.int_value()));
        break;
      case v1::Value::kDoubleValue:
        out->values.push_back(Value::Double(v.double_value()));
        break;
      case v1::Value::kTextValue:
        out->values.push_back(Value::String(v.text_value()));
        break;
      case v1::Value::kBytesValue:
        out->values.push_back(Value::ByteaVal(v.bytes_value()));
        break;
      default:
        out->values.push_back(Value::Null());
    }
  }
  return DeclaredTypesFromProto(req.param_types(), &out->types);
}

grpc::ServerUnaryReactor* FinishUnary(grpc::CallbackServerContext* ctx, grpc::Status status) {
  auto* reactor = ctx->DefaultReactor();
  reactor->Finish(std::move(status));
  return reactor;
}

// Attach: binds the stream to the session; the session closes when the stream ends, and the
// stream ends (Finish) when the session closes for another reason (CloseSession, shutdown).
class AttachReactor final : public grpc::ServerWriteReactor<v1::SessionEvent> {
 public:
  // session: the authorized session (SqlService::Authorize), or null with refused saying why.
  AttachReactor(SessionManager* sessions, const std::string& session_id,
                std::shared_ptr<ServerSession> session, grpc::Status refused)
      : sessions_(sessions), session_id_(session_id), state_(std::make_shared<State>()) {
    state_->reactor = this;
    if (session == nullptr) {
      FinishOnce(std::move(refused));
      return;
    }
    std::weak_ptr<State> weak = state_;
    if (!session->Attach([weak] {
          if (auto s = weak.lock()) {
            std::lock_guard lock(s->mu);
            if (s->reactor != nullptr) s->reactor->FinishLocked(grpc::Status::OK);
          }
        })) {
      FinishOnce(grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                              "session is already attached or closed"));
      return;
    }
    session_ = std::move(session);
    event_.set_kind(v1::SessionEvent::ATTACHED);
    StartWrite(&event_);
  }

  void OnWriteDone(bool /*ok*/) override {}

  void OnCancel() override {
    // The client went away (or the server is stopping): the session ends with the stream.
    sessions_->Close(session_id_, "client disconnected");
    FinishOnce(grpc::Status::CANCELLED);
  }

  void OnDone() override {
    {
      std::lock_guard lock(state_->mu);
      state_->reactor = nullptr;
    }
    if (session_) {
      session_->Detach();
      sessions_->Close(session_id_, "attach stream ended");
    }
    delete this;
  }

 private:
  struct State {
    std::mutex mu;
    AttachReactor* reactor = nullptr;  // guarded by mu; null once OnDone ran
    bool finished = false;             // guarded by mu
  };

  void FinishOnce(grpc::Status status) {
    std::lock_guard lock(state_->mu);
    FinishLocked(std::move(status));
  }
  // Requires state_->mu.
  void FinishLocked(grpc::Status status) {
    if (state_->finished) return;
    state_->finished = true;
    Finish(std::move(status));
  }

  SessionManager* const sessions_;
  const std::string session_id_;
  std::shared_ptr<State> state_;
  std::shared_ptr<ServerSession> session_;
  v1::SessionEvent event_;
};

// One ExecuteRequest from its parse to its last chunk: authorization, the session's request slot,
// then for each statement its start and its rows in bounded chunks, every step on the worker pool
// (or, for a prepared quick statement, the first step inline). It writes through its Output, the
// call that carries it: ExecuteStream (one request per call) or ExecuteSession (requests one after
// another on one stream). Steps never overlap: the next is posted when the previous chunk's write
// completed (Output calls OnWriteDone).
class RequestRun {
 public:
  class Output {
   public:
    virtual ~Output() = default;
    // A chunk, more to follow; the output calls OnWriteDone once it is written.
    virtual void Write(v1::ResultChunk* chunk) = 0;
    // The request's last chunk: every statement succeeded.
    virtual void WriteLast(v1::ResultChunk* chunk) = 0;
    // The request failed with an SQL error: the statements before statement_index ran.
    virtual void Fail(const Status& error, std::string_view sql, uint32_t statement_index) = 0;
    // The request ended without a further chunk: OK (an empty request) or a call-level failure
    // (no such session, wrong secret, the client gone).
    virtual void End(grpc::Status status) = 0;
  };

  // How long a request waits for the session's running request to end before 55000.
  static constexpr std::chrono::milliseconds kRequestWait{5000};
  // The longest request text parsed on gRPC's thread (TryQuickText).
  static constexpr size_t kQuickTextBytes = 64;

  RequestRun(SqlService* service, Output* out) : service_(service), out_(out) {}
  RequestRun(const RequestRun&) = delete;
  RequestRun& operator=(const RequestRun&) = delete;
  ~RequestRun() { Release(); }

  // Starts the request; req and ctx outlive the run. Every path ends in exactly one of the
  // Output's WriteLast, Fail or End, after Release, and the run touches nothing after it.
  void Begin(grpc::CallbackServerContext* ctx, const v1::ExecuteRequest* req) {
    sql_ = req->sql();
    statement_id_ = req->statement_id();
    if (!statement_id_.empty() && !sql_.empty()) {
      return out_->Fail(Status::Error(sqlstate::kSyntaxError,
                                      "a request names either sql or a statement_id, not both"),
                        {}, 0);
    }
    if (Status st = ParamsFromProto(*req, &params_); !st.ok()) return out_->Fail(st, {}, 0);
    if (req->tx().selector_case() != v1::TxControl::SELECTOR_NOT_SET || req->tx().commit()) {
      return out_->Fail(Status::NotSupported("transaction control is not supported yet; "
                                             "every statement runs in autocommit"),
                        {}, 0);
    }
    grpc::Status refused;
    session_ = service_->Authorize(ctx, req->session_id(), &refused);
    if (session_ == nullptr) return out_->End(std::move(refused));
    Status st = session_->BeginRequest(req->query_id(), &ctl_);
    if (!st.ok() && st.sqlstate() == sqlstate::kObjectNotInPrerequisiteState) {
      // Another request still runs (often one its client gave up on: deadline, Cancel; its
      // worker is winding it down): wait for it on the pool, at most kRequestWait, as a
      // PostgreSQL backend finishes a statement before it reads the next message.
      asio::post(*service_->pool(), [this, ctx, req] {
        Start(ctx, req, session_->BeginRequest(req->query_id(), &ctl_, kRequestWait));
      });
      return;
    }
    Start(ctx, req, st);
  }

  // The output's write of a (not last) chunk completed.
  void OnWriteDone(bool ok) {
    if (!ok) {  // the stream broke: the client is gone
      ctl_->Cancel();
      Release();
      return out_->End(grpc::Status(grpc::StatusCode::CANCELLED, "client stream closed"));
    }
    PostStep();
  }

  // The call was cancelled (client gone, deadline): the running statement stops (57014).
  // ExecControl::Cancel may run while a step does.
  void Cancel() {
    if (ctl_) ctl_->Cancel();
  }

 private:
  // The rest of Begin once the session's request began (st: whether it did).
  void Start(grpc::CallbackServerContext* ctx, const v1::ExecuteRequest* req, const Status& st) {
    if (!st.ok()) {
      session_.reset();
      return out_->Fail(st, {}, 0);
    }
    // The call's deadline and the request's timeout_ms, whichever comes first.
    std::optional<ExecControl::Clock::time_point> until;
    auto deadline = ctx->deadline();
    if (deadline != std::chrono::system_clock::time_point::max()) {
      auto remaining = deadline - std::chrono::system_clock::now();
      until = ExecControl::Clock::now() +
              std::chrono::duration_cast<ExecControl::Clock::duration>(remaining);
    }
    if (req->timeout_ms() != 0) {
      auto timeout = ExecControl::Clock::now() + std::chrono::milliseconds(req->timeout_ms());
      if (!until || timeout < *until) until = timeout;
    }
    if (until) ctl_->SetDeadline(*until);
    max_rows_ = req->max_rows_per_chunk() != 0
                    ? std::min(req->max_rows_per_chunk(), service_->limits().default_rows)
                    : service_->limits().default_rows;
    if (statement_id_.empty() ? TryQuickText() : TryQuickRead()) return;
    PostStep();
  }

  void PostStep() {
    asio::post(*service_->pool(), [this] { Step(); });
  }

  // A prepared quick read or quick write (Request::QuickRead: one row by a unique key or a small
  // table; Request::QuickWrite: BEGIN, COMMIT, inside a block one VALUES row or one row by a
  // unique key, outside one such a write with its commit) runs here, on gRPC's thread, instead
  // of on the worker pool: it does a bounded amount of work, and under ExecControl::no_wait it
  // fails at once rather than wait for a table or row lock (undone; then it goes to the pool
  // after all; see StepOrFinish). The hop to a pool thread, a thread wake-up, was a third of
  // such a query's time on a busy machine (tests/bench/RESULTS.md). A commit it starts goes to
  // the group committer and is awaited without a thread (set_defer_commit, AwaitCommit).
  bool TryQuickRead() {
    std::optional<PreparedStatementInfo> prepared = session_->engine()->FindPrepared(statement_id_);
    if (!prepared || prepared->request == nullptr ||
        !(prepared->request->QuickRead(0) ||
          prepared->request->QuickWrite(0, /*deferred_commit=*/true))) {
      return false;
    }
    request_ = std::move(prepared->request);
    params_.types = std::move(prepared->param_types);
    RunQuick();
    return true;
  }

  // A short text (COMMIT, END, BEGIN, SAVEPOINT ...: drivers send transaction control as
  // text) is parsed here, on gRPC's thread; one quick statement runs here too (a COMMIT's
  // group awaited without a thread), as over the PostgreSQL protocol. Anything else goes to the
  // pool, parsed already; a parse error is answered at once.
  bool TryQuickText() {
    if (sql_.size() > kQuickTextBytes) return false;
    auto parsed = session_->engine()->Parse(sql_);
    if (!parsed.ok()) {
      FinishWith(parsed.status());
      return true;
    }
    request_ = std::move(parsed).value();
    if (request_->size() != 1 || !request_->QuickWrite(0, /*deferred_commit=*/true)) return false;
    RunQuick();
    return true;
  }

  void RunQuick() {
    ctl_->set_no_wait(true);
    ctl_->set_defer_commit(true);
    Step();
  }

  // Under no_wait and defer_commit: the commit the statement handed to the group committer.
  void TakeCommit() {
    if (!ctl_->defer_commit() || commit_ != nullptr) return;
    commit_ = session_->engine()->TakePendingCommit();
  }

  // The statement's commit is with the group committer: once its group is durable (or failed)
  // the commit thread ends it in its session and answers: the last chunk, or the commit's error
  // (error: an earlier failure of the statement, answered instead once the commit ended).
  void AwaitCommit(Status error) {
    SqlService* const service = service_;
    if (!service->CommitBegins()) {  // the daemon is stopping: wait here instead
      return EndCommit(std::move(error));
    }
    commit_->WhenDone([this, service, error = std::move(error)] {
      service->OnCommitThread([this, service, error] {
        EndCommit(error);  // this run may be gone from here on
        service->CommitEnds();
      });
    });
  }
  void EndCommit(const Status& error) {
    Status st = commit_->Finish();
    commit_.reset();
    if (!error.ok()) st = error;
    if (!st.ok()) return FinishWith(st);
    Release();
    out_->WriteLast(&chunk_);
  }

  void Step() {
    try {
      StepOrFinish();
    } catch (const std::exception& e) {
      spdlog::error("session {}: internal error in statement {}: {}", session_->id(), index_,
                    e.what());
      FinishWith(Status::Internal(std::string("internal error: ") + e.what()));
    }
  }

  void StepOrFinish() {
    chunk_.Clear();
    if (request_ == nullptr && !statement_id_.empty()) {
      // A prepared statement: its parameter types are the ones it was prepared with.
      std::optional<PreparedStatementInfo> prepared =
          session_->engine()->FindPrepared(statement_id_);
      if (!prepared) {
        return FinishWith(
            Status::Error(sqlstate::kInvalidSqlStatementName,
                          "prepared statement \"" + statement_id_ + "\" does not exist"));
      }
      if (prepared->request == nullptr) return Complete(grpc::Status::OK);  // empty text
      request_ = std::move(prepared->request);
      params_.types = std::move(prepared->param_types);
    }
    if (request_ == nullptr) {
      auto parsed = session_->engine()->Parse(sql_);
      if (!parsed.ok()) return FinishWith(parsed.status());
      request_ = std::move(parsed).value();
    }
    if (cursor_ == nullptr) {
      if (index_ >= request_->size()) return Complete(grpc::Status::OK);
      if (Status st = ctl_->Check(); !st.ok()) return FinishWith(st);
      statement_start_ = std::chrono::steady_clock::now();
      auto started = request_->Start(index_, *ctl_, params_);
      TakeCommit();
      if (ctl_->no_wait() && commit_ == nullptr && ExecControl::IsWouldBlock(started.status())) {
        ctl_->set_no_wait(false);  // a quick write that met a lock: undone, again on the pool
        return PostStep();
      }
      if (!started.ok()) return FinishWith(started.status());
      cursor_ = std::move(started).value();
      if (cursor_->copy_in() != nullptr || cursor_->copy_out()) {
        return FinishWith(Status::NotSupported(
            std::string(cursor_->copy_out() ? "COPY TO STDOUT" : "COPY FROM STDIN") +
            " is only available over the PostgreSQL protocol"));
      }
      ToProtoColumns(cursor_->columns(), chunk_.mutable_metadata());
    }
    chunk_.set_statement_index(static_cast<uint32_t>(index_));
    rows_.clear();
    auto more = cursor_->Fetch(max_rows_, service_->limits().max_bytes, *ctl_, &rows_);
    if (ctl_->no_wait()) {  // the first Fetch of a quick statement, on gRPC's thread (RunQuick)
      TakeCommit();
      ctl_->set_no_wait(false);
      if (commit_ == nullptr && ExecControl::IsWouldBlock(more.status())) {
        cursor_.reset();  // it read nothing; the statement starts again on the pool
        return PostStep();
      }
    }
    if (!more.ok()) return FinishWith(more.status());
    {
      // timestamptz text is in the session's TimeZone.
      datetime::ScopedTimeZone in_zone(session_->engine()->time_zone());
      for (const Row& row : rows_) {
        auto* r = chunk_.add_rows();
        for (const Value& v : row) ToProtoValue(v, r->add_values());
      }
    }
    if (!*more) {
      auto* stats = chunk_.mutable_stats();
      stats->set_command_tag(cursor_->CommandTag());
      stats->set_rows(cursor_->RowCount());
      stats->set_elapsed_us(std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - statement_start_)
                                .count());
      chunk_.set_notice(cursor_->Notice());
      cursor_.reset();
      // A quick request is one statement: the answer waits for its commit's group.
      if (commit_ != nullptr) return AwaitCommit(Status::Ok());
      if (++index_ >= request_->size()) {
        // The request's last chunk: ExecuteStream sends it together with the final status (one
        // round of callbacks fewer per request, which is most of a short statement's latency).
        Release();
        return out_->WriteLast(&chunk_);
      }
    }
    out_->Write(&chunk_);
  }

  void FinishWith(const Status& st) {
    if (commit_ != nullptr) return AwaitCommit(st);
    Release();
    out_->Fail(st, sql_, static_cast<uint32_t>(index_));
  }

  // Ends the request after releasing the statement and the session, so a client that sees its
  // end can start its next request at once.
  void Complete(grpc::Status status) {
    Release();
    out_->End(std::move(status));
  }

  // Drops the statement (and whatever it holds) and ends the session's request; idempotent.
  void Release() {
    cursor_.reset();
    request_.reset();
    if (session_) {
      session_->EndRequest();
      session_.reset();
    }
  }

  SqlService* const service_;
  Output* const out_;
  std::string sql_;
  std::string statement_id_;  // set: run this prepared statement instead of sql_
  StatementParams params_;    // for every statement of the request
  std::shared_ptr<ServerSession> session_;
  std::shared_ptr<ExecControl> ctl_;  // set once, by BeginRequest
  uint32_t max_rows_ = 0;
  // The fields below are touched only by the step running on the pool; steps never overlap
  // (the next one is posted after the previous chunk's write completed).
  std::shared_ptr<Request> request_;
  std::unique_ptr<QueryCursor> cursor_;
  std::unique_ptr<PendingCommit> commit_;  // a commit the group committer has not answered
  size_t index_ = 0;
  std::vector<Row> rows_;
  v1::ResultChunk chunk_;
  std::chrono::steady_clock::time_point statement_start_;
};

// ExecuteStream: one request per call; its end is the call's status.
class ExecuteReactor final : public grpc::ServerWriteReactor<v1::ResultChunk>,
                             public RequestRun::Output {
 public:
  ExecuteReactor(SqlService* service, grpc::CallbackServerContext* ctx,
                 const v1::ExecuteRequest* req)
      : run_(service, this), deadline_(ctx->deadline()) {
    run_.Begin(ctx, req);
  }

  void OnWriteDone(bool ok) override { run_.OnWriteDone(ok); }
  void OnCancel() override { run_.Cancel(); }
  void OnDone() override { delete this; }

 private:
  void Write(v1::ResultChunk* chunk) override { StartWrite(chunk); }
  void WriteLast(v1::ResultChunk* chunk) override {
    StartWriteAndFinish(chunk, grpc::WriteOptions(), grpc::Status::OK);
  }
  void Fail(const Status& error, std::string_view sql, uint32_t statement_index) override {
    // A 57014 after the call's deadline passed is that deadline (RequestRun::Start makes it
    // the statement's timeout, through the steady clock: kClockSlack covers the conversion).
    const bool deadline_passed = deadline_ != std::chrono::system_clock::time_point::max() &&
                                 std::chrono::system_clock::now() >= deadline_ - kClockSlack;
    Finish(ToGrpcStatus(error, sql, statement_index, deadline_passed));
  }
  void End(grpc::Status status) override { Finish(std::move(status)); }

  static constexpr auto kClockSlack = std::chrono::milliseconds(1);
  RequestRun run_;
  const std::chrono::system_clock::time_point deadline_;  // the call's (max: none)
};

// ExecuteSession: requests one after another on one stream. Only one of a read (waiting for the
// next request) or a request's run is in progress at a time; Finish is called only then, so
// OnDone never meets a step in flight. The daemon's stop (SqlService::Shutdown) finishes a
// stream waiting for its next request at once, and any other after its request.
class SessionStreamReactor final
    : public grpc::ServerBidiReactor<v1::ExecuteRequest, v1::ResultChunk>,
      public RequestRun::Output,
      public SessionStreamState::Reactor {
 public:
  SessionStreamReactor(SqlService* service, grpc::CallbackServerContext* ctx)
      : service_(service), ctx_(ctx), state_(std::make_shared<SessionStreamState>()) {
    state_->reactor = this;
    std::lock_guard lock(state_->mu);
    if (!service_->RegisterStream(state_)) {
      FinishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down"));
      return;
    }
    ReadLocked();
  }

  void OnReadDone(bool ok) override {
    {
      std::lock_guard lock(state_->mu);
      state_->reading = false;
      if (state_->finished) return;                    // finished by the server's stop
      if (!ok) return FinishLocked(grpc::Status::OK);  // the client closed its side
    }
    {
      std::lock_guard lock(mu_);
      run_ = std::make_unique<RequestRun>(service_, this);
    }
    run_->Begin(ctx_, &req_);
  }

  void OnWriteDone(bool ok) override {
    if (!last_written_) return run_->OnWriteDone(ok);
    last_written_ = false;
    std::lock_guard lock(state_->mu);
    if (!ok) return FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "client stream closed"));
    if (state_->stopping) {
      return FinishLocked(
          grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down"));
    }
    ReadLocked();
  }

  void OnCancel() override {
    std::lock_guard lock(mu_);
    if (run_) run_->Cancel();
  }

  void OnDone() override {
    {
      std::lock_guard lock(state_->mu);
      state_->reactor = nullptr;
    }
    delete this;
  }

  // Requires state_->mu.
  void FinishLocked(grpc::Status status) override {
    if (state_->finished) return;
    state_->finished = true;
    Finish(std::move(status));
  }
  void StopLocked() override {
    FinishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down"));
    ctx_->TryCancel();  // ends the pending read
  }

 private:
  // Requires state_->mu.
  void ReadLocked() {
    state_->reading = true;
    StartRead(&req_);
  }

  void Write(v1::ResultChunk* chunk) override { StartWrite(chunk); }
  void WriteLast(v1::ResultChunk* chunk) override {
    chunk->set_request_done(true);
    last_ = std::move(*chunk);
    WriteEnd();
  }
  void Fail(const Status& error, std::string_view sql, uint32_t statement_index) override {
    last_.Clear();
    last_.set_statement_index(statement_index);
    last_.set_request_done(true);
    *last_.mutable_error() = ToSqlError(error, sql, statement_index);
    WriteEnd();
  }
  void End(grpc::Status status) override {
    if (!status.ok()) {
      DropRun();
      std::lock_guard lock(state_->mu);
      return FinishLocked(std::move(status));
    }
    last_.Clear();
    last_.set_request_done(true);
    WriteEnd();
  }
  // Writes last_, the request's final chunk; the next request is read once it is written.
  void WriteEnd() {
    DropRun();
    last_written_ = true;
    StartWrite(&last_);
  }
  // Called from inside the run's last step, which touches nothing after it: destroying it here
  // is safe.
  void DropRun() {
    std::lock_guard lock(mu_);
    run_.reset();
  }

  SqlService* const service_;
  grpc::CallbackServerContext* const ctx_;
  const std::shared_ptr<SessionStreamState> state_;
  v1::ExecuteRequest req_;
  v1::ResultChunk last_;
  bool last_written_ = false;  // the write in flight is a request's final chunk
  std::mutex mu_;
  std::unique_ptr<RequestRun> run_;  // guarded by mu_ against OnCancel
};

}  // namespace

grpc::Status SessionNotFound(const std::string& id) {
  return ToGrpcStatusWithCode(
      Status::Error(sqlstate::kConnectionDoesNotExist, "session \"" + id + "\" does not exist")
          .WithHint("The session was closed or expired; open a new one."),
      grpc::StatusCode::NOT_FOUND);
}

SqlService::SqlService(Database* db, SessionManager* sessions, asio::io_context* pool,
                       GrpcAuth auth, ChunkLimits limits)
    : db_(db),
      sessions_(sessions),
      pool_(pool),
      auth_(auth),
      limits_(limits),
      commits_work_(asio::make_work_guard(commits_)) {
  const unsigned n = std::max(2u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) commit_threads_.emplace_back([this] { commits_.run(); });
}

SqlService::~SqlService() { StopCommits(); }

bool SqlService::CommitBegins() {
  std::lock_guard lock(commits_mu_);
  if (commits_stopped_) return false;
  ++commits_in_flight_;
  return true;
}

void SqlService::OnCommitThread(std::function<void()> fn) { asio::post(commits_, std::move(fn)); }

void SqlService::CommitEnds() {
  {
    std::lock_guard lock(commits_mu_);
    --commits_in_flight_;
  }
  commits_cv_.notify_all();
}

void SqlService::StopCommits() {
  {
    std::unique_lock lock(commits_mu_);
    commits_stopped_ = true;
    commits_cv_.wait(lock, [&] { return commits_in_flight_ == 0; });
  }
  commits_work_.reset();
  for (std::thread& t : commit_threads_) t.join();
  commit_threads_.clear();
}

std::shared_ptr<ServerSession> SqlService::Authorize(const grpc::CallbackServerContext* ctx,
                                                     const std::string& id, grpc::Status* status) {
  std::shared_ptr<ServerSession> session = sessions_->Find(id);
  if (session == nullptr) {
    *status = SessionNotFound(id);
    return nullptr;
  }
  std::string_view secret;
  const auto& metadata = ctx->client_metadata();
  if (auto it = metadata.find(kSessionSecretMetadata); it != metadata.end()) {
    secret = std::string_view(it->second.data(), it->second.size());
  }
  if (!session->CheckSecret(secret)) {
    spdlog::warn("session {}: call from {} refused: {} session secret", id, ctx->peer(),
                 secret.empty() ? "no" : "wrong");
    *status = ToGrpcStatus(
        Status::Error(sqlstate::kInvalidAuthorizationSpecification,
                      "session secret missing or wrong for session \"" + id + "\"")
            .WithHint(std::string("Send OpenSessionResponse.session_secret as the ") +
                      kSessionSecretMetadata + " metadata of every call on the session."));
    return nullptr;
  }
  return session;
}

grpc::ServerUnaryReactor* SqlService::OpenSession(grpc::CallbackServerContext* ctx,
                                                  const v1::OpenSessionRequest* req,
                                                  v1::OpenSessionResponse* resp) {
  const pgwire::AuthMethod method =
      auth_.accounts == nullptr ? pgwire::AuthMethod::kTrust : auth_.accounts->method;
  std::string peer = ctx->peer();
  if (method == pgwire::AuthMethod::kTrust) {
    return FinishUnary(ctx, OpenAuthenticated(*req, peer, resp));
  }
  const std::string user = req->user().empty() ? "meridian" : req->user();
  if (!PasswordAllowed(auth_.tls, peer)) {
    spdlog::warn("gRPC session for user {} from {} refused: password without TLS", user, peer);
    return FinishUnary(
        ctx, ToGrpcStatus(Status::Error(sqlstate::kInvalidAuthorizationSpecification,
                                        "password authentication over gRPC needs TLS or a "
                                        "loopback connection; refused for user \"" +
                                            user + "\" from " + peer)
                              .WithHint("Start meridiand with --tls-cert and --tls-key (its gRPC "
                                        "listener then accepts only TLS) and connect with TLS.")));
  }
  // A verifier costs a PBKDF2 run (thousands of HMACs): on the worker pool, not gRPC's threads.
  auto* reactor = ctx->DefaultReactor();
  asio::post(*pool_, [this, reactor, req, resp, user, peer = std::move(peer)] {
    if (!auth_.accounts->users.CheckPassword(user, req->password())) {
      spdlog::warn("gRPC session for user {} from {} refused: password authentication failed", user,
                   peer);
      reactor->Finish(ToGrpcStatus(pgwire::AuthenticationFailed(user)));
      return;
    }
    reactor->Finish(OpenAuthenticated(*req, peer, resp));
  });
  return reactor;
}

grpc::Status SqlService::OpenAuthenticated(const v1::OpenSessionRequest& req,
                                           const std::string& peer, v1::OpenSessionResponse* resp) {
  std::string user = req.user().empty() ? "meridian" : req.user();
  std::string database = req.database().empty() ? "meridian" : req.database();
  if (database != "meridian") {
    return ToGrpcStatus(Status::Error(sqlstate::kInvalidCatalogName,
                                      "database \"" + database + "\" does not exist"));
  }
  auto session = sessions_->Open(user, database, req.application_name(), peer);
  if (!session.ok()) return ToGrpcStatus(session.status());
  resp->set_session_id((*session)->id());
  resp->set_session_secret((*session)->secret());
  resp->set_server_version(kServerVersion);
  resp->set_lease_ttl_ms(static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(sessions_->idle_timeout()).count()));
  return grpc::Status::OK;
}

grpc::ServerWriteReactor<v1::SessionEvent>* SqlService::Attach(grpc::CallbackServerContext* ctx,
                                                               const v1::AttachRequest* req) {
  grpc::Status refused;
  std::shared_ptr<ServerSession> session = Authorize(ctx, req->session_id(), &refused);
  return new AttachReactor(sessions_, req->session_id(), std::move(session), std::move(refused));
}

grpc::ServerUnaryReactor* SqlService::CloseSession(grpc::CallbackServerContext* ctx,
                                                   const v1::CloseSessionRequest* req,
                                                   v1::CloseSessionResponse*) {
  grpc::Status refused;
  if (Authorize(ctx, req->session_id(), &refused) == nullptr) {
    return FinishUnary(ctx, std::move(refused));
  }
  sessions_->Close(req->session_id(), "closed by client");
  return FinishUnary(ctx, grpc::Status::OK);
}

grpc::ServerWriteReactor<v1::ResultChunk>* SqlService::ExecuteStream(
    grpc::CallbackServerContext* ctx, const v1::ExecuteRequest* req) {
  return new ExecuteReactor(this, ctx, req);
}

bool SqlService::RegisterStream(const std::shared_ptr<SessionStreamState>& state) {
  std::lock_guard lock(streams_mu_);
  if (stopping_) return false;
  if (streams_.size() >= 2 * live_streams_hint_ + 64) {  // drop the ended ones now and then
    std::erase_if(streams_, [](const std::weak_ptr<SessionStreamState>& w) { return w.expired(); });
    live_streams_hint_ = streams_.size();
  }
  streams_.push_back(state);
  return true;
}

void SqlService::Shutdown() {
  std::vector<std::weak_ptr<SessionStreamState>> streams;
  {
    std::lock_guard lock(streams_mu_);
    stopping_ = true;
    streams.swap(streams_);
  }
  for (const std::weak_ptr<SessionStreamState>& weak : streams) {
    std::shared_ptr<SessionStreamState> state = weak.lock();
    if (state == nullptr) continue;
    std::lock_guard lock(state->mu);
    state->stopping = true;
    if (state->reactor != nullptr && state->reading) state->reactor->StopLocked();
  }
}

grpc::ServerBidiReactor<v1::ExecuteRequest, v1::ResultChunk>* SqlService::ExecuteSession(
    grpc::CallbackServerContext* ctx) {
  return new SessionStreamReactor(this, ctx);
}

grpc::ServerUnaryReactor* SqlService::Cancel(grpc::CallbackServerContext* ctx,
                                             const v1::CancelRequest* req,
                                             v1::CancelResponse* resp) {
  grpc::Status refused;
  auto session = Authorize(ctx, req->session_id(), &refused);
  if (session == nullptr) return FinishUnary(ctx, std::move(refused));
  resp->set_cancelled(session->CancelRequest(req->query_id()));
  return FinishUnary(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* SqlService::DescribeCatalog(grpc::CallbackServerContext* ctx,
                                                      const v1::DescribeCatalogRequest* req,
                                                      v1::DescribeCatalogResponse* resp) {
  grpc::Status refused;
  auto session = Authorize(ctx, req->session_id(), &refused);
  if (session == nullptr) return FinishUnary(ctx, std::move(refused));
  session->Touch();
  auto tables = db_->DescribeTables(req->table());
  if (!tables.ok()) return FinishUnary(ctx, ToGrpcStatus(tables.status()));
  for (const TableDescription& t : *tables) {
    auto* out = resp->add_tables();
    out->set_name(t.name);
    for (const ColumnDescription& c : t.columns) {
      auto* col = out->add_columns();
      col->set_name(c.name);
      ToProtoType(c.type, col->mutable_type());
      col->set_not_null(c.not_null);
      col->set_default_expr(c.default_expr);
      col->set_primary_key(c.primary_key);
    }
    for (const std::string& k : t.primary_key) out->add_primary_key(k);
    for (const IndexDescription& x : t.indexes) {
      auto* index = out->add_indexes();
      index->set_name(x.name);
      for (const std::string& c : x.columns) index->add_columns(c);
      for (bool d : x.descending) index->add_descending(d);
      index->set_unique(x.unique);
      index->set_primary_key(x.primary_key);
      index->set_constraint(x.constraint);
    }
  }
  return FinishUnary(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* SqlService::Prepare(grpc::CallbackServerContext* ctx,
                                              const v1::PrepareRequest* req,
                                              v1::PrepareResponse* resp) {
  std::vector<Type> declared;
  if (Status st = DeclaredTypesFromProto(req->param_types(), &declared); !st.ok()) {
    return FinishUnary(ctx, ToGrpcStatus(st));
  }
  grpc::Status refused;
  std::shared_ptr<ServerSession> session = Authorize(ctx, req->session_id(), &refused);
  if (session == nullptr) return FinishUnary(ctx, std::move(refused));
  // Parsing and binding run on the worker pool, like every statement step (which may wait
  // there for the session's running request to end).
  auto* reactor = ctx->DefaultReactor();
  asio::post(*pool_, [reactor, req, resp, session, declared = std::move(declared)] {
    std::shared_ptr<ExecControl> ctl;
    if (Status st = session->BeginRequest("", &ctl, RequestRun::kRequestWait); !st.ok()) {
      reactor->Finish(ToGrpcStatus(st));
      return;
    }
    Result<PreparedStatementInfo> prepared = PrepareNamed(session.get(), *req, declared, resp);
    session->EndRequest();
    reactor->Finish(ToGrpcStatus(prepared.status(), req->sql(), 0));
  });
  return reactor;
}

Result<PreparedStatementInfo> SqlService::PrepareNamed(ServerSession* session,
                                                       const v1::PrepareRequest& req,
                                                       const std::vector<Type>& declared,
                                                       v1::PrepareResponse* resp) {
  Session* engine = session->engine();
  std::string name = req.statement_id();
  if (name.empty()) {
    // A name no other prepared statement of the session has.
    do {
      name = "_meridian_" + std::to_string(session->NextStatementNumber());
    } while (engine->FindPrepared(name));
  }
  Result<PreparedStatementInfo> prepared = engine->Prepare(name, req.sql(), declared);
  if (!prepared.ok()) return prepared;
  resp->set_statement_id(name);
  for (const Type& t : prepared->param_types) ToProtoType(t, resp->add_param_types());
  ToProtoColumns(prepared->columns, resp->mutable_metadata());
  return prepared;
}

grpc::ServerUnaryReactor* SqlService::Deallocate(grpc::CallbackServerContext* ctx,
                                                 const v1::DeallocateRequest* req,
                                                 v1::DeallocateResponse*) {
  grpc::Status refused;
  std::shared_ptr<ServerSession> session = Authorize(ctx, req->session_id(), &refused);
  if (session == nullptr) return FinishUnary(ctx, std::move(refused));
  // On the pool: it may wait there for the session's running request to end.
  auto* reactor = ctx->DefaultReactor();
  asio::post(*pool_, [reactor, req, session] {
    std::shared_ptr<ExecControl> ctl;
    Status st = session->BeginRequest("", &ctl, RequestRun::kRequestWait);
    if (st.ok()) {
      if (!session->engine()->FindPrepared(req->statement_id())) {
        st = Status::Error(sqlstate::kInvalidSqlStatementName,
                           "prepared statement \"" + req->statement_id() + "\" does not exist");
      } else {
        session->engine()->ClosePrepared(req->statement_id());
      }
      session->EndRequest();
    }
    reactor->Finish(ToGrpcStatus(st));
  });
  return reactor;
}

}  // namespace meridian::server
