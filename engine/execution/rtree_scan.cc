// RTreeScanOp: query box → RTree::Search → rids in heap order → visible rows that pass the
// re-check (see operators.h).
#include <algorithm>
#include <cmath>
#include <limits>

#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "execution/operators.h"
#include "meridian/geometry.h"

namespace meridian::exec {

RTreeScanOp::RTreeScanOp(std::shared_ptr<catalog::Table> table,
                         std::shared_ptr<catalog::Index> index, std::vector<KeyRange> box,
                         std::vector<BoundExprPtr> conds, const BoundExpr* nearest,
                         std::vector<int> point_dims, const BoundExpr* geo_query, bool index_only)
    : nearest_(nearest),
      geo_query_(geo_query),
      point_dims_(std::move(point_dims)),
      table_(std::move(table)),
      width_(table_->types().size()),
      index_(std::move(index)),
      box_(std::move(box)),
      conds_(std::move(conds)) {
  index_only_ = index_only && nearest_ == nullptr;
}

RTreeScanOp::~RTreeScanOp() = default;

std::string RTreeScanOp::AnalyzeDetail() const {
  if (!index_only_) return {};
  return "Heap Fetches: " + std::to_string(heap_fetches_);
}

void RTreeScanOp::PruneColumns(const std::vector<bool>& needed) {
  entry_needed_ = false;
  for (int c : index_->schema().columns) {
    // Columns past needed's end are not needed (HashAggregateOp passes what its expressions read).
    if (c < 0 || (static_cast<size_t>(c) < needed.size() && needed[static_cast<size_t>(c)])) {
      entry_needed_ = true;
    }
  }
}

bool RTreeScanOp::SurelyPasses(const storage::Box& b) const {
  // A row strictly inside the box passes every box condition without evaluating it: the
  // float64 rounding of values and bounds is monotonic, so round(v) > round(b) implies
  // v > b (and so for <). Rows on the box's boundary (strict bounds, equalities, values
  // rounded onto a bound) are re-checked.
  if (geo_sure_ != 0) {
    const storage::Box& q = geo_exact_;
    return geo_sure_ == 1 ? q.Contains(b, 2) : geo_sure_ == 2 ? q.Overlaps(b, 2) : b.Contains(q, 2);
  }
  if (nearest_ != nullptr || geo_query_ != nullptr) return false;
  for (size_t d = 0; d < box_.size(); ++d) {
    if (!(query_.lo[d] < b.lo[d] && b.lo[d] < query_.hi[d])) return false;
  }
  return true;
}

bool RTreeScanOp::RowFromEntry(const storage::Box& box, Row* row) const {
  const catalog::IndexSchema& schema = index_->schema();
  row->assign(width_, Value::Null());
  for (size_t d = 0; d < schema.columns.size(); ++d) {
    const size_t col = static_cast<size_t>(schema.columns[d]);
    const TypeId t = table_->types()[col].id;
    if (t == TypeId::kPoint || t == TypeId::kBox) {
      for (size_t k = 0; k < 2; ++k) {
        if (!std::isfinite(box.lo[k]) || !std::isfinite(box.hi[k])) return false;
      }
      const geo::Point lo{box.lo[0], box.lo[1]};
      const geo::Point hi{box.hi[0], box.hi[1]};
      (*row)[col] = Value::String(t == TypeId::kPoint ? geo::FormatPoint(lo)
                                                      : geo::FormatBox(geo::Box{hi, lo}));
      return true;  // one column
    }
    const double x = box.lo[d];
    if (!std::isfinite(x)) return false;  // NaN is indexed as infinity
    if (t == TypeId::kDouble) {
      (*row)[col] = Value::Double(x);
    } else if ((t == TypeId::kInteger || t == TypeId::kSmallInt) && std::trunc(x) == x &&
               std::fabs(x) < 4294967296.0) {
      (*row)[col] = Value::Int(static_cast<int64_t>(x));
    } else {
      return false;
    }
  }
  return true;
}

namespace {

// One end of the box from a bound expression; false when it is NULL (nothing matches).
Result<bool> BoxEnd(const BoundExpr* e, double open, const EvalContext& ctx, double* out) {
  if (e == nullptr) {
    *out = open;
    return true;
  }
  MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx));
  if (v.IsNull()) return false;
  if (!catalog::RTreeCoordinate(v, out)) *out = open;  // not a number: the re-check decides
  return true;
}

