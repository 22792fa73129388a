#include "base/ErrorCode.h"

namespace ts {

QString errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::HeaderTooSmall:
        return QStringLiteral("HeaderTooSmall");
    case ErrorCode::HeaderTooLarge:
        return QStringLiteral("HeaderTooLarge");
    case ErrorCode::InvalidHeaderLength:
        return QStringLiteral("InvalidHeaderLength");
    case ErrorCode::InvalidHeader:
        return QStringLiteral("InvalidHeader");
    case ErrorCode::InvalidHeaderDeserialization:
        return QStringLiteral("InvalidHeaderDeserialization");
    case ErrorCode::InvalidOffset:
        return QStringLiteral("InvalidOffset");
    case ErrorCode::ValidationOverflow:
        return QStringLiteral("ValidationOverflow");
    case ErrorCode::MisalignedSlice:
        return QStringLiteral("MisalignedSlice");
    case ErrorCode::TensorInvalidInfo:
        return QStringLiteral("TensorInvalidInfo");
    case ErrorCode::MetadataIncompleteBuffer:
        return QStringLiteral("MetadataIncompleteBuffer");
    case ErrorCode::IoError:
        return QStringLiteral("IoError");
    case ErrorCode::NotAFile:
        return QStringLiteral("NotAFile");
    case ErrorCode::InvalidShardIndex:
        return QStringLiteral("InvalidShardIndex");
    case ErrorCode::ShardMissing:
        return QStringLiteral("ShardMissing");
    case ErrorCode::ShardMismatch:
        return QStringLiteral("ShardMismatch");
    case ErrorCode::DuplicateTensor:
        return QStringLiteral("DuplicateTensor");
    case ErrorCode::LimitExceeded:
        return QStringLiteral("LimitExceeded");
    case ErrorCode::FileChanged:
        return QStringLiteral("FileChanged");
    case ErrorCode::InvalidArgument:
        return QStringLiteral("InvalidArgument");
    case ErrorCode::Cancelled:
        return QStringLiteral("Cancelled");
    case ErrorCode::FileBusy:
        return QStringLiteral("FileBusy");
    case ErrorCode::WriteRefused:
        return QStringLiteral("WriteRefused");
    case ErrorCode::SeveralModels:
        return QStringLiteral("SeveralModels");
    case ErrorCode::NetworkError:
        return QStringLiteral("NetworkError");
    case ErrorCode::AccessDenied:
        return QStringLiteral("AccessDenied");
    case ErrorCode::NotFound:
        return QStringLiteral("NotFound");
    case ErrorCode::RangeNotSupported:
        return QStringLiteral("RangeNotSupported");
    case ErrorCode::TlsError:
        return QStringLiteral("TlsError");
    case ErrorCode::TimedOut:
        return QStringLiteral("TimedOut");
    }
    return QStringLiteral("Unknown");
}

} // namespace ts
