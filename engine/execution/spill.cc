// SpillFile: see spill.h.
#include "execution/spill.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "execution/operator.h"
#include "storage/byte_codec.h"
#include "storage/file.h"

namespace meridian::exec {
namespace {

enum Kind : uint8_t {
  kNull = 0,
  kFalse,
  kTrue,
  kInt,
  kDouble,
  kString,
  kDecimal,
  kDate,
  kTimestamp,
  kReal,
  kArray,
  kInterval,
  kTimestampTz,
  kTime,
  kUuid,
  kBytea,
  kRecord,  // field count, each field's name and type, then the field values
};

using storage::GetFixed;
using storage::PutFixed;

void EncodeValue(const Value& v, std::string* out) {
  if (v.IsNull()) {
    out->push_back(static_cast<char>(kNull));
  } else if (v.IsBool()) {
    out->push_back(static_cast<char>(v.AsBool() ? kTrue : kFalse));
  } else if (v.IsInt()) {
    out->push_back(static_cast<char>(kInt));
    PutFixed(out, v.AsInt());
  } else if (v.IsDouble()) {
    out->push_back(static_cast<char>(kDouble));
    PutFixed(out, v.AsDouble());
  } else if (v.IsString()) {
    out->push_back(static_cast<char>(kString));
    PutFixed(out, static_cast<uint32_t>(v.AsString().size()));
    out->append(v.AsString());
  } else if (v.IsDecimal()) {
    out->push_back(static_cast<char>(kDecimal));
    PutFixed(out, v.AsDecimal().mantissa);
    PutFixed(out, v.AsDecimal().scale);
  } else if (v.IsDate()) {
    out->push_back(static_cast<char>(kDate));
    PutFixed(out, v.AsDate().days);
  } else if (v.IsTimestamp()) {
    out->push_back(static_cast<char>(kTimestamp));
    PutFixed(out, v.AsTimestamp().micros);
  } else if (v.IsReal()) {
    out->push_back(static_cast<char>(kReal));
    PutFixed(out, v.AsReal());
  } else if (v.IsInterval()) {
    out->push_back(static_cast<char>(kInterval));
    PutFixed(out, v.AsInterval().months);
    PutFixed(out, v.AsInterval().days);
    PutFixed(out, v.AsInterval().micros);
  } else if (v.IsTimestampTz()) {
    out->push_back(static_cast<char>(kTimestampTz));
    PutFixed(out, v.AsTimestampTz().micros);
  } else if (v.IsTime()) {
    out->push_back(static_cast<char>(kTime));
    PutFixed(out, v.AsTime().micros);
  } else if (v.IsUuid()) {
    out->push_back(static_cast<char>(kUuid));
    out->append(reinterpret_cast<const char*>(v.AsUuid().bytes.data()), 16);
  } else if (v.IsBytea()) {
    out->push_back(static_cast<char>(kBytea));
    PutFixed(out, static_cast<uint32_t>(v.AsBytea().size()));
    out->append(v.AsBytea());
  } else if (v.IsRecord()) {
    const RecordValue& r = v.AsRecord();
    out->push_back(static_cast<char>(kRecord));
    PutFixed(out, static_cast<uint32_t>(r.fields.size()));
    for (size_t i = 0; i < r.fields.size(); ++i) {
      PutFixed(out, static_cast<uint32_t>(r.shape->names[i].size()));
      out->append(r.shape->names[i]);
      PutFixed(out, static_cast<uint8_t>(r.shape->types[i].id));
      PutFixed(out, r.shape->types[i].modifier);
      PutFixed(out, static_cast<uint8_t>(r.shape->types[i].element));
    }
    for (const Value& f : r.fields) EncodeValue(f, out);
  } else {
    const std::vector<Value>& elements = v.AsArray();
    out->push_back(static_cast<char>(kArray));
    PutFixed(out, static_cast<uint32_t>(elements.size()));
    for (const Value& e : elements) EncodeValue(e, out);
  }
}

// False when in ends inside the value; Corruption on an unknown kind.
Result<bool> DecodeValue(std::string_view in, size_t* pos, Value* v) {
  if (*pos >= in.size()) return false;
  const auto kind = static_cast<uint8_t>(in[(*pos)++]);
  switch (kind) {
    case kNull:
      *v = Value::Null();
      return true;
    case kFalse:
    case kTrue:
      *v = Value::Bool(kind == kTrue);
      return true;
    case kInt: {
      int64_t i;
      if (!GetFixed(in, pos, &i)) return false;
      *v = Value::Int(i);
      return true;
    }
    case kDouble: {
      double d;
      if (!GetFixed(in, pos, &d)) return false;
      *v = Value::Double(d);
      return true;
    }
    case kString: {
      uint32_t n;
      if (!GetFixed(in, pos, &n) || in.size() - *pos < n) return false;
      *v = Value::String(std::string(in.substr(*pos, n)));
      *pos += n;
      return true;
    }
    case kDecimal: {
      Numeric n;
      if (!GetFixed(in, pos, &n.mantissa) || !GetFixed(in, pos, &n.scale)) return false;
      *v = Value::Decimal(n);
      return true;
    }
    case kDate: {
      Date d;
      if (!GetFixed(in, pos, &d.days)) return false;
      *v = Value::DateVal(d);
      return true;
    }
    case kTimestamp: {
      Timestamp t;
      if (!GetFixed(in, pos, &t.micros)) return false;
      *v = Value::TimestampVal(t);
      return true;
    }
    case kReal: {
      float f;
      if (!GetFixed(in, pos, &f)) return false;
      *v = Value::Real(f);
      return true;
    }
    case kInterval: {
      Interval i;
      if (!GetFixed(in, pos, &i.months) || !GetFixed(in, pos, &i.days) ||
          !GetFixed(in, pos, &i.micros)) {
        return false;
      }
      *v = Value::IntervalVal(i);
      return true;
    }
    case kTimestampTz: {
      TimestampTz t;
      if (!GetFixed(in, pos, &t.micros)) return false;
      *v = Value::TimestampTzVal(t);
      return true;
    }
    case kTime: {
      TimeOfDay t;
      if (!GetFixed(in, pos, &t.micros)) return false;
      *v = Value::TimeVal(t);
      return true;
    }
    case kArray: {
      uint32_t n;
      if (!GetFixed(in, pos, &n)) return false;
      std::vector<Value> elements(n);
      for (Value& e : elements) {
        MERIDIAN_ASSIGN_OR_RETURN(bool whole, DecodeValue(in, pos, &e));
        if (!whole) return false;
      }
      *v = Value::Array(std::move(elements));
      return true;
    }
    case kUuid: {
      if (in.size() - *pos < 16) return false;
      Uuid u;
      std::memcpy(u.bytes.data(), in.data() + *pos, 16);
      *pos += 16;
      *v = Value::UuidVal(u);
      return true;
    }
    case kBytea: {
      uint32_t n;
      if (!GetFixed(in, pos, &n) || in.size() - *pos < n) return false;
      *v = Value::ByteaVal(std::string(in.substr(*pos, n)));
      *pos += n;
      return true;
    }
    case kRecord: {
      uint32_t n;
      if (!GetFixed(in, pos, &n)) return false;
      auto shape = std::make_shared<RecordShape>();
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t len;
        if (!GetFixed(in, pos, &len) || in.size() - *pos < len) return false;
        shape->names.emplace_back(in.substr(*pos, len));
        *pos += len;
        uint8_t id, element;
        int32_t modifier;
        if (!GetFixed(in, pos, &id) || !GetFixed(in, pos, &modifier) ||
            !GetFixed(in, pos, &element)) {
          return false;
        }
        shape->types.push_back(
            Type{static_cast<TypeId>(id), modifier, static_cast<TypeId>(element)});
      }
      std::vector<Value> fields(n);
      for (Value& f : fields) {
        MERIDIAN_ASSIGN_OR_RETURN(bool whole, DecodeValue(in, pos, &f));
        if (!whole) return false;
      }
      *v = Value::Record(std::move(shape), std::move(fields));
      return true;
    }
    default:
      return Status::Corruption("temporary file holds an unknown value kind " +
                                std::to_string(kind));
  }
}

}  // namespace

