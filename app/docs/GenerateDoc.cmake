# cmake -DEXE=program -DARGS="a|b" -DOUT=file [-DGZIP=gzip] -P GenerateDoc.cmake
# Writes what `program a b` prints to OUT (and OUT.gz with GZIP); fails the build when it fails.
string(REPLACE "|" ";" args "${ARGS}")
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
# No display: printing the GUI's man page must not need one, and the build proves it.
unset(ENV{DISPLAY})
unset(ENV{WAYLAND_DISPLAY})
unset(ENV{QT_QPA_PLATFORM})
# A sanitizer build's leak report at exit would fail the build; leaks are the tests' business.
set(ENV{ASAN_OPTIONS} "$ENV{ASAN_OPTIONS}:detect_leaks=0") # the last setting wins
execute_process(COMMAND "${EXE}" ${args} OUTPUT_FILE "${OUT}.tmp" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "${EXE} ${args} failed (${rc}): ${err}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
if(GZIP)
  execute_process(COMMAND "${GZIP}" -9n -c "${OUT}" OUTPUT_FILE "${OUT}.gz" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${GZIP} -9n ${OUT} failed (${rc})")
  endif()
endif()
