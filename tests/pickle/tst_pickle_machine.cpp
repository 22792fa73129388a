// The pickle machine opcode by opcode, the classification of globals, the protocol 0 text
// decoders and the limits, on pickles written here (and checked against CPython's pickle where a
// value is decoded: every literal below was loaded with pickle.loads when the test was written).
#include "PickleTestData.h"
#include "pickle/GlobalPolicy.h"
#include "pickle/PickleDisassembly.h"
#include "pickle/PickleMachine.h"
#include "pickle/PickleText.h"
#include "pickle/TensorNamer.h"

#include <QSet>

using namespace ts::pickle;

namespace {

struct Ran {
    PickleHeap heap{1u << 26};
    PickleAudit audit;
    PickleRun run;

    bool hasCode(const char* code) const
    {
        for (const ts::Diagnostic& d : audit.diagnostics()) {
            if (d.code == QLatin1String(code))
                return true;
        }
        return false;
    }
    QString firstMessage() const
    {
        const auto d = audit.diagnostics();
        return d.empty() ? QString() : d.front().message;
    }
};

std::unique_ptr<Ran> runPickle(const QByteArray& bytes, const PickleLimits& limits = {},
                               PersistentLoader* loader = nullptr)
{
    auto r = std::make_unique<Ran>();
    r->heap = PickleHeap(limits.maxHeapBytes);
    PickleMachine m(r->heap, r->audit, limits);
    PickleSource src;
    src.bytes = std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    src.where = QStringLiteral("test.pkl");
    r->run = m.run(src, 0, loader);
    return r;
}

QByteArray raw(const char* s, std::size_t n)
{
    return QByteArray(s, static_cast<qsizetype>(n));
}

#define PICKLE(lit) raw(lit, sizeof(lit) - 1)

} // namespace

class TestPickleMachine : public QObject {
    Q_OBJECT
private slots:
    void protocolZeroText();
    void binaryScalarsAndContainers();
    void memoAndMarks();
    void stackGlobalNeedsStrings();
    void faultsStopWithASentence_data();
    void faultsStopWithASentence();
    void salvageKeepsPendingDictEntries();
    void globalsAreClassified_data();
    void globalsAreClassified();
    void globalsAreCountedWithTheirFirstOffset();
    void callsOfUnknownGlobalsRunNothing();
    void heapBudgetIsEnforced();
    void stackAndMemoLimits();
    void hugeMemoIndexIsNoAllocation();
    void nestedPicklesAreFound();
    void namerStopsSharedContainers();
    void namerFollowsModuleState();
    void textDecoders();
    void disassembly();
};

void TestPickleMachine::protocolZeroText()
{
    // pickle.dumps([1, True, 1.5, 'a\nb', 'café', 2**70, -3], protocol=0)
    const QByteArray p =
        PICKLE("(lp0\nI1\naI01\naF1.5\naVa\\u000ab\np1\naVcaf\\u00e9\np2\naL1180591620717411303424L\n"
               "aI-3\na.");
    auto r = runPickle(p);
    QVERIFY2(r->run.completed, qPrintable(r->firstMessage()));
    const auto& items = r->heap.items(r->run.result);
    QCOMPARE(items.size(), std::size_t{7});
    QCOMPARE(r->heap.kind(items[0]), Kind::Int);
    QCOMPARE(r->heap.kind(items[1]), Kind::Bool);
    QCOMPARE(r->heap.floatValue(items[2]), 1.5);
    QCOMPARE(r->heap.text(items[3]), std::string("a\nb"));
    QCOMPARE(r->heap.text(items[4]), std::string("caf\xc3\xa9"));
    QCOMPARE(r->heap.kind(items[5]), Kind::BigInt);
    QCOMPARE(r->heap.at(items[6]).number, std::int64_t{-3});
    // STRING (Python 2 str) with escapes: pickle.loads(b"S'x\\'y\\\\\\x41'\n.") == "x'y\\A"
    auto s = runPickle(PICKLE("S'x\\'y\\\\\\x41'\n."));
    QVERIFY(s->run.completed);
    QCOMPARE(s->heap.text(s->run.result), std::string("x'y\\A"));
}

