#pragma once

#include "pickle/TorchDtype.h"

#include <QString>

#include <string>
#include <string_view>

namespace ts::pickle {

// What Tensorscope makes of a global a pickle names. Nothing is ever imported or called: an
// allowed global is interpreted by the reader itself, every other one becomes an opaque value.
enum class GlobalClass : std::uint8_t {
    Allowed,   // on torch.load(weights_only=True)'s allowlist: interpreted
    Unknown,   // neither allowed nor known to be dangerous: torch.load would import and call it
    Dangerous, // runs code, commands or imports, touches files or the network, loads pickles
};

// How an allowed global is interpreted.
enum class AllowedKind : std::uint8_t {
    None,
    OrderedDict, // collections.OrderedDict, collections.Counter
    TorchSize,
    Device,
    CodecsEncode, // _codecs.encode(str, "latin1"): bytes in protocol 2
    ByteArray,
    Set,
    Complex,
    Layout,
    TensorClass,    // torch.Tensor, torch.FloatTensor, ...
    StorageType,    // torch.FloatStorage ... (dtype set)
    UntypedStorage, // torch.UntypedStorage: bytes
    TypedStorage,
    Dtype, // torch.float32 ... (dtype set)
    QScheme,
    RebuildTensor,        // torch._utils._rebuild_tensor(storage, offset, size, stride)
    RebuildTensorV2,      // (storage, offset, size, stride, requires_grad, hooks[, metadata])
    RebuildTensorV3,      // (storage, offset, size, stride, requires_grad, hooks, dtype[, metadata])
    RebuildParameter,     // (data, requires_grad, hooks[, state])
    RebuildFromTypeV2,    // torch._tensor._rebuild_from_type_v2(func, type, args, state)
    RebuildFromCpuTensor, // (data, dtype, device, requires_grad)
    ParameterClass,       // torch.nn.parameter.Parameter(data, requires_grad)
    RebuildUnsupported,   // quantized, sparse, meta, wrapper subclass, numpy: no plain bytes
};

struct GlobalVerdict {
    GlobalClass cls = GlobalClass::Unknown;
    AllowedKind kind = AllowedKind::None;
    TorchDtype dtype = TorchDtype::Float32; // for StorageType and Dtype
    std::string resolved; // the dotted path torch.load would look up, after pickle's Python 2
                          // name mapping and torch's own ("__builtin__.exec" -> "builtins.exec")
    QString why;          // for Dangerous: what it can do, one clause ("runs shell commands")
};

// Classifies module + name as torch.load would resolve them. The allowlist is the one of
// torch/_weights_only_unpickler.py (_get_allowed_globals and _tensor_rebuild_functions, pytorch
// commit 00f730b). The dangerous list is the union of the published lists of picklescan
// (src/picklescan/scanner.py _unsafe_globals, commit f15d54d), modelscan (modelscan/settings.py
// unsafe_globals, commit 8b8ed4b) and fickling (fickling/fickle.py UNSAFE_IMPORTS and
// fickling/analysis.py UnsafeImportsML, commit 854c99a), plus modules none of them lists that
// start processes or run code (see GlobalPolicy.cpp), plus two rules no list can hold: an
// attribute chain through a dangerous module (torch.serialization.os.system) and introspection
// attributes (__globals__, __subclasses__, ...).
GlobalVerdict classifyGlobal(std::string_view module, std::string_view name);

QString globalClassName(GlobalClass cls); // "allowed", "unknown", "dangerous"

} // namespace ts::pickle
