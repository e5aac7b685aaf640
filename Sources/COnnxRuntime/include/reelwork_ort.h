// Reelwork's own declaration of the part of the ONNX Runtime C API it uses.
//
// No package available to the project ships onnxruntime_c_api.h, so the types and the function table
// are declared here, written from the public header (include/onnxruntime/core/session/onnxruntime_c_api.h
// of microsoft/onnxruntime; the order was checked against the API 8 and API 13 versions of that header).
//
// The function table `OrtApi` is append-only across ONNX Runtime releases: a table declared for
// version N works with any library of version >= N. Every slot before the last one used is present,
// in order; the ones Reelwork does not call are `void *` placeholders named after the real entry.
// reelwork_ort.c checks each used entry's offset at compile time (slot index * pointer size).
//
// The library is not linked: reelwork_ort_load() opens it with dlopen() at run time.

#ifndef REELWORK_ORT_H
#define REELWORK_ORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The API version this declaration matches; passed to OrtApiBase.GetApi.
#define REELWORK_ORT_API_VERSION 13

/// Number of OrtApi slots declared here (indices 0 ... REELWORK_ORT_API_SLOTS - 1).
#define REELWORK_ORT_API_SLOTS 131

typedef enum ONNXTensorElementDataType {
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX64,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX128,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16
} ONNXTensorElementDataType;

typedef enum OrtLoggingLevel {
  ORT_LOGGING_LEVEL_VERBOSE,
  ORT_LOGGING_LEVEL_INFO,
  ORT_LOGGING_LEVEL_WARNING,
  ORT_LOGGING_LEVEL_ERROR,
  ORT_LOGGING_LEVEL_FATAL
} OrtLoggingLevel;

typedef enum OrtErrorCode {
  ORT_OK,
  ORT_FAIL,
  ORT_INVALID_ARGUMENT,
  ORT_NO_SUCHFILE,
  ORT_NO_MODEL,
  ORT_ENGINE_ERROR,
  ORT_RUNTIME_EXCEPTION,
  ORT_INVALID_PROTOBUF,
  ORT_MODEL_LOADED,
  ORT_NOT_IMPLEMENTED,
  ORT_INVALID_GRAPH,
  ORT_EP_FAIL
} OrtErrorCode;

typedef enum GraphOptimizationLevel {
  ORT_DISABLE_ALL = 0,
  ORT_ENABLE_BASIC = 1,
  ORT_ENABLE_EXTENDED = 2,
  ORT_ENABLE_ALL = 99
} GraphOptimizationLevel;

typedef enum ExecutionMode {
  ORT_SEQUENTIAL = 0,
  ORT_PARALLEL = 1
} ExecutionMode;

typedef enum OrtAllocatorType {
  OrtInvalidAllocator = -1,
  OrtDeviceAllocator = 0,
  OrtArenaAllocator = 1
} OrtAllocatorType;

typedef enum OrtMemType {
  OrtMemTypeCPUInput = -2,
  OrtMemTypeCPUOutput = -1,
  OrtMemTypeCPU = OrtMemTypeCPUOutput,
  OrtMemTypeDefault = 0
} OrtMemType;

// Opaque runtime classes (only pointers to them are handled).
typedef struct OrtEnv OrtEnv;
typedef struct OrtStatus OrtStatus;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtSession OrtSession;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtTypeInfo OrtTypeInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtAllocator OrtAllocator;  // a struct of function pointers in ORT; used only by pointer here

