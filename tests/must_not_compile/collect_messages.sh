#!/usr/bin/env bash
# collect_messages.sh — the first compiler error of every must_not_compile case, as the compiler writes it.
#
#   tests/must_not_compile/collect_messages.sh [BUILD_DIR]              one line per case: name, first error
#   tests/must_not_compile/collect_messages.sh --markdown [BUILD_DIR] > docs/reference/units-mixups.md
#
# BUILD_DIR is a configured build directory (default: build/default, as `./lab test` leaves it). Each case's
# `.case` target (the file with HML_MUST_NOT_COMPILE defined) is built there, and its first `error:` line is
# kept; where that error points into the library (a static_assert), the `requested here` note that points
# back at the case follows it, and after `no matching function` the note on conflicting deduced types, if any. Long template argument lists are elided with `...`: the unit system's list
# (homogeneous_system<...>, the same in every hml type), the spelled-out type of an `(aka '...')`, and, on a
# line still longer than 500 characters, any template argument list longer than 120. Nothing else changes.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
markdown=0
if [ "${1:-}" = "--markdown" ]; then
  markdown=1
  shift
fi
build=$(cd "${1:-$root/build/default}" && pwd)
[ -f "$build/CMakeCache.txt" ] || { echo "collect_messages.sh: $build is not a configured build directory" >&2; exit 1; }
# The CMake that configured the build directory (the system one may be too old for C++ modules).
cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
[ -x "$cmake" ] || cmake=cmake

# elide: shorten long template argument lists, see above.
elide() {
  awk '
    function match_of(s, open,   depth, i, c, n) {  # index of the ">" that closes the "<" at `open`
      depth = 0; n = length(s)
      for (i = open; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "<") depth++
        else if (c == ">" && --depth == 0) return i
      }
      return 0
    }
    function elide_at(s, open, min,   shut) {  # "<long list>" at `open` -> "<...>"
      shut = match_of(s, open)
      if (shut == 0 || shut - open - 1 <= min) return s
      return substr(s, 1, open) "..." substr(s, shut)
    }
    function elide_after(s, key, min,   from, at, open) {  # every list that follows `key`
      from = 1
      while ((at = index(substr(s, from), key)) > 0) {
        open = from + at - 1 + length(key) - 1  # the last character of key
        if (substr(s, open, 1) != "<") {          # the type after a quote: up to its first "<"
          open++
          while (open <= length(s) && substr(s, open, 1) != "<" && substr(s, open, 1) != "\047") open++
        }
        if (substr(s, open, 1) == "<") s = elide_at(s, open, min)
        from = open + 1
      }
      return s
    }
    function elide_long(s, min,   i, c, shut) {  # outermost lists longer than `min`
      for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c != "<" || substr(s, i - 8, 8) == "operator" || substr(s, i - 9, 9) == "operator<") continue
        s = elide_at(s, i, min)
        shut = match_of(s, i)
        if (shut) i = shut
      }
      return s
    }
    {
      line = elide_after($0, "homogeneous_system<", 0)
      line = elide_after(line, "(aka \047", 40)
      if (length(line) > 500) line = elide_long(line, 120)
      print line
    }'
}

# first_error NAME: the first error (and, for an error inside the library, the note that leads back to the case).
first_error() {
  local name=$1 output
  output=$("$cmake" --build "$build" --target "must_not_compile.$name.case" 2>&1 || true)
  output=${output//"$root/"/}
  printf '%s\n' "$output" | awk -v case_file="tests/must_not_compile/$name.cpp" '
    !found && /error: / {
      print; found = 1
      if (/no matching function for call to/) want = "deduced conflicting types"
      else if (index($0, case_file) != 1) want = "requested here"
      else exit
      next
    }
    found && index($0, want) { print; exit }' | elide
}

# field FILE PART: the parts of a case file (comment, header, pre, bad, good, post), without [[maybe_unused]].
field() {
  awk -v part="$2" '
    NR == 1 { if (part == "comment") { sub(/^\/\/ /, ""); print }; next }
    /^#ifdef HML_MUST_NOT_COMPILE/ { state = "bad"; next }
    /^#else/ { state = "good"; next }
    /^#endif/ { state = "post"; next }
    /^\[\[maybe_unused\]\] .*\{$/ && state == "" { state = "pre"; if (part == "header") { sub(/ \{$/, ""); gsub(/\[\[maybe_unused\]\] /, ""); print }; next }
    /^}/ { state = "done"; next }
    state == part { gsub(/\[\[maybe_unused\]\] /, ""); sub(/^  /, ""); print }' "$1"
}

# The section a case belongs in, by its first error: people look up a message by its words.
section_of() {
  case "$1" in
    *"hml: a plain number is not"* | *"is not a plain number"*) echo 2 ;;
    *"hml: a product or quotient"*) echo 3 ;;
    *"hml: "*" is not "*) echo 1 ;;
    *"hml: "* | *"hml::sweep"*) echo 4 ;;
    *"consteval function"* | *"literal operator"*) echo 7 ;;
    *"no matching function for call to"* | *"no viable conversion from 'const unit<"*) echo 6 ;;
    *) echo 5 ;;
  esac
}
section_title() {
  case "$1" in
    1) echo "\`hml: <what you gave> is not <what was expected>\`: one quantity for another" ;;
    2) echo "\`hml: a plain number is not ...\`, \`hml: ... is not a plain number\`: numbers in or out" ;;
    3) echo "\`hml: a product or quotient of other units is not ...\`: a result of another dimension" ;;
    4) echo "Other messages in hml's words: result types, compile-time sweeps" ;;
    5) echo "\`no viable conversion\`, \`invalid operands\`, \`must be initialized by a constant expression\`: other types, models' checks, imports" ;;
    6) echo "\`no matching function for call to\`, \`no viable conversion from 'unit<...>'\`: units and functions of another dimension" ;;
    7) echo "\`call to consteval function ... is not a constant expression\`, \`no matching literal operator\`: literals" ;;
  esac
}

