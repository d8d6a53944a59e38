# Passes only when the control build compiles and the case build fails with the expected diagnostic.
# A case that fails for another reason (a typo, a missing import) fails this check.
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
# The diagnostic may sit on the error line or on a note attached to it: a failed constant evaluation says
# why in its notes ("in call to 'expects(false, &\"hml: hit rate must be within [0, 1]\"[0])'").
string(REGEX MATCH "(error|note): [^\n]*(${expected_regex})" found "${case_output}")
if(NOT found)
  message(FATAL_ERROR "failed to compile for the wrong reason.\nexpected an error matching: ${expected_regex}\n"
                      "compiler output:\n${case_output}")
endif()
message(STATUS "rejected as expected: ${found}")
