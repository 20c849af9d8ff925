// Table runtime state: usability checks, index building, statistics (ANALYZE) and closing.
#include "catalog/table.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <optional>
#include <random>

#include "catalog/key_text.h"
#include "storage/key_codec.h"
#include "storage/tuple.h"

namespace meridian::catalog {

namespace {

// ANALYZE looks at every row of small tables and at a uniform sample of this many rows of
// larger ones (PostgreSQL samples 300 x default_statistics_target = 30,000 rows).
constexpr size_t kAnalyzeSampleRows = 30000;

ColumnStats ComputeColumnStats(std::vector<std::pair<std::string, Value>>& values,
                               size_t sample_rows, uint64_t total_rows) {
  ColumnStats cs;
  if (sample_rows == 0) return cs;
  cs.null_frac = 1.0 - static_cast<double>(values.size()) / static_cast<double>(sample_rows);
  if (values.empty()) return cs;
  std::sort(values.begin(), values.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double distinct = 0, singles = 0;
  for (size_t i = 0; i < values.size();) {
    size_t j = i + 1;
    while (j < values.size() && values[j].first == values[i].first) ++j;
    ++distinct;
    if (j - i == 1) ++singles;
    i = j;
  }
  const double n = static_cast<double>(sample_rows);
  const double total = static_cast<double>(total_rows);
  if (sample_rows < total_rows && singles < values.size()) {
    // Haas and Stokes' Duj1 estimator, as PostgreSQL's analyze.c uses it.
    distinct = n * distinct / (n - singles + singles * n / total);
  } else if (sample_rows < total_rows) {
    distinct = total * (1.0 - cs.null_frac);  // every sampled value was unique
  }
  cs.distinct = distinct;
  const size_t buckets = std::min<size_t>(TableStats::kBuckets, values.size());
  for (size_t b = 0; b <= buckets; ++b) {
    size_t at = std::min(values.size() - 1, b * (values.size() - 1) / std::max<size_t>(1, buckets));
    cs.bounds.push_back(values[at].second);
  }
  return cs;
}

}  // namespace

Table::Table(std::shared_ptr<const TableSchema> schema, std::unique_ptr<storage::HeapFile> heap)
    : heap_(std::move(heap)) {
  versions_.push_back(
      std::make_unique<const SchemaVersion>(SchemaVersion{schema, schema->Types()}));
  current_.store(versions_.back().get(), std::memory_order_release);
}

Table::Table(std::shared_ptr<const TableSchema> schema, std::vector<Row> rows)
    : system_rows_(std::make_unique<const std::vector<Row>>(std::move(rows))) {
  versions_.push_back(
      std::make_unique<const SchemaVersion>(SchemaVersion{schema, schema->Types()}));
  current_.store(versions_.back().get(), std::memory_order_release);
  live_rows_.store(static_cast<int64_t>(system_rows_->size()), std::memory_order_relaxed);
}

void Table::SetSchema(TableSchema schema) {
  auto shared = std::make_shared<const TableSchema>(std::move(schema));
  MutexLock lock(versions_mu_);
  versions_.push_back(
      std::make_unique<const SchemaVersion>(SchemaVersion{shared, shared->Types()}));
  current_.store(versions_.back().get(), std::memory_order_release);
  version_.fetch_add(1, std::memory_order_acq_rel);
  MutexLock stats_lock(stats_mu_);
  stats_.reset();
}

Status Table::DecodeRow(std::string_view bytes, Row* row, const std::vector<bool>* needed) const {
  const SchemaVersion* v = current_.load(std::memory_order_acquire);
  MERIDIAN_RETURN_IF_ERROR(storage::DecodeStoredTuple(bytes, v->types, row, needed));
  for (size_t c = row->size(); c < v->types.size(); ++c) {
    row->push_back(v->schema->columns[c].missing);
  }
  return Status::Ok();
}

bool Table::IsDeadVersion(const storage::TupleHeader& h) const {
  if (txns_ == nullptr) return false;
  if (txn::IsTxnId(h.begin) && txns_->State(h.begin) == txn::TxnState::kAborted) return true;
  const bool lock_mark = (h.flags & storage::kTupleFlagLockOnly) != 0;
  return h.end != 0 && !lock_mark && txns_->Resolve(h.end) != txn::kInfinity;
}

Table::~Table() { (void)CloseHeap(false); }

Status Table::CheckUsable() const {
  if (heap_ != nullptr || system_rows_ != nullptr) return Status::Ok();
  if (dropped_) {
    return Status::Error(sqlstate::kUndefinedTable, "relation \"" + name() + "\" was dropped");
  }
  return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
}

std::vector<std::shared_ptr<Index>> Table::IndexSnapshot() const {
  std::lock_guard lock(indexes_mu_);
  return indexes_;
}

void Table::AddIndex(std::shared_ptr<Index> index) {
  std::lock_guard lock(indexes_mu_);
  indexes_.push_back(std::move(index));
}

std::shared_ptr<Index> Table::RemoveIndex(const std::string& name) {
  std::lock_guard lock(indexes_mu_);
  for (auto it = indexes_.begin(); it != indexes_.end(); ++it) {
    if ((*it)->name() == name) {
      std::shared_ptr<Index> index = *it;
      indexes_.erase(it);
      return index;
    }
  }
  return nullptr;
}

Status Table::BuildIndex(Index* index) {
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  if (index->schema().IsRtree()) return BuildRTreeIndex(index);
  struct Entry {
    std::string key, rid;
    bool has_null;
  };
  std::vector<Entry> entries;
  // Every version gets an entry (older snapshots and running transactions read them); only
  // versions that are not dead — creator not aborted, no committed deleter — count for
  // uniqueness.
  MERIDIAN_RETURN_IF_ERROR(
      ForEachVersion([&](storage::Rid rid, const storage::TupleHeader& h, const Row& row) {
        if (txns_ != nullptr && txn::IsTxnId(h.begin) &&
            txns_->State(h.begin) == txn::TxnState::kAborted) {
          return Status::Ok();
        }
        const bool dead = IsDeadVersion(h);
        MERIDIAN_ASSIGN_OR_RETURN(bool covered, index->Covers(row));
        if (!covered) return Status::Ok();  // a partial index's predicate rejects the row
        MERIDIAN_ASSIGN_OR_RETURN(std::string key, index->EncodeKey(row));
        MERIDIAN_ASSIGN_OR_RETURN(bool has_null, index->KeyHasNull(row));
        entries.push_back({std::move(key), EncodeRid(rid), has_null || dead});
        return Status::Ok();
      }));
  auto less = [](const Entry& a, const Entry& b) {
    const int c = a.key.compare(b.key);
    return c != 0 ? c < 0 : a.rid < b.rid;
  };
  // Heap order is often nearly key order (ascending keys appended, a few rows updated): keep
  // the ascending run, sort only what breaks it, then merge — linear for such heaps.
  if (!std::is_sorted(entries.begin(), entries.end(), less)) {
    std::vector<Entry> run, rest;
    run.reserve(entries.size());
    for (Entry& e : entries) {
      if (run.empty() || !less(e, run.back())) {
        run.push_back(std::move(e));
      } else {
        rest.push_back(std::move(e));
      }
    }
    std::sort(rest.begin(), rest.end(), less);
    entries.clear();
    std::merge(std::make_move_iterator(run.begin()), std::make_move_iterator(run.end()),
               std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()),
               std::back_inserter(entries), less);
  }
  if (index->schema().unique) {
    const Entry* last = nullptr;  // the last entry that counts for uniqueness
    for (size_t i = 0; i < entries.size(); ++i) {
      // NULLs are distinct in a unique index, as in PostgreSQL; dead versions do not count.
      if (entries[i].has_null) continue;
      if (last == nullptr || entries[i].key != last->key) {
        last = &entries[i];
        continue;
      }
      std::string bytes;
      Row row;
      MERIDIAN_RETURN_IF_ERROR(heap_->Get(DecodeRid(entries[i].rid), &bytes));
      MERIDIAN_RETURN_IF_ERROR(DecodeRow(bytes, &row));
      MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, index->KeyValues(row));
      return Status::Error(sqlstate::kUniqueViolation,
                           "could not create unique index \"" + index->name() + "\"")
          .WithDetail("Key (" + KeyColumnNames(index->schema()) + ")=(" + KeyToText(values) +
                      ") is duplicated.");
    }
  }
  size_t pos = 0;
  return index->tree()->BulkBuild([&](std::string* key, std::string* value) -> Result<bool> {
    if (pos == entries.size()) return false;
    *key = std::move(entries[pos].key);
    *value = std::move(entries[pos].rid);
    ++pos;
    return true;
  });
}

