// Key values as PostgreSQL's error details print them ("Key (a, b)=(1, abc)").
#pragma once

#include <string>
#include <vector>

#include "meridian/value.h"

namespace meridian::catalog {

// Renders values as PostgreSQL's error detail does: "1, abc" (NULL as "null").
std::string KeyToText(const std::vector<Value>& values);

}  // namespace meridian::catalog
