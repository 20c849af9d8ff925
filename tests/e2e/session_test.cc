// End-to-end tests of the gRPC API against a real daemon: results in bounded chunks, errors with
// SQLSTATE, gRPC code and position, cancellation, deadlines, vanished clients, session lifetime,
// many concurrent sessions, and a table far larger than the buffer pool.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <thread>

#include "daemon_harness.h"

namespace meridian::e2e {
namespace {

class SessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    daemon_ = new Daemon(dir_->path() + "/data", {"--buffer-pool-mb", "2"});
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(daemon_->Stop(SIGTERM), 0) << daemon_->Log();
    delete daemon_;
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(daemon_->started()) << daemon_->Log(); }

  static TempDir* dir_;
  static Daemon* daemon_;
};
TempDir* SessionTest::dir_ = nullptr;
Daemon* SessionTest::daemon_ = nullptr;

// Fills table `name` (id INTEGER, pad TEXT) with 2^doublings rows of ~100 bytes.
void FillBigTable(RawSession& s, const std::string& name, int doublings) {
  auto r = s.Execute("CREATE TABLE " + name + " (id INTEGER, pad TEXT);" + "INSERT INTO " + name +
                     " VALUES (1, '" + std::string(100, 'x') + "')");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  for (int i = 0; i < doublings; ++i) {
    r = s.Execute("INSERT INTO " + name + " SELECT id + " + std::to_string(1 << i) + ", pad FROM " +
                  name);
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  }
}

// Sends Cancel for query_id on s's session: whether a statement was cancelled (*code: the call's).
bool CancelQuery(RawSession& s, const std::string& query_id, grpc::StatusCode* code) {
  grpc::ClientContext ctx;
  s.Authorize(&ctx);
  v1::CancelRequest req;
  req.set_session_id(s.id());
  req.set_query_id(query_id);
  v1::CancelResponse resp;
  *code = s.stub()->Cancel(&ctx, req, &resp).error_code();
  return resp.cancelled();
}

