// HeapFile: rows in slotted pages through the BufferPool. Insert picks a page from a small
// in-memory free-space hint map (seeded lazily with the last page on open, refreshed by every
// change), else appends a page. A row that outgrows its page moves: insert first, then delete.
#include "storage/heap_file.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <map>
#include <set>

#include "meridian/thread_annotations.h"
#include "storage/buffer_pool.h"
#include "storage/page.h"

namespace meridian::storage {
namespace {

constexpr size_t kMaxHints = 4096;     // pages remembered as having room
constexpr size_t kMinUsefulFree = 64;  // below this a page is not worth remembering
// Hints are also kept by free-space class (PostgreSQL's free space map keeps categories of
// BLCKSZ/256 bytes): every page of class c has at least c * kClassBytes bytes free.
constexpr size_t kClassBytes = 256;
constexpr size_t kClasses = kPageSize / kClassBytes + 1;
size_t ClassOf(size_t free) { return std::min(free / kClassBytes, kClasses - 1); }

}  // namespace

struct HeapFile::Impl {
  BufferPool* pool = nullptr;
  FileId file_id = 0;
  std::atomic<bool> open{false};
  Mutex mu;
  std::map<uint32_t, size_t> free_hints GUARDED_BY(mu);  // page -> free bytes last seen
  // The same pages by free-space class (ClassOf), so finding room for a tuple
  // looks at the classes that surely fit it, not at every remembered page (a scan of hints
  // too small for the tuple ran at every insert that left a full page: 5% of a TPC-C run's
  // CPU).
  std::array<std::set<uint32_t>, kClasses> by_class GUARDED_BY(mu);
  // The page the last insert went to, plus 1 (0 = none): inserts try it first without the
  // hint map, so appends cost one page fetch. Advisory like the hints: a stale value only
  // costs a failed attempt.
  std::atomic<uint32_t> last_insert{0};

  // Visibility map: a directory of kVmChunks chunk pointers, each chunk kVmChunkWords words of
  // page bits, both allocated on the first set bit they hold (a heap never marked costs one
  // null pointer). Pages past kVmChunks * kVmChunkWords * 64 are never all-visible.
  static constexpr uint32_t kVmChunkWords = 512;  // 32,768 pages (256 MiB of heap)
  static constexpr uint32_t kVmChunks = 2048;     // 2^26 pages
  using VmWord = std::atomic<uint64_t>;
  using VmChunk = std::atomic<VmWord*>;
  std::atomic<VmChunk*> vm_dir{nullptr};
  std::atomic<uint64_t> removals{0};

  ~Impl() {
    VmChunk* dir = vm_dir.load(std::memory_order_acquire);
    if (dir == nullptr) return;
    for (uint32_t c = 0; c < kVmChunks; ++c) delete[] dir[c].load(std::memory_order_acquire);
    delete[] dir;
  }

  // The word holding page's bit, or null when none was ever allocated (the bit is clear).
  VmWord* VmFind(uint32_t page) const {
    const uint32_t chunk = page / (kVmChunkWords * 64);
    if (chunk >= kVmChunks) return nullptr;
    VmChunk* dir = vm_dir.load(std::memory_order_acquire);
    if (dir == nullptr) return nullptr;
    VmWord* words = dir[chunk].load(std::memory_order_acquire);
    if (words == nullptr) return nullptr;
    return &words[(page / 64) % kVmChunkWords];
  }
  // As VmFind, allocating the directory and chunk (lock-free: the loser of a race frees its copy).
  VmWord* VmGet(uint32_t page) {
    const uint32_t chunk = page / (kVmChunkWords * 64);
    if (chunk >= kVmChunks) return nullptr;
    VmChunk* dir = vm_dir.load(std::memory_order_acquire);
    if (dir == nullptr) {
      auto* fresh = new VmChunk[kVmChunks];
      for (uint32_t c = 0; c < kVmChunks; ++c) fresh[c].store(nullptr, std::memory_order_relaxed);
      if (vm_dir.compare_exchange_strong(dir, fresh, std::memory_order_acq_rel)) {
        dir = fresh;
      } else {
        delete[] fresh;
      }
    }
    VmWord* words = dir[chunk].load(std::memory_order_acquire);
    if (words == nullptr) {
      auto* fresh = new VmWord[kVmChunkWords];
      for (uint32_t w = 0; w < kVmChunkWords; ++w) fresh[w].store(0, std::memory_order_relaxed);
      if (dir[chunk].compare_exchange_strong(words, fresh, std::memory_order_acq_rel)) {
        words = fresh;
      } else {
        delete[] fresh;
      }
    }
    return &words[(page / 64) % kVmChunkWords];
  }
  // Called with the page's exclusive latch held, before the page changes (invariant 2 of the
  // README's visibility map): acq_rel so that whatever publishes this write (the commit)
  // comes after the clear for every thread that synchronizes with it.
  void VmClear(uint32_t page) {
    if (VmWord* w = VmFind(page))
      w->fetch_and(~(uint64_t{1} << (page % 64)), std::memory_order_acq_rel);
  }
  // Called before a tuple is removed from a page (see removal_epoch()).
  void NoteRemoval(uint32_t page) {
    removals.fetch_add(1, std::memory_order_acq_rel);
    VmClear(page);
  }

