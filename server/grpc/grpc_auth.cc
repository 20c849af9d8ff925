// TLS credentials of the gRPC listener and the loopback rule for passwords; see grpc_auth.h.
#include "grpc/grpc_auth.h"

#include <arpa/inet.h>
#include <grpcpp/security/server_credentials.h>
#include <netinet/in.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <fstream>
#include <sstream>
#include <string>

namespace meridian::server {
namespace {

// The address part of "ipv4:A:PORT" / "ipv6:[A]:PORT" (brackets possibly %-encoded).
std::string PeerAddress(std::string_view rest) {
  size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return "";
  std::string address(rest.substr(0, colon));
  for (std::string_view open : {"%5B", "%5b", "["}) {
    if (address.rfind(open, 0) == 0) {
      address.erase(0, open.size());
      break;
    }
  }
  for (std::string_view close : {"%5D", "%5d", "]"}) {
    if (address.size() >= close.size() &&
        address.compare(address.size() - close.size(), close.size(), close) == 0) {
      address.erase(address.size() - close.size());
      break;
    }
  }
  return address;
}

Status ReadFile(const std::string& path, const char* what, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  if (!in || text.str().empty()) {
    return Status::Error(sqlstate::kIoError,
                         std::string("could not read the TLS ") + what + " \"" + path + "\"")
        .WithHint("--tls-cert, --tls-key and --tls-ca take PEM files.");
  }
  *out = text.str();
  return Status::Ok();
}

Status BadPem(const char* what, const std::string& path) {
  return Status::Error(sqlstate::kIoError,
                       std::string("the TLS ") + what + " \"" + path + "\" is not valid PEM")
      .WithHint("--tls-cert, --tls-key and --tls-ca take PEM files.");
}

// The first certificate of a PEM text, or null.
X509* ParseCertificate(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return cert;
}

// Whether key (PEM, unencrypted) is the private key of the certificate cert_pem starts with.
Status CheckKeyPair(const std::string& cert_pem, const std::string& key_pem,
                    const ServerOptions& options) {
  X509* cert = ParseCertificate(cert_pem);
  if (cert == nullptr) return BadPem("certificate", options.tls_cert);
  BIO* bio = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  Status st = Status::Ok();
  if (key == nullptr) {
    st = BadPem("private key", options.tls_key);
  } else if (X509_check_private_key(cert, key) != 1) {
    st = Status::Error(sqlstate::kIoError, "the TLS private key \"" + options.tls_key +
                                               "\" does not match the certificate \"" +
                                               options.tls_cert + "\"");
  }
  EVP_PKEY_free(key);
  X509_free(cert);
  return st;
}

}  // namespace

bool IsLoopbackPeer(std::string_view peer) {
  if (peer.rfind("unix:", 0) == 0 || peer.rfind("unix-abstract:", 0) == 0) return true;
  if (peer.rfind("ipv4:", 0) == 0) {
    in_addr a{};
    if (inet_pton(AF_INET, PeerAddress(peer.substr(5)).c_str(), &a) != 1) return false;
    return (ntohl(a.s_addr) >> 24) == 127;
  }
  if (peer.rfind("ipv6:", 0) == 0) {
    std::string address = PeerAddress(peer.substr(5));
    if (size_t zone = address.find('%'); zone != std::string::npos) address.erase(zone);
    in6_addr a{};
    if (inet_pton(AF_INET6, address.c_str(), &a) != 1) return false;
    if (IN6_IS_ADDR_LOOPBACK(&a)) return true;
    return IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127;
  }
  return false;
}

bool PasswordAllowed(bool tls, std::string_view peer) { return tls || IsLoopbackPeer(peer); }

Result<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const ServerOptions& options) {
  if (options.tls_cert.empty()) return grpc::InsecureServerCredentials();
  std::string cert, key, ca;
  MERIDIAN_RETURN_IF_ERROR(ReadFile(options.tls_cert, "certificate", &cert));
  MERIDIAN_RETURN_IF_ERROR(ReadFile(options.tls_key, "private key", &key));
  MERIDIAN_RETURN_IF_ERROR(CheckKeyPair(cert, key, options));
  grpc::SslServerCredentialsOptions ssl(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  ssl.pem_key_cert_pairs.push_back({key, cert});
  if (!options.tls_ca.empty()) {
    MERIDIAN_RETURN_IF_ERROR(ReadFile(options.tls_ca, "CA certificate", &ca));
    X509* first = ParseCertificate(ca);
    if (first == nullptr) return BadPem("CA certificate", options.tls_ca);
    X509_free(first);
    ssl.pem_root_certs = ca;
    ssl.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(ssl);
}

}  // namespace meridian::server
