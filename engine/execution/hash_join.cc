// HashJoinOp: equi-joins through a hash table on the right input, partitioned on disk beyond
// work_mem (see operators.h).
#include <algorithm>

#include "catalog/catalog.h"
#include "execution/evaluator.h"
#include "execution/hash_key.h"
#include "execution/operators.h"

namespace meridian::exec {

// Spilled rows carry their key as a last value (Int in integer mode, the encoded key as a
// String otherwise), so a partition's rows need no key expression: right rows as their stored_
// values plus the key, left rows whole plus the key.
struct HashJoinOp::Spill {
  size_t budget = 0;
  bool can_spill = false;
  size_t held_bytes = 0;  // the table's rows, estimated
  size_t peak_bytes = 0;
  size_t buckets = 0;    // the largest table's slots
  uint64_t batches = 1;  // 1 + the partitions joined
  bool spilled = false;
  std::unique_ptr<HashSpill> parts;         // side 0: right rows, side 1: left rows
  std::unique_ptr<SpillFile> null_right;    // right/full: right rows with a NULL key
  std::unique_ptr<SpillFile> build, probe;  // the partition being joined
  std::unique_ptr<SpillFile::Reader> build_reader, probe_reader;
  bool chunked = false;             // the partition's right rows go chunk by chunk
  std::vector<bool> probe_matched;  // chunked, left/full: per left row of the partition
  size_t probe_index = 0;           // left rows of the partition read so far
};

HashJoinOp::HashJoinOp(OperatorPtr left, OperatorPtr right, std::vector<BoundExprPtr> left_keys,
                       std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, JoinKind kind,
                       size_t left_width, size_t right_width)
    : left_(std::move(left)),
      right_(std::move(right)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      residual_(std::move(residual)),
      kind_(kind),
      left_width_(left_width),
      right_width_(right_width) {
  // SMALLINT, INTEGER and BIGINT values are all held as int64, so one comparison decides.
  int_keys_ = left_keys_.size() == 1 && left_keys_[0]->type.IsIntegral() &&
              right_keys_[0]->type.IsIntegral();
  for (size_t c = 0; c < right_width_; ++c) stored_.push_back(static_cast<uint32_t>(c));
}

HashJoinOp::~HashJoinOp() = default;

bool HashJoinOp::SetOutputOrder(std::vector<uint32_t> out) {
  if (!PermuteJoinCondition(residual_.get(), out, left_width_ + right_width_)) return false;
  out_ = std::move(out);
  return true;
}

void HashJoinOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used(left_width_ + right_width_, false);
  for (size_t i = 0; i < used.size() && i < needed.size(); ++i) used[i] = needed[i];
  bool all = false;
  if (residual_ != nullptr) residual_->MarkColumnsRead(&used, &all);
  if (all) return;  // a correlated subquery may read any column: keep them all
  used.resize(left_width_ + right_width_);
  if (!out_.empty()) used = UnpermuteColumns(used, out_);
  std::vector<bool> left(used.begin(), used.begin() + static_cast<ptrdiff_t>(left_width_));
  std::vector<bool> right(used.begin() + static_cast<ptrdiff_t>(left_width_), used.end());
  stored_.clear();
  unstored_.clear();
  for (size_t c = 0; c < right_width_; ++c) {
    (right[c] ? stored_ : unstored_).push_back(static_cast<uint32_t>(c));
  }
  for (const BoundExprPtr& k : left_keys_) k->MarkColumnsRead(&left, &all);
  for (const BoundExprPtr& k : right_keys_) k->MarkColumnsRead(&right, &all);
  if (all) return;
  left_->PruneColumns(left);
  right_->PruneColumns(right);
}

Status HashJoinOp::Open(const EvalContext* outer, ExecContext* exec) {
  outer_ = outer;
  exec_ = exec;
  built_ = false;
  have_left_ = false;
  stage_ = Stage::kProbe;
  unmatched_pos_ = 0;
  match_ = match_tail_ = kNone;
  ahead_pos_ = ahead_size_ = 0;
  ahead_limit_ = 1;
  ahead_error_ = Status::Ok();
  ahead_end_ = false;
  ResetTable();
  spill_ = std::make_unique<Spill>();
  // PostgreSQL 15 lets a hash table grow to hash_mem_multiplier (2.0) times work_mem.
  spill_->budget = 2 * WorkMemBytes(exec);
  spill_->can_spill = CanSpill(exec);
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  return right_->Open(outer, exec);
}

Result<bool> HashJoinOp::KeyOf(const std::vector<BoundExprPtr>& keys, const Row& row,
                               int64_t* int_key, std::string* key) {
  EvalContext ctx{&row, outer_, exec_};
  Value scratch;
  if (int_keys_) {
    MERIDIAN_ASSIGN_OR_RETURN(const Value* v, EvalRef(*keys[0], ctx, &scratch));
    if (v->IsNull()) return false;
    if (!v->IsInt()) return Status::Internal("hash join: integer key expected");
    *int_key = v->AsInt();
    return true;
  }
  key->clear();
  for (const BoundExprPtr& k : keys) {
    MERIDIAN_ASSIGN_OR_RETURN(const Value* v, EvalRef(*k, ctx, &scratch));
    if (v->IsNull()) return false;
    AppendKeyValue(*v, key);
  }
  return true;
}

Status HashJoinOp::Poll() {
  if (--until_check_ > 0) return Status::Ok();
  until_check_ = kCheckInterval;
  return exec_ == nullptr || exec_->ctl == nullptr ? Status::Ok() : exec_->ctl->Check();
}

void HashJoinOp::ResetTable() {
  table_.Reset(int_keys_, 0);
  next_.clear();
  right_values_.clear();
  right_matched_.clear();
  if (spill_ != nullptr) spill_->held_bytes = 0;
}

size_t HashJoinOp::RowCost(const Value* stored, size_t key_bytes) const {
  // The row's values, its next_ link, its share of the table (at most half full) and its key.
  size_t n = stored_.size() * sizeof(Value) + sizeof(uint32_t) + 2 * sizeof(KeyTable<Chain>::Slot) +
             key_bytes;
  for (size_t k = 0; k < stored_.size(); ++k) n += stored[k].ByteSize();
  return n;
}

uint64_t HashJoinOp::HashOf(int64_t int_key, std::string_view key) const {
  return MixHash(int_keys_ ? static_cast<uint64_t>(int_key) : std::hash<std::string_view>{}(key));
}

Status HashJoinOp::Build() {
  // Every right row's stored columns, in input order, and its key. Integer keys go into the
  // table after the input is read, with prefetches ahead (inserting as rows arrive would wait
  // for one cache miss per row).
  Spill& s = *spill_;
  Row r;
  std::string key;
  int64_t int_key = 0;
  std::vector<int64_t> int_keys;  // integer mode: the keys of the keyed rows, in order
  std::vector<bool> keyed_rows;   // per right row
  size_t rows = 0;
  auto link = [&](auto* slot, bool inserted, uint32_t row) {  // call after the insert ran
    if (inserted) {
      slot->payload = Chain{row, row};
    } else {
      next_[slot->payload.tail] = row;
      slot->payload.tail = row;
    }
  };
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
    if (!more) break;
    MERIDIAN_RETURN_IF_ERROR(Poll());
    MERIDIAN_ASSIGN_OR_RETURN(bool keyed, KeyOf(right_keys_, r, &int_key, &key));
    if (s.spilled) {
      MERIDIAN_RETURN_IF_ERROR(SpillRight(&r, keyed, int_key, key));
      continue;
    }
    if (rows >= kNone - 1) {
      return Status::Error(sqlstate::kProgramLimitExceeded, "hash join input is too large");
    }
    next_.push_back(kNone);
    keyed_rows.push_back(keyed);
    if (int_keys_) {
      if (keyed) int_keys.push_back(int_key);
    } else if (keyed) {
      bool inserted = false;
      auto* slot = table_.InsertBytes(key, &inserted);
      link(slot, inserted, static_cast<uint32_t>(rows));
    }
    const size_t first = right_values_.size();
    for (uint32_t c : stored_) {
      right_values_.push_back(c < r.size() ? std::move(r[c]) : Value::Null());
    }
    ++rows;
    s.held_bytes += RowCost(right_values_.data() + first, int_keys_ ? 8 : key.size());
    s.peak_bytes = std::max(s.peak_bytes, s.held_bytes);
    if (s.can_spill && s.held_bytes > s.budget) {
      MERIDIAN_RETURN_IF_ERROR(StartSpill(keyed_rows, int_keys));
      int_keys.clear();
      keyed_rows.clear();
      rows = 0;
    }
  }
  built_ = true;
  if (s.spilled) {
    stage_ = Stage::kPartitionLeft;
    return Status::Ok();
  }
  if (int_keys_) {
    constexpr size_t kAhead = 16;
    table_.Reset(true, int_keys.size());
    size_t k = 0;
    for (size_t row = 0; row < rows; ++row) {
      if (!keyed_rows[row]) continue;
      if (k + kAhead < int_keys.size()) table_.PrefetchInt(int_keys[k + kAhead]);
      bool inserted = false;
      auto* slot = table_.InsertInt(int_keys[k++], &inserted);
      link(slot, inserted, static_cast<uint32_t>(row));
    }
  }
  s.buckets = table_.capacity();
  if (TracksRight()) right_matched_.assign(rows, false);
  stage_ = Stage::kProbe;
  return Status::Ok();
}

