// TempDir: a fresh directory under /tmp (mkdtemp) removed with its contents on destruction.
// Shared by every test binary (unit and e2e).
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace meridian::testutil {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/meridian_test_XXXXXX";
    char* p = ::mkdtemp(tmpl);
    path_ = p ? p : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace meridian::testutil
