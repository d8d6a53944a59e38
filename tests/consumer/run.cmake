# Installs the built library into a fresh prefix, then configures, builds and runs tests/consumer against it:
# the proof that another project can `find_package(hml)` and `import hml;`.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${description} failed (${result}):\n${output}")
  endif()
  message(STATUS "${description}: ok")
endfunction()

run_step("install hml into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step("configure the consumer"
  ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
    -DCMAKE_PREFIX_PATH=${prefix})
run_step("build the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("run the consumer" ${WORK_DIR}/build/consumer)
run_step("run the probe's consumer" ${WORK_DIR}/build/consumer_probe)
run_step("run the C kernels' consumer" ${WORK_DIR}/build/consumer_c_kernel)

# What would fail later is refused at configure time, in one line that says the fix.
function(expect_refusal description fix)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/refused -G ${GENERATOR}
                    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix} ${ARGN}
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  file(REMOVE_RECURSE ${WORK_DIR}/refused)
  string(REGEX REPLACE "[ \n]+" " " output "${output}")  # CMake wraps the package's reason
  string(FIND "${output}" "${fix}" at)
  if(result EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "${description}: expected the configure to fail saying \"${fix}\" (${result}):\n${output}")
  endif()
  message(STATUS "${description}: refused")
endfunction()
expect_refusal("GNU extensions on" "set(CMAKE_CXX_EXTENSIONS OFF) before find_package(hml)"
               -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_CXX_EXTENSIONS=ON)
expect_refusal("C++23" "set(CMAKE_CXX_STANDARD 20), or leave it unset"
               -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_CXX_STANDARD=23)
expect_refusal("a component it has not" "hml has no component 'bogus'; its components are units, model"
               -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DHML_CONSUMER_COMPONENT=bogus)
# libc++ need not be installed for the package to refuse it: CMake's own check of the compiler is skipped.
expect_refusal("libc++" "remove -stdlib=libc++ from CMAKE_CXX_FLAGS"
               -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=-stdlib=libc++" -DCMAKE_CXX_COMPILER_WORKS=ON)
if(EXISTS /usr/bin/g++)
  expect_refusal("another compiler" "its modules are read by the same compiler" -DCMAKE_CXX_COMPILER=/usr/bin/g++)
endif()
