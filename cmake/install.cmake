# `cmake --install` puts the library, its module interface units and a relocatable package config in the
# prefix; a consumer does `find_package(hml)` and `import hml;` (tests/consumer proves it), and
# `find_package(hml COMPONENTS probe)` with hml::probe for `import hml.probe;`.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(hml_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/hml)

get_property(hml_layers GLOBAL PROPERTY hml_layers)
install(TARGETS hml ${hml_layers} EXPORT hmlTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET CXX_MODULES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hml/modules)
install(EXPORT hmlTargets
  NAMESPACE hml::
  DESTINATION ${hml_config_dir}
  CXX_MODULES_DIRECTORY cxx-modules)

configure_package_config_file(cmake/hmlConfig.cmake.in ${PROJECT_BINARY_DIR}/hmlConfig.cmake
  INSTALL_DESTINATION ${hml_config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hmlConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hmlConfig.cmake ${PROJECT_BINARY_DIR}/hmlConfigVersion.cmake
  DESTINATION ${hml_config_dir})

# hml.c_kernel's LLVM-MCA plugin, where it looks for it once installed.
install(TARGETS hml_llvm_mca LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/hml)

# The hml command, when it is built (HML_BUILD_CLI).
if(TARGET hml_cli)
  install(TARGETS hml_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
