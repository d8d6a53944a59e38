# The codebase stays one people can live in (CONTRIBUTING.md): no source file under modules/ or cli/ over
# 600 lines (a larger one is split by concept), benchmarks/README.md a report of at most 300 lines, and no
# development-history words ("session 9") in what users read or in the code.
#
#   cmake -DSOURCE_DIR=<repository> -P tests/docs/codebase_limits.cmake
cmake_minimum_required(VERSION 3.28)

# Lines counted as line breaks: file(STRINGS) makes a CMake list, which C++'s ';' and '[' break up.
function(count_lines path out)
  file(READ ${path} text)
  string(REGEX MATCHALL "\n" breaks "${text}")
  list(LENGTH breaks count)
  set(${out} ${count} PARENT_SCOPE)
endfunction()

set(largest_source 600)
set(largest_report 300)
set(problems "")

file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/modules/*.cppm ${SOURCE_DIR}/modules/*.cpp ${SOURCE_DIR}/modules/*.h ${SOURCE_DIR}/modules/*.hpp
     ${SOURCE_DIR}/cli/*.cpp ${SOURCE_DIR}/cli/*.hpp)
foreach(source IN LISTS sources)
  count_lines(${SOURCE_DIR}/${source} count)
  if(count GREATER largest_source)
    list(APPEND problems "${source} has ${count} lines (at most ${largest_source}: split it by concept)")
  endif()
endforeach()

count_lines(${SOURCE_DIR}/benchmarks/README.md count)
if(count GREATER largest_report)
  list(APPEND problems "benchmarks/README.md has ${count} lines (at most ${largest_report})")
endif()

file(GLOB_RECURSE texts RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/README.md ${SOURCE_DIR}/docs/* ${SOURCE_DIR}/benchmarks/* ${SOURCE_DIR}/modules/*
     ${SOURCE_DIR}/cli/* ${SOURCE_DIR}/examples/*)
list(FILTER texts EXCLUDE REGEX "\\.(png|svg|json|csv|gz)$")
foreach(text IN LISTS texts)
  file(STRINGS ${SOURCE_DIR}/${text} hits REGEX "[Ss]ession [0-9N]")
  foreach(hit IN LISTS hits)
    list(APPEND problems "${text}: development history in user text: ${hit}")
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " shown)
  message(FATAL_ERROR "the codebase's limits:\n  ${shown}")
endif()
