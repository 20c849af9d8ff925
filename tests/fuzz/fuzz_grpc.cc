// libFuzzer harness: gRPC requests -> the meridian.v1.Sql handlers (server/grpc/sql_service.cc).
// The layer fuzzed is the real SqlService (its unary handlers and its ExecuteStream,
// ExecuteSession and Attach reactors, RequestRun, error_mapping) behind a real grpc::Server
// with no listening port, called through the server's in-process channel: the handlers need a
// live CallbackServerContext (DefaultReactor, metadata, deadline), which only a call carries,
// and the in-process transport is gRPC's own (no socket, no HTTP/2 framing). Behind it: the
// daemon's SessionManager, WorkerPool and one Database on a temp dir with fixture tables.
//
// Input: byte 0 picks the RPC (kMethods), byte 1 holds flags (kKeepSessionId, kNoSecret,
// kWrongSecret), the rest is the request message (ParseFromArray; inputs that do not parse are
// rejected). Each input runs in a new session opened by OpenSession, inside BEGIN with
// statement_timeout 1 s (every call also has a 3 s deadline); the session is closed afterwards.
// Invariants (tests/fuzz/README.md, 5): no crash or sanitizer report; every failed call's
// status carries a SQLSTATE ("XXXXX: message", details an ErrorStatus whose SqlError has the
// same SQLSTATE and whose code GrpcCodeForSqlstate gives); the status fits the trailers a
// default gRPC peer accepts (8 KiB); an ExecuteSession request's error chunk has a SQLSTATE;
// and afterwards a new session still answers SELECT 1.
#include <errno.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "fuzz_fixture.h"
#include "grpc/error_mapping.h"
#include "grpc/grpc_auth.h"
#include "grpc/sql_service.h"
#include "meridian.grpc.pb.h"
#include "meridian/database.h"
#include "session_manager.h"
#include "worker_pool.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using meridian::Database;
using meridian::DatabaseOptions;
using meridian::ExecControl;
namespace v1 = meridian::v1;
namespace server = meridian::server;

enum Method : uint8_t {
  kOpenSession,
  kExecuteStream,
  kExecuteSession,
  kPrepare,  // then runs the prepared statement and deallocates it
  kDeallocate,
  kDescribeCatalog,
  kCancel,
  kCloseSession,
  kAttach,
  kMethods
};
constexpr uint8_t kKeepSessionId = 1;  // the message's session_id, not the live session's
constexpr uint8_t kNoSecret = 2;       // no x-meridian-session-secret metadata
constexpr uint8_t kWrongSecret = 4;    // the live session's secret with one digit changed

// gRPC carries a status in the trailers grpc-status, grpc-message (percent-encoded) and
// grpc-status-details-bin (base64); a default peer accepts 8 KiB of metadata, each entry
// counted as name + value + 32 (HPACK's entry size).
constexpr size_t kTrailerCap = 8192;

// Beside the shared fixture (fuzz_fixture.h): the types that travel as bytes_value and as
// timestamptz text in the session's time zone.
constexpr const char* kGrpcFixture = R"sql(
CREATE TABLE b (id INT PRIMARY KEY, by BYTEA, tz TIMESTAMPTZ, r REAL, n NUMERIC, uu UUID);
INSERT INTO b VALUES (1, '\x00ff', '2024-01-01 10:00:00+00', 1.5, 1e30,
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (2, NULL, NULL, NULL, NULL, NULL);
)sql";

struct Harness {
  std::string dir;
  std::unique_ptr<Database> db;
  std::unique_ptr<server::WorkerPool> workers;
  std::unique_ptr<server::SessionManager> sessions;
  std::unique_ptr<server::SqlService> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::Sql::Stub> stub;
};
Harness* g = nullptr;

[[noreturn]] void Broken(const char* what, const std::string& detail) {
  fprintf(stderr, "fuzz_grpc: invariant broken: %s: %s\n", what, detail.c_str());
  abort();
}

size_t TrailerBytes(const grpc::Status& s) {
  size_t message = 0;
  for (unsigned char c : s.error_message()) message += (c < 0x20 || c > 0x7e || c == '%') ? 3 : 1;
  const size_t details = (s.error_details().size() + 2) / 3 * 4;
  return (11 + 2 + 32) + (12 + message + 32) + (s.error_details().empty() ? 0 : 23 + details + 32);
}

