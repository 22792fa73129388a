#pragma once

#include <QString>

namespace ts {

// Stable error codes. The first ten are the reference implementation's error variants
// (huggingface/safetensors `SafeTensorError`) so that scripts can compare verdicts with it.
enum class ErrorCode {
    HeaderTooSmall,
    HeaderTooLarge,
    InvalidHeaderLength,
    InvalidHeader,
    InvalidHeaderDeserialization,
    InvalidOffset,
    ValidationOverflow,
    MisalignedSlice,
    TensorInvalidInfo,
    MetadataIncompleteBuffer,
    // Beyond the reference: problems of the file system, shard sets and our own limits.
    IoError,
    NotAFile,
    InvalidShardIndex,
    ShardMissing,
    ShardMismatch,
    DuplicateTensor,
    LimitExceeded,
    FileChanged,
    InvalidArgument,
    Cancelled,
    FileBusy,      // another process is saving the file
    WriteRefused,  // a save that would damage something else (a cache blob, a read-only or hard-linked file)
    SeveralModels, // a folder holding more than one model: open one of them (FolderModels lists them)
};

QString errorCodeName(ErrorCode code);

} // namespace ts
