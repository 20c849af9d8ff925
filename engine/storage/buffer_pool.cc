// BufferPool implementation. Miss path: pick a clock victim under mutex_; a dirty victim is
// pinned, written back without mutex_ and the search restarts; a clean victim is remapped,
// pinned and exclusively latched under mutex_ (its latch is free: no pins, no latches), then
// the page is read and verified with mutex_ released. Waiters for the same page pin it and
// block on its latch, then see load_error if the read failed.
#include "storage/buffer_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <new>
#include <string>

#include "storage/page.h"
#include "storage/page_layout.h"

namespace meridian::storage {
ReadPageGuard& ReadPageGuard::operator=(ReadPageGuard&& o) noexcept {
  if (this != &o) {
    Release();
    pool_ = o.pool_;
    frame_ = o.frame_;
    page_no_ = o.page_no_;
    o.frame_ = nullptr;
  }
  return *this;
}

void ReadPageGuard::Release() {
  if (frame_ == nullptr) return;
  frame_->latch.unlock_shared();  // latch first: a latch is only held under a pin
  pool_->Unpin(frame_);
  frame_ = nullptr;
}

WritePageGuard& WritePageGuard::operator=(WritePageGuard&& o) noexcept {
  if (this != &o) {
    Release();
    pool_ = o.pool_;
    frame_ = o.frame_;
    page_no_ = o.page_no_;
    o.frame_ = nullptr;
  }
  return *this;
}

void WritePageGuard::Release() {
  if (frame_ == nullptr) return;
  frame_->latch.unlock();
  pool_->Unpin(frame_);
  frame_ = nullptr;
}

BufferPool::BufferPool(size_t capacity_pages) : BufferPool(capacity_pages, FileSystem::Default()) {}

BufferPool::PageTable::PageTable(size_t max_entries) {
  size_t capacity = 4;
  while (capacity < 2 * max_entries) capacity *= 2;  // at most half full
  slots_.resize(capacity);
  mask_ = capacity - 1;
  shift_ = 64 - std::countr_zero(capacity);
}

Frame* BufferPool::PageTable::Find(PageKey key) const {
  const uint64_t k = Pack(key);
  for (size_t i = Home(k);; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.frame == nullptr) return nullptr;
    if (s.key == k) return s.frame;
  }
}

void BufferPool::PageTable::Insert(PageKey key, Frame* frame) {
  const uint64_t k = Pack(key);
  size_t i = Home(k);
  while (slots_[i].frame != nullptr) i = (i + 1) & mask_;
  slots_[i] = {k, frame};
  ++size_;
}

void BufferPool::PageTable::Erase(PageKey key) {
  const uint64_t k = Pack(key);
  size_t i = Home(k);
  while (slots_[i].frame != nullptr && slots_[i].key != k) i = (i + 1) & mask_;
  if (slots_[i].frame == nullptr) return;
  // Backward-shift deletion: move later entries of the probe run into the hole when their home
  // slot does not lie cyclically in (hole, j], so every entry stays reachable from its home.
  size_t hole = i;
  for (size_t j = (i + 1) & mask_; slots_[j].frame != nullptr; j = (j + 1) & mask_) {
    const size_t home = Home(slots_[j].key);
    const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    slots_[hole] = slots_[j];
    hole = j;
  }
  slots_[hole] = Slot{};
  --size_;
}

BufferPool::BufferPool(size_t capacity_pages, FileSystem* fs)
    : fs_(fs), table_(std::max<size_t>(capacity_pages, 1)) {
  capacity_pages = std::max<size_t>(capacity_pages, 1);
  // Rounded up to whole 2 MiB huge pages; the kernel zero-fills and backs it lazily.
  constexpr size_t kHugePage = size_t{2} << 20;
  const size_t bytes = (capacity_pages * kPageSize + kHugePage - 1) / kHugePage * kHugePage;
  void* mem = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  // Best effort: without THP (or with it disabled) the pool just uses 4 KiB pages.
  [[maybe_unused]] int advised = ::madvise(mem, bytes, MADV_HUGEPAGE);
  memory_ =
      std::unique_ptr<char, PoolMemoryDeleter>(static_cast<char*>(mem), PoolMemoryDeleter{bytes});
  frames_.reserve(capacity_pages);
  referenced_.assign(capacity_pages, 0);
  for (size_t i = 0; i < capacity_pages; ++i) {
    frames_.push_back(std::make_unique<Frame>());
    frames_.back()->data = memory_.get() + i * kPageSize;
    frames_.back()->index = static_cast<uint32_t>(i);
  }
}

BufferPool::~BufferPool() = default;

void PoolMemoryDeleter::operator()(char* p) const { ::munmap(p, bytes); }

Result<FileId> BufferPool::RegisterFile(std::unique_ptr<File> file) {
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  MutexLock lock(mutex_);
  for (const auto& [id, entry] : files_) {
    if (entry.file->path() == file->path()) {
      return Status::Internal("file \"" + file->path() + "\" is already open in the buffer pool");
    }
  }
  FileId id = next_file_id_++;
  FileEntry& entry = files_[id];
  entry.page_count = static_cast<uint32_t>((size + kPageSize - 1) / kPageSize);
  entry.written_pages = entry.page_count;
  entry.file = std::move(file);
  return id;
}