// A failed call's status must carry a SQLSTATE (see the file comment). elapsed: whether the
// call's own deadline had passed (gRPC's client may then end it first, without details).
void CheckStatus(const char* call, const grpc::Status& s, bool deadline_passed) {
  static const bool trace = getenv("FUZZ_GRPC_TRACE") != nullptr;  // replaying one input
  if (trace) fprintf(stderr, "%s: %d %s\n", call, s.error_code(), s.error_message().c_str());
  if (s.ok()) return;
  const std::string& m = s.error_message();
  if (TrailerBytes(s) > kTrailerCap) {
    Broken(call, "status needs " + std::to_string(TrailerBytes(s)) +
                     " bytes of trailers: " + m.substr(0, 80));
  }
  if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED && deadline_passed &&
      s.error_details().empty()) {
    return;
  }
  auto sqlstate_like = [](std::string_view x) {
    if (x.size() != 5) return false;
    for (char c : x) {
      if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return false;
    }
    return true;
  };
  if (m.size() < 7 || !sqlstate_like(std::string_view(m).substr(0, 5)) || m.compare(5, 2, ": ")) {
    Broken(call, "status " + std::to_string(s.error_code()) + " without a SQLSTATE: " + m);
  }
  v1::ErrorStatus details;
  v1::SqlError err;
  if (!details.ParseFromString(s.error_details()) || details.details_size() != 1 ||
      !details.details(0).UnpackTo(&err)) {
    Broken(call, "status details are not an ErrorStatus with one SqlError: " + m);
  }
  if (err.sqlstate() != m.substr(0, 5) || details.code() != s.error_code()) {
    Broken(call, "SqlError " + err.sqlstate() + " / code " + std::to_string(details.code()) +
                     " disagree with the status: " + std::to_string(s.error_code()) + " " + m);
  }
  grpc::StatusCode expected = server::GrpcCodeForSqlstate(err.sqlstate());
  // Two exceptions to the SQLSTATE's code: a statement cancelled by its call's deadline
  // (57014, DEADLINE_EXCEEDED) and an unknown session id (08003, NOT_FOUND).
  const bool exception =
      (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED && err.sqlstate() == "57014") ||
      (s.error_code() == grpc::StatusCode::NOT_FOUND && err.sqlstate() == "08003");
  if (expected == grpc::StatusCode::UNKNOWN || expected == grpc::StatusCode::OK ||
      (s.error_code() != expected && !exception)) {
    Broken(call, "code " + std::to_string(s.error_code()) + " for " + m);
  }
}

void CheckChunkError(const v1::ResultChunk& chunk) {
  if (!chunk.has_error()) return;
  const std::string& st = chunk.error().sqlstate();
  if (st.size() != 5 || !chunk.request_done()) {
    Broken("ExecuteSession",
           "error chunk without a SQLSTATE or not last: " + st + " " + chunk.error().message());
  }
  if (server::GrpcCodeForSqlstate(st) == grpc::StatusCode::UNKNOWN) {
    Broken("ExecuteSession", "unmapped SQLSTATE " + st);
  }
}

struct Call {
  grpc::ClientContext ctx;
  std::chrono::system_clock::time_point deadline;
  Call(const std::string& secret) {
    deadline = std::chrono::system_clock::now() + std::chrono::seconds(3);
    ctx.set_deadline(deadline);
    if (!secret.empty()) ctx.AddMetadata(server::kSessionSecretMetadata, secret);
  }
  bool Passed() const { return std::chrono::system_clock::now() >= deadline; }
};

struct Open {
  std::string id, secret;
};

Open OpenFixtureSession() {
  v1::OpenSessionRequest req;
  req.set_user("fuzz");
  v1::OpenSessionResponse resp;
  Call call("");
  grpc::Status s = g->stub->OpenSession(&call.ctx, req, &resp);
  if (!s.ok()) Broken("OpenSession", s.error_message());
  return {resp.session_id(), resp.session_secret()};
}

