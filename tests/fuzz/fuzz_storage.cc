// libFuzzer harness: the on-disk decoders of engine/storage and engine/txn fed corrupted bytes.
// The first input byte picks the decoder (low 3 bits), the rest is its input:
//   0  heap page (SlottedPage) and the tuples in it (tuple header, DecodeStoredTuple)
//   1  B+tree node (BTreePage)
//   2  R*-tree node (RTreePage; dimensions from the next byte)
//   3  one tuple alone, decoded as a column list taken from the next bytes
//   4  commit log records (DecodeLogRecord), framed with a valid magic, length and CRC
// Page images get a valid checksum, as a page a bug wrote wrongly or a bit flip before the
// checksum would have: the checksum cannot catch them, so the layout check the engine runs on
// every page it reads from disk (VerifyPageLayout) must. The invariants
// (tests/fuzz/README.md, invariant 3): a page VerifyPageLayout accepts is read in bounds by
// every reader; a tuple decodes or fails with XX001, never reads outside its bytes; a log
// record decodes only if it is well formed and then re-encodes to a record that decodes equal.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "storage/btree_page.h"
#include "storage/crc32c.h"
#include "storage/page.h"
#include "storage/page_layout.h"
#include "storage/rtree_page.h"
#include "storage/tuple.h"
#include "txn/commit_log.h"