  void NoteFree(uint32_t page, size_t free) {
    MutexLock lock(mu);
    Forget(page);
    if (free < kMinUsefulFree) return;
    free_hints[page] = free;
    by_class[ClassOf(free)].insert(page);
    // Full: forget the lowest-numbered page (O(log n); garbage collection frees space in
    // thousands of pages per pass, and every page it remembers is reused before the file grows).
    if (free_hints.size() > kMaxHints) Forget(free_hints.begin()->first);
  }

  // A page believed to have need bytes free, or false: the lowest-numbered page of the
  // smallest class whose pages all have room (a page of the class below may have room too; it
  // is left for a smaller tuple).
  bool PickPage(size_t need, uint32_t* page) {
    MutexLock lock(mu);
    for (size_t c = (need + kClassBytes - 1) / kClassBytes; c < kClasses; ++c) {
      if (!by_class[c].empty()) {
        *page = *by_class[c].begin();
        return true;
      }
    }
    return false;
  }

 private:
  void Forget(uint32_t page) REQUIRES(mu) {
    auto it = free_hints.find(page);
    if (it == free_hints.end()) return;
    by_class[ClassOf(it->second)].erase(page);
    free_hints.erase(it);
  }
};

size_t HeapFile::MaxTupleSize() { return kMaxTupleSize; }

Result<std::unique_ptr<HeapFile>> HeapFile::Open(BufferPool* pool, const std::string& path) {
  MERIDIAN_ASSIGN_OR_RETURN(auto file, pool->file_system()->Open(path, /*create=*/true));
  MERIDIAN_ASSIGN_OR_RETURN(FileId id, pool->RegisterFile(std::move(file)));
  std::unique_ptr<HeapFile> heap(new HeapFile());
  heap->impl_ = std::make_unique<Impl>();
  heap->impl_->pool = pool;
  heap->impl_->file_id = id;
  heap->impl_->open = true;
  heap->path_ = path;
  uint32_t pages = pool->PageCount(id);
  if (pages > 0) heap->impl_->last_insert = pages;  // the last page; its room is checked on use
  return heap;
}

HeapFile::~HeapFile() {
  if (impl_ && impl_->open) {
    [[maybe_unused]] Status st = Close();  // a destructor cannot report; call Close() to see it
  }
}

namespace {

Status Closed(const std::string& path) {
  return Status::Internal("heap file \"" + path + "\" is closed");
}

constexpr std::string_view kNoTuple = "no tuple at (";

Status NoTuple(const std::string& path, Rid rid) {
  return Status::Internal(std::string(kNoTuple) + std::to_string(rid.page) + "," +
                          std::to_string(rid.slot) + ") in heap file \"" + path + "\"");
}

Status TooBig(size_t size) {
  return Status::Error(sqlstate::kProgramLimitExceeded,
                       "row is too big: size " + std::to_string(size) + ", maximum size " +
                           std::to_string(kMaxTupleSize));
}

}  // namespace

bool IsNoTuple(const Status& st) {
  return !st.ok() && std::string_view(st.message()).substr(0, kNoTuple.size()) == kNoTuple;
}

Result<Rid> HeapFile::Insert(std::string_view tuple) {
  if (!impl_->open) return Closed(path_);
  if (tuple.size() > kMaxTupleSize) return TooBig(tuple.size());
  const size_t need = tuple.size() + kSlotSize;  // conservative: a slot may be reused
  uint32_t page_no;
  if (uint32_t last = impl_->last_insert.load(std::memory_order_relaxed); last != 0) {
    page_no = last - 1;
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard,
                              impl_->pool->FetchWrite(impl_->file_id, page_no));
    SlottedPage page(guard.data());
    impl_->VmClear(page_no);
    if (!page.IsInitialized()) page.Init(PageType::kHeap, page_no);
    if (auto slot = page.Insert(tuple)) return Rid{page_no, *slot};
    impl_->NoteFree(page_no, page.FreeSpaceForInsert());  // full for this tuple: look elsewhere
  }
  while (impl_->PickPage(need, &page_no)) {
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard,
                              impl_->pool->FetchWrite(impl_->file_id, page_no));
    SlottedPage page(guard.data());
    impl_->VmClear(page_no);
    if (!page.IsInitialized()) page.Init(PageType::kHeap, page_no);
    auto slot = page.Insert(tuple);
    impl_->NoteFree(page_no, page.FreeSpaceForInsert());
    if (slot) {
      impl_->last_insert.store(page_no + 1, std::memory_order_relaxed);
      return Rid{page_no, *slot};
    }
    // The hint was stale; it now holds the page's real free space (< need), so the loop moves on.
  }
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard, impl_->pool->NewPage(impl_->file_id));
  page_no = guard.page_no();
  impl_->VmClear(page_no);
  SlottedPage page(guard.data());
  page.Init(PageType::kHeap, page_no);
  auto slot = page.Insert(tuple);
  if (!slot) return Status::Internal("tuple does not fit in an empty page");
  impl_->NoteFree(page_no, page.FreeSpaceForInsert());
  impl_->last_insert.store(page_no + 1, std::memory_order_relaxed);
  return Rid{page_no, *slot};
}