void EncodeSpillRow(const Row& row, std::string* out) {
  PutFixed(out, static_cast<uint32_t>(row.size()));
  for (const Value& v : row) EncodeValue(v, out);
}

Result<bool> DecodeSpillRow(std::string_view bytes, size_t* pos, Row* row) {
  size_t at = *pos;
  uint32_t n;
  if (!GetFixed(bytes, &at, &n)) return false;
  row->resize(n);
  for (Value& v : *row) {
    MERIDIAN_ASSIGN_OR_RETURN(bool whole, DecodeValue(bytes, &at, &v));
    if (!whole) return false;
  }
  *pos = at;
  return true;
}

std::string KbText(uint64_t bytes) { return std::to_string((bytes + 1023) / 1024) + "kB"; }

uint64_t MixHash(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Status HashSpill::Add(const Row& row, uint64_t hash, size_t side) {
  if (files_.empty()) {
    if (level_ >= kMaxLevel) {
      return Status::Error(sqlstate::kOutOfMemory,
                           "hash table rows do not fit in work_mem after repartitioning");
    }
    files_.resize(kFiles * sides_);
  }
  const size_t partition = (hash >> (kBits * level_)) & (kFiles - 1);
  std::unique_ptr<SpillFile>& file = files_[partition * sides_ + side];
  if (file == nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(file, SpillFile::Create(dir_, kFileBuffer));
  }
  return file->Append(row);
}

Status HashSpill::EndInput() {
  for (size_t p = 0; p < files_.size(); p += sides_) {
    Waiting w{{}, level_};
    bool any = false;
    for (size_t s = 0; s < sides_; ++s) {
      std::unique_ptr<SpillFile>& file = files_[p + s];
      if (file != nullptr) {
        MERIDIAN_RETURN_IF_ERROR(file->Finish());
        disk_bytes_ += file->bytes();
        any = true;
      }
      w.files.push_back(std::move(file));
    }
    if (any) waiting_.push_back(std::move(w));
  }
  files_.clear();
  return Status::Ok();
}

Result<bool> HashSpill::NextPartition(std::vector<std::unique_ptr<SpillFile>>* files) {
  if (waiting_.empty()) return false;
  Waiting w = std::move(waiting_.back());
  waiting_.pop_back();
  level_ = w.level + 1;
  ++batches_;
  *files = std::move(w.files);
  return true;
}

Result<std::unique_ptr<SpillFile>> HashSpill::Next() {
  std::vector<std::unique_ptr<SpillFile>> files;
  MERIDIAN_ASSIGN_OR_RETURN(bool any, NextPartition(&files));
  if (!any) return std::unique_ptr<SpillFile>();
  return std::move(files[0]);
}

size_t RowMemoryBytes(const Row& row) {
  size_t n = sizeof(Row) + row.size() * sizeof(Value);
  for (const Value& v : row) n += v.ByteSize();
  return n;
}

bool CanSpill(const ExecContext* exec) { return exec != nullptr && exec->catalog != nullptr; }

Result<std::unique_ptr<SpillFile>> SpillFile::Create(const std::string& dir,
                                                     size_t buffer_bytes) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return storage::IoError("create directory", dir, errno);
  }
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
    // No O_TMPFILE here: a named file, unlinked at once.
    std::string path = dir + "/spill.XXXXXX";
    fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(path.c_str());
  }
  if (fd < 0) return storage::IoError("create temporary", dir, errno);
  return std::unique_ptr<SpillFile>(new SpillFile(fd, dir, buffer_bytes));
}

