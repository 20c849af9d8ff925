// IndexFile: open/close, flush and checkpoint snapshots of one index file (index_file.h).
#include "storage/index_file.h"

#include <mutex>

namespace meridian::storage {

Status IndexCorruption(const std::string& path, uint32_t page, std::string_view what) {
  std::string msg = "index \"";
  msg.append(path).append("\" page ").append(std::to_string(page)).append(": ").append(what);
  return Status::Corruption(std::move(msg));
}

IndexFile::~IndexFile() {
  if (open_) {
    [[maybe_unused]] Status st = Close();
  }
}

Status IndexFile::Attach(BufferPool* pool, const std::string& path) {
  MERIDIAN_ASSIGN_OR_RETURN(auto file, pool->file_system()->Open(path, /*create=*/true));
  MERIDIAN_ASSIGN_OR_RETURN(FileId id, pool->RegisterFile(std::move(file)));
  pool_ = pool;
  file_ = id;
  path_ = path;
  return Status::Ok();
}

void IndexFile::Detach() { [[maybe_unused]] Status ignored = pool_->UnregisterFile(file_); }

Status IndexFile::Flush() { return pool_->FlushFile(file_); }

Result<BufferPool::Snapshot> IndexFile::SnapshotDirty(size_t max_pages) {
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  return pool_->SnapshotDirty(file_, max_pages);
}

Status IndexFile::Close() {
  WriterLock tl(tree_latch_);
  if (!open_) return Status::Internal("index is closed");
  open_ = false;
  MERIDIAN_RETURN_IF_ERROR(pool_->FlushFile(file_));
  return pool_->UnregisterFile(file_);
}

Status IndexFile::CheckOpen() const {
  return open_ ? Status::Ok() : Status::Internal("index is closed");
}

}  // namespace meridian::storage