Status Table::BuildRTreeIndex(Index* index) {
  // As BuildIndex: every version but those of aborted transactions, packed by
  // Sort-Tile-Recursive; a row with a NULL coordinate has no entry.
  std::vector<std::pair<storage::Box, storage::Rid>> entries;
  MERIDIAN_RETURN_IF_ERROR(
      ForEachVersion([&](storage::Rid rid, const storage::TupleHeader& h, const Row& row) {
        if (txns_ != nullptr && txn::IsTxnId(h.begin) &&
            txns_->State(h.begin) == txn::TxnState::kAborted) {
          return Status::Ok();
        }
        storage::Box box;
        if (index->RowPoint(row, &box)) entries.emplace_back(box, rid);
        return Status::Ok();
      }));
  return index->rtree()->BulkLoad(entries.size(),
                                  [&](size_t i, storage::Box* box, storage::Rid* rid) {
                                    *box = entries[i].first;
                                    *rid = entries[i].second;
                                  });
}

std::string Table::KeyColumnNames(const IndexSchema& index) const {
  std::string names;
  for (size_t k = 0; k < index.columns.size(); ++k) {
    if (k > 0) names += ", ";
    if (index.columns[k] != kExpressionKey) {
      names += schema().columns[index.columns[k]].name;
    } else if (index.compiled != nullptr) {
      names += index.compiled->Display(k, /*pretty=*/true);
    }
  }
  return names;
}

