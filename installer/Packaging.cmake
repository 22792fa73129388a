# Desktop integration install rules and CPack configuration. Included last from the top-level
# CMakeLists.txt, after every target exists. The binaries' own install(TARGETS) rules live in
# app/CMakeLists.txt; this file installs what the desktop needs around them.
include(GNUInstallDirs)

set(_ts_resources "${CMAKE_CURRENT_LIST_DIR}/../resources")
set(_ts_id "${TENSORSCOPE_APP_ID}")
cmake_path(NORMAL_PATH _ts_resources)

# ---- Linux / freedesktop ------------------------------------------------------------------------
if(UNIX AND NOT APPLE AND TENSORSCOPE_BUILD_GUI)
  if(NOT TARGET tensorscope)
    message(STATUS "Packaging: no 'tensorscope' target yet; the desktop entry is installed without its binary")
  endif()

  install(FILES "${_ts_resources}/${_ts_id}.desktop"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  install(FILES "${_ts_resources}/${_ts_id}.metainfo.xml"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
  # Installed as <app id>.xml; update-mime-database (a dpkg trigger on Debian) compiles it.
  install(FILES "${_ts_resources}/${_ts_id}.mime.xml"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages"
          RENAME "${_ts_id}.xml")

  # Pre-rendered PNGs (resources/icons/render-icons.sh), laid out like the hicolor theme already.
  install(DIRECTORY "${_ts_resources}/icons/hicolor"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons"
          FILES_MATCHING PATTERN "*.png")
  install(FILES "${_ts_resources}/icons/${_ts_id}.svg"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
  install(FILES "${_ts_resources}/icons/${_ts_id}-application-x-safetensors.svg"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/mimetypes")
endif()

# Debian policy files in share/doc/tensorscope: the machine-readable (DEP-5) copyright file, which
# names every licence in the source and refers to /usr/share/common-licenses/GPL-3 for the GPL text
# (the plain LICENSE renamed would be a full GPL copy lintian flags, and would leave out the sample
# model's MIT licence), and the release history as a Debian-format changelog.gz (gzip -9n:
# reproducible, no timestamp). Add each release at the top of installer/debian/changelog and to the
# <releases> of the metainfo.
if(UNIX AND NOT APPLE)
  install(FILES "${CMAKE_CURRENT_LIST_DIR}/debian/copyright"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/tensorscope")
  set(_ts_changelog "${CMAKE_CURRENT_LIST_DIR}/debian/changelog")
  file(STRINGS "${_ts_changelog}" _ts_changelog_head LIMIT_COUNT 1)
  if(NOT _ts_changelog_head MATCHES "^tensorscope \\(${PROJECT_VERSION}\\) ")
    message(WARNING "installer/debian/changelog does not start with version ${PROJECT_VERSION}")
  endif()
  find_program(TENSORSCOPE_GZIP gzip REQUIRED)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_ts_changelog}")
  execute_process(COMMAND "${TENSORSCOPE_GZIP}" -9nc "${_ts_changelog}"
                  OUTPUT_FILE "${CMAKE_BINARY_DIR}/changelog.gz" COMMAND_ERROR_IS_FATAL ANY)
  install(FILES "${CMAKE_BINARY_DIR}/changelog.gz" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/tensorscope")
endif()

# ---- Windows and macOS ---------------------------------------------------------------------------
# NSIS settings are included everywhere so that `cpack -G NSIS` can check the script on Linux.
include("${CMAKE_CURRENT_LIST_DIR}/windows/NSIS.cmake")
if(APPLE)
  include("${CMAKE_CURRENT_LIST_DIR}/macos/MacOS.cmake")
endif()

# ---- CPack ---------------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME "tensorscope")
set(CPACK_PACKAGE_VENDOR "Tensorscope")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/tensorscope/tensorscope")
set(CPACK_PACKAGE_CONTACT "Tensorscope developers <tensorscope@users.noreply.github.com>")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Tensorscope")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
# Release builds carry debug info (RelWithDebInfo); the package does not.
set(CPACK_STRIP_FILES ON)

if(UNIX AND NOT APPLE)
  set(CPACK_GENERATOR "DEB")
  # tensorscope_<version>_<arch>.deb, e.g. tensorscope_0.1.0_amd64.deb
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
  set(CPACK_DEBIAN_PACKAGE_SECTION "science")
  set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${CPACK_PACKAGE_HOMEPAGE_URL}")
  # CPack prepends CPACK_PACKAGE_DESCRIPTION_SUMMARY as the synopsis line and indents the rest;
  # an empty line becomes the " ." paragraph separator.
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Tensorscope opens .safetensors model weights, including sharded checkpoints
with a Hugging Face index, without loading them into memory. It lists every
tensor with its type, shape and offsets, validates the file against the format
rules, computes per-tensor statistics and histograms, finds NaN and infinite
values, and edits metadata without touching tensor data.

The package contains the Qt desktop application tensorscope and the command
line tool tensorscope-cli.")
  # shlibdeps finds the linked libraries; these are loaded at run time or only used by the desktop.
  # (The xcb platform plugin is in libqt6gui6 and the SVG icon engine in libqt6svg6, which shlibdeps
  # already pulls in.) qt6-translations-l10n puts Qt's own dialogs and buttons into the user's
  # language (ui/window/Translations.cpp); without it they stay English, so a recommendation, not a need.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, hicolor-icon-theme, shared-mime-info, qt6-translations-l10n")
  # No maintainer scripts: dpkg triggers of shared-mime-info, desktop-file-utils and the icon theme
  # update their caches when files land in share/mime/packages, share/applications and share/icons.
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
endif()

include(CPack)
