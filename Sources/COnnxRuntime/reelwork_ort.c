#include "reelwork_ort.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// Every used entry sits at the slot index the public header gives it (counted from the API 13 header,
// cross-checked with the API 8 one). A miscounted placeholder fails the build here, not at run time.
#define SLOT(name, index) \
  _Static_assert(offsetof(OrtApi, name) == (index) * sizeof(void *), "OrtApi slot " #name " is not at " #index)

SLOT(CreateStatus, 0);
SLOT(GetErrorCode, 1);
SLOT(GetErrorMessage, 2);
SLOT(CreateEnv, 3);
SLOT(CreateSession, 7);
SLOT(Run, 9);
SLOT(CreateSessionOptions, 10);
SLOT(SetSessionExecutionMode, 13);
SLOT(SetSessionGraphOptimizationLevel, 23);
SLOT(SetIntraOpNumThreads, 24);
SLOT(SetInterOpNumThreads, 25);
SLOT(SessionGetInputCount, 30);
SLOT(SessionGetOutputCount, 31);
SLOT(SessionGetInputTypeInfo, 33);
SLOT(SessionGetOutputTypeInfo, 34);
SLOT(SessionGetInputName, 36);
SLOT(SessionGetOutputName, 37);
SLOT(CreateTensorWithDataAsOrtValue, 49);
SLOT(GetTensorMutableData, 51);
SLOT(CastTypeInfoToTensorInfo, 55);
SLOT(GetTensorElementType, 60);
SLOT(GetDimensionsCount, 61);
SLOT(GetDimensions, 62);
SLOT(GetSymbolicDimensions, 63);
SLOT(GetTensorShapeElementCount, 64);
SLOT(GetTensorTypeAndShape, 65);
SLOT(CreateCpuMemoryInfo, 69);
SLOT(AllocatorFree, 76);
SLOT(GetAllocatorWithDefaultOptions, 78);
SLOT(ReleaseEnv, 92);
SLOT(ReleaseStatus, 93);
SLOT(ReleaseMemoryInfo, 94);
SLOT(ReleaseSession, 95);
SLOT(ReleaseValue, 96);
SLOT(ReleaseTypeInfo, 98);
SLOT(ReleaseTensorTypeAndShapeInfo, 99);
SLOT(ReleaseSessionOptions, 100);
SLOT(AddSessionConfigEntry, 130);
_Static_assert(sizeof(OrtApi) == REELWORK_ORT_API_SLOTS * sizeof(void *), "OrtApi has the wrong number of slots");
_Static_assert(sizeof(OrtApiBase) == 2 * sizeof(void *), "OrtApiBase has two entries");

typedef const OrtApiBase *(*OrtGetApiBaseFn)(void);

const OrtApiBase *reelwork_ort_load(const char *path, char *error, size_t error_len) {
  if (error && error_len > 0) error[0] = '\0';
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    if (error && error_len > 0) snprintf(error, error_len, "%s", why ? why : "dlopen failed");
    return NULL;
  }
  dlerror();
  OrtGetApiBaseFn get_api_base = (OrtGetApiBaseFn)dlsym(handle, "OrtGetApiBase");
  if (!get_api_base) {
    if (error && error_len > 0) snprintf(error, error_len, "the library has no OrtGetApiBase symbol");
    dlclose(handle);
    return NULL;
  }
  const OrtApiBase *base = get_api_base();
  if (!base || !base->GetApi || !base->GetVersionString) {
    if (error && error_len > 0) snprintf(error, error_len, "OrtGetApiBase returned an incomplete table");
    dlclose(handle);
    return NULL;
  }
  // Deliberately never dlclose'd on success: ONNX Runtime is not safe to unload.
  return base;
}

int reelwork_ort_check_slots(const OrtApi *api, int *missing_slot) {
  const void *const used[][2] = {
      {(const void *)api->CreateStatus, (const void *)0},
      {(const void *)api->GetErrorCode, (const void *)1},
      {(const void *)api->GetErrorMessage, (const void *)2},
      {(const void *)api->CreateEnv, (const void *)3},
      {(const void *)api->CreateSession, (const void *)7},
      {(const void *)api->Run, (const void *)9},
      {(const void *)api->CreateSessionOptions, (const void *)10},
      {(const void *)api->SetSessionExecutionMode, (const void *)13},
      {(const void *)api->SetSessionGraphOptimizationLevel, (const void *)23},
      {(const void *)api->SetIntraOpNumThreads, (const void *)24},
      {(const void *)api->SetInterOpNumThreads, (const void *)25},
      {(const void *)api->SessionGetInputCount, (const void *)30},
      {(const void *)api->SessionGetOutputCount, (const void *)31},
      {(const void *)api->SessionGetInputTypeInfo, (const void *)33},
      {(const void *)api->SessionGetOutputTypeInfo, (const void *)34},
      {(const void *)api->SessionGetInputName, (const void *)36},
      {(const void *)api->SessionGetOutputName, (const void *)37},
      {(const void *)api->CreateTensorWithDataAsOrtValue, (const void *)49},
      {(const void *)api->GetTensorMutableData, (const void *)51},
      {(const void *)api->CastTypeInfoToTensorInfo, (const void *)55},
      {(const void *)api->GetTensorElementType, (const void *)60},
      {(const void *)api->GetDimensionsCount, (const void *)61},
      {(const void *)api->GetDimensions, (const void *)62},
      {(const void *)api->GetSymbolicDimensions, (const void *)63},
      {(const void *)api->GetTensorShapeElementCount, (const void *)64},
      {(const void *)api->GetTensorTypeAndShape, (const void *)65},
      {(const void *)api->CreateCpuMemoryInfo, (const void *)69},
      {(const void *)api->AllocatorFree, (const void *)76},
      {(const void *)api->GetAllocatorWithDefaultOptions, (const void *)78},
      {(const void *)api->ReleaseEnv, (const void *)92},
      {(const void *)api->ReleaseStatus, (const void *)93},
      {(const void *)api->ReleaseMemoryInfo, (const void *)94},
      {(const void *)api->ReleaseSession, (const void *)95},
      {(const void *)api->ReleaseValue, (const void *)96},
      {(const void *)api->ReleaseTypeInfo, (const void *)98},
      {(const void *)api->ReleaseTensorTypeAndShapeInfo, (const void *)99},
      {(const void *)api->ReleaseSessionOptions, (const void *)100},
      {(const void *)api->AddSessionConfigEntry, (const void *)130},
  };
  for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++) {
    if (used[i][0] == NULL) {
      if (missing_slot) *missing_slot = (int)(uintptr_t)used[i][1];
      return 0;
    }
  }
  return 1;
}
