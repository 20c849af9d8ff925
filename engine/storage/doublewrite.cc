// Doublewrite area: staging of page images before in-place rewrites, and start-up repair
// (see doublewrite.h).
#include "storage/doublewrite.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "storage/byte_codec.h"
#include "storage/crc32c.h"
#include "storage/heap_file.h"  // kPageSize

namespace meridian::storage {
namespace {

constexpr uint32_t kMagic = 0x4257444D;   // "MDWB": format 1, one area, no sequence number
constexpr uint32_t kMagic2 = 0x3257444D;  // "MDW2": kAreas areas, each batch numbered
constexpr uint32_t kMagic3 = 0x3357444D;  // "MDW3": as MDW2, plus a record after the entries
constexpr size_t kHeaderBytes = 64 * 1024;
constexpr uint64_t kAreaBytes = kHeaderBytes + Doublewrite::kMaxPages * kPageSize;

}  // namespace

Result<std::unique_ptr<Doublewrite>> Doublewrite::Open(FileSystem* fs, const std::string& path,
                                                       const std::string& base_dir) {
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> file, fs->Open(path, /*create=*/true));
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  const uint64_t want = kAreas * kAreaBytes;
  if (size < want) {
    MERIDIAN_RETURN_IF_ERROR(file->Allocate(0, want));
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
  }
  return std::unique_ptr<Doublewrite>(new Doublewrite(std::move(file), base_dir));
}

std::string Doublewrite::RelativeName(const std::string& path) const {
  const std::string prefix = base_dir_ + "/";
  if (path.compare(0, prefix.size(), prefix) == 0) return path.substr(prefix.size());
  return path;
}

Status Doublewrite::WriteHeader(int area) {
  const Area& a = areas_[area];
  std::string numbered;  // the sequence number, then the entries: what the CRC covers
  PutFixed<uint64_t>(&numbered, a.seq);
  for (const Entry& e : a.entries) {
    PutFixed<uint32_t>(&numbered, e.page_no);
    PutFixed<uint32_t>(&numbered, e.crc);
    PutFixed<uint16_t>(&numbered, static_cast<uint16_t>(e.name.size()));
    numbered += e.name;
  }
  PutFixed<uint32_t>(&numbered, static_cast<uint32_t>(a.record.size()));
  numbered += a.record;
  std::string header;
  PutFixed<uint32_t>(&header, kMagic3);
  PutFixed<uint32_t>(&header, static_cast<uint32_t>(a.entries.size()));
  PutFixed<uint32_t>(&header, Crc32c(numbered.data(), numbered.size()));
  header += numbered;
  if (header.size() > kHeaderBytes) return Status::Internal("doublewrite header overflow");
  return file_->WriteAt(static_cast<uint64_t>(area) * kAreaBytes, header);
}

Status Doublewrite::Stage(const std::vector<Image>& images, std::string_view record,
                         bool* embedded) {
  if (embedded != nullptr) *embedded = false;
  if (images.empty()) return Status::Ok();
  if (images.size() > kMaxPages) return Status::Internal("doublewrite batch too large");
  Area area;
  area.seq = seq_ + 1;
  size_t header_bytes = 32;  // magic, count, CRC, number, record length
  for (const Image& im : images) {
    area.entries.push_back({RelativeName(im.file->path()), im.page_no, Crc32c(im.data, kPageSize)});
    header_bytes += 10 + area.entries.back().name.size();
  }
  if (!record.empty() && header_bytes + record.size() <= kHeaderBytes) {
    area.record = std::string(record);
    if (embedded != nullptr) *embedded = true;
  }
  std::string body(images.size() * kPageSize, '\0');
  for (size_t i = 0; i < images.size(); ++i) {
    std::memcpy(body.data() + i * kPageSize, images[i].data, kPageSize);
  }
  const uint64_t at = next_area_ * kAreaBytes;
  MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(at + kHeaderBytes, body));
  areas_[next_area_] = std::move(area);
  MERIDIAN_RETURN_IF_ERROR(WriteHeader(next_area_));
  MERIDIAN_RETURN_IF_ERROR(file_->Sync());
  ++seq_;
  next_area_ = (next_area_ + 1) % kAreas;
  pages_staged_ += images.size();
  return Status::Ok();
}

std::vector<int> Doublewrite::AreasHolding(const File* file,
                                           const std::vector<uint32_t>& pages) const {
  const std::string name = RelativeName(file->path());
  const std::set<uint32_t> wanted(pages.begin(), pages.end());
  std::vector<int> out;
  for (int a = 0; a < kAreas; ++a) {
    for (const Entry& e : areas_[a].entries) {
      if (e.name == name && wanted.count(e.page_no) != 0) {
        out.push_back(a);
        break;
      }
    }
  }
  return out;
}

Status Doublewrite::Forget(const File* file, const std::vector<uint32_t>& pages) {
  const std::string name = RelativeName(file->path());
  const std::set<uint32_t> forget(pages.begin(), pages.end());
  bool changed = false;
  for (int a = 0; a < kAreas; ++a) {
    bool area_changed = false;
    for (Entry& e : areas_[a].entries) {
      if (e.name != name || forget.count(e.page_no) == 0) continue;
      e.crc = ~e.crc;   // never the checksum of the image it stands for
      e.name.clear();   // and matched only once
      area_changed = true;
    }
    if (area_changed) MERIDIAN_RETURN_IF_ERROR(WriteHeader(a));
    changed = changed || area_changed;
  }
  return changed ? file_->Sync() : Status::Ok();
}

Status Doublewrite::Clear() {
  for (Area& a : areas_) a = Area{};
  for (uint64_t area = 0; area < kAreas; ++area) {
    MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(area * kAreaBytes, std::string(16, '\0')));
  }
  return file_->Sync();
}

