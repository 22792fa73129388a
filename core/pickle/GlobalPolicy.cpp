#include "pickle/GlobalPolicy.h"

#include "pickle/GlobalNames.h"

#include <array>
#include <vector>

namespace ts::pickle {
namespace {

struct Allowed {
    const char* path;
    AllowedKind kind;
};

// torch/_weights_only_unpickler.py, _get_allowed_globals() and _tensor_rebuild_functions()
// (pytorch commit 00f730b). Dtypes, storage classes and tensor classes are matched by rule below.
constexpr std::array<Allowed, 27> kAllowed{{
    {"collections.OrderedDict", AllowedKind::OrderedDict},
    {"collections.Counter", AllowedKind::OrderedDict},
    {"torch.nn.parameter.Parameter", AllowedKind::ParameterClass},
    {"torch.serialization._get_layout", AllowedKind::Layout},
    {"torch.Size", AllowedKind::TorchSize},
    {"torch.Tensor", AllowedKind::TensorClass},
    {"torch.device", AllowedKind::Device},
    {"_codecs.encode", AllowedKind::CodecsEncode},
    {"builtins.bytearray", AllowedKind::ByteArray},
    {"builtins.set", AllowedKind::Set},
    {"builtins.complex", AllowedKind::Complex},
    {"torch.storage.TypedStorage", AllowedKind::TypedStorage},
    {"torch.storage.UntypedStorage", AllowedKind::UntypedStorage},
    {"torch.UntypedStorage", AllowedKind::UntypedStorage},
    {"torch._utils._rebuild_tensor", AllowedKind::RebuildTensor},
    {"torch._utils._rebuild_tensor_v2", AllowedKind::RebuildTensorV2},
    {"torch._utils._rebuild_tensor_v3", AllowedKind::RebuildTensorV3},
    {"torch._utils._rebuild_parameter", AllowedKind::RebuildParameter},
    {"torch._utils._rebuild_parameter_with_state", AllowedKind::RebuildParameter},
    {"torch._utils._rebuild_device_tensor_from_cpu_tensor", AllowedKind::RebuildFromCpuTensor},
    {"torch._tensor._rebuild_from_type_v2", AllowedKind::RebuildFromTypeV2},
    {"torch._utils._rebuild_qtensor", AllowedKind::RebuildUnsupported},
    {"torch._utils._rebuild_sparse_tensor", AllowedKind::RebuildUnsupported},
    {"torch._utils._rebuild_sparse_csr_tensor", AllowedKind::RebuildUnsupported},
    {"torch._utils._rebuild_meta_tensor_no_storage", AllowedKind::RebuildUnsupported},
    {"torch._utils._rebuild_wrapper_subclass", AllowedKind::RebuildUnsupported},
    {"torch._utils._rebuild_device_tensor_from_numpy", AllowedKind::RebuildUnsupported},
}};

constexpr std::array<const char*, 5> kQSchemes{{"per_tensor_affine", "per_tensor_symmetric",
                                                "per_channel_affine", "per_channel_symmetric",
                                                "per_channel_affine_float_qparams"}};

// A dangerous module: the whole module and everything under it.
struct DangerousModule {
    const char* module;
    const char* why;
};

constexpr const char* kProcess = "starts processes or runs shell commands";
constexpr const char* kCode = "runs Python code it is given";
constexpr const char* kImport = "imports modules or reaches any attribute of any object";
constexpr const char* kLoad = "loads another pickle or checkpoint, which can run code in turn";
constexpr const char* kFiles = "reads, writes or deletes files";
constexpr const char* kNetwork = "opens network connections or a web browser";
constexpr const char* kNative = "calls native code";
constexpr const char* kInterpreter = "controls the interpreter (exit, signals, threads, hooks)";
constexpr const char* kScanner = "tampers with a security scanner";

// picklescan, modelscan and fickling list these (fickling lists them all); marked (+) those no
// published list has: multiprocessing.util.spawnv_passfds starts a process and is in none of
// picklescan's or modelscan's lists, code.InteractiveInterpreter.runsource runs source text.
constexpr std::array<DangerousModule, 111> kDangerousModules{{
    {"os", kProcess},
    {"posix", kProcess},
    {"nt", kProcess},
    {"subprocess", kProcess},
    {"pty", kProcess},
    {"commands", kProcess},
    {"popen2", kProcess},
    {"multiprocessing", kProcess},
    {"_posixsubprocess", kProcess},
    {"_winapi", kProcess},
    {"pexpect", kProcess},
    {"pipes", kProcess},
    {"_osx_support", kProcess},
    {"_aix_support", kProcess},
    {"_pyrepl", kProcess},
    {"uuid", kProcess},
    {"platform", kProcess},
    {"concurrent", kProcess},
    {"code", kCode},
    {"codeop", kCode},
    {"runpy", kCode},
    {"marshal", kCode},
    {"types", kCode},
    {"doctest", kCode},
    {"cProfile", kCode},
    {"profile", kCode},
    {"pdb", kCode},
    {"bdb", kCode},
    {"timeit", kCode},
    {"trace", kCode},
    {"idlelib", kCode},
    {"lib2to3", kCode},
    {"_interpreters", kCode},
    {"_xxsubinterpreters", kCode},
    {"pydoc", kCode},
    {"site", kCode},
    {"test", kCode},
    {"unittest", kCode},
    {"ensurepip", kCode},
    {"pip", kCode},
    {"venv", kCode},
    {"setuptools", kCode},
    {"distutils", kCode},
    {"compileall", kCode},
    {"py_compile", kCode},
    {"numpy.f2py", kCode},
    {"numpy.distutils", kCode},
    {"numpy.testing._private.utils", kCode},
    {"torch.jit", kCode},
    {"torch._dynamo", kCode},
    {"torch._inductor", kCode},
    {"torch.compile", kCode},
    {"torch.fx", kCode},
    {"torch.utils.cpp_extension", kCode},
    {"torch.utils.bottleneck", kCode},
    {"torch.utils.collect_env", kProcess},
    {"torch.utils._config_module", kCode},
    {"torch.utils.data.datapipes.utils.decoder", kLoad},
    {"torch.distributed.elastic.rendezvous.api", kNetwork},
    {"importlib", kImport},
    {"_frozen_importlib", kImport},
    {"_frozen_importlib_external", kImport},
    {"_imp", kImport},
    {"imp", kImport},
    {"pkgutil", kImport},
    {"zipimport", kImport},
    {"inspect", kImport},
    {"sys", kInterpreter},
    {"gc", kInterpreter},
    {"atexit", kInterpreter},
    {"signal", kInterpreter},
    {"_signal", kInterpreter},
    {"threading", kInterpreter},
    {"_thread", kInterpreter},
    {"ctypes", kNative},
    {"_ctypes", kNative},
    {"cffi", kNative},
    {"pickle", kLoad},
    {"_pickle", kLoad},
    {"cPickle", kLoad},
    {"dill", kLoad},
    {"cloudpickle", kLoad},
    {"joblib", kLoad},
    {"shelve", kLoad},
    {"torch.hub", kLoad},
    {"shutil", kFiles},
    {"tempfile", kFiles},
    {"filecmp", kFiles},
    {"fileinput", kFiles},
    {"glob", kFiles},
    {"linecache", kFiles},
    {"difflib", kFiles},
    {"sqlite3", kFiles},
    {"_sqlite3", kFiles},
    {"socket", kNetwork},
    {"_socket", kNetwork},
    {"ssl", kNetwork},
    {"http", kNetwork},
    {"httplib", kNetwork},
    {"urllib", kNetwork},
    {"urllib2", kNetwork},
    {"requests", kNetwork},
    {"aiohttp", kNetwork},
    {"asyncio", kNetwork},
    {"webbrowser", kNetwork},
    {"smtplib", kNetwork},
    {"socketserver", kNetwork},
    {"xmlrpc", kNetwork},
    {"fickling", kScanner},
    {"picklescan", kScanner},
    {"modelscan", kScanner},
}};

// Dangerous names in modules that are otherwise fine.
struct DangerousName {
    const char* path;
    const char* why;
};

constexpr std::array<DangerousName, 38> kDangerousNames{{
    {"builtins.eval", kCode},
    {"builtins.exec", kCode},
    {"builtins.execfile", kCode},
    {"builtins.compile", kCode},
    {"builtins.apply", kCode},
    {"builtins.breakpoint", kCode},
    {"builtins.input", kInterpreter},
    {"builtins.exit", kInterpreter},
    {"builtins.quit", kInterpreter},
    {"builtins.open", kFiles},
    {"builtins.file", kFiles},
    {"builtins.__import__", kImport},
    {"builtins.getattr", kImport},
    {"builtins.setattr", kImport},
    {"builtins.delattr", kImport},
    {"builtins.globals", kImport},
    {"builtins.locals", kImport},
    {"builtins.vars", kImport},
    {"builtins.help", kCode},
    {"operator.attrgetter", kImport},
    {"operator.itemgetter", kImport},
    {"operator.methodcaller", kImport},
    {"_operator.attrgetter", kImport},
    {"_operator.itemgetter", kImport},
    {"_operator.methodcaller", kImport},
    {"functools.partial", kImport},
    {"functools.partialmethod", kImport},
    {"functools.reduce", kImport},
    {"_functools.partial", kImport},
    {"_functools.reduce", kImport},
    {"io.open", kFiles},
    {"io.FileIO", kFiles},
    {"_io.open", kFiles},
    {"_io.FileIO", kFiles},
    {"logging.FileHandler", kFiles},
    {"torch.load", kLoad},
    {"torch.serialization.load", kLoad},
    {"torch.storage._load_from_bytes", kLoad},
}};

// Introspection attributes: a dotted name through one of these reaches anything
// (x.__class__.__base__.__subclasses__(), f.__globals__['os']).
constexpr std::array<const char*, 22> kDangerousAttributes{{
    "__globals__", "__builtins__", "__import__",    "__subclasses__", "__getattribute__", "__getattr__",
    "__class__",   "__base__",     "__bases__",     "__mro__",        "__dict__",         "__code__",
    "__closure__", "__reduce__",   "__reduce_ex__", "__setattr__",    "__delattr__",      "__loader__",
    "__spec__",    "__self__",     "__func__",      "__wrapped__",
}};

// Unbound methods that write, delete or run, reached through a dotted name in any module
// (pathlib.Path.write_text(p, ...), SomeClass.system): no list of modules catches these.
constexpr std::array<const char*, 18> kDangerousMethods{{
    "write_text",
    "write_bytes",
    "unlink",
    "rmdir",
    "rmtree",
    "touch",
    "rename",
    "replace",
    "chmod",
    "symlink_to",
    "hardlink_to",
    "system",
    "popen",
    "spawn",
    "runcode",
    "runsource",
    "run_code",
    "execWrapper",
}};

bool startsWithModule(std::string_view path, std::string_view module)
{
    return path.size() >= module.size() && path.substr(0, module.size()) == module &&
           (path.size() == module.size() || path[module.size()] == '.');
}

std::vector<std::string_view> components(std::string_view path)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        const std::size_t end = dot == std::string_view::npos ? path.size() : dot;
        parts.push_back(path.substr(start, end - start));
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    return parts;
}

bool dangerous(GlobalVerdict& v, std::string_view module, std::string_view name)
{
    const std::string& path = v.resolved;
    for (const DangerousName& d : kDangerousNames) {
        if (path == d.path || startsWithModule(path, d.path)) {
            v.why = QString::fromLatin1(d.why);
            return true;
        }
    }
    for (const DangerousModule& d : kDangerousModules) {
        if (startsWithModule(path, d.module)) {
            v.why = QString::fromLatin1(d.why);
            return true;
        }
    }
    // Past the module, every part of a dotted name is an attribute lookup (protocol 4 resolves
    // them one by one): a part that names a dangerous module is a chain into it.
    const std::vector<std::string_view> parts = components(name);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        for (const DangerousModule& d : kDangerousModules) {
            if (part == d.module) {
                v.why = QStringLiteral("reaches the module %1 through an attribute chain, which %2")
                            .arg(QString::fromLatin1(d.module), QString::fromLatin1(d.why));
                return true;
            }
        }
        for (const char* attr : kDangerousAttributes) {
            if (part == attr) {
                v.why = QStringLiteral("uses the introspection attribute %1, which reaches any object")
                            .arg(QString::fromLatin1(attr));
                return true;
            }
        }
        if (i + 1 == parts.size() && parts.size() > 1) {
            for (const char* method : kDangerousMethods) {
                if (part == method) {
                    v.why = QStringLiteral("calls the method %1, which writes files or runs commands")
                                .arg(QString::fromLatin1(method));
                    return true;
                }
            }
        }
    }
    (void)module;
    return false;
}

