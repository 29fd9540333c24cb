#define TPOSE_IMPLEMENTATION
#include "transpose.h"
