// Sequences (CREATE SEQUENCE, SERIAL, identity columns): a named int64 counter handed out by
// nextval outside transactions, as PostgreSQL's sequences are (a rolled-back nextval is not
// undone). The definition (SequenceSchema) is a catalog.meta line; the counter lives in its
// own small file, data_dir/tables/<id>.seq, written ahead of the values handed out.
//
// Invariants
//   1. Crash safety (PostgreSQL's rule): no value is handed out before a state at or beyond it
//      is durable, so after kill -9 or a power cut a sequence never repeats a value. nextval
//      logs ahead by a chunk of values (32 at first, doubling up to 1024 while chunks are used
//      up within 100 ms), so one fdatasync serves many nextval calls; a crash skips at most the
//      rest of a chunk. Close (clean shutdown) and setval/RESTART write the exact state.
//   2. State file: two 64-byte slots at offsets 0 and 512 (separate sectors), written in turn:
//        magic "MSEQ" u32 | format 1 u32 | generation u64 | last_value i64 | is_called u8 |
//        7 pad bytes | crc32c of the preceding 32 bytes u32
//      Open takes the valid slot with the higher generation, so a torn write of one slot
//      leaves the other; neither valid is 22P04-style corruption (XX001).
//   3. Concurrency: each Sequence has its own mutex (mu_) guarding its state and file; no
//      catalog lock is taken by nextval. The schema pointer is replaced whole by ALTER
//      SEQUENCE under mu_.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "meridian/status.h"
#include "meridian/thread_annotations.h"
#include "meridian/value.h"
#include "storage/file.h"

namespace meridian::catalog {

struct SequenceSchema {
  uint32_t id = 0;  // in the relation id space (pg_class oid = 16384 + id)
  std::string name;
  std::string nsp = "public";     // its schema
  TypeId type = TypeId::kBigInt;  // AS smallint | integer | bigint
  int64_t increment = 1;
  int64_t min_value = 1;
  int64_t max_value = INT64_MAX;
  int64_t start = 1;
  int64_t cache = 1;  // stored and shown; values are handed out one at a time
  bool cycle = false;
  uint32_t owner_table = 0;  // OWNED BY: the table's id (0: none)
  int owner_column = -1;     // and the column's position
  char identity = 0;         // 'a' / 'd': the sequence of a GENERATED ALWAYS / BY DEFAULT column
};

class Sequence {
 public:
  // Opens (create: creates, holding START not yet called) tables/<id>.seq.
  static Result<std::shared_ptr<Sequence>> Open(storage::FileSystem* fs, const std::string& path,
                                                SequenceSchema schema, bool create);

  std::shared_ptr<const SequenceSchema> schema() const;
  // ALTER SCHEMA ... RENAME: the sequence's schema name changes (nothing on its file does).
  void set_nsp(const std::string& nsp);
  const std::string& path() const { return path_; }

  // nextval: 2200H when the sequence reached its limit without CYCLE.
  Result<int64_t> Next();
  // setval(v, is_called): 22003 outside [min, max].
  Status Set(int64_t value, bool is_called);
  // ALTER SEQUENCE: publishes schema (validated by the caller); restart (RESTART [WITH]) makes
  // the next nextval return *restart. The state is written and synced.
  Status Alter(SequenceSchema schema, const int64_t* restart);
  // last_value and is_called (SELECT * FROM seq, pg_sequences).
  std::pair<int64_t, bool> State() const;
  // Writes the exact state (clean shutdown: no values are skipped at the next start).
  Status Close();

 private:
  Sequence(std::string path, std::unique_ptr<storage::File> file, SequenceSchema schema);
  Status WriteStateLocked(int64_t value, bool is_called) REQUIRES(mu_);
  Status ReadState() REQUIRES(mu_);

  const std::string path_;
  mutable Mutex mu_;
  std::unique_ptr<storage::File> file_ GUARDED_BY(mu_);
  std::shared_ptr<const SequenceSchema> schema_ GUARDED_BY(mu_);
  int64_t last_value_ GUARDED_BY(mu_) = 1;
  bool is_called_ GUARDED_BY(mu_) = false;
  // Values after last_value_ covered by the durable state.
  int64_t logged_left_ GUARDED_BY(mu_) = 0;
  int64_t chunk_ GUARDED_BY(mu_) = 32;       // values logged ahead per write
  uint64_t generation_ GUARDED_BY(mu_) = 0;  // of the newest slot written
  std::chrono::steady_clock::time_point last_log_ GUARDED_BY(mu_){};
};

// The bounds of a sequence type: smallint, integer, bigint.
int64_t SequenceTypeMin(TypeId type);
int64_t SequenceTypeMax(TypeId type);

}  // namespace meridian::catalog
