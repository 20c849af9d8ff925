// Randomized robustness test of the PostgreSQL message decoders (pg_protocol.h): millions of
// random, truncated, spliced and mutated byte sequences, seeded from valid messages of every kind
// and from corpus/*.hex. Each decode must return a message or an error, never crash or read out
// of bounds (run it under ASan: make debug), and whatever decodes must re-encode to the same bytes.
// MERIDIAN_FUZZ_ITERATIONS and MERIDIAN_FUZZ_SEED change the run length and the seed.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "pg_auth.h"
#include "pg_protocol.h"

namespace meridian::server::pgwire {
namespace {

std::string Int32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (24 - 8 * i)) & 0xFF);
  return s;
}
std::string Int16(uint16_t v) {
  return std::string{static_cast<char>(v >> 8), static_cast<char>(v & 0xFF)};
}
std::string CStr(std::string_view s) { return std::string(s) + '\0'; }
std::string Typed(char type, const std::string& body) {
  return std::string(1, type) + Int32(static_cast<uint32_t>(body.size() + 4)) + body;
}
std::string Untyped(const std::string& body) {
  return Int32(static_cast<uint32_t>(body.size() + 4)) + body;
}

// Encoders of frontend messages, the inverse of the decoders under test.
std::string EncodeStartup(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string body = Int32(kProtocolVersion3);
  for (const auto& [k, v] : params) body += CStr(k) + CStr(v);
  return body + '\0';
}
std::string EncodeParse(const ParseMessage& m) {
  std::string body =
      CStr(m.statement) + CStr(m.sql) + Int16(static_cast<uint16_t>(m.parameter_types.size()));
  for (uint32_t t : m.parameter_types) body += Int32(t);
  return body;
}
std::string EncodeBind(const BindMessage& m) {
  std::string body = CStr(m.portal) + CStr(m.statement);
  body += Int16(static_cast<uint16_t>(m.parameter_formats.size()));
  for (int16_t f : m.parameter_formats) body += Int16(static_cast<uint16_t>(f));
  body += Int16(static_cast<uint16_t>(m.parameters.size()));
  for (const auto& p : m.parameters) {
    body += p ? Int32(static_cast<uint32_t>(p->size())) + std::string(*p) : Int32(0xFFFFFFFFu);
  }
  body += Int16(static_cast<uint16_t>(m.result_formats.size()));
  for (int16_t f : m.result_formats) body += Int16(static_cast<uint16_t>(f));
  return body;
}

// Valid frontend traffic of every kind: startup-phase packets and typed messages.
struct Seeds {
  std::vector<std::string> startup;  // untyped packets (length + body)
  std::vector<std::string> typed;    // typed messages, and whole sessions of several
};

// Corpus files: hex digits, whitespace ignored; lines starting with '#' are comments.
std::optional<std::string> FromHex(const std::string& text) {
  std::string out, digits;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '#') continue;
    for (char c : line) {
      if (std::isxdigit(static_cast<unsigned char>(c))) {
        digits.push_back(c);
      } else if (!std::isspace(static_cast<unsigned char>(c))) {
        return std::nullopt;
      }
    }
  }
  if (digits.size() % 2 != 0) return std::nullopt;
  for (size_t i = 0; i < digits.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  }
  return out;
}

