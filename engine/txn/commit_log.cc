// CommitLog: record codec, recovery scan, the group-commit thread and log rotation (see
// commit_log.h).
#include "txn/commit_log.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <set>

#include "storage/crc32c.h"

namespace meridian::txn {

namespace {

constexpr uint32_t kMagic = 0x4C42574D;  // "MWBL" little-endian
constexpr size_t kHeader = 12;
constexpr uint32_t kMaxPayload = 64u << 20;

template <typename T>
void Put(std::string* out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

template <typename T>
bool Get(std::string_view in, size_t* pos, T* v) {
  if (in.size() - *pos < sizeof(T) || *pos > in.size()) return false;
  T x = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    x |= static_cast<T>(static_cast<uint8_t>(in[*pos + i])) << (8 * i);
  }
  *pos += sizeof(T);
  *v = x;
  return true;
}

// The log's first size bytes (it is read whole: it holds the tail since the last checkpoint).
Result<std::string> ReadWhole(storage::File* file, uint64_t size) {
  std::string bytes(size, '\0');
  size_t read = 0;
  if (size > 0) MERIDIAN_RETURN_IF_ERROR(file->ReadAt(0, size, bytes.data(), &read));
  bytes.resize(read);
  return bytes;
}

}  // namespace

std::string EncodeLogRecord(const LogRecord& record) {
  std::string payload;
  payload.push_back(static_cast<char>(record.type));
  Put<uint32_t>(&payload, static_cast<uint32_t>(record.commits.size()));
  for (const auto& [txn, ts] : record.commits) {
    Put<uint64_t>(&payload, txn);
    Put<uint64_t>(&payload, ts);
  }
  Put<uint32_t>(&payload, static_cast<uint32_t>(record.stamps.size()));
  for (const EndStamp& s : record.stamps) {
    Put<uint32_t>(&payload, s.file);
    Put<uint32_t>(&payload, s.page);
    Put<uint16_t>(&payload, s.slot);
    Put<uint64_t>(&payload, s.txn);
  }
  if (record.type == LogRecord::Type::kGroupPages) {
    Put<uint32_t>(&payload, static_cast<uint32_t>(record.pages.size()));
    for (uint64_t page : record.pages) Put<uint64_t>(&payload, page);
  }
  if (record.type == LogRecord::Type::kCheckpoint) Put<uint64_t>(&payload, record.covered_ts);
  std::string out;
  Put<uint32_t>(&out, kMagic);
  Put<uint32_t>(&out, static_cast<uint32_t>(payload.size()));
  Put<uint32_t>(&out, storage::Crc32c(payload.data(), payload.size()));
  out += payload;
  return out;
}

bool DecodeLogRecord(std::string_view bytes, size_t* offset, LogRecord* record) {
  size_t pos = *offset;
  uint32_t magic = 0, length = 0, crc = 0;
  if (!Get(bytes, &pos, &magic) || magic != kMagic || !Get(bytes, &pos, &length) ||
      !Get(bytes, &pos, &crc) || length > kMaxPayload || bytes.size() - pos < length) {
    return false;
  }
  std::string_view payload = bytes.substr(pos, length);
  if (storage::Crc32c(payload.data(), payload.size()) != crc) return false;
  size_t p = 0;
  uint8_t type = 0;
  uint32_t n = 0, m = 0;
  LogRecord r;
  if (!Get(payload, &p, &type) || type < 1 || type > 4 || !Get(payload, &p, &n)) return false;
  if (n > payload.size() / 16) return false;
  r.type = static_cast<LogRecord::Type>(type);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t txn = 0, ts = 0;
    if (!Get(payload, &p, &txn) || !Get(payload, &p, &ts)) return false;
    r.commits.emplace_back(txn, ts);
  }
  if (!Get(payload, &p, &m) || m > payload.size() / 18) return false;
  for (uint32_t i = 0; i < m; ++i) {
    EndStamp s;
    if (!Get(payload, &p, &s.file) || !Get(payload, &p, &s.page) || !Get(payload, &p, &s.slot) ||
        !Get(payload, &p, &s.txn)) {
      return false;
    }
    r.stamps.push_back(s);
  }
  if (r.type == LogRecord::Type::kGroupPages) {
    uint32_t k = 0;
    if (!Get(payload, &p, &k) || k > payload.size() / 8) return false;
    r.pages.resize(k);
    for (uint32_t i = 0; i < k; ++i) {
      if (!Get(payload, &p, &r.pages[i])) return false;
    }
  }
  if (r.type == LogRecord::Type::kCheckpoint && payload.size() - p == 8) {
    if (!Get(payload, &p, &r.covered_ts)) return false;
  }
  if (p != payload.size()) return false;
  *record = std::move(r);
  *offset = pos + length;
  return true;
}

