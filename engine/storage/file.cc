// POSIX implementation of the File seam: pread/pwrite loops retrying EINTR, fdatasync,
// posix_fallocate, and directory fsync for durable renames.
#include "storage/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace meridian::storage {

Status IoError(std::string_view op, const std::string& path, int err) {
  std::string message =
      "could not " + std::string(op) + " file \"" + path + "\": " + std::strerror(err);
  // A full disk or an exhausted quota is 53100, as in PostgreSQL, and a failed write of it
  // leaves nothing behind; a failed fsync stays 58030 whatever its errno (the kernel may have
  // dropped the dirty pages it could not write).
  if ((err == ENOSPC || err == EDQUOT) && op != "fsync") {
    return Status::Error(sqlstate::kDiskFull, std::move(message))
        .WithHint("Free disk space; writes resume by themselves once there is room.");
  }
  return Status::IOError(std::move(message));
}

bool IsDiskFull(const Status& st) { return !st.ok() && st.sqlstate() == sqlstate::kDiskFull; }

namespace {

class PosixFile final : public File {
 public:
  PosixFile(std::string path, int fd) : File(std::move(path)), fd_(fd) {}
  ~PosixFile() override { ::close(fd_); }

  Status ReadAt(uint64_t offset, size_t n, char* buf, size_t* bytes_read) override {
    size_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd_, buf + done, n - done, static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return IoError("read", path(), errno);
      }
      if (r == 0) break;
      done += static_cast<size_t>(r);
    }
    *bytes_read = done;
    return Status::Ok();
  }

  Status WriteAt(uint64_t offset, std::string_view data) override {
    size_t done = 0;
    while (done < data.size()) {
      ssize_t r =
          ::pwrite(fd_, data.data() + done, data.size() - done, static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return IoError("write", path(), errno);
      }
      done += static_cast<size_t>(r);
    }
    return Status::Ok();
  }

  Status Sync() override {
    if (::fdatasync(fd_) != 0) return IoError("fsync", path(), errno);
    return Status::Ok();
  }

  Result<uint64_t> Size() override {
    struct stat st;
    if (::fstat(fd_, &st) != 0) return IoError("stat", path(), errno);
    return static_cast<uint64_t>(st.st_size);
  }

  Status Truncate(uint64_t size) override {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) return IoError("truncate", path(), errno);
    return Status::Ok();
  }

  Status Allocate(uint64_t offset, uint64_t len) override {
    int err = ::posix_fallocate(fd_, static_cast<off_t>(offset), static_cast<off_t>(len));
    if (err != 0) return IoError("allocate", path(), err);
    return Status::Ok();
  }

  Status Reserve(uint64_t offset, uint64_t len) override {
    if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                    static_cast<off_t>(len)) == 0) {
      return Status::Ok();
    }
    if (errno == EOPNOTSUPP || errno == ENOSYS) return Status::Ok();
    return IoError("allocate", path(), errno);
  }

 private:
  const int fd_;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<File>> Open(const std::string& path, bool create) override {
    int flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0);
    int fd;
    do {
      fd = ::open(path.c_str(), flags, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return IoError("open", path, errno);
    return std::unique_ptr<File>(std::make_unique<PosixFile>(path, fd));
  }

  Status Remove(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return IoError("remove", path, errno);
    return Status::Ok();
  }

  Result<bool> Exists(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) return true;
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return IoError("stat", path, errno);
  }

  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return IoError("rename", from, errno);
    return Status::Ok();
  }

  Status SyncDir(const std::string& dir) override {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return IoError("open directory", dir, errno);
    int rc = ::fsync(fd);
    int err = errno;
    ::close(fd);
    if (rc != 0) return IoError("fsync directory", dir, err);
    return Status::Ok();
  }
};

}  // namespace

FileSystem* FileSystem::Default() {
  static PosixFileSystem* fs = new PosixFileSystem();  // intentionally leaked: outlives statics
  return fs;
}

}  // namespace meridian::storage