Status BufferPool::UnregisterFile(FileId file) {
  MERIDIAN_RETURN_IF_ERROR(FlushFile(file));
  std::unique_ptr<File> closing;  // destroyed (closed) after mutex_ is released
  // Owed syncs run under dw_mu_: none may use the File while it closes. FlushFile synced it,
  // so it is owed no more.
  MutexLock dw_lock(dw_mu_);
  for (std::vector<FileId>& owed : owed_) {
    owed.erase(std::remove(owed.begin(), owed.end(), file), owed.end());
  }
  MutexLock lock(mutex_);
  auto it = files_.find(file);
  if (it == files_.end()) return Status::Internal("unknown buffer pool file id");
  for (Frame* frame : it->second.frames) {
    if (frame->pin_count.load() > 0 || frame->dirty) {
      return Status::Internal("cannot close \"" + it->second.file->path() + "\": page " +
                              std::to_string(frame->page_no) + " is in use");
    }
  }
  for (Frame* frame : it->second.frames) {
    table_.Erase({file, frame->page_no});
    frame->mapped = false;
  }
  it->second.frames.clear();
  closing = std::move(it->second.file);
  files_.erase(it);
  return Status::Ok();
}

void BufferPool::AddFileFrame(FileEntry& entry, Frame* frame) {
  frame->file_slot = static_cast<uint32_t>(entry.frames.size());
  entry.frames.push_back(frame);
}

void BufferPool::RemoveFileFrame(Frame* frame) {
  auto it = files_.find(frame->file);
  if (it == files_.end()) return;  // unregistered: its list went with it
  std::vector<Frame*>& list = it->second.frames;
  const uint32_t slot = frame->file_slot;
  if (slot >= list.size() || list[slot] != frame) return;
  list[slot] = list.back();
  list[slot]->file_slot = slot;
  list.pop_back();
}

File* BufferPool::FileFor(FileId file) const {
  auto it = files_.find(file);
  return it == files_.end() ? nullptr : it->second.file.get();
}

uint32_t BufferPool::PageCount(FileId file) const {
  MutexLock lock(mutex_);
  auto it = files_.find(file);
  return it == files_.end() ? 0 : it->second.page_count;
}

Frame* BufferPool::PickVictim() {
  Frame* f = PickVictim(/*allow_no_steal=*/false);
  return f != nullptr ? f : PickVictim(/*allow_no_steal=*/true);
}

Frame* BufferPool::PickVictim(bool allow_no_steal) {
  const size_t n = frames_.size();
  for (size_t i = 0; i < 2 * n; ++i) {
    const size_t at = clock_hand_;
    clock_hand_ = at + 1 == n ? 0 : at + 1;
    if (referenced_[at] != 0) {  // second chance, without touching the frame
      referenced_[at] = 0;
      continue;
    }
    Frame* f = frames_[at].get();
    if (f->pin_count.load(std::memory_order_acquire) > 0) continue;
    if (!allow_no_steal && f->no_steal && f->dirty) continue;
    return f;
  }
  return nullptr;
}

std::function<Status()> BufferPool::BeforeWrite(FileId file) const {
  auto it = files_.find(file);
  return it == files_.end() ? nullptr : it->second.before_write;
}

void BufferPool::SetNoSteal(FileId file, std::function<Status()> before_write) {
  MutexLock lock(mutex_);
  auto it = files_.find(file);
  if (it == files_.end()) return;
  it->second.before_write = std::move(before_write);
  const bool no_steal = it->second.before_write != nullptr;
  for (const auto& frame : frames_) {
    if (frame->mapped && frame->file == file) frame->no_steal = no_steal;
  }
}

Result<BufferPool::Snapshot> BufferPool::SnapshotDirty(FileId file, size_t max_pages) {
  Snapshot snap;
  snap.file = file;
  std::vector<Frame*> clean;
  {
    MutexLock lock(mutex_);
    auto it = files_.find(file);
    if (it == files_.end()) return Status::Internal("unknown buffer pool file id");
    for (Frame* frame : it->second.frames) (frame->dirty ? snap.frames : clean).push_back(frame);
    if (snap.frames.size() > max_pages) {
      return Status::Error(sqlstate::kInsufficientResources,
                           std::to_string(snap.frames.size()) + " dirty pages exceed the " +
                               std::to_string(max_pages) + "-page checkpoint image limit");
    }
    std::sort(snap.frames.begin(), snap.frames.end(),
              [](const Frame* a, const Frame* b) { return a->page_no < b->page_no; });
    for (Frame* frame : snap.frames) {
      frame->pin_count.fetch_add(1, std::memory_order_relaxed);
      ++io_pins_;
      snap.pages.push_back(frame->page_no);
    }
  }
  // A clean frame may be clean because a write-back copied it and is writing it right now
  // (mapped and pinned until done): wait for those writes, so the file sync of WriteSnapshot
  // covers them. Otherwise such a page, absent from the image, could miss the disk while the
  // image is declared complete. (Its content is the current one: a later change would have
  // made it dirty, hence part of the image.)
  for (Frame* frame : clean) {
    std::lock_guard io(frame->io);
  }
  snap.images.resize(snap.frames.size() * kPageSize);
  for (size_t i = 0; i < snap.frames.size(); ++i) {
    // Held until ReleaseSnapshot (as FlushPages does): an eviction's write-back of this page
    // in flight finishes first, and none can start (evictions only try the io mutex) until the
    // image is in place, so an older image never lands after a newer one.
    snap.frames[i]->io.lock();
    CopyForWrite(snap.frames[i], snap.pages[i], /*try_latch=*/false,
                 snap.images.data() + i * kPageSize);
  }
  return snap;
}

