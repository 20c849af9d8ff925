// Connection: session lifecycle (OpenSession, Attach thread, CloseSession), statement execution
// on the session stream (ExecuteSession; ExecuteStream for a request with a timeout or an older
// server), cancellation and catalog description.
#include "meridian/client/connection.h"

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "meridian.grpc.pb.h"
#include "proto_convert.h"

namespace meridian::client {

namespace v1 = meridian::v1;

namespace {

constexpr auto kCloseTimeout = std::chrono::seconds(3);
// How long a connection whose session ended keeps reading its channel (WatchWhileReady).
constexpr auto kLostWatch = std::chrono::seconds(10);
constexpr auto kCancelTimeout = std::chrono::seconds(5);

std::chrono::system_clock::time_point DeadlineAfter(std::chrono::milliseconds d) {
  return std::chrono::system_clock::now() + d;
}

// The metadata that proves a call belongs to the session (proto/README.md, Authentication).
constexpr const char* kSessionSecretMetadata = "x-meridian-session-secret";

// The whole of a (PEM) file; false when it cannot be read.
bool ReadTextFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

// TLS or plaintext channel credentials from the options; an error names a file it could not read.
ClientResult<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentials(const TlsOptions& tls) {
  if (!tls.enabled) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions ssl;
  const struct {
    const std::string& path;
    std::string* out;
    const char* what;
  } files[] = {{tls.ca_file, &ssl.pem_root_certs, "CA file"},
               {tls.cert_file, &ssl.pem_cert_chain, "client certificate"},
               {tls.key_file, &ssl.pem_private_key, "client key"}};
  for (const auto& f : files) {
    if (!f.path.empty() && !ReadTextFile(f.path, f.out)) {
      return MakeLocalError(kSqlStateCannotConnect,
                            std::string("could not read the TLS ") + f.what + " \"" + f.path + "\"",
                            0, true);
    }
  }
  return grpc::SslCredentials(ssl);
}

}  // namespace

struct Connection::Impl {
  std::string target;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::Sql::Stub> stub;
  std::string session_id;
  std::string session_secret;  // sent with every call after OpenSession
  std::string server_version;

  // Attach stream, read by attach_thread until it ends.
  grpc::ClientContext attach_context;
  std::thread attach_thread;
  std::mutex attach_mu;
  std::condition_variable attach_cv;
  bool attached = false;       // GUARDED_BY(attach_mu): first SessionEvent arrived
  bool attach_done = false;    // GUARDED_BY(attach_mu): the stream ended
  grpc::Status attach_status;  // GUARDED_BY(attach_mu)
  std::atomic<bool> closing{false};
  std::atomic<bool> closed{false};
  std::atomic<bool> lost{false};

  // The statement running now; Cancel reads these from other threads.
  std::mutex query_mu;
  grpc::ClientContext* running_context = nullptr;  // GUARDED_BY(query_mu)
  std::string running_query_id;                    // GUARDED_BY(query_mu)
  uint64_t next_query_id = 1;                      // used by the Execute thread only

  // The ExecuteSession stream (proto/README.md) that carries requests without a timeout, opened
  // at the first one and again after it broke; used by the Execute thread only. A server without
  // ExecuteSession (UNIMPLEMENTED) makes every request use ExecuteStream.
  std::unique_ptr<grpc::ClientContext> stream_context;
  std::unique_ptr<grpc::ClientReaderWriter<v1::ExecuteRequest, v1::ResultChunk>> stream;
  bool stream_unsupported = false;

  // Runs request on the session stream; nullopt when the server has no ExecuteSession (nothing
  // ran).
  std::optional<ClientStatus> RunOnStream(const v1::ExecuteRequest& request,
                                          ResultHandler& handler);

  // Adds the session's secret to a call on the session.
  void Authorize(grpc::ClientContext* context) const {
    context->AddMetadata(kSessionSecretMetadata, session_secret);
  }

