#ifndef REELWORK_CLIBPQ_SHIM_H
#define REELWORK_CLIBPQ_SHIM_H
#include <postgresql/libpq-fe.h>
#endif