Status HashJoinOp::SpillRight(Row* r, bool keyed, int64_t int_key, const std::string& key) {
  // *r: a right row as the input gives it.
  Spill& s = *spill_;
  Row out;
  out.reserve(stored_.size() + 1);
  for (uint32_t c : stored_) out.push_back(c < r->size() ? std::move((*r)[c]) : Value::Null());
  if (keyed) {
    out.push_back(int_keys_ ? Value::Int(int_key) : Value::String(key));
    return s.parts->Add(out, HashOf(int_key, key), 0);
  }
  if (!TracksRight()) return Status::Ok();  // never matches, never returned
  if (s.null_right == nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(s.null_right, SpillFile::Create(exec_->catalog->temp_dir()));
  }
  return s.null_right->Append(out);
}

Status HashJoinOp::StartSpill(const std::vector<bool>& keyed_rows,
                              const std::vector<int64_t>& int_keys) {
  // The rows in memory go to their partitions; the rest of the right input follows them there.
  Spill& s = *spill_;
  s.spilled = true;
  s.parts = std::make_unique<HashSpill>(exec_->catalog->temp_dir(), 2);
  const size_t width = stored_.size();
  Row out;
  auto put = [&](uint32_t pos, Value key, uint64_t hash) -> Status {
    const Value* stored = right_values_.data() + static_cast<size_t>(pos) * width;
    out.assign(stored, stored + width);
    out.push_back(std::move(key));
    return s.parts->Add(out, hash, 0);
  };
  if (int_keys_) {
    size_t k = 0;
    for (size_t row = 0; row < keyed_rows.size(); ++row) {
      if (!keyed_rows[row]) continue;
      const int64_t key = int_keys[k++];
      MERIDIAN_RETURN_IF_ERROR(put(static_cast<uint32_t>(row), Value::Int(key), HashOf(key, {})));
    }
  } else {
    Status st = Status::Ok();
    table_.ForEach([&](KeyTable<Chain>::Slot& slot) {
      const std::string_view key = table_.key_bytes(slot.id);
      const uint64_t hash = HashOf(0, key);
      for (uint32_t pos = slot.payload.head;; pos = next_[pos]) {
        if (st.ok()) st = put(pos, Value::String(std::string(key)), hash);
        if (pos == slot.payload.tail) break;
      }
    });
    MERIDIAN_RETURN_IF_ERROR(st);
  }
  if (TracksRight()) {
    for (size_t row = 0; row < keyed_rows.size(); ++row) {
      if (keyed_rows[row]) continue;
      const Value* stored = right_values_.data() + row * width;
      Row r(stored, stored + width);
      if (s.null_right == nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(s.null_right, SpillFile::Create(exec_->catalog->temp_dir()));
      }
      MERIDIAN_RETURN_IF_ERROR(s.null_right->Append(r));
    }
  }
  ResetTable();
  return Status::Ok();
}

