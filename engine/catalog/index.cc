// Index: key extraction from table rows, rid encoding and entry maintenance (see index.h).
#include "catalog/index.h"

#include <cmath>
#include <limits>

#include "catalog/schema.h"
#include "meridian/geometry.h"
#include "storage/key_codec.h"

namespace meridian::catalog {

std::string EncodeRid(storage::Rid rid) {
  std::string out(6, '\0');
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((rid.page >> (24 - 8 * i)) & 0xFF);
  out[4] = static_cast<char>(rid.slot >> 8);
  out[5] = static_cast<char>(rid.slot & 0xFF);
  return out;
}

storage::Rid DecodeRid(std::string_view bytes) {
  storage::Rid rid;
  if (bytes.size() < 6) return rid;
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  rid.page = (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
  rid.slot = static_cast<uint16_t>((b[4] << 8) | b[5]);
  return rid;
}

bool RTreeCoordinate(const Value& v, double* out) {
  if (v.IsNull() || !v.IsNumber()) return false;
  const double d = v.AsNumber();
  *out = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
  return true;
}

bool RTreeGeometry(const Value& v, storage::Box* box) {
  if (v.IsNull() || !v.IsString()) return false;
  const std::string& s = v.AsString();
  geo::Box b;
  if (s.find(',') == s.rfind(',')) {  // "(x,y)"
    const geo::Point p = geo::PointOf(s);
    b = {p, p};
  } else {
    b = geo::BoxOf(s);
  }
  if (std::isnan(b.low.x) || std::isnan(b.low.y) || std::isnan(b.high.x) || std::isnan(b.high.y)) {
    return false;
  }
  box->lo[0] = b.low.x;
  box->lo[1] = b.low.y;
  box->hi[0] = b.high.x;
  box->hi[1] = b.high.y;
  return true;
}

uint32_t RTreeDims(const IndexSchema& index, const TableSchema& table) {
  if (index.columns.size() == 1 && index.columns[0] >= 0 &&
      static_cast<size_t>(index.columns[0]) < table.columns.size() &&
      table.columns[index.columns[0]].type.IsGeometric()) {
    return 2;
  }
  return static_cast<uint32_t>(index.columns.size());
}

namespace {

IndexExprCompiler& Compiler() {
  static IndexExprCompiler compiler;
  return compiler;
}

}  // namespace

void SetIndexExprCompiler(IndexExprCompiler compiler) { Compiler() = std::move(compiler); }

Result<std::shared_ptr<const IndexExprs>> CompileIndexExprs(const TableSchema& table,
                                                            const IndexSchema& index) {
  if (!Compiler()) {
    return Status::Internal("index \"" + index.name + "\" has expressions but no compiler");
  }
  return Compiler()(table, index);
}

Index::Index(IndexSchema schema, std::unique_ptr<storage::BTree> tree)
    : schema_(std::move(schema)), tree_(std::move(tree)) {}

Index::Index(IndexSchema schema, std::unique_ptr<storage::RTree> rtree)
    : schema_(std::move(schema)), rtree_(std::move(rtree)) {}

storage::IndexFile* Index::file() {
  if (tree_ != nullptr) return tree_.get();
  return rtree_.get();
}

bool Index::RowPoint(const Row& row, storage::Box* box) const {
  if (schema_.columns.size() == 1 && row[schema_.columns[0]].IsString()) {
    return RTreeGeometry(row[schema_.columns[0]], box);  // a point or box column
  }
  for (size_t d = 0; d < schema_.columns.size() && d < storage::kRTreeMaxDims; ++d) {
    double x = 0;
    if (!RTreeCoordinate(row[schema_.columns[d]], &x)) return false;
    box->lo[d] = box->hi[d] = x;
  }
  return true;
}

Index::~Index() { (void)Close(); }

Result<std::vector<Value>> Index::KeyValues(const Row& row) const {
  std::vector<Value> key;
  key.reserve(schema_.columns.size());
  for (size_t k = 0; k < schema_.columns.size(); ++k) {
    const int c = schema_.columns[k];
    if (c != kExpressionKey) {
      key.push_back(row[c]);
      continue;
    }
    if (schema_.compiled == nullptr) return Status::Internal("index \"" + name() + "\" is unbound");
    MERIDIAN_ASSIGN_OR_RETURN(Value v, schema_.compiled->Key(k, row));
    key.push_back(std::move(v));
  }
  return key;
}

Result<std::string> Index::EncodeKey(const Row& row) const {
  std::string key;
  if (!schema_.HasExpressions()) {
    for (size_t i = 0; i < schema_.columns.size(); ++i) {
      storage::AppendKeyValue(row[schema_.columns[i]], schema_.descending[i], &key);
    }
    return key;
  }
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, KeyValues(row));
  for (size_t i = 0; i < values.size(); ++i) {
    storage::AppendKeyValue(values[i], schema_.descending[i], &key);
  }
  return key;
}

Result<bool> Index::KeyHasNull(const Row& row) const {
  if (schema_.HasExpressions()) {
    MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, KeyValues(row));
    for (const Value& v : values) {
      if (v.IsNull()) return true;
    }
    return false;
  }
  for (int c : schema_.columns) {
    if (row[c].IsNull()) return true;
  }
  return false;
}