void TestPickleMachine::binaryScalarsAndContainers()
{
    // pickle.dumps({'a': (1, -2, 70000), 'b': {3, 4}, 'c': b'\x00\x01', 'd': 1e300}, protocol=4), no FRAME
    const QByteArray p = PICKLE("\x80\x04}\x94(\x8c\x01"
                                "a\x94K\x01J\xfe\xff\xff\xffJp\x11\x01\x00\x87\x94\x8c\x01"
                                "b\x94\x8f\x94(K\x03K\x04\x90\x8c\x01"
                                "c\x94"
                                "C\x02\x00\x01\x94\x8c\x01"
                                "d\x94G~7\xe4<\x88\x00u\x9c"
                                "u.");
    auto r = runPickle(p);
    QVERIFY2(r->run.completed, qPrintable(r->firstMessage()));
    QCOMPARE(r->run.protocol, 4);
    const auto& d = r->heap.items(r->run.result);
    QCOMPARE(d.size(), std::size_t{8});
    const auto& t = r->heap.items(d[1]);
    QCOMPARE(r->heap.at(t[1]).number, std::int64_t{-2});
    QCOMPARE(r->heap.at(t[2]).number, std::int64_t{70000});
    QCOMPARE(r->heap.kind(d[3]), Kind::Set);
    QCOMPARE(r->heap.items(d[3]).size(), std::size_t{2});
    QCOMPARE(r->heap.text(d[5]), std::string("\x00\x01", 2));
    QCOMPARE(r->heap.floatValue(d[7]), 1e300);
}

void TestPickleMachine::memoAndMarks()
{
    // x = [1]; pickle.dumps([x, x], protocol=2): the second is a BINGET of the first.
    auto r = runPickle(PICKLE("\x80\x02]q\x00(]q\x01K\x01"
                              "ah\x01"
                              "e."));
    QVERIFY(r->run.completed);
    const auto& outer = r->heap.items(r->run.result);
    QCOMPARE(outer.size(), std::size_t{2});
    QCOMPARE(outer[0], outer[1]);
    // POP on an empty frame drops the MARK instead (CPython's load_pop): ( 0 K1 . -> 1
    auto p = runPickle(PICKLE("(0K\x01."));
    QVERIFY(p->run.completed);
    QCOMPARE(p->heap.at(p->run.result).number, std::int64_t{1});
}

void TestPickleMachine::stackGlobalNeedsStrings()
{
    auto r = runPickle(PICKLE("\x80\x04K\x01K\x02\x93."));
    QVERIFY(!r->run.completed);
    QVERIFY(r->hasCode("PickleValueError"));
}

