// RegisterBuiltinFunctions (builtin.h).
#include "function/builtin.h"

#include <mutex>

namespace meridian::exec {

void RegisterBuiltinFunctions() {
  static std::once_flag once;
  std::call_once(once, [] {
    RegisterStringFunctions();
    RegisterBinaryFunctions();  // after the text entries of md5, octet_length, bit_length
    RegisterMathFunctions();
    RegisterSystemScalarFunctions();
    RegisterSizeFunctions();
    RegisterJsonFunctions();
    RegisterGeometryFunctions();
    RegisterArrayFunctions();
    RegisterDateTimeFunctions();
    RegisterFormatFunctions();
  });
}

}  // namespace meridian::exec
