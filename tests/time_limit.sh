# time_limit.sh — sourced by the test runners (POSIX sh): time limits that
# scale with the machine, and a time-limited run that needs no GNU timeout.
#
# A limit in a test is written for this project's development machine; on a
# slower one (an emulated CPU, a sanitizer build, a loaded CI box) a correct
# program must not fail by running out of it. time_scale_for AG measures
# how long AG takes for a fixed piece of work (tensor autograd and plain
# interpretation, about 40 ms on the development machine) and sets
# AG_TIME_SCALE to how many times slower this machine is, at least 1; every
# limit is multiplied by it. AG_TIME_SCALE set beforehand is kept (nested
# runners measure once).
#
#   time_scale_for AG           sets and exports AG_TIME_SCALE
#   scaled_limit SECONDS        prints SECONDS * AG_TIME_SCALE, rounded up
#   run_limited [--int] [--kill-after S] SECONDS CMD [ARG...]
#                               runs CMD; exit status 124 if it ran out of
#                               time (it got SIGTERM, or SIGINT with --int:
#                               one Ctrl-C; SIGKILL S seconds later, default 2)
#   interrupt_when_printed OUT TEXT KILL_AFTER CMD [ARG...]
#                               one SIGINT to CMD once it printed TEXT (below)

TIME_REFERENCE_SECONDS=0.04

time_scale_for() {
  if [ -n "${AG_TIME_SCALE:-}" ]; then export AG_TIME_SCALE; return 0; fi
  _took=$(NO_COLOR=1 "$1" -e '
let t0 = clock()
let w = tensor([[0.5, -0.25], [0.125, 1.0]], requires_grad=true)
let x = tensor([1.0, 2.0])
for i in range(6000) {
  let y = tanh(w * x + 0.5).exp().sum()
  y.backward()
}
let s = 0
for i in range(800000) { s = s + i % 7 }
print(clock() - t0)' 2>/dev/null </dev/null)
  AG_TIME_SCALE=$(awk -v t="$_took" -v ref="$TIME_REFERENCE_SECONDS" 'BEGIN {
    if (t !~ /^[0-9.e+-]+$/) { print 1; exit }
    s = t / ref; n = int(s); if (n < s) n++; if (n < 1) n = 1; print n }')
  export AG_TIME_SCALE
}

scaled_limit() {
  awk -v s="$1" -v k="${AG_TIME_SCALE:-1}" 'BEGIN { v = s * k; n = int(v); if (n < v) n++; print n }'
}

# GNU timeout (gtimeout from Homebrew's coreutils), else perl's alarm.
if command -v timeout >/dev/null 2>&1 && timeout --version 2>/dev/null | grep -q GNU; then
  TIMEOUT_TOOL=timeout
elif command -v gtimeout >/dev/null 2>&1; then
  TIMEOUT_TOOL=gtimeout
else
  TIMEOUT_TOOL=
fi

run_limited() {
  _sig=TERM _fg= _kill=2
  while :; do
    case "$1" in
      --int) _sig=INT _fg=--foreground; shift ;;
      --kill-after) _kill=$2; shift 2 ;;
      *) break ;;
    esac
  done
  _secs=$1; shift
  if [ -n "$TIMEOUT_TOOL" ]; then
    # shellcheck disable=SC2086
    "$TIMEOUT_TOOL" $_fg -s "$_sig" -k "$_kill" "$_secs" "$@"
    return
  fi
  perl -e '
    my ($sig, $secs, $kill, @cmd) = @ARGV;
    my $pid = fork();
    exit 125 unless defined $pid;
    if ($pid == 0) { exec { $cmd[0] } @cmd; exit 127; }
    my $late = 0;
    $SIG{ALRM} = sub { if ($late++) { kill "KILL", $pid } else { kill $sig, $pid; alarm $kill } };
    alarm $secs;
    while (waitpid($pid, 0) != $pid) {}
    exit 124 if $late;
    exit($? & 127 ? 128 + ($? & 127) : $? >> 8);' "$_sig" "$_secs" "$_kill" "$@"
}

# interrupt_when_printed OUT TEXT KILL_AFTER CMD [ARG...]: for a Ctrl-C
# probe that must not depend on timing. Runs CMD with stdout to the file OUT;
# CMD prints a line TEXT just before the work to interrupt. Waits for that
# line (at most scaled_limit 60 seconds), sends CMD one SIGINT, and SIGKILL
# if it has not ended KILL_AFTER seconds later. Exit status: CMD's (137: it
# had to be killed), or 125 if CMD ended or timed out without printing TEXT.
# A fixed sleep before the signal would not do: on a loaded machine CMD may
# not have begun the work yet, or a short piece of work may be done already.
interrupt_when_printed() {
  _out=$1 _text=$2 _kill=$3; shift 3
  perl -e '
    use Time::HiRes qw(sleep);
    my ($out, $text, $kill, $most, @cmd) = @ARGV;
    my $pid = fork();
    exit 125 unless defined $pid;
    if ($pid == 0) { open(STDOUT, ">", $out) or exit 127; exec { $cmd[0] } @cmd; exit 127; }
    sub printed { open(my $f, "<", $_[0]) or return 0; while (<$f>) { chomp; return 1 if $_ eq $text } 0 }
    my $polls = 0;
    until (printed($out)) {
      if (waitpid($pid, 1) == $pid || $polls++ >= $most * 20) { kill "KILL", $pid; waitpid($pid, 0); exit 125 }
      sleep 0.05;
    }
    kill "INT", $pid;
    $SIG{ALRM} = sub { kill "KILL", $pid };
    alarm $kill;
    while (waitpid($pid, 0) != $pid) {}
    exit($? & 127 ? 128 + ($? & 127) : $? >> 8);' "$_out" "$_text" "$_kill" "$(scaled_limit 60)" "$@"
}