Status BufferPool::WriteSnapshot(const Snapshot& snapshot) {
  File* f;
  {
    MutexLock lock(mutex_);
    f = FileFor(snapshot.file);
    if (f == nullptr) return Status::Internal("unknown buffer pool file id");
  }
  {
    // Older images of these pages in the doublewrite area must not be put back at the next
    // start over the newer ones written here (the caller's journal protects these writes).
    MutexLock dw_lock(dw_mu_);
    if (dw_ != nullptr) {
      // Rewriting an area's header could tear it and lose the area at a crash: the files its
      // batch wrote are synced first, so nothing else depends on it any more.
      for (int area : dw_->AreasHolding(f, snapshot.pages)) {
        MERIDIAN_RETURN_IF_ERROR(SyncArea(area));
      }
      MERIDIAN_RETURN_IF_ERROR(dw_->Forget(f, snapshot.pages));
    }
  }
  uint32_t end = 0;
  for (size_t i = 0; i < snapshot.pages.size(); ++i) {
    MERIDIAN_RETURN_IF_ERROR(f->WriteAt(uint64_t{snapshot.pages[i]} * kPageSize,
                                        std::string_view(snapshot.image(i), kPageSize)));
    end = std::max(end, snapshot.pages[i] + 1);
  }
  MERIDIAN_RETURN_IF_ERROR(f->Sync());
  MutexLock lock(mutex_);
  if (auto it = files_.find(snapshot.file); it != files_.end()) {
    it->second.written_pages = std::max(it->second.written_pages, end);
    stats_.writes += snapshot.pages.size();
  }
  return Status::Ok();
}

void BufferPool::ReleaseSnapshot(Snapshot* snapshot, bool written) {
  {
    MutexLock lock(mutex_);
    for (Frame* frame : snapshot->frames) {
      if (!written) frame->dirty = true;  // still not on disk
      frame->io.unlock();
      frame->pin_count.fetch_sub(1, std::memory_order_acq_rel);
      --io_pins_;
    }
  }
  snapshot->frames.clear();
  cv_.NotifyAll();
}

Status BufferPool::ReadPage(File* file, uint32_t page_no, char* buf) {
  size_t got = 0;
  Status st = file->ReadAt(uint64_t{page_no} * kPageSize, kPageSize, buf, &got);
  if (!st.ok()) {
    std::memset(buf, 0, kPageSize);  // no stale bytes of the previous page stay in the frame
    return st;
  }
  // got < kPageSize: past the end of the file, or a torn extension; the rest is zeroed and
  // the checksum decides.
  if (got < kPageSize) std::memset(buf + got, 0, kPageSize - got);
  if (!VerifyPageChecksum(buf)) {
    return Status::Corruption("invalid page checksum in file \"" + file->path() + "\" page " +
                              std::to_string(page_no));
  }
  uint32_t stored_no;
  std::memcpy(&stored_no, buf + kPageNumberOffset, 4);
  if (stored_no != page_no && !IsAllZeroPage(buf)) {
    return Status::Corruption("page number mismatch in file \"" + file->path() + "\" page " +
                              std::to_string(page_no) + " (found " + std::to_string(stored_no) +
                              ")");
  }
  if (Status layout = VerifyPageLayout(buf); !layout.ok()) {
    return Status::Corruption(layout.message() + " in file \"" + file->path() + "\" page " +
                              std::to_string(page_no));
  }
  return Status::Ok();
}

void BufferPool::EnableDoublewrite(std::unique_ptr<Doublewrite> dw) {
  MutexLock lock(dw_mu_);
  dw_ = std::move(dw);
}

Status BufferPool::ClearDoublewrite() {
  MutexLock lock(dw_mu_);
  MERIDIAN_RETURN_IF_ERROR(SyncArea(-1));
  return dw_ == nullptr ? Status::Ok() : dw_->Clear();
}

void BufferPool::SetRecordSync(RecordSync sync) {
  MutexLock lock(dw_mu_);
  record_sync_ = std::move(sync);
}

