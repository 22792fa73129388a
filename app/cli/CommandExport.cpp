#include "CliOutput.h"
#include "Commands.h"

#include "Model.h"
#include "TensorExporter.h"

namespace ts::cli {

int runExport(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("OUT.npy or OUT.csv."),
                      QStringLiteral("OUT")});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A model."));
    parser.addPositionalArgument(QStringLiteral("TENSOR"), QStringLiteral("The tensor's full name."));
    const QString usage = QStringLiteral("usage: tensorscope-cli export FILE TENSOR -o OUT.npy|OUT.csv");
    if (!parseOrExplain(parser, args, usage))
        return ExitUsage;
    if (parser.positionalArguments().size() != 2 || !parser.isSet(QStringLiteral("output"))) {
        err(usage);
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().at(0);
    const QString name = parser.positionalArguments().at(1);
    const QString target = parser.value(QStringLiteral("output"));
    const auto format = TensorExporter::formatForPath(target);
    if (!format) {
        err(QStringLiteral("tensorscope-cli: %1: the output must end in .npy or .csv").arg(target));
        return ExitUsage;
    }
    auto opened = Model::open(path);
    if (!opened) {
        err(opened.error().toString());
        return exitFor(opened.error());
    }
    const Model& model = **opened;
    const int index = model.indexOf(name);
    if (index < 0) {
        err(QStringLiteral("tensorscope-cli: %1 has no tensor named \"%2\"").arg(path, name));
        return ExitUsage;
    }
    const TensorInfo& info = model.tensors()[static_cast<std::size_t>(index)].info;
    const auto done = TensorExporter::exportTensor(info, model.location(index), target, *format);
    if (!done) {
        err(done.error().toString());
        return exitFor(done.error());
    }
    if (!done->note.isEmpty())
        err(QStringLiteral("note: ") + done->note);
    out(QStringLiteral("wrote %1").arg(target));
    return ExitOk;
}

} // namespace ts::cli
