// Doublewrite: torn-write protection for pages rewritten in place (docs/txn.md,
// "Torn writes"). Before a batch of pages that are already on disk is written over, their
// images go to data_dir/doublewrite and are fsynced; only then are they written in place. A
// crash that tears an in-place write leaves an intact copy here, and Recover puts it back at
// the next start. A page written for the first time needs no copy: before that write it held
// nothing durable.
//
// File layout: kAreas areas, batches taking them in turn. An area is a 64 KiB header — u32
// magic "MDW3", u32 count, u32 CRC32C of the rest, u64 batch number, then count entries (u32
// page number, u32 CRC32C of the image, u16 name length, the file's name relative to the data
// directory), then u32 record length and the record — then count 8 KiB images. The record is
// opaque here: a commit group's log record riding in the batch of its pages, so that one
// fdatasync makes the group durable (docs/txn.md section 4). It counts at recovery only
// when every image of its batch is intact. A batch overwrites an area only after the in-place
// writes of the batch before it in that area were synced (the buffer pool waits), so the areas
// hold the newest batches, and recovery writes each page's newest intact image: the newest
// content of that page. (Format 1, "MDWB" with one area and no number, and format 2, "MDW2"
// without records, are still recovered.)
// Concurrency: Stage is called under the buffer pool's doublewrite mutex (one batch at a time).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "storage/file.h"

namespace meridian::storage {

class Doublewrite {
 public:
  static constexpr size_t kMaxPages = 64;  // images per batch
  static constexpr int kAreas = 32;        // batches kept, oldest overwritten first

  // Opens (creating) the area at path; base_dir is what file names are stored relative to.
  static Result<std::unique_ptr<Doublewrite>> Open(FileSystem* fs, const std::string& path,
                                                   const std::string& base_dir);

  struct Image {
    const File* file;
    uint32_t page_no;
    const char* data;  // kPageSize bytes, checksum set
  };
  // Writes up to kMaxPages images to area next_area() and fsyncs it; the next batch goes to
  // the next area. With a record: it is written in the same header when it fits
  // (*embedded = true), so the fsync makes it durable with the images.
  Status Stage(const std::vector<Image>& images, std::string_view record = {},
               bool* embedded = nullptr);
  int next_area() const { return next_area_; }
  uint64_t pages_staged() const { return pages_staged_; }
  // Empties the area (durably). The staged batch's in-place writes are always synced by then
  // (WriteImages syncs before releasing the area), so nothing is lost; needed before a file is
  // replaced by a new one at the same path (TRUNCATE), whose pages the old images must never
  // overwrite at the next start.
  Status Clear();
  // Before pages of file are written in place without this area (a checkpoint's index image,
  // protected by its own journal): every image of them the areas hold is disabled (its entry's
  // checksum inverted, so Recover treats it as torn) and the file synced, so the next start
  // never writes one of those older images over the newer page.
  // REQUIRES: the in-place writes of the batches in AreasHolding(file, pages) are synced
  // first (a header rewrite torn by a crash loses its whole area).
  Status Forget(const File* file, const std::vector<uint32_t>& pages);
  std::vector<int> AreasHolding(const File* file, const std::vector<uint32_t>& pages) const;

  // Start-up repair: for each page the areas hold, its newest intact image (an older copy when
  // the newer is torn) is written over the page when the page differs (a torn or lost in-place
  // write), then each touched file is synced once. Then keep(records) is called with the
  // records of the batches whose images are all intact, oldest batch first, and must make
  // them durable elsewhere; only then are the areas cleared. Returns how many pages were
  // restored.
  using KeepRecords = std::function<Status(const std::vector<std::string>& records)>;
  static Result<size_t> Recover(FileSystem* fs, const std::string& path,
                                const std::string& base_dir, const KeepRecords& keep = {});

 private:
  Doublewrite(std::unique_ptr<File> file, std::string base_dir)
      : file_(std::move(file)), base_dir_(std::move(base_dir)) {}
  std::string RelativeName(const std::string& path) const;
  struct Entry {
    std::string name;  // relative to base_dir_
    uint32_t page_no = 0;
    uint32_t crc = 0;  // CRC32C of the image (inverted: disabled by Forget)
  };
  struct Area {
    uint64_t seq = 0;
    std::vector<Entry> entries;  // empty: the area holds no batch of this run
    std::string record;          // see Stage
  };
  // Writes area's header (magic, count, CRC, number, entries) at its place in the file.
  Status WriteHeader(int area);

  std::unique_ptr<File> file_;
  const std::string base_dir_;
  uint64_t pages_staged_ = 0;
  uint64_t seq_ = 0;  // number of the last batch staged (this run starts at 1 after Recover)
  int next_area_ = 0;
  Area areas_[kAreas];  // what each area holds (Recover cleared the batches of earlier runs)
};

}  // namespace meridian::storage
