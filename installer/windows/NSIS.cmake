# Windows installer: CPack NSIS with windeployqt output and the .safetensors file association.
# The CPACK_NSIS_* settings are harmless on other systems, and they let `cpack -G NSIS` run on Linux
# (with Debian's nsis package) to check that the generated script compiles; see installer/README.md.

set(_ts_win_icon "${CMAKE_CURRENT_LIST_DIR}/../../resources/icons/${TENSORSCOPE_APP_ID}.ico")
set(_ts_win_doc_icon "${CMAKE_CURRENT_LIST_DIR}/../../resources/icons/${TENSORSCOPE_APP_ID}-application-x-safetensors.ico")
cmake_path(NORMAL_PATH _ts_win_icon)
cmake_path(NORMAL_PATH _ts_win_doc_icon)

if(WIN32)
  set(CPACK_GENERATOR "NSIS")
  install(FILES "${_ts_win_doc_icon}" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons")

  if(TARGET tensorscope)
    # Copies the Qt DLLs and plugins both executables need next to them in the install tree, which is
    # what CPack packs. Runs at install time so it sees the installed exes, not the build tree.
    get_target_property(_ts_qmake Qt6::qmake IMPORTED_LOCATION)
    get_filename_component(_ts_qt_bin "${_ts_qmake}" DIRECTORY)
    find_program(TENSORSCOPE_WINDEPLOYQT windeployqt HINTS "${_ts_qt_bin}" REQUIRED)
    install(CODE "
      set(_bin \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
      execute_process(
        COMMAND \"${TENSORSCOPE_WINDEPLOYQT}\" --release --no-translations --no-system-d3d-compiler
                --no-opengl-sw --dir \"\${_bin}\" \"\${_bin}/tensorscope.exe\" \"\${_bin}/tensorscope-cli.exe\"
        COMMAND_ERROR_IS_FATAL ANY)
    ")
  endif()
endif()

set(CPACK_PACKAGE_EXECUTABLES "tensorscope;Tensorscope")
set(CPACK_NSIS_PACKAGE_NAME "Tensorscope")
set(CPACK_NSIS_DISPLAY_NAME "Tensorscope ${PROJECT_VERSION}")
set(CPACK_NSIS_MUI_ICON "${_ts_win_icon}")
set(CPACK_NSIS_MUI_UNIICON "${_ts_win_icon}")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\tensorscope.exe")
set(CPACK_NSIS_EXECUTABLES_DIRECTORY "bin")
set(CPACK_NSIS_MUI_FINISHPAGE_RUN "tensorscope.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "https://github.com/tensorscope/tensorscope")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
# The association lives in two small NSIS files, included verbatim into the install and uninstall
# sections (an !include inside a section inlines its instructions).
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "!include \\\"${CMAKE_CURRENT_LIST_DIR}/register-filetype.nsh\\\"")
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "!include \\\"${CMAKE_CURRENT_LIST_DIR}/unregister-filetype.nsh\\\"")