void TestPickleMachine::faultsStopWithASentence_data()
{
    QTest::addColumn<QByteArray>("pickle");
    QTest::addColumn<QString>("code");
    QTest::newRow("empty stack") << PICKLE("R.") << QStringLiteral("PickleStackFault");
    QTest::newRow("below mark") << PICKLE("K\x01(R.") << QStringLiteral("PickleStackFault");
    QTest::newRow("no mark") << PICKLE("K\x01t.") << QStringLiteral("PickleStackFault");
    QTest::newRow("odd dict") << PICKLE("(K\x01"
                                        "d.")
                              << QStringLiteral("PickleStackFault");
    QTest::newRow("memo") << PICKLE("h\x07.") << QStringLiteral("PickleMemoFault");
    QTest::newRow("put empty") << PICKLE("q\x01.") << QStringLiteral("PickleStackFault");
    QTest::newRow("length") << PICKLE("X\xff\xff\xff\xff"
                                      "ab")
                            << QStringLiteral("PickleLengthPastEnd");
    QTest::newRow("bytes8") << PICKLE("\x8e\xff\xff\xff\xff\xff\xff\xff\xff")
                            << QStringLiteral("PickleLengthPastEnd");
    QTest::newRow("frame") << PICKLE("\x80\x04\x95\x00\x00\x00\x00\x01\x00\x00\x00N.")
                           << QStringLiteral("PickleLengthPastEnd");
    QTest::newRow("no stop") << PICKLE("K\x01") << QStringLiteral("PickleTruncated");
    QTest::newRow("no newline") << PICKLE("cos\nsys") << QStringLiteral("PickleTruncated");
    QTest::newRow("opcode") << PICKLE("\xff.") << QStringLiteral("PickleBadOpcode");
    QTest::newRow("protocol") << PICKLE("\x80\x06N.") << QStringLiteral("PickleProtocol");
    QTest::newRow("negative binstring") << PICKLE("T\xff\xff\xff\xff.") << QStringLiteral("PickleValueError");
    QTest::newRow("extension") << PICKLE("\x82\x01.") << QStringLiteral("PickleValueError");
    QTest::newRow("buffer") << PICKLE("\x97.") << QStringLiteral("PickleValueError");
    QTest::newRow("call a str") << PICKLE("X\x01\x00\x00\x00"
                                          "a)R.")
                                << QStringLiteral("PickleValueError");
    QTest::newRow("persistent id") << PICKLE("K\x01Q.") << QStringLiteral("PickleValueError");
    QTest::newRow("append to int") << PICKLE("K\x01K\x02"
                                             "a.")
                                   << QStringLiteral("PickleValueError");
}

void TestPickleMachine::faultsStopWithASentence()
{
    QFETCH(QByteArray, pickle);
    QFETCH(QString, code);
    auto r = runPickle(pickle);
    QVERIFY(!r->run.completed);
    QVERIFY2(r->hasCode(code.toLatin1().constData()), qPrintable(r->firstMessage()));
    // The sentence names the pickle and the byte.
    QVERIFY(r->firstMessage().contains(QLatin1String("test.pkl at byte")));
}

void TestPickleMachine::salvageKeepsPendingDictEntries()
{
    // A dict whose SETITEMS never came: the pairs above its mark are its entries.
    auto r = runPickle(PICKLE("\x80\x02}(X\x01\x00\x00\x00"
                              "aK\x01X\x01\x00\x00\x00"
                              "bK\x02"));
    QVERIFY(!r->run.completed);
    QCOMPARE(r->run.salvage.size(), std::size_t{1});
    QCOMPARE(r->heap.items(r->run.salvage.front()).size(), std::size_t{4});
}

