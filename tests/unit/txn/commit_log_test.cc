// CommitLog: record codec, group commit under many concurrent committers (fewer records than
// commits), the write-behind hook running before the record, recovery after reopen, torn and
// garbage tails, checkpoint rotation, and a failing fdatasync poisoning the log.
#include "txn/commit_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <set>
#include <thread>

#include "storage/fault_injection_file_system.h"
#include "temp_dir.h"

namespace meridian::txn {
namespace {

using testutil::TempDir;

TEST(CommitLogRecord, RoundTripAndRejects) {
  LogRecord r;
  r.commits = {{kTxnIdBit | 1, 10}, {kTxnIdBit | 2, 11}};
  r.stamps = {{3, 40, 7, kTxnIdBit | 2}};
  r.pages = {uint64_t{3} << 32 | 40, uint64_t{3} << 32 | 41};
  std::string bytes = EncodeLogRecord(r);
  size_t off = 0;
  LogRecord back;
  ASSERT_TRUE(DecodeLogRecord(bytes, &off, &back));
  EXPECT_EQ(off, bytes.size());
  EXPECT_EQ(back.type, LogRecord::Type::kGroupPages);
  EXPECT_EQ(back.commits, r.commits);
  EXPECT_EQ(back.stamps, r.stamps);
  EXPECT_EQ(back.pages, r.pages);
  // The older group record without a page list still reads (recovery then sweeps every page).
  LogRecord old = r;
  old.type = LogRecord::Type::kGroup;
  const std::string old_bytes = EncodeLogRecord(old);
  off = 0;
  ASSERT_TRUE(DecodeLogRecord(old_bytes, &off, &back));
  EXPECT_EQ(back.type, LogRecord::Type::kGroup);
  EXPECT_TRUE(back.pages.empty());
  EXPECT_EQ(back.stamps, r.stamps);
  // Every truncation and every single-byte change is rejected.
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    off = 0;
    EXPECT_FALSE(DecodeLogRecord(bytes.substr(0, cut), &off, &back)) << cut;
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    off = 0;
    EXPECT_FALSE(DecodeLogRecord(bad, &off, &back)) << i;
  }
}

TEST(CommitLog, GroupCommitRecoversAfterReopen) {
  TempDir dir;
  storage::FileSystem& fs = *storage::FileSystem::Default();
  std::set<uint64_t> committed;
  std::atomic<int> hook_calls{0};
  {
    TxnManager tm;
    CommitLogOptions opts;
    opts.segment_bytes = 1 << 16;
    opts.group_window_us = 200;
    auto log = CommitLog::Open(&fs, dir.path(), &tm, opts, [&](const std::vector<uint64_t>& pages, std::string_view,
                                                         const std::function<Status()>&, bool*) {
      // Write-behind: runs before the record with the group's pages, sorted and unique.
      EXPECT_TRUE(std::is_sorted(pages.begin(), pages.end()));
      EXPECT_EQ(std::adjacent_find(pages.begin(), pages.end()), pages.end());
      for (uint64_t p : pages) EXPECT_EQ(p >> 32, 7u);
      ++hook_calls;
      return Status::Ok();
    });
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    std::mutex mu;
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 50; ++i) {
          uint64_t id = tm.Begin();
          auto ts = (*log)->Commit(id, {{1, static_cast<uint32_t>(i), 1, id}},
                                   {uint64_t{7} << 32 | static_cast<uint32_t>(i)});
          ASSERT_TRUE(ts.ok());
          EXPECT_EQ(tm.Resolve(id), *ts);
          EXPECT_GE(tm.published_ts(), *ts);
          std::lock_guard lock(mu);
          committed.insert(id);
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(committed.size(), 800u);
    // Concurrent committers share records (group commit).
    EXPECT_LT((*log)->records_written(), 800u);
    EXPECT_EQ(static_cast<uint64_t>(hook_calls.load()), (*log)->records_written());
  }
  TxnManager tm2;
  auto log2 = CommitLog::Open(&fs, dir.path(), &tm2, {}, nullptr);
  ASSERT_TRUE(log2.ok());
  size_t recovered = 0, stamps = 0;
  std::set<uint64_t> pages;
  for (const LogRecord& r : (*log2)->recovered()) {
    if (!r.is_group()) continue;
    recovered += r.commits.size();
    stamps += r.stamps.size();
    pages.insert(r.pages.begin(), r.pages.end());
  }
  EXPECT_EQ(recovered, 800u);
  EXPECT_EQ(stamps, 800u);
  // Each record names the pages of its group's new versions (recovery stamps only these).
  EXPECT_EQ(pages.size(), 50u);
  for (uint64_t id : committed) EXPECT_EQ(tm2.State(id), TxnState::kCommitted);
  // New ids and timestamps continue after the recovered ones.
  EXPECT_GT(tm2.Begin(), *committed.rbegin());
}

TEST(CommitLog, TornTailIsAGroupThatNeverCommitted) {
  TempDir dir;
  storage::FileSystem& fs = *storage::FileSystem::Default();
  uint64_t first = 0, second = 0;
  {
    TxnManager tm;
    auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
    ASSERT_TRUE(log.ok());
    first = tm.Begin();
    ASSERT_TRUE((*log)->Commit(first, {}).ok());
    second = tm.Begin();
    ASSERT_TRUE((*log)->Commit(second, {}).ok());
  }
  // Tear the second record: keep its first bytes, garbage after.
  const std::string path = dir.path() + "/commit.log";
  {
    auto f = fs.Open(path, false);
    ASSERT_TRUE(f.ok());
    LogRecord start, group;
    start.type = LogRecord::Type::kStart;
    start.commits = {{1, 0}};
    group.commits = {{first, 1}};
    const size_t two = EncodeLogRecord(start).size() + EncodeLogRecord(group).size();
    ASSERT_TRUE((*f)->WriteAt(two + 10, std::string(5, '\x7f')).ok());
  }
  TxnManager tm;
  auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(tm.State(first), TxnState::kCommitted);
  EXPECT_EQ(tm.State(second), TxnState::kAborted);
  // The log keeps working after the torn record; the new commit survives another reopen.
  uint64_t third = tm.Begin();
  ASSERT_TRUE((*log)->Commit(third, {}).ok());
  log->reset();
  TxnManager tm3;
  ASSERT_TRUE(CommitLog::Open(&fs, dir.path(), &tm3, {}, nullptr).ok());
  EXPECT_EQ(tm3.State(third), TxnState::kCommitted);
  EXPECT_EQ(tm3.State(second), TxnState::kAborted);
  EXPECT_NE(third, second);  // a new run never reuses an id the crashed run handed out
}

TEST(CommitLog, CheckpointLeavesOnlyTheTail) {
  TempDir dir;
  storage::FileSystem& fs = *storage::FileSystem::Default();
  uint64_t late = 0;
  {
    TxnManager tm;
    auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
    ASSERT_TRUE(log.ok());
    for (int i = 0; i < 20; ++i) ASSERT_TRUE((*log)->Commit(tm.Begin(), {}).ok());
    ASSERT_TRUE((*log)->Checkpoint().ok());
    late = tm.Begin();
    ASSERT_TRUE((*log)->Commit(late, {}).ok());
  }
  TxnManager tm;
  auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
  ASSERT_TRUE(log.ok());
  // The checkpoint, then the group written after it; the start records of the runs before the
  // checkpoint are gone with the rest.
  std::vector<LogRecord::Type> types;
  for (const LogRecord& r : (*log)->recovered()) types.push_back(r.type);
  EXPECT_EQ(types, (std::vector<LogRecord::Type>{LogRecord::Type::kCheckpoint,
                                                 LogRecord::Type::kGroupPages}));
  EXPECT_EQ(tm.State(late), TxnState::kCommitted);
}

TEST(CommitLog, FailedSyncAbortsTheGroupAndPoisonsTheLog) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  TxnManager tm;
  auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
  ASSERT_TRUE(log.ok());
  uint64_t ok_txn = tm.Begin();
  ASSERT_TRUE((*log)->Commit(ok_txn, {}).ok());
  fs.SetFailSyncs(true);
  uint64_t lost = tm.Begin();
  auto r = (*log)->Commit(lost, {});
  EXPECT_EQ(r.status().sqlstate(), "58030");
  EXPECT_EQ(tm.State(lost), TxnState::kAborted);
  fs.SetFailSyncs(false);
  uint64_t after = tm.Begin();
  EXPECT_FALSE((*log)->Commit(after, {}).ok());
  EXPECT_EQ(tm.State(after), TxnState::kAborted);
  EXPECT_EQ(tm.State(ok_txn), TxnState::kCommitted);
}

