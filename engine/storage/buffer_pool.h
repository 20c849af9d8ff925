// BufferPool: one fixed set of 8 KiB frames caching pages of every registered File, with clock
// eviction, pin counts and a reader/writer latch per frame. Page bytes are reachable only
// through ReadPageGuard / WritePageGuard (RAII: pin + latch on creation, unlatch + unpin on
// release). Concurrency: every method is thread-safe. Rules (numbered in README.md):
//  - a pin keeps a frame mapped to its page (never evicted); a latch guards the page bytes;
//  - a latch is only ever held by a thread that also holds a pin on that frame;
//  - the pool mutex is never held while waiting for a latch or doing file I/O.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "meridian/thread_annotations.h"
#include "storage/doublewrite.h"
#include "storage/file.h"
#include "storage/heap_file.h"  // kPageSize

namespace meridian::storage {

using FileId = uint32_t;

class BufferPool;

// One cached page slot. Fields are documented with the lock that guards them.
struct Frame {
  char* data = nullptr;            // kPageSize bytes; content guarded by latch
  std::shared_mutex latch;         // page content latch; held only by pin holders
  std::mutex io;                   // one write-back of this page at a time (copy to write)
  Status load_error;               // guarded by latch: set when reading the page failed
  std::atomic<bool> dirty{false};  // set under an exclusive latch; cleared under a latch too
  // Raised only under BufferPool::mutex_ (so a frame seen unpinned there stays unpinned until
  // the mutex is released); lowered by Unpin without the mutex.
  std::atomic<uint32_t> pin_count{0};
  // Guarded by BufferPool::mutex_:
  FileId file = 0;
  uint32_t page_no = 0;
  bool mapped = false;    // present in the page table under (file, page_no)
  bool no_steal = false;  // the file is no-steal (BufferPool::SetNoSteal)
  // The page's last write was a commit batch's (FlushGroupPages): its image is durable in the
  // doublewrite area until the file is synced, so a later group needs no sync for it. Cleared
  // by every other copy for a write and when the frame takes another page.
  std::atomic<bool> batch_written{false};
  uint32_t index = 0;      // position in BufferPool::frames_ (fixed)
  uint32_t file_slot = 0;  // guarded by BufferPool::mutex_: position in its file's frame list
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

// Unmaps a BufferPool's page memory.
struct PoolMemoryDeleter {
  size_t bytes = 0;
  void operator()(char* p) const;
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

  // From now on a page rewritten in place (already on disk) is first staged in dw (torn-write
  // protection; doublewrite.h). Call before any page is written.
  void EnableDoublewrite(std::unique_ptr<Doublewrite> dw);

  // No-steal files (the catalog's B+tree indexes, docs/txn.md section 5): their
  // on-disk pages must change only as a whole checkpoint image. Eviction writes a dirty page
  // of such a file only when no other frame can be freed, and every write of its pages other
  // than WriteSnapshot first calls before_write (which records durably that the file may be
  // inconsistent after a crash). Frames already cached are marked too.
  void SetNoSteal(FileId file, std::function<Status()> before_write);

  // A checkpoint image of one file's dirty pages. REQUIRES: the caller keeps the file's pages
  // from changing during SnapshotDirty (a B+tree's exclusive tree latch). The frames stay
  // pinned with their io mutexes held, dirty flags cleared, until ReleaseSnapshot (called by
  // the same thread), so nothing else writes those pages meanwhile (later changes re-dirty
  // them in memory only).
  struct Snapshot {
    FileId file = 0;
    std::vector<uint32_t> pages;  // ascending
    std::vector<Frame*> frames;
    std::vector<char> images;  // pages.size() × kPageSize, page number and checksum set
    const char* image(size_t i) const { return images.data() + i * kPageSize; }
  };
  // 53000 (nothing pinned) when the file has more than max_pages dirty pages.
  Result<Snapshot> SnapshotDirty(FileId file, size_t max_pages);
  // Writes the images in place, without the doublewrite area (the caller journaled them
  // first), and fsyncs the file. Images of these pages the area still holds from earlier
  // rewrites are disabled first (Doublewrite::Forget), or the next start would put them back.
  Status WriteSnapshot(const Snapshot& snapshot);
  // Unpins the frames; when the images did not reach the file, they are dirty again.
  void ReleaseSnapshot(Snapshot* snapshot, bool written);

  // Empties the doublewrite area (Doublewrite::Clear): call before a file is removed and
  // another one created at its path.
  Status ClearDoublewrite();