  void RunAttach() {
    v1::AttachRequest request;
    request.set_session_id(session_id);
    std::unique_ptr<grpc::ClientReader<v1::SessionEvent>> reader =
        stub->Attach(&attach_context, request);
    v1::SessionEvent event;
    while (reader->Read(&event)) {
      std::lock_guard lock(attach_mu);
      attached = true;
      attach_cv.notify_all();
    }
    grpc::Status status = reader->Finish();
    {
      std::lock_guard lock(attach_mu);
      attach_done = true;
      attach_status = status;
      attach_cv.notify_all();
    }
    if (!closing.load()) {
      // The session is gone: the server aborts its work, so end the running call at once.
      lost.store(true);
      {
        std::lock_guard lock(query_mu);
        if (running_context != nullptr) running_context->TryCancel();
      }
      WatchWhileReady();
    }
  }

  // The synchronous API reads a channel only while a call or a watch polls it (otherwise gRPC's
  // backup poller does, every 5 s). A stopping server ends the Attach stream, then sends GOAWAY
  // and waits for this client to answer it before it can exit: keep polling until the
  // connection leaves READY (or for kLostWatch, or until Close).
  void WatchWhileReady() {
    const auto give_up = std::chrono::steady_clock::now() + kLostWatch;
    grpc_connectivity_state state = channel->GetState(/*try_to_connect=*/false);
    while (state == GRPC_CHANNEL_READY && !closing.load() &&
           std::chrono::steady_clock::now() < give_up) {
      (void)channel->WaitForStateChange(
          state, std::chrono::system_clock::now() + std::chrono::milliseconds(100));
      state = channel->GetState(/*try_to_connect=*/false);
    }
  }

  ClientError LostError() const {
    return MakeLocalError(kSqlStateConnectionFailure, "connection lost", 0, true);
  }

  // The error a call gets before it starts: closed (08003) or lost (08006); none when usable.
  std::optional<ClientError> Unusable() const {
    if (closed.load()) {
      return MakeLocalError(kSqlStateConnectionNotOpen, "connection is closed", 0, true);
    }
    if (lost.load()) return LostError();
    return std::nullopt;
  }

