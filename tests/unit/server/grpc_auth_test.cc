// The gRPC front end's rule for passwords (accepted over TLS, or without TLS only from this
// host) on the peer strings gRPC reports, and the per-session secret.
#include <gtest/gtest.h>

#include <set>

#include "grpc/grpc_auth.h"
#include "meridian/database.h"
#include "session_manager.h"
#include "temp_dir.h"

namespace meridian::server {
namespace {

TEST(GrpcAuth, LoopbackPeers) {
  EXPECT_TRUE(IsLoopbackPeer("ipv4:127.0.0.1:54321"));
  EXPECT_TRUE(IsLoopbackPeer("ipv4:127.10.20.30:1"));
  EXPECT_TRUE(IsLoopbackPeer("ipv6:[::1]:54321"));
  EXPECT_TRUE(IsLoopbackPeer("ipv6:%5B::1%5D:54321"));
  EXPECT_TRUE(IsLoopbackPeer("ipv6:%5B::ffff:127.0.0.1%5D:54321"));
  EXPECT_TRUE(IsLoopbackPeer("unix:/tmp/meridian.sock"));
  EXPECT_TRUE(IsLoopbackPeer("unix-abstract:meridian"));
}

TEST(GrpcAuth, OtherPeersAreNotLoopback) {
  EXPECT_FALSE(IsLoopbackPeer("ipv4:10.0.0.7:54321"));
  EXPECT_FALSE(IsLoopbackPeer("ipv4:128.0.0.1:54321"));
  EXPECT_FALSE(IsLoopbackPeer("ipv4:192.168.1.127:127"));
  EXPECT_FALSE(IsLoopbackPeer("ipv6:%5B2001:db8::1%5D:54321"));
  EXPECT_FALSE(IsLoopbackPeer("ipv6:%5B::ffff:10.0.0.1%5D:54321"));
  EXPECT_FALSE(IsLoopbackPeer("ipv6:%5B::2%5D:54321"));
  // Malformed or unknown forms are never trusted.
  EXPECT_FALSE(IsLoopbackPeer(""));
  EXPECT_FALSE(IsLoopbackPeer("127.0.0.1:5"));
  EXPECT_FALSE(IsLoopbackPeer("ipv4:127.0.0.1"));
  EXPECT_FALSE(IsLoopbackPeer("ipv4:localhost:5"));
  EXPECT_FALSE(IsLoopbackPeer("ipv4:127.0.0.1.5:5"));
}

TEST(GrpcAuth, PasswordNeedsTlsOrLoopback) {
  EXPECT_TRUE(PasswordAllowed(false, "ipv4:127.0.0.1:5000"));
  EXPECT_FALSE(PasswordAllowed(false, "ipv4:10.1.2.3:5000"));
  EXPECT_FALSE(PasswordAllowed(false, "ipv6:%5B2001:db8::1%5D:5000"));
  EXPECT_TRUE(PasswordAllowed(true, "ipv4:10.1.2.3:5000"));
  EXPECT_TRUE(PasswordAllowed(true, "ipv4:127.0.0.1:5000"));
}

TEST(GrpcAuth, EachSessionHasItsOwnRandomSecret) {
  testutil::TempDir dir;
  DatabaseOptions options;
  options.data_dir = dir.path() + "/data";
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  SessionManager sessions(db->get(), std::chrono::seconds(60));
  std::set<std::string> secrets;
  for (int i = 0; i < 20; ++i) {
    auto s = sessions.Open("meridian", "meridian", "test", "ipv4:127.0.0.1:1");
    ASSERT_TRUE(s.ok());
    const std::string& secret = (*s)->secret();
    ASSERT_EQ(secret.size(), 64u);
    EXPECT_EQ(secret.find_first_not_of("0123456789abcdef"), std::string::npos) << secret;
    EXPECT_TRUE((*s)->CheckSecret(secret));
    EXPECT_FALSE((*s)->CheckSecret(""));
    EXPECT_FALSE((*s)->CheckSecret(secret.substr(0, 63)));
    std::string flipped = secret;
    flipped[10] = flipped[10] == 'a' ? 'b' : 'a';
    EXPECT_FALSE((*s)->CheckSecret(flipped));
    EXPECT_FALSE((*s)->CheckSecret((*s)->id()));
    secrets.insert(secret);
  }
  EXPECT_EQ(secrets.size(), 20u);
  sessions.Shutdown();
  ASSERT_TRUE((*db)->Close().ok());
}

}  // namespace
}  // namespace meridian::server