Status BufferPool::SyncArea(int area) {
  bool record = false;
  for (int a = 0; a < Doublewrite::kAreas; ++a) {
    record = record || ((area < 0 || a == area) && record_owed_[a]);
  }
  if (record) {
    // Every record an area holds was appended when it was staged (after_stage, under dw_mu_),
    // but for those whose append failed: appended now (oldest first), then one sync of the
    // log makes them all durable there.
    std::string unappended;
    for (int i = 0; i < Doublewrite::kAreas; ++i) {  // from the oldest area (the next one)
      unappended += unappended_[(dw_->next_area() + i) % Doublewrite::kAreas];
    }
    if (record_sync_) MERIDIAN_RETURN_IF_ERROR(record_sync_(unappended));
    std::fill(std::begin(record_owed_), std::end(record_owed_), false);
    for (std::string& r : unappended_) r.clear();
  }
  std::vector<FileId> files;
  for (int a = 0; a < Doublewrite::kAreas; ++a) {
    if (area < 0 || a == area) files.insert(files.end(), owed_[a].begin(), owed_[a].end());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (FileId id : files) {
    File* f;
    {
      MutexLock lock(mutex_);
      f = FileFor(id);
    }
    // A file unregistered meanwhile was synced when it closed (UnregisterFile).
    if (f != nullptr) MERIDIAN_RETURN_IF_ERROR(f->Sync());
    // Every write of it so far happened under dw_mu_: no area owes it any more.
    for (std::vector<FileId>& owed : owed_) {
      owed.erase(std::remove(owed.begin(), owed.end(), id), owed.end());
    }
  }
  return Status::Ok();
}

Status BufferPool::FlushGroupPages(std::vector<std::pair<FileId, std::vector<uint32_t>>> sets,
                                   std::string_view record,
                                   const std::function<Status()>& after_stage, bool* durable) {
  if (durable != nullptr) *durable = false;
  struct Set {
    FileId id;
    File* file;
    std::function<Status()> before_write;
    bool need_sync = false;  // an earlier unsynced write of one of its pages
    std::vector<std::pair<uint32_t, const char*>> images;
  };
  std::vector<Set> files;
  size_t total = 0;
  {
    MutexLock lock(mutex_);
    for (auto& [id, pages] : sets) {
      std::sort(pages.begin(), pages.end());
      pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
      File* f = FileFor(id);
      if (f == nullptr) return Status::Internal("unknown buffer pool file id");
      files.push_back({id, f, BeforeWrite(id), false, {}});
      total += pages.size();
    }
  }
  if (dw_ == nullptr || total > Doublewrite::kMaxPages) {
    for (auto& [id, pages] : sets) MERIDIAN_RETURN_IF_ERROR(FlushPages(id, std::move(pages)));
    return Status::Ok();
  }
  // Copy every dirty page under its latch, holding its io mutex (files in the order given,
  // pages ascending) until the in-place writes are done, as FlushPages does.
  std::vector<char> buffer(total * kPageSize);
  size_t used = 0;
  std::vector<Frame*> pinned, io_held;
  for (size_t i = 0; i < files.size(); ++i) {
    for (uint32_t page_no : sets[i].second) {
      char* image = buffer.data() + used * kPageSize;
      if (TakeForFlush(files[i].id, page_no, image, &pinned, &io_held, &files[i].need_sync)) {
        ++used;
        files[i].images.emplace_back(page_no, image);
      }
    }
  }
  Status st;
  std::vector<Doublewrite::Image> staged;
  for (Set& f : files) {
    if (!f.images.empty() && f.before_write && st.ok()) st = f.before_write();
    for (const auto& [page_no, data] : f.images) staged.push_back({f.file, page_no, data});
  }
  bool embedded = false;
  {
    MutexLock dw_lock(dw_mu_);
    const int area = dw_->next_area();
    if (st.ok()) st = SyncArea(area);
    // Sizes before this group: pages at or past them are first writes.
    std::vector<uint32_t> held(files.size(), 0);
    {
      MutexLock lock(mutex_);
      for (size_t i = 0; i < files.size(); ++i) {
        if (auto it = files_.find(files[i].id); it != files_.end()) {
          held[i] = it->second.written_pages;
        }
      }
    }
    std::vector<FileId> written;
    std::vector<uint32_t> end(files.size(), 0);
    auto write_in_place = [&](bool first_writes) {
      for (size_t i = 0; i < files.size(); ++i) {
        for (const auto& [page_no, data] : files[i].images) {
          if ((page_no >= held[i]) != first_writes || !st.ok()) continue;
          st = files[i].file->WriteAt(uint64_t{page_no} * kPageSize,
                                      std::string_view(data, kPageSize));
          if (st.ok()) end[i] = std::max(end[i], page_no + 1);
        }
      }
    };
    // First writes grow the file, the only writes a full disk can refuse: before the batch,
    // while a failure still aborts the group. A torn one holds nothing durable.
    write_in_place(/*first_writes=*/true);
    // Versions of the group on pages an earlier write may have left unsynced (evicted, or
    // written outside a commit batch) must be durable before the group is.
    for (Set& f : files) {
      if (f.need_sync && st.ok()) st = f.file->Sync();
    }
    if (st.ok() && !staged.empty()) st = dw_->Stage(staged, record, &embedded);
    if (st.ok() && embedded) {
      // The group is durable now: its record and every image are in the area.
      record_owed_[area] = true;
      if (durable != nullptr) *durable = true;
      if (after_stage) st = after_stage();
      if (!st.ok()) unappended_[area] = std::string(record);
    }
    write_in_place(/*first_writes=*/false);
    for (size_t i = 0; i < files.size(); ++i) {
      if (end[i] == 0) continue;
      written.push_back(files[i].id);
      MutexLock lock(mutex_);
      if (auto it = files_.find(files[i].id); it != files_.end()) {
        it->second.written_pages = std::max(it->second.written_pages, end[i]);
      }
    }
    owed_[area].insert(owed_[area].end(), written.begin(), written.end());
    if (st.ok()) {
      for (Frame* frame : io_held) frame->batch_written.store(true, std::memory_order_relaxed);
    }
  }
  ReleaseFlushed(&pinned, &io_held, st.ok(), staged.size());
  return st;
}

Status BufferPool::WriteImages(FileId id, File* file,
                               const std::vector<std::pair<uint32_t, const char*>>& images,
                               bool* synced) {
  if (synced != nullptr) *synced = false;
  std::vector<Doublewrite::Image> rewrites;  // pages already on disk: torn-write protection
  if (dw_ != nullptr) {
    uint32_t written = 0;
    {
      MutexLock lock(mutex_);
      auto it = files_.find(id);
      written = it == files_.end() ? 0 : it->second.written_pages;
    }
    for (const auto& [page_no, data] : images) {
      if (page_no < written) rewrites.push_back({file, page_no, data});
    }
  }
  uint32_t end = 0;
  auto write_in_place = [&]() -> Status {
    for (const auto& [page_no, data] : images) {
      MERIDIAN_RETURN_IF_ERROR(
          file->WriteAt(uint64_t{page_no} * kPageSize, std::string_view(data, kPageSize)));
      end = std::max(end, page_no + 1);
    }
    return Status::Ok();
  };
  if (rewrites.empty()) {
    MERIDIAN_RETURN_IF_ERROR(write_in_place());
  } else {
    {
      MutexLock dw_lock(dw_mu_);
      // The area's previous batch must be in place and durable first.
      MERIDIAN_RETURN_IF_ERROR(SyncArea(dw_->next_area()));
      const int area = dw_->next_area();
      MERIDIAN_RETURN_IF_ERROR(dw_->Stage(rewrites));
      // The area takes another batch only once these writes are durable: it owes this file's
      // sync (SyncArea), as a commit batch's area does. So dw_mu_ is released before the
      // file's own sync below: the next batch (a commit group's) waits for this batch's copy
      // and writes, not for the file's writeback.
      owed_[area].push_back(id);
      MERIDIAN_RETURN_IF_ERROR(write_in_place());
    }
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
    if (synced != nullptr) *synced = true;
  }
  MutexLock lock(mutex_);
  if (auto it = files_.find(id); it != files_.end()) {
    it->second.written_pages = std::max(it->second.written_pages, end);
  }
  return Status::Ok();
}

bool BufferPool::CopyForWrite(Frame* frame, uint32_t page_no, bool try_latch, char* image) {
  {
    // A shared latch keeps writers out while we copy. Eviction (try_latch) never waits for a
    // latch: its holder may be waiting for a latch this thread holds.
    std::shared_lock latch(frame->latch, std::defer_lock);
    if (try_latch) {
      if (!latch.try_lock()) return false;
    } else {
      latch.lock();
    }
    frame->dirty = false;
    frame->batch_written.store(false, std::memory_order_relaxed);
    std::memcpy(image, frame->data, kPageSize);
  }
  std::memcpy(image + kPageNumberOffset, &page_no, 4);
  SetPageChecksum(image);
  return true;
}

std::vector<Frame*> BufferPool::GatherWriteBack(Frame* victim) {
  std::vector<Frame*> batch{victim};
  victim->pin_count.fetch_add(1, std::memory_order_relaxed);
  ++io_pins_;
  const size_t n = frames_.size();
  size_t at = clock_hand_;
  for (size_t k = 0; k < n && k < 4 * Doublewrite::kMaxPages; ++k) {
    Frame* f = frames_[at].get();
    at = at + 1 == n ? 0 : at + 1;
    if (batch.size() == Doublewrite::kMaxPages) break;
    if (f == victim || !f->mapped || f->file != victim->file || f->no_steal != victim->no_steal ||
        referenced_[f->index] != 0 || !f->dirty.load(std::memory_order_relaxed) ||
        f->pin_count.load(std::memory_order_acquire) > 0) {
      continue;
    }
    f->pin_count.fetch_add(1, std::memory_order_relaxed);
    ++io_pins_;
    batch.push_back(f);
  }
  return batch;
}

Status BufferPool::WriteBackBatch(const std::vector<Frame*>& batch,
                                  const std::vector<uint32_t>& pages, FileId id, File* file,
                                  bool* victim_written, size_t* count) {
  // One image buffer per thread: write-backs run on dirty evictions, and allocations here
  // showed up in profiles (malloc_consolidate).
  thread_local std::unique_ptr<char[]> buffer;
  if (buffer == nullptr) buffer = std::make_unique<char[]>(Doublewrite::kMaxPages * kPageSize);
  // Ascending page order: sequential writes.
  std::vector<size_t> order(batch.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pages[a] < pages[b]; });
  std::vector<std::pair<uint32_t, const char*>> images;
  std::vector<Frame*> held;
  for (size_t i : order) {
    Frame* f = batch[i];
    // One write of a page at a time, from copy to completed write: otherwise an older image
    // copied earlier by one writer could land after a newer one (a lost committed version).
    // Eviction never waits for an io mutex or a latch: their holders may wait for this thread.
    if (!f->io.try_lock()) continue;
    char* image = buffer.get() + images.size() * kPageSize;
    if (!CopyForWrite(f, pages[i], /*try_latch=*/true, image)) {
      f->io.unlock();
      continue;
    }
    held.push_back(f);
    images.emplace_back(pages[i], image);
    if (f == batch[0]) *victim_written = true;
  }
  Status st = images.empty() ? Status::Ok() : WriteImages(id, file, images);
  for (Frame* f : held) {
    if (!st.ok()) f->dirty = true;  // still not on disk
    f->io.unlock();
  }
  *count = st.ok() ? held.size() : 0;
  return st;
}

