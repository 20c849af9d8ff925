// VerifyPageLayout: each page type's own consistency check (page.h, btree_page.h).
#include "storage/page_layout.h"

#include <cstdint>
#include <string>

#include "storage/btree_page.h"
#include "storage/page.h"

namespace meridian::storage {

Status VerifyPageLayout(const char* page) {
  auto type = static_cast<PageType>(static_cast<uint8_t>(page[kPageTypeOffset]));
  switch (type) {
    case PageType::kFree:
    case PageType::kBTreeMeta:
    case PageType::kBTreeFree:
    case PageType::kRTreeMeta:
    case PageType::kRTreeInternal:
    case PageType::kRTreeLeaf:
    case PageType::kRTreeFree:
      return Status::Ok();
    case PageType::kHeap:
      if (SlottedPage(const_cast<char*>(page)).IsConsistent()) return Status::Ok();  // const use
      return Status::Corruption("inconsistent heap page layout");
    case PageType::kBTreeInternal:
    case PageType::kBTreeLeaf:
      if (BTreePage(page).IsConsistent()) return Status::Ok();
      return Status::Corruption("inconsistent B+tree node layout");
  }
  return Status::Corruption("unknown page type " +
                            std::to_string(static_cast<uint8_t>(page[kPageTypeOffset])));
}

}  // namespace meridian::storage