Status Table::ForEachRow(const std::function<Status(storage::Rid, const Row&)>& fn) {
  if (txns_ == nullptr || system_rows_ != nullptr) {
    return ForEachVersion([&](storage::Rid rid, const storage::TupleHeader&, const Row& row) {
      return fn(rid, row);
    });
  }
  const txn::Snapshot snapshot = txns_->TakeSnapshot(0);
  return ForEachVersion([&](storage::Rid rid, const storage::TupleHeader& h, const Row& row) {
    if (!txns_->Visible(h.begin, storage::DeletingEnd(h), snapshot)) return Status::Ok();
    return fn(rid, row);
  });
}

Status Table::ForEachVersion(
    const std::function<Status(storage::Rid, const storage::TupleHeader&, const Row&)>& fn) {
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  if (system_rows_ != nullptr) {
    for (const Row& row : *system_rows_) {
      MERIDIAN_RETURN_IF_ERROR(fn(storage::Rid{}, storage::TupleHeader{}, row));
    }
    return Status::Ok();
  }
  storage::HeapFile::Cursor cursor = heap_->Scan();
  storage::Rid rid;
  std::string bytes;
  Row row;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.Next(&rid, &bytes));
    if (!more) return Status::Ok();
    MERIDIAN_RETURN_IF_ERROR(DecodeRow(bytes, &row));
    MERIDIAN_RETURN_IF_ERROR(fn(rid, storage::ReadTupleHeader(bytes), row));
  }
}

namespace {
uint64_t PackRid(storage::Rid r) { return uint64_t{r.page} << 16 | r.slot; }
storage::Rid UnpackRid(uint64_t v) {
  return {static_cast<uint32_t>(v >> 16), static_cast<uint16_t>(v & 0xffff)};
}
}  // namespace

void Table::NoteSuccessor(storage::Rid old_rid, storage::Rid new_rid, uint64_t updater) {
  MutexLock lock(successors_mu_);
  successors_[PackRid(old_rid)] = {PackRid(new_rid), updater};
}

std::optional<storage::Rid> Table::Successor(storage::Rid old_rid) const {
  MutexLock lock(successors_mu_);
  auto it = successors_.find(PackRid(old_rid));
  if (it == successors_.end()) return std::nullopt;
  return UnpackRid(it->second.first);
}

void Table::PruneSuccessors(txn::Timestamp horizon) {
  if (txns_ == nullptr) return;
  MutexLock lock(successors_mu_);
  for (auto it = successors_.begin(); it != successors_.end();) {
    uint64_t& who = it->second.second;  // the updater's id, or its commit timestamp
    if (txn::IsTxnId(who)) {
      switch (txns_->State(who)) {
        case txn::TxnState::kAborted:
          it = successors_.erase(it);
          continue;
        case txn::TxnState::kCommitted:
          who = txns_->Resolve(who);  // remembered before the id may be forgotten
          break;
        default:
          break;
      }
    }
    it = !txn::IsTxnId(who) && who <= horizon ? successors_.erase(it) : std::next(it);
  }
}

