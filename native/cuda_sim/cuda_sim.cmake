# The CUDA backend built for the project's CUDA simulator (-DGPUDF_CUDA_SIM=ON): no nvcc; each
# .cu goes through scripts/cuda-sim-rewrite.mjs (launch syntax) into a .cpp that g++ compiles
# with native/cuda_sim/ ahead on the include path (cuda_runtime.h, CUB's device algorithms) and
# the toolkit's own Thrust on its CPP device system. Included by the top-level CMakeLists.txt.
#
# GPUDF_CUDA_SIM_SANITIZE: e.g. "address,undefined" or "thread"; instruments every target of this
# build.

set(GPUDF_CUDA_SIM_SANITIZE "" CACHE STRING "-fsanitize= list for the simulated build")
if(GPUDF_CUDA_SIM_SANITIZE)
  add_compile_options(-fsanitize=${GPUDF_CUDA_SIM_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${GPUDF_CUDA_SIM_SANITIZE})
endif()

find_program(GPUDF_NODE node REQUIRED)
file(GLOB GPUDF_CCCL_CANDIDATES /usr/local/cuda*/include/cccl /usr/local/cuda*/targets/*/include/cccl)
find_path(GPUDF_CCCL_DIR thrust/version.h
  HINTS "$ENV{CUDA_HOME}/include/cccl" "$ENV{CUDA_PATH}/include/cccl" ${GPUDF_CCCL_CANDIDATES}
  DOC "the CUDA toolkit's CCCL headers (Thrust)")
if(NOT GPUDF_CCCL_DIR)
  message(FATAL_ERROR "GPUDF_CUDA_SIM: Thrust (the CUDA toolkit's CCCL headers) not found; set GPUDF_CCCL_DIR")
endif()
message(STATUS "gpudf: CUDA backend on the CUDA simulator (Thrust from ${GPUDF_CCCL_DIR})")

set(GPUDF_CUDA_SIM_DIR ${CMAKE_CURRENT_SOURCE_DIR}/native/cuda_sim)
set(GPUDF_CUDA_SIM_REWRITE ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cuda-sim-rewrite.mjs)

# Rewritten copies of the given .cu files, in the build directory; their names go to `out_var`.
function(gpudf_cuda_sim_rewrite out_var)
  set(generated)
  foreach(cu ${ARGN})
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${cu})
    set(out ${CMAKE_BINARY_DIR}/cuda_sim_gen/${rel}.cpp)
    add_custom_command(OUTPUT ${out}
      COMMAND ${GPUDF_NODE} ${GPUDF_CUDA_SIM_REWRITE} ${cu} ${out} ${rel}
      DEPENDS ${cu} ${GPUDF_CUDA_SIM_REWRITE}
      COMMENT "cuda-sim rewrite ${rel}" VERBATIM)
    get_filename_component(dir ${cu} DIRECTORY)
    # Quoted includes relative to the .cu still resolve; no sign-compare noise from unsigned
    # threadIdx (nvcc does not apply the host -Wall to .cu files either).
    set(options -Wno-sign-compare)
    if(GPUDF_CUDA_SIM_SANITIZE MATCHES "undefined")
      # Thrust's sequential backend binds references through a null execution-policy pointer
      # (thrust/detail/reference.h); UBSan's null check would stop every Thrust sort there.
      list(APPEND options -fno-sanitize=null)
    endif()
    set_source_files_properties(${out} PROPERTIES INCLUDE_DIRECTORIES ${dir} COMPILE_OPTIONS "${options}")
    list(APPEND generated ${out})
  endforeach()
  set(${out_var} ${generated} PARENT_SCOPE)
endfunction()

file(GLOB GPUDF_CUDA_SOURCES CONFIGURE_DEPENDS native/core/cuda/*.cu native/ops/*/*.cu native/io/*.cu)
gpudf_cuda_sim_rewrite(GPUDF_CUDA_SIM_GENERATED ${GPUDF_CUDA_SOURCES})
file(GLOB GPUDF_CUDA_SIM_RUNTIME CONFIGURE_DEPENDS ${GPUDF_CUDA_SIM_DIR}/*.cpp)
if(GPUDF_CUDA_SIM_SANITIZE MATCHES "thread")
  # Under ThreadSanitizer the scheduler gives every simulated CUDA thread a TSan context of its
  # own and switches between them itself: its own bookkeeping, and the fibers' stack switches,
  # are not instrumented (tsan.hpp).
  set_source_files_properties(${GPUDF_CUDA_SIM_DIR}/scheduler.cpp ${GPUDF_CUDA_SIM_DIR}/warp.cpp
    ${GPUDF_CUDA_SIM_DIR}/fiber.cpp
    PROPERTIES COMPILE_OPTIONS "-fno-sanitize=thread" COMPILE_DEFINITIONS CUDA_SIM_TSAN=1)
endif()
list(APPEND GPUDF_CORE_SOURCES ${GPUDF_CUDA_SIM_GENERATED} ${GPUDF_CUDA_SIM_RUNTIME})

# The simulator's own tests, linked into gpudf_native_tests (suite cuda_sim).
file(GLOB GPUDF_CUDA_SIM_TEST_CU CONFIGURE_DEPENDS ${GPUDF_CUDA_SIM_DIR}/tests/*.cu)
gpudf_cuda_sim_rewrite(GPUDF_CUDA_SIM_TEST_SOURCES ${GPUDF_CUDA_SIM_TEST_CU})

# Called once gpudf_core exists.
function(gpudf_cuda_sim_target target)
  target_include_directories(${target} BEFORE PUBLIC ${GPUDF_CUDA_SIM_DIR})
  target_include_directories(${target} SYSTEM PUBLIC ${GPUDF_CCCL_DIR})
  target_compile_definitions(${target} PUBLIC GPUDF_WITH_CUDA=1 GPUDF_CUDA_SIM=1
    THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP)
endfunction()
