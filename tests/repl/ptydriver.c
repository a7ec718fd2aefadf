/* ptydriver.c — drives a program through a pseudo-terminal, as a person at a
 * keyboard would, and checks what it prints.
 *
 *   usage: ptydriver CASE_FILE PROGRAM [ARG...]
 *
 * PROGRAM runs on the slave side of a fresh pty (80x24, TERM from the
 * environment). CASE_FILE holds one directive a line; TEXT takes C escapes
 * (\n \r \t \e \\ \xHH), so Ctrl-C is \x03, Ctrl-D \x04, Tab \t:
 *
 *   send TEXT            type TEXT (then pause 50 ms, as a typist would)
 *   expect TEXT          wait until the output, from where the last match
 *                        ended, contains TEXT; the match moves that point on
 *   expect_raw TEXT      the same, on the bytes as written (escapes kept)
 *   within MS TEXT       like expect, and TEXT must appear within MS ms of
 *                        the previous `send` (MS times AG_TIME_SCALE, the
 *                        machine's slowness: tests/time_limit.sh)
 *   sleep MS             pause
 *   exit STATUS          wait for the program to end with STATUS
 *   # ...                a comment; empty lines are ignored
 *
 * `expect` looks at the output with ANSI escape sequences and carriage
 * returns removed, so fragments read as the screen does. Each wait gives up
 * after AG_PTY_TIMEOUT seconds (default 5). On the first failure the driver
 * prints what it waited for and the whole transcript, and exits 1; after the
 * last directive it exits 0. The program is killed if it is still running.
 * AG_PTY_VERBOSE=1 prints the transcript after a success too.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#if defined(__APPLE__) || defined(__NetBSD__) || defined(__OpenBSD__)
#include <util.h> /* forkpty */
#elif defined(__FreeBSD__)
#include <libutil.h>
#else
#include <pty.h>
#endif
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  char *data;
  size_t length, capacity;
} Bytes;

typedef struct {
  int master;
  pid_t pid;
  Bytes raw;         /* everything the program wrote */
  Bytes screen;      /* raw without escape sequences and \r */
  size_t raw_mark;   /* where the next expect_raw starts looking */
  size_t screen_mark;
  double last_send;  /* seconds, monotonic */
  bool exited;
  int status;
  double timeout;
  double time_scale; /* AG_TIME_SCALE: `within` limits are multiplied by it */
} Session;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bytes_add(Bytes *b, const char *s, size_t n) {
  if (b->length + n + 1 > b->capacity) {
    b->capacity = (b->length + n + 1) * 2;
    b->data = realloc(b->data, b->capacity);
    if (b->data == NULL) abort();
  }
  memcpy(b->data + b->length, s, n);
  b->length += n;
  b->data[b->length] = '\0';
}

/* Length of the escape sequence starting at s[0] == ESC (CSI, OSC or a
 * two-byte one), as far as the buffer holds it. */
static size_t escape_length(const char *s, size_t n) {
  if (n < 2) return n;
  size_t i = 2;
  if (s[1] == '[') {
    while (i < n && !(s[i] >= '@' && s[i] <= '~')) i++;
    return i < n ? i + 1 : n;
  }
  if (s[1] == ']') {
    while (i < n && s[i] != '\a' && !(s[i] == '\x1b' && i + 1 < n && s[i + 1] == '\\')) i++;
    return i < n ? i + (s[i] == '\a' ? 1 : 2) : n;
  }
  return 2;
}

/* Rebuilds the screen text from the raw bytes (escapes may straddle reads). */
static void rebuild_screen(Session *s) {
  size_t keep_mark = s->screen_mark;
  s->screen.length = 0;
  for (size_t i = 0; i < s->raw.length;) {
    char c = s->raw.data[i];
    if (c == '\x1b') {
      i += escape_length(s->raw.data + i, s->raw.length - i);
    } else {
      if (c != '\r' && c != '\a') bytes_add(&s->screen, &c, 1);
      i++;
    }
  }
  if (s->screen.data == NULL) bytes_add(&s->screen, "", 0);
  s->screen_mark = keep_mark;
}

