// FaultInjectionFileSystem: records, per file, the bytes each unsynced write replaced, so
// DropUnsyncedData can put them back and truncate to the synced size.
#include "storage/fault_injection_file_system.h"

#include <algorithm>
#include <cerrno>

namespace meridian::storage {
namespace {

class FaultFile final : public File {
 public:
  FaultFile(FaultInjectionFileSystem* fs, std::unique_ptr<File> base)
      : File(base->path()), fs_(fs), base_(std::move(base)) {}

  Status ReadAt(uint64_t offset, size_t n, char* buf, size_t* bytes_read) override {
    return base_->ReadAt(offset, n, buf, bytes_read);
  }

  Status WriteAt(uint64_t offset, std::string_view data) override {
    if (!fs_->Tick() || fs_->fail_writes()) return IoError("write", path(), EIO);
    if (fs_->RefusesGrowth(offset + data.size())) {
      MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, base_->Size());
      if (offset + data.size() > size) return IoError("write", path(), ENOSPC);
    }
    MutexLock lock(fs_->mutex());
    auto& journal = fs_->JournalFor(path());
    if (!journal.dirty) {
      MERIDIAN_ASSIGN_OR_RETURN(journal.synced_size, base_->Size());
      journal.dirty = true;
    }
    if (offset < journal.synced_size) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(data.size(), journal.synced_size - offset));
      std::string old(n, '\0');
      size_t got = 0;
      MERIDIAN_RETURN_IF_ERROR(base_->ReadAt(offset, n, old.data(), &got));
      old.resize(got);
      journal.undo.push_back({offset, std::move(old)});
    }
    return base_->WriteAt(offset, data);
  }

  Status Sync() override {
    if (!fs_->Tick() || fs_->fail_syncs()) return IoError("fsync", path(), EIO);
    MutexLock lock(fs_->mutex());
    MERIDIAN_RETURN_IF_ERROR(base_->Sync());
    fs_->JournalFor(path()) = {};
    return Status::Ok();
  }

  Result<uint64_t> Size() override { return base_->Size(); }
  Status Truncate(uint64_t size) override {
    if (!fs_->Tick() || fs_->fail_writes()) return IoError("truncate", path(), EIO);
    return base_->Truncate(size);
  }
  Status Allocate(uint64_t offset, uint64_t len) override {
    if (!fs_->Tick() || fs_->fail_writes()) return IoError("allocate", path(), ENOSPC);
    if (fs_->RefusesGrowth(offset + len)) {
      MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, base_->Size());
      if (offset + len > size) return IoError("allocate", path(), ENOSPC);
    }
    return base_->Allocate(offset, len);
  }

  // Not a counted operation (crash points stay where they were); refused like Allocate on a
  // full or size-limited disk.
  Status Reserve(uint64_t offset, uint64_t len) override {
    if (fs_->fail_writes()) return IoError("allocate", path(), ENOSPC);
    if (fs_->RefusesGrowth(offset + len)) {
      MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, base_->Size());
      if (offset + len > size) return IoError("allocate", path(), ENOSPC);
    }
    return base_->Reserve(offset, len);
  }

 private:
  FaultInjectionFileSystem* const fs_;
  std::unique_ptr<File> base_;
};

}  // namespace

void FaultInjectionFileSystem::Hold(bool hold) {
  {
    MutexLock lock(hold_mu_);
    held_ = hold;
  }
  hold_cv_.NotifyAll();
}

int FaultInjectionFileSystem::held_calls() const {
  MutexLock lock(hold_mu_);
  return held_calls_;
}

bool FaultInjectionFileSystem::Tick() {
  {
    MutexLock lock(hold_mu_);
    if (held_) {
      ++held_calls_;
      while (held_) hold_cv_.Wait(hold_mu_);
      --held_calls_;
    }
  }
  int64_t n = countdown_.load();
  while (n > 0 && !countdown_.compare_exchange_weak(n, n - 1)) {
  }
  if (n == 0) {
    fail_writes_ = true;
    fail_syncs_ = true;
    return false;
  }
  return true;
}

Result<std::unique_ptr<File>> FaultInjectionFileSystem::Open(const std::string& path, bool create) {
  if (create) {
    MERIDIAN_ASSIGN_OR_RETURN(bool exists, base_->Exists(path));
    if (!exists && (!Tick() || fail_writes_)) {
      return Status::IOError("could not create file \"" + path + "\": injected fault");
    }
  }
  MERIDIAN_ASSIGN_OR_RETURN(auto base, base_->Open(path, create));
  return std::unique_ptr<File>(std::make_unique<FaultFile>(this, std::move(base)));
}

Status FaultInjectionFileSystem::Remove(const std::string& path) {
  if (!Tick() || fail_writes_) {
    return Status::IOError("could not remove file \"" + path + "\": injected fault");
  }
  MutexLock lock(mu_);
  journals_.erase(path);
  return base_->Remove(path);
}

Status FaultInjectionFileSystem::Rename(const std::string& from, const std::string& to) {
  if (!Tick() || fail_writes_) {
    return Status::IOError("could not rename file \"" + from + "\": injected fault");
  }
  MutexLock lock(mu_);
  auto it = journals_.find(from);
  if (it != journals_.end()) {
    journals_[to] = std::move(it->second);
    journals_.erase(from);
  }
  return base_->Rename(from, to);
}

Status FaultInjectionFileSystem::DropUnsyncedData(uint64_t tear_seed) {
  MutexLock lock(mu_);
  uint64_t rng = tear_seed;
  for (auto& [path, journal] : journals_) {
    if (!journal.dirty) continue;
    MERIDIAN_ASSIGN_OR_RETURN(auto file, base_->Open(path, /*create=*/false));
    for (auto it = journal.undo.rbegin(); it != journal.undo.rend(); ++it) {
      std::string_view old = it->old_bytes;
      uint64_t offset = it->offset;
      if (tear_seed != 0 && old.size() >= 8192) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;  // LCG
        if ((rng >> 33) % 3 == 0) {  // keep the new first half: a torn page
          offset += old.size() / 2;
          old.remove_prefix(old.size() / 2);
          ++pages_torn_;
        }
      }
      MERIDIAN_RETURN_IF_ERROR(file->WriteAt(offset, old));
    }
    MERIDIAN_RETURN_IF_ERROR(file->Truncate(journal.synced_size));
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
  }
  journals_.clear();
  return Status::Ok();
}

}  // namespace meridian::storage