bool allowed(GlobalVerdict& v)
{
    const std::string& path = v.resolved;
    for (const Allowed& a : kAllowed) {
        if (path == a.path) {
            v.kind = a.kind;
            return true;
        }
    }
    if (!startsWithModule(path, "torch"))
        return false;
    const std::string_view rest = std::string_view(path).substr(6);
    if (rest.find('.') != std::string_view::npos) {
        // torch.cuda.FloatTensor and the like are tensor classes too (torch._tensor_classes).
        if (startsWithModule(path, "torch.cuda") && rest.ends_with("Tensor")) {
            v.kind = AllowedKind::TensorClass;
            return true;
        }
        return false;
    }
    // torch.<dtype>: str(torch.float32) is "torch.float32"; aliases such as torch.float are not
    // on the list (str() never gives them).
    if (const auto d = dtypeOfName(rest); d && torchDtypeName(*d).toStdString() == rest) {
        v.kind = AllowedKind::Dtype;
        v.dtype = *d;
        return true;
    }
    if (const auto d = dtypeOfStorageClass(rest)) {
        v.kind = AllowedKind::StorageType;
        v.dtype = *d;
        return true;
    }
    if (rest.ends_with("Tensor") &&
        dtypeOfStorageClass(std::string(rest.substr(0, rest.size() - 6)) + "Storage")) {
        v.kind = AllowedKind::TensorClass;
        return true;
    }
    for (const char* q : kQSchemes) {
        if (rest == q) {
            v.kind = AllowedKind::QScheme;
            return true;
        }
    }
    return false;
}

} // namespace

GlobalVerdict classifyGlobal(std::string_view module, std::string_view name)
{
    GlobalVerdict v;
    const ResolvedName r = resolveGlobalName(module, name);
    v.resolved = r.module + "." + r.name;
    if (dangerous(v, r.module, r.name)) {
        v.cls = GlobalClass::Dangerous;
        return v;
    }
    // The raw spelling too: "cPickle loads" maps to pickle, but a reader that does not map sees cPickle.
    GlobalVerdict raw;
    raw.resolved = std::string(module) + "." + std::string(name);
    if (dangerous(raw, module, name)) {
        v.cls = GlobalClass::Dangerous;
        v.why = raw.why;
        return v;
    }
    v.cls = allowed(v) ? GlobalClass::Allowed : GlobalClass::Unknown;
    return v;
}

QString globalClassName(GlobalClass cls)
{
    switch (cls) {
    case GlobalClass::Allowed:
        return QStringLiteral("allowed");
    case GlobalClass::Unknown:
        return QStringLiteral("unknown");
    case GlobalClass::Dangerous:
        return QStringLiteral("dangerous");
    }
    return QStringLiteral("unknown");
}

} // namespace ts::pickle
