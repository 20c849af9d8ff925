// HeapFile: a table's rows in 8 KiB slotted pages of one file, cached by the shared BufferPool.
// Concurrency: all methods are safe to call from several threads at once (page latches through
// page guards; free-space choice under an internal mutex). A Cursor sees every row that existed
// when it started and was not deleted before it reached it; rows inserted during a scan may or
// may not be seen. (Snapshot isolation comes with MVCC in engine/txn.)
// CONTRACT shared by engine/storage (implements) and the query layers (use): keep signatures
// stable.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "storage/tuple.h"

namespace meridian::storage {

class BufferPool;

inline constexpr size_t kPageSize = 8192;

// Row id: page number in the file and slot in the page.
struct Rid {
  uint32_t page = 0;
  uint16_t slot = 0;
  friend bool operator==(const Rid&, const Rid&) = default;
};

// Whether st is the error of a row id that names no tuple (Get, UpdateHeader): a slot past the
// page's slots, e.g. one of a heap that TRUNCATE has since replaced.
bool IsNoTuple(const Status& st);

class HeapFile {
 public:
  // Largest tuple Insert/Update accept; larger ones fail with 54000 "row is too big".
  static size_t MaxTupleSize();

  // Opens the heap file at path, creating it when absent; pages are cached in *pool, which
  // must outlive the HeapFile.
  static Result<std::unique_ptr<HeapFile>> Open(BufferPool* pool, const std::string& path);
  ~HeapFile();

  Result<Rid> Insert(std::string_view tuple);
  // Reads the tuple at rid into *tuple;
  // error XX000 if the slot is empty or out of range.
  Status Get(Rid rid, std::string* tuple);
  // Replaces the tuple at rid: in place when it fits in its page, else the tuple moves and the
  // new rid is returned.
  Result<Rid> Update(Rid rid, std::string_view tuple);
  Status Delete(Rid rid);

  // MVCC header of the tuple at rid (tuple.h TupleHeader).
  Result<TupleHeader> ReadHeader(Rid rid);
  // Read-modify-write of the tuple's MVCC header under the page's exclusive latch: fn sees the
  // current header and returns true to store its (changed) argument. Returns the header as it
  // was before. fn must not block (it runs under a page latch).
  Result<TupleHeader> UpdateHeader(Rid rid, const std::function<bool(TupleHeader*)>& fn);

  // Whole-page pass over the MVCC headers of page_no (recovery, bulk maintenance): fn decides
  // per tuple to keep it as is, store its changed header, or remove it. The page is read first
  // and latched for writing (so dirtied) only when some tuple needs a change. Returns the
  // tuples left on the page.
  enum class SweepAction { kKeep, kChanged, kRemove };
  Result<size_t> SweepPage(uint32_t page_no, const std::function<SweepAction(TupleHeader*)>& fn);

  // A copy of the live tuples of one page, in slot order (Cursor::NextPage): tuple i is
  // bytes[offsets[i] .. offsets[i + 1]) at Rid{page, slots[i]}.
  struct PageTuples {
    uint32_t page = 0;
    std::string bytes;
    std::vector<uint32_t> offsets;  // size() + 1 entries
    std::vector<uint16_t> slots;
    size_t size() const { return slots.size(); }
    std::string_view tuple(size_t i) const {
      return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]);
    }
    Rid rid(size_t i) const { return Rid{page, slots[i]}; }
  };

  class Cursor {
   public:
    // Next live tuple in (page, slot) order; false at the end.
    Result<bool> Next(Rid* rid, std::string* tuple);
    // The rest of the current page (all of the next one when a page was finished) that holds
    // live tuples, copied under one read latch (one pin for the page instead of one per row);
    // false at the end. out's buffers are reused. May be mixed with Next.
    Result<bool> NextPage(PageTuples* out);

   private:
    friend class HeapFile;
    HeapFile* heap_ = nullptr;
    uint32_t page_ = 0;
    uint32_t slot_ = 0;
    uint32_t end_page_ = UINT32_MAX;  // exclusive
  };
  Cursor Scan();
  // The tuples of one page only (recovery's index catch-up).
  Cursor ScanPage(uint32_t page_no);

  uint32_t page_count() const;
  // Writes this file's dirty pages and fsyncs it.
  Status Flush();
  // Writes those of pages that are dirty and fsyncs the file.
  Status FlushPages(std::vector<uint32_t> pages);
  // The buffer pool's id of this file (BufferPool::FlushGroupPages); 0 once closed.
  uint32_t pool_file_id() const;
  // Flushes, then detaches the file from the pool and closes it.
  Status Close();

  const std::string& path() const { return path_; }

  // Visibility map (README "Visibility map"): one in-memory bit per page, "every version on the
  // page is visible to every running and future snapshot". Starts all clear at Open; every
  // write method above clears the page's bit under the page's exclusive latch before it
  // changes the page. Readers may test it without a latch (acquire).
  bool AllVisible(uint32_t page_no) const;
  // Sets page_no's bit when the page is initialized and visible_to_all holds for the header of
  // every tuple on it, all checked under the page's read latch (so no writer is between its
  // clear and its change). Returns whether the bit is set afterwards.
  Result<bool> MarkAllVisible(uint32_t page_no,
                              const std::function<bool(const TupleHeader&)>& visible_to_all);
  // Bumped (before the slot goes) by every removal of a tuple (Delete, Update's move, a
  // SweepPage removal): an index entry read before the bump may name a slot freed and perhaps
  // reused since, so a reader that sees the value change trusts no bit for such entries.
  uint64_t removal_epoch() const;
  // Pages whose bit is set (tests, EXPLAIN-free diagnostics).
  size_t all_visible_count() const;

 private:
  HeapFile() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
};

}  // namespace meridian::storage