// Runs sql by ExecuteStream; returns the status and (first cell of the last row) in *first.
grpc::Status Execute(const Open& session, const v1::ExecuteRequest& req, std::string* first,
                     const std::string& secret, bool* passed) {
  Call call(secret);
  auto reader = g->stub->ExecuteStream(&call.ctx, req);
  v1::ResultChunk chunk;
  int chunks = 0;
  while (reader->Read(&chunk)) {
    ++chunks;
    if (first != nullptr && chunk.rows_size() > 0 && chunk.rows(0).values_size() > 0) {
      const v1::Value& v = chunk.rows(0).values(0);
      *first = v.has_int_value() ? std::to_string(v.int_value()) : v.text_value();
    }
  }
  grpc::Status s = reader->Finish();
  // A request that succeeded ends with its last statement's stats (a chunk that did not parse,
  // text that is not UTF-8, would end the reads early).
  if (s.ok() && chunks > 0 && !chunk.has_stats()) {
    Broken("ExecuteStream", "OK without the last statement's stats after " +
                                std::to_string(chunks) + " chunk(s): " + req.sql().substr(0, 80));
  }
  if (passed != nullptr) *passed = call.Passed();
  (void)session;
  return s;
}

grpc::Status ExecuteSql(const Open& session, const std::string& sql, std::string* first) {
  v1::ExecuteRequest req;
  req.set_session_id(session.id);
  req.set_sql(sql);
  return Execute(session, req, first, session.secret, nullptr);
}

void CloseFixtureSession(const Open& session) {
  v1::CloseSessionRequest req;
  req.set_session_id(session.id);
  v1::CloseSessionResponse resp;
  Call call(session.secret);
  grpc::Status s = g->stub->CloseSession(&call.ctx, req, &resp);
  // NOT_FOUND: the input closed it (CloseSession, the end of an Attach).
  if (!s.ok() && s.error_code() != grpc::StatusCode::NOT_FOUND) {
    Broken("CloseSession", s.error_message());
  }
}

void Setup() {
  // Requests that are not UTF-8 where proto3 wants it are rejected without a log line each.
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::err);  // not every session's open and close

  g = new Harness;
  g->dir = meridian::fuzz::MakeTempDir("fuzz_grpc");
  DatabaseOptions options;
  options.data_dir = g->dir + "/data";
  options.buffer_pool_mb = 16;
  options.synchronous_commit = false;
  auto db = Database::Open(options);
  if (!db.ok()) {
    fprintf(stderr, "fuzz_grpc: Open failed: %s\n", db.status().ToString().c_str());
    abort();
  }
  g->db = std::move(db).value();
  g->workers = std::make_unique<server::WorkerPool>(4);
  g->sessions = std::make_unique<server::SessionManager>(g->db.get(), std::chrono::seconds(60),
                                                         g->workers.get());
  g->service =
      std::make_unique<server::SqlService>(g->db.get(), g->sessions.get(), &g->workers->pool());
  grpc::ServerBuilder builder;  // no listening port: only the in-process channel reaches it
  builder.RegisterService(g->service.get());
  builder.SetMaxReceiveMessageSize(64 * 1024 * 1024);  // as the daemon (server/daemon.cc)
  builder.SetMaxSendMessageSize(4 * 1024 * 1024);
  g->server = builder.BuildAndStart();
  if (g->server == nullptr) {
    fprintf(stderr, "fuzz_grpc: the gRPC server did not start\n");
    abort();
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 * 1024 * 1024);  // as Meridian's client (connection.h)
  g->stub = v1::Sql::NewStub(g->server->InProcessChannel(args));

  Open session = OpenFixtureSession();
  if (grpc::Status s =
          ExecuteSql(session, std::string(meridian::fuzz::kFixtureSql) + kGrpcFixture, nullptr);
      !s.ok()) {
    fprintf(stderr, "fuzz_grpc: fixture failed: %s\n", s.error_message().c_str());
    abort();
  }
  CloseFixtureSession(session);
  // A run that ends normally stops the server as the daemon does (Daemon::Shutdown), closes
  // the database and removes its directory; after a crash it stays for a look.
  atexit([] {
    g->sessions->Shutdown();
    g->service->Shutdown();
    g->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    g->service->StopCommits();
    g->workers->Join();
    (void)g->db->Close();
    std::error_code ec;
    std::filesystem::remove_all(g->dir, ec);
  });
}

std::string SecretFor(const Open& session, uint8_t flags) {
  if (flags & kNoSecret) return "";
  std::string secret = session.secret;
  if ((flags & kWrongSecret) && !secret.empty()) secret.back() = secret.back() == '0' ? '1' : '0';
  return secret;
}