Result<Frame*> BufferPool::Pin(FileId file, uint32_t page_no, bool fresh, bool* latched_exclusive) {
  *latched_exclusive = false;
  const PageKey key{file, page_no};
  MutexLock lock(mutex_);
  // Hit: a mapped frame always holds a page inside its registered file (Verify checks it), so
  // the file checks are needed on a miss only.
  if (Frame* frame = table_.Find(key)) {
    frame->pin_count.fetch_add(1, std::memory_order_relaxed);
    referenced_[frame->index] = 1;
    ++stats_.hits;
    return frame;
  }
  Frame* written = nullptr;  // a dirty victim this call just wrote back
  for (;;) {
    auto fit = files_.find(file);
    if (fit == files_.end()) return Status::Internal("unknown buffer pool file id");
    File* f = fit->second.file.get();
    if (page_no >= fit->second.page_count) {
      return Status::Internal("page " + std::to_string(page_no) + " is beyond the end of file \"" +
                              f->path() + "\"");
    }
    if (Frame* frame = table_.Find(key)) {  // mapped by another thread meanwhile
      frame->pin_count.fetch_add(1, std::memory_order_relaxed);
      referenced_[frame->index] = 1;
      ++stats_.hits;
      return frame;
    }
    // The victim just written back is taken if nobody used it meanwhile: otherwise every dirty
    // victim written would stay cached while the clock moved on to write the next one.
    Frame* victim = written != nullptr && written->pin_count.load(std::memory_order_acquire) == 0 &&
                            !written->dirty && referenced_[written->index] == 0
                        ? written
                        : PickVictim();
    written = nullptr;
    if (victim == nullptr) {
      if (io_pins_ > 0) {  // frames held only by a write-back: they come free soon
        cv_.Wait(mutex_);
        continue;
      }
      return Status::Error(sqlstate::kInsufficientResources,
                           "no unpinned buffers available (buffer pool of " +
                               std::to_string(frames_.size()) + " pages, all pinned)");
    }
    if (victim->dirty) {
      // Write the victim back with mutex_ released, with up to Doublewrite::kMaxPages - 1 more
      // dirty, unpinned, unreferenced frames of its file the clock reaches next: one
      // doublewrite batch and one sync for them all, not two syncs per page. They stay mapped
      // (readers still hit) and pinned (nobody else evicts them). Then search again: the
      // victim may have been re-dirtied.
      std::vector<Frame*> batch = GatherWriteBack(victim);
      File* victim_file = FileFor(victim->file);
      const FileId victim_id = victim->file;
      std::vector<uint32_t> pages;
      for (Frame* f : batch) pages.push_back(f->page_no);
      std::function<Status()> before_write = victim->no_steal ? BeforeWrite(victim->file) : nullptr;
      lock.Unlock();
      bool victim_written = false;
      size_t count = 0;
      Status st = before_write ? before_write() : Status::Ok();
      if (st.ok()) {
        st = WriteBackBatch(batch, pages, victim_id, victim_file, &victim_written, &count);
      }
      lock.Lock();
      for (Frame* f : batch) {
        f->pin_count.fetch_sub(1, std::memory_order_acq_rel);
        --io_pins_;
      }
      if (st.ok()) {
        stats_.writes += count;
        if (victim_written) written = victim;
      }
      cv_.NotifyAll();
      if (!st.ok()) return st;
      continue;
    }
    if (victim->mapped) {
      table_.Erase({victim->file, victim->page_no});
      RemoveFileFrame(victim);
      ++stats_.evictions;
    }
    victim->file = file;
    victim->page_no = page_no;
    victim->mapped = true;
    AddFileFrame(fit->second, victim);
    victim->batch_written.store(false, std::memory_order_relaxed);
    victim->no_steal = fit->second.before_write != nullptr;
    victim->pin_count.store(1, std::memory_order_relaxed);
    referenced_[victim->index] = 1;
    table_.Insert(key, victim);
    ++stats_.misses;
    [[maybe_unused]] bool got_latch = victim->latch.try_lock();  // free: unpinned frame
    assert(got_latch);
    lock.Unlock();

    victim->load_error = Status::Ok();
    Status st;
    if (fresh) {
      std::memset(victim->data, 0, kPageSize);
    } else {
      st = ReadPage(f, page_no, victim->data);
    }
    if (!st.ok()) {
      victim->load_error = st;
      {
        MutexLock relock(mutex_);
        table_.Erase(key);
        RemoveFileFrame(victim);
        victim->mapped = false;
      }
      victim->latch.unlock();
      Unpin(victim);
      return st;
    }
    *latched_exclusive = true;
    return victim;
  }
}