void Table::NoteGarbagePages(const std::vector<uint32_t>& pages) {
  if (pages.empty()) return;
  MutexLock lock(gc_pages_mu_);
  if (gc_all_pages_) return;
  for (uint32_t page : pages) {
    const size_t word = page / 64;
    if (word >= gc_pages_.size()) gc_pages_.resize(word + 1, 0);
    gc_pages_[word] |= uint64_t{1} << (page % 64);
  }
}

Status Table::CollectGarbage(txn::Timestamp horizon, Garbage* garbage) {
  garbage->rids.clear();
  garbage->storage_generation = storage_generation_.load(std::memory_order_acquire);
  if (txns_ == nullptr || system_rows_ != nullptr) return Status::Ok();
  writes_since_gc_.store(0, std::memory_order_relaxed);
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  // Take the pages to visit; writers note new ones meanwhile into the emptied set.
  bool all = false;
  std::vector<uint64_t> marked;
  {
    MutexLock lock(gc_pages_mu_);
    all = gc_all_pages_;
    gc_all_pages_ = false;
    marked.swap(gc_pages_);
  }
  if (!all && marked.empty()) return Status::Ok();
  // A pass that fails has lost the pages it took: the next one reads every page.
  struct RetryAll {
    Table* table;
    bool done = false;
    ~RetryAll() {
      if (done) return;
      MutexLock lock(table->gc_pages_mu_);
      table->gc_all_pages_ = true;
    }
  } retry{this};
  std::vector<uint32_t> pages;
  const uint32_t page_count = heap_->page_count();
  NoteHeapPages(page_count);
  if (all) {
    pages.resize(page_count);
    for (uint32_t p = 0; p < page_count; ++p) pages[p] = p;
  } else {
    for (size_t w = 0; w < marked.size(); ++w) {
      for (uint64_t bits = marked[w]; bits != 0; bits &= bits - 1) {
        const uint32_t page = static_cast<uint32_t>(w * 64 + std::countr_zero(bits));
        if (page < page_count) pages.push_back(page);
      }
    }
  }
  std::vector<std::pair<storage::Rid, Row>> dead;
  std::vector<uint32_t> again;  // pages with versions that may become garbage later
  storage::Rid rid;
  std::string bytes;
  Row row;
  for (uint32_t page : pages) {
    storage::HeapFile::Cursor cursor = heap_->ScanPage(page);
    bool pending = false;
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.Next(&rid, &bytes));
      if (!more) break;
      const storage::TupleHeader h = storage::ReadTupleHeader(bytes);
      const bool lock_mark = (h.flags & storage::kTupleFlagLockOnly) != 0;
      const bool ended = h.end != 0 && !lock_mark;
      bool gone = false;
      if (txn::IsTxnId(h.begin)) {
        gone = txns_->State(h.begin) == txn::TxnState::kAborted;  // never committed
        pending = pending || !gone;  // its creator may still abort or end it
      } else if (ended && !txn::IsTxnId(h.end)) {
        gone = h.end <= horizon;  // deleted before every snapshot still running
        pending = pending || !gone;
      } else if (ended) {
        pending = true;  // its deleter has not committed yet (nor been stamped)
      }
      if (!gone) continue;
      MERIDIAN_RETURN_IF_ERROR(DecodeRow(bytes, &row));
      dead.emplace_back(rid, row);
    }
    if (pending) again.push_back(page);
  }
  NoteGarbagePages(again);
  for (const auto& [rid, row] : dead) {
    // Index entries first: once the slot is free it may hold another row.
    for (const std::shared_ptr<Index>& index : indexes_) {
      if (index->file() == nullptr) continue;
      std::unique_lock<std::mutex> key_lock;
      if (index->schema().unique) {
        MERIDIAN_ASSIGN_OR_RETURN(std::string key, index->EncodeKey(row));
        key_lock = std::unique_lock<std::mutex>(index->KeyLock(key));
      }
      // A version of a failed statement may lack some entries: absence is fine here.
      MERIDIAN_RETURN_IF_ERROR(index->Remove(row, rid));
    }
    garbage->rids.push_back(rid);
  }
  retry.done = true;
  return Status::Ok();
}

