# Passes only when the control build compiles and the case build fails with the expected diagnostic and no
# other error (and, if the case names one, with the expected note). A case that fails for another reason (a typo, a missing import) fails this check.
file(STRINGS ${CASE_FILE} expectation REGEX "^// expected-error: ")
list(LENGTH expectation count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${CASE_FILE}: needs exactly one '// expected-error: <regex>' line, found ${count}")
endif()
string(REGEX REPLACE "^// expected-error: " "" expected_regex "${expectation}")

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}.control
  RESULT_VARIABLE control_result OUTPUT_VARIABLE control_output ERROR_VARIABLE control_output)
if(NOT control_result EQUAL 0)
  message(FATAL_ERROR "the control build (without HML_MUST_NOT_COMPILE) must compile, but failed:\n${control_output}")
endif()

# The object of a previous failed attempt does not exist, so this always recompiles the case.
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}.case
  RESULT_VARIABLE case_result OUTPUT_VARIABLE case_output ERROR_VARIABLE case_output)
if(case_result EQUAL 0)
  message(FATAL_ERROR "compiled, but must not: ${CASE_FILE}")
endif()
# Every error line must match, not just one: a typo in the offending line has an error of its own
# ("no type named 'dta_size' in namespace 'hml'; did you mean 'data_size'?") even where clang's typo correction
# recovers and then also reports the expected diagnostic. Semicolons and brackets are masked so that the
# output splits into one list element per line.
string(REPLACE ";" "<hml-semicolon>" lines "${case_output}")
string(REPLACE "[" "<hml-lbracket>" lines "${lines}")
string(REPLACE "]" "<hml-rbracket>" lines "${lines}")
string(REPLACE "\n" ";" lines "${lines}")
set(found "")
set(other_errors "")
foreach(line IN LISTS lines)
  string(REPLACE "<hml-semicolon>" ";" line "${line}")
  string(REPLACE "<hml-lbracket>" "[" line "${line}")
  string(REPLACE "<hml-rbracket>" "]" line "${line}")
  if(NOT line MATCHES "error: ")
    continue()
  endif()
  string(REGEX MATCH "error: .*(${expected_regex})" match "${line}")
  if(match)
    set(found "${match}")
  else()
    string(APPEND other_errors "  ${line}\n")
  endif()
endforeach()
if(NOT found OR NOT other_errors STREQUAL "")
  if(found)
    set(why "the expected error came with others")
  else()
    set(why "no error matches")
  endif()
  message(FATAL_ERROR "failed to compile for the wrong reason (${why}).\nexpected an error matching: ${expected_regex}\n"
                      "errors that do not match:\n${other_errors}compiler output:\n${case_output}")
endif()
# A mix-up hml names is named within a few lines: the first diagnostic, from its error line to the next
# error or the compiler's summary, is at most 12 lines where its error is in hml's words ("hml: a data size
# (B) is not a duration (s)"), so that the user reads hml's message before a page of candidates.
set(most_diagnostic_lines 12)
set(in_first FALSE)
set(first_lines 0)
foreach(line IN LISTS lines)
  if(line MATCHES "error: ")
    if(in_first)
      break()
    endif()
    if(NOT line MATCHES "error: .*hml: ")
      break()  # clang's own words: the bound is for hml's messages
    endif()
    set(in_first TRUE)
  elseif(in_first AND (line MATCHES "errors? generated" OR line MATCHES "^ninja: "))
    break()
  endif()
  if(in_first)
    math(EXPR first_lines "${first_lines} + 1")
  endif()
endforeach()
if(first_lines GREATER most_diagnostic_lines)
  message(FATAL_ERROR "hml's message comes in a first diagnostic of ${first_lines} lines (at most "
                      "${most_diagnostic_lines}):\n${case_output}")
endif()
# A failed constant evaluation says why in a note attached to the error ("in call to 'expects(false,
# &"hml: hit rate must be within [0, 1]"[0])'"); a case names it with `// expected-note: <regex>`.
file(STRINGS ${CASE_FILE} note_expectation REGEX "^// expected-note: ")
if(note_expectation)
  string(REGEX REPLACE "^// expected-note: " "" expected_note "${note_expectation}")
  string(REGEX MATCH "note: [^\n]*(${expected_note})" note_found "${case_output}")
  if(NOT note_found)
    message(FATAL_ERROR "failed to compile for the wrong reason (no note matches).\n"
                        "expected a note matching: ${expected_note}\ncompiler output:\n${case_output}")
  endif()
  string(APPEND found "\n  with ${note_found}")
endif()
if(first_lines GREATER 0)
  string(APPEND found "\n  in a first diagnostic of ${first_lines} lines")
endif()
message(STATUS "rejected as expected: ${found}")
