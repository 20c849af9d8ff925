// CommitLog: write-behind logging's commit record file and the group-commit thread (design:
// docs/txn.md section 4). Committers call Commit(), which blocks until their group is
// durable (or CommitAsync, whose callback the committer thread calls then): the committer
// thread takes every queued transaction (waiting up to the group window), assigns commit
// timestamps, runs the write-behind hook (the caller flushes the pages holding the group's new
// versions), appends ONE record for the group and fdatasyncs the log,
// then publishes the group in the TxnManager and wakes its committers.
//
// File data_dir/commit.log, preallocated in segments. Record, little-endian:
//   u32 magic 0x4C42574D ("MWBL") · u32 payload length · u32 CRC32C of the payload · payload
// Payload: u8 type (1 group, 2 checkpoint, 3 start, 4 group with pages) · u32 n ·
//          n × (u64 txn id, u64 commit ts) ·
//          u32 m · m × (u32 file, u32 page, u16 slot, u64 txn id)   [end stamps]
//          type 4 only: u32 k · k × (u32 page, u32 file)   [pages holding the group's new
//          versions, as u64 file << 32 | page; recovery stamps and indexes exactly these]
// Groups are written as type 4; type 1 (written by older builds) is still read, and a log
// tail holding one makes recovery sweep every heap page (docs/txn.md section 5).
// Start and checkpoint records carry the id epoch and the clock as their first pair
// (epoch, last timestamp handed out); a checkpoint's further pairs are the committed
// transactions not yet stamped into pages. Every Open
// writes a start record with a new epoch and transaction ids carry it (TxnManager::SetEpoch),
// so an id a crashed run handed out (its versions may be on disk, never committed) is never
// handed out again.
// A checkpoint record ends with u64 covered_ts: the newest commit timestamp whose record lay
// before the checkpoint's start (absent in logs of older builds: 0).
// One fdatasync per group: the record rides in the doublewrite batch of the group's pages
// (BufferPool::FlushGroupPages) and is appended here unsynced; the log is synced before that
// doublewrite area is reused (BufferPool::SetRecordSync → SyncAppended). At start-up,
// AdoptRecords appends the records only the doublewrite area kept.
// Recovery reads records from the start and stops at the first one that is incomplete, has a
// bad checksum or a zero magic (the preallocated, never-written tail): a torn last write is
// simply a group that never committed. Checkpoint() rewrites the file as one checkpoint record
// (atomically: new file, fsync, rename, fsync dir), so recovery reads only what came after the
// last checkpoint.
// Concurrency: Commit() from any thread; one committer thread owns the file; mu_ guards the
// queue and the poisoned flag.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "meridian/status.h"
#include "storage/file.h"
#include "txn/txn_manager.h"

namespace meridian::txn {

// The log's file name inside the data directory.
inline constexpr const char* kCommitLogFile = "commit.log";

// An end stamp a committed transaction left on an old version (README section 4, step 4).
struct EndStamp {
  uint32_t file = 0;
  uint32_t page = 0;
  uint16_t slot = 0;
  uint64_t txn = 0;
  friend bool operator==(const EndStamp&, const EndStamp&) = default;
};

struct LogRecord {
  enum class Type : uint8_t { kGroup = 1, kCheckpoint = 2, kStart = 3, kGroupPages = 4 };
  Type type = Type::kGroupPages;
  std::vector<std::pair<uint64_t, Timestamp>> commits;  // (txn id, commit ts)
  std::vector<EndStamp> stamps;
  std::vector<uint64_t> pages;  // kGroupPages: file << 32 | page, sorted, unique
  Timestamp covered_ts = 0;     // kCheckpoint: see the file comment
  bool is_group() const { return type == Type::kGroup || type == Type::kGroupPages; }
};

std::string EncodeLogRecord(const LogRecord& record);
// Decodes the record at bytes[*offset...]; advances *offset. false at the end of the valid log
// (incomplete, bad magic/checksum/shape).
bool DecodeLogRecord(std::string_view bytes, size_t* offset, LogRecord* record);

struct CommitLogOptions {
  uint64_t segment_bytes = 64ull << 20;  // preallocation step
  int64_t group_window_us = 0;           // extra wait for more committers; 0 = none
  // Asynchronous commits are made durable at least this often (their loss window).
  int64_t async_window_ms = 200;
};

class CommitLog {
 public:
  // Write-behind hook: makes the group's new versions durable before its record is written.
  // pages: what the group's committers passed to Commit, merged, sorted and unique. record:
  // the group's encoded record(s); when the hook makes them durable with the pages (one
  // doublewrite batch) it sets *durable and calls append right then (the log appends them
  // without a sync); otherwise the log appends and syncs them after the hook.
  using FlushHook =
      std::function<Status(const std::vector<uint64_t>& pages, std::string_view record,
                           const std::function<Status()>& append, bool* durable)>;

  // Start-up, before Open: appends to dir/commit.log (synced) the group records of records
  // (encoded records, oldest first, as the doublewrite area kept them) that the log lost: not
  // covered by its last checkpoint and of transactions it does not name.
  static Status AdoptRecords(storage::FileSystem* fs, const std::string& dir,
                             const std::vector<std::string>& records);

  // Opens (creating) dir/commit.log, reads every valid record (recovered()), and registers the
  // committed transactions in *txns. Starts the committer thread.
  static Result<std::unique_ptr<CommitLog>> Open(storage::FileSystem* fs, const std::string& dir,
                                                 TxnManager* txns, CommitLogOptions options,
                                                 FlushHook flush);
  ~CommitLog();  // stops the committer after the queue drains

