// Table runtime state: usability checks, primary-key set construction and closing.
#include "catalog/table.h"

#include "catalog/key_encoding.h"
#include "storage/tuple.h"

namespace meridian::catalog {

Table::Table(std::shared_ptr<const TableSchema> schema, std::unique_ptr<storage::HeapFile> heap)
    : schema_(std::move(schema)), types_(schema_->Types()), heap_(std::move(heap)) {}

Table::~Table() {
  if (heap_ != nullptr) (void)heap_->Close();
}

Status Table::CheckUsable() const {
  if (heap_ != nullptr) return Status::Ok();
  if (dropped_) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "relation \"" + schema_->name + "\" was dropped");
  }
  return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
}

std::vector<Value> Table::KeyValues(const Row& row) const {
  std::vector<Value> key;
  key.reserve(schema_->primary_key.size());
  for (int c : schema_->primary_key) key.push_back(row[c]);
  return key;
}

Status Table::BuildPrimaryKeySet() {
  if (!has_primary_key() || heap_ == nullptr) return Status::Ok();
  storage::HeapFile::Cursor cursor = heap_->Scan();
  storage::Rid rid;
  std::string bytes;
  Row row;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.Next(&rid, &bytes));
    if (!more) break;
    MERIDIAN_RETURN_IF_ERROR(storage::DecodeTuple(bytes, types_, &row));
    pk_.Insert(EncodeKey(KeyValues(row)));
  }
  return Status::Ok();
}

Status Table::CloseHeap(bool dropped) {
  if (heap_ == nullptr) return Status::Ok();
  Status st = heap_->Close();
  heap_.reset();
  dropped_ = dropped;
  return st;
}

}  // namespace meridian::catalog
