# find_package(drop16): the drop16::probe library (include/drop16/probe.h). Its dependencies are
# linked into the shared library, so nothing else needs finding.
include("${CMAKE_CURRENT_LIST_DIR}/drop16Targets.cmake")