Result<size_t> Doublewrite::Recover(FileSystem* fs, const std::string& path,
                                    const std::string& base_dir, const KeepRecords& keep) {
  MERIDIAN_ASSIGN_OR_RETURN(bool exists, fs->Exists(path));
  if (!exists) return size_t{0};
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> file, fs->Open(path, false));
  struct Entry {
    uint32_t page_no, crc;
    std::string name;
  };
  struct Batch {
    uint64_t seq = 0;
    uint64_t images_at = 0;
    std::vector<Entry> entries;
    std::string record;
  };
  // Each area's batch, when its header is intact (an empty, cleared or torn header means no
  // in-place write of that batch had begun). A format-1 file has one unnumbered area.
  std::vector<Batch> batches;
  for (uint64_t area = 0; area < kAreas; ++area) {
    std::string header(kHeaderBytes, '\0');
    size_t got = 0;
    MERIDIAN_RETURN_IF_ERROR(file->ReadAt(area * kAreaBytes, header.size(), header.data(), &got));
    header.resize(got);
    size_t pos = 0;
    uint32_t magic = 0, count = 0, crc = 0;
    if (!GetFixed(header, &pos, &magic) ||
        (magic != kMagic3 && magic != kMagic2 && !(magic == kMagic && area == 0)) ||
        !GetFixed(header, &pos, &count) || !GetFixed(header, &pos, &crc) || count > kMaxPages) {
      continue;
    }
    Batch batch;
    batch.images_at = area * kAreaBytes + kHeaderBytes;
    const size_t covered_from = pos;
    if (magic != kMagic && !GetFixed(header, &pos, &batch.seq)) continue;
    bool ok = true;
    for (uint32_t i = 0; i < count && ok; ++i) {
      Entry e;
      uint16_t len = 0;
      ok = GetFixed(header, &pos, &e.page_no) && GetFixed(header, &pos, &e.crc) &&
           GetFixed(header, &pos, &len) && header.size() - pos >= len;
      if (!ok) break;
      e.name = header.substr(pos, len);
      pos += len;
      batch.entries.push_back(std::move(e));
    }
    if (ok && magic == kMagic3) {
      uint32_t len = 0;
      ok = GetFixed(header, &pos, &len) && header.size() - pos >= len;
      if (ok) {
        batch.record = header.substr(pos, len);
        pos += len;
      }
    }
    if (!ok || Crc32c(header.data() + covered_from, pos - covered_from) != crc) continue;
    batches.push_back(std::move(batch));
  }
  // Newest batch first: each page gets the newest intact image any area holds (an older copy
  // only where the newer one is torn), written once; each file is synced once at the end.
  std::sort(batches.begin(), batches.end(),
            [](const Batch& a, const Batch& b) { return a.seq > b.seq; });
  size_t restored = 0;
  std::set<std::pair<std::string, uint32_t>> done;  // (file, page) already decided
  std::map<std::string, std::unique_ptr<File>> written;
  std::vector<std::pair<uint64_t, std::string>> records;  // (batch number, record)
  std::string image(kPageSize, '\0'), current(kPageSize, '\0');
  for (const Batch& batch : batches) {
    bool whole = true;  // every image of the batch intact (entries Forget disabled aside)
    for (size_t i = 0; i < batch.entries.size(); ++i) {
      const Entry& e = batch.entries[i];
      const std::string target =
          e.name.empty() || e.name[0] == '/' ? e.name : base_dir + "/" + e.name;
      // A page already decided is read again only to tell whether a record's batch is whole.
      if (batch.record.empty() && done.count({target, e.page_no}) != 0) continue;
      size_t got = 0;
      MERIDIAN_RETURN_IF_ERROR(
          file->ReadAt(batch.images_at + i * kPageSize, kPageSize, image.data(), &got));
      if (got != kPageSize || Crc32c(image.data(), kPageSize) != e.crc) {  // torn copy
        whole = whole && e.name.empty();
        continue;
      }
      if (done.count({target, e.page_no}) != 0) continue;
      done.insert({target, e.page_no});
      auto it = written.find(target);
      if (it == written.end()) {
        MERIDIAN_ASSIGN_OR_RETURN(bool target_exists, fs->Exists(target));
        if (!target_exists) continue;  // dropped since
        MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> f, fs->Open(target, false));
        it = written.emplace(target, std::move(f)).first;
      }
      std::fill(current.begin(), current.end(), '\0');
      MERIDIAN_RETURN_IF_ERROR(
          it->second->ReadAt(uint64_t{e.page_no} * kPageSize, kPageSize, current.data(), &got));
      if (current == image) continue;
      MERIDIAN_RETURN_IF_ERROR(it->second->WriteAt(uint64_t{e.page_no} * kPageSize, image));
      ++restored;
    }
    if (whole && !batch.record.empty()) records.emplace_back(batch.seq, batch.record);
  }
  for (auto& [path, f] : written) MERIDIAN_RETURN_IF_ERROR(f->Sync());
  if (!records.empty()) {
    if (!keep) return Status::Internal("doublewrite area holds commit records nobody keeps");
    std::sort(records.begin(), records.end());
    std::vector<std::string> ordered;
    for (auto& [seq, record] : records) ordered.push_back(std::move(record));
    MERIDIAN_RETURN_IF_ERROR(keep(ordered));
  }
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  for (uint64_t area = 0; area < kAreas && (area == 0 || area * kAreaBytes < size); ++area) {
    MERIDIAN_RETURN_IF_ERROR(file->WriteAt(area * kAreaBytes, std::string(16, '\0')));
  }
  MERIDIAN_RETURN_IF_ERROR(file->Sync());
  return restored;
}

}  // namespace meridian::storage