Result<bool> Index::Covers(const Row& row) const {
  if (!schema_.IsPartial()) return true;
  if (schema_.compiled == nullptr) return Status::Internal("index \"" + name() + "\" is unbound");
  return schema_.compiled->Matches(row);
}

Status Index::Insert(const Row& row, storage::Rid rid, bool if_absent) {
  if (schema_.IsRtree()) {
    if (rtree_ == nullptr) return Status::Internal("index \"" + name() + "\" is closed");
    storage::Box box;
    if (!RowPoint(row, &box)) return Status::Ok();
    if (if_absent) {
      bool present = false;
      MERIDIAN_RETURN_IF_ERROR(
          rtree_->Search(storage::RTreeOp::kEquals, box, [&](const storage::Box&, storage::Rid r) {
            present = r.page == rid.page && r.slot == rid.slot;
            return !present;
          }));
      if (present) return Status::Ok();
    }
    return rtree_->Insert(box, rid);
  }
  if (tree_ == nullptr) return Status::Internal("index \"" + name() + "\" is closed");
  MERIDIAN_ASSIGN_OR_RETURN(bool covered, Covers(row));
  if (!covered) return Status::Ok();
  MERIDIAN_ASSIGN_OR_RETURN(std::string key, EncodeKey(row));
  return tree_->Insert(key, EncodeRid(rid));
}

Status Index::Remove(const Row& row, storage::Rid rid) {
  if (schema_.IsRtree()) {
    if (rtree_ == nullptr) return Status::Ok();
    storage::Box box;
    if (!RowPoint(row, &box)) return Status::Ok();
    return rtree_->Delete(box, rid).status();
  }
  if (tree_ == nullptr) return Status::Ok();
  MERIDIAN_ASSIGN_OR_RETURN(bool covered, Covers(row));
  if (!covered) return Status::Ok();
  MERIDIAN_ASSIGN_OR_RETURN(std::string key, EncodeKey(row));
  return tree_->Delete(key, EncodeRid(rid)).status();
}

Status Index::Erase(const Row& row, storage::Rid rid) {
  if (file() == nullptr) return Status::Internal("index \"" + name() + "\" is closed");
  bool found = false;
  storage::Box box;
  if (!schema_.IsRtree()) {
    MERIDIAN_ASSIGN_OR_RETURN(bool covered, Covers(row));
    if (!covered) return Status::Ok();  // never indexed
    MERIDIAN_ASSIGN_OR_RETURN(std::string key, EncodeKey(row));
    MERIDIAN_ASSIGN_OR_RETURN(found, tree_->Delete(key, EncodeRid(rid)));
  } else if (RowPoint(row, &box)) {
    MERIDIAN_ASSIGN_OR_RETURN(found, rtree_->Delete(box, rid));
  } else {
    found = true;  // never indexed
  }
  if (!found) {
    return Status::Corruption("index \"" + name() + "\" has no entry for a row being removed");
  }
  return Status::Ok();
}

Result<std::vector<std::string>> Index::Lookup(const std::string& key) {
  if (tree_ == nullptr) return Status::Internal("index \"" + name() + "\" is closed");
  return tree_->Lookup(key);
}

void Index::Watch(storage::FileSystem* fs, std::string marker_path, std::string dir, bool marked) {
  {
    MutexLock lock(unsafe_mu_);
    fs_ = fs;
    marker_path_ = std::move(marker_path);
    dir_ = std::move(dir);
    marked_ = marked;
  }
  if (storage::IndexFile* f = file(); f != nullptr) {
    f->pool()->SetNoSteal(f->file_id(), [this] { return MarkUnsafe(); });
  }
}

Status Index::MarkUnsafe() {
  MutexLock lock(unsafe_mu_);
  ++outside_writes_;
  if (marked_ || fs_ == nullptr) return Status::Ok();
  {
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file, fs_->Open(marker_path_, true));
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
  }
  MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(dir_));
  marked_ = true;
  return Status::Ok();
}

uint64_t Index::outside_writes() const {
  MutexLock lock(unsafe_mu_);
  return outside_writes_;
}

Status Index::ClearUnsafe(uint64_t outside_writes_seen) {
  MutexLock lock(unsafe_mu_);
  if (!marked_ || outside_writes_ != outside_writes_seen || fs_ == nullptr) return Status::Ok();
  MERIDIAN_RETURN_IF_ERROR(fs_->Remove(marker_path_));
  MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(dir_));
  marked_ = false;
  return Status::Ok();
}

Status Index::Close() {
  storage::IndexFile* f = file();
  if (f == nullptr) return Status::Ok();
  Status st = f->Close();
  tree_.reset();
  rtree_.reset();
  return st;
}

}  // namespace meridian::catalog
