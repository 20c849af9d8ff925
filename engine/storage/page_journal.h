// PageJournal: an all-or-nothing write of many page images (the index checkpoint of
// docs/txn.md section 5). Write puts every image into one file and fdatasyncs it;
// only then does the caller write the images in place. A crash during the in-place writes
// leaves a complete journal, and Recover writes all of it again at the next start; a crash
// during Write leaves an incomplete one (bad checksum), which Recover ignores — the files
// still hold the previous complete state. So the set of pages moves from one state to the
// next as a unit, unlike the doublewrite area, which repairs pages one by one.
//
// File layout (little-endian): u32 magic "MPJ1" · u32 count · u64 byte length of the body ·
// u32 CRC32C of the body · body = count × (u32 page number, u16 name length, the file's name
// relative to the data directory, the 8 KiB image). An all-zero header is an empty journal.
// Concurrency: none; the caller serialises Write (checkpoints run one at a time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meridian/status.h"
#include "storage/file.h"

namespace meridian::storage {

class PageJournal {
 public:
  struct Image {
    std::string path;  // the page's file (absolute, or relative to base_dir)
    uint32_t page_no = 0;
    const char* data = nullptr;  // kPageSize bytes, page number and checksum set
  };
  // Writes images to the journal at path as one unit and fdatasyncs it.
  static Status Write(FileSystem* fs, const std::string& path, const std::string& base_dir,
                      const std::vector<Image>& images);
  // Start-up: when path holds a complete journal, writes each image over its page where the
  // page differs (images of files that no longer exist are skipped), syncs those files, then
  // empties the journal. Returns the number of pages written: 0 for an absent, empty or
  // incomplete journal, or one whose in-place writes had all completed.
  static Result<size_t> Recover(FileSystem* fs, const std::string& path,
                                const std::string& base_dir);
};

}  // namespace meridian::storage
