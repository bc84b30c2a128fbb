#include "layers/layer_norm.hpp"

#include <cmath>

#include "numerics/vector_math.hpp"

namespace attention::layers {

namespace {

// Normalises the rows already in cache.xhat (z, or x + y) in place and writes out.
void normalise_rows(std::size_t rows, std::size_t size, const double* gamma, const double* beta,
                    LayerNormCache& cache, double* out) {
    const double n = static_cast<double>(size);
    cache.rstd.resize(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        double* xr = cache.xhat.data() + r * size;
        const double mean = vector_math::sum(xr, size) / n;
        for (std::size_t c = 0; c < size; ++c) xr[c] = xr[c] - mean;
        const double var = vector_math::dot(xr, xr, size) / n;
        const double s = 1.0 / std::sqrt(var + layer_norm_eps);
        cache.rstd[r] = s;
        double* yr = out + r * size;
        for (std::size_t c = 0; c < size; ++c) {
            xr[c] *= s;
            yr[c] = xr[c] * gamma[c] + beta[c];
        }
    }
}

}  // namespace

void layer_norm_forward(const double* z, std::size_t rows, std::size_t size, const double* gamma,
                        const double* beta, LayerNormCache& cache, double* out) {
    cache.xhat.assign(z, z + rows * size);
    normalise_rows(rows, size, gamma, beta, cache, out);
}

void add_norm_forward(const double* x, const double* y, std::size_t rows, std::size_t size, const double* gamma,
                      const double* beta, LayerNormCache& cache, double* out) {
    cache.xhat.resize(rows * size);
    for (std::size_t e = 0; e < rows * size; ++e) cache.xhat[e] = x[e] + y[e];
    normalise_rows(rows, size, gamma, beta, cache, out);
}

void layer_norm_backward(const double* dout, const LayerNormCache& cache, std::size_t rows, std::size_t size,
                         const double* gamma, double* dgamma, double* dbeta, double* dz, std::vector<double>& scratch) {
    const double n = static_cast<double>(size);
    scratch.resize(size);
    double* g = scratch.data();
    for (std::size_t r = 0; r < rows; ++r) {
        const double* dr = dout + r * size;
        const double* xr = cache.xhat.data() + r * size;
        for (std::size_t c = 0; c < size; ++c) {
            dgamma[c] += dr[c] * xr[c];
            dbeta[c] += dr[c];
            g[c] = dr[c] * gamma[c];
        }
        const double mean_g = vector_math::sum(g, size) / n;
        const double mean_gx = vector_math::dot(g, xr, size) / n;
        double* zr = dz + r * size;
        const double s = cache.rstd[r];
        for (std::size_t c = 0; c < size; ++c) zr[c] = s * ((g[c] - mean_g) - xr[c] * mean_gx);
    }
}

}  // namespace attention::layers
