// ASSERT_OK(expr): a googletest assertion that a meridian::Status is OK, printing it otherwise.
#pragma once

#include <gtest/gtest.h>

#include "meridian/status.h"

#define ASSERT_OK(expr)                    \
  do {                                     \
    ::meridian::Status _s = (expr);        \
    ASSERT_TRUE(_s.ok()) << _s.ToString(); \
  } while (0)
