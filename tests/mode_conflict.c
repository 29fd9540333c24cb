/* mode_conflict.c - must NOT compile: the second include asks for the other linkage mode. */
#include "transpose.h"
#define TPOSE_STATIC
#include "transpose.h"