Status Table::FreeVersions(const Garbage& garbage, int64_t* removed) {
  *removed = 0;
  if (garbage.rids.empty()) return Status::Ok();
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  if (storage_generation_.load(std::memory_order_acquire) != garbage.storage_generation) {
    return Status::Ok();  // truncated since: those rids name nothing any more
  }
  for (storage::Rid rid : garbage.rids) {
    MERIDIAN_RETURN_IF_ERROR(heap_->Delete(rid));
    ++*removed;
  }
  return Status::Ok();
}

Status Table::MarkAllVisible(txn::Timestamp horizon, size_t* marked) {
  *marked = 0;
  if (txns_ == nullptr || system_rows_ != nullptr) return Status::Ok();
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  auto visible_to_all = [horizon](const storage::TupleHeader& h) {
    return !txn::IsTxnId(h.begin) && h.begin <= horizon && h.end == 0 &&
           (h.flags & storage::kTupleFlagLockOnly) == 0;
  };
  const uint32_t page_count = heap_->page_count();
  for (uint32_t page = 0; page < page_count; ++page) {
    if (heap_->AllVisible(page)) continue;
    MERIDIAN_ASSIGN_OR_RETURN(bool set, heap_->MarkAllVisible(page, visible_to_all));
    if (set) ++*marked;
  }
  return Status::Ok();
}

Status Table::CatchUpIndexes(const std::vector<uint32_t>& pages) {
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  if (indexes_.empty() || txns_ == nullptr) return Status::Ok();
  storage::Rid rid;
  std::string bytes;
  Row row;
  for (uint32_t page : pages) {
    storage::HeapFile::Cursor cursor = heap_->ScanPage(page);
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.Next(&rid, &bytes));
      if (!more) break;
      const storage::TupleHeader h = storage::ReadTupleHeader(bytes);
      // Versions of transactions that never committed need no entry; dead ones neither (no
      // snapshot runs during recovery; garbage collection tolerates a missing entry).
      if (txns_->Resolve(h.begin) == txn::kInfinity || IsDeadVersion(h)) continue;
      MERIDIAN_RETURN_IF_ERROR(DecodeRow(bytes, &row));
      for (const std::shared_ptr<Index>& index : indexes_) {
        if (index->file() == nullptr) continue;
        // An entry already in the image stays as it is.
        MERIDIAN_RETURN_IF_ERROR(index->Insert(row, rid, /*if_absent=*/true));
      }
    }
  }
  return Status::Ok();
}

void Table::ReplaceStorage(std::unique_ptr<storage::HeapFile> heap,
                           std::vector<std::unique_ptr<storage::BTree>> trees,
                           std::vector<std::unique_ptr<storage::RTree>> rtrees) {
  heap_ = std::move(heap);
  storage_generation_.fetch_add(1, std::memory_order_acq_rel);
  {
    MutexLock lock(gc_pages_mu_);
    gc_pages_.clear();
    gc_all_pages_ = true;
  }
  for (size_t i = 0; i < indexes_.size() && i < trees.size(); ++i) {
    if (trees[i] != nullptr) indexes_[i]->Reset(std::move(trees[i]));
    if (i < rtrees.size() && rtrees[i] != nullptr) indexes_[i]->Reset(std::move(rtrees[i]));
  }
  SetLiveRows(0);
  NoteChanges(1000000);  // statistics are stale: the next checkpoint re-analyzes
}

Status Table::CloseHeap(bool dropped) {
  Status first;
  for (const std::shared_ptr<Index>& index : indexes_) {
    Status st = index->Close();
    if (!st.ok() && first.ok()) first = st;
  }
  if (heap_ != nullptr) {
    Status st = heap_->Close();
    heap_.reset();
    dropped_ = dropped;
    if (!st.ok() && first.ok()) first = st;
  }
  return first;
}

Status Table::Flush() {
  if (heap_ == nullptr) return Status::Ok();
  MERIDIAN_RETURN_IF_ERROR(heap_->Flush());
  for (const std::shared_ptr<Index>& index : indexes_) {
    if (index->file() != nullptr) MERIDIAN_RETURN_IF_ERROR(index->file()->Flush());
  }
  return Status::Ok();
}

