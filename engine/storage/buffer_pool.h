// BufferPool: one fixed set of 8 KiB frames caching pages of every registered File, with clock
// eviction, pin counts and a reader/writer latch per frame. Page bytes are reachable only
// through ReadPageGuard / WritePageGuard (RAII: pin + latch on creation, unlatch + unpin on
// release). Concurrency: every method is thread-safe. Rules (numbered in README.md):
//  - a pin keeps a frame mapped to its page (never evicted); a latch guards the page bytes;
//  - a latch is only ever held by a thread that also holds a pin on that frame;
//  - the pool mutex is never held while waiting for a latch or doing file I/O.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "meridian/status.h"
#include "storage/file.h"
#include "storage/heap_file.h"  // kPageSize

namespace meridian::storage {

using FileId = uint32_t;

class BufferPool;

// One cached page slot. Fields are documented with the lock that guards them.
struct Frame {
  char* data = nullptr;            // kPageSize bytes; content guarded by latch
  std::shared_mutex latch;         // page content latch; held only by pin holders
  Status load_error;               // guarded by latch: set when reading the page failed
  std::atomic<bool> dirty{false};  // set under an exclusive latch; cleared under a latch too
  // Guarded by BufferPool::mutex_:
  FileId file = 0;
  uint32_t page_no = 0;
  bool mapped = false;  // present in the page table under (file, page_no)
  uint32_t pin_count = 0;
  bool referenced = false;  // clock bit
};

// Shared-latched, pinned page. Move-only; empty after a move or Release().
class ReadPageGuard {
 public:
  ReadPageGuard() = default;
  ReadPageGuard(ReadPageGuard&& o) noexcept { *this = std::move(o); }
  ReadPageGuard& operator=(ReadPageGuard&& o) noexcept;
  ReadPageGuard(const ReadPageGuard&) = delete;
  ReadPageGuard& operator=(const ReadPageGuard&) = delete;
  ~ReadPageGuard() { Release(); }

  const char* data() const { return frame_->data; }
  uint32_t page_no() const { return page_no_; }
  bool valid() const { return frame_ != nullptr; }
  void Release();

 private:
  friend class BufferPool;
  ReadPageGuard(BufferPool* pool, Frame* frame, uint32_t page_no)
      : pool_(pool), frame_(frame), page_no_(page_no) {}
  BufferPool* pool_ = nullptr;
  Frame* frame_ = nullptr;
  uint32_t page_no_ = 0;
};

// Exclusively latched, pinned page; the page is marked dirty when the guard is created.
class WritePageGuard {
 public:
  WritePageGuard() = default;
  WritePageGuard(WritePageGuard&& o) noexcept { *this = std::move(o); }
  WritePageGuard& operator=(WritePageGuard&& o) noexcept;
  WritePageGuard(const WritePageGuard&) = delete;
  WritePageGuard& operator=(const WritePageGuard&) = delete;
  ~WritePageGuard() { Release(); }

  char* data() { return frame_->data; }
  const char* data() const { return frame_->data; }
  uint32_t page_no() const { return page_no_; }
  bool valid() const { return frame_ != nullptr; }
  void Release();

 private:
  friend class BufferPool;
  WritePageGuard(BufferPool* pool, Frame* frame, uint32_t page_no)
      : pool_(pool), frame_(frame), page_no_(page_no) {}
  BufferPool* pool_ = nullptr;
  Frame* frame_ = nullptr;
  uint32_t page_no_ = 0;
};

class BufferPool {
 public:
  // capacity_pages frames (at least 1), files opened through FileSystem::Default().
  explicit BufferPool(size_t capacity_pages);
  // fs must outlive the pool (tests pass a FaultInjectionFileSystem).
  BufferPool(size_t capacity_pages, FileSystem* fs);
  // Files still registered are dropped without flushing; call FlushAll first to keep changes.
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  FileSystem* file_system() const { return fs_; }
  size_t capacity() const { return frames_.size(); }

  // Takes ownership of file; its page count is its size rounded up to whole pages. A path may
  // be registered once at a time.
  Result<FileId> RegisterFile(std::unique_ptr<File> file);
  // Flushes the file, drops its frames and closes it. Fails (file stays registered) while a
  // page of it is pinned.
  Status UnregisterFile(FileId file);

  // Pins and latches page page_no (< PageCount) of file, reading it on a miss. Errors: XX001
  // on a checksum mismatch, 58030 on I/O errors, 53000 when every frame is pinned.
  Result<ReadPageGuard> FetchRead(FileId file, uint32_t page_no);
  Result<WritePageGuard> FetchWrite(FileId file, uint32_t page_no);
  // Appends a zeroed page at the end of file (no I/O until it is written back).
  Result<WritePageGuard> NewPage(FileId file);
  uint32_t PageCount(FileId file) const;

  // Writes every dirty page of file (with checksums), then fsyncs the file.
  Status FlushFile(FileId file);
  Status FlushAll();

  // Invariant checkers for tests: total pins held, and page table <-> frame consistency.
  size_t PinnedCount() const;
  Status Verify() const;

  struct Stats {
    uint64_t hits = 0, misses = 0, evictions = 0, writes = 0;
  };
  Stats stats() const;

 private:
  friend class ReadPageGuard;
  friend class WritePageGuard;

  struct FileEntry {
    std::unique_ptr<File> file;
    uint32_t page_count = 0;  // guarded by mutex_
  };
  struct PageKey {
    FileId file;
    uint32_t page_no;
    friend bool operator==(const PageKey&, const PageKey&) = default;
  };
  struct PageKeyHash {
    size_t operator()(const PageKey& k) const {
      return std::hash<uint64_t>()((uint64_t{k.file} << 32) | k.page_no);
    }
  };

  // Pins (file, page_no) in a frame and returns it with its latch NOT held, except when
  // *latched_exclusive is set on return (a frame freshly loaded by this call, still
  // exclusively latched). fresh: the page is new, zero it instead of reading.
  Result<Frame*> Pin(FileId file, uint32_t page_no, bool fresh, bool* latched_exclusive);
  void Unpin(Frame* frame);
  // REQUIRES: mutex_ held. A frame with no pins, or nullptr.
  Frame* PickVictim();
  // Copies the frame's page under a shared latch, sets page number and checksum in the copy
  // and writes it. REQUIRES: frame pinned by the caller, mutex_ not held. With busy set, gives
  // up (*busy = true, OK) instead of waiting when the latch is taken.
  Status WriteBack(Frame* frame, File* file, uint32_t page_no, bool* busy);
  Status ReadPage(File* file, uint32_t page_no, char* buf);
  File* FileFor(FileId file) const;  // REQUIRES: mutex_ held

  FileSystem* const fs_;
  std::vector<std::unique_ptr<Frame>> frames_;  // fixed after construction
  std::unique_ptr<char[]> memory_;              // frames_.size() * kPageSize bytes

  mutable std::mutex mutex_;
  std::condition_variable cv_;  // signalled (with mutex_) when io_pins_ drops
  std::unordered_map<PageKey, Frame*, PageKeyHash> table_;  // guarded by mutex_
  size_t io_pins_ = 0;     // guarded by mutex_: pins held only for a write-back in flight
  size_t clock_hand_ = 0;  // guarded by mutex_
  std::map<FileId, FileEntry> files_;  // guarded by mutex_
  FileId next_file_id_ = 1;            // guarded by mutex_
  Stats stats_;                        // guarded by mutex_
};

}  // namespace meridian::storage
