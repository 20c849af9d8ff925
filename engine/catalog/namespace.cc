// Schemas and the thread-local search path (namespace.h).
#include "catalog/namespace.h"

#include <atomic>

namespace meridian::catalog {

namespace {

const SearchPath& DefaultPath() {
  static const SearchPath kDefault{{"$user", kPublicSchema}, "meridian", 0, {}};
  return kDefault;
}

thread_local const SearchPath* t_path = nullptr;
std::atomic<uint64_t> g_path_changes{0};

}  // namespace

std::string RelationKey(const std::string& nsp, const std::string& name) {
  std::string key = nsp;
  key.push_back('\x1f');
  key.append(name);
  return key;
}

const SearchPath& CurrentSearchPath() { return t_path != nullptr ? *t_path : DefaultPath(); }

ScopedSearchPath::ScopedSearchPath(const SearchPath* path) : previous_(t_path) {
  if (path != nullptr) t_path = path;
}

ScopedSearchPath::~ScopedSearchPath() { t_path = previous_; }

void NoteSearchPathChange() { g_path_changes.fetch_add(1, std::memory_order_acq_rel); }

uint64_t SearchPathChanges() { return g_path_changes.load(std::memory_order_acquire); }

std::string TempSchemaName(uint64_t session) { return "pg_temp_" + std::to_string(session); }

std::vector<std::string> ParseSearchPath(const std::string& value) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && (value[i] == ' ' || value[i] == ',')) ++i;
    if (i >= value.size()) break;
    std::string item;
    if (value[i] == '"') {
      for (++i; i < value.size(); ++i) {
        if (value[i] == '"') {
          if (i + 1 < value.size() && value[i + 1] == '"') {
            item.push_back('"');
            ++i;
          } else {
            ++i;
            break;
          }
        } else {
          item.push_back(value[i]);
        }
      }
    } else {
      while (i < value.size() && value[i] != ',') item.push_back(value[i++]);
      while (!item.empty() && item.back() == ' ') item.pop_back();
    }
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace meridian::catalog