void TestPickleMachine::globalsAreClassified_data()
{
    QTest::addColumn<QString>("module");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("cls");
    QTest::addColumn<QString>("resolved");
    const int A = static_cast<int>(GlobalClass::Allowed);
    const int U = static_cast<int>(GlobalClass::Unknown);
    const int D = static_cast<int>(GlobalClass::Dangerous);
    const auto row = [](const char* m, const char* n, int c, const char* r) {
        QTest::newRow(qPrintable(QStringLiteral("%1.%2").arg(QLatin1String(m), QLatin1String(n))))
            << QString::fromLatin1(m) << QString::fromLatin1(n) << c << QString::fromLatin1(r);
    };
    row("torch._utils", "_rebuild_tensor_v2", A, "torch._utils._rebuild_tensor_v2");
    row("torch._utils", "_rebuild_parameter", A, "torch._utils._rebuild_parameter");
    row("torch", "FloatStorage", A, "torch.FloatStorage");
    row("torch", "BFloat16Storage", A, "torch.BFloat16Storage");
    row("torch", "float8_e4m3fn", A, "torch.float8_e4m3fn");
    row("torch", "float", U, "torch.float"); // an alias: str() never gives it, weights_only refuses it
    row("torch", "Size", A, "torch.Size");
    row("torch.tensor", "_rebuild_from_type_v2", A, "torch._tensor._rebuild_from_type_v2");
    row("collections", "OrderedDict", A, "collections.OrderedDict");
    row("_codecs", "encode", A, "_codecs.encode");
    row("torch", "FloatTensor", A, "torch.FloatTensor");
    row("numpy.core.multiarray", "_reconstruct", U, "numpy.core.multiarray._reconstruct");
    row("argparse", "Namespace", U, "argparse.Namespace");
    row("__main__", "Net", U, "__main__.Net");
    row("copy_reg", "_reconstructor", U, "copyreg._reconstructor");
    row("os", "system", D, "os.system");
    row("posix", "system", D, "posix.system");
    row("nt", "system", D, "nt.system");
    row("subprocess", "Popen", D, "subprocess.Popen");
    row("commands", "getoutput", D, "subprocess.getoutput"); // Python 2 name, mapped
    row("__builtin__", "eval", D, "builtins.eval");
    row("builtins", "exec", D, "builtins.exec");
    row("builtins", "getattr", D, "builtins.getattr");
    row("builtins", "__import__", D, "builtins.__import__");
    row("builtins", "print", U, "builtins.print");
    row("__builtin__", "reduce", D, "functools.reduce");
    row("runpy", "_run_code", D, "runpy._run_code");
    row("webbrowser", "open", D, "webbrowser.open");
    row("cPickle", "loads", D, "pickle.loads");
    row("torch", "load", D, "torch.load");
    row("torch.serialization", "load", D, "torch.serialization.load");
    row("torch", "serialization.os.system", D, "torch.serialization.os.system"); // attribute chain
    row("code", "InteractiveInterpreter.runsource", D, "code.InteractiveInterpreter.runsource");
    row("multiprocessing.util", "spawnv_passfds", D, "multiprocessing.util.spawnv_passfds");
    row("_operator", "methodcaller", D, "_operator.methodcaller");
    row("operator", "add", U, "operator.add");
    row("functools", "partial", D, "functools.partial");
    row("pathlib", "PosixPath", U, "pathlib.PosixPath");
    row("pathlib", "Path.write_text", D, "pathlib.Path.write_text");
    row("collections", "OrderedDict.__class__", D, "collections.OrderedDict.__class__");
    row("numpy.testing._private.utils", "runstring", D, "numpy.testing._private.utils.runstring");
    row("torch.utils.cpp_extension", "load_inline", D, "torch.utils.cpp_extension.load_inline");
    row("osx", "x", U, "osx.x"); // a module whose name starts like os is not os
}

void TestPickleMachine::globalsAreClassified()
{
    QFETCH(QString, module);
    QFETCH(QString, name);
    QFETCH(int, cls);
    QFETCH(QString, resolved);
    const GlobalVerdict v = classifyGlobal(module.toStdString(), name.toStdString());
    QCOMPARE(static_cast<int>(v.cls), cls);
    QCOMPARE(QString::fromStdString(v.resolved), resolved);
    if (v.cls == GlobalClass::Dangerous)
        QVERIFY(!v.why.isEmpty());
}

void TestPickleMachine::globalsAreCountedWithTheirFirstOffset()
{
    // os.system named twice (GLOBAL at 2, GLOBAL at 21): one entry, count 2, first offset 2.
    auto r = runPickle(PICKLE("\x80\x02"
                              "cos\nsystem\n"
                              "0"
                              "N"
                              "0"
                              "cos\nsystem\n"
                              "N."));
    QVERIFY(r->run.completed);
    QCOMPARE(r->audit.globals().size(), std::size_t{1});
    QCOMPARE(r->audit.globals().front().count, std::uint64_t{2});
    QCOMPARE(r->audit.globals().front().firstOffset, std::uint64_t{2});
    QVERIFY(r->audit.runsCode());
}

void TestPickleMachine::callsOfUnknownGlobalsRunNothing()
{
    // os.system('echo') REDUCE'd: an opaque object holding callee and arguments.
    auto r = runPickle(PICKLE("\x80\x02"
                              "cos\nsystem\nX\x04\x00\x00\x00"
                              "echo\x85R."));
    QVERIFY(r->run.completed);
    QCOMPARE(r->heap.kind(r->run.result), Kind::Object);
    const ObjectRec& o = r->heap.objectRec(r->run.result);
    QCOMPARE(r->heap.globalRef(o.callee).verdict.resolved, std::string("os.system"));
    QCOMPARE(r->heap.text(r->heap.items(o.args).front()), std::string("echo"));
}