  // Maps a failed call's status, marking the connection lost when it is.
  ClientError CallError(const grpc::Status& status) {
    ClientError e = ErrorFromStatus(status);
    if (lost.load() && !e.connection_lost &&
        (status.error_code() == grpc::StatusCode::CANCELLED ||
         status.error_code() == grpc::StatusCode::UNAVAILABLE)) {
      e = LostError();
      e.grpc_code = static_cast<int>(status.error_code());
    }
    if (e.connection_lost) lost.store(true);
    return e;
  }
};

bool ApplySslMode(std::string_view mode, TlsOptions* tls) {
  if (mode == "disable") {
    tls->enabled = false;
  } else if (mode == "require" || mode == "verify-ca" || mode == "verify-full") {
    tls->enabled = true;
  } else {
    return false;
  }
  return true;
}

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Connection::~Connection() { Close(); }

ClientResult<std::unique_ptr<Connection>> Connection::Connect(const std::string& host, int port) {
  return Connect(host, port, ConnectOptions());
}

ClientResult<std::unique_ptr<Connection>> Connection::Connect(const std::string& host, int port,
                                                              const ConnectOptions& options) {
  auto impl = std::make_unique<Impl>();
  std::string host_part = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  impl->target = host_part + ":" + std::to_string(port);

  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, static_cast<int>(options.keepalive_time.count()));
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  // Keep pinging while the session idles (only the Attach stream is open and it carries no
  // data), so a dead peer is noticed; meridiand accepts pings every 10 s without data.
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  args.SetMaxReceiveMessageSize(options.max_receive_message_bytes);
  // Each Connection gets its own TCP connection, so sessions fail independently.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  if (!options.tls.server_name.empty()) {
    args.SetSslTargetNameOverride(options.tls.server_name);
  }
  ClientResult<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      ChannelCredentials(options.tls);
  if (!credentials.ok()) return credentials.error();
  impl->channel = grpc::CreateCustomChannel(impl->target, *credentials, args);
  impl->stub = v1::Sql::NewStub(impl->channel);

  auto deadline = DeadlineAfter(options.connect_timeout);
  // Fail at the first failed connection attempt (as psql does) instead of retrying until the
  // deadline; a timeout covers hosts that do not answer at all.
  grpc_connectivity_state state = impl->channel->GetState(true);
  while (state != GRPC_CHANNEL_READY) {
    if (state == GRPC_CHANNEL_TRANSIENT_FAILURE || state == GRPC_CHANNEL_SHUTDOWN) {
      return MakeLocalError(
          kSqlStateCannotConnect,
          "could not connect to server at " + impl->target +
              (options.tls.enabled ? ": connection refused, server unreachable, or the TLS "
                                     "handshake failed"
                                   : ": connection refused or server unreachable"),
          static_cast<int>(grpc::StatusCode::UNAVAILABLE), true);
    }
    if (!impl->channel->WaitForStateChange(state, deadline)) {
      return MakeLocalError(kSqlStateCannotConnect,
                            "could not connect to server at " + impl->target + ": timed out",
                            static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED), true);
    }
    state = impl->channel->GetState(true);
  }

  v1::OpenSessionRequest request;
  request.set_user(options.user);
  request.set_database(options.database);
  request.set_application_name(options.application_name);
  request.set_password(options.password);
  v1::OpenSessionResponse response;
  grpc::ClientContext context;
  context.set_deadline(deadline);
  grpc::Status status = impl->stub->OpenSession(&context, request, &response);
  if (!status.ok()) {
    ClientError e = ErrorFromStatus(status);
    if (status.error_code() == grpc::StatusCode::UNAVAILABLE ||
        status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      e.sqlstate = kSqlStateCannotConnect;
      e.message = "could not connect to server at " + impl->target + ": " + status.error_message();
      e.connection_lost = true;
    }
    return e;
  }
  impl->session_id = response.session_id();
  impl->session_secret = response.session_secret();
  impl->server_version = response.server_version();
  impl->Authorize(&impl->attach_context);

  Impl* raw = impl.get();
  impl->attach_thread = std::thread([raw] { raw->RunAttach(); });
  auto conn = std::unique_ptr<Connection>(new Connection(std::move(impl)));
  std::unique_lock lock(raw->attach_mu);
  bool ready = raw->attach_cv.wait_until(lock, deadline,
                                         [raw] { return raw->attached || raw->attach_done; });
  if (!ready || !raw->attached) {
    grpc::Status attach_status = raw->attach_status;
    bool done = raw->attach_done;
    lock.unlock();
    conn->Close();
    if (done && !attach_status.ok()) {
      ClientError e = ErrorFromStatus(attach_status);
      e.message = "could not attach to session: " + e.message;
      e.connection_lost = true;
      return e;
    }
    return MakeLocalError(kSqlStateCannotConnect,
                          "could not attach to session at " + raw->target +
                              (done ? ": the server ended the session" : ": timed out"),
                          0, true);
  }
  return conn;
}

ClientStatus Connection::Execute(std::string_view sql, ResultHandler& handler,
                                 const ExecuteOptions& options) {
  return Execute(sql, std::vector<Value>{}, handler, options);
}

ClientStatus Connection::Execute(std::string_view sql, const std::vector<Value>& params,
                                 ResultHandler& handler, const ExecuteOptions& options) {
  return Run(sql, "", params, handler, options);
}

namespace {

// Hands one request's chunks to a ResultHandler: statement starts, rows, ends and notices.
class ChunkDispatcher {
 public:
  explicit ChunkDispatcher(ResultHandler& handler) : handler_(handler) {}

  void Take(const v1::ResultChunk& chunk) {
    if (!chunk.notice().empty()) handler_.OnNotice(chunk.notice());
    bool has_content = chunk.has_metadata() || chunk.rows_size() > 0 || chunk.has_stats();
    if (!has_content) return;
    if (in_statement_ && chunk.statement_index() != current_) {
      handler_.OnStatementEnd(current_, summary_);  // the server sent no stats for it
      in_statement_ = false;
    }
    if (!in_statement_) {
      summary_ = StatementResult();
      current_ = chunk.statement_index();
      for (const auto& c : chunk.metadata().columns()) {
        summary_.columns.push_back(ColumnFromProto(c));
      }
      handler_.OnStatementStart(current_, summary_.columns);
      in_statement_ = true;
    }
    for (const auto& r : chunk.rows()) {
      row_.clear();
      row_.reserve(r.values_size());
      for (const auto& v : r.values()) row_.push_back(ValueFromProto(v));
      handler_.OnRow(current_, row_);
    }
    if (chunk.has_stats()) {
      summary_.command_tag = chunk.stats().command_tag();
      summary_.row_count = chunk.stats().rows();
      summary_.elapsed_us = chunk.stats().elapsed_us();
      handler_.OnStatementEnd(current_, summary_);
      in_statement_ = false;
    }
  }