Result<bool> HashJoinOp::PartitionLeft(Row* row) {
  // Every left row to its partition, but one with a NULL key: NULL-extended now (left/full) or
  // dropped. True when *row is such a row to return.
  Spill& s = *spill_;
  int64_t int_key = 0;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(&left_row_));
    if (!more) return false;
    MERIDIAN_RETURN_IF_ERROR(Poll());
    MERIDIAN_ASSIGN_OR_RETURN(bool keyed, KeyOf(left_keys_, left_row_, &int_key, &probe_key_));
    if (!keyed) {
      if (!KeepsLeft()) continue;
      Join(&left_row_, kNone, row);
      return true;
    }
    left_row_.push_back(int_keys_ ? Value::Int(int_key) : Value::String(probe_key_));
    MERIDIAN_RETURN_IF_ERROR(s.parts->Add(left_row_, HashOf(int_key, probe_key_), 1));
  }
}

Result<bool> HashJoinOp::LoadBuild() {
  // Rows of the partition's right file into the table until it passes work_mem (the row that
  // passes it included, so a chunk has a row at least). True when the file is over.
  Spill& s = *spill_;
  Row r;
  while (s.held_bytes <= s.budget) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, s.build_reader->Next(&r));
    if (!more) {
      s.buckets = std::max(s.buckets, table_.capacity());
      return true;
    }
    MERIDIAN_RETURN_IF_ERROR(Poll());
    if (r.size() != stored_.size() + 1 || next_.size() >= kNone - 1) {
      return Status::Internal("hash join: unexpected spilled row");
    }
    const Value key = std::move(r.back());
    const auto pos = static_cast<uint32_t>(next_.size());
    next_.push_back(kNone);
    bool inserted = false;
    auto* slot = int_keys_ ? table_.InsertInt(key.AsInt(), &inserted)
                           : table_.InsertBytes(key.AsString(), &inserted);
    if (inserted) {
      slot->payload = Chain{pos, pos};
    } else {
      next_[slot->payload.tail] = pos;
      slot->payload.tail = pos;
    }
    for (size_t k = 0; k < stored_.size(); ++k) right_values_.push_back(std::move(r[k]));
    s.held_bytes += RowCost(right_values_.data() + right_values_.size() - stored_.size(),
                            int_keys_ ? 8 : key.AsString().size());
    s.peak_bytes = std::max(s.peak_bytes, s.held_bytes);
  }
  s.buckets = std::max(s.buckets, table_.capacity());
  return false;
}

