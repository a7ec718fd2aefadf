/* state.h — autograd's mutable state, gathered in one struct.
 *
 * Everything autograd/ remembers between calls lives in an AutogradState:
 * the modes a script switches (grad mode, anomaly detection, forward AD's
 * dual level, saved-tensor hooks), the running backward pass, the line of
 * the statement being run, and the free lists of nodes and metas. The layer
 * above owns one (the VM embeds one in its context, beside tensor/'s
 * TensorState) and makes it current for its thread with
 * ag_state_make_current(); autograd's functions reach it through ag_state(),
 * one thread-local pointer. A thread that makes none current uses the
 * process's default state (the unit tests that drive autograd alone); two
 * such threads must each make their own state current.
 *
 * The fields are private to autograd/ (internal.h's accessors); they are here
 * only so that an owner can embed the struct. Zeroed is a valid start: grad
 * mode on, no level open, caches on. */
#ifndef AG_AUTOGRAD_STATE_H
#define AG_AUTOGRAD_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AG_NODE_CLASSES 24 /* node size classes pooled (node.c) */
#define AG_WRITE_RING 256  /* in-place writes remembered (meta.c) */

struct GradNode;
struct AgMeta;
struct AgParams;
struct AgSavedHooks;
struct AgGraph;
struct Storage;
struct Tensor;

/* Where an in-place write happened: the storage's new version and the line. */
typedef struct {
  const struct Storage *storage;
  int64_t version;
  int line;
} AgWriteNote;

typedef struct AutogradState {
  /* modes (meta.c): zero is PyTorch's default */
  bool grad_disabled;   /* no_grad / set_grad_enabled(false) */
  bool anomaly_on, anomaly_forward;
  int current_line;     /* the statement running, for nodes and version errors */
  int hook_counter;     /* handles handed out */
  int hooks_running;    /* hook lists being walked: removals wait for a sweep */
  AgWriteNote write_ring[AG_WRITE_RING];
  unsigned write_pos;

  /* forward AD (forward.c) */
  uint64_t fw_open_level; /* the open level's id (0: none) */
  uint64_t fw_level_ids;  /* ids handed out: a closed level's tangents go stale */
  int fw_suspended;       /* > 0: ops record no jvp (inside a jvp formula) */
  bool fw_plain_saved;    /* jvp_transposed under no_grad: saved values without history */
  struct GradNode *fw_sentinel; /* the edge of inputs with a tangent and no gradient */

  /* saved-tensor hooks (node.c) */
  struct AgSavedHooks *saved_hooks; /* the innermost pair, or NULL */
  bool packing;                     /* a pack hook is running */
  bool pack_failed;                 /* ... and raised: the op must fail */

  /* the engine (engine.c) */
  uint64_t run_counter;               /* backward runs numbered (node stamps) */
  const struct AgGraph *current_run; /* innermost run executing, or NULL */
  uint64_t node_counter;              /* sequence numbers of nodes */

  /* caches (node.c, meta.c): free lists, bounded; disabled at VM teardown */
  bool caches_disabled;
  struct GradNode *node_pool[AG_NODE_CLASSES];
  size_t node_pool_bytes;        /* of the nodes malloc'd alone on them */
  void *node_slabs;              /* blocks cut into nodes, linked through their first word */
  size_t node_slab_bytes;
  size_t node_slab_nodes;        /* nodes cut from them */
  struct AgParams *params_pool; /* linked through ->items */
  int params_pool_size;
  struct AgMeta *meta_pool;     /* linked through ->grad */
  int meta_pool_size;
  struct GradNode *dying;       /* releases deferred while draining */
  bool draining;
} AutogradState;

/* The current state of this thread: never NULL. Inline: every op reads it. */
extern _Thread_local AutogradState *ag_state_current;
static inline AutogradState *ag_state(void) { return ag_state_current; }

/* Makes s (zeroed, or used before) current for this thread; NULL makes the
 * process's default current again. Returns the state current before. */
AutogradState *ag_state_make_current(AutogradState *s);

/* ---- for the owner (the VM), which needs no more of autograd.h: a new
 * node kind does not recompile it ---- */
/* Frees the current state's free lists of nodes and metas (at teardown, and
 * for leak checkers at exit). */
void ag_free_caches(void);
/* While disabled (VM teardown), freed nodes and metas are not cached. */
void ag_set_caches_enabled(bool enabled);
/* tensor_footprint plus the autograd state the tensor keeps alive: its meta
 * and the node that made it (what a garbage collector should count). */
size_t ag_tensor_footprint(const struct Tensor *t);
/* Drops a reference to a node (an OBJ_NODE freed by the collector). */
void grad_node_release(struct GradNode *node);

#endif
