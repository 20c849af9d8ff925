// verify_indexes DATA_DIR [POOL_PAGES]: opens a stopped meridiand's data directory through the catalog (the
// recovery a daemon start would do, if it was not stopped cleanly) and runs Verify() on every
// index: an R*-tree's boxes, fill bounds and reachability, a B+tree's order and links. Prints
// one line per index; exit 0 when all pass, 1 otherwise. For the crash tests in this folder.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "catalog/catalog.h"
#include "execution/index_exprs.h"
#include "function/builtin.h"
#include "storage/buffer_pool.h"

int main(int argc, char** argv) {
  using namespace meridian;
  // Expression and partial indexes are bound again at open, as the daemon does.
  exec::RegisterBuiltinFunctions();
  catalog::SetIndexExprCompiler(&exec::CompileIndexExpressions);
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: verify_indexes DATA_DIR [POOL_PAGES]\n");
    return 2;
  }
  // 128 MiB unless given (a small pool recovers as a daemon with that pool would).
  storage::BufferPool pool(argc == 3 ? std::strtoul(argv[2], nullptr, 10) : 16384);
  auto catalog = catalog::Catalog::Open(argv[1], &pool);
  if (!catalog.ok()) {
    std::fprintf(stderr, "open failed: %s\n", catalog.status().ToString().c_str());
    return 1;
  }
  int failed = 0;
  for (const std::shared_ptr<catalog::Table>& table : (*catalog)->List()) {
    for (const std::shared_ptr<catalog::Index>& index : table->IndexSnapshot()) {
      Status st;
      uint64_t entries = 0;
      if (storage::RTree* r = index->rtree()) {
        auto stats = r->Verify();
        st = stats.status();
        if (stats.ok()) entries = stats->entries;
      } else if (storage::BTree* b = index->tree()) {
        auto stats = b->Verify();
        st = stats.status();
        if (stats.ok()) entries = stats->entries;
      }
      std::printf("index %s (%s) of %s: %s, %llu entries\n", index->name().c_str(),
                  index->schema().IsRtree() ? "rtree" : "btree", table->name().c_str(),
                  st.ok() ? "ok" : st.ToString().c_str(),
                  static_cast<unsigned long long>(entries));
      failed += st.ok() ? 0 : 1;
    }
  }
  Status closed = (*catalog)->Close();
  if (!closed.ok()) {
    std::fprintf(stderr, "close failed: %s\n", closed.ToString().c_str());
    return 1;
  }
  return failed == 0 ? 0 : 1;
}