template <typename Req>
bool ParseAs(const uint8_t* data, size_t size, Req* req, const Open& session, uint8_t flags) {
  if (!req->ParseFromArray(data, static_cast<int>(size))) return false;
  if (!(flags & kKeepSessionId)) req->set_session_id(session.id);
  return true;
}

// A unary call whose request is the input (session id and secret as flags say).
template <typename Resp, typename Req>
bool Unary(const char* name,
           grpc::Status (v1::Sql::Stub::*rpc)(grpc::ClientContext*, const Req&, Resp*),
           const uint8_t* data, size_t size, const Open& session, uint8_t flags) {
  Req req;
  if (!ParseAs(data, size, &req, session, flags)) return false;
  Resp resp;
  Call call(SecretFor(session, flags));
  CheckStatus(name, (g->stub.get()->*rpc)(&call.ctx, req, &resp), call.Passed());
  return true;
}

void RunExecuteSession(const v1::ExecuteRequest& req, const std::string& secret) {
  Call call(secret);
  auto stream = g->stub->ExecuteSession(&call.ctx);
  v1::ExecuteRequest follow;  // the stream goes on after a request's SQL error
  follow.set_session_id(req.session_id());
  follow.set_sql("SELECT 2");
  for (const v1::ExecuteRequest* r : {&req, static_cast<const v1::ExecuteRequest*>(&follow)}) {
    if (!stream->Write(*r)) break;
    v1::ResultChunk chunk;
    bool done = false;
    while (!done && stream->Read(&chunk)) {
      CheckChunkError(chunk);
      done = chunk.request_done();
    }
    if (!done) break;
  }
  stream->WritesDone();
  CheckStatus("ExecuteSession", stream->Finish(), call.Passed());
}

// Returns false when the input does not parse as its method's request.
bool RunInput(uint8_t method, uint8_t flags, const uint8_t* data, size_t size,
              const Open& session) {
  const std::string secret = SecretFor(session, flags);
  switch (method) {
    case kOpenSession: {
      v1::OpenSessionRequest req;
      if (!req.ParseFromArray(data, static_cast<int>(size))) return false;
      v1::OpenSessionResponse resp;
      Call call("");
      grpc::Status s = g->stub->OpenSession(&call.ctx, req, &resp);
      CheckStatus("OpenSession", s, call.Passed());
      if (s.ok()) CloseFixtureSession({resp.session_id(), resp.session_secret()});
      return true;
    }
    case kExecuteStream: {
      v1::ExecuteRequest req;
      if (!ParseAs(data, size, &req, session, flags)) return false;
      bool passed = false;
      grpc::Status s = Execute(session, req, nullptr, secret, &passed);
      CheckStatus("ExecuteStream", s, passed);
      return true;
    }
    case kExecuteSession: {
      v1::ExecuteRequest req;
      if (!ParseAs(data, size, &req, session, flags)) return false;
      RunExecuteSession(req, secret);
      return true;
    }
    case kPrepare: {
      v1::PrepareRequest req;
      if (!ParseAs(data, size, &req, session, flags)) return false;
      v1::PrepareResponse resp;
      Call call(secret);
      grpc::Status s = g->stub->Prepare(&call.ctx, req, &resp);
      CheckStatus("Prepare", s, call.Passed());
      if (!s.ok()) return true;
      v1::ExecuteRequest run;
      run.set_session_id(req.session_id());
      run.set_statement_id(resp.statement_id());
      for (int i = 0; i < resp.param_types_size(); ++i) {
        run.add_params()->set_text_value(std::to_string(i + 1));
      }
      bool passed = false;
      CheckStatus("ExecuteStream (prepared)", Execute(session, run, nullptr, secret, &passed),
                  passed);
      v1::DeallocateRequest drop;
      drop.set_session_id(req.session_id());
      drop.set_statement_id(resp.statement_id());
      v1::DeallocateResponse dropped;
      Call call2(secret);
      CheckStatus("Deallocate", g->stub->Deallocate(&call2.ctx, drop, &dropped), call2.Passed());
      return true;
    }
    case kDeallocate:
      return Unary<v1::DeallocateResponse>("Deallocate", &v1::Sql::Stub::Deallocate, data, size,
                                           session, flags);
    case kDescribeCatalog:
      return Unary<v1::DescribeCatalogResponse>("DescribeCatalog", &v1::Sql::Stub::DescribeCatalog,
                                                data, size, session, flags);
    case kCancel:
      return Unary<v1::CancelResponse>("Cancel", &v1::Sql::Stub::Cancel, data, size, session,
                                       flags);
    case kCloseSession:
      return Unary<v1::CloseSessionResponse>("CloseSession", &v1::Sql::Stub::CloseSession, data,
                                             size, session, flags);
    case kAttach: {
      v1::AttachRequest req;
      if (!ParseAs(data, size, &req, session, flags)) return false;
      Call call(secret);
      auto reader = g->stub->Attach(&call.ctx, req);
      v1::SessionEvent event;
      if (reader->Read(&event)) call.ctx.TryCancel();  // the client goes: the session closes
      grpc::Status s = reader->Finish();
      if (s.error_code() != grpc::StatusCode::CANCELLED ||
          event.kind() != v1::SessionEvent::ATTACHED) {
        CheckStatus("Attach", s, call.Passed());
      }
      return true;
    }
    default:
      return false;
  }
}

