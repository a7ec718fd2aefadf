#!/bin/sh
# check_layout.sh — keeps the README's layout table true:
#   - each component (a row of the table) #includes only components below it;
#   - every folder that holds C sources is a row;
#   - every folder of the repository is named in the section (a row, or the
#     paragraph after the table).
# usage: sh tests/check_layout.sh        (from anywhere; prints what is wrong)
cd "$(dirname "$0")/.." || exit 2

section=$(awk '/^## Layout/ { on = 1; next } /^## / { on = 0 } on' README.md)
rows=$(printf '%s\n' "$section" | sed -n 's/^| `\([a-z_]*\)\/` |.*/\1/p')
[ -n "$rows" ] || { echo "check_layout: no layout table in README.md"; exit 2; }

# The repository's files: git's list, or (outside a clone) the tree without build/.
files=$(git ls-files 2>/dev/null)
[ -n "$files" ] || files=$(find . -path ./build -prune -o -type f -print | sed 's|^\./||')

failed=0
below="$rows"
for row in $rows; do
  below=$(printf '%s\n' "$below" | sed 1d)
  used=$(grep -rhoE '^#[[:space:]]*include[[:space:]]*"[a-z_]+/' "$row" --include='*.c' --include='*.h' \
           --include='*.cpp' 2>/dev/null | sed -E 's/.*"([a-z_]+)\//\1/' | sort -u)
  for dep in $used; do
    [ "$dep" = "$row" ] && continue
    [ -d "$dep" ] || continue # a system or third-party header (xeus/...)
    if ! printf '%s\n' "$below" | grep -qx "$dep"; then
      echo "README layout: $row/ includes $dep/, which is not below it in the table"
      failed=1
    fi
  done
done

for dir in $(printf '%s\n' "$files" | sed -n 's|^\([^/]*\)/.*|\1|p' | sort -u); do
  [ "$dir" = .git ] && continue
  if printf '%s\n' "$files" | grep -qE "^$dir/[^/]+\.(c|h|cpp)\$" && ! printf '%s\n' "$rows" | grep -qx "$dir"; then
    case "$dir" in tests | bench | tools | examples) ;; *)
      echo "README layout: $dir/ holds C sources but is not a row of the table"; failed=1 ;;
    esac
  fi
  if ! printf '%s\n' "$section" | grep -q "\`$dir/"; then
    echo "README layout: $dir/ is not named in the Layout section"
    failed=1
  fi
done
[ $failed -eq 0 ] && echo "README layout table: every include goes down, every folder named"
exit $failed
