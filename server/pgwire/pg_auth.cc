// The users file, SCRAM-SHA-256 verifiers and the server side of a SCRAM exchange; see
// pg_auth.h. Message syntax follows RFC 5802 section 7; checks and error texts follow
// PostgreSQL's auth-scram.c, which is what libpq-based clients expect.
#include "pg_auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "pg_protocol.h"

namespace meridian::server::pgwire {
namespace {

constexpr size_t kKeyLength = SHA256_DIGEST_LENGTH;  // 32
constexpr size_t kServerNonceBytes = 18;             // as PostgreSQL: 24 base64 characters
constexpr size_t kSaltBytes = 16;
constexpr int kMaxIterations = 10'000'000;

const char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Sha256(std::string_view data) {
  std::string out(kKeyLength, '\0');
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(),
         reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  std::string out(kKeyLength, '\0');
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(),
       reinterpret_cast<unsigned char*>(out.data()), &len);
  return out;
}

Status ScramError(std::string detail) {
  return Status::Error(sqlstate::kProtocolViolation, "malformed SCRAM message").WithDetail(std::move(detail));
}

// Reads "<attr>=<value>" up to the next ',' (or the end) from *in and consumes it.
std::optional<std::string_view> ReadAttribute(std::string_view* in, char attr) {
  if (in->size() < 2 || (*in)[0] != attr || (*in)[1] != '=') return std::nullopt;
  size_t comma = in->find(',');
  std::string_view value = in->substr(2, comma == std::string_view::npos ? in->npos : comma - 2);
  in->remove_prefix(comma == std::string_view::npos ? in->size() : comma + 1);
  return value;
}

// RFC 5802 "printable": %x21-2B / %x2D-7E (no comma).
bool PrintableNonce(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < 0x21 || c > 0x7E || c == ',') return false;
  }
  return true;
}

}  // namespace

std::optional<AuthMethod> ParseAuthMethod(std::string_view name) {
  if (name == "trust") return AuthMethod::kTrust;
  if (name == "password") return AuthMethod::kPassword;
  if (name == "scram-sha-256") return AuthMethod::kScramSha256;
  return std::nullopt;
}

const char* AuthMethodName(AuthMethod method) {
  switch (method) {
    case AuthMethod::kTrust:
      return "trust";
    case AuthMethod::kPassword:
      return "password";
    case AuthMethod::kScramSha256:
      return "scram-sha-256";
  }
  return "?";
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kBase64Alphabet[(n >> 18) & 63]);
    out.push_back(kBase64Alphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kBase64Alphabet[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kBase64Alphabet[n & 63] : '=');
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t n = 0;
    int pad = 0;
    for (size_t j = 0; j < 4; ++j) {
      char c = text[i + j];
      int v;
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        ++pad;
        v = 0;
      } else if (pad > 0) {
        return std::nullopt;  // data after padding
      } else if (c >= 'A' && c <= 'Z') {
        v = c - 'A';
      } else if (c >= 'a' && c <= 'z') {
        v = c - 'a' + 26;
      } else if (c >= '0' && c <= '9') {
        v = c - '0' + 52;
      } else if (c == '+') {
        v = 62;
      } else if (c == '/') {
        v = 63;
      } else {
        return std::nullopt;
      }
      n = (n << 6) | static_cast<uint32_t>(v);
    }
    // The bits the padding leaves over must be zero: one encoding per byte string (RFC 4648
    // section 3.5), so decoding and encoding again gives the text back.
    if ((pad == 1 && (n & 0xFF) != 0) || (pad == 2 && (n & 0xFFFF) != 0)) return std::nullopt;
    out.push_back(static_cast<char>((n >> 16) & 0xFF));
    if (pad < 2) out.push_back(static_cast<char>((n >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(n & 0xFF));
  }
  return out;
}

bool ConstantTimeEqual(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    std::abort();  // no randomness: never hand out predictable nonces or salts
  }
  return out;
}

Result<ScramVerifier> ParseScramVerifier(std::string_view text) {
  auto bad = [] {
    return Status::Error(sqlstate::kInvalidParameterValue, "invalid SCRAM-SHA-256 verifier")
        .WithHint("Expected SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>.");
  };
  constexpr std::string_view kPrefix = "SCRAM-SHA-256$";
  if (text.substr(0, kPrefix.size()) != kPrefix) return bad();
  text.remove_prefix(kPrefix.size());
  size_t dollar = text.find('$');
  if (dollar == std::string_view::npos) return bad();
  std::string_view params = text.substr(0, dollar), keys = text.substr(dollar + 1);
  size_t c1 = params.find(':'), c2 = keys.find(':');
  if (c1 == std::string_view::npos || c2 == std::string_view::npos) return bad();
  ScramVerifier v;
  std::string_view iter = params.substr(0, c1);
  auto [ptr, ec] = std::from_chars(iter.data(), iter.data() + iter.size(), v.iterations);
  if (ec != std::errc() || ptr != iter.data() + iter.size() || v.iterations < 1 ||
      v.iterations > kMaxIterations) {
    return bad();
  }
  auto salt = Base64Decode(params.substr(c1 + 1));
  auto stored = Base64Decode(keys.substr(0, c2));
  auto server = Base64Decode(keys.substr(c2 + 1));
  if (!salt || salt->empty() || !stored || stored->size() != kKeyLength || !server ||
      server->size() != kKeyLength) {
    return bad();
  }
  v.salt = std::move(*salt);
  v.stored_key = std::move(*stored);
  v.server_key = std::move(*server);
  return v;
}