void BufferPool::Unpin(Frame* frame) {
  // No mutex: pins are raised only under mutex_, so an evictor that sees 0 there is right, and
  // one that still sees this pin just skips the frame. Release ordering publishes the unlatch.
  [[maybe_unused]] uint32_t before = frame->pin_count.fetch_sub(1, std::memory_order_acq_rel);
  assert(before > 0);
}

Result<ReadPageGuard> BufferPool::FetchRead(FileId file, uint32_t page_no) {
  bool latched = false;
  MERIDIAN_ASSIGN_OR_RETURN(Frame * frame, Pin(file, page_no, /*fresh=*/false, &latched));
  if (latched) {
    frame->latch.unlock();  // downgrade: a writer may slip in between, which is harmless
  }
  frame->latch.lock_shared();
  if (!frame->load_error.ok()) {
    Status st = frame->load_error;
    frame->latch.unlock_shared();
    Unpin(frame);
    return st;
  }
  return ReadPageGuard(this, frame, page_no);
}

Result<WritePageGuard> BufferPool::FetchWrite(FileId file, uint32_t page_no) {
  bool latched = false;
  MERIDIAN_ASSIGN_OR_RETURN(Frame * frame, Pin(file, page_no, /*fresh=*/false, &latched));
  if (!latched) {
    frame->latch.lock();
    if (!frame->load_error.ok()) {
      Status st = frame->load_error;
      frame->latch.unlock();
      Unpin(frame);
      return st;
    }
  }
  frame->dirty = true;
  return WritePageGuard(this, frame, page_no);
}

