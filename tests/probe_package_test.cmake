# ctest probe_package (CMakeLists.txt): the probe library as another project sees it. Installs
# BUILD_DIR into a prefix, configures and builds examples/ against it with find_package(drop16),
# solves 3x3:NBK and the rook race's row 4x4:1 (draws) with DROP16, and checks that the example
# prints for a position exactly the value, DTE and every move's value and DTE, in the order that
# `drop16 query --json` gives (a draw has no DTE).
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
run(${DROP16} solve --variant rookrace:4x4:1 --tables ${work}/rookrace --quiet)

# "value dte" of element PATH... of the JSON in `json`, "draw" alone for a draw.
function(value_text out_var)
  string(JSON value GET "${json}" ${ARGN} value)
  string(JSON dte GET "${json}" ${ARGN} dte)
  if(value STREQUAL "draw")
    set(${out_var} "draw" PARENT_SCOPE)
  else()
    set(${out_var} "${value} ${dte}" PARENT_SCOPE)
  endif()
endfunction()

foreach(case "tables|3/3/3[NBKnbk] w" "tables|3/1N1/3[BKnbk] b" "tables|2n/1K1/3[NBbk] b"
             "rookrace|3r/4/4/R3 [1,1] [-,-] w")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 dir)
  list(GET case 1 fen)
  run(${DROP16} query --json --tables ${work}/${dir} --fen ${fen})
  set(json "${out}")
  string(JSON canonical GET "${json}" fen)
  value_text(text)
  set(expected "${canonical} ${text}\n")
  string(JSON count LENGTH "${json}" moves)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON move GET "${json}" moves ${i} move)
    value_text(text moves ${i})
    string(APPEND expected "${move} ${text}\n")
  endforeach()
  run(${work}/example/probe_example ${work}/${dir} ${fen})
  if(NOT out STREQUAL expected)
    message(FATAL_ERROR "probe_example ${fen} printed\n${out}\ndrop16 query --json gives\n${expected}")
  endif()
  message(STATUS "${fen}: ${count} moves agree")
endforeach()
if(NOT expected MATCHES "draw")
  message(FATAL_ERROR "the rook race's start printed no draw:\n${expected}")
endif()

# A FEN the tables do not hold: the example reports the library's exception, status 1.
execute_process(COMMAND ${work}/example/probe_example ${work}/tables "3/3/3/3[NBKnbk] w"
  RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 1 OR NOT err MATCHES "FEN")
  message(FATAL_ERROR "probe_example on a bad FEN: status ${status}, stderr ${err}")
endif()