Result<bool> HashJoinOp::SameKeys(const SpillFile& file) {
  // Whether every row of a partition's right file has the same key (no split can help).
  SpillFile::Reader reader(&file);
  Row r;
  Value first;
  bool any = false;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, reader.Next(&r));
    if (!more) return true;
    MERIDIAN_RETURN_IF_ERROR(Poll());
    const Value& key = r.back();
    if (!any) {
      first = key;
      any = true;
    } else if (int_keys_ ? key.AsInt() != first.AsInt() : key.AsString() != first.AsString()) {
      return false;
    }
  }
}

Status HashJoinOp::NextBatch() {
  // The next partition: its right rows into the table (or split further, or the first chunk),
  // then its left rows probe it.
  Spill& s = *spill_;
  ResetTable();
  s.build_reader.reset();
  s.probe_reader.reset();
  s.build.reset();
  s.probe.reset();
  s.chunked = false;
  std::vector<std::unique_ptr<SpillFile>> files;
  MERIDIAN_ASSIGN_OR_RETURN(bool any, s.parts->NextPartition(&files));
  if (!any) {
    stage_ = Stage::kDone;
    return Status::Ok();
  }
  s.build = std::move(files[0]);
  s.probe = std::move(files[1]);
  if ((s.build == nullptr && !KeepsLeft()) || (s.probe == nullptr && !TracksRight())) {
    return Status::Ok();  // nothing of it can come out
  }
  ++s.batches;
  if (s.build != nullptr) {
    s.build_reader = std::make_unique<SpillFile::Reader>(s.build.get());
    MERIDIAN_ASSIGN_OR_RETURN(bool whole, LoadBuild());
    if (!whole) {
      bool same = s.parts->level() >= HashSpill::kMaxLevel;
      if (!same) {
        MERIDIAN_ASSIGN_OR_RETURN(same, SameKeys(*s.build));
      }
      if (!same) {
        // Split both sides by the next hash bits; the parts wait their turn.
        ResetTable();
        Row r;
        for (int side = 0; side < 2; ++side) {
          if (side == 1 && s.probe == nullptr) break;
          SpillFile::Reader reader(side == 0 ? s.build.get() : s.probe.get());
          while (true) {
            MERIDIAN_ASSIGN_OR_RETURN(bool more, reader.Next(&r));
            if (!more) break;
            MERIDIAN_RETURN_IF_ERROR(Poll());
            const Value& key = r.back();
            const uint64_t hash = int_keys_ ? HashOf(key.AsInt(), {}) : HashOf(0, key.AsString());
            MERIDIAN_RETURN_IF_ERROR(s.parts->Add(r, hash, static_cast<size_t>(side)));
          }
        }
        --s.batches;  // counted in its parts
        return s.parts->EndInput();
      }
      s.chunked = true;  // one key: chunk by chunk, the first chunk is in the table
      s.probe_matched.clear();
    }
  }
  if (TracksRight()) right_matched_.assign(next_.size(), false);
  if (s.probe != nullptr) s.probe_reader = std::make_unique<SpillFile::Reader>(s.probe.get());
  s.probe_index = 0;
  have_left_ = false;
  stage_ = Stage::kProbe;
  return Status::Ok();
}