  // Writes every dirty page of file (with checksums), then fsyncs the file. A page another
  // writer is writing meanwhile is waited for (and written if that write failed): every change
  // made before the call is durable when it returns OK.
  Status FlushFile(FileId file);
  // Writes those of pages (of file) that are dirty and makes them durable (write-behind commit):
  // the file is fsynced unless every page was written by a batch that synced it already
  // (always_sync: fsync in any case).
  Status FlushPages(FileId file, std::vector<uint32_t> pages, bool always_sync = false);
  // A commit group's pages of several files (write-behind commit, docs/txn.md §4):
  // when their dirty pages fit one doublewrite batch, every image (first writes too) goes to
  // the area with one fsync, then in place without fsyncing the files: the area holds the
  // newest image of each page until those files are synced (lazily: before the area takes
  // another batch, kAreas batches later, one fsync per file covering them all), and
  // Doublewrite::Recover puts lost in-place writes back. Files with
  // an earlier unsynced write of one of the pages (an eviction) are synced here. More pages
  // than a batch: FlushPages per file.
  //
  // record (may be empty): the group's commit record. When the batch can carry it (it fits
  // the area's header), it is written with the images and the one fdatasync of the batch makes
  // the group durable: *durable is set and after_stage runs at once, under the doublewrite
  // mutex (the log appends the record there, unsynced: the area keeps it until record_sync
  // has run, SetRecordSync; when after_stage fails, record_sync gets the record to append
  // first). Pages written for the first time go in place before the batch, so a full disk
  // fails the group before it is durable; rewrites after it. Once *durable, a later error
  // leaves the group committed.
  Status FlushGroupPages(std::vector<std::pair<FileId, std::vector<uint32_t>>> sets,
                         std::string_view record = {},
                         const std::function<Status()>& after_stage = {}, bool* durable = nullptr);
  // Makes the records FlushGroupPages left in doublewrite areas durable elsewhere (the commit
  // log: appends unappended, the records whose after_stage failed, then fdatasyncs); run
  // before such an area is overwritten or cleared. An area whose record could not be made
  // durable so is never overwritten (SyncArea fails).
  using RecordSync = std::function<Status(std::string_view unappended)>;
  void SetRecordSync(RecordSync sync);
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
    // The fields below are guarded by mutex_ (through files_, which is GUARDED_BY it).
    uint32_t page_count = 0;
    uint32_t written_pages = 0;            // pages that ever reached the file
    uint32_t reserved_pages = 0;           // disk space reserved up to here
    std::function<Status()> before_write;  // set for no-steal files
    // The frames mapped to this file (Frame::file_slot is each one's position), so a file's
    // flush or checkpoint image visits its own frames, not the pool's.
    std::vector<Frame*> frames;
  };
  // Enter/leave a frame in its file's list as it is mapped/unmapped.
  void AddFileFrame(FileEntry& entry, Frame* frame) REQUIRES(mutex_);
  void RemoveFileFrame(Frame* frame) REQUIRES(mutex_);
  struct PageKey {
    FileId file;
    uint32_t page_no;
    friend bool operator==(const PageKey&, const PageKey&) = default;
  };
  // (file, page) -> frame: open addressing with linear probing in a power-of-two array at most
  // half full (it never holds more entries than there are frames), deletion by backward shift.
  // One probe is usually one cache line, unlike a node-based std::unordered_map.
  class PageTable {
   public:
    explicit PageTable(size_t max_entries);
    Frame* Find(PageKey key) const;
    void Insert(PageKey key, Frame* frame);  // REQUIRES: key absent
    void Erase(PageKey key);                 // no-op when absent
    size_t size() const { return size_; }

   private:
    struct Slot {
      uint64_t key = 0;
      Frame* frame = nullptr;  // nullptr: empty slot
    };
    static uint64_t Pack(PageKey k) { return (uint64_t{k.file} << 32) | k.page_no; }
    size_t Home(uint64_t key) const {
      return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
    }
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    int shift_ = 64;
    size_t size_ = 0;
  };