  // The request succeeded: ends a statement the server sent no stats for.
  void Finish() {
    if (in_statement_) handler_.OnStatementEnd(current_, summary_);
    in_statement_ = false;
  }

  bool received() const { return received_; }
  void set_received() { received_ = true; }

 private:
  ResultHandler& handler_;
  StatementResult summary_;  // the current statement, without rows
  bool in_statement_ = false;
  uint32_t current_ = 0;
  Row row_;
  bool received_ = false;
};

}  // namespace

ClientStatus Connection::Run(std::string_view sql, const std::string& statement_id,
                             const std::vector<Value>& params, ResultHandler& handler,
                             const ExecuteOptions& options) {
  Impl& im = *impl_;
  if (std::optional<ClientError> e = im.Unusable()) return *e;

  v1::ExecuteRequest request;
  request.set_session_id(im.session_id);
  request.set_sql(std::string(sql));
  request.set_statement_id(statement_id);
  request.set_query_id("q" + std::to_string(im.next_query_id++));
  request.set_max_rows_per_chunk(options.max_rows_per_chunk);
  for (const Value& v : params) ValueToProto(v, request.add_params());
  for (uint32_t oid : options.param_types) request.add_param_types()->set_pg_oid(oid);

  // A request without a timeout travels on the session stream (a timeout is a call deadline,
  // which only ExecuteStream has).
  if (options.timeout.count() == 0 && !im.stream_unsupported) {
    std::optional<ClientStatus> done = im.RunOnStream(request, handler);
    if (done) return *done;
    // The server has no ExecuteSession: nothing ran; ExecuteStream from now on.
  }

  grpc::ClientContext context;
  im.Authorize(&context);
  if (options.timeout.count() > 0) context.set_deadline(DeadlineAfter(options.timeout));
  {
    std::lock_guard lock(im.query_mu);
    im.running_context = &context;
    im.running_query_id = request.query_id();
  }
  // The Attach thread may have noticed a loss between the check above and registration.
  if (im.lost.load()) context.TryCancel();

  std::unique_ptr<grpc::ClientReader<v1::ResultChunk>> reader =
      im.stub->ExecuteStream(&context, request);
  ChunkDispatcher dispatcher(handler);
  v1::ResultChunk chunk;
  while (reader->Read(&chunk)) dispatcher.Take(chunk);
  grpc::Status status = reader->Finish();
  {
    std::lock_guard lock(im.query_mu);
    im.running_context = nullptr;
    im.running_query_id.clear();
  }
  if (!status.ok()) return im.CallError(status);
  dispatcher.Finish();
  return ClientStatus();
}

