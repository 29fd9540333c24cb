#define TPOSE_INPLACE_IMPLEMENTATION
#include "transpose_inplace.h"
