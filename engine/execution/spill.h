// SpillFile: rows an operator cannot keep in memory (work_mem), written once to a temporary
// file and read back in order. The file is unnamed (O_TMPFILE in the data directory's tmp/,
// or created and unlinked at once where O_TMPFILE is not supported), so it disappears when
// closed or when the process dies: nothing to clean up after a crash. Rows are encoded with
// their values' own kinds (no column types needed): a kind byte, then a fixed-size payload or
// a length and bytes; arrays recursively. One writer, then readers; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::exec {

class SpillFile {
 public:
  // A new empty file in dir (created if missing). 53100 when the disk is full, 58030 on other
  // I/O errors.
  static Result<std::unique_ptr<SpillFile>> Create(const std::string& dir);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends a row (buffered); Finish writes what is buffered. No Append after Finish.
  Status Append(const Row& row);
  Status Finish();
  uint64_t bytes() const { return size_; }

  // Reads the rows back in the order they were appended (after Finish); several readers may
  // read one file, each with its own position.
  class Reader {
   public:
    explicit Reader(const SpillFile* file) : file_(file) {}
    // The next row into *row; false at the end. XX001 if the bytes do not decode.
    Result<bool> Next(Row* row);

   private:
    Status Fill(size_t need);
    const SpillFile* file_;
    uint64_t offset_ = 0;  // file position of buffer_'s end
    std::string buffer_;
    size_t pos_ = 0;
  };

 private:
  SpillFile(int fd, std::string dir) : fd_(fd), dir_(std::move(dir)) {}
  Status Flush();

  int fd_;
  std::string dir_;
  std::string buffer_;
  uint64_t size_ = 0;  // bytes written to the file
};

// What a row held in memory costs, roughly (the vector, its values and their heap bytes): what
// operators count against work_mem.
size_t RowMemoryBytes(const Row& row);

// The work_mem of exec's session (64MB without settings; defined in sort.cc, which reads the
// session's settings), and whether exec can spill (it knows the catalog, hence the data
// directory's tmp/).
struct ExecContext;
size_t WorkMemBytes(const ExecContext* exec);
bool CanSpill(const ExecContext* exec);

// The encoding SpillFile uses, exposed for tests.
void EncodeSpillRow(const Row& row, std::string* out);
// Decodes one row at *pos of bytes (advancing it); false when bytes end before the row does.
Result<bool> DecodeSpillRow(std::string_view bytes, size_t* pos, Row* row);

}  // namespace meridian::exec
