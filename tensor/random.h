/* random.h — PyTorch 1.13's CPU random streams, value for value.
 *
 * A TensorRng is PyTorch's CPUGeneratorImpl: the 32-bit Mersenne Twister
 * (mt19937, Matsumoto and Nishimura) seeded as ATen seeds it, plus the cached
 * second value of the scalar Box-Muller transform. Every fill below draws
 * from it in ATen's order and turns the draws into values with ATen's
 * formulas (float32 from 24 bits of one 32-bit draw, float64 from 53 bits of
 * two), so the same seed gives the same tensors as PyTorch on the CPU.
 *
 * The state is explicit (the VM owns the default generator, each Generator()
 * object its own), never a hidden global.
 */
#ifndef AG_TENSOR_RANDOM_H
#define AG_TENSOR_RANDOM_H

#include "tensor.h"

/* PyTorch's default_rng_seed_val: the seed of a fresh Generator(), and of Ag's
 * default generator when the script sets none (PyTorch seeds that one from
 * /dev/urandom; Ag stays reproducible). */
#define TENSOR_RNG_DEFAULT_SEED 67280421310721ULL

#define TENSOR_MT_N 624

typedef struct TensorRng {
  uint64_t seed;  /* what it was last seeded with (initial_seed) */
  int left;       /* draws until the next twist of the state, 1..624 */
  uint32_t next;  /* index of the next state word */
  uint32_t state[TENSOR_MT_N];
  /* Box-Muller makes values in pairs: the scalar path keeps the second */
  bool has_next_double;
  double next_double;
  bool has_next_float; /* kept for get_state/set_state (no CPU path sets it) */
  float next_float;
} TensorRng;

/* The byte size of PyTorch's CPUGeneratorImplState (get_state), and of the
 * older CPUGeneratorImplStateLegacy that set_state still accepts. */
#define TENSOR_RNG_STATE_BYTES 5056
#define TENSOR_RNG_LEGACY_STATE_BYTES 5048

void rng_seed(TensorRng *rng, uint64_t seed);
uint32_t rng_next32(TensorRng *rng);
uint64_t rng_next64(TensorRng *rng); /* two draws, the first in the high half */
double rng_uniform(TensorRng *rng);  /* [0, 1), 53 bits (uniform_real<double>) */
/* normal_distribution<double>: Box-Muller, the second value cached */
double rng_normal(TensorRng *rng, double mean, double std);
/* Whether the fields are consistent (a state a script could overwrite). */
bool rng_is_valid(const TensorRng *rng);
void rng_get_state(const TensorRng *rng, uint8_t out[TENSOR_RNG_STATE_BYTES]);
/* false with PyTorch's message when the bytes are not a valid state */
bool rng_set_state(TensorRng *rng, const uint8_t *bytes, int64_t n);

Tensor *tensor_rand(TensorRng *rng, DType dt, int ndim, const int64_t *shape);
Tensor *tensor_randn(TensorRng *rng, DType dt, int ndim, const int64_t *shape);
/* integers uniformly in [low, high) as random_(low, high) draws them */
Tensor *tensor_randint(TensorRng *rng, int64_t low, int64_t high, DType dt, int ndim,
                       const int64_t *shape);
Tensor *tensor_randperm(TensorRng *rng, int64_t n, DType dt);
bool tensor_uniform_(TensorRng *rng, Tensor *t, double lo, double hi);
bool tensor_normal_(TensorRng *rng, Tensor *t, double mean, double std);
bool tensor_exponential_(TensorRng *rng, Tensor *t, double lambda);
/* random_(): integers drawn as ATen draws them, uniformly in [from, to) when
 * bounded, else over the dtype's whole range of exact integers */
bool tensor_random_(TensorRng *rng, Tensor *t, bool bounded, int64_t from, int64_t to);
/* t's elements become 1 with probability p, else 0 (bernoulli_(p)) */
bool tensor_bernoulli_(TensorRng *rng, Tensor *t, double p);
/* bernoulli(p): a new tensor like p, 1 where a draw falls below p */
Tensor *tensor_bernoulli(TensorRng *rng, const Tensor *p);
/* indices of n draws from each row of probs (1-D or 2-D), int64 */
Tensor *tensor_multinomial(TensorRng *rng, const Tensor *probs, int64_t n, bool replacement);
/* t[i] = erfinv(t[i]) in place (float dtypes), ATen's calc_erfinv: a rational
 * first guess and two Newton steps; nn.init.trunc_normal_ uses it */
bool tensor_erfinv_(Tensor *t);
/* dropout's noise: bernoulli_(1 - p) divided by 1 - p, in like's dtype */
Tensor *tensor_dropout_mask(TensorRng *rng, const Tensor *like, double p);

#endif