SpillFile::~SpillFile() { ::close(fd_); }

Status SpillFile::Append(const Row& row) {
  EncodeSpillRow(row, &buffer_);
  return buffer_.size() >= buffer_bytes_ ? Flush() : Status::Ok();
}

Status SpillFile::Finish() {
  MERIDIAN_RETURN_IF_ERROR(Flush());
  std::string().swap(buffer_);  // a file waiting its turn holds no buffer (HashSpill keeps many)
  return Status::Ok();
}

Status SpillFile::Flush() {
  size_t done = 0;
  while (done < buffer_.size()) {
    ssize_t n = ::pwrite(fd_, buffer_.data() + done, buffer_.size() - done,
                         static_cast<off_t>(size_ + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return storage::IoError("write temporary", dir_, errno);
    }
    done += static_cast<size_t>(n);
  }
  size_ += done;
  buffer_.clear();
  return Status::Ok();
}

Status SpillFile::Reader::Fill(size_t need) {
  // Keeps the unread tail, then reads at least need more bytes (or to the end of the file).
  buffer_.erase(0, pos_);
  pos_ = 0;
  // No more than the file holds: a small file (a hash partition) costs no 256kB buffer.
  const size_t want =
      std::max(need, std::min<uint64_t>(file_->buffer_bytes_, file_->size_ - offset_));
  const size_t old = buffer_.size();
  buffer_.resize(old + want);
  size_t got = 0;
  while (got < want && offset_ < file_->size_) {
    ssize_t n = ::pread(file_->fd_, buffer_.data() + old + got, want - got,
                        static_cast<off_t>(offset_));
    if (n < 0) {
      if (errno == EINTR) continue;
      buffer_.resize(old + got);
      return storage::IoError("read temporary", file_->dir_, errno);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
    offset_ += static_cast<uint64_t>(n);
  }
  buffer_.resize(old + got);
  return Status::Ok();
}

Result<bool> SpillFile::Reader::Next(Row* row) {
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool whole, DecodeSpillRow(buffer_, &pos_, row));
    if (whole) return true;
    if (offset_ >= file_->size_) {
      if (pos_ < buffer_.size()) return Status::Corruption("temporary file ends inside a row");
      return false;
    }
    // A row longer than what is buffered: read on (Fill reads at least a buffer).
    MERIDIAN_RETURN_IF_ERROR(Fill(buffer_.size() - pos_ + 1));
  }
}

}  // namespace meridian::exec
