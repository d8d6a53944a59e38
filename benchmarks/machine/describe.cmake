# Writes a Markdown description of this machine: CPU, cores, caches, memory, compiler, date.
cmake_host_system_information(RESULT cpu QUERY PROCESSOR_DESCRIPTION)
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_PHYSICAL_CORES)
cmake_host_system_information(RESULT threads QUERY NUMBER_OF_LOGICAL_CORES)
cmake_host_system_information(RESULT memory QUERY TOTAL_PHYSICAL_MEMORY)
cmake_host_system_information(RESULT os QUERY DISTRIB_PRETTY_NAME)
execute_process(COMMAND ${CXX} --version OUTPUT_VARIABLE compiler OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE "\n.*" "" compiler "${compiler}")
set(caches "")
foreach(index RANGE 0 4)
  set(dir /sys/devices/system/cpu/cpu0/cache/index${index})
  if(EXISTS ${dir}/size)
    file(STRINGS ${dir}/level level)
    file(STRINGS ${dir}/type type)
    file(STRINGS ${dir}/size size)
    if(NOT type STREQUAL "Instruction")
      string(APPEND caches "L${level} ${size}, ")
    endif()
  endif()
endforeach()
string(REGEX REPLACE ", $" "" caches "${caches}")
string(TIMESTAMP today "%Y-%m-%d" UTC)
math(EXPR memory_gib "${memory} / 1024")
file(WRITE ${OUT}
"| | |
|---|---|
| CPU | ${cpu} |
| cores / hardware threads available | ${cores} / ${threads} |
| data caches seen by cpu0 (L3 shared by every core) | ${caches} |
| memory | ${memory_gib} GiB |
| OS | ${os} |
| compiler | ${compiler} |
| measured | ${today} |
")
