// The layout check of a page image read from disk, after its checksum (BufferPool::ReadPage).
#pragma once

#include "meridian/status.h"

namespace meridian::storage {

// A heap page or a B+tree node whose checksum matches but whose header, slots or cells point
// outside the page (written wrongly, or changed before its checksum was computed) is Corruption
// (XX001), never handed to the readers, which trust the bounds of a page in the pool. Unknown
// page types are corruption too. R*-tree nodes are checked against their tree's dimensions and
// capacity where they are read (RTree::ReadNode), B+tree and R*-tree meta pages by their trees.
Status VerifyPageLayout(const char* page);

}  // namespace meridian::storage
