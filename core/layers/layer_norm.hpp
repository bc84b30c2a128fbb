#pragma once
// nn.LayerNorm over each row (eps 1e-5, biased variance), and d2l's AddNorm
// (LayerNorm of a residual sum, dropout 0), as a forward/backward pair.
#include <cstddef>
#include <vector>

namespace attention::layers {

inline constexpr double layer_norm_eps = 1e-5;

// What the backward pass needs: each row normalised, and 1 / sqrt(var + eps).
struct LayerNormCache {
    std::vector<double> xhat;  // rows x size
    std::vector<double> rstd;  // rows
};

// out = (z - mean) / sqrt(var + eps) * gamma + beta, row by row.
void layer_norm_forward(const double* z, std::size_t rows, std::size_t size, const double* gamma,
                        const double* beta, LayerNormCache& cache, double* out);
// d2l's AddNorm: out = LayerNorm(x + y), the sum made row by row in the cache (no copy of it kept).
void add_norm_forward(const double* x, const double* y, std::size_t rows, std::size_t size, const double* gamma,
                      const double* beta, LayerNormCache& cache, double* out);

// dz = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = dout * gamma;
// dgamma += dout * xhat, dbeta += dout. dz may alias dout. For AddNorm, dz is
// the gradient of both x and y. `scratch` holds g.
void layer_norm_backward(const double* dout, const LayerNormCache& cache, std::size_t rows, std::size_t size,
                         const double* gamma, double* dgamma, double* dbeta, double* dz, std::vector<double>& scratch);

}  // namespace attention::layers