std::optional<ClientStatus> Connection::Impl::RunOnStream(const v1::ExecuteRequest& request,
                                                          ResultHandler& handler) {
  Impl& im = *this;
  if (im.stream == nullptr) {
    im.stream_context = std::make_unique<grpc::ClientContext>();
    im.Authorize(im.stream_context.get());
    im.stream = im.stub->ExecuteSession(im.stream_context.get());
  }
  {
    std::lock_guard lock(im.query_mu);
    im.running_context = im.stream_context.get();
    im.running_query_id = request.query_id();
  }
  // The Attach thread may have noticed a loss between the check in Run and registration.
  if (im.lost.load()) im.stream_context->TryCancel();

  ChunkDispatcher dispatcher(handler);
  std::optional<ClientError> error;
  bool done = false;
  if (im.stream->Write(request)) {
    v1::ResultChunk chunk;
    while (!done && im.stream->Read(&chunk)) {
      dispatcher.set_received();
      dispatcher.Take(chunk);
      if (chunk.request_done()) {
        done = true;
        if (chunk.has_error()) error = ErrorFromSqlError(chunk.error());
      }
    }
  }
  {
    std::lock_guard lock(im.query_mu);
    im.running_context = nullptr;
    im.running_query_id.clear();
  }
  if (!done) {
    // The stream broke (cancelled, session gone, server stopped) or the server lacks it: the
    // call's status says which; the next request opens a new stream.
    grpc::Status status = im.stream->Finish();
    im.stream.reset();
    im.stream_context.reset();
    if (status.error_code() == grpc::StatusCode::UNIMPLEMENTED && !dispatcher.received()) {
      im.stream_unsupported = true;
      return std::nullopt;
    }
    return ClientStatus(im.CallError(status));
  }
  if (error) {
    if (error->connection_lost) im.lost.store(true);
    return ClientStatus(*error);
  }
  dispatcher.Finish();
  return ClientStatus();
}

namespace {

// Collects a request's results into StatementResults. A notice goes to the statement open when
// it arrives, else to the next statement to start (or the last one, if none follows).
class CollectingHandler : public ResultHandler {
 public:
  std::vector<StatementResult> results;

  void OnStatementStart(uint32_t, const std::vector<ColumnInfo>& columns) override {
    results.emplace_back();
    results.back().columns = columns;
    results.back().notices = std::move(pending_notices_);
    pending_notices_.clear();
    open_ = true;
  }
  void OnRow(uint32_t, const Row& row) override { results.back().rows.push_back(row); }
  void OnStatementEnd(uint32_t, const StatementResult& summary) override {
    StatementResult& r = results.back();
    r.command_tag = summary.command_tag;
    r.row_count = summary.row_count;
    r.elapsed_us = summary.elapsed_us;
    open_ = false;
  }
  void OnNotice(const std::string& notice) override {
    if (open_) {
      results.back().notices.push_back(notice);
    } else {
      pending_notices_.push_back(notice);
    }
  }
  void Finish() {
    if (pending_notices_.empty()) return;
    if (results.empty()) results.emplace_back();
    for (auto& n : pending_notices_) results.back().notices.push_back(std::move(n));
    pending_notices_.clear();
  }

 private:
  std::vector<std::string> pending_notices_;
  bool open_ = false;
};

}  // namespace

ClientResult<std::vector<StatementResult>> Connection::Execute(std::string_view sql,
                                                               const ExecuteOptions& options) {
  return Execute(sql, std::vector<Value>{}, options);
}

ClientResult<std::vector<StatementResult>> Connection::Execute(std::string_view sql,
                                                               const std::vector<Value>& params,
                                                               const ExecuteOptions& options) {
  CollectingHandler handler;
  ClientStatus status = Execute(sql, params, handler, options);
  if (!status.ok()) return status.error();
  handler.Finish();
  return std::move(handler.results);
}

ClientResult<PreparedStatement> Connection::Prepare(std::string_view sql,
                                                    const PrepareOptions& options) {
  Impl& im = *impl_;
  if (std::optional<ClientError> e = im.Unusable()) return *e;
  v1::PrepareRequest request;
  request.set_session_id(im.session_id);
  request.set_sql(std::string(sql));
  request.set_statement_id(options.id);
  for (uint32_t oid : options.param_types) request.add_param_types()->set_pg_oid(oid);
  v1::PrepareResponse response;
  grpc::ClientContext context;
  im.Authorize(&context);
  context.set_deadline(DeadlineAfter(options.timeout));
  grpc::Status status = im.stub->Prepare(&context, request, &response);
  if (!status.ok()) return im.CallError(status);
  PreparedStatement prepared;
  prepared.id = response.statement_id();
  for (const auto& t : response.param_types()) {
    v1::ColumnMetadata param;
    *param.mutable_type() = t;
    prepared.param_types.push_back(ColumnFromProto(param));
  }
  for (const auto& c : response.metadata().columns()) {
    prepared.columns.push_back(ColumnFromProto(c));
  }
  return prepared;
}

