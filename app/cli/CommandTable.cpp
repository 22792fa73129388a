#include "CommandTable.h"

#include "convert/ConvertOptionsParser.h"

namespace ts::cli {
namespace {

using namespace Qt::StringLiterals;

OptionSpec flag(const QString& name, const QString& description)
{
    return OptionSpec::flag({name}, description);
}

OptionSpec json(const QString& description)
{
    return flag(u"json"_s, description);
}

OptionSpec value(const QStringList& names, const QString& valueName, const QString& description,
                 ValueKind kind = ValueKind::Text)
{
    OptionSpec o = OptionSpec::flag(names, description);
    o.valueName = valueName;
    o.kind = kind;
    return o;
}

OptionSpec repeatable(OptionSpec o)
{
    o.repeatable = true;
    return o;
}

OptionSpec required(OptionSpec o)
{
    o.required = true;
    return o;
}

OptionSpec withDefault(OptionSpec o, const QString& defaultValue)
{
    o.defaultValue = defaultValue;
    return o;
}

QList<CommandSpec> buildTable()
{
    const OptionSpec set =
        repeatable(value({u"set"_s}, u"KEY=VALUE"_s, u"Set metadata KEY to VALUE (repeatable)."_s));
    const OptionSpec unset =
        repeatable(value({u"unset"_s}, u"KEY"_s, u"Remove metadata KEY (repeatable)."_s));
    // Every command that reads a model may read it from a URL.
    const OptionSpec cacheSize =
        value({u"cache-size"_s}, u"SIZE"_s,
              u"Bound of the on-disk cache for models read from URLs, such as 500MB or 2GiB; 0 turns it off "
              "(default 2GiB, in $XDG_CACHE_HOME/tensorscope/remote)."_s);
    return {
        {u"info"_s,
         u"FILE"_s,
         u"tensor count, parameters and bytes per dtype, header size, metadata, warnings"_s,
         u"Describe a model: how many tensors and parameters it has, the bytes per dtype, the header size, "
         "its metadata and every warning the format check raised."_s,
         {json(u"Machine-readable output."_s), cacheSize}},
        {u"ls"_s,
         u"FILE"_s,
         u"list tensors (name, dtype, shape, parameters, bytes, offsets)"_s,
         u"List the tensors of a model with their dtype, shape, parameter count, size and data offsets."_s,
         {json(u"Machine-readable output."_s),
          value({u"filter"_s}, u"GLOB"_s, u"Only tensors whose name matches GLOB."_s), cacheSize}},
        {u"validate"_s,
         u"FILE..."_s,
         u"check files against the format; exit 1 if any is invalid"_s,
         u"Check each file against the safetensors format and report what is wrong with it, naming the "
         "tensor and the byte offset. Exit status 1 when any file is invalid."_s,
         {json(u"One JSON object per line and file."_s), cacheSize}},
        {u"meta"_s,
         u"FILE"_s,
         u"print metadata, or write it edited"_s,
         u"Print the metadata of a file, or write it edited. Without -o the file itself is changed: in "
         "place behind a journal when the new header fits in the old one, otherwise by an atomic full "
         "rewrite."_s,
         {json(u"Print the metadata as a JSON object (null when absent)."_s), set, unset,
          flag(u"clear"_s, u"Remove every key before applying --set."_s),
          flag(u"no-metadata"_s, u"Write the file without a __metadata__ entry at all."_s),
          value({u"o"_s, u"output"_s}, u"OUT"_s, u"Write to OUT instead of FILE."_s, ValueKind::Path),
          withDefault(value({u"header-slack"_s}, u"BYTES"_s,
                            u"Pad the header with BYTES spaces for later in-place edits."_s,
                            ValueKind::Number),
                      u"0"_s),
          flag(u"no-in-place"_s,
               u"Always rewrite the whole file, even when the new header fits in the old one."_s),
          flag(u"force"_s, u"Replace a read-only or hard-linked file anyway (always by a full rewrite)."_s),
          withDefault(value({u"wait"_s}, u"SECONDS"_s,
                            u"Wait up to SECONDS for another process saving the file."_s, ValueKind::Number),
                      u"10"_s)}},
        {u"recover"_s,
         u"FILE"_s,
         u"restore the header an interrupted in-place save left in a journal"_s,
         u"Restore the header an interrupted in-place save left in a journal, only when the journal matches "
         "the file, or delete the journal. Other commands only report such a journal (warning "
         "InterruptedSave). FILE may be a file, a shard index or a model folder."_s,
         {json(u"One JSON object per file."_s),
          flag(u"discard"_s, u"Delete the journal and keep the file as it is now, instead of restoring."_s),
          flag(u"remove-leftovers"_s, u"Also delete hidden temporary files of killed saves of FILE."_s)}},
        {u"convert"_s,
         u"IN..."_s,
         u"convert dtypes, select, rename, shard or merge"_s,
         u"Convert dtypes, select, rename, shard or merge tensors of one or more models (files, index "
         ".json files or folders) and print a per-tensor report of what changes, including values that "
         "overflow or underflow to zero and the NaN and Inf the inputs hold. Nothing is written under the "
         "final name until it is complete, and never over one of the inputs."_s,
         {required(value({u"o"_s, u"output"_s}, u"OUT"_s,
                         u"Output file, or folder with --shard-size (not needed with --dry-run)."_s,
                         ValueKind::Path)),
          value({u"dtype"_s}, u"D"_s, u"Convert floating tensors to D."_s, ValueKind::Dtype),
          repeatable(value(
              {u"dtype-for"_s}, u"GLOB=D"_s,
              u"Convert tensors matching GLOB to D, a dtype as for --dtype (repeatable; last match wins)."_s)),
          repeatable(value({u"include"_s}, u"GLOB"_s, u"Keep only tensors matching GLOB (repeatable)."_s)),
          repeatable(value({u"exclude"_s}, u"GLOB"_s, u"Drop tensors matching GLOB (repeatable)."_s)),
          repeatable(
              value({u"rename"_s}, u"REGEX=REPLACEMENT"_s, u"Rename tensors (repeatable, in order)."_s)),
          value({u"shard-size"_s}, u"SIZE"_s,
                u"Write Hugging Face shards of at most SIZE, such as 500MB, 2GB or 1GiB."_s),
          set, unset,
          withDefault(value({u"header-slack"_s}, u"BYTES"_s, u"Pad each header with BYTES spaces."_s,
                            ValueKind::Number),
                      u"0"_s),
          flag(u"dry-run"_s, u"Print the report and write nothing."_s), json(u"Machine-readable report."_s),
          flag(
              u"allow-unsafe-structure"_s,
              u"Convert a PyTorch pickle checkpoint whose only problems are structural (bytes after a STOP, "
              "a CRC torch does not check, a storage cut short). One that would run code is never converted."_s),
          cacheSize}},
        {u"export"_s,
         u"FILE TENSOR"_s,
         u"write one tensor as NumPy .npy or CSV (1-D/2-D)"_s,
         u"Write one tensor as a NumPy .npy file or, for 1-D and 2-D tensors, as CSV; the format follows "
         "OUT's extension. An existing OUT is replaced only with --force, and never when it is one of the "
         "model's own files."_s,
         {required(value({u"o"_s, u"output"_s}, u"OUT"_s, u"OUT.npy or OUT.csv."_s, ValueKind::Path)),
          flag(u"force"_s, u"Replace OUT if it exists (never one of the model's own files)."_s), cacheSize}},
        {u"stats"_s,
         u"FILE [TENSOR...]"_s,
         u"per-tensor statistics and histograms"_s,
         u"Per-tensor statistics (NaN, Inf and zero counts, share of zeros, min, max, mean, standard "
         "deviation, L2 norm, the quantiles p1, p5, p25, median, p75, p95 and p99) and histograms of the "
         "named tensors, or of all of them."_s,
         {json(u"Machine-readable output."_s),
          withDefault(value({u"bins"_s}, u"N"_s, u"Histogram bins."_s, ValueKind::Number), u"32"_s),
          cacheSize}},
        {u"audit-pickle"_s,
         u"FILE"_s,
         u"list what a PyTorch pickle checkpoint would run; exit 1 if it would run dangerous code"_s,
         u"Read a PyTorch pickle checkpoint (.bin, .pt, .pth, .ckpt: zip, legacy or tar layout, or a "
         u"TorchScript "
         "archive) without running it, and list every global it names (allowed, unknown or dangerous, with "
         "its "
         "count and first byte offset) and every structural oddity that makes readers disagree about it. "
         "Exit "
         "status 1 when loading it with torch.load would call a dangerous global or run TorchScript."_s,
         {json(u"Machine-readable output."_s)}},
        {u"scan"_s,
         u"FILE"_s,
         u"scan every tensor on all cores; exit 1 if NaN or Inf is found"_s,
         u"Scan every tensor of a model on all cores for NaN, Inf and other anomalies. Exit status 1 when "
         "NaN or Inf is found."_s,
         {json(u"Machine-readable output."_s),
          value({u"threads"_s}, u"N"_s, u"Worker threads (default: one per core)."_s, ValueKind::Number),
          flag(u"nan-inf-only"_s, u"Only look for NaN and Inf (no statistics, no other findings): a "
                                  "memory-speed check for CI."_s),
          flag(u"quantiles"_s,
               u"Also p1, p5, p25, median, p75, p95 and p99 of every tensor (free for 16-bit "
               "and smaller dtypes; wider ones are read again), as the window's scan shows them."_s),
          cacheSize}},
        {u"diff"_s,
         u"A B"_s,
         u"compare two models: what changed, where, how much and how; exit 1 if they differ"_s,
         u"Compare two models (files, index .json files or folders, sharded or not): pair their tensors "
         "by name, then by the --rename rules, then by content hash and shape for the rest; find the "
         "tensors with identical bytes at memory speed; for every other pair measure the largest change "
         "and where it is, the mean change, the relative L2 change, the cosine similarity, the share of "
         "values changed and the NaN/Inf that appeared or disappeared, and say what kind of change it is "
         "(rounding to a lower precision, scaling, a sparse edit, a low-rank update, noise, a full-rank "
         "change). Metadata keys added, removed and changed are listed too.\n\nExit status 0 when A and "
         "B are identical (every tensor by name with the same bytes, the same metadata), 1 when they "
         "differ, 2 when one cannot be read."_s,
         {json(u"Machine-readable report: every pair with its metrics, the added and removed tensors, the "
               "metadata changes."_s),
          repeatable(
              value({u"rename"_s}, u"REGEX=REPLACEMENT"_s,
                    u"Pair A's tensor names matching REGEX with B's names made by REPLACEMENT (\\1 for a "
                    "group), for tensors the names do not pair (repeatable, applied in order)."_s)),
          repeatable(
              value({u"rename-file"_s}, u"FILE"_s,
                    u"Rename rules from FILE: a JSON object of exact names {\"A name\": \"B name\"}, or "
                    "lines of REGEX=REPLACEMENT."_s,
                    ValueKind::Path)),
          flag(u"rank"_s, u"Estimate the numerical rank of every changed matrix (a randomized range finder; "
                          "reads each such tensor a few more times): tells a merged LoRA (low rank) from a "
                          "full fine-tune or from noise."_s),
          flag(u"no-suggest"_s, u"Do not pair the remaining tensors by content hash or shape."_s),
          flag(u"all"_s, u"Also list the identical tensors (text output)."_s),
          value({u"threads"_s}, u"N"_s, u"Worker threads (default: one per core)."_s, ValueKind::Number)}},
        {u"report"_s,
         u"FILE"_s,
         u"write an audit report (HTML, JSON, Markdown); exit 1 if it lists an error"_s,
         u"Write an audit report of a model: its files with their sizes and SHA-256, the architecture its "
         u"names and "
         "shapes show (compared with the config.json beside it), the parameter count as the Hugging Face Hub "
         "shows it, "
         "the format check's warnings, the whole-model scan's findings, per-layer statistics and the "
         "metadata with the "
         "meaning of well-known keys. The format follows OUT's extension: a self-contained HTML file (charts "
         "inline, "
         "nothing fetched), JSON or Markdown. Exit status 1 when the report lists an error."_s,
         {required(
              value({u"o"_s, u"output"_s}, u"OUT"_s, u"OUT.html, OUT.json or OUT.md."_s, ValueKind::Path)),
          flag(u"json"_s, u"Also write the JSON report beside OUT (OUT with .json)."_s),
          flag(u"md"_s, u"Also write the Markdown report beside OUT (OUT with .md)."_s),
          flag(u"no-scan"_s, u"Do not read the tensors' values: no scan findings or per-layer statistics."_s),
          flag(u"no-hash"_s, u"Do not compute the files' SHA-256."_s),
          value({u"threads"_s}, u"N"_s, u"Worker threads (default: one per core)."_s, ValueKind::Number),
          flag(u"force"_s, u"Replace existing report files (never one of the model's own files)."_s)}},
    };
}

} // namespace

const QList<CommandSpec>& commandTable()
{
    static const QList<CommandSpec> table = buildTable();
    return table;
}

const CommandSpec* findCommand(const QString& name)
{
    for (const CommandSpec& c : commandTable()) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

const QStringList& convertDtypes()
{
    static const QStringList dtypes = convertDtypeNames();
    return dtypes;
}

QString cliDescription()
{
    return u"Inspect .safetensors models from scripts and CI. FILE may be a .safetensors file, a sharded "
           "model's model.safetensors.index.json, a folder, or a PyTorch pickle checkpoint (.bin, .pt, .pth, "
           ".ckpt), which is read without running it; or the https:// or http:// URL of a file or of an "
           "index, read by HTTP Range requests without downloading the model (HF_TOKEN is sent to the "
           "Hugging Face Hub, or to the hosts in TENSORSCOPE_TOKEN_HOSTS; proxies from https_proxy and "
           "no_proxy)."_s;
}

const QList<std::pair<int, QString>>& exitStatuses()
{
    static const QList<std::pair<int, QString>> statuses = {
        {0, u"Success, or the file is valid."_s},
        {1,
         u"An invalid file or a failed check (validate, scan, audit-pickle, report), or two models that differ (diff)."_s},
        {2, u"A usage error, or a file that cannot be read or written."_s},
    };
    return statuses;
}

} // namespace ts::cli