CommitLog::CommitLog(storage::FileSystem* fs, std::string dir, TxnManager* txns,
                     CommitLogOptions options, FlushHook flush)
    : fs_(fs),
      dir_(std::move(dir)),
      path_(dir_ + "/" + kCommitLogFile),
      txns_(txns),
      options_(options),
      flush_(std::move(flush)) {}

Result<std::unique_ptr<CommitLog>> CommitLog::Open(storage::FileSystem* fs, const std::string& dir,
                                                   TxnManager* txns, CommitLogOptions options,
                                                   FlushHook flush) {
  std::unique_ptr<CommitLog> log(new CommitLog(fs, dir, txns, options, std::move(flush)));
  MERIDIAN_RETURN_IF_ERROR(log->Recover());
  log->thread_ = std::thread([raw = log.get()] { raw->Run(); });
  return log;
}

CommitLog::~CommitLog() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  (void)SyncAppended();
}

Status CommitLog::Recover() {
  MERIDIAN_RETURN_IF_ERROR(ReadTail());
  // A new id epoch, durable before any transaction of this run can write a version.
  ++epoch_;
  txns_->SetEpoch(epoch_);
  LogRecord start;
  start.type = LogRecord::Type::kStart;
  start.commits = {{epoch_, txns_->published_ts()}};
  return Append(EncodeLogRecord(start), /*sync=*/true, 0);
}

Status CommitLog::AdoptRecords(storage::FileSystem* fs, const std::string& dir,
                               const std::vector<std::string>& records) {
  if (records.empty()) return Status::Ok();
  const std::string path = dir + "/" + kCommitLogFile;
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file, fs->Open(path, true));
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  MERIDIAN_ASSIGN_OR_RETURN(std::string bytes, ReadWhole(file.get(), size));
  size_t end = 0;
  LogRecord record;
  std::set<uint64_t> known;  // transactions the log names
  Timestamp covered = 0;     // the last checkpoint's
  while (DecodeLogRecord(bytes, &end, &record)) {
    if (record.type == LogRecord::Type::kCheckpoint) {
      covered = record.covered_ts;
      for (size_t i = 1; i < record.commits.size(); ++i) known.insert(record.commits[i].first);
    } else if (record.is_group()) {
      for (const auto& [txn, ts] : record.commits) known.insert(txn);
    }
  }
  std::string adopted;
  for (const std::string& blob : records) {
    size_t offset = 0;
    while (DecodeLogRecord(blob, &offset, &record)) {
      if (!record.is_group() || record.commits.empty()) continue;
      // Before the checkpoint: its effects are in the checkpointed pages, and its end stamps
      // may name slots reused since. Named by the log: nothing lost.
      if (record.commits.back().second <= covered) continue;
      if (known.count(record.commits.front().first) != 0) continue;
      for (const auto& [txn, ts] : record.commits) known.insert(txn);
      adopted += EncodeLogRecord(record);
    }
  }
  if (adopted.empty()) return Status::Ok();
  const uint64_t new_end = end + adopted.size();
  if (new_end > size) MERIDIAN_RETURN_IF_ERROR(file->Allocate(size, new_end - size));
  // Followed by zeros, so no stale bytes of a torn record can read as one after them.
  if (size > new_end) adopted += std::string(std::min<uint64_t>(64 << 10, size - new_end), '\0');
  MERIDIAN_RETURN_IF_ERROR(file->WriteAt(end, adopted));
  return file->Sync();
}