Status HeapFile::Get(Rid rid, std::string* tuple) {
  if (!impl_->open) return Closed(path_);
  if (rid.page >= page_count()) return NoTuple(path_, rid);
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard guard, impl_->pool->FetchRead(impl_->file_id, rid.page));
  SlottedPage page(const_cast<char*>(guard.data()));  // const use only
  auto bytes = page.Get(rid.slot);
  if (!bytes) return NoTuple(path_, rid);
  tuple->assign(bytes->data(), bytes->size());
  return Status::Ok();
}

Result<Rid> HeapFile::Update(Rid rid, std::string_view tuple) {
  if (!impl_->open) return Closed(path_);
  if (tuple.size() > kMaxTupleSize) return TooBig(tuple.size());
  if (rid.page >= page_count()) return NoTuple(path_, rid);
  {
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard,
                              impl_->pool->FetchWrite(impl_->file_id, rid.page));
    SlottedPage page(guard.data());
    if (!page.Get(rid.slot)) return NoTuple(path_, rid);
    impl_->VmClear(rid.page);
    if (page.Update(rid.slot, tuple)) {
      impl_->NoteFree(rid.page, page.FreeSpaceForInsert());
      return rid;
    }
  }
  // Does not fit: move. The old page's latch is released first (one page latch at a time, so
  // no latch-order deadlock); a concurrent scan may briefly see both copies.
  MERIDIAN_ASSIGN_OR_RETURN(Rid moved, Insert(tuple));
  MERIDIAN_RETURN_IF_ERROR(Delete(rid));
  return moved;
}

Status HeapFile::Delete(Rid rid) {
  if (!impl_->open) return Closed(path_);
  if (rid.page >= page_count()) return NoTuple(path_, rid);
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard,
                            impl_->pool->FetchWrite(impl_->file_id, rid.page));
  SlottedPage page(guard.data());
  if (!page.Get(rid.slot)) return NoTuple(path_, rid);
  impl_->NoteRemoval(rid.page);
  if (!page.Delete(rid.slot)) return NoTuple(path_, rid);
  impl_->NoteFree(rid.page, page.FreeSpaceForInsert());
  return Status::Ok();
}

