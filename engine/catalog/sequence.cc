// Sequence: nextval / setval / ALTER SEQUENCE over a counter logged ahead in its own file (the
// format and the crash-safety rule are in sequence.h).
#include "catalog/sequence.h"

#include <algorithm>

#include "storage/byte_codec.h"
#include "storage/crc32c.h"

namespace meridian::catalog {

namespace {

constexpr uint32_t kSeqMagic = 0x5145534d;  // "MSEQ"
constexpr uint32_t kSeqFormat = 1;
constexpr uint64_t kSlotBytes = 64;
constexpr uint64_t kSlotStride = 512;  // slots in different sectors
constexpr size_t kChecksummed = 32;
constexpr int64_t kFirstChunk = 32;  // PostgreSQL's SEQ_LOG_VALS
constexpr int64_t kMaxChunk = 1024;
constexpr auto kBusyInterval = std::chrono::milliseconds(100);

std::string EncodeSlot(uint64_t generation, int64_t value, bool is_called) {
  std::string out;
  storage::PutFixed<uint32_t>(&out, kSeqMagic);
  storage::PutFixed<uint32_t>(&out, kSeqFormat);
  storage::PutFixed<uint64_t>(&out, generation);
  storage::PutFixed<int64_t>(&out, value);
  storage::PutFixed<uint8_t>(&out, is_called ? 1 : 0);
  out.append(7, '\0');
  storage::PutFixed<uint32_t>(&out, storage::Crc32c(out.data(), kChecksummed));
  out.resize(kSlotBytes, '\0');
  return out;
}

struct Slot {
  bool valid = false;
  uint64_t generation = 0;
  int64_t value = 0;
  bool is_called = false;
};

Slot DecodeSlot(std::string_view bytes) {
  Slot s;
  if (bytes.size() < kChecksummed + 4) return s;
  size_t pos = 0;
  uint32_t magic = 0, format = 0, crc = 0;
  uint8_t called = 0;
  storage::GetFixed(bytes, &pos, &magic);
  storage::GetFixed(bytes, &pos, &format);
  storage::GetFixed(bytes, &pos, &s.generation);
  storage::GetFixed(bytes, &pos, &s.value);
  storage::GetFixed(bytes, &pos, &called);
  pos = kChecksummed;
  storage::GetFixed(bytes, &pos, &crc);
  s.valid = magic == kSeqMagic && format == kSeqFormat &&
            crc == storage::Crc32c(bytes.data(), kChecksummed);
  s.is_called = called != 0;
  return s;
}

// How many steps of inc fit after v before leaving [min, max] (no wrap-around).
int64_t StepsLeft(int64_t v, int64_t inc, int64_t min, int64_t max) {
  const __int128 room = inc > 0 ? static_cast<__int128>(max) - v : static_cast<__int128>(v) - min;
  const __int128 step = inc > 0 ? static_cast<__int128>(inc) : -static_cast<__int128>(inc);
  const __int128 steps = room / step;
  return steps > kMaxChunk ? kMaxChunk : static_cast<int64_t>(steps);
}

}  // namespace

int64_t SequenceTypeMin(TypeId type) {
  return type == TypeId::kSmallInt ? INT16_MIN : type == TypeId::kInteger ? INT32_MIN : INT64_MIN;
}

int64_t SequenceTypeMax(TypeId type) {
  return type == TypeId::kSmallInt ? INT16_MAX : type == TypeId::kInteger ? INT32_MAX : INT64_MAX;
}

Sequence::Sequence(std::string path, std::unique_ptr<storage::File> file, SequenceSchema schema)
    : path_(std::move(path)),
      file_(std::move(file)),
      schema_(std::make_shared<const SequenceSchema>(std::move(schema))) {}

Result<std::shared_ptr<Sequence>> Sequence::Open(storage::FileSystem* fs, const std::string& path,
                                                 SequenceSchema schema, bool create) {
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file, fs->Open(path, create));
  const int64_t start = schema.start;
  std::shared_ptr<Sequence> seq(new Sequence(path, std::move(file), std::move(schema)));
  MutexLock lock(seq->mu_);
  if (create) {
    MERIDIAN_RETURN_IF_ERROR(seq->file_->Truncate(0));
    MERIDIAN_RETURN_IF_ERROR(seq->WriteStateLocked(start, false));
    seq->last_value_ = start;
    seq->is_called_ = false;
  } else {
    MERIDIAN_RETURN_IF_ERROR(seq->ReadState());
  }
  return seq;
}