Seeds MakeSeeds() {
  Seeds s;
  s.startup.push_back(Untyped(EncodeStartup({{"user", "meridian"}, {"database", "meridian"}})));
  s.startup.push_back(Untyped(
      EncodeStartup({{"user", "u"}, {"application_name", "psql"}, {"client_encoding", "UTF8"}})));
  s.startup.push_back(Untyped(Int32(kSslRequestCode)));
  s.startup.push_back(Untyped(Int32(kGssEncRequestCode)));
  s.startup.push_back(Untyped(Int32(kCancelRequestCode) + Int32(1000) + Int32(0xDEADBEEF)));
  s.typed.push_back(Typed('Q', CStr("SELECT 1")));
  s.typed.push_back(Typed('Q', CStr("")));
  s.typed.push_back(Typed('P', EncodeParse({"s1", "SELECT a FROM t WHERE b = $1", {23}})));
  s.typed.push_back(Typed('P', EncodeParse({"", "SELECT 1", {}})));
  BindMessage bind{"p1", "s1", {0}, {std::string_view("42"), std::nullopt}, {0, 1}};
  s.typed.push_back(Typed('B', EncodeBind(bind)));
  s.typed.push_back(Typed('B', EncodeBind({"", "", {}, {}, {}})));
  s.typed.push_back(Typed('D', std::string("P") + CStr("p1")));
  s.typed.push_back(Typed('D', std::string("S") + CStr("")));
  s.typed.push_back(Typed('C', std::string("S") + CStr("s1")));
  s.typed.push_back(Typed('E', CStr("p1") + Int32(100)));
  s.typed.push_back(Typed('S', ""));
  s.typed.push_back(Typed('H', ""));
  s.typed.push_back(Typed('X', ""));
  s.typed.push_back(Typed('p', CStr("secret")));
  s.typed.push_back(
      Typed('p', CStr(kScramMechanism) + Int32(32) + "n,,n=,r=rOprNGfwEbeRWgbNEkqO1234"));
  s.typed.push_back(Typed('p', "c=biws,r=abc,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
  // A whole extended-protocol round, as libpq sends it for one query.
  s.typed.push_back(s.typed[3] + Typed('B', EncodeBind({"", "", {}, {}, {0}})) +
                    Typed('D', std::string("P") + CStr("")) + Typed('E', CStr("") + Int32(0)) +
                    Typed('S', ""));
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(MERIDIAN_PGWIRE_CORPUS, ec)) {
    if (entry.path().extension() != ".hex") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    auto bytes = FromHex(text.str());
    if (!bytes) {
      ADD_FAILURE() << "bad hex in " << entry.path();
      continue;
    }
    // Files named startup_* begin with the startup phase.
    if (entry.path().filename().string().rfind("startup_", 0) == 0) {
      s.startup.push_back(*bytes);
    } else {
      s.typed.push_back(*bytes);
    }
  }
  return s;
}

bool Within(std::string_view inner, std::string_view outer) {
  return inner.empty() || (inner.data() >= outer.data() &&
                           inner.data() + inner.size() <= outer.data() + outer.size());
}

// Feeds one body to every decoder that could meet it and checks what comes back.
class Checker {
 public:
  void Body(char type, std::string_view body) {
    ++decodes_;
    switch (type) {
      case 0: {
        auto m = DecodeStartupPacket(body);
        if (!m.ok()) return Error(m.status());
        if (m->kind == StartupPacket::Kind::kStartup) {
          EXPECT_FALSE(m->user.empty());
          EXPECT_EQ(EncodeStartup(m->parameters), body);
        }
        return;
      }
      case 'Q': {
        auto m = DecodeQuery(body);
        if (!m.ok()) return Error(m.status());
        EXPECT_TRUE(Within(*m, body));
        EXPECT_EQ(CStr(*m), body);
        return;
      }
      case 'P': {
        auto m = DecodeParse(body);
        if (!m.ok()) return Error(m.status());
        EXPECT_TRUE(Within(m->statement, body) && Within(m->sql, body));
        EXPECT_EQ(EncodeParse(*m), body);
        return;
      }
      case 'B': {
        auto m = DecodeBind(body);
        if (!m.ok()) return Error(m.status());
        for (const auto& p : m->parameters) EXPECT_TRUE(!p || Within(*p, body));
        EXPECT_EQ(EncodeBind(*m), body);
        // What the connection does with a Bind next: format codes, then binary values decoded
        // as every parameter type (never a crash; an error only for a bad length).
        (void)ResolveFormats(m->parameter_formats, m->parameters.size(), "parameter formats",
                             "parameters");
        (void)ResolveFormats(m->result_formats, 3, "result formats", "columns");
        for (size_t i = 0; i < m->parameters.size(); ++i) {
          if (!m->parameters[i]) continue;
          for (Type t : {Type::Boolean(), Type::Integer(), Type::BigInt(), Type::Double(),
                         Type::Text(), Type::Varchar(-1)}) {
            auto v = DecodeBinaryValue(*m->parameters[i], t, i);
            if (v.ok()) {
              std::string back;
              if (!v->IsNull()) AppendBinaryValue(&back, *v, t);
              if (t.IsString()) {
                EXPECT_EQ(back, *m->parameters[i]);
              }
            } else {
              EXPECT_EQ(v.status().sqlstate(), "22P03");
            }
          }
        }
        return;
      }
      case 'D':
      case 'C': {
        auto m = type == 'D' ? DecodeDescribe(body) : DecodeClose(body);
        if (!m.ok()) return Error(m.status());
        EXPECT_TRUE(m->kind == 'S' || m->kind == 'P');
        EXPECT_EQ(std::string(1, m->kind) + CStr(m->name), body);
        return;
      }
      case 'E': {
        auto m = DecodeExecute(body);
        if (!m.ok()) return Error(m.status());
        EXPECT_EQ(CStr(m->portal) + Int32(static_cast<uint32_t>(m->max_rows)), body);
        return;
      }
      case 'p': {
        // The same 'p' body means a password, a SASLInitialResponse or a SASLResponse,
        // depending on the exchange: try all three.
        // Errors here are expected even for valid seeds; counted apart.
        auto password = DecodePasswordMessage(body);
        if (!password.ok()) AmbiguousError(password.status());
        auto initial = DecodeSaslInitialResponse(body);
        if (!initial.ok()) {
          AmbiguousError(initial.status());
        } else if (initial->data) {
          EXPECT_TRUE(Within(*initial->data, body));
          Scram(*initial->data, body);
        }
        return;
      }
      default:
        return;  // other types carry no body the server decodes
    }
  }

  // A SCRAM exchange with these client messages must end in an answer or an error.
  void Scram(std::string_view first, std::string_view final_message) {
    ScramServer server(verifier_, /*doomed=*/false, "SERVERNONCE");
    auto server_first = server.ClientFirst(first);
    if (!server_first.ok()) return AmbiguousError(server_first.status());
    auto server_final = server.ClientFinal(final_message);
    if (!server_final.ok()) {
      EXPECT_TRUE(server_final.status().sqlstate() == "08P01" ||
                  server_final.status().sqlstate() == "28P01");
    }
  }

  // A byte stream as the connection sees it: frames one after the other, the first one a
  // startup-phase packet when startup is set.
  void Stream(std::string_view input, bool startup) {
    while (true) {
      ++decodes_;
      auto frame = DecodeFrame(input, startup);
      if (!frame.ok()) return Error(frame.status());
      if (!frame->complete) {
        EXPECT_GT(frame->size, input.size());
        return;
      }
      ASSERT_LE(frame->size, input.size());
      ASSERT_TRUE(Within(frame->body, input));
      EXPECT_EQ(frame->body.size() + (startup ? 4 : 5), frame->size);
      Body(frame->type, frame->body);
      input.remove_prefix(frame->size);
      startup = false;
      ++frames_;
    }
  }

  void Error(const Status& st) {
    ++errors_;
    ASSERT_FALSE(st.ok());
    EXPECT_FALSE(st.message().empty());
    EXPECT_EQ(st.sqlstate().size(), 5u) << st.ToString();
  }

  void AmbiguousError(const Status& st) {
    --errors_;
    Error(st);
    ++ambiguous_errors_;
  }

  uint64_t decodes_ = 0, frames_ = 0, errors_ = 0, ambiguous_errors_ = 0;

 private:
  ScramVerifier verifier_ = MakeScramVerifier("pencil", "salt", 1);
};

// Byte-level mutations of the kinds that break decoders.
class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  size_t Below(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
  }
  bool OneIn(size_t n) { return Below(n) == 0; }

  std::string Random(size_t max_len) {
    std::string s(Below(max_len + 1), '\0');
    for (char& c : s) c = static_cast<char>(Below(256));
    return s;
  }

  uint32_t InterestingInt32(size_t size) {
    static const uint32_t kValues[] = {0,
                                       1,
                                       3,
                                       4,
                                       5,
                                       7,
                                       8,
                                       0x7FFFFFFF,
                                       0x80000000,
                                       0xFFFFFFFF,
                                       0xFFFFFFFE,
                                       kMaxMessageLength,
                                       kMaxMessageLength + 1,
                                       kMaxStartupLength,
                                       kMaxStartupLength + 1};
    if (OneIn(3)) return static_cast<uint32_t>(size + Below(9)) - 4;  // near the real length
    return kValues[Below(std::size(kValues))];
  }

  void Mutate(std::string* s, const std::vector<std::string>& pool) {
    int rounds = 1 + static_cast<int>(Below(4));
    for (int r = 0; r < rounds; ++r) {
      size_t n = s->size();
      switch (Below(9)) {
        case 0:  // flip a bit
          if (n > 0) (*s)[Below(n)] ^= static_cast<char>(1 << Below(8));
          break;
        case 1:  // set a byte
          if (n > 0) (*s)[Below(n)] = static_cast<char>(Below(256));
          break;
        case 2:  // truncate
          s->resize(Below(n + 1));
          break;
        case 3:  // insert random bytes
          s->insert(Below(n + 1), Random(8));
          break;
        case 4:  // delete a range
          if (n > 0) {
            size_t at = Below(n);
            s->erase(at, 1 + Below(std::min<size_t>(16, n - at)));
          }
          break;
        case 5:  // an absurd or off-by-some int32, often over a length field
          if (n >= 4) {
            size_t at = OneIn(2) ? std::min<size_t>(1, n - 4) : Below(n - 3);
            std::string v = Int32(InterestingInt32(n));
            s->replace(at, 4, v);
          }
          break;
        case 6:  // an int16 count
          if (n >= 2)
            s->replace(Below(n - 1), 2,
                       Int16(static_cast<uint16_t>(Below(3) == 0 ? 0xFFFF : Below(40))));
          break;
        case 7:  // splice with another seed
          if (!pool.empty()) {
            const std::string& other = pool[Below(pool.size())];
            *s = s->substr(0, Below(n + 1)) + other.substr(Below(other.size() + 1));
          }
          break;
        case 8:  // a NUL, the terminator everything hangs on
          if (n > 0) (*s)[Below(n)] = '\0';
          break;
      }
    }
  }

 private:
  std::mt19937_64 rng_;
};

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

