#ifndef REELWORK_CCAIRO_SHIM_H
#define REELWORK_CCAIRO_SHIM_H
// cairo draws the result pictures (PNG) and the reports (PDF) through one API. Only the Pictures
// module imports this; its Canvas owns every cairo pointer.
#include <cairo.h>
#include <cairo-pdf.h>
#endif
