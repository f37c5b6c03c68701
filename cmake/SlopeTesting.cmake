# slope_add_plugin_test(<name> SOURCES <files...> FLAGS <flags...>
#                       [LINK_FLAGS <flags...>])
#
# A GoogleTest executable whose sources are compiled by clang 19 with the
# Slope plugin and FLAGS (the optimization level under test).
include(GoogleTest)

function(slope_add_plugin_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;FLAGS;LINK_FLAGS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(${name} PRIVATE
    "-fplugin=$<TARGET_FILE:SlopeClang>" ${ARG_FLAGS})
  target_link_libraries(${name} PRIVATE GTest::gtest_main)
  target_link_options(${name} PRIVATE ${ARG_LINK_FLAGS})
  add_dependencies(${name} SlopeClang)
  # Rebuild the tests whenever the plugin changes.
  set_source_files_properties(${ARG_SOURCES} PROPERTIES
    OBJECT_DEPENDS "${CMAKE_BINARY_DIR}/lib/SlopeClang.so")
  # One ctest entry per GoogleTest case, named <binary>/<Suite>.<Case>: a
  # failure names itself.
  gtest_discover_tests(${name} TEST_PREFIX "${name}/")
endfunction()
