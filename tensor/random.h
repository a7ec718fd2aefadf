/* random.h — reproducible random numbers for tensors (xoshiro256**).
 *
 * The generator state is explicit (the VM owns one), never a hidden global,
 * so two VMs or two tests never disturb each other. manual_seed(s) expands the
 * seed with splitmix64. Normal variates use the Box-Muller transform.
 */
#ifndef AG_TENSOR_RANDOM_H
#define AG_TENSOR_RANDOM_H

#include "tensor.h"

/* The seed a fresh generator should get when the script sets none:
 * PyTorch's default_rng_seed_val (the stream itself differs from PyTorch's
 * mt19937, so only reproducibility within Ag is promised). */
#define TENSOR_RNG_DEFAULT_SEED 67280421310721ULL

typedef struct TensorRng {
  uint64_t s[4];
} TensorRng;

void rng_seed(TensorRng *rng, uint64_t seed);
uint64_t rng_next(TensorRng *rng);
double rng_uniform(TensorRng *rng); /* [0, 1) with 53 random bits */
double rng_normal(TensorRng *rng);  /* mean 0, std 1 */

Tensor *tensor_rand(TensorRng *rng, DType dt, int ndim, const int64_t *shape);
Tensor *tensor_randn(TensorRng *rng, DType dt, int ndim, const int64_t *shape);
/* integers uniformly in [low, high); dtype int64 unless dt says otherwise */
Tensor *tensor_randint(TensorRng *rng, int64_t low, int64_t high, DType dt, int ndim,
                       const int64_t *shape);
Tensor *tensor_randperm(TensorRng *rng, int64_t n);
bool tensor_uniform_(TensorRng *rng, Tensor *t, double lo, double hi);
bool tensor_normal_(TensorRng *rng, Tensor *t, double mean, double std);
/* keep mask for dropout: each element 1/(1-p) with probability 1-p, else 0 */
Tensor *tensor_dropout_mask(TensorRng *rng, const Tensor *like, double p);

#endif
