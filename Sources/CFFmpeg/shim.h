#ifndef REELWORK_CFFMPEG_SHIM_H
#define REELWORK_CFFMPEG_SHIM_H
#include <errno.h>
#include <malloc.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>

// Macros Swift cannot import, as functions.
static inline int reelwork_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reelwork_averror_eof(void) { return AVERROR_EOF; }
static inline int reelwork_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t reelwork_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int reelwork_av_time_base(void) { return AV_TIME_BASE; }
static inline int reelwork_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int reelwork_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int reelwork_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int reelwork_averror_from_errno(int e) { return AVERROR(e); }
static inline int reelwork_error_max_string_size(void) { return AV_ERROR_MAX_STRING_SIZE; }
// glibc's malloc_trim (not in Swift's Glibc module): returns whole free pages of every arena to the system.
static inline int reelwork_malloc_trim(void) { return malloc_trim(0); }
#endif