// The request message of a method, empty.
std::unique_ptr<google::protobuf::Message> NewRequest(uint8_t method) {
  switch (method) {
    case kOpenSession:
      return std::make_unique<v1::OpenSessionRequest>();
    case kExecuteStream:
    case kExecuteSession:
      return std::make_unique<v1::ExecuteRequest>();
    case kPrepare:
      return std::make_unique<v1::PrepareRequest>();
    case kDeallocate:
      return std::make_unique<v1::DeallocateRequest>();
    case kDescribeCatalog:
      return std::make_unique<v1::DescribeCatalogRequest>();
    case kCancel:
      return std::make_unique<v1::CancelRequest>();
    case kCloseSession:
      return std::make_unique<v1::CloseSessionRequest>();
    case kAttach:
      return std::make_unique<v1::AttachRequest>();
    default:
      return nullptr;
  }
}

// Bytes that are not UTF-8 become '?': a proto3 string must be UTF-8 (the message would not
// parse), so a mutation that breaks it would be wasted.
void MakeUtf8(std::string* s) {
  size_t i = 0;
  while (i < s->size()) {
    const auto c = static_cast<unsigned char>((*s)[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n != 0 && i + n <= s->size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>((*s)[i + k]) >> 6) == 2;
    if (ok && n > 1) {  // no overlong forms, surrogates or code points past U+10FFFF
      uint32_t cp = c & (0x7F >> n);
      for (size_t k = 1; k < n; ++k)
        cp = cp << 6 | (static_cast<unsigned char>((*s)[i + k]) & 0x3F);
      ok = cp >= (n == 2   ? 0x80u
                  : n == 3 ? 0x800u
                           : 0x10000u) &&
           cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    if (!ok) {
      (*s)[i] = '?';
      n = 1;
    }
    i += n;
  }
}

std::string MutateText(std::string s, bool utf8, size_t max_size) {
  const size_t len = s.size();
  s.resize(std::min(max_size, len + 64));
  s.resize(LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(s.data()), len, s.size()));
  if (utf8) MakeUtf8(&s);
  return s;
}

int64_t Interesting(std::minstd_rand& rng) {
  static constexpr int64_t kValues[] = {
      0,         1,          -1,        2,         255,        4096, 65536, INT32_MAX,
      INT32_MIN, UINT32_MAX, INT64_MAX, INT64_MIN, 1000000000, 23,   25,    17};
  return rng() % 2 ? kValues[rng() % std::size(kValues)] : static_cast<int64_t>(rng()) - 1000;
}

// One structural mutation of m, the way libprotobuf-mutator would (Debian does not package it):
// a field picked at random is changed, added to, removed from or cleared; a text through
// libFuzzer's own mutator (LLVMFuzzerMutate, which uses the dictionary).
void MutateMessage(google::protobuf::Message* m, std::minstd_rand& rng, size_t max_size,
                   int depth) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const google::protobuf::Reflection* r = m->GetReflection();
  if (d->field_count() == 0) return;
  const FieldDescriptor* f = d->field(static_cast<int>(rng() % d->field_count()));
  const bool text = f->type() == FieldDescriptor::TYPE_STRING;
  if (f->is_repeated()) {
    const int n = r->FieldSize(*m, f);
    if (n > 0 && rng() % 4 == 0) return r->RemoveLast(m, f);
    const bool add = n == 0 || rng() % 3 == 0;
    const int i = add ? n : static_cast<int>(rng() % n);
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_MESSAGE:
        if (depth < 4) {
          MutateMessage(add ? r->AddMessage(m, f) : r->MutableRepeatedMessage(m, f, i), rng,
                        max_size, depth + 1);
        }
        return;
      case FieldDescriptor::CPPTYPE_STRING: {
        std::string v = MutateText(add ? "" : r->GetRepeatedString(*m, f, i), text, max_size);
        return add ? r->AddString(m, f, v) : r->SetRepeatedString(m, f, i, v);
      }
      case FieldDescriptor::CPPTYPE_BOOL:
        return add ? r->AddBool(m, f, rng() % 2) : r->SetRepeatedBool(m, f, i, rng() % 2);
      default:
        return;  // no repeated scalar of other types in meridian.proto's requests
    }
  }
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE && rng() % 8 == 0) {
    return r->ClearField(m, f);
  }
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_MESSAGE:
      if (depth < 4) MutateMessage(r->MutableMessage(m, f), rng, max_size, depth + 1);
      return;
    case FieldDescriptor::CPPTYPE_STRING:
      return r->SetString(m, f, MutateText(r->GetString(*m, f), text, max_size));
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->SetBool(m, f, !r->GetBool(*m, f));
    case FieldDescriptor::CPPTYPE_INT32:
      return r->SetInt32(m, f, static_cast<int32_t>(Interesting(rng)));
    case FieldDescriptor::CPPTYPE_INT64:
      return r->SetInt64(m, f, Interesting(rng));
    case FieldDescriptor::CPPTYPE_UINT32:
      return r->SetUInt32(m, f, static_cast<uint32_t>(Interesting(rng)));
    case FieldDescriptor::CPPTYPE_UINT64:
      return r->SetUInt64(m, f, static_cast<uint64_t>(Interesting(rng)));
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      static constexpr double kValues[] = {0.0, -0.0, 1e308, -1e308, 5e-324, 0.5, 1e15, 2.5e9};
      return r->SetDouble(m, f, rng() % 4 ? kValues[rng() % std::size(kValues)] : NAN);
    }
    case FieldDescriptor::CPPTYPE_ENUM:
      return r->SetEnumValue(m, f, static_cast<int>(Interesting(rng) % 8));
    default:
      return;
  }
}

}  // namespace

