# compare_numbers.awk — do two outputs agree within a tolerance?
#   awk -v rtol=R -v atol=A -f tests/compare_numbers.awk EXPECTED ACTUAL
# Both must have the same lines, and each line the same text once its numbers
# are taken out and blanks dropped (so a repr's column padding may change);
# the numbers, in order, must agree: |actual - expected| <= atol + rtol*|expected|,
# and nan, inf and -inf only with themselves. Exit 0 if they agree; else 1,
# with the first disagreement on stdout. -v report=1 also prints the largest
# relative and absolute differences seen (to choose a tolerance).
function numbers(line, out,   n, tok) {
  n = 0
  while (match(line, /-?(nan|inf|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)/)) {
    tok = substr(line, RSTART, RLENGTH)
    out[++n] = tok
    line = substr(line, 1, RSTART - 1) "#" substr(line, RSTART + RLENGTH)
  }
  gsub(/[ \t]/, "", line)
  out[0] = line
  return n
}
function abs(v) { return v < 0 ? -v : v }
FNR == NR { want[FNR] = $0; nwant = FNR; next }
{
  ngot = FNR
  if (FNR > nwant) { if (!bad) print "extra line " FNR ": " $0; bad = 1; next }
  ne = numbers(want[FNR], e)
  na = numbers($0, a)
  if (ne != na || e[0] != a[0]) {
    if (!bad) print "line " FNR " differs beyond its numbers:\n  expected: " want[FNR] "\n  actual:   " $0
    bad = 1
    next
  }
  for (i = 1; i <= ne; i++) {
    if (e[i] ~ /(nan|inf)/ || a[i] ~ /(nan|inf)/) {
      if (e[i] != a[i] && !(e[i] ~ /nan/ && a[i] ~ /nan/)) {
        if (!bad) print "line " FNR ", number " i ": " a[i] ", expected " e[i]
        bad = 1
      }
      continue
    }
    x = e[i] + 0; y = a[i] + 0; d = abs(y - x)
    if (d > maxabs) maxabs = d
    if (x != 0 && d / abs(x) > maxrel) maxrel = d / abs(x)
    if (d > atol + rtol * abs(x)) {
      if (!bad) print "line " FNR ", number " i ": " a[i] ", expected " e[i] " (rtol=" rtol ", atol=" atol ")"
      bad = 1
    }
  }
}
END {
  if (ngot < nwant && !bad) { print "missing line " ngot + 1 ": " want[ngot + 1]; bad = 1 }
  if (report) printf "largest differences: relative %.3g, absolute %.3g\n", maxrel, maxabs
  exit bad
}