TEST(PgProtocolFuzz, SeedsDecode) {
  Seeds seeds = MakeSeeds();
  Checker checker;
  for (const auto& s : seeds.startup) checker.Stream(s, true);
  for (const auto& s : seeds.typed) checker.Stream(s, false);
  EXPECT_EQ(checker.errors_, 0u) << "a valid seed did not decode";
  EXPECT_GE(checker.frames_, seeds.startup.size() + seeds.typed.size());
}

TEST(PgProtocolFuzz, MutatedAndRandomInputNeverCrash) {
  const uint64_t iterations = EnvOr("MERIDIAN_FUZZ_ITERATIONS", 3'000'000);
  const uint64_t seed = EnvOr("MERIDIAN_FUZZ_SEED", 20260101);
  SCOPED_TRACE("MERIDIAN_FUZZ_SEED=" + std::to_string(seed));
  Seeds seeds = MakeSeeds();
  std::vector<std::string> all = seeds.startup;
  all.insert(all.end(), seeds.typed.begin(), seeds.typed.end());
  Mutator mut(seed);
  Checker checker;
  for (uint64_t i = 0; i < iterations; ++i) {
    std::string input;
    bool startup;
    switch (mut.Below(8)) {
      case 0:  // pure noise
        input = mut.Random(64);
        startup = mut.OneIn(2);
        break;
      case 1: {  // a body of a random type, without framing
        char type = "QPBDCEp\0"[mut.Below(8)];
        std::string body = mut.Random(48);
        checker.Body(type, body);
        continue;
      }
      default: {  // a mutated seed
        bool from_startup = mut.OneIn(3);
        const auto& pool = from_startup ? seeds.startup : seeds.typed;
        input = pool[mut.Below(pool.size())];
        mut.Mutate(&input, all);
        startup = from_startup;
        // Also the mutated body alone, as the message type it was.
        if (!input.empty() && !startup && input.size() > 5) checker.Body(input[0], input.substr(5));
        break;
      }
    }
    checker.Stream(input, startup);
    if (::testing::Test::HasFailure()) {
      std::string hex;
      for (unsigned char c : input) {
        const char* digits = "0123456789abcdef";
        hex.push_back(digits[c >> 4]);
        hex.push_back(digits[c & 15]);
      }
      FAIL() << "iteration " << i << (startup ? " (startup)" : "") << " input " << hex;
    }
  }
  std::printf("pgwire fuzz: %llu inputs, %llu decoder calls, %llu frames, %llu errors\n",
              static_cast<unsigned long long>(iterations),
              static_cast<unsigned long long>(checker.decodes_),
              static_cast<unsigned long long>(checker.frames_),
              static_cast<unsigned long long>(checker.errors_));
  EXPECT_GT(checker.decodes_, iterations);
  EXPECT_GT(checker.errors_, 0u);
  EXPECT_GT(checker.frames_, 0u);
}