std::string FormatScramVerifier(const ScramVerifier& v) {
  std::string s = "SCRAM-SHA-256$";
  s.append(std::to_string(v.iterations)).append(":").append(Base64Encode(v.salt));
  s.append("$").append(Base64Encode(v.stored_key)).append(":").append(Base64Encode(v.server_key));
  return s;
}

ScramVerifier MakeScramVerifier(std::string_view password, std::string_view salt, int iterations) {
  std::string salted(kKeyLength, '\0');
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()),
                    static_cast<int>(salt.size()), iterations, EVP_sha256(),
                    static_cast<int>(kKeyLength), reinterpret_cast<unsigned char*>(salted.data()));
  ScramVerifier v;
  v.iterations = iterations;
  v.salt = std::string(salt);
  v.stored_key = Sha256(HmacSha256(salted, "Client Key"));
  v.server_key = HmacSha256(salted, "Server Key");
  return v;
}

// ---- UserTable ---------------------------------------------------------------------------

Result<UserTable> UserTable::Parse(std::string_view text) {
  UserTable table;
  table.mock_secret_ = RandomBytes(kKeyLength);
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    auto bad = [&](const std::string& why) {
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "users file line " + std::to_string(line_no) + ": " + why)
          .WithHint("Each line is user:password or user:SCRAM-SHA-256$<iter>:<salt>$<key>:<key>.");
    };
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return bad("no ':' between user and secret");
    std::string_view user = line.substr(0, colon), secret_text = line.substr(colon + 1);
    if (user.empty()) return bad("empty user name");
    if (secret_text.empty()) return bad("empty secret");
    if (table.users_.count(user) != 0) return bad("user \"" + std::string(user) + "\" twice");
    Secret secret;
    if (secret_text.substr(0, 14) == "SCRAM-SHA-256$") {
      auto verifier = ParseScramVerifier(secret_text);
      if (!verifier.ok()) return bad(verifier.status().message());
      secret.verifier = std::move(*verifier);
    } else {
      secret.plaintext = std::string(secret_text);
      secret.verifier =
          MakeScramVerifier(secret_text, RandomBytes(kSaltBytes), kDefaultScramIterations);
    }
    table.users_.emplace(std::string(user), std::move(secret));
  }
  return table;
}

Result<UserTable> UserTable::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::Error(sqlstate::kIoError, "could not open the users file \"" + path + "\"")
        .WithHint("Check --users-file (MERIDIAN_USERS_FILE).");
  }
  std::stringstream text;
  text << in.rdbuf();
  auto table = Parse(text.str());
  if (!table.ok()) {
    Status st = table.status();
    return Status::Error(st.sqlstate(), path + ": " + st.message()).WithHint(st.error().hint);
  }
  return table;
}

const UserTable::Secret* UserTable::Find(std::string_view user) const {
  auto it = users_.find(user);
  return it == users_.end() ? nullptr : &it->second;
}

bool UserTable::CheckPassword(std::string_view user, std::string_view password) const {
  const Secret* secret = Find(user);
  if (secret == nullptr) {
    // As long as a wrong password for a stored verifier takes.
    ScramVerifier mock = MockVerifier(user);
    (void)MakeScramVerifier(password, mock.salt, mock.iterations);
    return false;
  }
  if (password.empty()) return false;
  if (secret->plaintext) {
    // Hashes first: the comparison then takes the same time whatever the lengths.
    return ConstantTimeEqual(Sha256(*secret->plaintext), Sha256(password));
  }
  const ScramVerifier& v = secret->verifier;
  ScramVerifier computed = MakeScramVerifier(password, v.salt, v.iterations);
  return ConstantTimeEqual(computed.stored_key, v.stored_key) &
         ConstantTimeEqual(computed.server_key, v.server_key);
}

ScramVerifier UserTable::MockVerifier(std::string_view user) const {
  ScramVerifier v;
  v.iterations = kDefaultScramIterations;
  v.salt = Sha256(mock_secret_ + std::string(user)).substr(0, kSaltBytes);
  v.stored_key = std::string(kKeyLength, '\0');
  v.server_key = std::string(kKeyLength, '\0');
  return v;
}

// ---- ScramServer -------------------------------------------------------------------------

ScramServer::ScramServer(ScramVerifier verifier, bool doomed, std::string server_nonce)
    : verifier_(std::move(verifier)), doomed_(doomed), server_nonce_(std::move(server_nonce)) {
  if (server_nonce_.empty()) server_nonce_ = Base64Encode(RandomBytes(kServerNonceBytes));
}