  const std::vector<LogRecord>& recovered() const { return recovered_; }

  // Commits txn (with the end stamps it left) and returns its commit timestamp once durable
  // and published. On a full disk (53100) the group is aborted and later groups try again;
  // on any other log write/sync failure the group is aborted (58030) and the log is
  // poisoned: every later Commit fails too (acknowledged commits stay durable).
  // pages: opaque page references for the flush hook (the pages holding txn's new versions).
  // sync = false (asynchronous commit): returns once the commit is published, before it is
  // durable; it becomes durable with the next synchronous group or within async_window_ms
  // (a crash loses at most that window; never a later commit without an earlier one).
  // depends_on: committing transactions whose effects txn acted on (early lock release); if
  // one of them failed to commit, so does txn (40001), before it gets a timestamp.
  Result<Timestamp> Commit(uint64_t txn, std::vector<EndStamp> stamps,
                           std::vector<uint64_t> pages = {}, bool sync = true,
                           std::vector<uint64_t> depends_on = {});
  // Commit without waiting: queues txn as Commit does and returns at once; done is called
  // exactly once with what Commit would have returned, on the committer thread once the group
  // is durable and published (or failed), or on this thread when the log is already unusable.
  // done must not block (it runs on the committer's path): it hands the result on.
  using CommitDone = std::function<void(Result<Timestamp>)>;
  void CommitAsync(uint64_t txn, std::vector<EndStamp> stamps, std::vector<uint64_t> pages,
                   bool sync, std::vector<uint64_t> depends_on, CommitDone done);
  // Fuzzy checkpoint, in two calls around the caller's page flush: CheckpointStart returns
  // the log position before which every record's effects will be in the flushed pages;
  // Checkpoint(start, carried) then replaces the log by one checkpoint record carrying the
  // still-needed commits (transactions not yet stamped into pages) and the records written
  // since start. Checkpoint() = both with nothing carried (everything flushed, all stamped).
  uint64_t CheckpointStart();
  Status Checkpoint(uint64_t start, const std::vector<std::pair<uint64_t, Timestamp>>& carried);
  Status Checkpoint();
  // Bytes appended to the log since Open (the benchmark's write volume).
  uint64_t bytes_written() const;

  uint64_t records_written() const;
  // Appends unappended (records a doublewrite batch made durable whose append failed), then
  // syncs records appended without a sync (BufferPool::SetRecordSync's hook). Any thread.
  Status SyncAppended(std::string_view unappended = {});
  uint64_t groups_written() const { return records_written(); }

 private:
  struct Pending {
    uint64_t txn = 0;
    bool sync = true;
    std::vector<EndStamp> stamps;
    std::vector<uint64_t> pages;
    std::vector<uint64_t> depends_on;
    bool done = false;
    Status status;
    Timestamp ts = 0;
    CommitDone on_done;  // CommitAsync: called (and the Pending freed) when done
  };
  // Marks the members done under mu_, wakes Commit's waiters, then calls and frees the members
  // of CommitAsync (outside mu_).
  void Complete(const std::vector<Pending*>& members, const Status& st);
  CommitLog(storage::FileSystem* fs, std::string dir, TxnManager* txns, CommitLogOptions options,
            FlushHook flush);
  Status Recover();   // ReadTail, then a start record with a new epoch
  Status ReadTail();  // every valid record; zeroes the torn or unwritten tail
  // Appends (last_ts: the newest commit timestamp in bytes), synced or not. Committer thread,
  // or Open. Reserve preallocates room first (a full disk fails here, before anything is
  // durable).
  Status Append(const std::string& bytes, bool sync, Timestamp last_ts);
  Status Reserve(uint64_t bytes);
  void Run();

  storage::FileSystem* const fs_;
  const std::string dir_;
  const std::string path_;
  TxnManager* const txns_;
  const CommitLogOptions options_;
  const FlushHook flush_;
  std::vector<LogRecord> recovered_;
  uint64_t epoch_ = 0;

  // Committer thread state (no lock: only it and Open/Checkpoint under checkpoint_mu_).
  std::mutex file_mu_;
  std::unique_ptr<storage::File> file_;  // guarded by file_mu_
  uint64_t end_ = 0;                     // guarded by file_mu_: append offset
  uint64_t allocated_ = 0;               // guarded by file_mu_
  bool unsynced_ = false;                // guarded by file_mu_: appends since the last sync
  Timestamp appended_ts_ = 0;            // guarded by file_mu_: newest ts appended
  Timestamp checkpoint_covered_ts_ = 0;  // guarded by file_mu_: appended_ts_ at CheckpointStart

  mutable std::mutex mu_;
  std::condition_variable cv_;       // committer: work arrived / stop
  std::condition_variable done_cv_;  // committers: their group finished
  std::deque<Pending*> queue_;       // guarded by mu_
  bool stop_ = false;                // guarded by mu_
  Status poisoned_;                  // guarded by mu_
  uint64_t records_ = 0;             // guarded by mu_
  uint64_t bytes_ = 0;               // guarded by mu_
  // Published asynchronous groups not yet durable (committer thread only).
  std::string deferred_records_;
  std::vector<uint64_t> deferred_pages_;
  Timestamp deferred_ts_ = 0;  // newest commit timestamp in deferred_records_
  std::thread thread_;
};

}  // namespace meridian::txn