TEST(PgProtocolFuzz, AbsurdLengthsAreRejectedBeforeAnyAllocation) {
  // Startup: below 8, above 10000. Typed: below 4, above 64 MiB; the frame is judged from
  // its header alone, long before the body could arrive.
  for (uint32_t len : {0u, 7u, kMaxStartupLength + 1, 0xFFFFFFFFu}) {
    auto f = DecodeFrame(Int32(len), true);
    ASSERT_FALSE(f.ok()) << len;
    EXPECT_EQ(f.status().sqlstate(), "08P01");
  }
  for (uint32_t len : {0u, 3u, kMaxMessageLength + 1, 0x80000000u}) {
    auto f = DecodeFrame(std::string("Q") + Int32(len), false);
    ASSERT_FALSE(f.ok()) << len;
    EXPECT_EQ(f.status().sqlstate(), "08P01");
  }
  auto f = DecodeFrame(std::string("Q") + Int32(kMaxMessageLength), false);
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->complete);
  EXPECT_EQ(f->size, kMaxMessageLength + 1);
  // Counts larger than the body: refused, not allocated.
  auto bind = DecodeBind(CStr("") + CStr("") + Int16(0) + Int16(0x7FFF));
  EXPECT_FALSE(bind.ok());
  auto parse = DecodeParse(CStr("") + CStr("x") + Int16(0x7FFF));
  EXPECT_FALSE(parse.ok());
  EXPECT_FALSE(DecodeParse(CStr("") + CStr("x") + Int16(0xFFFF)).ok());  // negative
  EXPECT_FALSE(DecodeBind(CStr("") + CStr("") + Int16(0) + Int16(1) + Int32(0xFFFFFFFE) + Int16(0))
                   .ok());  // a parameter length below -1
}