TEST_F(SessionTest, SyntaxErrorCarriesSqlstatePositionAndCode) {
  RawSession s(daemon_->address());
  ASSERT_TRUE(s.ok());
  auto r = s.Execute("SELECT 1;\nSELEC 2");
  EXPECT_EQ(r.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(r.error.sqlstate(), "42601");
  EXPECT_EQ(r.error.position(), 11u);
  EXPECT_EQ(r.error.line(), 2u);
  EXPECT_EQ(r.error.column(), 1u);
  EXPECT_NE(r.error.message().find("SELEC"), std::string::npos) << r.error.message();
  // A syntax error anywhere rejects the whole request before anything runs.
  EXPECT_TRUE(r.chunks.empty());
}

TEST_F(SessionTest, SemanticErrorsMapToSqlstatesAndTheSessionContinues) {
  RawSession s(daemon_->address());
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(s.Execute("CREATE TABLE sem (a INTEGER NOT NULL, b TEXT)").status.ok());
  struct Case {
    const char* sql;
    const char* sqlstate;
    grpc::StatusCode code;
  } cases[] = {
      {"SELECT * FROM nope", "42P01", grpc::StatusCode::INVALID_ARGUMENT},
      {"SELECT zz FROM sem", "42703", grpc::StatusCode::INVALID_ARGUMENT},
      {"INSERT INTO sem (b) VALUES ('x')", "23502", grpc::StatusCode::FAILED_PRECONDITION},
      {"SELECT 1 / 0", "22012", grpc::StatusCode::INVALID_ARGUMENT},
      {"SELECT 2147483647 + 1", "22003", grpc::StatusCode::INVALID_ARGUMENT},
      {"SELECT * FROM sem WHERE a", "42804", grpc::StatusCode::INVALID_ARGUMENT},
  };
  for (const auto& c : cases) {
    auto r = s.Execute(c.sql);
    EXPECT_EQ(r.error.sqlstate(), c.sqlstate) << c.sql << ": " << r.status.error_message();
    EXPECT_EQ(r.status.error_code(), c.code) << c.sql;
  }
  auto r = s.Execute("SELECT zz FROM sem");
  EXPECT_EQ(r.error.position(), 8u);
  EXPECT_TRUE(s.Execute("INSERT INTO sem VALUES (1, 'ok')").status.ok());
}

TEST_F(SessionTest, StatementsOfARequestReportInOrderAndStopAtTheFirstError) {
  RawSession s(daemon_->address());
  auto r = s.Execute(
      "CREATE TABLE seq (a INTEGER); INSERT INTO seq VALUES (1), (2); SELECT a FROM seq ORDER BY "
      "a; INSERT INTO seq VALUES (1/0); INSERT INTO seq VALUES (3)");
  EXPECT_EQ(r.error.sqlstate(), "22012");
  EXPECT_EQ(r.error.statement_index(), 3u);
  ASSERT_GE(r.chunks.size(), 3u);
  EXPECT_EQ(r.chunks[0].stats().command_tag(), "CREATE TABLE");
  EXPECT_EQ(r.chunks[1].stats().command_tag(), "INSERT 0 2");
  EXPECT_EQ(r.chunks[2].metadata().columns(0).name(), "a");
  EXPECT_EQ(r.chunks[2].metadata().columns(0).type().pg_oid(), 23u);
  EXPECT_EQ(r.chunks.back().stats().command_tag(), "SELECT 2");
  auto count = s.Execute("SELECT a FROM seq");
  EXPECT_EQ(count.row_count, 2u);  // the statement after the error never ran
}

TEST_F(SessionTest, LargeResultsStreamInBoundedChunks) {
  RawSession s(daemon_->address());
  FillBigTable(s, "chunky", 15);  // 32768 rows of ~110 bytes: ~3.6 MB of rows
  auto r = s.Execute("SELECT id, pad FROM chunky");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.row_count, 32768u);
  ASSERT_GT(r.chunks.size(), 4u);
  EXPECT_EQ(r.chunks.front().metadata().columns_size(), 2);
  for (size_t i = 0; i < r.chunks.size(); ++i) {
    EXPECT_LT(r.chunks[i].ByteSizeLong(), 1024u * 1024u) << "chunk " << i;
    if (i > 0) {
      EXPECT_EQ(r.chunks[i].metadata().columns_size(), 0) << "metadata only first";
    }
  }
  EXPECT_EQ(r.chunks.back().stats().command_tag(), "SELECT 32768");
}