Status HashJoinOp::AfterBatch() {
  // The table's rows have met every left row: the next chunk, partition, or the end.
  Spill& s = *spill_;
  if (!s.spilled) {
    stage_ = Stage::kDone;
    return Status::Ok();
  }
  stage_ = Stage::kNextBatch;
  if (!s.chunked) return Status::Ok();
  ResetTable();
  MERIDIAN_RETURN_IF_ERROR(LoadBuild().status());
  if (!next_.empty()) {  // another chunk: every left row of the partition again
    if (TracksRight()) right_matched_.assign(next_.size(), false);
    s.probe_reader.reset();
    if (s.probe != nullptr) s.probe_reader = std::make_unique<SpillFile::Reader>(s.probe.get());
    s.probe_index = 0;
    have_left_ = false;
    stage_ = Stage::kProbe;
    return Status::Ok();
  }
  if (KeepsLeft() && s.probe != nullptr) {
    s.probe_reader = std::make_unique<SpillFile::Reader>(s.probe.get());
    s.probe_index = 0;
    stage_ = Stage::kLeftUnmatched;
  }
  return Status::Ok();
}

void HashJoinOp::Join(const Row* left, uint32_t pos, Row* row) const {
  const Value* stored =
      pos == kNone ? nullptr : right_values_.data() + static_cast<size_t>(pos) * stored_.size();
  JoinStored(left, stored, row);
}

