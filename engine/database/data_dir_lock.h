// DataDirLock: the exclusive claim of one process (and one Database) on a data directory:
// flock(LOCK_EX | LOCK_NB) on data_dir/meridian.lock, with the holder's pid written into the
// file so a second opener can name it. flock locks belong to the open file description, so a
// second Open in the same process fails as well. Released when the object is destroyed.
#pragma once

#include <memory>
#include <string>

#include "meridian/status.h"

namespace meridian::database {

class DataDirLock {
 public:
  // 55006 `data directory "X" is in use by another meridiand (pid N)` when held elsewhere.
  static Result<std::unique_ptr<DataDirLock>> Acquire(const std::string& data_dir);
  ~DataDirLock();
  DataDirLock(const DataDirLock&) = delete;
  DataDirLock& operator=(const DataDirLock&) = delete;

 private:
  explicit DataDirLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace meridian::database