Result<TupleHeader> HeapFile::ReadHeader(Rid rid) {
  if (!impl_->open) return Closed(path_);
  if (rid.page >= page_count()) return NoTuple(path_, rid);
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard guard, impl_->pool->FetchRead(impl_->file_id, rid.page));
  SlottedPage page(const_cast<char*>(guard.data()));  // const use only
  auto bytes = page.Get(rid.slot);
  if (!bytes || bytes->size() < kTupleFixedHeaderSize) return NoTuple(path_, rid);
  return ReadTupleHeader(*bytes);
}

Result<TupleHeader> HeapFile::UpdateHeader(Rid rid, const std::function<bool(TupleHeader*)>& fn) {
  if (!impl_->open) return Closed(path_);
  if (rid.page >= page_count()) return NoTuple(path_, rid);
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard,
                            impl_->pool->FetchWrite(impl_->file_id, rid.page));
  SlottedPage page(guard.data());
  auto bytes = page.Get(rid.slot);
  if (!bytes || bytes->size() < kTupleFixedHeaderSize) return NoTuple(path_, rid);
  const TupleHeader before = ReadTupleHeader(*bytes);
  TupleHeader after = before;
  // The view points into the latched page: writing through it changes the page in place.
  if (fn(&after)) {
    impl_->VmClear(rid.page);
    WriteTupleHeader(const_cast<char*>(bytes->data()), after);
  }
  return before;
}

Result<size_t> HeapFile::SweepPage(uint32_t page_no,
                                   const std::function<SweepAction(TupleHeader*)>& fn) {
  if (!impl_->open) return Closed(path_);
  size_t live = 0;
  bool needs_write = false;
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard guard, impl_->pool->FetchRead(impl_->file_id, page_no));
    SlottedPage page(const_cast<char*>(guard.data()));  // const use only
    if (!page.IsInitialized()) return size_t{0};
    for (uint16_t slot = 0; slot < page.slot_count() && !needs_write; ++slot) {
      auto bytes = page.Get(slot);
      if (!bytes || bytes->size() < kTupleFixedHeaderSize) continue;
      TupleHeader h = ReadTupleHeader(*bytes);
      const SweepAction a = fn(&h);
      needs_write = a != SweepAction::kKeep;
      live += a == SweepAction::kKeep ? 1 : 0;
    }
  }
  if (!needs_write) return live;
  live = 0;
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard guard, impl_->pool->FetchWrite(impl_->file_id, page_no));
  SlottedPage page(guard.data());
  impl_->NoteRemoval(page_no);  // may remove; a spare bump only costs readers a heap check
  for (uint16_t slot = 0; slot < page.slot_count(); ++slot) {
    auto bytes = page.Get(slot);
    if (!bytes || bytes->size() < kTupleFixedHeaderSize) continue;
    TupleHeader h = ReadTupleHeader(*bytes);
    switch (fn(&h)) {
      case SweepAction::kKeep:
        ++live;
        break;
      case SweepAction::kChanged:
        WriteTupleHeader(const_cast<char*>(bytes->data()), h);
        ++live;
        break;
      case SweepAction::kRemove:
        page.Delete(slot);
        break;
    }
  }
  impl_->NoteFree(page_no, page.FreeSpaceForInsert());
  return live;
}

bool HeapFile::AllVisible(uint32_t page_no) const {
  const Impl::VmWord* w = impl_->VmFind(page_no);
  return w != nullptr && ((w->load(std::memory_order_acquire) >> (page_no % 64)) & 1) != 0;
}

Result<bool> HeapFile::MarkAllVisible(
    uint32_t page_no, const std::function<bool(const TupleHeader&)>& visible_to_all) {
  if (!impl_->open) return Closed(path_);
  if (page_no >= page_count()) return false;
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard guard, impl_->pool->FetchRead(impl_->file_id, page_no));
  if (AllVisible(page_no)) return true;
  SlottedPage page(const_cast<char*>(guard.data()));  // const use only
  if (!page.IsInitialized()) return false;
  for (uint16_t slot = 0; slot < page.slot_count(); ++slot) {
    auto bytes = page.Get(slot);
    if (!bytes) continue;
    if (bytes->size() < kTupleFixedHeaderSize || !visible_to_all(ReadTupleHeader(*bytes))) {
      return false;
    }
  }
  Impl::VmWord* w = impl_->VmGet(page_no);
  if (w == nullptr) return false;
  // Under the read latch: no writer holds the page between its clear and its change.
  w->fetch_or(uint64_t{1} << (page_no % 64), std::memory_order_acq_rel);
  return true;
}