void HashJoinOp::JoinStored(const Row* left, const Value* stored, Row* row) const {
  row->resize(left_width_ + right_width_);
  // Column c of the joined row goes to slot c, or to out_[c] (SetOutputOrder). (No `cond ?
  // (*left)[c] : Value::Null()`: the conditional would copy the value into a temporary first,
  // then move it, then destroy the temporary.)
  static const Value kNull;
  Value* slots = row->data();
  const uint32_t* out = out_.empty() ? nullptr : out_.data();
  auto at = [&](size_t c) -> Value& { return slots[out != nullptr ? out[c] : c]; };
  const size_t from_left = left != nullptr ? std::min(left_width_, left->size()) : 0;
  for (size_t c = 0; c < from_left; ++c) at(c) = (*left)[c];
  for (size_t c = from_left; c < left_width_; ++c) at(c) = kNull;
  const size_t lw = left_width_;
  if (stored == nullptr) {
    for (size_t c = 0; c < right_width_; ++c) at(lw + c) = kNull;
    return;
  }
  for (size_t k = 0; k < stored_.size(); ++k) at(lw + stored_[k]) = stored[k];
  for (uint32_t c : unstored_) at(lw + c) = kNull;
}

void HashJoinOp::FillAhead() {
  ahead_pos_ = ahead_size_ = 0;
  if (ahead_.size() < ahead_limit_) ahead_.resize(ahead_limit_);
  const BoundExpr& key = *left_keys_[0];
  const bool prefetch = int_keys_ && key.kind == BoundKind::kColumn && key.depth == 0;
  while (ahead_size_ < ahead_limit_) {
    Row& r = ahead_[ahead_size_];
    Result<bool> more = left_->Next(&r);
    if (!more.ok()) {
      ahead_error_ = more.status();
      break;
    }
    if (!*more) {
      ahead_end_ = true;
      break;
    }
    ++ahead_size_;
    if (prefetch && static_cast<size_t>(key.index) < r.size()) {
      const Value& v = r[static_cast<size_t>(key.index)];
      if (v.IsInt()) table_.PrefetchInt(v.AsInt());
    }
  }
  ahead_limit_ = std::min(2 * ahead_limit_, kReadAhead);
}

Result<bool> HashJoinOp::NextLeft(Row* row) {
  while (ahead_pos_ == ahead_size_) {
    if (!ahead_error_.ok()) {
      Status error = ahead_error_;
      ahead_error_ = Status::Ok();
      return error;
    }
    if (ahead_end_) return false;
    FillAhead();
  }
  std::swap(*row, ahead_[ahead_pos_++]);
  return true;
}

Result<bool> HashJoinOp::Probe(Row* row) {
  // Left rows (the input's, or a spilled partition's) against the table. False when they are
  // over.
  Spill& s = *spill_;
  while (true) {
    if (!have_left_) {
      int64_t int_key = 0;
      bool keyed = true;
      if (!s.spilled) {
        MERIDIAN_ASSIGN_OR_RETURN(bool more, NextLeft(&left_row_));
        if (!more) return false;
        MERIDIAN_ASSIGN_OR_RETURN(keyed, KeyOf(left_keys_, left_row_, &int_key, &probe_key_));
      } else {
        if (s.probe_reader == nullptr) return false;
        MERIDIAN_ASSIGN_OR_RETURN(bool more, s.probe_reader->Next(&left_row_));
        if (!more) return false;
        if (left_row_.empty()) return Status::Internal("hash join: unexpected spilled row");
        if (int_keys_) {
          int_key = left_row_.back().AsInt();
        } else {
          probe_key_ = left_row_.back().AsString();
        }
        left_row_.pop_back();
        if (s.chunked && s.probe_matched.size() <= s.probe_index) s.probe_matched.push_back(false);
        ++s.probe_index;
      }
      MERIDIAN_RETURN_IF_ERROR(Poll());
      have_left_ = true;
      left_matched_ = false;
      match_ = match_tail_ = kNone;
      if (keyed) {
        auto* slot = int_keys_ ? table_.FindInt(int_key) : table_.FindBytes(probe_key_);
        if (slot != nullptr) {
          match_ = slot->payload.head;
          match_tail_ = slot->payload.tail;
        }
      }
    }
    if (match_ == kNone) {
      have_left_ = false;
      if (s.chunked) {  // NULL-extended after the last chunk, if no chunk matched it
        if (left_matched_) s.probe_matched[s.probe_index - 1] = true;
        continue;
      }
      if (!left_matched_ && KeepsLeft()) {
        Join(&left_row_, kNone, row);
        return true;
      }
      continue;
    }
    const uint32_t pos = match_;
    match_ = pos == match_tail_ ? kNone : next_[pos];
    Join(&left_row_, pos, row);
    if (residual_ != nullptr) {
      EvalContext ctx{row, outer_, exec_};
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*residual_, ctx));
      if (!pass) continue;
    }
    left_matched_ = true;
    if (TracksRight()) right_matched_[pos] = true;
    return true;
  }
}