TEST_F(SessionTest, CancelStopsARunningStatementWith57014) {
  RawSession s(daemon_->address());
  FillBigTable(s, "slow", 17);
  std::atomic<bool> done{false};
  RawSession::Outcome r;
  std::thread t([&] {
    // A self-multiplying filter over 131072 rows, sorted: long enough to be cancelled.
    r = s.Execute("SELECT a.id FROM slow a WHERE a.id * 7 % 13 = 5 ORDER BY a.pad, a.id DESC",
                  std::chrono::milliseconds(60'000), "q-cancel");
    done = true;
  });
  grpc::StatusCode cancel_code = grpc::StatusCode::UNKNOWN;
  bool cancelled = false;
  for (int i = 0; i < 200 && !done && !cancelled; ++i) {
    cancelled = CancelQuery(s, "q-cancel", &cancel_code);
    if (!cancelled) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  t.join();
  EXPECT_EQ(cancel_code, grpc::StatusCode::OK);
  EXPECT_TRUE(cancelled) << "the statement finished before any Cancel reached it";
  EXPECT_EQ(r.error.sqlstate(), "57014") << r.status.error_message();
  EXPECT_EQ(r.status.error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(s.Execute("SELECT 1").status.ok()) << "the session goes on after a cancel";
}

TEST_F(SessionTest, ClientDeadlineCancelsTheStatementServerSide) {
  RawSession s(daemon_->address());
  FillBigTable(s, "deadline", 17);
  auto r = s.Execute("SELECT id FROM deadline ORDER BY pad, id DESC", std::chrono::milliseconds(5));
  EXPECT_EQ(r.status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The server notices the deadline and stops the statement; the next request, sent at once,
  // waits for it to end (no 55000 "another request is already running"), as the next message
  // on a PostgreSQL connection waits for the statement before it.
  RawSession::Outcome next = s.Execute("SELECT 1");
  EXPECT_TRUE(next.status.ok()) << next.status.error_message();
}

TEST_F(SessionTest, VanishedClientEndsItsSessionAndTheServerGoesOn) {
  std::string session_id;
  {
    RawSession s(daemon_->address());
    ASSERT_TRUE(s.ok());
    session_id = s.id();
    // A client that goes away in the middle of a streamed result.
    FillBigTable(s, "vanish", 14);
    grpc::ClientContext ctx;
    s.Authorize(&ctx);
    v1::ExecuteRequest req;
    req.set_session_id(s.id());
    req.set_sql("SELECT * FROM vanish");
    req.set_max_rows_per_chunk(100);
    auto reader = s.stub()->ExecuteStream(&ctx, req);
    v1::ResultChunk chunk;
    ASSERT_TRUE(reader->Read(&chunk));
    ctx.TryCancel();
    while (reader->Read(&chunk)) {
    }
    (void)reader->Finish();
  }  // the Attach stream is cancelled here: the client is gone
  bool closed = false;
  for (int i = 0; i < 200 && !closed; ++i) {
    closed = daemon_->Log().find("session " + session_id + " closed") != std::string::npos;
    if (!closed) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(closed) << daemon_->Log();
  RawSession other(daemon_->address());
  EXPECT_EQ(other.Execute("SELECT count_me FROM vanish").error.sqlstate(), "42703");
  EXPECT_EQ(other.Execute("SELECT id FROM vanish").row_count, 16384u);
}

TEST_F(SessionTest, UnknownSessionIsNotFound) {
  RawSession s(daemon_->address());
  grpc::ClientContext ctx;
  v1::ExecuteRequest req;
  req.set_session_id("no-such-session");
  req.set_sql("SELECT 1");
  auto reader = s.stub()->ExecuteStream(&ctx, req);
  v1::ResultChunk chunk;
  EXPECT_FALSE(reader->Read(&chunk));
  grpc::Status st = reader->Finish();
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(DecodeError(st).sqlstate(), "08003");
}

TEST_F(SessionTest, FiftySessionsInsertAndReadConcurrently) {
  {
    RawSession setup(daemon_->address());
    ASSERT_TRUE(setup.Execute("CREATE TABLE shared_t (session INTEGER, n INTEGER)").status.ok());
  }
  constexpr int kSessions = 50, kRows = 40;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kSessions; ++t) {
    threads.emplace_back([&, t] {
      RawSession s(daemon_->address());
      if (!s.ok()) {
        ++failures;
        return;
      }
      for (int i = 0; i < kRows; ++i) {
        auto r = s.Execute("INSERT INTO shared_t VALUES (" + std::to_string(t) + ", " +
                           std::to_string(i) + ")");
        if (!r.status.ok()) ++failures;
        if (i % 10 == 9) {
          auto q = s.Execute("SELECT n FROM shared_t WHERE session = " + std::to_string(t));
          if (!q.status.ok() || q.row_count != static_cast<size_t>(i + 1)) ++failures;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  RawSession check(daemon_->address());
  EXPECT_EQ(check.Execute("SELECT * FROM shared_t").row_count,
            static_cast<size_t>(kSessions * kRows));
}

TEST_F(SessionTest, TwoHundredConcurrentSessions) {
  constexpr int kSessions = 200;
  std::vector<std::unique_ptr<RawSession>> sessions;
  for (int i = 0; i < kSessions; ++i) {
    sessions.push_back(std::make_unique<RawSession>(daemon_->address()));
    ASSERT_TRUE(sessions.back()->ok()) << i;
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < kSessions; i += 8) {
        auto r = sessions[i]->Execute("SELECT " + std::to_string(i) + " * 2");
        if (!r.status.ok() || r.chunks.at(0).rows(0).values(0).int_value() != 2 * i) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(SessionTest, TableTenTimesLargerThanTheBufferPool) {
  // The daemon runs with a 2 MiB pool; 2^16 rows of ~110 bytes is ~8 MB of heap, plus an
  // updated copy of every row.
  RawSession s(daemon_->address());
  FillBigTable(s, "big", 16);
  auto r = s.Execute("UPDATE big SET pad = pad || pad WHERE id % 2 = 0");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.chunks.back().stats().command_tag(), "UPDATE 32768");
  r = s.Execute("SELECT id FROM big WHERE id > 65000");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.row_count, 536u);
  r = s.Execute("DELETE FROM big WHERE id <= 60000");
  EXPECT_EQ(r.chunks.back().stats().command_tag(), "DELETE 60000");
  EXPECT_EQ(s.Execute("SELECT id FROM big").row_count, 5536u);
}

// ExecuteSession: requests one after another on one stream, each ending with a request_done
// chunk; an SQL error travels in that chunk and the stream goes on.
class SessionStream {
 public:
  explicit SessionStream(RawSession& s) : s_(s) {
    s_.Authorize(&ctx_);
    stream_ = s_.stub()->ExecuteSession(&ctx_);
  }
  struct Outcome {
    std::vector<v1::ResultChunk> chunks;
    bool done = false;  // a request_done chunk arrived
    uint64_t rows = 0;
  };
  Outcome Run(const std::string& sql, uint32_t max_rows = 0, const std::string& query_id = "",
              uint32_t timeout_ms = 0) {
    v1::ExecuteRequest req;
    req.set_timeout_ms(timeout_ms);
    req.set_session_id(s_.id());
    req.set_sql(sql);
    req.set_max_rows_per_chunk(max_rows);
    req.set_query_id(query_id);
    Outcome out;
    if (!stream_->Write(req)) return out;
    v1::ResultChunk chunk;
    while (!out.done && stream_->Read(&chunk)) {
      out.rows += chunk.rows_size();
      out.done = chunk.request_done();
      out.chunks.push_back(chunk);
    }
    return out;
  }
  grpc::Status Close() {
    stream_->WritesDone();
    return stream_->Finish();
  }
  grpc::ClientContext* context() { return &ctx_; }

 private:
  RawSession& s_;
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::ExecuteRequest, v1::ResultChunk>> stream_;
};

TEST_F(SessionTest, SessionStreamRunsRequestsInOrderAndErrorsDoNotEndIt) {
  RawSession s(daemon_->address());
  ASSERT_TRUE(s.ok());
  SessionStream stream(s);
  auto created = stream.Run(
      "CREATE TABLE ss (id INTEGER PRIMARY KEY); "
      "INSERT INTO ss SELECT * FROM generate_series(1, 10)");
  ASSERT_TRUE(created.done);
  EXPECT_FALSE(created.chunks.back().has_error()) << created.chunks.back().error().message();
  EXPECT_EQ(created.chunks.back().stats().command_tag(), "INSERT 0 10");

  // Rows in chunks of 3: 4 chunks, the last one marked done and carrying the stats.
  auto read = stream.Run("SELECT id FROM ss ORDER BY id", 3);
  ASSERT_TRUE(read.done);
  EXPECT_EQ(read.rows, 10u);
  EXPECT_EQ(read.chunks.size(), 4u);
  for (size_t i = 0; i + 1 < read.chunks.size(); ++i) EXPECT_FALSE(read.chunks[i].request_done());
  EXPECT_EQ(read.chunks.back().stats().rows(), 10u);
  EXPECT_EQ(read.chunks.front().rows(0).values(0).int_value(), 1);

  // An error in the second statement: the first ran, the error names statement 1 and its
  // position, and the stream takes the next request.
  auto failed = stream.Run("INSERT INTO ss VALUES (11); INSERT INTO ss VALUES (1)");
  ASSERT_TRUE(failed.done);
  ASSERT_TRUE(failed.chunks.back().has_error());
  EXPECT_EQ(failed.chunks.back().error().sqlstate(), "23505");
  EXPECT_EQ(failed.chunks.back().error().statement_index(), 1u);
  auto syntax = stream.Run("SELEC 1");
  ASSERT_TRUE(syntax.done);
  EXPECT_EQ(syntax.chunks.back().error().sqlstate(), "42601");
  EXPECT_EQ(syntax.chunks.back().error().position(), 1u);

  // A transaction block spans requests on the stream, and a failed statement fails the block.
  ASSERT_FALSE(stream.Run("BEGIN").chunks.back().has_error());
  ASSERT_FALSE(stream.Run("INSERT INTO ss VALUES (12)").chunks.back().has_error());
  EXPECT_EQ(stream.Run("SELECT nope").chunks.back().error().sqlstate(), "42703");
  EXPECT_EQ(stream.Run("SELECT 1").chunks.back().error().sqlstate(), "25P02");
  ASSERT_FALSE(stream.Run("ROLLBACK").chunks.back().has_error());
  auto count = stream.Run("SELECT count(*) FROM ss");
  EXPECT_EQ(count.chunks.back().rows(0).values(0).int_value(), 11);  // 1..11, not 12
  // An empty request ends with a bare done chunk.
  auto empty = stream.Run("");
  ASSERT_TRUE(empty.done);
  EXPECT_FALSE(empty.chunks.back().has_error());
  EXPECT_TRUE(stream.Close().ok());
}

TEST_F(SessionTest, SessionStreamCancelByQueryIdAndWrongSecret) {
  RawSession s(daemon_->address());
  ASSERT_TRUE(s.ok());
  SessionStream stream(s);
  SessionStream::Outcome slow;
  std::thread t([&] { slow = stream.Run("SELECT pg_sleep(30)", 0, "q-stream"); });
  bool cancelled = false;
  grpc::StatusCode cancel_code = grpc::StatusCode::UNKNOWN;
  for (int i = 0; i < 500 && !cancelled; ++i) {
    cancelled = CancelQuery(s, "q-stream", &cancel_code);
    if (!cancelled) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(cancel_code, grpc::StatusCode::OK);
  t.join();
  ASSERT_TRUE(cancelled);
  ASSERT_TRUE(slow.done);
  EXPECT_EQ(slow.chunks.back().error().sqlstate(), "57014");
  // timeout_ms: the request's own statement timeout.
  auto timed = stream.Run("SELECT pg_sleep(5)", 0, "", 200);
  ASSERT_TRUE(timed.done);
  EXPECT_EQ(timed.chunks.back().error().sqlstate(), "57014");
  EXPECT_NE(timed.chunks.back().error().message().find("timeout"), std::string::npos)
      << timed.chunks.back().error().message();
  auto next = stream.Run("SELECT 2");
  ASSERT_TRUE(next.done) << "the stream goes on after a cancelled request";
  EXPECT_EQ(next.chunks.back().rows(0).values(0).int_value(), 2);
  EXPECT_TRUE(stream.Close().ok());

  // A stream without the session's secret: refused at its first request, with 28000.
  grpc::ClientContext ctx;
  auto bad = s.stub()->ExecuteSession(&ctx);
  v1::ExecuteRequest req;
  req.set_session_id(s.id());
  req.set_sql("SELECT 1");
  ASSERT_TRUE(bad->Write(req));
  v1::ResultChunk chunk;
  EXPECT_FALSE(bad->Read(&chunk));
  grpc::Status st = bad->Finish();
  EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(DecodeError(st).sqlstate(), "28000");
}

}  // namespace
}  // namespace meridian::e2e