Status CommitLog::ReadTail() {
  std::lock_guard file_lock(file_mu_);
  MERIDIAN_ASSIGN_OR_RETURN(file_, fs_->Open(path_, true));
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file_->Size());
  MERIDIAN_ASSIGN_OR_RETURN(std::string bytes, ReadWhole(file_.get(), size));
  size_t offset = 0;
  LogRecord record;
  while (DecodeLogRecord(bytes, &offset, &record)) {
    if (record.is_group()) {
      for (const auto& [txn, ts] : record.commits) txns_->RecoverCommitted(txn, ts);
    } else if (!record.commits.empty()) {
      epoch_ = std::max(epoch_, record.commits[0].first);
      txns_->AdvanceClock(record.commits[0].second);
      // A checkpoint carries the commits not yet stamped into pages after its epoch pair.
      if (record.type == LogRecord::Type::kCheckpoint) {
        for (size_t i = 1; i < record.commits.size(); ++i) {
          txns_->RecoverCommitted(record.commits[i].first, record.commits[i].second);
        }
      }
    }
    recovered_.push_back(std::move(record));
  }
  // Everything after the last valid record is a torn or never-written tail: zero it so a
  // later reader cannot mistake stale bytes for records.
  end_ = offset;
  allocated_ = size;
  if (offset < size) {
    MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(offset, std::string(size - offset, '\0')));
    MERIDIAN_RETURN_IF_ERROR(file_->Sync());
  }
  return Status::Ok();
}

Status CommitLog::Reserve(uint64_t bytes) {
  std::lock_guard file_lock(file_mu_);
  if (end_ + bytes > allocated_) {
    // Preallocate a whole step; on a disk without room for one, just what this record needs.
    const uint64_t need = end_ + bytes - allocated_;
    uint64_t grow = std::max<uint64_t>(options_.segment_bytes, need);
    Status st = file_->Allocate(allocated_, grow);
    if (storage::IsDiskFull(st) && grow > need) {
      grow = need;
      st = file_->Allocate(allocated_, grow);
    }
    MERIDIAN_RETURN_IF_ERROR(st);
    allocated_ += grow;
  }
  return Status::Ok();
}

Status CommitLog::Append(const std::string& bytes, bool sync, Timestamp last_ts) {
  MERIDIAN_RETURN_IF_ERROR(Reserve(bytes.size()));
  std::lock_guard file_lock(file_mu_);
  MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(end_, bytes));
  end_ += bytes.size();
  appended_ts_ = std::max(appended_ts_, last_ts);
  unsynced_ = true;
  if (sync) {
    MERIDIAN_RETURN_IF_ERROR(file_->Sync());
    unsynced_ = false;
  }
  return Status::Ok();
}

Status CommitLog::SyncAppended(std::string_view unappended) {
  if (!unappended.empty()) {
    MERIDIAN_RETURN_IF_ERROR(Reserve(unappended.size()));
    std::lock_guard file_lock(file_mu_);
    MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(end_, unappended));
    end_ += unappended.size();
    unsynced_ = true;
  }
  std::lock_guard file_lock(file_mu_);
  if (!unsynced_) return Status::Ok();
  MERIDIAN_RETURN_IF_ERROR(file_->Sync());
  unsynced_ = false;
  return Status::Ok();
}

Result<Timestamp> CommitLog::Commit(uint64_t txn, std::vector<EndStamp> stamps,
                                    std::vector<uint64_t> pages, bool sync,
                                    std::vector<uint64_t> depends_on) {
  Pending p;
  p.txn = txn;
  p.sync = sync;
  p.stamps = std::move(stamps);
  p.pages = std::move(pages);
  p.depends_on = std::move(depends_on);
  std::unique_lock lock(mu_);
  if (!poisoned_.ok()) {
    lock.unlock();
    txns_->Abort(txn);
    return poisoned_;
  }
  queue_.push_back(&p);
  cv_.notify_one();
  done_cv_.wait(lock, [&] { return p.done; });
  if (!p.status.ok()) return p.status;
  return p.ts;
}

void CommitLog::CommitAsync(uint64_t txn, std::vector<EndStamp> stamps, std::vector<uint64_t> pages,
                            bool sync, std::vector<uint64_t> depends_on, CommitDone done) {
  auto p = std::make_unique<Pending>();
  p->txn = txn;
  p->sync = sync;
  p->stamps = std::move(stamps);
  p->pages = std::move(pages);
  p->depends_on = std::move(depends_on);
  p->on_done = std::move(done);
  std::unique_lock lock(mu_);
  if (!poisoned_.ok()) {
    Status poisoned = poisoned_;
    lock.unlock();
    txns_->Abort(txn);
    p->on_done(poisoned);
    return;
  }
  queue_.push_back(p.release());  // freed by Complete
  cv_.notify_one();
}