TEST(PgProtocolFuzz, StartupPacketErrorsCarryPostgresCodes) {
  auto v2 = DecodeStartupPacket(Int32(2u << 16) + std::string(4, '\0'));
  ASSERT_FALSE(v2.ok());
  EXPECT_EQ(v2.status().sqlstate(), "0A000");
  auto no_user = DecodeStartupPacket(EncodeStartup({{"database", "x"}}));
  ASSERT_FALSE(no_user.ok());
  EXPECT_EQ(no_user.status().sqlstate(), "28000");
  auto ok = DecodeStartupPacket(EncodeStartup({{"user", "alice"}}));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->database, "alice");  // defaults to the user name
  EXPECT_FALSE(DecodeStartupPacket(Int32(kSslRequestCode) + "x").ok());
  EXPECT_FALSE(DecodeStartupPacket(Int32(kCancelRequestCode) + Int32(1)).ok());
}

TEST(PgProtocolFuzz, BinaryValuesAndFormatCodes) {
  // int2/int4/int8 and float4/float8 send formats, big-endian.
  EXPECT_EQ(DecodeBinaryValue(std::string("\xff\xfe", 2), Type::Integer(), 0)->AsInt(), -2);
  EXPECT_EQ(DecodeBinaryValue(Int32(0x80000000u), Type::Integer(), 0)->AsInt(), INT32_MIN);
  EXPECT_EQ(DecodeBinaryValue(Int32(1) + Int32(0), Type::BigInt(), 0)->AsInt(), int64_t{1} << 32);
  EXPECT_EQ(DecodeBinaryValue(Int32(0x3fc00000u), Type::Double(), 0)->AsDouble(), 1.5);
  EXPECT_EQ(DecodeBinaryValue(Int32(0x3ff80000u) + Int32(0), Type::Double(), 0)->AsDouble(), 1.5);
  EXPECT_TRUE(DecodeBinaryValue(std::string(1, '\1'), Type::Boolean(), 0)->AsBool());
  auto bad = DecodeBinaryValue("abc", Type::Integer(), 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().sqlstate(), "22P03");
  EXPECT_EQ(bad.status().message(), "incorrect binary data format in bind parameter 2");
  std::string out;
  AppendBinaryValue(&out, Value::Int(-2), Type::Integer());
  EXPECT_EQ(out, Int32(0xfffffffeu));
  out.clear();
  AppendBinaryValue(&out, Value::Double(1.5), Type::Double());
  EXPECT_EQ(out, Int32(0x3ff80000u) + Int32(0));
  // record_send, as PostgreSQL 15's record_send(ROW(1, NULL::text, 'ab'::text, true)):
  // 0000000400000017000000040000000100000019ffffffff00000019000000026162000000100000000101.
  out.clear();
  auto shape = std::make_shared<RecordShape>();
  shape->names = {"f1", "f2", "f3", "f4"};
  shape->types = {Type::Integer(), Type::Text(), Type::Text(), Type::Boolean()};
  const Value record =
      Value::Record(shape, {Value::Int(1), Value::Null(), Value::String("ab"), Value::Bool(true)});
  AppendBinaryValue(&out, record, Type::Record());
  EXPECT_EQ(out, Int32(4) + Int32(23) + Int32(4) + Int32(1) + Int32(25) + Int32(0xffffffffu) +
                     Int32(25) + Int32(2) + "ab" + Int32(16) + Int32(1) + std::string(1, '\1'));
  EXPECT_EQ(record.ToString(), "(1,,ab,t)");
  EXPECT_EQ(Type::Record().PgOid(), 2249u);
  EXPECT_EQ(PgTypeLength(Type::Record()), -1);
  // Format codes: none = text, one for all, else one each.
  EXPECT_EQ(*ResolveFormats({}, 2, "result formats", "columns"), (std::vector<int16_t>{0, 0}));
  EXPECT_EQ(*ResolveFormats({1}, 2, "result formats", "columns"), (std::vector<int16_t>{1, 1}));
  auto count = ResolveFormats({1, 0}, 3, "result formats", "columns");
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.status().sqlstate(), "08P01");
  EXPECT_EQ(count.status().message(), "bind message has 2 result formats but query has 3 columns");
  EXPECT_EQ(ResolveFormats({2}, 1, "result formats", "columns").status().sqlstate(), "22023");
  // Parameter type OIDs.
  EXPECT_EQ(*ParamTypeFromOid(0), Type::Unknown());
  EXPECT_EQ(*ParamTypeFromOid(21), Type::SmallInt());
  EXPECT_EQ(*ParamTypeFromOid(1700), Type::Numeric());
  EXPECT_EQ(*ParamTypeFromOid(1082), Type::Date());
  EXPECT_EQ(*ParamTypeFromOid(1184), Type::TimestampTz());
  EXPECT_EQ(*ParamTypeFromOid(1186), Type::Interval());
  EXPECT_EQ(*ParamTypeFromOid(1083), Type::Time());
  EXPECT_EQ(ParamTypeFromOid(1266).status().sqlstate(), "0A000");  // timetz
}

}  // namespace
}  // namespace meridian::server::pgwire