TEST(CommitLog, AFullDiskAbortsTheGroupAndCommitsResumeWhenSpaceReturns) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  CommitLogOptions options;
  options.segment_bytes = 1;  // every record grows the file, so a full disk refuses it
  uint64_t before = 0, lost = 0, async = 0, after = 0;
  {
    TxnManager tm;
    auto log = CommitLog::Open(&fs, dir.path(), &tm, options, nullptr);
    ASSERT_TRUE(log.ok());
    before = tm.Begin();
    ASSERT_TRUE((*log)->Commit(before, {}).ok());
    // An asynchronous commit is published at once and owed to the log.
    async = tm.Begin();
    ASSERT_TRUE((*log)->Commit(async, {}, {}, /*sync=*/false).ok());
    fs.SetDiskFull(true);
    lost = tm.Begin();
    auto r = (*log)->Commit(lost, {});
    EXPECT_EQ(r.status().sqlstate(), sqlstate::kDiskFull);
    EXPECT_EQ(tm.State(lost), TxnState::kAborted);
    fs.SetDiskFull(false);
    after = tm.Begin();
    EXPECT_TRUE((*log)->Commit(after, {}).ok());
    EXPECT_EQ(tm.State(after), TxnState::kCommitted);
  }
  TxnManager tm;
  auto log = CommitLog::Open(&fs, dir.path(), &tm, options, nullptr);
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(tm.State(before), TxnState::kCommitted);
  EXPECT_EQ(tm.State(async), TxnState::kCommitted);  // written with the group after the failure
  EXPECT_EQ(tm.State(after), TxnState::kCommitted);
  EXPECT_NE(tm.State(lost), TxnState::kCommitted);
}

