# ctest driver: a parent project (cmake/consumer-subdir) that add_subdirectory()s hayanagi.
# Its configure step checks that hayanagi's examples, tests and install rules are off and
# that only hayanagi's own targets exist; then it builds and runs a C++ program through
# hayanagi::cpp and a static C one, and installs: the prefix must hold the parent's
# program and nothing of hayanagi's.
#
#   cmake -DHAYANAGI_SOURCE_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=...
#         -DC_COMPILER=... -DCXX_COMPILER=... -DCONFIG=... -DCARGO=... -DCARGO_PROFILE=...
#         -DCARGO_TARGET_DIR=... -P RunSubdirectoryTest.cmake

cmake_minimum_required(VERSION 3.16)  # policies (IN_LIST) in script mode

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

if(CONFIG STREQUAL "")
  set(CONFIG Release)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(build "${WORK_DIR}/build")
set(prefix "${WORK_DIR}/prefix")

set(cxx_arg)
if(CXX_COMPILER)
  set(cxx_arg "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
# The outer build's cargo target directory and profile: cargo finds the library up to date.
run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_C_COMPILER=${C_COMPILER}" ${cxx_arg} "-DCMAKE_BUILD_TYPE=${CONFIG}"
    "-DCMAKE_INSTALL_PREFIX=${prefix}" "-DHAYANAGI_SOURCE_DIR=${HAYANAGI_SOURCE_DIR}"
    "-DCARGO=${CARGO}" "-DHAYANAGI_CARGO_PROFILE=${CARGO_PROFILE}"
    "-DHAYANAGI_CARGO_TARGET_DIR=${CARGO_TARGET_DIR}")
run("${CMAKE_COMMAND}" --build "${build}" --config "${CONFIG}")

foreach(exe app app_static)
  set(path "${build}/${exe}")
  if(NOT EXISTS "${path}" AND EXISTS "${build}/${CONFIG}/${exe}.exe")
    set(path "${build}/${CONFIG}/${exe}.exe")
  endif()
  run("${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH --unset=DYLD_LIBRARY_PATH "${path}")
  if(NOT run_output MATCHES "consumer OK")
    message(FATAL_ERROR "${exe} printed: ${run_output}")
  endif()
  string(STRIP "${run_output}" line)
  message(STATUS "${exe}: ${line}")
endforeach()

# No example programs were built in hayanagi's binary directory.
file(GLOB built_examples "${build}/hayanagi/analyze*" "${build}/hayanagi/two_engines*"
     "${build}/hayanagi/test_*" "${build}/hayanagi/wrapper_test*")
if(built_examples)
  message(FATAL_ERROR "hayanagi's examples/tests were built under add_subdirectory: ${built_examples}")
endif()

run("${CMAKE_COMMAND}" --install "${build}" --config "${CONFIG}")
file(GLOB_RECURSE installed RELATIVE "${prefix}" "${prefix}/*")
list(SORT installed)
set(expected "bin/app_static")
if(WIN32)
  set(expected "bin/app_static.exe")
endif()
if(NOT installed STREQUAL expected)
  message(FATAL_ERROR "the parent's install holds more than its program: ${installed}")
endif()
message(STATUS "add_subdirectory: the parent's install holds only ${installed}")
