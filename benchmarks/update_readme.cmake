# Copies each ${RESULTS}/<part>.md between `<!-- bench:<part> -->` and `<!-- /bench:<part> -->`: in the report
# (${README}) where it has them, else in the part's page (${PAGES}/<part>.md, for the parts whose tables are
# long); and the fragment's verdict lines (its lines in bold) between the report's `<!-- bench-verdict:<part> -->`
# markers, where it has them. Parts without a fresh result keep their previous text, so a machine that cannot
# run a part (no GPU, no likwid) does not erase the figures measured elsewhere. Each file is replaced atomically.

# In `text_var`, the text between `open` and `close` becomes a newline and `body`; `found_var` says whether
# both markers were there.
function(replace_between text_var open close body found_var)
  set(text "${${text_var}}")
  string(FIND "${text}" "${open}" begin)
  string(FIND "${text}" "${close}" end)
  if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
    set(${found_var} FALSE PARENT_SCOPE)
    return()
  endif()
  string(LENGTH "${open}" open_length)
  math(EXPR body_begin "${begin} + ${open_length}")
  string(SUBSTRING "${text}" 0 ${body_begin} head)
  string(SUBSTRING "${text}" ${end} -1 tail)
  set(${text_var} "${head}\n${body}${tail}" PARENT_SCOPE)
  set(${found_var} TRUE PARENT_SCOPE)
endfunction()

function(write_atomically path text)
  file(WRITE ${path}.tmp "${text}")
  file(RENAME ${path}.tmp ${path})
endfunction()

file(READ ${README} report)
file(GLOB fragments ${RESULTS}/*.md)
set(updated "")
foreach(fragment IN LISTS fragments)
  get_filename_component(part ${fragment} NAME_WE)
  file(READ ${fragment} body)
  replace_between(report "<!-- bench:${part} -->" "<!-- /bench:${part} -->" "${body}" in_report)
  if(NOT in_report)
    set(page ${PAGES}/${part}.md)
    set(in_page FALSE)
    if(EXISTS ${page})
      file(READ ${page} page_text)
      replace_between(page_text "<!-- bench:${part} -->" "<!-- /bench:${part} -->" "${body}" in_page)
    endif()
    if(NOT in_page)
      message(FATAL_ERROR "no section for part '${part}' in benchmarks/README.md or ${page}: add <!-- bench:${part} --> ... "
                          "<!-- /bench:${part} -->")
    endif()
    write_atomically(${page} "${page_text}")
  endif()
  # The bold lines, kept whole: a CMake list would split them at their semicolons.
  string(REPLACE ";" "<semicolon>" protected "${body}")
  string(REGEX MATCHALL "\n\\*\\*[^\n]*" verdicts "\n${protected}")
  list(TRANSFORM verdicts REPLACE "^\n" "")
  list(JOIN verdicts "\n" verdicts)
  string(REPLACE "<semicolon>" ";" verdicts "${verdicts}")
  replace_between(report "<!-- bench-verdict:${part} -->" "<!-- /bench-verdict:${part} -->" "${verdicts}\n" has_verdict)
  list(APPEND updated ${part})
endforeach()
write_atomically(${README} "${report}")
message(STATUS "benchmarks/README.md: updated ${updated}")
