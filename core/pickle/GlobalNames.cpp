#include "pickle/GlobalNames.h"

#include <array>

namespace ts::pickle {
namespace {

struct ModuleMap {
    const char* from;
    const char* to;
};

// Lib/_compat_pickle.py IMPORT_MAPPING (CPython 3.11), the entries a checkpoint or an attacker
// can use; the GUI toolkit and dbm entries are left out.
constexpr std::array<ModuleMap, 30> kModules{{
    {"__builtin__", "builtins"},
    {"exceptions", "builtins"},
    {"copy_reg", "copyreg"},
    {"Queue", "queue"},
    {"SocketServer", "socketserver"},
    {"ConfigParser", "configparser"},
    {"repr", "reprlib"},
    {"cPickle", "pickle"},
    {"_elementtree", "xml.etree.ElementTree"},
    {"xmlrpclib", "xmlrpc.client"},
    {"htmlentitydefs", "html.entities"},
    {"HTMLParser", "html.parser"},
    {"Cookie", "http.cookies"},
    {"cookielib", "http.cookiejar"},
    {"BaseHTTPServer", "http.server"},
    {"SimpleHTTPServer", "http.server"},
    {"CGIHTTPServer", "http.server"},
    {"httplib", "http.client"},
    {"test.test_support", "test.support"},
    {"commands", "subprocess"},
    {"urlparse", "urllib.parse"},
    {"robotparser", "urllib.robotparser"},
    {"urllib2", "urllib.request"},
    {"anydbm", "dbm"},
    {"_abcoll", "collections.abc"},
    {"UserDict", "collections"},
    {"UserList", "collections"},
    {"UserString", "collections"},
    {"StringIO", "io"},
    {"cStringIO", "io"},
}};

struct NameMap {
    const char* fromModule;
    const char* fromName;
    const char* toModule;
    const char* toName;
};

// Lib/_compat_pickle.py NAME_MAPPING (CPython 3.11), the entries that change the module.
constexpr std::array<NameMap, 24> kNames{{
    {"__builtin__", "xrange", "builtins", "range"},
    {"__builtin__", "reduce", "functools", "reduce"},
    {"__builtin__", "intern", "sys", "intern"},
    {"__builtin__", "unichr", "builtins", "chr"},
    {"__builtin__", "unicode", "builtins", "str"},
    {"__builtin__", "long", "builtins", "int"},
    {"itertools", "izip", "builtins", "zip"},
    {"itertools", "imap", "builtins", "map"},
    {"itertools", "ifilter", "builtins", "filter"},
    {"itertools", "ifilterfalse", "itertools", "filterfalse"},
    {"itertools", "izip_longest", "itertools", "zip_longest"},
    {"UserDict", "IterableUserDict", "collections", "UserDict"},
    {"UserList", "UserList", "collections", "UserList"},
    {"UserString", "UserString", "collections", "UserString"},
    {"whichdb", "whichdb", "dbm", "whichdb"},
    {"_socket", "fromfd", "socket", "fromfd"},
    {"_multiprocessing", "Connection", "multiprocessing.connection", "Connection"},
    {"multiprocessing.process", "Process", "multiprocessing.context", "Process"},
    {"multiprocessing.forking", "Popen", "multiprocessing.popen_fork", "Popen"},
    {"urllib", "urlopen", "urllib.request", "urlopen"},
    {"urllib", "urlretrieve", "urllib.request", "urlretrieve"},
    {"urllib", "quote", "urllib.parse", "quote"},
    {"urllib", "unquote", "urllib.parse", "unquote"},
    {"urllib", "urlencode", "urllib.parse", "urlencode"},
}};

} // namespace

ResolvedName resolveGlobalName(std::string_view module, std::string_view name)
{
    for (const NameMap& m : kNames) {
        if (module == m.fromModule && name == m.fromName)
            return {m.toModule, m.toName};
    }
    ResolvedName r{std::string(module), std::string(name)};
    for (const ModuleMap& m : kModules) {
        if (module == m.from) {
            r.module = m.to;
            break;
        }
    }
    if (r.module == "torch.tensor")
        r.module = "torch._tensor";
    return r;
}

} // namespace ts::pickle
