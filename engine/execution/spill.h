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
#include <vector>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::exec {

class SpillFile {
 public:
  // A new empty file in dir (created if missing), writing and reading buffer_bytes at a time.
  // 53100 when the disk is full, 58030 on other I/O errors.
  static constexpr size_t kBufferBytes = size_t{256} << 10;
  static Result<std::unique_ptr<SpillFile>> Create(const std::string& dir,
                                                   size_t buffer_bytes = kBufferBytes);
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
  SpillFile(int fd, std::string dir, size_t buffer_bytes)
      : fd_(fd), dir_(std::move(dir)), buffer_bytes_(buffer_bytes) {}
  Status Flush();

  int fd_;
  std::string dir_;
  size_t buffer_bytes_;
  std::string buffer_;
  uint64_t size_ = 0;  // bytes written to the file
};

// Rows a hash table had no room for (work_mem), set aside by a hash of their key and handed
// back file by file (PostgreSQL 13's hash aggregation spill): 16 files per level, the file of a
// row picked by 4 bits of its hash, the next 4 bits at the next level, so the rows spilled
// while a file is read back are split further. Rows of one key always meet in one file. Used
// by HashAggregateOp and DistinctOp (one side), HashJoinOp and SetOpOp (two sides: a partition
// is a pair of files, build and probe rows of the same hash bits); one thread.
class HashSpill {
 public:
  static constexpr int kBits = 4;
  static constexpr size_t kFiles = size_t{1} << kBits;
  static constexpr uint32_t kMaxLevel = 64 / kBits;
  // A file's write buffer: up to 2 * kFiles files fill at once, so smaller than a sort run's.
  static constexpr size_t kFileBuffer = size_t{64} << 10;

  explicit HashSpill(std::string dir = {}, size_t sides = 1)
      : dir_(std::move(dir)), sides_(sides) {}
  // Sets the row aside on side (< sides) (53200 past 16 levels: keys whose hashes never split).
  Status Add(const Row& row, uint64_t hash, size_t side = 0);
  // The input of the current level is over: its files wait their turn.
  Status EndInput();
  // One side: the next waiting file (null when none); rows Add sets aside from now on go one
  // level below that file's.
  Result<std::unique_ptr<SpillFile>> Next();
  // Several sides: the next waiting partition, one file per side (null for a side that got no
  // row); false when none is left. Then as Next.
  Result<bool> NextPartition(std::vector<std::unique_ptr<SpillFile>>* files);
  bool empty() const { return waiting_.empty() && files_.empty(); }
  // The level rows Add sets aside now go to; kMaxLevel: Add would fail.
  uint32_t level() const { return level_; }
  uint64_t batches() const { return batches_; }  // 1 + files (partitions) taken by Next
  uint64_t disk_bytes() const { return disk_bytes_; }

 private:
  struct Waiting {
    std::vector<std::unique_ptr<SpillFile>> files;  // one per side
    uint32_t level;  // the level its rows were split at
  };
  std::string dir_;
  size_t sides_;
  uint32_t level_ = 0;
  // kFiles * sides_ while rows are set aside: partition p's side s at p * sides_ + s.
  std::vector<std::unique_ptr<SpillFile>> files_;
  std::vector<Waiting> waiting_;  // a stack: the deepest files first
  uint64_t batches_ = 1;
  uint64_t disk_bytes_ = 0;
};

// A 64-bit hash with every input bit moving every output bit (splitmix64's finalizer), for
// picking a HashSpill file from a key's hash or an integer key.
uint64_t MixHash(uint64_t x);

// bytes as EXPLAIN ANALYZE prints them: "NkB", rounded up (Memory Usage, Disk Usage, ...).
std::string KbText(uint64_t bytes);

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