void Table::AdjustRows(int64_t delta) {
  int64_t now = live_rows_.fetch_add(delta, std::memory_order_relaxed) + delta;
  if (now < 0) live_rows_.store(0, std::memory_order_relaxed);
}

std::shared_ptr<const TableStats> Table::stats() const {
  MutexLock lock(stats_mu_);
  return stats_;
}

Status Table::Analyze() {
  MERIDIAN_RETURN_IF_ERROR(CheckUsable());
  const int64_t changes_before = changes_since_analyze();
  const size_t ncols = types().size();
  // Reservoir sample (Vitter's algorithm R) of whole rows; exact when the table is small. Only
  // the tuples the reservoir takes are decoded (about 4.5 x 30,000 of a million rows).
  std::vector<Row> sample;
  std::mt19937_64 rng(0x5eed ^ id());
  uint64_t seen = 0;
  // The reservoir slot of the next visible row, or kAnalyzeSampleRows to skip it.
  const auto take = [&]() -> size_t {
    ++seen;
    if (sample.size() < kAnalyzeSampleRows) {
      sample.emplace_back();
      return sample.size() - 1;
    }
    const uint64_t slot = rng() % seen;
    return slot < kAnalyzeSampleRows ? static_cast<size_t>(slot) : kAnalyzeSampleRows;
  };
  if (system_rows_ != nullptr) {
    for (const Row& row : *system_rows_) {
      if (const size_t slot = take(); slot < kAnalyzeSampleRows) sample[slot] = row;
    }
  } else {
    const std::optional<txn::Snapshot> snapshot =
        txns_ != nullptr ? std::optional<txn::Snapshot>(txns_->TakeSnapshot(0)) : std::nullopt;
    NoteHeapPages(heap_->page_count());
    storage::HeapFile::Cursor cursor = heap_->Scan();
    storage::HeapFile::PageTuples page;
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.NextPage(&page));
      if (!more) break;
      for (size_t i = 0; i < page.size(); ++i) {
        const std::string_view bytes = page.tuple(i);
        if (snapshot) {
          const storage::TupleHeader h = storage::ReadTupleHeader(bytes);
          if (!txns_->Visible(h.begin, storage::DeletingEnd(h), *snapshot)) continue;
        }
        if (const size_t slot = take(); slot < kAnalyzeSampleRows) {
          MERIDIAN_RETURN_IF_ERROR(DecodeRow(bytes, &sample[slot]));
        }
      }
    }
  }
  auto stats = std::make_shared<TableStats>();
  stats->rows = seen;
  for (size_t c = 0; c < ncols; ++c) {
    std::vector<std::pair<std::string, Value>> values;
    values.reserve(sample.size());
    for (const Row& r : sample) {
      if (r[c].IsNull()) continue;
      std::string key;
      storage::AppendKeyValue(r[c], false, &key);
      values.emplace_back(std::move(key), r[c]);
    }
    stats->columns.push_back(ComputeColumnStats(values, sample.size(), seen));
  }
  for (const std::shared_ptr<Index>& index : IndexSnapshot()) {
    const IndexSchema& x = index->schema();
    if (!x.HasExpressions()) continue;
    std::vector<ColumnStats>& per_key = stats->expressions[x.id];
    per_key.resize(x.columns.size());
    std::vector<std::vector<std::pair<std::string, Value>>> values(x.columns.size());
    for (const Row& r : sample) {
      MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> key, index->KeyValues(r));
      for (size_t k = 0; k < key.size(); ++k) {
        if (x.columns[k] != kExpressionKey || key[k].IsNull()) continue;
        std::string bytes;
        storage::AppendKeyValue(key[k], false, &bytes);
        values[k].emplace_back(std::move(bytes), std::move(key[k]));
      }
    }
    for (size_t k = 0; k < x.columns.size(); ++k) {
      if (x.columns[k] == kExpressionKey) {
        per_key[k] = ComputeColumnStats(values[k], sample.size(), seen);
      }
    }
  }
  {
    MutexLock lock(stats_mu_);
    stats_ = std::move(stats);
  }
  SetLiveRows(static_cast<int64_t>(seen));
  changes_.fetch_sub(changes_before, std::memory_order_relaxed);
  analyzed_at_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                     std::memory_order_relaxed);
  return Status::Ok();
}

}  // namespace meridian::catalog
