# ctest driver: install the build tree into a prefix inside it, then configure, build and
# run a tiny consumer project that uses find_package(hayanagi) (shared and static
# targets), and compile the same program through pkg-config when it is available.
#
#   cmake -DHAYANAGI_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... \
#         -DGENERATOR=... -DC_COMPILER=... -DCONFIG=... -P RunConsumerTest.cmake

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

if(CONFIG STREQUAL "")
  set(CONFIG Release)
endif()
run("${CMAKE_COMMAND}" --install "${HAYANAGI_BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")

set(build "${WORK_DIR}/build")
run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_BUILD_TYPE=${CONFIG}")
run("${CMAKE_COMMAND}" --build "${build}" --config "${CONFIG}")

foreach(exe consumer consumer_static)
  set(path "${build}/${exe}")
  if(NOT EXISTS "${path}" AND EXISTS "${build}/${CONFIG}/${exe}.exe")
    set(path "${build}/${CONFIG}/${exe}.exe")
  endif()
  run("${path}")
  if(NOT run_output MATCHES "consumer OK")
    message(FATAL_ERROR "${exe} printed: ${run_output}")
  endif()
  message(STATUS "${exe}: ${run_output}")
endforeach()

# pkg-config, where there is one (Unix).
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG AND NOT WIN32)
  file(GLOB pcdirs "${prefix}/lib*/pkgconfig" "${prefix}/lib/*/pkgconfig")
  list(JOIN pcdirs ":" pcpath)
  set(ENV{PKG_CONFIG_PATH} "${pcpath}")
  run("${PKG_CONFIG}" --modversion hayanagi)
  string(STRIP "${run_output}" version)
  message(STATUS "pkg-config: hayanagi ${version}")
  run("${PKG_CONFIG}" --cflags --libs hayanagi)
  string(STRIP "${run_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("${PKG_CONFIG}" --variable=libdir hayanagi)
  string(STRIP "${run_output}" libdir)
  run("${C_COMPILER}" -o "${WORK_DIR}/consumer_pc" "${CONSUMER_SOURCE_DIR}/main.c" ${flags}
      "-Wl,-rpath,${libdir}")
  run("${WORK_DIR}/consumer_pc")
  if(NOT run_output MATCHES "consumer OK")
    message(FATAL_ERROR "consumer_pc printed: ${run_output}")
  endif()
  message(STATUS "consumer_pc: ${run_output}")
  # The static library through `pkg-config --static`.
  run("${PKG_CONFIG}" --cflags --libs --static hayanagi)
  string(STRIP "${run_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  string(REPLACE "-lhayanagi" "${libdir}/libhayanagi.a" flags "${flags}")
  run("${C_COMPILER}" -o "${WORK_DIR}/consumer_pc_static" "${CONSUMER_SOURCE_DIR}/main.c" ${flags})
  run("${WORK_DIR}/consumer_pc_static")
  if(NOT run_output MATCHES "consumer OK")
    message(FATAL_ERROR "consumer_pc_static printed: ${run_output}")
  endif()
  message(STATUS "consumer_pc_static: ${run_output}")
endif()
