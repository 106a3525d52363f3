# ctest driver: the package as a user gets it.
#   1. Install the build tree into a prefix inside it; check the installed files, and on
#      Linux the SONAME (readelf -d) and the libhayanagi.so development link.
#   2. Configure, build and install the consumer project (cmake/consumer: C through
#      hayanagi::hayanagi and hayanagi::hayanagi_static, C++ through hayanagi::cpp) and run
#      its programs from the build tree and from the install prefix, without
#      LD_LIBRARY_PATH; check what they depend on.
#   3. pkg-config, where there is one (Unix): copy the prefix elsewhere (the .pc files are
#      relocatable) and compile the same programs with the flags of hayanagi (shared, with
#      -Wl,-rpath), hayanagi-static, and `--static hayanagi` with `-static`; run them.
#
#   cmake -DHAYANAGI_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... \
#         -DGENERATOR=... -DC_COMPILER=... -DCXX_COMPILER=... -DCONFIG=... \
#         -DSONAME=... -DABI_VERSION=... -P RunConsumerTest.cmake

cmake_minimum_required(VERSION 3.16)  # policies (IN_LIST) in script mode

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# Run a consumer program with no LD_LIBRARY_PATH: it must find the library by itself.
function(run_consumer label path)
  run("${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH --unset=DYLD_LIBRARY_PATH "${path}")
  if(NOT run_output MATCHES "consumer OK")
    message(FATAL_ERROR "${label} printed: ${run_output}")
  endif()
  if(NOT run_output MATCHES "abi ${ABI_VERSION} ")
    message(FATAL_ERROR "${label}: the library reports another ABI version than ${ABI_VERSION}: ${run_output}")
  endif()
  string(STRIP "${run_output}" line)
  message(STATUS "${label}: ${line}")
endfunction()

# The DT_NEEDED entries of an ELF file ("" when there is no readelf or no dynamic section).
function(needed_libs file out)
  set(libs "")
  if(READELF)
    execute_process(COMMAND "${READELF}" -d "${file}" OUTPUT_VARIABLE dyn ERROR_QUIET)
    string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]*\\]" entries "${dyn}")
    foreach(e IN LISTS entries)
      string(REGEX REPLACE ".*\\[(.*)\\]" "\\1" lib "${e}")
      list(APPEND libs "${lib}")
    endforeach()
  endif()
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()

function(expect_needs file lib)
  if(READELF)
    needed_libs("${file}" libs)
    if(NOT lib IN_LIST libs)
      message(FATAL_ERROR "${file} does not depend on ${lib} (NEEDED: ${libs})")
    endif()
  endif()
endfunction()

function(expect_no_hayanagi file)
  if(READELF)
    needed_libs("${file}" libs)
    foreach(l IN LISTS libs)
      if(l MATCHES "hayanagi")
        message(FATAL_ERROR "${file} should be static in hayanagi but needs ${l}")
      endif()
    endforeach()
  endif()
endfunction()

if(CONFIG STREQUAL "")
  set(CONFIG Release)
endif()
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
find_program(READELF readelf)

# ----- 1. install -------------------------------------------------------------------------

run("${CMAKE_COMMAND}" --install "${HAYANAGI_BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")

file(GLOB cfg "${prefix}/lib*/cmake/hayanagi/hayanagiConfig.cmake" "${prefix}/lib/*/cmake/hayanagi/hayanagiConfig.cmake")
if(NOT cfg)
  message(FATAL_ERROR "no hayanagiConfig.cmake installed under ${prefix}")
endif()
get_filename_component(libdir "${cfg}" DIRECTORY)
get_filename_component(libdir "${libdir}/../.." ABSOLUTE)
foreach(f include/hayanagi.h include/hayanagi.hpp share/doc/hayanagi/LICENSE-MIT share/doc/hayanagi/LICENSE-APACHE)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

if(SONAME)
  # The real file is named by its SONAME; libhayanagi.so is a link to it.
  if(NOT EXISTS "${libdir}/${SONAME}" OR IS_SYMLINK "${libdir}/${SONAME}")
    message(FATAL_ERROR "${libdir}/${SONAME} is missing or not a plain file")
  endif()
  if(NOT IS_SYMLINK "${libdir}/libhayanagi.so")
    message(FATAL_ERROR "${libdir}/libhayanagi.so is not a symbolic link")
  endif()
  file(READ_SYMLINK "${libdir}/libhayanagi.so" target)
  if(NOT target STREQUAL SONAME)
    message(FATAL_ERROR "libhayanagi.so points to '${target}', not ${SONAME}")
  endif()
  if(NOT SONAME STREQUAL "libhayanagi.so.${ABI_VERSION}")
    message(FATAL_ERROR "SONAME ${SONAME} does not carry the ABI version ${ABI_VERSION}")
  endif()
  if(READELF)
    run("${READELF}" -d "${libdir}/${SONAME}")
    string(REGEX MATCH "\\(SONAME\\)[^\n]*" line "${run_output}")
    if(NOT line MATCHES "Library soname: \\[${SONAME}\\]")
      message(FATAL_ERROR "readelf -d ${libdir}/${SONAME}: no SONAME ${SONAME}\n${run_output}")
    endif()
    string(REGEX REPLACE "^ *0x[0-9a-f]+ *" "" line "${line}")
    message(STATUS "readelf -d ${SONAME}: ${line}")
  else()
    message(STATUS "readelf not found: SONAME not checked")
  endif()