TEST(CommitLog, StartsAndCheckpointsOnADiskWithoutRoomForAPreallocationStep) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  TxnManager tm;
  fs.SetDiskFull(true);  // no room to preallocate 64 MiB, or anything else
  auto refused = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().sqlstate(), sqlstate::kDiskFull);
  fs.SetDiskFull(false);
  fs.SetFileSizeLimit(uint64_t{1} << 20);  // room for 1 MiB, not a 64 MiB step
  auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
  ASSERT_TRUE(log.ok()) << log.status().message();
  uint64_t id = tm.Begin();
  EXPECT_TRUE((*log)->Commit(id, {}).ok());
  EXPECT_TRUE((*log)->Checkpoint().ok());
}

TEST(CommitLog, HookFailureAbortsTheGroup) {
  TempDir dir;
  storage::FileSystem& fs = *storage::FileSystem::Default();
  TxnManager tm;
  bool fail = true;
  auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, [&](const std::vector<uint64_t>&, std::string_view,
                                                         const std::function<Status()>&, bool*) {
    return fail ? Status::IOError("disk full") : Status::Ok();
  });
  ASSERT_TRUE(log.ok());
  uint64_t id = tm.Begin();
  EXPECT_FALSE((*log)->Commit(id, {}).ok());
  EXPECT_EQ(tm.State(id), TxnState::kAborted);
  EXPECT_EQ((*log)->records_written(), 0u);
}

// One sync per group: a hook that makes the record durable with the pages (as the doublewrite
// batch does) gets the log's append, which does not sync. A crash that loses that append
// loses nothing once AdoptRecords gives the log what the batch kept; records a checkpoint
// covered, or the log already names, are not adopted.
TEST(CommitLog, RecordsTheFlushMadeDurableAreAdoptedAfterALostAppend) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  std::vector<std::string> kept;  // what the doublewrite area would hold
  auto hook = [&](const std::vector<uint64_t>&, std::string_view record,
                  const std::function<Status()>& append, bool* durable) {
    kept.emplace_back(record);
    *durable = true;
    return append();
  };
  uint64_t before_checkpoint = 0, lost = 0;
  {
    TxnManager tm;
    auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, hook);
    ASSERT_TRUE(log.ok());
    before_checkpoint = tm.Begin();
    ASSERT_TRUE((*log)->Commit(before_checkpoint, {}, {uint64_t{3} << 32 | 1}).ok());
    ASSERT_TRUE((*log)->Checkpoint().ok());  // covers it; nothing carried
    lost = tm.Begin();
    ASSERT_TRUE((*log)->Commit(lost, {{3, 1, 2, lost}}, {uint64_t{3} << 32 | 1}).ok());
    fs.SetFailSyncs(true);  // the crash: the unsynced append never reaches the disk
  }
  ASSERT_TRUE(fs.DropUnsyncedData().ok());
  fs.SetFailSyncs(false);
  {
    TxnManager tm;
    ASSERT_TRUE(CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr).ok());
    EXPECT_NE(tm.State(lost), TxnState::kCommitted);  // the log alone lost it
  }
  ASSERT_EQ(kept.size(), 2u);
  ASSERT_TRUE(CommitLog::AdoptRecords(&fs, dir.path(), kept).ok());
  ASSERT_TRUE(CommitLog::AdoptRecords(&fs, dir.path(), kept).ok());  // a second start: no-op
  TxnManager tm;
  auto log = CommitLog::Open(&fs, dir.path(), &tm, {}, nullptr);
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(tm.State(lost), TxnState::kCommitted);
  EXPECT_NE(tm.State(before_checkpoint), TxnState::kCommitted);  // covered: not re-applied
  int groups = 0;
  for (const LogRecord& r : (*log)->recovered()) {
    if (!r.is_group()) continue;
    ++groups;
    EXPECT_EQ(r.stamps, (std::vector<EndStamp>{{3, 1, 2, lost}}));
    EXPECT_EQ(r.pages, (std::vector<uint64_t>{uint64_t{3} << 32 | 1}));
  }
  EXPECT_EQ(groups, 1);
}

}  // namespace
}  // namespace meridian::txn