// Half of the mutations work on the parsed request (MutateMessage), so a text can change length
// without breaking the length prefixes around it; the rest are libFuzzer's on the raw bytes
// (the method and flag bytes too).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned seed) {
  std::minstd_rand rng(seed);
  if (size < 2 || rng() % 2 == 0) return LLVMFuzzerMutate(data, size, max_size);
  std::unique_ptr<google::protobuf::Message> req = NewRequest(data[0]);
  if (req == nullptr || !req->ParseFromArray(data + 2, static_cast<int>(size - 2))) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  MutateMessage(req.get(), rng, max_size, 0);
  std::string out;
  if (!req->SerializeToString(&out) || out.size() + 2 > max_size) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  memcpy(data + 2, out.data(), out.size());
  return out.size() + 2;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Setup();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > 8192 || data[0] >= kMethods) return -1;
  if (!NewRequest(data[0])->ParseFromArray(data + 2, static_cast<int>(size - 2))) return -1;
  Open session = OpenFixtureSession();
  // Inside a transaction block (its changes are rolled back when the session closes), with a
  // statement timeout the request cannot lift past its call's 3-second deadline.
  if (grpc::Status s = ExecuteSql(
          session, "SET statement_timeout = 1000; SET work_mem = '256kB'; BEGIN", nullptr);
      !s.ok()) {
    Broken("setup", s.error_message());
  }
  bool parsed = RunInput(data[0], data[1], data + 2, size - 2, session);
  CloseFixtureSession(session);
  // The database still answers, in a new session.
  Open check = OpenFixtureSession();
  std::string one;
  grpc::Status s = ExecuteSql(check, "SELECT 1", &one);
  if (!s.ok() || one != "1") {
    Broken("SELECT 1 after the input", s.error_message() + " / " + one);
  }
  CloseFixtureSession(check);
  return parsed ? 0 : -1;
}
