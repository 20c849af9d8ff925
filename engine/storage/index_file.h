// IndexFile: what the B+tree and the R*-tree share about their one file: registering it with
// the buffer pool on open, the tree latch (a SharedMutex; each index documents what it
// holds it for), flushing, checkpoint snapshots taken under the exclusive tree latch, and close.
// Concurrency: Flush, SnapshotDirty and Close are thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "meridian/status.h"
#include "meridian/thread_annotations.h"
#include "storage/buffer_pool.h"

namespace meridian::storage {

// XX001 "index \"path\" page N: what" (a corrupt index page).
Status IndexCorruption(const std::string& path, uint32_t page, std::string_view what);

class IndexFile {
 public:
  IndexFile(const IndexFile&) = delete;
  IndexFile& operator=(const IndexFile&) = delete;

  const std::string& path() const { return path_; }
  BufferPool* pool() const { return pool_; }
  FileId file_id() const { return file_; }
  // Writes this file's dirty pages and fsyncs it.
  Status Flush();
  // A consistent image of the index's dirty pages for a checkpoint (BufferPool::SnapshotDirty),
  // taken under the exclusive tree latch, so no operation is half done in it.
  Result<BufferPool::Snapshot> SnapshotDirty(size_t max_pages);
  // Flushes, then detaches the file from the pool. Further calls fail.
  Status Close();

 protected:
  IndexFile() = default;
  // Closes the file if still open (a destructor cannot report; call Close() to see errors).
  ~IndexFile();
  // The Open of an index type T (a friend of IndexFile with a private default constructor
  // and Status Init(const Options&)): opens path (created when absent), registers it with
  // pool and runs Init; on failure the file is unregistered again.
  template <typename T, typename Options>
  static Result<std::unique_ptr<T>> OpenIndex(BufferPool* pool, const std::string& path,
                                              const Options& options) {
    std::unique_ptr<T> index(new T());
    MERIDIAN_RETURN_IF_ERROR(index->Attach(pool, path));
    Status st = index->Init(options);
    if (!st.ok()) {
      index->Detach();
      return st;
    }
    WriterLock tl(index->tree_latch_);  // uncontended: the index is not shared yet
    index->open_ = true;
    return index;
  }
  Status Attach(BufferPool* pool, const std::string& path);
  void Detach();
  Status CheckOpen() const REQUIRES_SHARED(tree_latch_);

  BufferPool* pool_ = nullptr;
  FileId file_ = 0;
  std::string path_;
  bool open_ GUARDED_BY(tree_latch_) = false;  // exclusive to write
  mutable SharedMutex tree_latch_;
};

}  // namespace meridian::storage
