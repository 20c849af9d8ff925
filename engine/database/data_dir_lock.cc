// DataDirLock: flock-based ownership of a data directory (see data_dir_lock.h).
#include "database/data_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace meridian::database {

Result<std::unique_ptr<DataDirLock>> DataDirLock::Acquire(const std::string& data_dir) {
  const std::string path = data_dir + "/meridian.lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::IOError("could not open lock file \"" + path + "\": " + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    char buf[32] = {};
    ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
    ::close(fd);
    if (err == EWOULDBLOCK) {
      std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "unknown";
      while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
      return Status::Error(
          sqlstate::kObjectInUse,
          "data directory \"" + data_dir + "\" is in use by another meridiand (pid " + pid + ")");
    }
    return Status::IOError("could not lock file \"" + path + "\": " + std::strerror(err));
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0 || ::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return Status::IOError("could not write lock file \"" + path + "\": " + std::strerror(err));
  }
  return std::unique_ptr<DataDirLock>(new DataDirLock(fd));
}

DataDirLock::~DataDirLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace meridian::database