void TestPickleMachine::heapBudgetIsEnforced()
{
    // 100,000 empty lists: about 4 MB of values, refused under a 1 MiB budget.
    QByteArray p = PICKLE("\x80\x02]");
    for (int i = 0; i < 100000; ++i)
        p += "]a";
    p += '.';
    PickleLimits small;
    small.maxHeapBytes = 1u << 20;
    auto r = runPickle(p, small);
    QVERIFY(!r->run.completed);
    QVERIFY(r->hasCode("PickleLimit"));
    QVERIFY(r->heap.bytesUsed() <= small.maxHeapBytes);
    auto fine = runPickle(p);
    QVERIFY(fine->run.completed);
}

void TestPickleMachine::stackAndMemoLimits()
{
    // A stack of 200,000 entries (DUP) is refused at 100,000; the default limits (16 M entries,
    // far below the billion a hostile file may ask for) take it.
    QByteArray dups = PICKLE("N");
    dups += QByteArray(200000, '2');
    dups += '.';
    PickleLimits small;
    small.maxStack = 100000;
    auto r = runPickle(dups, small);
    QVERIFY(r->hasCode("PickleLimit"));
    QVERIFY(runPickle(dups)->run.completed);
    QVERIFY(PickleLimits{}.maxStack < 1000000000ull && PickleLimits{}.maxMemo < 1000000000ull);
    QByteArray memo = PICKLE("N");
    for (int i = 0; i < 5000; ++i)
        memo += "\x94";
    memo += '.';
    small.maxMemo = 1000;
    QVERIFY(runPickle(memo, small)->hasCode("PickleLimit"));
}

void TestPickleMachine::hugeMemoIndexIsNoAllocation()
{
    // LONG_BINPUT 4294967295: Python sizes its memo array for it and fails; here one hash entry.
    auto r = runPickle(PICKLE("Nr\xff\xff\xff\xffj\xff\xff\xff\xff."));
    QVERIFY(r->run.completed);
    QVERIFY(r->hasCode("PickleMemoIndex"));
    QVERIFY(r->heap.bytesUsed() < 4096);
}

void TestPickleMachine::nestedPicklesAreFound()
{
    // pickle.loads(b'\x80\x02cos\nsystem\nN.'): the bytes are a pickle of their own.
    auto r = runPickle(PICKLE("\x80\x03"
                              "cpickle\nloads\nC\x11\x80\x02"
                              "cos\nsystem\n"
                              "N\x85R."
                              "\x85R."));
    QVERIFY(r->run.completed);
    QCOMPARE(r->run.nestedPickles.size(), std::size_t{1});
    QCOMPARE(r->run.nestedPickles.front().second, std::uint64_t{18});
}

void TestPickleMachine::namerStopsSharedContainers()
{
    // t0 = (d,), t_i+1 = (t_i, t_i), 30 levels: 2^30 paths to one dict.
    QByteArray p = PICKLE("\x80\x02}(X\x01\x00\x00\x00"
                          "aN"
                          "u\x85r\x00\x00\x00\x00"
                          "0");
    for (int i = 0; i < 30; ++i) {
        QByteArray get("j");
        get.append(QByteArray::fromRawData(reinterpret_cast<const char*>(&i), 4));
        const int next = i + 1;
        p += get + get + "\x86r" + QByteArray(reinterpret_cast<const char*>(&next), 4) + "0";
    }
    const int last = 30;
    p += "j" + QByteArray(reinterpret_cast<const char*>(&last), 4) + ".";
    auto r = runPickle(p);
    QVERIFY2(r->run.completed, qPrintable(r->firstMessage()));
    PickleAudit audit;
    TensorNamer namer(r->heap, PickleLimits{}, audit);
    namer.name(r->run.result, {});
    QVERIFY(audit.has(QStringLiteral("PickleLimit")));
}