ClientStatus Connection::ExecutePrepared(const std::string& id, const std::vector<Value>& params,
                                         ResultHandler& handler, const ExecuteOptions& options) {
  return Run("", id, params, handler, options);
}

ClientResult<StatementResult> Connection::ExecutePrepared(const std::string& id,
                                                          const std::vector<Value>& params,
                                                          const ExecuteOptions& options) {
  CollectingHandler handler;
  ClientStatus status = ExecutePrepared(id, params, handler, options);
  if (!status.ok()) return status.error();
  handler.Finish();
  if (handler.results.empty()) return StatementResult();  // the statement was empty text
  return std::move(handler.results[0]);
}

ClientStatus Connection::Deallocate(const std::string& id) {
  Impl& im = *impl_;
  if (std::optional<ClientError> e = im.Unusable()) return *e;
  v1::DeallocateRequest request;
  request.set_session_id(im.session_id);
  request.set_statement_id(id);
  v1::DeallocateResponse response;
  grpc::ClientContext context;
  im.Authorize(&context);
  context.set_deadline(DeadlineAfter(kCancelTimeout));
  grpc::Status status = im.stub->Deallocate(&context, request, &response);
  if (!status.ok()) return im.CallError(status);
  return ClientStatus();
}

bool Connection::Cancel() {
  Impl& im = *impl_;
  std::string query_id;
  {
    std::lock_guard lock(im.query_mu);
    if (im.running_context == nullptr) return false;
    query_id = im.running_query_id;
  }
  v1::CancelRequest request;
  request.set_session_id(im.session_id);
  request.set_query_id(query_id);
  v1::CancelResponse response;
  grpc::ClientContext context;
  im.Authorize(&context);
  context.set_deadline(DeadlineAfter(kCancelTimeout));
  grpc::Status status = im.stub->Cancel(&context, request, &response);
  if (!status.ok() || !response.cancelled()) {
    // The server could not cancel it by id (or the statement is finishing): end the call.
    std::lock_guard lock(im.query_mu);
    if (im.running_context != nullptr && im.running_query_id == query_id) {
      im.running_context->TryCancel();
    }
  }
  return true;
}

ClientResult<std::vector<TableDescription>> Connection::DescribeCatalog(
    const std::string& table, std::chrono::milliseconds timeout) {
  Impl& im = *impl_;
  if (std::optional<ClientError> e = im.Unusable()) return *e;
  v1::DescribeCatalogRequest request;
  request.set_session_id(im.session_id);
  request.set_table(table);
  v1::DescribeCatalogResponse response;
  grpc::ClientContext context;
  im.Authorize(&context);
  context.set_deadline(DeadlineAfter(timeout));
  grpc::Status status = im.stub->DescribeCatalog(&context, request, &response);
  if (!status.ok()) return im.CallError(status);
  std::vector<TableDescription> tables;
  for (const auto& t : response.tables()) tables.push_back(TableFromProto(t));
  return tables;
}

void Connection::Close() {
  Impl& im = *impl_;
  if (im.closed.exchange(true)) return;
  im.closing.store(true);
  if (im.stream != nullptr) {  // idle between requests: end it without waiting for the server
    im.stream_context->TryCancel();
    (void)im.stream->Finish();
    im.stream.reset();
    im.stream_context.reset();
  }
  if (!im.session_id.empty() && !im.lost.load()) {
    v1::CloseSessionRequest request;
    request.set_session_id(im.session_id);
    v1::CloseSessionResponse response;
    grpc::ClientContext context;
    im.Authorize(&context);
    context.set_deadline(DeadlineAfter(kCloseTimeout));
    (void)im.stub->CloseSession(&context, request, &response);
  }
  im.attach_context.TryCancel();
  if (im.attach_thread.joinable()) im.attach_thread.join();
}

bool Connection::connection_lost() const { return impl_->lost.load(); }
const std::string& Connection::session_id() const { return impl_->session_id; }
const std::string& Connection::server_version() const { return impl_->server_version; }
const std::string& Connection::target() const { return impl_->target; }

}  // namespace meridian::client
