// SQLSTATE → gRPC code for every class PostgreSQL defines, and errors that always fit in the
// trailers that carry them (server/error_mapping.h).
#include "grpc/error_mapping.h"

#include <gtest/gtest.h>

#include <string>

#include "grpc/sql_service.h"

namespace meridian::server {
namespace {

TEST(ErrorMapping, EveryClassHasADeliberateCode) {
  // One code of each class of PostgreSQL's Appendix A (an error, never OK or UNKNOWN).
  const char* codes[] = {"01000", "02000", "03000", "08006", "09000", "0A000", "0B000",
                         "0F000", "0L000", "0P000", "0Z000", "20000", "21000", "22003",
                         "23505", "24000", "25006", "26000", "27000", "28P01", "2B000",
                         "2D000", "2F000", "34000", "38000", "39000", "3B001", "3D000",
                         "3F000", "40001", "42601", "44000", "53100", "54000", "55P03",
                         "57014", "58030", "72000", "F0000", "HV000", "P0001", "XX000"};
  for (const char* code : codes) {
    grpc::StatusCode c = GrpcCodeForSqlstate(code);
    EXPECT_NE(c, grpc::StatusCode::OK) << code;
    EXPECT_NE(c, grpc::StatusCode::UNKNOWN) << code;
  }
  EXPECT_EQ(GrpcCodeForSqlstate("26000"), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(GrpcCodeForSqlstate("40P01"), grpc::StatusCode::ABORTED);
  EXPECT_EQ(GrpcCodeForSqlstate("57014"), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(GrpcCodeForSqlstate("57P01"), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(GrpcCodeForSqlstate("42501"), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(GrpcCodeForSqlstate("42P01"), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(GrpcCodeForSqlstate("53200"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(GrpcCodeForSqlstate("XX001"), grpc::StatusCode::DATA_LOSS);
  EXPECT_EQ(GrpcCodeForSqlstate("ZZ999"), grpc::StatusCode::UNKNOWN);
  EXPECT_EQ(GrpcCodeForSqlstate("4200"), grpc::StatusCode::UNKNOWN);
}

// A 57014 that ends a call whose deadline passed is that deadline: DEADLINE_EXCEEDED, as the
// client's own timer reports it; a Cancel (deadline not passed) stays CANCELLED, and other
// errors keep their code either way.
TEST(ErrorMapping, QueryCanceledAfterTheDeadlineIsDeadlineExceeded) {
  const Status timeout =
      Status::Error(sqlstate::kQueryCanceled, "canceling statement due to statement timeout");
  EXPECT_EQ(ToGrpcStatus(timeout, "", 0, true).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(ToGrpcStatus(timeout, "", 0, false).error_code(), grpc::StatusCode::CANCELLED);
  const Status syntax = Status::Error(sqlstate::kSyntaxError, "syntax error");
  EXPECT_EQ(ToGrpcStatus(syntax, "", 0, true).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::ErrorStatus details;
  ASSERT_TRUE(details.ParseFromString(ToGrpcStatus(timeout, "", 0, true).error_details()));
  EXPECT_EQ(details.code(), static_cast<int32_t>(grpc::StatusCode::DEADLINE_EXCEEDED));
}

TEST(ErrorMapping, HugeTextsAreCutToFitTheTrailers) {
  std::string name(1 << 20, 'x');
  name += "é";
  Status st = Status::Error("42P07", "relation \"" + name + "\" already exists")
                  .WithDetail(std::string(100000, 'd'))
                  .WithHint(std::string(100000, 'h'));
  grpc::Status g = ToGrpcStatus(st, "CREATE TABLE ...");
  EXPECT_EQ(g.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // Details travel base64-encoded (4/3 of their size) next to the message.
  EXPECT_LT(g.error_message().size() + g.error_details().size() * 4 / 3, 8192u);
  v1::ErrorStatus details;
  ASSERT_TRUE(details.ParseFromString(g.error_details()));
  v1::SqlError err;
  ASSERT_TRUE(details.details(0).UnpackTo(&err));
  EXPECT_EQ(err.sqlstate(), "42P07");
  EXPECT_EQ(err.message().substr(0, 10), "relation \"");
  EXPECT_EQ(err.message().substr(err.message().size() - 3), "...");
  EXPECT_LE(err.detail().size(), 1024u);
  EXPECT_LE(err.hint().size(), 512u);
  // Short texts pass unchanged.
  grpc::Status small = ToGrpcStatus(Status::Error("22012", "division by zero"));
  ASSERT_TRUE(details.ParseFromString(small.error_details()));
  ASSERT_TRUE(details.details(0).UnpackTo(&err));
  EXPECT_EQ(err.message(), "division by zero");
}

// Found by fuzz_grpc (tests/fuzz): an unknown session's status was NOT_FOUND while its
// details (google.rpc.Status) said UNAVAILABLE, 08003's class code. Both must agree.
TEST(ErrorMapping, FuzzGrpcUnknownSessionDetailsCarryTheStatusCode) {
  grpc::Status g = SessionNotFound("no-such-session");
  EXPECT_EQ(g.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(g.error_message().substr(0, 7), "08003: ");
  v1::ErrorStatus details;
  ASSERT_TRUE(details.ParseFromString(g.error_details()));
  EXPECT_EQ(details.code(), static_cast<int32_t>(grpc::StatusCode::NOT_FOUND));
  v1::SqlError err;
  ASSERT_TRUE(details.details(0).UnpackTo(&err));
  EXPECT_EQ(err.sqlstate(), "08003");
}

// The trailers as gRPC sends them: grpc-message percent-encodes every byte outside printable
// ASCII (3 bytes each), grpc-status-details-bin is base64; each entry costs name + value + 32
// against the peer's 8 KiB default. Non-ASCII texts at every cap must still fit.
TEST(ErrorMapping, NonAsciiTextsFitTheTrailersPercentEncoded) {
  std::string e;
  for (int i = 0; i < 100000; ++i) e += "é";
  grpc::Status g = ToGrpcStatus(
      Status::Error("42P07", "relation \"" + e + "\" already exists").WithDetail(e).WithHint(e),
      "CREATE TABLE ...");
  size_t message = 0;
  for (unsigned char c : g.error_message()) message += (c < 0x20 || c > 0x7e || c == '%') ? 3 : 1;
  const size_t details = (g.error_details().size() + 2) / 3 * 4;
  EXPECT_LE((11 + 2 + 32) + (12 + message + 32) + (23 + details + 32), 8192u);
}

}  // namespace
}  // namespace meridian::server
