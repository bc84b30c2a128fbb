#pragma once
// Elementary functions written with IEEE-754 basic operations only (+ - * /,
// sqrt, exact scaling by powers of two). glibc and Emscripten's musl may
// round sin/log/exp/pow differently in the last bit; these give the same bits
// on every platform, so a seed draws the same data set natively and in wasm.
// Accuracy is a few ulp: plenty for data generation, not used on hot paths.

namespace attention::portable {

double exp(double x);
double log(double x);      // x > 0
double sin(double x);
double cos(double x);
double pow(double x, double exponent);  // x >= 0

}  // namespace attention::portable
