// File seam: every byte the storage engine reads or writes goes through File and FileSystem, so
// tests can swap in a fault-injecting implementation (fault_injection_file_system.h).
// Concurrency: File::ReadAt/WriteAt are positional and may be called from several threads at
// once; Truncate/Allocate must not race with I/O on the same range. Errors are 58030 (kIoError)
// naming the file path and the errno text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "meridian/status.h"

namespace meridian::storage {

class File {
 public:
  virtual ~File() = default;

  // Reads up to n bytes at offset into buf; *bytes_read < n only at end of file.
  virtual Status ReadAt(uint64_t offset, size_t n, char* buf, size_t* bytes_read) = 0;
  // Writes all of data at offset, extending the file when needed.
  virtual Status WriteAt(uint64_t offset, std::string_view data) = 0;
  // Makes every completed write durable (fdatasync).
  virtual Status Sync() = 0;
  virtual Result<uint64_t> Size() = 0;
  virtual Status Truncate(uint64_t size) = 0;
  // Reserves disk space for [offset, offset + len) so later writes cannot fail for lack of it.
  virtual Status Allocate(uint64_t offset, uint64_t len) = 0;
  // Reserves disk space for [offset, offset + len) without changing the file's size
  // (fallocate FALLOC_FL_KEEP_SIZE), so a later write there cannot fail for lack of space; a file
  // system without the call reserves nothing and says Ok. 53100 when the space is not there.
  virtual Status Reserve(uint64_t offset, uint64_t len) { return Allocate(offset, len); }

  const std::string& path() const { return path_; }

 protected:
  explicit File(std::string path) : path_(std::move(path)) {}

 private:
  std::string path_;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Opens path for reading and writing; creates it (and nothing above it) when create is set.
  virtual Result<std::unique_ptr<File>> Open(const std::string& path, bool create) = 0;
  virtual Status Remove(const std::string& path) = 0;
  virtual Result<bool> Exists(const std::string& path) = 0;
  // Atomically replaces to with from (rename(2)); call SyncDir to make it durable.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // fsyncs a directory so created, removed and renamed entries survive a crash.
  virtual Status SyncDir(const std::string& dir) = 0;

  // The process-wide POSIX file system; never null, never destroyed.
  static FileSystem* Default();
};

// "could not <op> file \"<path>\": <strerror(err)>" as Status 58030, or 53100 (disk full)
// when err is ENOSPC or EDQUOT and op is not "fsync".
Status IoError(std::string_view op, const std::string& path, int err);
// Whether st is 53100: the operation wrote nothing durable and may be retried once space returns.
bool IsDiskFull(const Status& st);

}  // namespace meridian::storage
