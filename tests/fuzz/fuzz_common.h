/* fuzz_common.h — what the libFuzzer harnesses (fuzz_*.c) share: a scratch
 * directory to work in, and a watchdog that presses Ctrl-C for a slow input.
 *
 * The watchdog is one thread for the whole process: each input arms it with
 * fuzz_arm(MS); past that deadline it sets the interrupt flag every 10 ms
 * (as a user pressing Ctrl-C, again and again, would), so a legitimately
 * long program (`while true {}`, a huge matrix product, a zip bomb) stops
 * with Interrupted instead of being reported as a hang. A program that
 * catches Interrupted and loops on is a real hang, which libFuzzer's own
 * -timeout reports.
 *
 * Every harness works in a fresh directory under $TMPDIR (a program may
 * save() files; relative paths land there), made at the first input.
 */
#ifndef AG_FUZZ_COMMON_H
#define AG_FUZZ_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tensor/tensor.h"

/* Under the fuzzer, a failed giant allocation returns NULL (a clean error),
 * as in the release build, rather than ending the run. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static atomic_llong fuzz_deadline_ns; /* 0: disarmed */

static long long fuzz_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *fuzz_watchdog(void *unused) {
  (void)unused;
  for (;;) {
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
    long long d = atomic_load(&fuzz_deadline_ns);
    if (d != 0 && fuzz_now_ns() > d) tensor_interrupt_requested = 1;
  }
  return NULL;
}

/* Once per process: the watchdog and the scratch directory (the cwd). */
static void fuzz_setup(void) {
  static int done;
  if (done) return;
  done = 1;
  pthread_t t;
  pthread_create(&t, NULL, fuzz_watchdog, NULL);
  pthread_detach(t);
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ag-fuzz-%ld", tmp && tmp[0] ? tmp : "/tmp", (long)getpid());
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0 || chdir(dir) != 0) {
    fprintf(stderr, "fuzz: cannot work in %s\n", dir);
    abort();
  }
}

/* Presses Ctrl-C `ms` milliseconds from now (and every 10 ms after). */
static void fuzz_arm(int ms) {
  tensor_interrupt_requested = 0;
  atomic_store(&fuzz_deadline_ns, fuzz_now_ns() + (long long)ms * 1000000LL);
}

static void fuzz_disarm(void) {
  atomic_store(&fuzz_deadline_ns, 0);
  tensor_interrupt_requested = 0;
}

/* The input as a NUL-terminated string (malloc'd). */
static inline char *fuzz_string(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (s == NULL) abort();
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* Writes the input to `name` in the scratch directory. */
static inline void fuzz_write_file(const char *name, const uint8_t *data, size_t size) {
  FILE *f = fopen(name, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size) abort();
  fclose(f);
}

#endif
