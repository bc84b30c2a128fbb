#pragma once
// Doubles as text with every bit kept, in the exact format of Python's
// float.hex() ("0x1.921fb54442d18p+1", "0x0.0p+0", "-inf", "nan"), so the
// references, the C++ tests and the Node tests can compare bit for bit.
#include <string>

namespace attention::testing {

std::string to_hex(double value);
// Parses what to_hex (or float.hex) writes; throws std::invalid_argument otherwise.
double from_hex(const std::string& text);

}  // namespace attention::testing
