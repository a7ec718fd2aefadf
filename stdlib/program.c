/* program.c — see program.h. */
#include "stdlib/program.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *program_find(const char *name) {
  const char *path = getenv("PATH");
  if (!path || !*path) return NULL;
  char *copy = strdup(path);
  char *found = NULL;
  for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
       dir = strtok_r(NULL, ":", &save)) {
    char *candidate = NULL;
    if (asprintf(&candidate, "%s/%s", *dir ? dir : ".", name) < 0) break;
    struct stat st;
    if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode) && access(candidate, X_OK) == 0)
      found = candidate;
    else free(candidate);
  }
  free(copy);
  return found;
}

char *program_read_back(FILE *f, size_t *length) {
  if (fseek(f, 0, SEEK_END) != 0) return NULL;
  long n = ftell(f);
  char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (data == NULL || fseek(f, 0, SEEK_SET) != 0 || fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    return NULL;
  }
  data[n] = '\0';
  *length = (size_t)n;
  return data;
}