/// The function table. Slot N sits at offset N * sizeof(void *).
typedef struct OrtApi {
  /*   0 */ OrtStatus *(*CreateStatus)(OrtErrorCode code, const char *msg);
  /*   1 */ OrtErrorCode (*GetErrorCode)(const OrtStatus *status);
  /*   2 */ const char *(*GetErrorMessage)(const OrtStatus *status);
  /*   3 */ OrtStatus *(*CreateEnv)(OrtLoggingLevel log_severity_level, const char *logid, OrtEnv **out);
  /*   4 */ void *CreateEnvWithCustomLogger;
  /*   5 */ void *EnableTelemetryEvents;
  /*   6 */ void *DisableTelemetryEvents;
  /*   7 */ OrtStatus *(*CreateSession)(const OrtEnv *env, const char *model_path,
                                        const OrtSessionOptions *options, OrtSession **out);
  /*   8 */ void *CreateSessionFromArray;
  /*   9 */ OrtStatus *(*Run)(OrtSession *session, const OrtRunOptions *run_options,
                              const char *const *input_names, const OrtValue *const *inputs, size_t input_len,
                              const char *const *output_names, size_t output_names_len, OrtValue **outputs);
  /*  10 */ OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **options);
  /*  11 */ void *SetOptimizedModelFilePath;
  /*  12 */ void *CloneSessionOptions;
  /*  13 */ OrtStatus *(*SetSessionExecutionMode)(OrtSessionOptions *options, ExecutionMode execution_mode);
  /*  14 */ void *EnableProfiling;
  /*  15 */ void *DisableProfiling;
  /*  16 */ void *EnableMemPattern;
  /*  17 */ void *DisableMemPattern;
  /*  18 */ void *EnableCpuMemArena;
  /*  19 */ void *DisableCpuMemArena;
  /*  20 */ void *SetSessionLogId;
  /*  21 */ void *SetSessionLogVerbosityLevel;
  /*  22 */ void *SetSessionLogSeverityLevel;
  /*  23 */ OrtStatus *(*SetSessionGraphOptimizationLevel)(OrtSessionOptions *options,
                                                           GraphOptimizationLevel graph_optimization_level);
  /*  24 */ OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *options, int intra_op_num_threads);
  /*  25 */ OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *options, int inter_op_num_threads);
  /*  26 */ void *CreateCustomOpDomain;
  /*  27 */ void *CustomOpDomain_Add;
  /*  28 */ void *AddCustomOpDomain;
  /*  29 */ void *RegisterCustomOpsLibrary;
  /*  30 */ OrtStatus *(*SessionGetInputCount)(const OrtSession *session, size_t *out);
  /*  31 */ OrtStatus *(*SessionGetOutputCount)(const OrtSession *session, size_t *out);
  /*  32 */ void *SessionGetOverridableInitializerCount;
  /*  33 */ OrtStatus *(*SessionGetInputTypeInfo)(const OrtSession *session, size_t index, OrtTypeInfo **type_info);
  /*  34 */ OrtStatus *(*SessionGetOutputTypeInfo)(const OrtSession *session, size_t index, OrtTypeInfo **type_info);
  /*  35 */ void *SessionGetOverridableInitializerTypeInfo;
  /*  36 */ OrtStatus *(*SessionGetInputName)(const OrtSession *session, size_t index, OrtAllocator *allocator,
                                              char **value);
  /*  37 */ OrtStatus *(*SessionGetOutputName)(const OrtSession *session, size_t index, OrtAllocator *allocator,
                                               char **value);
  /*  38 */ void *SessionGetOverridableInitializerName;
  /*  39 */ void *CreateRunOptions;
  /*  40 */ void *RunOptionsSetRunLogVerbosityLevel;
  /*  41 */ void *RunOptionsSetRunLogSeverityLevel;
  /*  42 */ void *RunOptionsSetRunTag;
  /*  43 */ void *RunOptionsGetRunLogVerbosityLevel;
  /*  44 */ void *RunOptionsGetRunLogSeverityLevel;
  /*  45 */ void *RunOptionsGetRunTag;
  /*  46 */ void *RunOptionsSetTerminate;
  /*  47 */ void *RunOptionsUnsetTerminate;
  /*  48 */ void *CreateTensorAsOrtValue;
  /*  49 */ OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *info, void *p_data, size_t p_data_len,
                                                         const int64_t *shape, size_t shape_len,
                                                         ONNXTensorElementDataType type, OrtValue **out);
  /*  50 */ void *IsTensor;
  /*  51 */ OrtStatus *(*GetTensorMutableData)(OrtValue *value, void **out);
  /*  52 */ void *FillStringTensor;
  /*  53 */ void *GetStringTensorDataLength;
  /*  54 */ void *GetStringTensorContent;
  /*  55 */ OrtStatus *(*CastTypeInfoToTensorInfo)(const OrtTypeInfo *type_info,
                                                   const OrtTensorTypeAndShapeInfo **out);
  /*  56 */ void *GetOnnxTypeFromTypeInfo;
  /*  57 */ void *CreateTensorTypeAndShapeInfo;
  /*  58 */ void *SetTensorElementType;
  /*  59 */ void *SetDimensions;
  /*  60 */ OrtStatus *(*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *info, ONNXTensorElementDataType *out);
  /*  61 */ OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
  /*  62 */ OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dim_values,
                                        size_t dim_values_length);
  /*  63 */ OrtStatus *(*GetSymbolicDimensions)(const OrtTensorTypeAndShapeInfo *info, const char **dim_params,
                                                size_t dim_params_length);
  /*  64 */ OrtStatus *(*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
  /*  65 */ OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo **out);
  /*  66 */ void *GetTypeInfo;
  /*  67 */ void *GetValueType;
  /*  68 */ void *CreateMemoryInfo;
  /*  69 */ OrtStatus *(*CreateCpuMemoryInfo)(OrtAllocatorType type, OrtMemType mem_type, OrtMemoryInfo **out);
  /*  70 */ void *CompareMemoryInfo;
  /*  71 */ void *MemoryInfoGetName;
  /*  72 */ void *MemoryInfoGetId;
  /*  73 */ void *MemoryInfoGetMemType;
  /*  74 */ void *MemoryInfoGetType;
  /*  75 */ void *AllocatorAlloc;
  /*  76 */ OrtStatus *(*AllocatorFree)(OrtAllocator *ort_allocator, void *p);
  /*  77 */ void *AllocatorGetInfo;
  /*  78 */ OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out);
  /*  79 */ void *AddFreeDimensionOverride;
  /*  80 */ void *GetValue;
  /*  81 */ void *GetValueCount;
  /*  82 */ void *CreateValue;
  /*  83 */ void *CreateOpaqueValue;
  /*  84 */ void *GetOpaqueValue;
  /*  85 */ void *KernelInfoGetAttribute_float;
  /*  86 */ void *KernelInfoGetAttribute_int64;
  /*  87 */ void *KernelInfoGetAttribute_string;
  /*  88 */ void *KernelContext_GetInputCount;
  /*  89 */ void *KernelContext_GetOutputCount;
  /*  90 */ void *KernelContext_GetInput;
  /*  91 */ void *KernelContext_GetOutput;
  /*  92 */ void (*ReleaseEnv)(OrtEnv *input);
  /*  93 */ void (*ReleaseStatus)(OrtStatus *input);
  /*  94 */ void (*ReleaseMemoryInfo)(OrtMemoryInfo *input);
  /*  95 */ void (*ReleaseSession)(OrtSession *input);
  /*  96 */ void (*ReleaseValue)(OrtValue *input);
  /*  97 */ void *ReleaseRunOptions;
  /*  98 */ void (*ReleaseTypeInfo)(OrtTypeInfo *input);
  /*  99 */ void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *input);
  /* 100 */ void (*ReleaseSessionOptions)(OrtSessionOptions *input);
  /* 101 */ void *ReleaseCustomOpDomain;
  /* 102 */ void *GetDenotationFromTypeInfo;
  /* 103 */ void *CastTypeInfoToMapTypeInfo;
  /* 104 */ void *CastTypeInfoToSequenceTypeInfo;
  /* 105 */ void *GetMapKeyType;
  /* 106 */ void *GetMapValueType;
  /* 107 */ void *GetSequenceElementType;
  /* 108 */ void *ReleaseMapTypeInfo;
  /* 109 */ void *ReleaseSequenceTypeInfo;
  /* 110 */ void *SessionEndProfiling;
  /* 111 */ void *SessionGetModelMetadata;
  /* 112 */ void *ModelMetadataGetProducerName;
  /* 113 */ void *ModelMetadataGetGraphName;
  /* 114 */ void *ModelMetadataGetDomain;
  /* 115 */ void *ModelMetadataGetDescription;
  /* 116 */ void *ModelMetadataLookupCustomMetadataMap;
  /* 117 */ void *ModelMetadataGetVersion;
  /* 118 */ void *ReleaseModelMetadata;
  /* 119 */ void *CreateEnvWithGlobalThreadPools;
  /* 120 */ void *DisablePerSessionThreads;
  /* 121 */ void *CreateThreadingOptions;
  /* 122 */ void *ReleaseThreadingOptions;
  /* 123 */ void *ModelMetadataGetCustomMetadataMapKeys;
  /* 124 */ void *AddFreeDimensionOverrideByName;
  /* 125 */ void *GetAvailableProviders;
  /* 126 */ void *ReleaseAvailableProviders;
  /* 127 */ void *GetStringTensorElementLength;
  /* 128 */ void *GetStringTensorElement;
  /* 129 */ void *FillStringTensorElement;
  /* 130 */ OrtStatus *(*AddSessionConfigEntry)(OrtSessionOptions *options, const char *config_key,
                                                const char *config_value);
  // Later entries (CreateAllocator, ...) are not declared: nothing after slot 130 is used.
} OrtApi;

typedef struct OrtApiBase {
  const OrtApi *(*GetApi)(uint32_t version);
  const char *(*GetVersionString)(void);
} OrtApiBase;

/// Opens the ONNX Runtime shared library at `path` (dlopen, RTLD_NOW | RTLD_LOCAL) and returns its
/// OrtApiBase (from the exported `OrtGetApiBase`). On failure returns NULL and writes a message
/// (dlerror's text, or the missing symbol) into `error` (always NUL-terminated when error_len > 0).
/// The library stays loaded for the life of the process (ONNX Runtime must not be unloaded while its
/// threads may run).
const OrtApiBase *reelwork_ort_load(const char *path, char *error, size_t error_len);

/// Returns 1 if every OrtApi slot Reelwork calls is non-NULL in `api`, else 0 and the index of the
/// first NULL slot in `missing_slot`.
int reelwork_ort_check_slots(const OrtApi *api, int *missing_slot);

#ifdef __cplusplus
}
#endif

#endif  // REELWORK_ORT_H
