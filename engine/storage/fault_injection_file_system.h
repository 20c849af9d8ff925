// FaultInjectionFileSystem: a FileSystem wrapper for tests that can fail writes and syncs on
// demand and, like a power cut, roll every file back to its last synced contents
// (DropUnsyncedData). Modeled on LevelDB's fault_injection_test Env. Thread-safe.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meridian/thread_annotations.h"
#include "storage/file.h"

namespace meridian::storage {

class FaultInjectionFileSystem final : public FileSystem {
 public:
  // base must outlive this object.
  explicit FaultInjectionFileSystem(FileSystem* base) : base_(base) {}

  Result<std::unique_ptr<File>> Open(const std::string& path, bool create) override;
  Status Remove(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override { return base_->SyncDir(dir); }

  // While set, WriteAt / Sync fail with 58030 ("injected fault") and change nothing; so do
  // creating, renaming and removing files while writes fail.
  void SetFailWrites(bool fail) { fail_writes_ = fail; }
  void SetFailSyncs(bool fail) { fail_syncs_ = fail; }
  // While set, the disk is full: a write or allocation that would grow a file fails with 53100
  // (ENOSPC) and changes nothing; writes inside a file's current size and syncs still work.
  void SetDiskFull(bool full) { disk_full_ = full; }
  // A small disk: growing any file beyond limit bytes fails as above (0: no limit).
  void SetFileSizeLimit(uint64_t limit) { file_size_limit_ = limit; }
  // Whether growing a file to new_size must fail with ENOSPC now.
  bool RefusesGrowth(uint64_t new_size) const {
    const uint64_t limit = file_size_limit_;
    return disk_full_ || (limit != 0 && new_size > limit);
  }
  // A crash at a chosen moment: the next n mutating calls (write, sync, truncate, allocate,
  // create, rename, remove) go through, every later one fails (writes and syncs both).
  void FailAfter(int64_t n) { countdown_ = n; }
  // While held, every mutating call blocks until Hold(false) (a commit caught between its
  // timestamp and its durability, for tests of what may happen meanwhile).
  void Hold(bool hold);
  // How many calls are blocked by the hold now (a test waits for this instead of sleeping).
  int held_calls() const;
  // Counts one mutating call; false when it must fail (FailAfter's budget is spent).
  bool Tick();
  // Restores every file written through this object to its contents at its last Sync. With a
  // tear_seed, some rolled-back page writes (8 KiB or more) keep their first half — a torn write,
  // as a power cut in the middle of a page write leaves it.
  Status DropUnsyncedData(uint64_t tear_seed = 0);
  uint64_t pages_torn() const {
    MutexLock lock(mu_);
    return pages_torn_;
  }

  // Undo log of one file since its last Sync (internal; public for the File wrapper).
  struct Undo {
    uint64_t offset;
    std::string old_bytes;  // the bytes the write replaced (within the synced size)
  };
  struct Journal {
    bool dirty = false;        // a write happened since the last Sync
    uint64_t synced_size = 0;  // file size at the last Sync (valid when dirty)
    std::vector<Undo> undo;    // in write order
  };
  bool fail_writes() const { return fail_writes_; }
  bool fail_syncs() const { return fail_syncs_; }
  Mutex& mutex() RETURN_CAPABILITY(mu_) { return mu_; }
  Journal& JournalFor(const std::string& path) REQUIRES(mu_) { return journals_[path]; }

 private:
  FileSystem* const base_;
  std::atomic<bool> fail_writes_{false};
  std::atomic<bool> fail_syncs_{false};
  std::atomic<bool> disk_full_{false};
  std::atomic<uint64_t> file_size_limit_{0};
  std::atomic<int64_t> countdown_{-1};  // < 0: no scheduled crash
  mutable Mutex hold_mu_;
  CondVar hold_cv_;
  bool held_ GUARDED_BY(hold_mu_) = false;
  int held_calls_ GUARDED_BY(hold_mu_) = 0;
  mutable Mutex mu_;
  uint64_t pages_torn_ GUARDED_BY(mu_) = 0;
  std::map<std::string, Journal> journals_ GUARDED_BY(mu_);
};

}  // namespace meridian::storage
