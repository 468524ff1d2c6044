# Dependencies: Debian packages only, found with pkg-config. A missing one stops
# configure with the package to install.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config")
endif()

function(smfw_require_pkg var module debian_pkg)
  pkg_check_modules(${var} QUIET IMPORTED_TARGET ${module})
  if(NOT ${var}_FOUND)
    message(FATAL_ERROR "smfw needs ${module} (pkg-config). Install it with: apt-get install ${debian_pkg}")
  endif()
endfunction()

smfw_require_pkg(CURL libcurl libcurl4-openssl-dev)
smfw_require_pkg(OPENSSL libcrypto libssl-dev)
smfw_require_pkg(JANSSON jansson libjansson-dev)
smfw_require_pkg(ARCHIVE libarchive libarchive-dev)
smfw_require_pkg(INIH inih libinih-dev)
smfw_require_pkg(LIBEVENT libevent libevent-dev)
# The tokenizer: PCRE2 for the pre-tokenizer regexes, utf8proc for NFC/NFKC.
smfw_require_pkg(PCRE2 libpcre2-8 libpcre2-dev)
smfw_require_pkg(UTF8PROC libutf8proc libutf8proc-dev)
if(SMFW_BUILD_TESTS)
  smfw_require_pkg(CHECK check check)
endif()

# libltdl ships no pkg-config file on Debian.
find_path(LTDL_INCLUDE_DIR ltdl.h)
find_library(LTDL_LIBRARY ltdl)
if(NOT LTDL_INCLUDE_DIR OR NOT LTDL_LIBRARY)
  message(FATAL_ERROR "smfw needs libltdl. Install it with: apt-get install libltdl-dev")
endif()
add_library(smfw_ltdl INTERFACE)
target_include_directories(smfw_ltdl INTERFACE ${LTDL_INCLUDE_DIR})
target_link_libraries(smfw_ltdl INTERFACE ${LTDL_LIBRARY})

find_package(Threads REQUIRED)
