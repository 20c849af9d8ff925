# meridian_engine: the public Database/Session API (include/meridian/database.h) implemented in
# engine/database/ over main/ (and through it every engine layer), catalog, storage and the
# parser. Included by engine/CMakeLists.txt.
meridian_add_library(meridian_engine
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/database/database.cc
    ${CMAKE_CURRENT_SOURCE_DIR}/database/data_dir_lock.cc
  LINKS meridian_main meridian_catalog meridian_storage meridian_parser meridian_common
        Threads::Threads
  PUBLIC_INCLUDES ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_include_directories(meridian_engine PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