static void reap(Session *s, bool block) {
  if (s->exited) return;
  int status;
  if (waitpid(s->pid, &status, block ? 0 : WNOHANG) == s->pid) {
    s->exited = true;
    s->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
}

/* Reads what is available within `wait` seconds; false at end of output. */
static bool pump(Session *s, double wait) {
  struct pollfd p = {s->master, POLLIN, 0};
  int ms = (int)(wait * 1000);
  if (poll(&p, 1, ms < 1 ? 1 : ms) <= 0) return true;
  char buf[4096];
  ssize_t n = read(s->master, buf, sizeof buf);
  if (n <= 0) return errno == EINTR || errno == EAGAIN;
  bytes_add(&s->raw, buf, (size_t)n);
  rebuild_screen(s);
  return true;
}

/* Decodes C escapes in place; returns the decoded length. */
static size_t unescape(char *text) {
  char *out = text;
  for (const char *in = text; *in; in++) {
    if (*in != '\\' || in[1] == '\0') {
      *out++ = *in;
      continue;
    }
    in++;
    switch (*in) {
    case 'n': *out++ = '\n'; break;
    case 'r': *out++ = '\r'; break;
    case 't': *out++ = '\t'; break;
    case 'e': *out++ = '\x1b'; break;
    case 'x': {
      char hex[3] = {in[1], in[1] ? in[2] : '\0', '\0'};
      *out++ = (char)strtol(hex, NULL, 16);
      in += 2;
      break;
    }
    default: *out++ = *in; break;
    }
  }
  *out = '\0';
  return (size_t)(out - text);
}

static void write_all(int fd, const char *s, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void do_send(Session *s, const char *text, size_t n) {
  write_all(s->master, text, n);
  s->last_send = now_seconds();
  double until = s->last_send + 0.05;
  while (now_seconds() < until) pump(s, until - now_seconds());
}

/* Waits for `text` after the mark; returns the time it was seen, or -1. */
static double wait_for(Session *s, const char *text, size_t n, bool raw) {
  double deadline = now_seconds() + s->timeout;
  for (;;) {
    Bytes *b = raw ? &s->raw : &s->screen;
    size_t *mark = raw ? &s->raw_mark : &s->screen_mark;
    if (b->data != NULL) {
      char *hit = memmem(b->data + *mark, b->length - *mark, text, n);
      if (hit != NULL) {
        *mark = (size_t)(hit - b->data) + n;
        return now_seconds();
      }
    }
    if (now_seconds() > deadline) return -1;
    if (!pump(s, 0.02)) {
      reap(s, false);
      if (s->exited) return -1;
    }
  }
}

static bool wait_exit(Session *s, int expected) {
  double deadline = now_seconds() + s->timeout;
  while (!s->exited && now_seconds() < deadline) {
    pump(s, 0.02);
    reap(s, false);
  }
  if (!s->exited) {
    fprintf(stderr, "the program did not exit\n");
    return false;
  }
  if (s->status != expected) fprintf(stderr, "exit status %d, expected %d\n", s->status, expected);
  return s->status == expected;
}

/* Runs one directive; false on failure (after saying why). */
static bool run_directive(Session *s, char *line) {
  char *arg = strchr(line, ' ');
  if (arg != NULL) *arg++ = '\0';
  else arg = line + strlen(line);
  if (strcmp(line, "send") == 0) {
    size_t n = unescape(arg);
    do_send(s, arg, n);
    return true;
  }
  if (strcmp(line, "sleep") == 0) {
    double until = now_seconds() + atof(arg) / 1000;
    while (now_seconds() < until) pump(s, until - now_seconds());
    return true;
  }
  if (strcmp(line, "exit") == 0) return wait_exit(s, atoi(arg));
  double limit = -1;
  if (strcmp(line, "within") == 0) {
    limit = atof(arg) / 1000 * s->time_scale;
    arg = strchr(arg, ' ');
    if (arg == NULL) return false;
    arg++;
  } else if (strcmp(line, "expect") != 0 && strcmp(line, "expect_raw") != 0) {
    fprintf(stderr, "unknown directive '%s'\n", line);
    return false;
  }
  size_t n = unescape(arg);
  double seen = wait_for(s, arg, n, strcmp(line, "expect_raw") == 0);
  if (seen < 0) {
    fprintf(stderr, "did not see: \"%s\"\n", arg);
    return false;
  }
  if (limit >= 0 && seen - s->last_send > limit) {
    fprintf(stderr, "saw \"%s\" after %.0f ms, limit %.0f ms\n", arg,
            (seen - s->last_send) * 1000, limit * 1000);
    return false;
  }
  return true;
}

static void print_transcript(const Session *s) {
  fprintf(stderr, "---- transcript (escapes and \\r removed) ----\n%s\n----\n",
          s->screen.data ? s->screen.data : "");
}

static bool start(Session *s, char **argv) {
  struct winsize ws = {24, 80, 0, 0};
  s->pid = forkpty(&s->master, NULL, NULL, &ws);
  if (s->pid < 0) {
    perror("forkpty");
    return false;
  }
  if (s->pid == 0) {
    execvp(argv[0], argv);
    perror(argv[0]);
    _exit(127);
  }
  return true;
}

static int run_case(FILE *cases, Session *s) {
  static char line[1 << 16];
  int lineno = 0;
  while (fgets(line, sizeof line, cases) != NULL) {
    lineno++;
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '\0' || line[0] == '#') continue;
    if (!run_directive(s, line)) {
      fprintf(stderr, "failed at directive line %d\n", lineno);
      print_transcript(s);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: ptydriver CASE_FILE PROGRAM [ARG...]\n");
    return 2;
  }
  FILE *cases = fopen(argv[1], "r");
  if (cases == NULL) {
    perror(argv[1]);
    return 2;
  }
  Session s;
  memset(&s, 0, sizeof s);
  const char *limit = getenv("AG_PTY_TIMEOUT");
  s.timeout = limit ? atof(limit) : 5;
  const char *scale = getenv("AG_TIME_SCALE");
  s.time_scale = scale && atof(scale) > 1 ? atof(scale) : 1;
  if (!start(&s, argv + 2)) return 2;
  int result = run_case(cases, &s);
  fclose(cases);
  if (result == 0 && getenv("AG_PTY_VERBOSE") != NULL) print_transcript(&s);
  reap(&s, false);
  if (!s.exited) {
    kill(s.pid, SIGKILL);
    reap(&s, true);
  }
  free(s.raw.data);
  free(s.screen.data);
  return result;
}
