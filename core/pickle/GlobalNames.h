#pragma once

#include <string>
#include <string_view>

namespace ts::pickle {

struct ResolvedName {
    std::string module;
    std::string name;
};

// The module and name torch.load looks up for a global written as module + name: Python's
// unpickler maps Python 2 names (Lib/_compat_pickle.py IMPORT_MAPPING and NAME_MAPPING, applied
// by default for protocols < 3; a file can declare any protocol, so they are applied always),
// and torch/serialization.py maps torch.tensor to torch._tensor (load_module_mapping).
ResolvedName resolveGlobalName(std::string_view module, std::string_view name);

} // namespace ts::pickle
