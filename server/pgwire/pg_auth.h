// Password authentication for both front ends (the PostgreSQL listener and gRPC's OpenSession):
// the users file, SCRAM-SHA-256 verifiers as PostgreSQL stores them, the server side of a
// SCRAM-SHA-256 exchange (RFC 5802, RFC 7677) and cleartext password checks. Pure computation over OpenSSL's HMAC, SHA-256, PBKDF2 and
// RAND_bytes; the only I/O is reading the users file.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "meridian/status.h"

namespace meridian::server::pgwire {

// How a PostgreSQL client proves who it is (--auth).
enum class AuthMethod { kTrust, kPassword, kScramSha256 };
// "trust", "password" or "scram-sha-256"; nullopt for anything else.
std::optional<AuthMethod> ParseAuthMethod(std::string_view name);
const char* AuthMethodName(AuthMethod method);

inline constexpr const char* kScramMechanism = "SCRAM-SHA-256";
inline constexpr int kDefaultScramIterations = 4096;  // PostgreSQL's scram_iterations default

// Base64 (RFC 4648, standard alphabet, padded). Decoding is strict: nullopt on any other input.
std::string Base64Encode(std::string_view bytes);
std::optional<std::string> Base64Decode(std::string_view text);

// What the server keeps of a SCRAM-SHA-256 password (RFC 5802 section 3).
struct ScramVerifier {
  int iterations = 0;
  std::string salt;        // raw bytes
  std::string stored_key;  // H(ClientKey), 32 bytes
  std::string server_key;  // HMAC(SaltedPassword, "Server Key"), 32 bytes
};
// "SCRAM-SHA-256$<iterations>:<salt b64>$<StoredKey b64>:<ServerKey b64>" (pg_authid's form).
Result<ScramVerifier> ParseScramVerifier(std::string_view text);
std::string FormatScramVerifier(const ScramVerifier& verifier);
// The verifier of a password (no SASLprep: see docs/pgwire-protocol.md).
ScramVerifier MakeScramVerifier(std::string_view password, std::string_view salt, int iterations);

// A random byte string of length n (OpenSSL's RAND_bytes; aborts if the generator fails).
std::string RandomBytes(size_t n);
// True when a and b are equal; for equal lengths the time does not depend on the bytes
// (CRYPTO_memcmp).
bool ConstantTimeEqual(std::string_view a, std::string_view b);

// The users of the PostgreSQL listener, from a text file: one "user:secret" a line, where the
// secret is a plaintext password or a SCRAM-SHA-256 verifier; blank lines and lines starting
// with '#' are skipped. Immutable once loaded, so connections share it without a lock.
class UserTable {
 public:
  static Result<UserTable> Parse(std::string_view text);
  static Result<UserTable> Load(const std::string& path);

  struct Secret {
    std::optional<std::string> plaintext;  // set when the file holds the password itself
    ScramVerifier verifier;  // for plaintext secrets, computed at load with a random salt
  };
  const Secret* Find(std::string_view user) const;
  size_t size() const { return users_.size(); }

  // Checks a cleartext password against the user's secret in constant time. False for an
  // unknown user, after the same PBKDF2 work a verifier costs (against MockVerifier), so the
  // time taken does not tell which users exist.
  bool CheckPassword(std::string_view user, std::string_view password) const;

  // A verifier for a user who does not exist: a salt derived from the user name and a secret of
  // this table, so repeated attempts see the same salt and cannot tell the user is unknown.
  ScramVerifier MockVerifier(std::string_view user) const;

 private:
  std::map<std::string, Secret, std::less<>> users_;
  std::string mock_secret_;
};

// The server's side of one SCRAM-SHA-256 exchange. Channel binding is not offered: the client's
// gs2 header must be "n,," or "y,,"; "p=..." (channel binding) and an authzid are refused.
class ScramServer {
 public:
  // verifier: the user's; doomed: the user is unknown (the exchange runs to the end against a
  // mock verifier and then fails, as in PostgreSQL). server_nonce: for tests; empty picks one.
  ScramServer(ScramVerifier verifier, bool doomed, std::string server_nonce = "");

  // client-first-message → server-first-message; 08P01 when malformed.
  Result<std::string> ClientFirst(std::string_view message);
  // client-final-message → server-final-message; 08P01 when malformed, 28P01 when the proof
  // does not match.
  Result<std::string> ClientFinal(std::string_view message);

 private:
  ScramVerifier verifier_;
  bool doomed_;
  std::string server_nonce_;
  std::string gs2_header_;         // as the client sent it, e.g. "n,,"
  std::string client_first_bare_;  // client-first-message-bare
  std::string nonce_;              // client nonce + server nonce
  std::string server_first_;
  bool first_done_ = false;
};

// The accounts both front ends check, from --auth and --users-file: loaded once at start-up,
// read-only afterwards (shared without a lock).
struct AuthConfig {
  AuthMethod method = AuthMethod::kTrust;
  UserTable users;
  // auth: "trust", "password", "scram-sha-256", or empty: scram-sha-256 with a users file,
  // trust without one. password and scram-sha-256 need users_file.
  static Result<AuthConfig> Load(std::string_view auth, const std::string& users_file);
};

// 28P01 "password authentication failed for user "x"": the one message for an unknown user
// and a wrong password.
Status AuthenticationFailed(std::string_view user);

}  // namespace meridian::server::pgwire