endif()

# ----- 2. find_package --------------------------------------------------------------------

set(build "${WORK_DIR}/build")
set(app "${WORK_DIR}/app")
set(cxx_arg)
if(CXX_COMPILER)
  set(cxx_arg "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_C_COMPILER=${C_COMPILER}" ${cxx_arg} "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_INSTALL_PREFIX=${app}" "-DCMAKE_BUILD_TYPE=${CONFIG}")
run("${CMAKE_COMMAND}" --build "${build}" --config "${CONFIG}")
run("${CMAKE_COMMAND}" --install "${build}" --config "${CONFIG}")

foreach(exe consumer consumer_static consumer_cpp)
  set(path "${build}/${exe}")
  if(NOT EXISTS "${path}" AND EXISTS "${build}/${CONFIG}/${exe}.exe")
    set(path "${build}/${CONFIG}/${exe}.exe")
  endif()
  run_consumer("${exe}" "${path}")
  # Installed with the consumer's own `cmake --install`: still finds the library.
  if(NOT WIN32)
    run_consumer("${exe} (installed)" "${app}/bin/${exe}")
  endif()
endforeach()
if(SONAME)
  expect_needs("${app}/bin/consumer" "${SONAME}")
  expect_needs("${app}/bin/consumer_cpp" "${SONAME}")
endif()
expect_no_hayanagi("${app}/bin/consumer_static")

# ----- 3. pkg-config ----------------------------------------------------------------------

find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG OR WIN32)
  message(STATUS "pkg-config not found: the pkg-config consumers are skipped")
  return()
endif()

# A copy of the whole prefix somewhere else: the .pc files must follow it.
set(moved "${WORK_DIR}/moved")
file(COPY "${prefix}/" DESTINATION "${moved}")
file(RELATIVE_PATH libdir_rel "${prefix}" "${libdir}")
set(ENV{PKG_CONFIG_PATH} "${moved}/${libdir_rel}/pkgconfig")
unset(ENV{PKG_CONFIG_LIBDIR})
run("${PKG_CONFIG}" --modversion hayanagi)
string(STRIP "${run_output}" version)
message(STATUS "pkg-config: hayanagi ${version}")
run("${PKG_CONFIG}" --variable=libdir hayanagi)
string(STRIP "${run_output}" pc_libdir)
get_filename_component(pc_libdir_abs "${pc_libdir}" ABSOLUTE)
if(NOT pc_libdir_abs STREQUAL "${moved}/${libdir_rel}")
  message(FATAL_ERROR "hayanagi.pc is not relocatable: libdir ${pc_libdir} in a copy at ${moved}")
endif()

function(pc_flags out)
  run("${PKG_CONFIG}" ${ARGN})
  string(STRIP "${run_output}" flags)
  string(REPLACE ";" " " args "${ARGN}")
  message(STATUS "pkg-config ${args}: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# Shared, the documented way: the flags plus an rpath to the library directory.
pc_flags(flags --cflags --libs hayanagi)
run("${C_COMPILER}" -o "${WORK_DIR}/consumer_pc" "${CONSUMER_SOURCE_DIR}/main.c" ${flags}
    "-Wl,-rpath,${pc_libdir}")
run_consumer(consumer_pc "${WORK_DIR}/consumer_pc")
if(SONAME)
  expect_needs("${WORK_DIR}/consumer_pc" "${SONAME}")
endif()
if(CXX_COMPILER)
  run("${CXX_COMPILER}" -std=c++17 -o "${WORK_DIR}/consumer_pc_cpp" "${CONSUMER_SOURCE_DIR}/main.cpp"
      ${flags} "-Wl,-rpath,${pc_libdir}")
  run_consumer(consumer_pc_cpp "${WORK_DIR}/consumer_pc_cpp")
endif()

# hayanagi-static: the archive inside an otherwise dynamic program.
pc_flags(flags --cflags --libs hayanagi-static)
run("${C_COMPILER}" -o "${WORK_DIR}/consumer_pc_static" "${CONSUMER_SOURCE_DIR}/main.c" ${flags})
run_consumer(consumer_pc_static "${WORK_DIR}/consumer_pc_static")
expect_no_hayanagi("${WORK_DIR}/consumer_pc_static")

# `pkg-config --static hayanagi` for a fully static program (`-static`: -lhayanagi is the
# archive). Linux with a static C library only.
if(CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  pc_flags(flags --cflags --libs --static hayanagi)
  execute_process(COMMAND "${C_COMPILER}" -static -o "${WORK_DIR}/consumer_pc_fully_static"
                          "${CONSUMER_SOURCE_DIR}/main.c" ${flags}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 AND err MATCHES "cannot find -lc|cannot find -lpthread|cannot find -lm")
    message(STATUS "no static C library here: the fully static pkg-config consumer is skipped")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): cc -static ... pkg-config --static --libs hayanagi\n${out}\n${err}")
  else()
    run_consumer(consumer_pc_fully_static "${WORK_DIR}/consumer_pc_fully_static")
    needed_libs("${WORK_DIR}/consumer_pc_fully_static" libs)
    if(libs)
      message(FATAL_ERROR "consumer_pc_fully_static is not static: NEEDED ${libs}")
    endif()
  endif()
endif()
