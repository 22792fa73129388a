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
    // A model on a server (core/remote): what the window and the CLI tell apart to say what to do.
    NetworkError,      // no connection, a dropped one or a server error, after the retries
    AccessDenied,      // HTTP 401 or 403: a token is missing, refused, or has no access
    NotFound,          // HTTP 404 or 410
    RangeNotSupported, // the server answers a Range request with the whole file
    TlsError,          // the TLS connection failed (an untrusted certificate, a handshake error)
    TimedOut,          // the server stopped sending, after the retries
};

QString errorCodeName(ErrorCode code);

} // namespace ts