// For the one condition of a scan over a point or box column: the test of the row's box B
// against the exact query box that implies it (RTreeScanOp::geo_sure_), 0 when there is none.
int GeometrySureTest(const BoundExpr& c) {
  if (c.kind != BoundKind::kFunction || c.children.size() != 2) return 0;
  const bool col_first = c.children[0]->kind == BoundKind::kColumn && c.children[0]->depth == 0;
  const std::string& f = c.name;
  if (f == "box_overlap") return 2;
  if (f == "on_pb" || f == "box_contain_pt") return col_first == (f == "on_pb") ? 1 : 3;
  if (f == "box_contained") return col_first ? 1 : 3;
  if (f == "box_contain") return col_first ? 3 : 1;
  return 0;
}

}  // namespace

Status RTreeScanOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  storage::RTree* tree = index_->rtree();
  if (tree == nullptr) {
    return Status::Error(sqlstate::kUndefinedObject,
                         "index \"" + index_->name() + "\" was dropped");
  }
  ctx_ = EvalContext{nullptr, outer, exec};
  rids_.clear();
  boxes_.clear();
  next_ = 0;
  until_check_ = 0;
  geo_sure_ = 0;
  // Before any entry is read (docs/storage.md, visibility map invariant 4).
  removal_epoch_ = table_->heap()->removal_epoch();
  Row empty;
  const EvalContext bound_ctx{&empty, outer, exec};
  if (nearest_ != nullptr) {
    // The query point; a NULL one makes every distance NULL (any order is the order).
    point_.assign(tree->dims(), 0.0);
    MERIDIAN_ASSIGN_OR_RETURN(Value p, Eval(*nearest_, bound_ctx));
    if (p.IsString()) {  // a point (an index on a point or box column)
      const geo::Point q = geo::PointOf(p.AsString());
      point_[0] = q.x;
      point_[1] = q.y;
    } else if (!p.IsNull()) {
      const std::vector<Value>& coords = p.AsArray();
      for (size_t j = 0; j < coords.size() && j < point_dims_.size(); ++j) {
        double x = 0;
        if (catalog::RTreeCoordinate(coords[j], &x)) point_[point_dims_[j]] = x;
      }
    }
    found_ = 0;
    handed_.clear();
    batch_ = 64;
    exhausted_ = false;
    return Status::Ok();
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  storage::Box& query = query_;
  if (geo_query_ != nullptr) {
    // Every operator the index serves (&& @> <@ ~= with EPSILON's fuzz, exact point-in-box)
    // holds only for entries overlapping the query widened by EPSILON; the re-check decides.
    MERIDIAN_ASSIGN_OR_RETURN(Value q, Eval(*geo_query_, bound_ctx));
    if (!catalog::RTreeGeometry(q, &query)) return Status::Ok();  // NULL or NaN: no rows
    geo_exact_ = query;
    geo_sure_ = conds_.size() == 1 ? GeometrySureTest(*conds_[0]) : 0;
    for (size_t d = 0; d < 2; ++d) {
      query.lo[d] -= geo::kEpsilon;
      query.hi[d] += geo::kEpsilon;
    }
    return SearchQuery(tree, storage::RTreeOp::kOverlaps);
  }
  for (size_t d = 0; d < box_.size(); ++d) {
    MERIDIAN_ASSIGN_OR_RETURN(bool lo_ok, BoxEnd(box_[d].lower, -kInf, bound_ctx, &query.lo[d]));
    MERIDIAN_ASSIGN_OR_RETURN(bool hi_ok, BoxEnd(box_[d].upper, kInf, bound_ctx, &query.hi[d]));
    if (!lo_ok || !hi_ok || query.lo[d] > query.hi[d]) return Status::Ok();  // empty box
  }
  return SearchQuery(tree, storage::RTreeOp::kContainedBy);
}