cases=()
for file in "$here"/*.cpp; do cases+=("$(basename "$file" .cpp)"); done

if [ "$markdown" -eq 0 ]; then
  for name in "${cases[@]}"; do
    printf '%s\n' "$name"
    first_error "$name" | sed 's/^/    /'
  done
  exit 0
fi

declare -A errors
for name in "${cases[@]}"; do errors[$name]=$(first_error "$name"); done

cat <<EOF
# Unit mix-ups and the errors they give

Each entry below is a mistake that \`hml.units\` turns into a compile error: the code a user writes, why it is
wrong and what to write instead, and the first error clang 19 prints for it. The entries are the test cases in
[\`tests/must_not_compile/\`](../../tests/must_not_compile/); \`ctest -L must_not_compile\` checks that each still fails
with that error and no other, and that its correction compiles.

The error lines are real compiler output. They are shortened only by eliding long template argument lists with
\`...\`: the unit system (\`homogeneous_system<...>\`, the same in every hml type), the spelled-out type after
\`aka\`, and on very long lines any list over 120 characters. Clang's own \`[...]\` marks the parts of two types
that are the same. When the error is a static_assert inside the library, the note that leads back to your line
follows it; after \`no matching function\`, the note that names the two conflicting types does.

Sections are by the words of the error, so search this page for the message you got. A mix-up between two
quantities, or between a quantity and a plain number, ends its first line in hml's words, naming what was given
and what was expected (\`hml: a data size (B) is not a duration (s)\`), whether it is a construction, an
assignment, \`+=\`, a sum, a comparison, an argument or a return. Reading a quantity type where one is printed:
\`dim<information_base_dimension, static_rational<1>>\` is bytes, \`time_base_dimension\` seconds,
\`work_base_dimension\` FLOP, and \`static_rational<-1>\` means "per".

This page is generated; after changing a case or the library, rebuild and regenerate it:

\`\`\`sh
./lab test -L must_not_compile
tests/must_not_compile/collect_messages.sh --markdown build/default > docs/reference/units-mixups.md
\`\`\`
EOF

for section in 1 2 3 4 5 6 7; do
  members=()
  for name in "${cases[@]}"; do
    [ "$(section_of "${errors[$name]}")" = "$section" ] && members+=("$name")
  done
  [ ${#members[@]} -gt 0 ] || continue
  printf '\n## %s\n' "$(section_title "$section")"
  for name in "${members[@]}"; do
    file=$here/$name.cpp
    header=$(field "$file" header)
    pre=$(field "$file" pre)
    post=$(field "$file" post)
    printf '\n### `%s`\n\n%s\n\n```cpp\n' "$name" "$(field "$file" comment)"
    if [[ "$header" == *"()" && -z "$pre" && -z "$post" ]]; then
      field "$file" bad
    else
      printf '%s {\n' "$header"
      [ -z "$pre" ] || printf '%s\n' "$pre" | sed 's/^/  /'
      field "$file" bad | sed 's/^/  /'
      [ -z "$post" ] || printf '%s\n' "$post" | sed 's/^/  /'
      printf '}\n'
    fi
    printf '```\n\n```text\n%s\n```\n\nInstead:\n\n```cpp\n%s\n```\n' "${errors[$name]}" "$(field "$file" good)"
  done
done
