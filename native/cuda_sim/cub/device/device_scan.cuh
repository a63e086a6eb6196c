// CUB forwarder for the simulated build: host models of the device algorithms.
#pragma once
#include "cuda_sim/cub.hpp"