Result<bool> HashJoinOp::Next(Row* row) {
  if (!built_) MERIDIAN_RETURN_IF_ERROR(Build());
  Spill& s = *spill_;
  while (true) {
    switch (stage_) {
      case Stage::kProbe: {
        MERIDIAN_ASSIGN_OR_RETURN(bool got, Probe(row));
        if (got) return true;
        stage_ = Stage::kRightUnmatched;
        unmatched_pos_ = 0;
        break;
      }
      case Stage::kRightUnmatched:
        // Right and full joins: the table's right rows no left row matched, in input order.
        if (TracksRight()) {
          while (unmatched_pos_ < right_matched_.size()) {
            const auto pos = static_cast<uint32_t>(unmatched_pos_++);
            if (right_matched_[pos]) continue;
            Join(nullptr, pos, row);
            return true;
          }
        }
        MERIDIAN_RETURN_IF_ERROR(AfterBatch());
        break;
      case Stage::kPartitionLeft: {
        MERIDIAN_ASSIGN_OR_RETURN(bool got, PartitionLeft(row));
        if (got) return true;
        MERIDIAN_RETURN_IF_ERROR(s.parts->EndInput());
        if (s.null_right != nullptr) {
          MERIDIAN_RETURN_IF_ERROR(s.null_right->Finish());
          s.build_reader = std::make_unique<SpillFile::Reader>(s.null_right.get());
        }
        stage_ = Stage::kNullRight;
        break;
      }
      case Stage::kNullRight: {
        Row r;
        if (s.null_right != nullptr) {
          MERIDIAN_ASSIGN_OR_RETURN(bool more, s.build_reader->Next(&r));
          if (more) {
            JoinStored(nullptr, r.data(), row);
            return true;
          }
        }
        s.build_reader.reset();
        s.null_right.reset();
        stage_ = Stage::kNextBatch;
        break;
      }
      case Stage::kNextBatch:
        MERIDIAN_RETURN_IF_ERROR(NextBatch());
        break;
      case Stage::kLeftUnmatched: {
        // A chunked partition's left rows no chunk matched.
        while (true) {
          MERIDIAN_ASSIGN_OR_RETURN(bool more, s.probe_reader->Next(&left_row_));
          if (!more) break;
          MERIDIAN_RETURN_IF_ERROR(Poll());
          const size_t i = s.probe_index++;
          if (i < s.probe_matched.size() && s.probe_matched[i]) continue;
          left_row_.pop_back();
          Join(&left_row_, kNone, row);
          return true;
        }
        stage_ = Stage::kNextBatch;
        break;
      }
      case Stage::kDone:
        return false;
    }
  }
}

std::string HashJoinOp::AnalyzeDetail() const {
  if (spill_ == nullptr) return {};
  return "Buckets: " + std::to_string(spill_->buckets) +
         "  Batches: " + std::to_string(spill_->batches) +
         "  Memory Usage: " + KbText(spill_->peak_bytes);
}

}  // namespace meridian::exec
