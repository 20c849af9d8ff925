// Key values in error details.
#include "catalog/key_text.h"

namespace meridian::catalog {

std::string KeyToText(const std::vector<Value>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i].IsNull() ? "null" : values[i].ToString();
  }
  return out;
}

}  // namespace meridian::catalog