Status RTreeScanOp::SearchQuery(storage::RTree* tree, storage::RTreeOp op) {
  if (index_only_) {
    std::vector<std::pair<storage::Rid, storage::Box>> found;
    MERIDIAN_RETURN_IF_ERROR(tree->Search(op, query_, [&](const storage::Box& b, storage::Rid rid) {
      found.emplace_back(rid, b);
      return true;
    }));
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
      return a.first.page != b.first.page ? a.first.page < b.first.page
                                          : a.first.slot < b.first.slot;
    });
    for (size_t i = 0; i < found.size(); ++i) {
      if (i > 0 && found[i].first == found[i - 1].first) continue;
      rids_.push_back(found[i].first);
      boxes_.push_back(found[i].second);
    }
    return Status::Ok();
  }
  MERIDIAN_RETURN_IF_ERROR(tree->Search(op, query_, [&](const storage::Box&, storage::Rid rid) {
    rids_.push_back(rid);
    return true;
  }));
  auto before = [](storage::Rid a, storage::Rid b) {
    return a.page != b.page ? a.page < b.page : a.slot < b.slot;
  };
  auto same = [](storage::Rid a, storage::Rid b) { return a.page == b.page && a.slot == b.slot; };
  std::sort(rids_.begin(), rids_.end(), before);
  rids_.erase(std::unique(rids_.begin(), rids_.end(), same), rids_.end());
  return Status::Ok();
}

Result<bool> RTreeScanOp::NextBatch() {
  if (exhausted_) return false;
  storage::RTree* tree = index_->rtree();
  if (tree == nullptr) {
    return Status::Error(sqlstate::kUndefinedObject,
                         "index \"" + index_->name() + "\" was dropped");
  }
  // A fresh best-first search for found_ + batch_ entries, skipping the rids handed out
  // (matched by rid, not position: writers may have added or removed entries since; an entry
  // added since names a version this snapshot does not see).
  rids_.clear();
  next_ = 0;
  size_t seen = 0;
  const size_t want = found_ + batch_;
  MERIDIAN_RETURN_IF_ERROR(
      tree->Nearest(point_, want, [&](const storage::Box&, storage::Rid rid, double) {
        ++seen;
        if (handed_.count(uint64_t{rid.page} << 16 | rid.slot) == 0) rids_.push_back(rid);
        return true;
      }));
  exhausted_ = seen < want;
  found_ += rids_.size();
  batch_ *= 4;
  return !rids_.empty();
}

Result<bool> RTreeScanOp::Next(Row* row) {
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  const catalog::Transaction* txn = exec_ != nullptr ? exec_->txn : nullptr;
  while (true) {
    if (next_ == rids_.size()) {
      if (nearest_ == nullptr) return false;
      MERIDIAN_ASSIGN_OR_RETURN(bool more, NextBatch());
      if (!more) return false;
    }
    if (--until_check_ <= 0) {
      until_check_ = kCheckInterval;
      if (exec_ != nullptr && exec_->ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
    }
    const size_t at = next_++;
    rid_ = rids_[at];
    if (nearest_ != nullptr) handed_.insert(uint64_t{rid_.page} << 16 | rid_.slot);
    bool from_index = false;
    if (index_only_ && txn != nullptr) {
      storage::HeapFile* heap = table_->heap();
      if (heap->AllVisible(rid_.page) && heap->removal_epoch() == removal_epoch_) {
        const storage::Box& entry = boxes_[at];
        // The consumer reads no indexed column (count(*)) and the entry surely passes: no
        // row to build.
        if (!entry_needed_ && SurelyPasses(entry)) {
          row->assign(width_, Value::Null());
          return true;
        }
        from_index = RowFromEntry(entry, row);
      }
      if (!from_index) ++heap_fetches_;
    }
    if (!from_index) {
      MERIDIAN_ASSIGN_OR_RETURN(bool visible, FetchVisibleVersion(*table_, rid_, txn, &bytes_));
      if (!visible) continue;
      MERIDIAN_RETURN_IF_ERROR(table_->DecodeRow(bytes_, row));
      row->resize(width_);
    }
    storage::Box b;
    if ((geo_sure_ != 0 || (nearest_ == nullptr && geo_query_ == nullptr)) &&
        index_->RowPoint(*row, &b) && SurelyPasses(b)) {
      return true;
    }
    ctx_.row = row;
    bool pass = true;
    for (const BoundExprPtr& c : conds_) {
      MERIDIAN_ASSIGN_OR_RETURN(pass, EvalPredicate(*c, ctx_));
      if (!pass) break;
    }
    if (pass) return true;
  }
}

}  // namespace meridian::exec
