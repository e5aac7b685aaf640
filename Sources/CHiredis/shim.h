#ifndef REELWORK_CHIREDIS_SHIM_H
#define REELWORK_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#endif
