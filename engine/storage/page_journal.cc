// PageJournal: one all-or-nothing batch of page images, and its replay at start-up (see
// page_journal.h).
#include "storage/page_journal.h"

#include <cstring>
#include <map>
#include <set>

#include "storage/byte_codec.h"
#include "storage/crc32c.h"
#include "storage/heap_file.h"  // kPageSize

namespace meridian::storage {
namespace {

constexpr uint32_t kMagic = 0x314A504D;  // "MPJ1"
constexpr size_t kHeaderBytes = 20;

std::string Relative(const std::string& path, const std::string& base_dir) {
  const std::string prefix = base_dir + "/";
  if (path.compare(0, prefix.size(), prefix) == 0) return path.substr(prefix.size());
  return path;
}

}  // namespace

Status PageJournal::Write(FileSystem* fs, const std::string& path, const std::string& base_dir,
                          const std::vector<Image>& images) {
  // The body is written in chunks of about 1 MiB (no second copy of every image in memory);
  // the header, with the body's length and checksum, goes last but at offset 0, and one
  // fdatasync covers all: a crash before it completes leaves a header or body that does not
  // check out.
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> file, fs->Open(path, /*create=*/true));
  constexpr size_t kChunk = 1 << 20;
  std::string chunk;
  uint64_t offset = kHeaderBytes, length = 0;
  uint32_t crc = 0;
  auto flush = [&]() -> Status {
    if (chunk.empty()) return Status::Ok();
    crc = Crc32cExtend(crc, chunk.data(), chunk.size());
    MERIDIAN_RETURN_IF_ERROR(file->WriteAt(offset, chunk));
    offset += chunk.size();
    length += chunk.size();
    chunk.clear();
    return Status::Ok();
  };
  for (const Image& im : images) {
    const std::string name = Relative(im.path, base_dir);
    PutFixed<uint32_t>(&chunk, im.page_no);
    PutFixed<uint16_t>(&chunk, static_cast<uint16_t>(name.size()));
    chunk += name;
    chunk.append(im.data, kPageSize);
    if (chunk.size() >= kChunk) MERIDIAN_RETURN_IF_ERROR(flush());
  }
  MERIDIAN_RETURN_IF_ERROR(flush());
  std::string header;
  PutFixed<uint32_t>(&header, kMagic);
  PutFixed<uint32_t>(&header, static_cast<uint32_t>(images.size()));
  PutFixed<uint64_t>(&header, length);
  PutFixed<uint32_t>(&header, crc);
  MERIDIAN_RETURN_IF_ERROR(file->WriteAt(0, header));
  return file->Sync();
}

Result<size_t> PageJournal::Recover(FileSystem* fs, const std::string& path,
                                    const std::string& base_dir) {
  MERIDIAN_ASSIGN_OR_RETURN(bool exists, fs->Exists(path));
  if (!exists) return size_t{0};
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<File> file, fs->Open(path, /*create=*/false));
  std::string header(kHeaderBytes, '\0');
  size_t got = 0;
  MERIDIAN_RETURN_IF_ERROR(file->ReadAt(0, kHeaderBytes, header.data(), &got));
  size_t pos = 0;
  uint32_t magic = 0, count = 0, crc = 0;
  uint64_t length = 0;
  if (got < kHeaderBytes || !GetFixed(std::string_view(header), &pos, &magic) || magic != kMagic ||
      !GetFixed(std::string_view(header), &pos, &count) ||
      !GetFixed(std::string_view(header), &pos, &length) ||
      !GetFixed(std::string_view(header), &pos, &crc)) {
    return size_t{0};  // empty, or torn before its header was complete
  }
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  if (length > size - std::min<uint64_t>(size, kHeaderBytes)) return size_t{0};  // torn
  std::string body(length, '\0');
  MERIDIAN_RETURN_IF_ERROR(file->ReadAt(kHeaderBytes, length, body.data(), &got));
  if (got != length || Crc32c(body.data(), body.size()) != crc) return size_t{0};  // torn
  // Complete: parse every entry before writing anything.
  struct Entry {
    std::string name;
    uint32_t page_no;
    size_t offset;
  };
  std::vector<Entry> entries;
  pos = 0;
  const std::string_view view(body);
  for (uint32_t i = 0; i < count; ++i) {
    Entry e;
    uint16_t name_len = 0;
    if (!GetFixed(view, &pos, &e.page_no) || !GetFixed(view, &pos, &name_len) ||
        view.size() - pos < size_t{name_len} + kPageSize) {
      return Status::Corruption("malformed page journal \"" + path + "\"");
    }
    e.name.assign(body, pos, name_len);
    pos += name_len;
    e.offset = pos;
    pos += kPageSize;
    entries.push_back(std::move(e));
  }
  std::map<std::string, std::unique_ptr<File>> files;
  std::set<File*> written;
  std::string current(kPageSize, '\0');
  size_t restored = 0;
  for (const Entry& e : entries) {
    auto it = files.find(e.name);
    if (it == files.end()) {
      const std::string full = base_dir + "/" + e.name;
      MERIDIAN_ASSIGN_OR_RETURN(bool present, fs->Exists(full));
      std::unique_ptr<File> f;
      if (present) {
        MERIDIAN_ASSIGN_OR_RETURN(f, fs->Open(full, /*create=*/false));
      }
      it = files.emplace(e.name, std::move(f)).first;
    }
    if (it->second == nullptr) continue;  // the file was dropped since
    // Usually the journal's in-place writes completed before the stop: only pages that differ
    // are written (and counted).
    const std::string_view image = std::string_view(body).substr(e.offset, kPageSize);
    size_t read = 0;
    MERIDIAN_RETURN_IF_ERROR(
        it->second->ReadAt(uint64_t{e.page_no} * kPageSize, kPageSize, current.data(), &read));
    if (read == kPageSize && image == current) continue;
    MERIDIAN_RETURN_IF_ERROR(it->second->WriteAt(uint64_t{e.page_no} * kPageSize, image));
    written.insert(it->second.get());
    ++restored;
  }
  for (File* f : written) MERIDIAN_RETURN_IF_ERROR(f->Sync());
  // Applied: an empty journal from now on, so a later start never replays these images over
  // pages changed since.
  MERIDIAN_RETURN_IF_ERROR(file->WriteAt(0, std::string(kHeaderBytes, '\0')));
  MERIDIAN_RETURN_IF_ERROR(file->Sync());
  return restored;
}

}  // namespace meridian::storage