void TestPickleMachine::namerFollowsModuleState()
{
    // A pickled module object: BUILD state {'_modules': {'0': obj}, ...}; its tensors are named
    // without _modules/_parameters, as state_dict() names them. Storages stand in for tensors.
    PickleHeap heap(1u << 20);
    StorageRec s;
    s.key = "0";
    s.numel = 1;
    const ValueId storage = heap.storage(s);
    const ValueId params = heap.container(Kind::Dict, {heap.str("weight"), storage});
    const ValueId innerState = heap.container(Kind::Dict, {heap.str("_parameters"), params});
    ObjectRec inner;
    const ValueId innerObj = heap.object(inner);
    heap.mutableObject(innerObj).state = innerState;
    const ValueId modules = heap.container(Kind::Dict, {heap.str("0"), innerObj});
    const ValueId outerState =
        heap.container(Kind::Dict, {heap.str("_modules"), modules, heap.str("training"), heap.boolean(true)});
    ObjectRec outer;
    const ValueId outerObj = heap.object(outer);
    heap.mutableObject(outerObj).state = outerState;
    PickleAudit audit;
    TensorNamer namer(heap, PickleLimits{}, audit);
    namer.name(outerObj, {});
    QCOMPARE(namer.tensors().size(), std::size_t{1});
    QCOMPARE(namer.tensors().front().name, QStringLiteral("0.weight"));
    // A key given twice keeps its first place and its last value.
    const ValueId twice = heap.container(
        Kind::Dict, {heap.str("a"), storage, heap.str("b"), storage, heap.str("a"), heap.none()});
    TensorNamer second(heap, PickleLimits{}, audit);
    second.name(twice, {});
    QCOMPARE(second.tensors().size(), std::size_t{1});
    QCOMPARE(second.tensors().front().name, QStringLiteral("b"));
}

void TestPickleMachine::textDecoders()
{
    QCOMPARE(*decodeQuotedString("'a\\tb\\101'"), std::string("a\tbA"));
    QVERIFY(!decodeQuotedString("abc"));
    QVERIFY(!decodeQuotedString("'a\\x4'"));
    QCOMPARE(*decodeRawUnicodeEscape("\\u20ac\xe9"), std::string("\xe2\x82\xac\xc3\xa9"));
    const auto big = decodeDecimal("-18446744073709551617L");
    QVERIFY(big && !big->fits);
    QCOMPARE(decodeDecimal("-5")->value, std::int64_t{-5});
    QCOMPARE(*decodeFloat("1e-05"), 1e-05);
    QVERIFY(std::isinf(*decodeFloat("-inf")));
    QVERIFY(!decodeFloat("1,5"));
    QCOMPARE(littleEndianToInt64(std::string("\xff", 1)), std::int64_t{-1});
    QVERIFY(littleEndianFitsInt64(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff", 9)));
    QVERIFY(!littleEndianFitsInt64(std::string("\x00\x00\x00\x00\x00\x00\x00\x00\x01", 9)));
    QCOMPARE(*utf8ToLatin1("\xc3\xa9"), std::string("\xe9"));
}

void TestPickleMachine::disassembly()
{
    const QByteArray p = PICKLE("\x80\x02}q\x00(X\x01\x00\x00\x00"
                                "aK\x01u.");
    const QByteArray text = disassemble(
        std::as_bytes(std::span(p.constData(), static_cast<std::size_t>(p.size()))), 100, 1 << 20);
    QVERIFY(text.contains("       100: PROTO 2"));
    QVERIFY(text.contains("       105: MARK"));
    QVERIFY(text.contains("       106:     BINUNICODE 'a'")); // indented under its MARK
    QVERIFY(text.contains("       115: STOP"));
}

QTEST_GUILESS_MAIN(TestPickleMachine)
#include "tst_pickle_machine.moc"
