// Doublewrite area: staging of page images before in-place rewrites, and start-up repair
// (see doublewrite.h).
#include "storage/doublewrite.h"

#include <cstring>

#include "storage/byte_codec.h"
#include "storage/crc32c.h"
#include "storage/heap_file.h"  // kPageSize

namespace meridian::storage {
namespace {

constexpr uint32_t kMagic = 0x4257444D;  // "MDWB"
constexpr size_t kHeaderBytes = 64 * 1024;

}  // namespace

Result<std::unique_ptr<Doublewrite>> Doublewrite::Open(FileSystem* fs, const std::string& path,
                                                       const std::string& base_dir) {
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> file, fs->Open(path, /*create=*/true));
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  const uint64_t want = kHeaderBytes + kMaxPages * kPageSize;
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

Status Doublewrite::Stage(const std::vector<Image>& images) {
  if (images.empty()) return Status::Ok();
  if (images.size() > kMaxPages) return Status::Internal("doublewrite batch too large");
  std::string entries;
  for (const Image& im : images) {
    const std::string name = RelativeName(im.file->path());
    PutFixed<uint32_t>(&entries, im.page_no);
    PutFixed<uint32_t>(&entries, Crc32c(im.data, kPageSize));
    PutFixed<uint16_t>(&entries, static_cast<uint16_t>(name.size()));
    entries += name;
  }
  std::string header;
  PutFixed<uint32_t>(&header, kMagic);
  PutFixed<uint32_t>(&header, static_cast<uint32_t>(images.size()));
  PutFixed<uint32_t>(&header, Crc32c(entries.data(), entries.size()));
  header += entries;
  if (header.size() > kHeaderBytes) return Status::Internal("doublewrite header overflow");
  std::string body(images.size() * kPageSize, '\0');
  for (size_t i = 0; i < images.size(); ++i) {
    std::memcpy(body.data() + i * kPageSize, images[i].data, kPageSize);
  }
  MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(kHeaderBytes, body));
  MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(0, header));
  MERIDIAN_RETURN_IF_ERROR(file_->Sync());
  pages_staged_ += images.size();
  return Status::Ok();
}

Status Doublewrite::Clear() {
  MERIDIAN_RETURN_IF_ERROR(file_->WriteAt(0, std::string(16, '\0')));
  return file_->Sync();
}

Result<size_t> Doublewrite::Recover(FileSystem* fs, const std::string& path,
                                    const std::string& base_dir) {
  MERIDIAN_ASSIGN_OR_RETURN(bool exists, fs->Exists(path));
  if (!exists) return size_t{0};
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> file, fs->Open(path, false));
  std::string header(kHeaderBytes, '\0');
  size_t got = 0;
  MERIDIAN_RETURN_IF_ERROR(file->ReadAt(0, header.size(), header.data(), &got));
  header.resize(got);
  size_t pos = 0;
  uint32_t magic = 0, count = 0, crc = 0;
  if (!GetFixed(header, &pos, &magic) || magic != kMagic || !GetFixed(header, &pos, &count) ||
      !GetFixed(header, &pos, &crc) || count > kMaxPages) {
    return size_t{0};  // empty, cleared or torn header: no in-place write had begun
  }
  struct Entry {
    uint32_t page_no, crc;
    std::string name;
  };
  std::vector<Entry> entries;
  const size_t entries_at = pos;
  for (uint32_t i = 0; i < count; ++i) {
    Entry e;
    uint16_t len = 0;
    if (!GetFixed(header, &pos, &e.page_no) || !GetFixed(header, &pos, &e.crc) ||
        !GetFixed(header, &pos, &len) || header.size() - pos < len) {
      return size_t{0};
    }
    e.name = header.substr(pos, len);
    pos += len;
    entries.push_back(std::move(e));
  }
  if (Crc32c(header.data() + entries_at, pos - entries_at) != crc) return size_t{0};
  size_t restored = 0;
  std::string image(kPageSize, '\0'), current(kPageSize, '\0');
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    MERIDIAN_RETURN_IF_ERROR(
        file->ReadAt(kHeaderBytes + i * kPageSize, kPageSize, image.data(), &got));
    if (got != kPageSize || Crc32c(image.data(), kPageSize) != e.crc) continue;  // torn copy
    const std::string target =
        e.name.empty() || e.name[0] == '/' ? e.name : base_dir + "/" + e.name;
    MERIDIAN_ASSIGN_OR_RETURN(bool target_exists, fs->Exists(target));
    if (!target_exists) continue;  // dropped since
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> f, fs->Open(target, false));
    std::fill(current.begin(), current.end(), '\0');
    MERIDIAN_RETURN_IF_ERROR(
        f->ReadAt(uint64_t{e.page_no} * kPageSize, kPageSize, current.data(), &got));
    if (current == image) continue;
    MERIDIAN_RETURN_IF_ERROR(f->WriteAt(uint64_t{e.page_no} * kPageSize, image));
    MERIDIAN_RETURN_IF_ERROR(f->Sync());
    ++restored;
  }
  MERIDIAN_RETURN_IF_ERROR(file->WriteAt(0, std::string(16, '\0')));
  MERIDIAN_RETURN_IF_ERROR(file->Sync());
  return restored;
}

}  // namespace meridian::storage
