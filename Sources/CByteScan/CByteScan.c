// Everything is inline in include/CByteScan.h; a C target needs one source file.
#include "CByteScan.h"