Result<WritePageGuard> BufferPool::NewPage(FileId file) {
  uint32_t page_no;
  File* f = nullptr;
  uint32_t reserve_from = 0, reserve_pages = 0;
  {
    MutexLock lock(mutex_);
    auto it = files_.find(file);
    if (it == files_.end()) return Status::Internal("unknown buffer pool file id");
    if (it->second.page_count == UINT32_MAX) {
      return Status::Error(sqlstate::kProgramLimitExceeded,
                           "file \"" + it->second.file->path() + "\" has too many pages");
    }
    page_no = it->second.page_count++;
    if (page_no >= it->second.reserved_pages) {
      // The page's disk space is reserved now, so a full disk fails this write instead of a
      // later eviction (which may serve a read) or checkpoint: 1/8 of the file ahead, 8 to
      // 1024 pages.
      f = it->second.file.get();
      reserve_from = page_no;
      reserve_pages = std::clamp<uint32_t>(page_no / 8, 8, 1024);
    }
  }
  if (f != nullptr) {
    const uint64_t at = uint64_t{reserve_from} * kPageSize;
    Status st = f->Reserve(at, uint64_t{reserve_pages} * kPageSize);
    if (IsDiskFull(st) && reserve_pages > 1) {
      reserve_pages = 1;  // a nearly full disk may still hold this one page
      st = f->Reserve(at, kPageSize);
    }
    MutexLock lock(mutex_);
    auto it = files_.find(file);
    if (!st.ok()) {
      if (it != files_.end() && it->second.page_count == page_no + 1) --it->second.page_count;
      return st;
    }
    if (it != files_.end()) {
      it->second.reserved_pages = std::max(it->second.reserved_pages, reserve_from + reserve_pages);
    }
  }
  bool latched = false;
  auto pinned = Pin(file, page_no, /*fresh=*/true, &latched);
  if (!pinned.ok()) {
    MutexLock lock(mutex_);
    auto it = files_.find(file);
    if (it != files_.end() && it->second.page_count == page_no + 1) --it->second.page_count;
    return pinned.status();
  }
  Frame* frame = *pinned;
  if (!latched) {  // a reader mapped the (all-zero) page first
    frame->latch.lock();
    if (!frame->load_error.ok()) {
      Status st = frame->load_error;
      frame->latch.unlock();
      Unpin(frame);
      return st;
    }
  }
  frame->dirty = true;
  return WritePageGuard(this, frame, page_no);
}

bool BufferPool::TakeForFlush(FileId file, uint32_t page_no, char* image,
                              std::vector<Frame*>* pinned, std::vector<Frame*>* io_held,
                              bool* need_sync) {
  Frame* frame;
  {
    MutexLock lock(mutex_);
    frame = table_.Find({file, page_no});
    if (frame == nullptr) {  // evicted (and so written, maybe unsynced), or never cached
      *need_sync = true;
      return false;
    }
    frame->pin_count.fetch_add(1, std::memory_order_relaxed);
    ++io_pins_;
  }
  pinned->push_back(frame);
  if (!frame->dirty) {
    // Clean: maybe because an eviction copied it and is writing it right now. Wait for that
    // write to finish so the caller's sync covers it.
    std::lock_guard wait_for_write(frame->io);
    *need_sync = *need_sync || !frame->batch_written.load(std::memory_order_relaxed);
  }
  if (!frame->dirty) return false;
  // Held until the caller's writes are done (see WriteBackBatch); pages in ascending order per
  // file, so two flushes cannot wait for each other in a cycle.
  frame->io.lock();
  io_held->push_back(frame);
  CopyForWrite(frame, page_no, /*try_latch=*/false, image);
  return true;
}