namespace {

using namespace meridian;
using namespace meridian::storage;

void Check(bool condition, const char* what) {
  if (!condition) {
    fprintf(stderr, "fuzz_storage: invariant broken: %s\n", what);
    abort();
  }
}

bool Within(std::string_view inner, const char* page) {
  return inner.empty() || (inner.data() >= page && inner.data() + inner.size() <= page + kPageSize);
}

// Column types a tuple may be decoded as (selected by input bytes).
std::vector<Type> TypesFrom(std::string_view* input) {
  static const Type kTypes[] = {
      Type::Boolean(),  Type::SmallInt(),    Type::Integer(),  Type::BigInt(),
      Type::Real(),     Type::Double(),      Type::Text(),     Type::Varchar(5),
      Type::Char(3),    Type::Numeric(),     Type::Date(),     Type::Timestamp(),
      Type::TimestampTz(), Type::Interval(), Type::Time(),     Type::Uuid(),
      Type::Bytea(),    Type::Json(),        Type::Jsonb(),    Type::Array(Type::Integer()),
      Type::Array(Type::Text()), Type::Numeric(10 << 16 | 2 + 4)};
  std::vector<Type> types;
  if (input->empty()) return types;
  size_t n = static_cast<uint8_t>((*input)[0]) % 9;
  input->remove_prefix(1);
  for (size_t i = 0; i < n && !input->empty(); ++i) {
    types.push_back(kTypes[static_cast<uint8_t>((*input)[0]) % std::size(kTypes)]);
    input->remove_prefix(1);
  }
  return types;
}

void DecodeAs(std::string_view bytes, const std::vector<Type>& types) {
  Row row;
  if (bytes.size() >= kTupleFixedHeaderSize) (void)ReadTupleHeader(bytes);
  Status st = DecodeStoredTuple(bytes, types, &row);
  if (st.ok()) {
    for (const Value& v : row) (void)v.ToString();
  } else {
    Check(st.sqlstate() == "XX001", "tuple decode fails with XX001");
  }
  std::vector<bool> needed(types.size());
  for (size_t i = 0; i < needed.size(); i += 2) needed[i] = true;
  (void)DecodeStoredTuple(bytes, types, &row, &needed);
  (void)DecodeTuple(bytes, types, &row);
}

// The fuzzer's bytes as a page image with a valid checksum.
void MakePage(std::string_view input, char* page) {
  std::memset(page, 0, kPageSize);
  std::memcpy(page, input.data(), std::min(input.size(), kPageSize));
  SetPageChecksum(page);
}

void HeapPage(std::string_view input) {
  std::vector<Type> types = TypesFrom(&input);
  alignas(8) static char page[kPageSize];
  MakePage(input, page);
  Check(VerifyPageChecksum(page), "checksum set");
  if (!VerifyPageLayout(page).ok()) return;
  SlottedPage p(page);
  if (p.type() != PageType::kHeap) return;
  (void)p.FreeSpaceForInsert();
  for (uint32_t s = 0; s <= p.slot_count(); ++s) {
    auto tuple = p.Get(static_cast<uint16_t>(s));
    if (!tuple) continue;
    Check(Within(*tuple, page), "heap tuple within its page");
    DecodeAs(*tuple, types);
  }
}

void BTreeNode(std::string_view input) {
  alignas(8) static char page[kPageSize];
  MakePage(input, page);
  if (!VerifyPageLayout(page).ok()) return;
  BTreePage p(static_cast<const char*>(page));
  if (!p.IsNode()) return;
  for (size_t i = 0; i < p.count(); ++i) {
    Check(Within(p.Cell(i), page) && Within(p.Key(i), page) && Within(p.Val(i), page),
          "B+tree cell within its page");
  }
  if (!p.leaf()) {
    for (size_t i = 0; i <= p.count(); ++i) (void)p.Child(i);
  }
  SearchTarget t;
  t.key = input.substr(0, std::min<size_t>(input.size(), 8));
  size_t at = p.Search(t);
  Check(at <= p.count(), "Search within the node");
  NodeImage node;
  p.Load(&node);
  Check(node.cells.size() == p.count(), "Load copies every cell");
  (void)node.UsedBytes();
}

void RTreeNode(std::string_view input) {
  if (input.empty()) return;
  size_t dims = 1 + static_cast<uint8_t>(input[0]) % kRTreeMaxDims;
  input.remove_prefix(1);
  alignas(8) static char page[kPageSize];
  MakePage(input, page);
  if (!VerifyPageLayout(page).ok()) return;
  RTreePage p(page, dims, RNodeCapacity(dims));
  if (!p.IsConsistent()) return;  // what RTree::ReadNode checks on every node it reads
  RNode node;
  p.Load(&node);
  (void)p.Mbr();
  for (size_t i = 0; i < p.count(); ++i) (void)p.id(i);
}

void Tuple(std::string_view input) {
  std::vector<Type> types = TypesFrom(&input);
  std::string copy(input);  // exactly its bytes: ASan sees a read past them
  DecodeAs(copy, types);
}

void LogRecords(std::string_view input) {
  static const std::string kHeader = [] {
    txn::LogRecord empty;
    return txn::EncodeLogRecord(empty).substr(0, 4);  // the magic
  }();
  std::string bytes;
  // Split the input into payloads at "\xff\xfe" and frame each with magic, length and CRC.
  while (true) {
    size_t cut = input.find("\xff\xfe");
    std::string_view payload = input.substr(0, cut);
    bytes += kHeader;
    uint32_t len = static_cast<uint32_t>(payload.size());
    uint32_t crc = Crc32c(payload.data(), payload.size());
    bytes.append(reinterpret_cast<const char*>(&len), 4);
    bytes.append(reinterpret_cast<const char*>(&crc), 4);
    bytes += payload;
    if (cut == std::string_view::npos) break;
    input.remove_prefix(cut + 2);
  }
  size_t offset = 0;
  txn::LogRecord record;
  while (txn::DecodeLogRecord(bytes, &offset, &record)) {
    Check(offset <= bytes.size(), "log offset within the log");
    std::string again = txn::EncodeLogRecord(record);
    size_t at = 0;
    txn::LogRecord back;
    Check(txn::DecodeLogRecord(again, &at, &back) && at == again.size(),
          "a decoded log record re-encodes to a valid one");
    Check(back.type == record.type && back.commits == record.commits &&
              back.stamps == record.stamps && back.pages == record.pages &&
              back.covered_ts == record.covered_ts,
          "log record round trip");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > kPageSize + 32) return 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] & 7) {
    case 0:
      HeapPage(input);
      break;
    case 1:
      BTreeNode(input);
      break;
    case 2:
      RTreeNode(input);
      break;
    case 3:
    case 5:
    case 7:
      Tuple(input);
      break;
    default:
      LogRecords(input);
      break;
  }
  return 0;
}