uint64_t HeapFile::removal_epoch() const { return impl_->removals.load(std::memory_order_acquire); }

size_t HeapFile::all_visible_count() const {
  size_t n = 0;
  const Impl::VmChunk* dir = impl_->vm_dir.load(std::memory_order_acquire);
  if (dir == nullptr) return 0;
  for (uint32_t c = 0; c < Impl::kVmChunks; ++c) {
    const Impl::VmWord* words = dir[c].load(std::memory_order_acquire);
    if (words == nullptr) continue;
    for (uint32_t i = 0; i < Impl::kVmChunkWords; ++i) {
      n += static_cast<size_t>(std::popcount(words[i].load(std::memory_order_acquire)));
    }
  }
  return n;
}

Result<bool> HeapFile::Cursor::Next(Rid* rid, std::string* tuple) {
  if (heap_ == nullptr) return Status::Internal("cursor was not created by HeapFile::Scan");
  if (!heap_->impl_->open) return Closed(heap_->path_);
  for (;;) {
    if (page_ >= end_page_ || page_ >= heap_->page_count()) return false;
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard guard,
                              heap_->impl_->pool->FetchRead(heap_->impl_->file_id, page_));
    SlottedPage page(const_cast<char*>(guard.data()));  // const use only
    while (slot_ < page.slot_count()) {
      const auto slot = static_cast<uint16_t>(slot_++);
      if (auto bytes = page.Get(slot)) {
        *rid = Rid{page_, slot};
        tuple->assign(bytes->data(), bytes->size());
        return true;
      }
    }
    ++page_;
    slot_ = 0;
  }
}

Result<bool> HeapFile::Cursor::NextPage(PageTuples* out) {
  if (heap_ == nullptr) return Status::Internal("cursor was not created by HeapFile::Scan");
  if (!heap_->impl_->open) return Closed(heap_->path_);
  out->bytes.clear();
  out->offsets.assign(1, 0);
  out->slots.clear();
  for (;;) {
    if (page_ >= end_page_ || page_ >= heap_->page_count()) return false;
    {
      MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard guard,
                                heap_->impl_->pool->FetchRead(heap_->impl_->file_id, page_));
      SlottedPage page(const_cast<char*>(guard.data()));  // const use only
      out->page = page_;
      for (; slot_ < page.slot_count(); ++slot_) {
        const auto slot = static_cast<uint16_t>(slot_);
        if (auto bytes = page.Get(slot)) {
          out->bytes.append(bytes->data(), bytes->size());
          out->offsets.push_back(static_cast<uint32_t>(out->bytes.size()));
          out->slots.push_back(slot);
        }
      }
    }
    ++page_;
    slot_ = 0;
    if (!out->slots.empty()) return true;
  }
}

HeapFile::Cursor HeapFile::Scan() {
  Cursor cursor;
  cursor.heap_ = this;
  return cursor;
}

HeapFile::Cursor HeapFile::ScanPage(uint32_t page_no) {
  Cursor cursor;
  cursor.heap_ = this;
  cursor.page_ = page_no;
  cursor.end_page_ = page_no + 1;
  return cursor;
}

uint32_t HeapFile::page_count() const { return impl_->pool->PageCount(impl_->file_id); }

Status HeapFile::Flush() {
  if (!impl_->open) return Closed(path_);
  return impl_->pool->FlushFile(impl_->file_id);
}

uint32_t HeapFile::pool_file_id() const { return impl_->open ? impl_->file_id : 0; }

Status HeapFile::FlushPages(std::vector<uint32_t> pages) {
  if (!impl_->open) return Closed(path_);
  return impl_->pool->FlushPages(impl_->file_id, std::move(pages));
}

Status HeapFile::Close() {
  if (!impl_->open) return Status::Ok();
  MERIDIAN_RETURN_IF_ERROR(impl_->pool->UnregisterFile(impl_->file_id));
  impl_->open = false;
  return Status::Ok();
}

}  // namespace meridian::storage