void BufferPool::ReleaseFlushed(std::vector<Frame*>* pinned, std::vector<Frame*>* io_held,
                                bool written, size_t pages) {
  {
    MutexLock lock(mutex_);
    // Still not on disk: dirty again before the io mutex goes, as a flush waiting for this
    // write (TakeForFlush) reads the flag as soon as it has the mutex.
    if (!written) {
      for (Frame* frame : *pinned) frame->dirty = true;
    }
    for (Frame* frame : *io_held) frame->io.unlock();
    for (Frame* frame : *pinned) {
      frame->pin_count.fetch_sub(1, std::memory_order_acq_rel);
      --io_pins_;
    }
    if (written) stats_.writes += pages;
  }
  cv_.NotifyAll();
  pinned->clear();
  io_held->clear();
}

Status BufferPool::FlushFile(FileId file) {
  std::vector<uint32_t> pages;
  {
    MutexLock lock(mutex_);
    auto it = files_.find(file);
    if (it == files_.end()) return Status::Internal("unknown buffer pool file id");
    for (Frame* frame : it->second.frames) {
      // Dirty, or clean only because another writer (a commit batch, an eviction) copied it
      // and is writing it now: that write may still fail and leave the page dirty, so the
      // page is taken too (TakeForFlush waits for the write, then writes the page if it is
      // dirty again). A caller such as a checkpoint counts on every change made before the
      // call being durable when it returns.
      if (frame->dirty || !frame->io.try_lock()) {
        pages.push_back(frame->page_no);
      } else {
        frame->io.unlock();
      }
    }
  }
  // Always synced at the end: evictions may have written other pages of the file unsynced.
  return FlushPages(file, std::move(pages), /*always_sync=*/true);
}

Status BufferPool::FlushPages(FileId file, std::vector<uint32_t> pages, bool always_sync) {
  File* f;
  std::function<Status()> before_write;
  {
    MutexLock lock(mutex_);
    f = FileFor(file);
    if (f == nullptr) return Status::Internal("unknown buffer pool file id");
    before_write = BeforeWrite(file);
  }
  std::sort(pages.begin(), pages.end());  // sequential writes
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  // Batches of up to Doublewrite::kMaxPages images: copied under each page's latch (pinned,
  // so not evicted meanwhile), then written together (rewrites through the doublewrite area).
  Status first_error;
  // The final sync is skipped only when every page of the set was written by a batch that
  // synced the file itself (a clean page may have been written, unsynced, by an eviction).
  bool need_sync = always_sync || pages.empty();
  std::vector<char> buffer(Doublewrite::kMaxPages * kPageSize);
  std::vector<std::pair<uint32_t, const char*>> batch;
  std::vector<Frame*> pinned;
  std::vector<Frame*> io_held;
  auto write_batch = [&] {
    bool synced = false;
    Status st = batch.empty() || !before_write ? Status::Ok() : before_write();
    if (st.ok() && !batch.empty()) st = WriteImages(file, f, batch, &synced);
    need_sync = need_sync || (!batch.empty() && !synced);
    ReleaseFlushed(&pinned, &io_held, st.ok(), batch.size());
    if (!st.ok() && first_error.ok()) first_error = st;
    batch.clear();
  };
  for (uint32_t page_no : pages) {
    char* image = buffer.data() + batch.size() * kPageSize;
    if (TakeForFlush(file, page_no, image, &pinned, &io_held, &need_sync)) {
      batch.emplace_back(page_no, image);
    }
    if (batch.size() == Doublewrite::kMaxPages) write_batch();
  }
  write_batch();
  MERIDIAN_RETURN_IF_ERROR(first_error);
  // Every page written is durable once the file is synced (already done for doublewritten
  // batches); a flush that wrote nothing still syncs, for writes made earlier by evictions.
  return need_sync ? f->Sync() : Status::Ok();
}

Status BufferPool::FlushAll() {
  std::vector<FileId> ids;
  {
    MutexLock lock(mutex_);
    for (const auto& [id, entry] : files_) ids.push_back(id);
  }
  Status first_error;
  for (FileId id : ids) {
    Status st = FlushFile(id);
    if (!st.ok() && first_error.ok()) first_error = st;
  }
  return first_error;
}

size_t BufferPool::PinnedCount() const {
  MutexLock lock(mutex_);
  size_t pins = 0;
  for (const auto& frame : frames_) pins += frame->pin_count.load();
  return pins;
}

Status BufferPool::Verify() const {
  MutexLock lock(mutex_);
  size_t mapped = 0;
  for (const auto& frame : frames_) {
    if (!frame->mapped) continue;
    ++mapped;
    if (table_.Find({frame->file, frame->page_no}) != frame.get()) {
      return Status::Internal("buffer pool: mapped frame missing from the page table");
    }
    auto fit = files_.find(frame->file);
    if (fit == files_.end() || frame->page_no >= fit->second.page_count) {
      return Status::Internal("buffer pool: frame maps a page outside its file");
    }
    const std::vector<Frame*>& list = fit->second.frames;
    if (frame->file_slot >= list.size() || list[frame->file_slot] != frame.get()) {
      return Status::Internal("buffer pool: mapped frame missing from its file's frame list");
    }
  }
  if (mapped != table_.size()) return Status::Internal("buffer pool: page table has stale entries");
  size_t listed = 0;
  for (const auto& [id, entry] : files_) listed += entry.frames.size();
  if (listed != mapped) return Status::Internal("buffer pool: file frame lists have stale entries");
  return Status::Ok();
}

BufferPool::Stats BufferPool::stats() const {
  MutexLock lock(mutex_);
  return stats_;
}

}  // namespace meridian::storage