void CommitLog::Complete(const std::vector<Pending*>& members, const Status& st) {
  std::vector<Pending*> async;
  {
    std::lock_guard lock(mu_);
    for (Pending* p : members) {
      p->status = st;
      p->done = true;
      if (p->on_done) async.push_back(p);
    }
  }
  // A Commit caller may return and free its Pending from here on; CommitAsync's are ours.
  done_cv_.notify_all();
  for (Pending* p : async) {
    std::unique_ptr<Pending> owned(p);
    if (owned->status.ok()) {
      owned->on_done(owned->ts);
    } else {
      owned->on_done(owned->status);
    }
  }
}

void CommitLog::Run() {
  while (true) {
    std::vector<Pending*> group;
    bool flush_deferred = false;
    {
      std::unique_lock lock(mu_);
      if (deferred_records_.empty()) {
        cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      } else {
        // Asynchronous commits wait for durability at most async_window_ms.
        flush_deferred = !cv_.wait_for(lock, std::chrono::milliseconds(options_.async_window_ms),
                                       [&] { return stop_ || !queue_.empty(); });
        flush_deferred = flush_deferred || stop_;
      }
      if (queue_.empty() && stop_ && deferred_records_.empty()) return;
      if (!queue_.empty() && options_.group_window_us > 0) {
        cv_.wait_for(lock, std::chrono::microseconds(options_.group_window_us),
                     [&] { return stop_; });
      }
      group.assign(queue_.begin(), queue_.end());
      queue_.clear();
    }
    // Early lock release: every transaction a member depends on was in an earlier group,
    // which has been published or aborted by now. Members built on a failed commit fail.
    std::vector<Pending*> doomed;
    for (Pending*& p : group) {
      for (uint64_t d : p->depends_on) {
        if (!txns_->FailedCommit(d)) continue;
        txns_->Abort(p->txn);
        doomed.push_back(p);
        p = nullptr;
        break;
      }
    }
    if (!doomed.empty()) {
      group.erase(std::remove(group.begin(), group.end(), nullptr), group.end());
      Complete(doomed, Status::Error(sqlstate::kSerializationFailure,
                                     "could not serialize access due to concurrent update")
                           .WithDetail("A transaction whose changes this one built on failed to "
                                       "commit."));
      if (group.empty() && !flush_deferred) continue;
    }
    // Ends the group for its members (they may return and free their Pending at once).
    bool finished = false;
    auto finish = [&](const Status& st) {
      if (finished) return;
      finished = true;
      if (st.ok() && !group.empty()) {
        std::lock_guard lock(mu_);
        records_ += 1;
      }
      Complete(group, st);
    };
    LogRecord record;
    std::vector<uint64_t> ids;
    std::vector<uint64_t> pages;
    bool sync = flush_deferred;
    for (Pending* p : group) {
      p->ts = txns_->AssignCommitTs(p->txn);
      ids.push_back(p->txn);
      record.commits.emplace_back(p->txn, p->ts);
      record.stamps.insert(record.stamps.end(), p->stamps.begin(), p->stamps.end());
      pages.insert(pages.end(), p->pages.begin(), p->pages.end());
      sync = sync || p->sync;
    }
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    record.pages = pages;
    Status st;
    if (!sync) {
      // Every member is asynchronous: publish now, make durable later (with the next
      // synchronous group or when the window ends), records in timestamp order.
      deferred_records_ += EncodeLogRecord(record);
      deferred_ts_ = record.commits.back().second;
      deferred_pages_.insert(deferred_pages_.end(), pages.begin(), pages.end());
      txns_->Publish(ids);
    } else {
      pages.insert(pages.end(), deferred_pages_.begin(), deferred_pages_.end());
      std::sort(pages.begin(), pages.end());
      pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
      std::string bytes = std::move(deferred_records_);
      deferred_records_.clear();
      const size_t deferred_size = bytes.size();
      std::vector<uint64_t> deferred_pages = std::move(deferred_pages_);
      deferred_pages_.clear();
      if (!ids.empty()) bytes += EncodeLogRecord(record);
      const Timestamp last_ts = ids.empty() ? deferred_ts_ : record.commits.back().second;
      // The group is committed once its record is durable and in the log (synced or not):
      // either the doublewrite batch of its pages carried it (one fdatasync) and it was
      // appended right after, or it is appended and synced after the pages.
      bool appended = false, durable = false;
      auto append = [&] {
        Status s = Append(bytes, /*sync=*/false, last_ts);
        appended = s.ok();
        // Committed: the record is durable in the doublewrite batch and in the log. The
        // members go on now; the pool's in-place rewrites of the batch's pages follow on this
        // thread, off their path.
        if (appended) {
          txns_->Publish(ids);
          finish(Status::Ok());
        }
        return s;
      };
      st = Reserve(bytes.size());
      if (st.ok() && flush_) st = flush_(pages, bytes, append, &durable);
      if (st.ok() && !durable) {
        st = Append(bytes, /*sync=*/true, last_ts);
        appended = st.ok();
      }
      if (appended || durable) {
        // A failure after that (the append, an in-place page rewrite) leaves the group
        // committed; it poisons the log below. A record whose append failed stays in its
        // doublewrite area until the pool appends it (SyncAppended).
        if (!finished) txns_->Publish(ids);
        deferred_ts_ = 0;
      } else {
        for (uint64_t id : ids) txns_->Abort(id);
        // The published asynchronous commits stay owed to the log: the next group writes them.
        bytes.resize(deferred_size);
        deferred_records_ = std::move(bytes);
        deferred_pages_ = std::move(deferred_pages);
      }
      std::lock_guard lock(mu_);
      bytes_ += appended || durable ? bytes.size() : 0;
      if (!st.ok() && poisoned_.ok() && (durable || !storage::IsDiskFull(st))) {
        // A full disk before the group was durable wrote nothing that counts (the record's
        // bytes fail their checksum, pages of aborted versions are never visible): later
        // groups retry. Any other failure, a failed fsync above all, leaves the log's durable
        // state unknown.
        poisoned_ = Status::IOError("commit log is unusable after a failed write: " + st.message());
      }
      if (appended || durable) st = Status::Ok();
    }
    finish(st);
  }
}

