# ctest probe_package (CMakeLists.txt): the probe library as another project sees it. Installs
# BUILD_DIR into a prefix, configures and builds examples/ against it with find_package(drop16),
# solves 3x3:NBK with DROP16, and checks that the example prints for a position exactly the value,
# DTE and every move's value and DTE that `drop16 query --json` gives.
set(work ${BUILD_DIR}/probe-package-test)
file(REMOVE_RECURSE ${work})
function(run)
  execute_process(COMMAND ${ARGN} COMMAND_ERROR_IS_FATAL ANY OUTPUT_VARIABLE out)
  set(out "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${work}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${work}/example -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${work}/prefix
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
run(${CMAKE_COMMAND} --build ${work}/example)
run(${DROP16} solve --variant 3x3:NBK --tables ${work}/tables --quiet)

foreach(fen "3/3/3[NBKnbk] w" "3/1N1/3[BKnbk] b" "2n/1K1/3[NBbk] b")
  run(${DROP16} query --json --tables ${work}/tables --fen ${fen})
  set(json "${out}")
  string(JSON value GET "${json}" value)
  string(JSON dte GET "${json}" dte)
  string(JSON canonical GET "${json}" fen)
  set(expected "${canonical} ${value} ${dte}\n")
  string(JSON count LENGTH "${json}" moves)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON move GET "${json}" moves ${i} move)
    string(JSON value GET "${json}" moves ${i} value)
    string(JSON dte GET "${json}" moves ${i} dte)
    string(APPEND expected "${move} ${value} ${dte}\n")
  endforeach()
  run(${work}/example/probe_example ${work}/tables ${fen})
  if(NOT out STREQUAL expected)
    message(FATAL_ERROR "probe_example ${fen} printed\n${out}\ndrop16 query --json gives\n${expected}")
  endif()
  message(STATUS "${fen}: ${count} moves agree")
endforeach()

# A FEN the tables do not hold: the example reports the library's exception, status 1.
execute_process(COMMAND ${work}/example/probe_example ${work}/tables "3/3/3/3[NBKnbk] w"
  RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 1 OR NOT err MATCHES "FEN")
  message(FATAL_ERROR "probe_example on a bad FEN: status ${status}, stderr ${err}")
endif()
