#define TPOSE_TENSOR_IMPLEMENTATION
#include "transpose_tensor.h"