Status Sequence::ReadState() {
  std::string bytes(kSlotStride + kSlotBytes, '\0');
  size_t read = 0;
  MERIDIAN_RETURN_IF_ERROR(file_->ReadAt(0, bytes.size(), bytes.data(), &read));
  bytes.resize(read);
  Slot best;
  for (uint64_t off : {uint64_t{0}, kSlotStride}) {
    if (off >= bytes.size()) continue;
    Slot s = DecodeSlot(std::string_view(bytes).substr(off, kSlotBytes));
    if (s.valid && (!best.valid || s.generation > best.generation)) best = s;
  }
  if (!best.valid) {
    return Status::Corruption("sequence state file \"" + path_ + "\" has no valid state");
  }
  generation_ = best.generation;
  last_value_ = best.value;
  is_called_ = best.is_called;
  logged_left_ = 0;
  return Status::Ok();
}

Status Sequence::WriteStateLocked(int64_t value, bool is_called) {
  if (file_ == nullptr) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  const uint64_t generation = generation_ + 1;
  MERIDIAN_RETURN_IF_ERROR(
      file_->WriteAt((generation % 2) * kSlotStride, EncodeSlot(generation, value, is_called)));
  MERIDIAN_RETURN_IF_ERROR(file_->Sync());
  generation_ = generation;
  return Status::Ok();
}

std::shared_ptr<const SequenceSchema> Sequence::schema() const {
  MutexLock lock(mu_);
  return schema_;
}

void Sequence::set_nsp(const std::string& nsp) {
  MutexLock lock(mu_);
  auto copy = std::make_shared<SequenceSchema>(*schema_);
  copy->nsp = nsp;
  schema_ = std::move(copy);
}

std::pair<int64_t, bool> Sequence::State() const {
  MutexLock lock(mu_);
  return {last_value_, is_called_};
}

Result<int64_t> Sequence::Next() {
  MutexLock lock(mu_);
  const SequenceSchema& s = *schema_;
  int64_t v = last_value_;
  if (is_called_) {
    const bool up = s.increment > 0;
    if (StepsLeft(last_value_, s.increment, s.min_value, s.max_value) < 1) {
      if (!s.cycle) {
        return Status::Error(sqlstate::kSequenceGeneratorLimitExceeded,
                             std::string("nextval: reached ") + (up ? "maximum" : "minimum") +
                                 " value of sequence \"" + s.name + "\" (" +
                                 std::to_string(up ? s.max_value : s.min_value) + ")");
      }
      v = up ? s.min_value : s.max_value;
      logged_left_ = 0;  // a wrapped value is not covered by the logged state
    } else {
      v = last_value_ + s.increment;
    }
  }
  if (logged_left_ > 0) {
    --logged_left_;
  } else {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_log_ < kBusyInterval) {
      chunk_ = std::min(chunk_ * 2, kMaxChunk);
    } else {
      chunk_ = kFirstChunk;
    }
    last_log_ = now;
    const int64_t steps = std::min(chunk_ - 1, StepsLeft(v, s.increment, s.min_value, s.max_value));
    MERIDIAN_RETURN_IF_ERROR(WriteStateLocked(v + steps * s.increment, true));
    logged_left_ = steps;
  }
  last_value_ = v;
  is_called_ = true;
  return v;
}

Status Sequence::Set(int64_t value, bool is_called) {
  MutexLock lock(mu_);
  const SequenceSchema& s = *schema_;
  if (value < s.min_value || value > s.max_value) {
    return Status::Error(
        sqlstate::kNumericValueOutOfRange,
        "setval: value " + std::to_string(value) + " is out of bounds for sequence \"" + s.name +
            "\" (" + std::to_string(s.min_value) + ".." + std::to_string(s.max_value) + ")");
  }
  MERIDIAN_RETURN_IF_ERROR(WriteStateLocked(value, is_called));
  last_value_ = value;
  is_called_ = is_called;
  logged_left_ = 0;
  return Status::Ok();
}

Status Sequence::Alter(SequenceSchema schema, const int64_t* restart) {
  MutexLock lock(mu_);
  const int64_t value = restart != nullptr ? *restart : last_value_;
  const bool called = restart != nullptr ? false : is_called_;
  MERIDIAN_RETURN_IF_ERROR(WriteStateLocked(value, called));
  schema_ = std::make_shared<const SequenceSchema>(std::move(schema));
  last_value_ = value;
  is_called_ = called;
  logged_left_ = 0;
  return Status::Ok();
}

Status Sequence::Close() {
  MutexLock lock(mu_);
  if (file_ == nullptr) return Status::Ok();
  Status st = WriteStateLocked(last_value_, is_called_);
  file_.reset();
  return st;
}

}  // namespace meridian::catalog
