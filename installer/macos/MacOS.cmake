# macOS: Tensorscope.app with the .safetensors document type, Qt frameworks deployed by macdeployqt,
# and a drag-to-Applications DMG from CPack's DragNDrop generator. Built on a Mac; see installer/README.md.
set(CPACK_GENERATOR "DragNDrop")
set(CPACK_DMG_VOLUME_NAME "Tensorscope ${PROJECT_VERSION}")

if(TARGET tensorscope)
  set(_ts_mac_icons "${CMAKE_CURRENT_LIST_DIR}/../../resources/icons")
  cmake_path(NORMAL_PATH _ts_mac_icons)
  set(_ts_mac_icns
      "${_ts_mac_icons}/${TENSORSCOPE_APP_ID}.icns"
      "${_ts_mac_icons}/${TENSORSCOPE_APP_ID}-application-x-safetensors.icns")
  target_sources(tensorscope PRIVATE ${_ts_mac_icns})
  set_source_files_properties(${_ts_mac_icns} TARGET_DIRECTORY tensorscope
                              PROPERTIES MACOSX_PACKAGE_LOCATION Resources)
  # app/CMakeLists.txt must install the bundle with `BUNDLE DESTINATION .` for this to be packed.
  set_target_properties(tensorscope PROPERTIES
    MACOSX_BUNDLE ON
    OUTPUT_NAME Tensorscope
    MACOSX_BUNDLE_INFO_PLIST "${CMAKE_CURRENT_LIST_DIR}/Info.plist.in"
    MACOSX_BUNDLE_GUI_IDENTIFIER "${TENSORSCOPE_APP_ID}"
    MACOSX_BUNDLE_BUNDLE_NAME "Tensorscope"
    MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
    MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_ICON_FILE "${TENSORSCOPE_APP_ID}.icns")

  get_target_property(_ts_qmake Qt6::qmake IMPORTED_LOCATION)
  get_filename_component(_ts_qt_bin "${_ts_qmake}" DIRECTORY)
  find_program(TENSORSCOPE_MACDEPLOYQT macdeployqt HINTS "${_ts_qt_bin}" REQUIRED)
  install(CODE "
    execute_process(
      COMMAND \"${TENSORSCOPE_MACDEPLOYQT}\" \"\${CMAKE_INSTALL_PREFIX}/Tensorscope.app\" -always-overwrite
      COMMAND_ERROR_IS_FATAL ANY)
  ")
endif()
