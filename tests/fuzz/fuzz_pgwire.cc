// libFuzzer harness: the PostgreSQL protocol decoders (server/pgwire/pg_protocol.h) and the
// SCRAM-SHA-256 server exchange (pg_auth.h) on arbitrary bytes. The first input byte picks what
// the rest is (low 2 bits):
//   0  a byte stream from connection start: startup-phase frames, then typed frames, each body
//      handed to the decoder its type selects (what PgConnection does, without sockets);
//   1  a typed-message stream (after startup);
//   2  a SCRAM exchange: client-first-message, '\n', client-final-message;
//   3  a users-file secret: ParseScramVerifier and Base64Decode.
// Every decoder must return a message or an error; a crash, an ASan/UBSan report or a decoded
// view outside its input is a bug (tests/fuzz/README.md, invariant 2).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "pg_auth.h"
#include "pg_protocol.h"

namespace {

using namespace meridian;
using namespace meridian::server::pgwire;

void Check(bool condition, const char* what) {
  if (!condition) {
    fprintf(stderr, "fuzz_pgwire: invariant broken: %s\n", what);
    abort();
  }
}

bool Within(std::string_view inner, std::string_view outer) {
  return inner.empty() || (inner.data() >= outer.data() &&
                           inner.data() + inner.size() <= outer.data() + outer.size());
}

void Bind(std::string_view body) {
  auto m = DecodeBind(body);
  if (!m.ok()) return;
  Check(Within(m->portal, body) && Within(m->statement, body), "Bind names within body");
  auto formats = ResolveFormats(m->parameter_formats, m->parameters.size(), "parameter formats",
                                "parameters");
  (void)ResolveFormats(m->result_formats, 2, "result formats", "columns");
  for (size_t i = 0; i < m->parameters.size(); ++i) {
    if (!m->parameters[i]) continue;
    Check(Within(*m->parameters[i], body), "Bind parameter within body");
    for (Type t : {Type::Boolean(), Type::Integer(), Type::BigInt(), Type::Double(),
                   Type::Text(), Type::Varchar(-1)}) {
      auto v = DecodeBinaryValue(*m->parameters[i], t, i);
      if (v.ok() && !v->IsNull()) {
        std::string back;
        AppendBinaryValue(&back, *v, t);
        (void)v->ToString();
      }
    }
  }
}

void Body(char type, std::string_view body) {
  switch (type) {
    case 0: {
      auto m = DecodeStartupPacket(body);
      if (m.ok() && m->kind == StartupPacket::Kind::kStartup) {
        Check(!m->user.empty(), "startup packet has a user");
      }
      return;
    }
    case 'Q': {
      auto m = DecodeQuery(body);
      if (m.ok()) Check(Within(*m, body), "Query text within body");
      return;
    }
    case 'f': {
      auto m = DecodeCopyFail(body);
      if (m.ok()) Check(Within(*m, body), "CopyFail text within body");
      return;
    }
    case 'P': {
      auto m = DecodeParse(body);
      if (!m.ok()) return;
      Check(Within(m->statement, body) && Within(m->sql, body), "Parse fields within body");
      for (uint32_t oid : m->parameter_types) (void)ParamTypeFromOid(oid);
      return;
    }
    case 'B':
      return Bind(body);
    case 'D':
    case 'C': {
      auto m = type == 'D' ? DecodeDescribe(body) : DecodeClose(body);
      if (m.ok()) Check(Within(m->name, body), "Describe/Close name within body");
      return;
    }
    case 'E': {
      auto m = DecodeExecute(body);
      if (m.ok()) Check(Within(m->portal, body), "Execute portal within body");
      return;
    }
    case 'p': {
      (void)DecodePasswordMessage(body);
      auto m = DecodeSaslInitialResponse(body);
      if (m.ok()) {
        Check(Within(m->mechanism, body) && (!m->data || Within(*m->data, body)),
              "SASLInitialResponse fields within body");
      }
      return;
    }
    default:
      return;
  }
}

void Stream(std::string_view input, bool startup) {
  while (!input.empty()) {
    auto frame = DecodeFrame(input, startup);
    if (!frame.ok()) return;  // a protocol violation ends the connection
    if (!frame->complete) {
      Check(frame->size > input.size(), "an incomplete frame needs more bytes");
      return;
    }
    Check(frame->size <= input.size() && Within(frame->body, input), "frame within input");
    Body(frame->type, frame->body);
    // The startup phase ends with a StartupPacket (SSL/GSS requests are answered and repeat).
    if (startup && frame->type == 0) {
      auto packet = DecodeStartupPacket(frame->body);
      if (packet.ok() && packet->kind == StartupPacket::Kind::kStartup) startup = false;
    }
    input.remove_prefix(frame->size);
  }
}

void Scram(std::string_view input) {
  static const ScramVerifier verifier =
      MakeScramVerifier("pencil", "fixed salt 16 by", kDefaultScramIterations);
  size_t nl = input.find('\n');
  std::string_view first = input.substr(0, nl);
  ScramServer server(verifier, /*doomed=*/false, "fixednonce");
  if (!server.ClientFirst(first).ok() || nl == std::string_view::npos) return;
  (void)server.ClientFinal(input.substr(nl + 1));
}

void Secret(std::string_view input) {
  auto v = ParseScramVerifier(input);
  if (v.ok()) (void)FormatScramVerifier(*v);
  auto bytes = Base64Decode(input);
  if (bytes) Check(Base64Encode(*bytes) == input, "Base64 round trip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] & 3) {
    case 0:
      Stream(input, /*startup=*/true);
      break;
    case 1:
      Stream(input, /*startup=*/false);
      break;
    case 2:
      Scram(input);
      break;
    default:
      Secret(input);
      break;
  }
  return 0;
}