  // Pins (file, page_no) in a frame and returns it with its latch NOT held, except when
  // *latched_exclusive is set on return (a frame freshly loaded by this call, still
  // exclusively latched). fresh: the page is new, zero it instead of reading.
  Result<Frame*> Pin(FileId file, uint32_t page_no, bool fresh, bool* latched_exclusive)
      EXCLUDES(mutex_);
  void Unpin(Frame* frame);
  // A frame with no pins, or nullptr; a dirty frame of a no-steal file only when no other
  // frame qualifies.
  Frame* PickVictim() REQUIRES(mutex_);
  Frame* PickVictim(bool allow_no_steal) REQUIRES(mutex_);
  // The before-write hook of a no-steal file (empty otherwise).
  std::function<Status()> BeforeWrite(FileId file) const REQUIRES(mutex_);
  // Victim and up to Doublewrite::kMaxPages - 1 more dirty, unpinned, unreferenced frames of
  // its file from the clock hand on, each pinned for the write-back.
  std::vector<Frame*> GatherWriteBack(Frame* victim) REQUIRES(mutex_);
  // Without mutex_: copies each frame of batch (pages[i] its page) whose io mutex and latch are
  // free right now and writes the copies in one WriteImages call; *victim_written when batch[0]
  // was among them, *count how many were written.
  Status WriteBackBatch(const std::vector<Frame*>& batch, const std::vector<uint32_t>& pages,
                        FileId id, File* file, bool* victim_written, size_t* count);
  // Copies the frame's page into image (page number and checksum set) under a shared latch
  // (try_latch: gives up, returning false, when the latch is taken) and clears dirty.
  bool CopyForWrite(Frame* frame, uint32_t page_no, bool try_latch, char* image);
  // Flushes (FlushPages, FlushGroupPages): pins the page's frame and, when dirty, takes its io
  // mutex and copies it into image (true). *need_sync when an earlier write of the page may be
  // unsynced (not cached, or clean). ReleaseFlushed undoes both after the writes (written:
  // whether they reached the file; else the frames are dirty again).
  bool TakeForFlush(FileId file, uint32_t page_no, char* image, std::vector<Frame*>* pinned,
                    std::vector<Frame*>* io_held, bool* need_sync);
  void ReleaseFlushed(std::vector<Frame*>* pinned, std::vector<Frame*>* io_held, bool written,
                      size_t pages);
  // Writes page images of one file; rewrites of pages already written go through the
  // doublewrite area first (then the file is synced before the area is released).
  // *synced (may be null): whether the file was synced after the writes.
  Status WriteImages(FileId id, File* file,
                     const std::vector<std::pair<uint32_t, const char*>>& images,
                     bool* synced = nullptr);
  Status ReadPage(File* file, uint32_t page_no, char* buf);
  File* FileFor(FileId file) const REQUIRES(mutex_);

  FileSystem* const fs_;
  std::vector<std::unique_ptr<Frame>> frames_;  // fixed after construction
  // frames_.size() * kPageSize bytes: an anonymous mapping advised to use transparent huge
  // pages, because frames are visited at random and 4 KiB pages made most visits TLB misses.
  std::unique_ptr<char, PoolMemoryDeleter> memory_;

  mutable Mutex mutex_;
  CondVar cv_;  // signalled (with mutex_) when io_pins_ drops
  PageTable table_ GUARDED_BY(mutex_);
  size_t io_pins_ GUARDED_BY(mutex_) = 0;  // pins held only for a write-back in flight
  size_t clock_hand_ GUARDED_BY(mutex_) = 0;
  // Clock bits by frame index: kept apart from the frames so the clock sweep reads one
  // contiguous array and touches a Frame only for a candidate victim.
  std::vector<uint8_t> referenced_ GUARDED_BY(mutex_);
  std::map<FileId, FileEntry> files_ GUARDED_BY(mutex_);
  FileId next_file_id_ GUARDED_BY(mutex_) = 1;
  Stats stats_ GUARDED_BY(mutex_);
  Mutex dw_mu_ ACQUIRED_BEFORE(mutex_);  // one doublewrite batch at a time
  // Per doublewrite area: files a commit batch staged there wrote in place without syncing
  // (FlushGroupPages); the area takes no other batch before they are synced. Guarded by dw_mu_,
  // under which every such write and sync happens, so one fsync of a file pays what every area
  // owes for it.
  std::vector<FileId> owed_[Doublewrite::kAreas] GUARDED_BY(dw_mu_);
  // Per area: it holds a commit record whose log append is not known to be synced; the
  // record itself when its append failed.
  bool record_owed_[Doublewrite::kAreas] GUARDED_BY(dw_mu_) = {};
  std::string unappended_[Doublewrite::kAreas] GUARDED_BY(dw_mu_);
  RecordSync record_sync_ GUARDED_BY(dw_mu_);
  // Syncs the files area owes (area -1: every area).
  Status SyncArea(int area) REQUIRES(dw_mu_);
  std::unique_ptr<Doublewrite> dw_;  // set once before use; null: no torn-write protection
};

}  // namespace meridian::storage