uint64_t CommitLog::CheckpointStart() {
  std::lock_guard file_lock(file_mu_);
  checkpoint_covered_ts_ = appended_ts_;
  return end_;
}

Status CommitLog::Checkpoint() { return Checkpoint(CheckpointStart(), {}); }

Status CommitLog::Checkpoint(uint64_t start,
                             const std::vector<std::pair<uint64_t, Timestamp>>& carried) {
  std::lock_guard file_lock(file_mu_);
  const std::string tmp = path_ + ".tmp";
  LogRecord checkpoint;
  checkpoint.type = LogRecord::Type::kCheckpoint;
  checkpoint.commits = {{epoch_, txns_->published_ts()}};
  checkpoint.commits.insert(checkpoint.commits.end(), carried.begin(), carried.end());
  checkpoint.covered_ts = checkpoint_covered_ts_;
  std::string bytes = EncodeLogRecord(checkpoint);
  if (start < end_) {  // the records written since the checkpoint began stay
    std::string tail(end_ - start, '\0');
    size_t read = 0;
    MERIDIAN_RETURN_IF_ERROR(file_->ReadAt(start, tail.size(), tail.data(), &read));
    if (read != tail.size()) return Status::IOError("short read of " + path_);
    bytes += tail;
  }
  const uint64_t size = std::max<uint64_t>(options_.segment_bytes, bytes.size());
  {
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> f, fs_->Open(tmp, true));
    MERIDIAN_RETURN_IF_ERROR(f->Truncate(0));
    Status st = f->Allocate(0, size);
    if (storage::IsDiskFull(st)) st = f->Allocate(0, bytes.size());  // a small disk
    MERIDIAN_RETURN_IF_ERROR(st);                                    // the old log stays in force
    MERIDIAN_RETURN_IF_ERROR(f->WriteAt(0, bytes));
    MERIDIAN_RETURN_IF_ERROR(f->Sync());
  }
  MERIDIAN_RETURN_IF_ERROR(fs_->Rename(tmp, path_));
  MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(dir_));
  MERIDIAN_ASSIGN_OR_RETURN(file_, fs_->Open(path_, false));
  end_ = bytes.size();
  unsynced_ = false;
  MERIDIAN_ASSIGN_OR_RETURN(allocated_, file_->Size());
  return Status::Ok();
}

uint64_t CommitLog::bytes_written() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

uint64_t CommitLog::records_written() const {
  std::lock_guard lock(mu_);
  return records_;
}

}  // namespace meridian::txn
