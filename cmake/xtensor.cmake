# Provides the target `xtensor_headers`.
# Natively, Debian's CMake package. Under Emscripten the system include folder
# is out of reach (its glibc headers break the wasm build), so the build tree
# gets a folder of links to just the header-only libraries it needs.
add_library(xtensor_headers INTERFACE)
if(EMSCRIPTEN)
  set(links "${CMAKE_BINARY_DIR}/third_party_include")
  file(MAKE_DIRECTORY "${links}")
  foreach(library xtensor xtl)
    if(NOT EXISTS "/usr/include/${library}")
      message(FATAL_ERROR "/usr/include/${library} is missing: apt-get install xtensor-dev")
    endif()
    file(CREATE_LINK "/usr/include/${library}" "${links}/${library}" SYMBOLIC)
  endforeach()
  target_include_directories(xtensor_headers SYSTEM INTERFACE "${links}")
else()
  find_package(xtensor REQUIRED CONFIG)
  target_link_libraries(xtensor_headers INTERFACE xtensor)
endif()