Result<std::string> ScramServer::ClientFirst(std::string_view message) {
  if (first_done_) return ScramError("unexpected client-first-message");
  first_done_ = true;
  std::string_view in = message;
  // gs2-header: cbind flag, optional authzid.
  if (in.empty()) return ScramError("empty client-first-message");
  switch (in[0]) {
    case 'n':
    case 'y':  // the client supports channel binding but thinks we do not: right, we do not
      if (in.size() < 2 || in[1] != ',') return ScramError("comma expected after the cbind flag");
      in.remove_prefix(2);
      break;
    case 'p':
      return ScramError(
          "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message "
          "includes channel binding data.");
    default:
      return ScramError("unexpected channel-binding flag");
  }
  if (!in.empty() && in[0] == 'a') {
    return ScramError("client uses authorization identity, but it is not supported");
  }
  if (in.empty() || in[0] != ',') return ScramError("comma expected after the gs2 header");
  in.remove_prefix(1);
  gs2_header_ = std::string(message.substr(0, message.size() - in.size()));
  client_first_bare_ = std::string(in);
  if (!in.empty() && in[0] == 'm') return ScramError("client requires an unsupported extension");
  // The user name is ignored, as in PostgreSQL: the startup packet's user is authenticated.
  if (!ReadAttribute(&in, 'n')) return ScramError("user name attribute expected");
  auto client_nonce = ReadAttribute(&in, 'r');
  if (!client_nonce || !PrintableNonce(*client_nonce)) return ScramError("invalid client nonce");
  // Extensions after the nonce are allowed and ignored.
  nonce_ = std::string(*client_nonce) + server_nonce_;
  server_first_ = "r=" + nonce_ + ",s=" + Base64Encode(verifier_.salt) +
                  ",i=" + std::to_string(verifier_.iterations);
  return server_first_;
}

Result<std::string> ScramServer::ClientFinal(std::string_view message) {
  if (!first_done_ || server_first_.empty()) return ScramError("unexpected client-final-message");
  std::string_view in = message;
  auto binding = ReadAttribute(&in, 'c');
  if (!binding) return ScramError("channel binding attribute expected");
  auto decoded = Base64Decode(*binding);
  if (!decoded || *decoded != gs2_header_) {
    return ScramError("SCRAM channel binding check failed");
  }
  auto nonce = ReadAttribute(&in, 'r');
  if (!nonce || *nonce != nonce_) return ScramError("nonce does not match");
  // Skip extensions up to the proof, which must come last.
  std::optional<std::string_view> proof;
  while (!in.empty()) {
    if (in.size() >= 2 && in[0] == 'p' && in[1] == '=') {
      size_t at = static_cast<size_t>(in.data() - message.data());
      proof = ReadAttribute(&in, 'p');
      if (!in.empty() || at == 0 || message[at - 1] != ',') {
        return ScramError("proof must be the last attribute");
      }
      // client-final-message-without-proof: everything before ",p=".
      std::string without_proof(message.substr(0, at - 1));
      auto proof_bytes = Base64Decode(*proof);
      if (!proof_bytes || proof_bytes->size() != kKeyLength) {
        return ScramError("malformed proof in client-final-message");
      }
      std::string auth_message = client_first_bare_ + "," + server_first_ + "," + without_proof;
      std::string client_signature = HmacSha256(verifier_.stored_key, auth_message);
      std::string client_key(kKeyLength, '\0');
      for (size_t i = 0; i < kKeyLength; ++i) {
        client_key[i] = static_cast<char>((*proof_bytes)[i] ^ client_signature[i]);
      }
      bool match = ConstantTimeEqual(Sha256(client_key), verifier_.stored_key);
      if (doomed_ || !match)
        return Status::Error(sqlstate::kInvalidPassword, "SCRAM proof does not match");
      return "v=" + Base64Encode(HmacSha256(verifier_.server_key, auth_message));
    }
    size_t comma = in.find(',');
    if (in.size() < 2 || in[1] != '=') return ScramError("malformed attribute");
    in.remove_prefix(comma == std::string_view::npos ? in.size() : comma + 1);
  }
  return ScramError("proof expected in client-final-message");
}

Status AuthenticationFailed(std::string_view user) {
  return Status::Error(sqlstate::kInvalidPassword,
                       "password authentication failed for user \"" + std::string(user) + "\"");
}

Result<AuthConfig> AuthConfig::Load(std::string_view auth, const std::string& users_file) {
  AuthConfig config;
  std::string method(auth);
  if (method.empty()) method = users_file.empty() ? "trust" : "scram-sha-256";
  std::optional<AuthMethod> parsed = ParseAuthMethod(method);
  if (!parsed)
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "unknown authentication method \"" + method + "\"");
  config.method = *parsed;
  if (!users_file.empty()) {
    MERIDIAN_ASSIGN_OR_RETURN(config.users, UserTable::Load(users_file));
  } else if (config.method != AuthMethod::kTrust) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "--auth " + method + " needs --users-file");
  }
  return config;
}

}  // namespace meridian::server::pgwire
